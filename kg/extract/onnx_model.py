"""A sentence-transformers model as an int8 ONNX Runtime session, for CPUs.

Why: on a CPU the model is compute-bound, and the cheapest arithmetic available on
every x86-64 CPU is 8-bit integer multiply-accumulate. PyTorch's own dynamic
quantization barely helps short inputs; ONNX Runtime with fused attention does. On
the 2-core AVX2 machine kg is developed on (``bench/bench_extract.py``), tokens per
second for all-MiniLM-L6-v2:

=====================  =========  ===================  ===================
                       PyTorch    ORT fp32, fused      ORT int8, fused
=====================  =========  ===================  ===================
phrases (1,365 x 6)      3,300          4,260                6,410
abstracts (64 x 128)     3,500          4,030                6,350
=====================  =========  ===================  ===================

and on Inspec test F1@5/10/15 stays within a few tenths of a point of fp32 (README,
"Extraction").

How: the transformer is exported once with ``torch.onnx`` (eager attention, so ONNX
Runtime's BERT fusions apply; mean pooling inside the graph), fused by
``onnxruntime.transformers.optimizer`` and its linear layers quantized to int8
(weights per tensor). Activations are quantized with fixed scales, calibrated once at
export (:func:`_calibrate`): ONNX Runtime's dynamic quantization takes one scale per
forward pass over the whole batch, so a text's vector moved with the texts batched
with it (a cosine distance of 0.01 on average for phrases) and a build from the
cache differed from the build that filled it. With fixed scales a vector depends on
its text alone, at the same speed and as close to fp32 (cosine distance 0.037 for
ACM-CR phrases, 0.044 for abstracts, both ways). The file is stored in ``cache_dir``
under a digest of the model's files, of ONNX Runtime's version and of the calibration
text, written atomically, and loaded directly on later runs, which then need neither
PyTorch nor the original weights in memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from kg.atomic import atomic_write
from kg.extract.batching import padded, token_batches

__all__ = ["OnnxInt8Model", "user_cache_dir", "fast_tokenizer", "EXPORT_VERSION"]

EXPORT_VERSION = "2"  # bump when the export recipe changes: old files are then ignored (2: calibrated scales)
# What the activation scales are calibrated on: the titles and abstracts of kg's example corpus (original
# text written for kg, examples/papers.jsonl), and runs of their words as stand-ins for phrases.
CALIBRATION = Path(__file__).resolve().parent.parent / "resources" / "calibration.txt"


def user_cache_dir() -> Path:
    """Where kg keeps files it can rebuild: ``$KG_CACHE_DIR``, else ``$XDG_CACHE_HOME/kg``, else ``~/.cache/kg``."""
    if os.environ.get("KG_CACHE_DIR"):
        return Path(os.environ["KG_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kg"


def _digest(folder: Path, cache_dir: Path | None = None) -> str:
    """A short hash of the model's files and of everything the exported file depends on.

    Hashing the 90 MB of a MiniLM costs 0.1 s of every command that embeds (``kg search``), so with
    ``cache_dir`` the hash is kept in a file named by the files' paths, sizes and modification times
    and read back while those stay the same.
    """
    import onnxruntime  # onnxruntime: only when the int8 model runs

    calibration = hashlib.sha256(CALIBRATION.read_bytes()).hexdigest()[:16]
    header = f"{EXPORT_VERSION}|{onnxruntime.__version__}|{calibration}"
    files = [p for p in sorted(folder.rglob("*"))
             if p.is_file() and p.suffix in _MODEL_FILES and not p.name.startswith(".")]
    remembered = None
    if cache_dir is not None:
        stats = [f"{p.resolve()}|{p.stat().st_size}|{p.stat().st_mtime_ns}" for p in files]
        named = hashlib.sha256("\n".join([header, *stats]).encode()).hexdigest()[:24]
        remembered = Path(cache_dir) / "onnx" / f"digest-{named}.txt"
        with contextlib.suppress(OSError):
            kept = remembered.read_text(encoding="ascii").strip()
            if len(kept) == 16:
                return kept
    h = hashlib.sha256(header.encode())
    for path in files:
        h.update(str(path.relative_to(folder)).encode())
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 22), b""):
                h.update(block)
    digest = h.hexdigest()[:16]
    if remembered is not None:
        with contextlib.suppress(OSError):  # a read-only cache only costs the hash next time
            remembered.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(remembered, digest)
    return digest


_MODEL_FILES = {".json", ".safetensors", ".bin"}


def export_in_child(folder: Path, target: Path) -> None:
    """Export the model at ``folder`` into ``target`` in two fresh child processes, one after the other.

    Why: the export needs PyTorch and the fp32 weights, about 0.6 GB that a process never
    hands back once loaded; a first build of ACM-CR that exported in-process peaked at 2.69 GB
    (1.7 GB from the second run on, and now on the first). One child that both traced the graph with
    PyTorch and fused and quantized it with ONNX Runtime's tools peaked at 2.24 GB (torch 2.15,
    onnxruntime 1.32): the fusion's own session needs 1.3 GB more on top of PyTorch. Now the first child
    traces (PyTorch, peak about 1.5 GB) and the second, without PyTorch, fuses and quantizes (about
    1.7 GB); the file is the one a single process writes. Errors of the children are raised here.
    """
    config = json.loads((Path(folder) / "config.json").read_text(encoding="utf-8"))
    context = multiprocessing.get_context("spawn")  # a fork would copy this process and its threads
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".export-") as tmp:
        plain = Path(tmp) / "plain.onnx"
        for step, args in ((_trace_folder, (str(folder), str(plain))),
                           (_fuse_and_quantize, (config, str(plain), str(target), str(folder)))):
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
                pool.submit(step, *args).result()


def _trace_folder(folder: str, plain: str) -> None:
    """The first child of :func:`export_in_child`: load the model from its folder (offline) and trace it."""
    from sentence_transformers import SentenceTransformer  # in the child only: see export_in_child

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    model = SentenceTransformer(folder, device="cpu", local_files_only=True)
    _trace(model[0].auto_model, Path(plain))


def _export(transformer, target: Path, folder: Path) -> None:
    """Export, fuse and quantize ``transformer`` (the model at ``folder``) into ``target`` (atomically), in this process."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".export-") as tmp:
        plain = Path(tmp) / "plain.onnx"
        _trace(transformer, plain)
        _fuse_and_quantize(transformer.config.to_dict(), str(plain), str(target), str(folder))


