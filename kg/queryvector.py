"""A query's vector: embedded by the model and settings a build's vectors came from, or refused.

A build records how its vectors were made (``graph.json`` → ``embedding``, e.g.
``all-MiniLM-L6-v2|int8|truncate|96``; the read index keeps the same string).
:func:`query_embedder` loads that embedder (or checks one given against it) and
:func:`embed_query` turns a text into one unit vector with it, so a query lands in the space
of the stored vectors; cosines across models would mean nothing.
"""

from __future__ import annotations

import os

import numpy as np

from kg.errors import KgError, OptionError
from kg.extract.embedder import DEFAULT_MODEL, load_embedder

__all__ = ["query_embedder", "embed_query", "signature", "EmbeddingMismatchError"]


class EmbeddingMismatchError(KgError):
    """The query would be embedded by another model (or settings) than the build's vectors."""


def signature(embedder) -> str:
    """What an embedder calls its model and settings (compared with a build's ``embedding``)."""
    return str(getattr(embedder, "signature", getattr(embedder, "name", type(embedder).__name__)))


def query_embedder(recorded: str, embedder=None, *, model: str | os.PathLike[str] | None = None):
    """The embedder that made a build's vectors, whose settings are ``recorded``: ``embedder`` checked
    against them, else loaded.

    Without ``embedder`` the packaged model (or the sentence-transformers folder ``model``,
    for a build made with one) is loaded with the recorded settings
    (``name|precision|long_text|window``).

    Raises
    ------
    EmbeddingMismatchError
        When ``embedder`` differs from the build's, or the build's model is not one kg
        can load.
    """
    if embedder is None:
        name, _, rest = recorded.partition("|")
        parts = rest.split("|")
        if len(parts) != 3 or (model is None and name != DEFAULT_MODEL):
            raise EmbeddingMismatchError(
                f"this build's vectors come from {recorded or 'an unrecorded model'!r}, not kg's packaged "
                f"{DEFAULT_MODEL}; give that model's folder (model) or an embedder, "
                "or rebuild it with the packaged model")
        precision, long_text, window = parts
        try:
            embedder = load_embedder(model, precision=precision, long_text=long_text,
                                     window=None if window == "None" else int(window))
        except ValueError:
            raise EmbeddingMismatchError(f"cannot load the model settings {recorded!r} this build recorded; "
                                         "rebuild it with this kg") from None
    if recorded and signature(embedder) != recorded:
        raise EmbeddingMismatchError(
            f"the query would be embedded by {signature(embedder)!r} but this build's vectors come from "
            f"{recorded!r}; cosines across models mean nothing: use the build's model or rebuild")
    return embedder


def embed_query(embedder, text: str) -> np.ndarray:
    """``text`` as one unit float32 vector by ``embedder`` (raises :class:`OptionError` on empty text)."""
    if not isinstance(text, str) or not text.strip():
        raise OptionError("query", "must be some text, not an empty string")
    vector = np.asarray(embedder.embed([text.strip()]), dtype=np.float32)[0]
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector
