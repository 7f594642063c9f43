"""kg.float16: ONNX Runtime's Cast widens float16 rows to float32 exactly as NumPy does, so a search
scores the same with it."""

from __future__ import annotations

import numpy as np
import pytest

from kg.float16 import CAST_MODEL, widener
from kg.index.read import _CHUNK, _scores


def test_the_model_bytes_are_what_onnx_writes():
    onnx = pytest.importorskip("onnx")  # a dependency of kg (ONNX Runtime's quantizer); 1.5 s to import
    helper, TensorProto = onnx.helper, onnx.TensorProto
    graph = helper.make_graph([helper.make_node("Cast", ["x"], ["y"], to=TensorProto.FLOAT)], "widen",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT16, ["n", "d"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", "d"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    assert model.SerializeToString() == CAST_MODEL


def test_every_float16_value_widens_as_numpy_widens_it():
    every = np.arange(1 << 16, dtype=np.uint16).view(np.float16).reshape(256, 256)  # subnormals, inf, nan too
    out = np.full((256, 256), 7.0, dtype=np.float32)
    widener()(out, every)
    expected = every.astype(np.float32)
    assert np.array_equal(out, expected, equal_nan=True)
    finite = np.isfinite(expected)
    assert np.array_equal(out.view(np.uint32)[finite], expected.view(np.uint32)[finite])  # bit for bit, -0.0 too


def test_it_writes_into_the_buffer_given_and_refuses_another():
    widen = widener()
    rows = np.arange(12, dtype=np.float16).reshape(3, 4)
    buffer = np.zeros((5, 4), dtype=np.float32)
    widen(buffer[:3], rows)
    assert buffer.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [0] * 4, [0] * 4]
    for wrong in (np.zeros((3, 5), np.float32), np.zeros((3, 4), np.float64), np.zeros((4, 3), np.float32).T):
        with pytest.raises(ValueError, match="C-contiguous float32"):
            widen(wrong, rows)


def test_scores_are_the_same_bits_with_it():
    rng = np.random.default_rng(3)
    for rows in (1, 7, _CHUNK + 5, 2 * _CHUNK + 1):  # one chunk, a chunk and a bit (two workers)
        matrix = rng.normal(size=(rows, 48)).astype(np.float16)
        query = rng.normal(size=48).astype(np.float32)
        query /= np.linalg.norm(query)
        plain = _scores(matrix, query)
        assert np.array_equal(_scores(matrix, query, widener()), plain)
        assert np.allclose(plain, matrix.astype(np.float32) @ query, rtol=1e-5, atol=1e-6)