def _trace(transformer, plain: Path) -> None:
    """The fp32 graph of ``transformer`` with mean pooling inside, traced by ``torch.onnx`` into ``plain``."""
    import torch  # only once per model, to export it

    class Pooled(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask):
            kwargs = {"input_ids": input_ids, "attention_mask": attention_mask}
            if getattr(self.model.config, "type_vocab_size", 0):
                kwargs["token_type_ids"] = torch.zeros_like(input_ids)
            hidden = self.model(**kwargs).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    previous = getattr(transformer.config, "_attn_implementation", None)
    ids = torch.ones((2, 8), dtype=torch.long)
    try:
        if hasattr(transformer, "set_attn_implementation"):
            transformer.set_attn_implementation("eager")  # the pattern ORT's fusions know
        with warnings.catch_warnings(), torch.inference_mode(False), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pooled(transformer).eval(), (ids, torch.ones_like(ids)), str(plain),
                input_names=["input_ids", "attention_mask"], output_names=["embedding"],
                dynamic_axes={"input_ids": {0: "batch", 1: "tokens"},
                              "attention_mask": {0: "batch", 1: "tokens"}, "embedding": {0: "batch"}},
                opset_version=17, dynamo=False)
    finally:
        if previous is not None and hasattr(transformer, "set_attn_implementation"):
            transformer.set_attn_implementation(previous)


