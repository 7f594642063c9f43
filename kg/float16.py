"""float16 rows widened to float32, exactly, by ONNX Runtime's ``Cast`` (F16C instructions).

A build stores its vectors as float16 (``paper_vectors.npy``, ``concept_vectors.npy``); a search
widens every row to float32 before the products. NumPy's float16 cast has no SIMD path on
x86-64: about 3 ns an element, 0.06-0.15 s for the 26.7 million of ACM-CR's concept vectors,
a tenth of ``kg search``. ONNX Runtime (already loaded to embed the query) converts with the
CPU's F16C instructions, 4-5 times faster. Widening float16 to float32 is exact in both, so the
rows, and every product made from them, are bit for bit the same (tested on every float16 value).

The one-node ONNX model (``Cast`` to float, any shape) is written here as its protobuf bytes, not
with the ``onnx`` package (1.5 s to import); a test checks them against ``onnx.helper``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["CAST_MODEL", "widener"]


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _message(field: int, payload: bytes | str) -> bytes:
    payload = payload.encode() if isinstance(payload, str) else payload
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _tensor(name: str, elem_type: int) -> bytes:
    """A ValueInfoProto: ``name``, a tensor of ``elem_type`` and shape (n, d)."""
    shape = _message(1, _message(2, "n")) + _message(1, _message(2, "d"))  # TensorShapeProto.dim: dim_param
    return _message(1, name) + _message(2, _message(1, _int(1, elem_type) + _message(2, shape)))


_FLOAT, _FLOAT16, _ATTRIBUTE_INT = 1, 10, 2  # onnx.TensorProto.FLOAT, .FLOAT16, onnx.AttributeProto.INT
_NODE = (_message(1, "x") + _message(2, "y") + _message(4, "Cast")
         + _message(5, _message(1, "to") + _int(3, _FLOAT) + _int(20, _ATTRIBUTE_INT)))
#: ModelProto (IR version 7, opset 13) of one graph: ``y = Cast(x, to=float)``, x float16 (n, d).
CAST_MODEL = (_int(1, 7)
              + _message(7, _message(1, _NODE) + _message(2, "widen") + _message(11, _tensor("x", _FLOAT16))
                         + _message(12, _tensor("y", _FLOAT)))
              + _message(8, _message(1, "") + _int(2, 13)))


def widener() -> Callable[[np.ndarray, np.ndarray], None]:
    """``widen(out, rows)``: NumPy's ``np.copyto(out, rows)`` for a 2-D float16 ``rows`` and a C-contiguous
    float32 ``out`` of the same shape, done by one ONNX Runtime session (made in a few milliseconds) that
    writes straight into ``out`` (no new array: the page faults of a fresh one cost as much as the cast)
    and releases the GIL; threads may share it."""
    import onnxruntime as ort  # onnxruntime (50-100 ms to import): only for a search, whose model has loaded it

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(CAST_MODEL, options, providers=["CPUExecutionProvider"])

    def widen(out: np.ndarray, rows: np.ndarray) -> None:
        if out.shape != rows.shape or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"widen: out must be a C-contiguous float32 array of shape {rows.shape}")
        binding = session.io_binding()
        binding.bind_cpu_input("x", np.ascontiguousarray(rows, dtype=np.float16))
        binding.bind_output("y", "cpu", 0, np.float32, out.shape, out.ctypes.data)
        session.run_with_iobinding(binding)

    return widen
