"""The ``related`` links between papers: who is a candidate, and how much a link weighs.

For papers *p*, *q* sharing concepts *S*, ``w(p, q) = Σ_{c ∈ S} ln((N + 1) / df(c))`` (see
:mod:`kg.graph`), plus, with document vectors, ``similarity_weight · ln(N + 1)`` times their
cosine and ``author_weight`` times the idf of each shared author; a citation adds too.
:func:`related_edges` finds each paper's ``top_k`` strongest links over a sparse paper–concept
incidence matrix (:func:`incidence`); :func:`link_weight` weighs one pair as they are weighed
(``kg related`` explains a pair with it).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from scipy import sparse

from kg.identity import author_id
from kg.linkweight import AUTHOR_WEIGHT, CANDIDATE_DF, RELATED_PARAMETERS, SIMILARITY_WEIGHT, link_weight
from kg.models import Mention, Paper
from kg.vectors import nearest_neighbours

__all__ = ["related_edges", "link_weight", "incidence", "author_incidence", "SIMILARITY_WEIGHT", "CANDIDATE_DF",
           "RELATED_PARAMETERS", "AUTHOR_WEIGHT"]

_DENSE_BYTES = 1 << 27


def incidence(paper_ids: Sequence[str], concept_ids: Sequence[str],
               mentions: Iterable[Mention]) -> sparse.csr_matrix:
    prow = {p: i for i, p in enumerate(paper_ids)}
    ccol = {c: j for j, c in enumerate(concept_ids)}
    rows, cols = [], []
    for m in mentions:
        rows.append(prow[m.paper_id])
        cols.append(ccol[m.concept_id])
    data = np.ones(len(rows), dtype=np.float64)
    matrix = sparse.csr_matrix((data, (rows, cols)), shape=(len(paper_ids), len(concept_ids)))
    matrix.sum_duplicates()  # also sorts indices
    matrix.data[:] = 1.0  # duplicates collapse to presence
    return matrix


def author_incidence(paper_ids: Sequence[str], by_id: Mapping[str, Paper]) -> sparse.csr_matrix:
    """Papers × authors (by :func:`author_id`, as the ``wrote`` edges) 0/1 matrix."""
    columns: dict[str, int] = {}
    rows, cols = [], []
    for i, pid in enumerate(paper_ids):
        for aid in sorted({a for a in map(author_id, by_id[pid].authors) if a is not None}):
            rows.append(i)
            cols.append(columns.setdefault(aid, len(columns)))
    return sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(paper_ids), len(columns)))


def related_edges(paper_ids: Sequence[str], concept_ids: Sequence[str], x: sparse.csr_matrix, *,
                  top_k: int = 20, min_shared: int = 0, chunk: int = 2048,
                  doc_vectors: np.ndarray | None = None, similarity_weight: float = SIMILARITY_WEIGHT,
                  authors: sparse.csr_matrix | None = None, author_weight: float = AUTHOR_WEIGHT,
                  cited: Iterable[tuple[str, str]] = (), candidates: int = 100,
                  candidate_df: int = CANDIDATE_DF):
    """Yield ``(p, q, weight, shared_concept_ids)`` for the kept paper–paper links, sorted by id (p < q).

    The weight is :func:`link_weight`: shared concepts' idf, plus, when ``doc_vectors`` are
    given, the document cosine and shared authors (``authors``: a papers × authors 0/1
    matrix), plus a citation either way. Each paper's candidates are its ``candidates``
    best by shared concepts (concepts in more than ``candidate_df`` papers only add to the
    weight of candidates found otherwise: they would pair a large share of the corpus),
    its ``candidates`` nearest by document vector (:func:`kg.vectors.nearest_neighbours`),
    the papers of its authors (of at most ``candidate_df`` papers) and the papers it cites
    or is cited by; of these it keeps its ``top_k`` best with at least ``min_shared`` shared
    concepts or a citation (ties by id). A link stays if either end keeps it.
    ``doc_vectors``: unit rows aligned with ``paper_ids``; they are rounded to float16 as
    :func:`kg.vectors.save_paper_vectors` stores them, so ``kg related`` finds the same weights.
    """
    n = x.shape[0]
    idf = _idf(x, n)
    vectors = None if doc_vectors is None else _unit_rows(doc_vectors, n)
    if vectors is None:
        similarity_weight, authors = 0.0, None
    index = {p: i for i, p in enumerate(paper_ids)}
    cites: dict[int, set[int]] = defaultdict(set)
    for a, b in cited:
        if a in index and b in index and a != b:
            cites[index[a]].add(index[b])
            cites[index[b]].add(index[a])
    concept_part = _Overlap(x, idf, candidate_df, counts=min_shared > 1)
    author_part = None
    if authors is not None and author_weight > 0 and authors.shape[1]:
        author_idf = _idf(authors, n)
        author_part = _Overlap(authors, author_weight * author_idf, candidate_df, frequent=False)
    neighbours = None
    if vectors is not None and similarity_weight > 0:
        neighbours = nearest_neighbours(vectors, candidates)
    bonus = math.log(n + 1)
    keep: set[tuple[int, int]] = set()
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        concept_part.block(start, stop)
        if author_part is not None:
            author_part.block(start, stop)
        for i in range(start, stop):
            found = [concept_part.best(i, candidates)]
            if author_part is not None:
                found.append(author_part.best(i, candidates))
            if neighbours is not None:
                found.append(neighbours[i][neighbours[i] >= 0])
            mine = cites.get(i, set())
            if mine:
                found.append(np.fromiter(sorted(mine), dtype=np.int64, count=len(mine)))
            cand = np.unique(np.concatenate(found).astype(np.int64))
            cand = cand[cand != i]
            if not len(cand):
                continue
            score, shared_n = concept_part.score(i, cand)
            cited_i = np.isin(cand, np.fromiter(mine, dtype=np.int64, count=len(mine)))
            score += bonus * cited_i
            if author_part is not None:
                score += author_part.score(i, cand)[0]
            if neighbours is not None:
                score += bonus * similarity_weight * (vectors[cand] @ vectors[i])
            ok = ((shared_n >= min_shared) | cited_i) & (score > 0)
            cand, score = cand[ok], score[ok]
            for j in cand[np.lexsort((cand, -score))[:top_k]].tolist():
                keep.add((min(i, j), max(i, j)))
    pairs = sorted(keep, key=lambda ij: (paper_ids[ij[0]], paper_ids[ij[1]]))
    left = np.fromiter((i for i, _ in pairs), dtype=np.int64, count=len(pairs))
    right = np.fromiter((j for _, j in pairs), dtype=np.int64, count=len(pairs))
    # Every pair's shared concepts at once, each pair's rarest first (ties by id: concept_ids are sorted)
    rank = np.empty(len(concept_ids), dtype=np.int64)
    rank[np.lexsort((np.arange(len(concept_ids)), -idf))] = np.arange(len(concept_ids))
    shared_ptr, shared_idx = _common_columns(x, left, right, rank)
    if author_part is not None:
        author_ptr, author_idx = _common_columns(authors, left, right)
        counted = np.array([author_part.counts_for(a) for a in range(authors.shape[1])], dtype=bool)
    for k, (i, j) in enumerate(pairs):
        columns = shared_idx[shared_ptr[k]:shared_ptr[k + 1]].tolist()
        cosine = 0.0
        if vectors is not None:
            cosine = float(np.dot(vectors[i].astype(np.float64), vectors[j].astype(np.float64)))
        author_idf_sum: list[float] = []
        if author_part is not None and author_ptr[k + 1] > author_ptr[k]:
            common = author_idx[author_ptr[k]:author_ptr[k + 1]]
            author_idf_sum = author_idf[common[counted[common]]].tolist()
        weight = link_weight(idf[columns].tolist(), n, cosine=cosine, cited=j in cites.get(i, ()),
                             shared_authors_idf=author_idf_sum, similarity_weight=similarity_weight,
                             author_weight=author_weight)
        p, q = sorted((paper_ids[i], paper_ids[j]))
        yield p, q, weight, [concept_ids[c] for c in columns]


def _common_columns(x: sparse.csr_matrix, left: np.ndarray, right: np.ndarray,
                    rank: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The columns rows ``left[k]`` and ``right[k]`` of a 0/1 matrix share, for every k, as
    ``(indptr, indices)``: pair k's columns are ``indices[indptr[k]:indptr[k + 1]]``, in
    ascending ``rank`` (default: column) order."""
    both = x[left].multiply(x[right]).tocsr()
    both.eliminate_zeros()
    indices, indptr = both.indices.astype(np.int64), both.indptr.astype(np.int64)
    rows = np.repeat(np.arange(len(left)), np.diff(indptr))
    indices = indices[np.lexsort((rank[indices] if rank is not None else indices, rows))]
    return indptr, indices


