"""Paper document vectors kept beside a build: ``paper_vectors.npy`` and ``paper_vectors.json``.

``kg build`` embeds every paper's title and abstract (:func:`kg.extract.document_text`);
those unit vectors make the ``related`` links (see :mod:`kg.graph`) and let ``kg related``
score any pair of papers later without the model. They are stored as float16 (384
dimensions: 0.75 KB a paper, 41 MB for 54,000 papers), rows in the order of the ids in
``paper_vectors.json`` (``{"ids": [...], "dim": 384}``). Both files are written
atomically; a reader that finds them out of step (another build wrote in between) gets
None, as for a build without vectors.

Concepts get the same pair, ``concept_vectors.npy`` and ``concept_vectors.json``
(:func:`save_concept_vectors`, :func:`load_concept_vectors`): each concept's vector is
the one extraction computed for its most used surface form (:func:`concept_vectors`),
so ``kg search`` can rank concepts without running the model on them again.
"""

from __future__ import annotations

import io
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from kg.atomic import atomic_write
from kg.errors import GraphFileError

__all__ = ["save_paper_vectors", "load_paper_vectors", "save_concept_vectors", "load_concept_vectors",
           "concept_vectors", "nearest_neighbours", "VECTORS_FILE", "IDS_FILE", "CONCEPT_VECTORS_FILE",
           "CONCEPT_IDS_FILE", "EXACT_UP_TO"]

VECTORS_FILE = "paper_vectors.npy"
IDS_FILE = "paper_vectors.json"
CONCEPT_VECTORS_FILE = "concept_vectors.npy"
CONCEPT_IDS_FILE = "concept_vectors.json"
EXACT_UP_TO = 10_000  # papers; above, an HNSW index (faiss) finds the neighbours
HNSW_LINKS = 16
HNSW_BUILD_DEPTH = 40


def save_paper_vectors(path: str | os.PathLike[str], ids: Sequence[str], matrix: np.ndarray) -> list[str]:
    """Write ``matrix`` (one row per id) as float16 ``.npy`` and ``ids`` as JSON; the paths written.

    Parameters
    ----------
    path : path
        The build folder (the files are ``paper_vectors.npy`` and ``paper_vectors.json`` in
        it), or the ``.npy`` file itself (the ids go beside it, same name, ``.json``).
    ids : sequence of str
        Paper ids, one per row.
    matrix : numpy.ndarray
        ``(len(ids), dim)`` vectors, unit rows.
    """
    return _save(_paths(path), ids, matrix)


def _save(paths: tuple[str, str], ids: Sequence[str], matrix: np.ndarray) -> list[str]:
    matrix = np.asarray(matrix)
    if matrix.ndim != 2 or matrix.shape[0] != len(ids):
        raise ValueError(f"matrix of shape {matrix.shape} for {len(ids)} ids; expected one row per id")
    npy, meta = paths
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(matrix, dtype=np.float16), allow_pickle=False)
    atomic_write(meta, json.dumps({"ids": list(ids), "dim": int(matrix.shape[1])}, ensure_ascii=False) + "\n")
    atomic_write(npy, buffer.getvalue())
    return [npy, meta]


def load_paper_vectors(folder: str | os.PathLike[str]) -> tuple[list[str], np.ndarray] | None:
    """``(ids, matrix)`` saved by :func:`save_paper_vectors` in ``folder`` (matrix float32), else None.

    None when the files are missing.

    Raises
    ------
    GraphFileError
        When they are damaged or do not match each other.
    """
    return _load(_paths(folder))


def _load(paths: tuple[str, str]) -> tuple[list[str], np.ndarray] | None:
    """The vectors in ``paths`` (``.npy``, ``.json``); None when neither file is there.

    Raises
    ------
    GraphFileError
        When they are there but damaged: unreadable, not a matrix of numbers, or out of step
        with each other (a search must not quietly find nothing).
    """
    npy, meta = paths
    if not os.path.exists(npy) and not os.path.exists(meta):
        return None
    try:
        with open(meta, encoding="utf-8") as handle:
            ids = json.load(handle)["ids"]
        matrix = np.load(npy, allow_pickle=False)
        why = ("the ids are not a list" if not isinstance(ids, list)
               else "not a matrix of numbers" if matrix.ndim != 2 or matrix.dtype.kind not in "fiu"
               else f"{matrix.shape[0]} vectors for {len(ids)} ids" if matrix.shape[0] != len(ids) else None)
    except (OSError, ValueError, KeyError, TypeError, EOFError, RecursionError) as exc:
        why = str(exc)[:120] or type(exc).__name__
    if why is not None:
        raise GraphFileError(f"{npy} (with {os.path.basename(meta)}) is damaged ({why}); kg build writes them "
                             "again (rebuild the folder)")
    return [str(i) for i in ids], matrix.astype(np.float32)


def _paths(path: str | os.PathLike[str], names: tuple[str, str] = (VECTORS_FILE, IDS_FILE)) -> tuple[str, str]:
    path = os.fspath(path)
    if path.endswith(".npy"):
        return path, path[: -len(".npy")] + ".json"
    return os.path.join(path, names[0]), os.path.join(path, names[1])


