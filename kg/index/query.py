"""Semantic search of a build through its index: the query embedded as the build embedded its papers.

:func:`search_index` is :func:`kg.search.search_build` without the graph: the embedder is
the one the index records (:func:`kg.queryvector.query_embedder`; the packaged model runs in
ONNX Runtime, so no PyTorch is loaded), the ranking is :meth:`BuildIndex.semantic_search`
over the memory-mapped vectors, their float16 rows widened by ONNX Runtime (:mod:`kg.float16`: the
same scores, 4-5 times faster than NumPy's cast).
"""

from __future__ import annotations

import os

from kg.errors import GraphFileError, OptionError
from kg.float16 import widener
from kg.index.read import BuildIndex
from kg.queryvector import embed_query, query_embedder, signature

__all__ = ["search_index"]


def search_index(index: BuildIndex, text: str, *, top: int = 10, embedder=None,
                 model: str | os.PathLike[str] | None = None) -> dict:
    """Papers and concepts of ``index``'s build nearest in meaning to ``text``.

    Returns
    -------
    dict
        ``{"query", "embedding", "papers", "concepts"}`` as :func:`kg.search.search_build`
        returns it (the same rows, tested against it).

    Raises
    ------
    GraphFileError
        When the build has no paper vectors.
    kg.queryvector.EmbeddingMismatchError
        When ``embedder`` (or ``model``) is not the build's.
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise OptionError("top", f"must be a whole number >= 1, not {top!r}")
    if not isinstance(text, str) or not text.strip():
        raise OptionError("query", "must be some text, not an empty string")
    if index.meta.get("paper_vectors") is None:
        raise GraphFileError(f"{index.folder}: no paper_vectors.npy/.json (or they are out of step); "
                             "rebuild with kg build to search it")
    embedder = query_embedder(str(index.meta.get("embedding") or ""), embedder, model=model)
    found = index.semantic_search(embed_query(embedder, text), top=top, widen=widener())
    return {"query": text.strip(), "embedding": signature(embedder), **found}