def _idf(x: sparse.csr_matrix, n: int) -> np.ndarray:
    return np.log((n + 1) / np.maximum(np.asarray(x.sum(axis=0)).ravel(), 1))


class _Overlap:
    """Weighted overlap of one paper's columns (concepts, authors) with other papers'.

    Columns in at most ``max_df`` papers go through a sparse product, a chunk of papers at a
    time (work per paper about ``Σ df²`` over its columns, bounded by ``max_df``: linear in
    the corpus); the more frequent ones (at most ``nnz / max_df``) through a dense 0/1 table
    (``max_df`` doubles while that table would pass 128 MB), only for given candidates, or not
    at all (``frequent=False``)."""

    def __init__(self, x: sparse.csr_matrix, weights: np.ndarray, max_df: int, *, counts: bool = False,
                 frequent: bool = True):
        df = np.asarray(x.sum(axis=0)).ravel()
        while frequent and x.shape[0] * int((df > max_df).sum()) > _DENSE_BYTES:
            max_df *= 2  # keep the 0/1 table of frequent columns small
        self.rare = df <= max_df
        x_rare = x[:, self.rare].tocsr()
        self.x_rare, self.weighted = x_rare, (x_rare @ sparse.diags(weights[self.rare])).tocsr()
        self.xt = x_rare.T.tocsr()
        cols = np.flatnonzero(~self.rare) if frequent else np.zeros(0, dtype=np.int64)
        self.dense = x[:, cols].toarray().astype(bool)
        self.dense_weights = weights[cols]
        self.counts = counts
        self.start = 0

    def counts_for(self, column: int) -> bool:
        return bool(self.rare[column]) or self.dense.shape[1] > 0

    def block(self, start: int, stop: int) -> None:
        self.start = start
        self.product = (self.weighted[start:stop] @ self.xt).tocsr()
        self.product.sort_indices()
        if self.counts:
            self.count = (self.x_rare[start:stop] @ self.xt).tocsr()
            self.count.sort_indices()  # the same pattern as product, in the same order

    def best(self, i: int, k: int) -> np.ndarray:
        lo, hi = self.product.indptr[i - self.start], self.product.indptr[i - self.start + 1]
        cols, vals = self.product.indices[lo:hi], self.product.data[lo:hi]
        return cols if len(cols) <= k else cols[np.lexsort((cols, -vals))[:k]]

    def score(self, i: int, cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Weighted overlap of paper ``i`` with each of ``cand`` (sorted), and how many columns they share
        (at least 1 where any rare one is shared, unless counted exactly)."""
        lo, hi = self.product.indptr[i - self.start], self.product.indptr[i - self.start + 1]
        cols = self.product.indices[lo:hi]
        pos = np.minimum(np.searchsorted(cols, cand), max(len(cols) - 1, 0))
        hit = (cols[pos] == cand) if len(cols) else np.zeros(len(cand), bool)
        score = np.where(hit, self.product.data[lo:hi][pos] if len(cols) else 0.0, 0.0)
        count = hit.astype(np.float64)
        if self.counts and len(cols):
            count = np.where(hit, self.count.data[lo:hi][pos], 0.0)
        mine = self.dense[i]
        if mine.any():
            common = self.dense[cand][:, mine]
            score = score + common @ self.dense_weights[mine]
            count = count + common.sum(axis=1)
        return score, count


def _unit_rows(doc_vectors: np.ndarray, n: int) -> np.ndarray:
    vectors = np.asarray(doc_vectors)
    if vectors.ndim != 2 or vectors.shape[0] != n:
        raise ValueError(f"doc_vectors of shape {vectors.shape} for {n} papers; expected one row per paper")
    return vectors.astype(np.float16).astype(np.float32)  # as saved beside the graph