def _fuse_and_quantize(config: dict, plain: str, target: str, model_folder: str) -> None:
    """The traced graph at ``plain`` fused (BERT-like models: ONNX Runtime's attention fusions), its linear
    layers quantized to int8 and its activation scales calibrated (:func:`_calibrate`), written atomically
    to ``target``. ``config`` is the model's ``config.json`` and ``model_folder`` its folder (for the tokenizer);
    PyTorch is not needed."""
    import onnx  # onnx and onnxruntime's tools: only once per model, to export it
    from onnxruntime.quantization import QuantType, quantize_dynamic  # see above
    from onnxruntime.transformers import optimizer  # see above

    source, folder = Path(plain), Path(plain).parent
    fused, quantized = folder / "fused.onnx", folder / "int8.onnx"
    kind = config.get("model_type")
    if kind in ("bert", "roberta", "distilbert", "xlm-roberta", "mpnet"):
        family = "bert" if kind in ("roberta", "xlm-roberta", "mpnet") else kind
        optimizer.optimize_model(str(source), model_type=family, num_heads=config.get("num_attention_heads", 0),
                                 hidden_size=config.get("hidden_size", 0)).save_model_to_file(str(fused))
        source = fused
    logging.disable(logging.WARNING)  # the quantizer logs advice to the root logger
    try:
        quantize_dynamic(str(source), str(quantized), weight_type=QuantType.QInt8,
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    finally:
        logging.disable(logging.NOTSET)
    calibrated = Path(plain).parent / "calibrated.onnx"
    _calibrate(quantized, calibrated, Path(model_folder))
    os.replace(calibrated, target)


def _calibration_texts() -> list[str]:
    """The calibration text's lines, and runs of two to four of their words (phrase-like inputs)."""
    lines = [line for line in CALIBRATION.read_text(encoding="utf-8").splitlines() if line.strip()]
    runs = []
    for line in lines:
        words = line.split()
        runs += [" ".join(words[i:i + 2 + (i // 3) % 3]) for i in range(0, len(words) - 3, 3)]
    return lines + runs


def _calibrate(quantized: Path, target: Path, folder: Path, budget: int = 2048) -> None:
    """``quantized`` (ONNX Runtime's dynamic quantization) with each ``DynamicQuantizeLinear`` replaced by a
    ``QuantizeLinear`` of fixed scale and zero point, written to ``target``.

    Each scale covers the median, over the calibration batches (:func:`_calibration_texts`, sorted by
    length, each filled to ``budget`` tokens), of the range the dynamic node took in each batch;
    on ACM-CR and hep-th the per-batch medians of 3,300 phrases and 300 abstracts were within 0.15 of
    these. Values outside the range saturate, as they would in a batch with a narrower one.
    """
    import onnx  # onnx and onnxruntime: only once per model, to export it
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(quantized))
    dynamic = [node for node in model.graph.node if node.op_type == "DynamicQuantizeLinear"]
    probe = onnx.load(str(quantized))
    for node in dynamic:  # the float input of every dynamic node, as an output of the probe
        probe.graph.output.append(helper.make_tensor_value_info(node.input[0], TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"])
    del probe
    settings = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
    window = int(settings.get("max_seq_length") or 512)
    tokenizer = fast_tokenizer(folder)
    ids = sorted((e.ids[:window] for e in tokenizer.encode_batch(_calibration_texts())), key=len)
    pad = tokenizer.token_to_id("[PAD]") or 0
    lows: list[list[float]] = [[] for _ in dynamic]
    highs: list[list[float]] = [[] for _ in dynamic]
    for start, stop in token_batches([len(seq) for seq in ids], budget, slack=float("inf")):  # filled to the budget
        input_ids, mask = padded(ids[start:stop], pad)
        for k, values in enumerate(session.run(None, {"input_ids": input_ids, "attention_mask": mask})[1:]):
            lows[k].append(min(float(values.min()), 0.0))
            highs[k].append(max(float(values.max()), 0.0))
    nodes = []
    fixed = dict(zip((node.name for node in dynamic), zip(lows, highs)))
    for node in model.graph.node:
        if node.name not in fixed or node.op_type != "DynamicQuantizeLinear":
            nodes.append(node)
            continue
        low, high = (float(np.median(v)) for v in fixed[node.name])
        scale = np.float32((high - low) / 255.0) if high > low else np.float32(1.0)
        zero = np.uint8(np.clip(np.round(-low / scale), 0, 255))
        quantized_name, scale_name, zero_name = node.output
        model.graph.initializer.extend([numpy_helper.from_array(np.array(scale, dtype=np.float32), scale_name),
                                        numpy_helper.from_array(np.array(zero, dtype=np.uint8), zero_name)])
        nodes.append(helper.make_node("QuantizeLinear", [node.input[0], scale_name, zero_name], [quantized_name],
                                      name=node.name))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    onnx.save(model, str(target))


def fast_tokenizer(folder: Path):
    """The model's ``tokenizer.json`` as a ``tokenizers.Tokenizer`` that neither truncates nor pads."""
    from tokenizers import Tokenizer  # tokenizers: only when the model runs

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


@contextlib.contextmanager
def _exclusive(path: Path):
    """Hold an exclusive lock on ``path`` + ``.lock`` (no lock where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: concurrent exports each write a whole file, the last one stays
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class OnnxInt8Model:
    """Mean-pooled sentence embeddings from an int8 ONNX Runtime session.

    Parameters
    ----------
    folder : path
        The sentence-transformers model folder; its files key the exported file.
    cache_dir : path
        Folder for the exported file.
    threads : int
        ONNX Runtime intra-op threads.
    load_model : callable
        Returns the ``SentenceTransformer`` already loaded in this process, or None; called only
        when the file has to be exported (the first run for this model). With None the export
        runs in a child process (:func:`export_in_child`), so that no run, the first included,
        keeps PyTorch in memory.
    """

    def __init__(self, folder: str | os.PathLike[str], cache_dir: str | os.PathLike[str], threads: int,
                 *, load_model):
        import onnxruntime as ort  # onnxruntime: only when the int8 model runs

        folder = Path(folder)
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self.path = Path(cache_dir) / "onnx" / f"{config.get('model_type', 'model')}-{_digest(folder, cache_dir)}-int8.onnx"
        if not self.path.exists():
            with _exclusive(self.path):  # processes starting together (Ray workers) export once
                if not self.path.exists():
                    model = load_model()
                    if model is not None:
                        _export(model[0].auto_model, self.path, folder)
                    else:
                        export_in_child(folder, self.path)
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # no "some nodes were not assigned" chatter
        self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        self.dim = int(config.get("hidden_size") or self.session.get_outputs()[0].shape[-1])

    def __call__(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        """``(batch, tokens)`` int64 ids and mask -> ``(batch, dim)`` float32 mean-pooled rows."""
        return self.session.run(None, {"input_ids": input_ids, "attention_mask": attention_mask})[0]