def save_concept_vectors(folder: str | os.PathLike[str], ids: Sequence[str], matrix: np.ndarray) -> list[str]:
    """:func:`save_paper_vectors` for concepts: ``concept_vectors.npy`` and ``.json`` in ``folder``."""
    return _save(_paths(folder, (CONCEPT_VECTORS_FILE, CONCEPT_IDS_FILE)), ids, matrix)


def load_concept_vectors(folder: str | os.PathLike[str]) -> tuple[list[str], np.ndarray] | None:
    """``(ids, matrix)`` saved by :func:`save_concept_vectors` (matrix float32), else None."""
    return _load(_paths(folder, (CONCEPT_VECTORS_FILE, CONCEPT_IDS_FILE)))


def concept_vectors(mentions: Iterable[tuple[str, str]], phrase_vectors: Mapping[str, np.ndarray],
                    embedder=None) -> tuple[list[str], np.ndarray] | None:
    """Each concept's vector: the phrase vector of its most used surface form.

    Parameters
    ----------
    mentions : iterable of (concept id, surface)
        One pair per mention (a surface counted once per paper that uses it).
    phrase_vectors : mapping
        Phrase -> unit vector, as extraction computed them
        (:attr:`kg.extract.Extraction.phrase_vectors`).
    embedder : Embedder, optional
        Embeds the most used surface of a concept none of whose surfaces has a vector (a
        concept only a link by containment reaches); without it such a concept is left out.

    Returns
    -------
    (ids, matrix) or None
        Ids sorted. None when no concept has a vector.

    Examples
    --------
    >>> vectors = {"GNNs": np.array([1.0, 0.0]), "graph neural network": np.array([0.0, 1.0])}
    >>> ids, matrix = concept_vectors([("c:gnn", "GNNs"), ("c:gnn", "graph neural network"),
    ...                                ("c:gnn", "GNNs")], vectors)
    >>> ids, matrix.tolist(), matrix.dtype.name
    (['c:gnn'], [[1.0, 0.0]], 'float16')
    """
    counts: dict[str, Counter[str]] = {}
    for concept, surface in mentions:
        counts.setdefault(concept, Counter())[surface] += 1
    ids, surfaces = [], []
    for concept in sorted(counts):
        ranked = sorted(counts[concept].items(), key=lambda kv: (-kv[1], kv[0]))
        surface = next((s for s, _ in ranked if s in phrase_vectors), None if embedder is None else ranked[0][0])
        if surface is not None:
            ids.append(concept)
            surfaces.append(surface)
    if not ids:
        return None
    missing = sorted({s for s in surfaces if s not in phrase_vectors})
    if missing:
        phrase_vectors = {**dict(zip(missing, np.asarray(embedder.embed(missing), dtype=np.float32))),
                          **{s: phrase_vectors[s] for s in surfaces if s in phrase_vectors}}
    first = np.asarray(phrase_vectors[surfaces[0]])
    matrix = np.empty((len(ids), first.shape[0]), dtype=np.float16)  # as stored: half the memory
    for row, surface in enumerate(surfaces):
        matrix[row] = phrase_vectors[surface]
    return ids, matrix


def nearest_neighbours(matrix: np.ndarray, k: int, *, exact_up_to: int = EXACT_UP_TO,
                       chunk: int = 2048) -> np.ndarray:
    """Each row's ``k`` nearest other rows by inner product: ``(n, k)`` indices, best first, -1 pads.

    Up to ``exact_up_to`` rows the search is exact (blocked matrix products, ties by
    index); above, it uses faiss's HNSW graph (16 links a node, build depth 40, built on one
    thread so the same rows give the same graph; search depth ``max(1.5k, 64)``), which grows as
    about ``n log n`` where the exact search grows as ``n²``, and finds most, not all,
    of the true neighbours.
    """
    vectors = np.ascontiguousarray(matrix, dtype=np.float32)
    n = vectors.shape[0]
    k = max(0, min(k, n - 1))
    out = np.full((n, k), -1, dtype=np.int64)
    if k == 0:
        return out
    if n <= exact_up_to:
        for start in range(0, n, chunk):
            sims = vectors[start : start + chunk] @ vectors.T
            rows = np.arange(sims.shape[0])
            sims[rows, start + rows] = -np.inf
            part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
            out[start : start + chunk] = _by_score(part, np.take_along_axis(sims, part, axis=1))
        return out
    import faiss  # only for large corpora

    index = faiss.IndexHNSWFlat(vectors.shape[1], HNSW_LINKS, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = HNSW_BUILD_DEPTH
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)  # one thread: insertion order, hence the graph, is fixed
    try:
        index.add(vectors)
    finally:
        faiss.omp_set_num_threads(threads)
    index.hnsw.efSearch = max(k + k // 2, 64)
    sims, found = index.search(vectors, k + 1)
    sims = np.where(found == np.arange(n)[:, None], -np.inf, sims)  # never a row itself
    sims = np.where(found < 0, -np.inf, sims)
    return _by_score(found, sims)[:, :k]


def _by_score(indices: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Each row's indices sorted by score (best first), ties by index; -inf scores become -1."""
    order = np.lexsort((indices, -scores), axis=-1)
    ranked = np.take_along_axis(indices, order, axis=1)
    return np.where(np.isneginf(np.take_along_axis(scores, order, axis=1)), -1, ranked)
