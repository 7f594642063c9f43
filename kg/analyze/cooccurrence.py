"""Concept co-occurrence as it stood at the end of a year: the ground the forecast and the gaps stand on.

:func:`dated_mentions` reads, once, each dated paper of a kg graph as ``(paper id, year,
concept ids)``; :func:`concept_window` keeps the papers published up to a year ``until``
and nothing after it, and from them alone counts each concept's papers (in all, in the
last ``span`` years and in the ``span`` years before), finds which concepts are
*eligible* (mentioned by ``min_papers`` papers or more up to ``until``), the co-occurrence
counts among them (papers mentioning both) and clusters of concepts (Louvain on the
co-occurrence counts, seeded). Nothing of a later paper reaches a window: that is what
makes a forecast made from it checkable against the papers that came next.

Examples
--------
>>> papers = [("p1", 2001, ("c:a", "c:b")), ("p2", 2002, ("c:a", "c:c")), ("p3", 2009, ("c:b", "c:c"))]
>>> w = concept_window(papers, until=2005, min_papers=1)
>>> w.concepts, w.counts.tolist(), int(w.cooc[w.index["c:b"], w.index["c:c"]])
(['c:a', 'c:b', 'c:c'], [2, 1, 1], 0)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np
from scipy import sparse

from kg.defaults import SEED
from kg.errors import OptionError
from kg.fastgraph import seeded_igraph
from kg.graph import node_label

__all__ = ["check_counts", "dated_mentions", "concept_window", "Window", "year_range", "check_until", "concept_names",
           "cluster_labels", "aligned_vectors", "future_pairs", "name_overlap", "synonym_pairs", "MIN_PAPERS",
           "SPAN", "SYNONYM_COSINE"]

MIN_PAPERS = 5  # papers up to the cut-off a concept needs to take part (the protocol's threshold)
SPAN = 3  # years of "recent" papers in a concept's growth
SYNONYM_COSINE = 0.85  # concept vectors this close: two wordings of one idea (synonym_pairs)

DatedPapers = Sequence[tuple[str, int, Sequence[str]]]


def dated_mentions(graph: nx.MultiDiGraph) -> list[tuple[str, int, tuple[str, ...]]]:
    """``(paper id, year, concept ids)`` of every paper with a year and a concept, by year then id.

    Papers without a year cannot be placed in time and are left out (:func:`year_range`
    counts them).
    """
    rows = []
    for node, data in graph.nodes(data=True):
        year = data.get("year")
        if data.get("kind") != "paper" or not isinstance(year, int) or isinstance(year, bool):
            continue
        concepts = tuple(sorted({v for _, v, key in graph.out_edges(node, keys=True) if key == "mentions"}))
        if concepts:
            rows.append((node, year, concepts))
    return sorted(rows, key=lambda r: (r[1], r[0]))


def year_range(papers: DatedPapers) -> tuple[int, int] | None:
    """First and last year of ``papers`` (None when there are none)."""
    years = [year for _, year, _ in papers]
    return (min(years), max(years)) if years else None


def check_counts(**values) -> None:
    """Raises OptionError naming the first of ``values`` that is not a whole number of 1 or more (the options the
    forecast and the gaps share: top, min_papers, min_size, sample, …)."""
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(name, f"must be a whole number, 1 or more, not {value!r}")


def check_until(papers: DatedPapers, until: int | None, horizon: int, *, backtest: bool) -> int:
    """The cut-off year to use: ``until``, or the last year of ``papers``; raises OptionError when
    the papers cannot support it (a backtest needs ``horizon`` years after it and a training
    window of ``horizon`` years before it)."""
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
        raise OptionError("horizon", f"must be a whole number of years, 1 or more, not {horizon!r}")
    span = year_range(papers)
    if span is None:
        raise OptionError("until", "the graph has no paper with both a year and a concept, so nothing can be "
                                   "placed in time")
    first, last = span
    if until is None:
        if backtest:
            raise OptionError("until", "a backtest needs a cut-off year")
        until = last
    if isinstance(until, bool) or not isinstance(until, int):
        raise OptionError("until", f"must be a year, not {until!r}")
    earliest = first + horizon  # the model learns from features at until - horizon: papers must exist by then
    latest = last - horizon if backtest else last
    if not earliest <= until <= latest:
        need = (f"a backtest needs {horizon} year{'s' if horizon != 1 else ''} of papers after the cut-off and "
                f"{horizon} before it to learn from" if backtest else
                f"the forecast learns from the {horizon} year{'s' if horizon != 1 else ''} before the cut-off")
        if earliest > latest:
            raise OptionError("until", f"the papers run from {first} to {last}: too few years for horizon {horizon} "
                                       f"({need})")
        raise OptionError("until", f"{until} is outside what the papers allow: they run from {first} to {last} "
                                   f"and {need}, so the cut-off must be {earliest}–{latest}")
    return until


@dataclass
class Window:
    """Concepts and their co-occurrence as of the end of year ``until`` (papers up to it only).

    Attributes
    ----------
    until : int
    concepts : list of str
        The eligible concepts (``min_papers`` papers or more up to ``until``), sorted; row and
        column ``i`` of every array is ``concepts[i]``.
    index : dict
        Concept id -> position.
    counts, recent, before, last, first : numpy.ndarray
        Papers mentioning each concept up to ``until``, in the last ``span`` years
        (``until - span + 1 … until``), in the ``span`` years before those, in ``until`` itself,
        and its first year.
    cooc : scipy.sparse.csr_matrix
        Papers mentioning both concepts (the diagonal is zero).
    earlier_degree : numpy.ndarray
        How many eligible concepts each co-occurred with by ``until - span`` (its new partners
        since: :meth:`degree` minus this).
    cluster : numpy.ndarray
        Each concept's cluster number (0 the largest).
    papers : list of (paper id, year, tuple of positions)
        The papers up to ``until`` with their eligible concepts.
    """

    until: int
    span: int
    concepts: list[str]
    index: dict[str, int]
    counts: np.ndarray
    recent: np.ndarray
    before: np.ndarray
    last: np.ndarray
    first: np.ndarray
    cooc: sparse.csr_matrix
    earlier_degree: np.ndarray
    cluster: np.ndarray
    papers: list[tuple[str, int, tuple[int, ...]]] = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.concepts)

    def adjacency(self) -> np.ndarray:
        """Dense 0/1 float32 matrix: the concepts a paper up to ``until`` mentions together."""
        dense = np.zeros((self.size, self.size), dtype=np.float32)
        coo = self.cooc.tocoo()
        dense[coo.row, coo.col] = 1.0
        return dense

    def recent_cooc(self) -> sparse.csr_matrix:
        """Like ``cooc``, counting only the papers of the last ``span`` years (``until - span + 1 … until``)."""
        recent = [at for _, year, at in self.papers if year > self.until - self.span]
        rows = [k for k, at in enumerate(recent) for _ in at]
        cols = [c for at in recent for c in at]
        incidence = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                                      shape=(len(recent), self.size))
        return _cooccurrence(incidence)

    def degree(self) -> np.ndarray:
        """How many eligible concepts each concept co-occurs with."""
        return np.diff(self.cooc.indptr).astype(np.float64)


def concept_window(papers: DatedPapers, until: int, *, min_papers: int = MIN_PAPERS, span: int = SPAN,
                   seed: int = SEED) -> Window:
    """The concepts and co-occurrence of the papers published up to ``until`` (later ones are ignored).

    Parameters
    ----------
    papers : sequence of (paper id, year, concept ids)
        As :func:`dated_mentions` gives them.
    until : int
        The last year seen.
    min_papers : int
        Papers up to ``until`` a concept needs to be eligible.
    span : int
        Years of "recent" papers.
    seed : int
        Seed of the concept clusters.
    """
    check_counts(min_papers=min_papers)
    seen = [(pid, year, tuple(sorted(set(concepts)))) for pid, year, concepts in papers if year <= until]
    seen.sort(key=lambda r: (r[1], r[0]))
    total: dict[str, int] = {}
    for _, _, concepts in seen:
        for c in concepts:
            total[c] = total.get(c, 0) + 1
    names = sorted(c for c, n in total.items() if n >= min_papers)
    index = {c: i for i, c in enumerate(names)}
    n = len(names)
    counts, recent, before, last = (np.zeros(n, dtype=np.int64) for _ in range(4))
    first = np.full(n, until, dtype=np.float64)
    rows, cols, kept = [], [], []
    for pid, year, concepts in seen:
        at = tuple(index[c] for c in concepts if c in index)
        kept.append((pid, year, at))
        if not at:
            continue
        positions = np.fromiter(at, dtype=np.int64, count=len(at))
        counts[positions] += 1
        if year == until:
            last[positions] += 1
        if year > until - span:
            recent[positions] += 1
        elif year > until - 2 * span:
            before[positions] += 1
        first[positions] = np.minimum(first[positions], year)
        rows.extend([len(kept) - 1] * len(at))
        cols.extend(at)
    incidence = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(kept), n))
    cooc = _cooccurrence(incidence)
    older = np.fromiter((year <= until - span for _, year, _ in kept), dtype=bool, count=len(kept))
    earlier = _cooccurrence(incidence[older])
    return Window(until, span, names, index, counts, recent, before, last, first, cooc,
                  np.diff(earlier.indptr).astype(np.float64), _clusters(cooc, seed), kept)


def _cooccurrence(incidence: sparse.csr_matrix) -> sparse.csr_matrix:
    cooc = (incidence.T @ incidence).tocsr()
    cooc = (cooc - sparse.diags(cooc.diagonal())).tocsr()
    cooc.eliminate_zeros()
    cooc.sort_indices()
    return cooc


def _clusters(cooc: sparse.csr_matrix, seed: int) -> np.ndarray:
    """Louvain clusters of the co-occurrence counts (igraph, seeded), numbered largest first."""
    import igraph as ig  # igraph: Louvain on thousands of concepts in a second

    n = cooc.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    upper = sparse.triu(cooc, k=1).tocoo()
    graph = ig.Graph(n=n, edges=list(zip(upper.row.tolist(), upper.col.tolist())))
    graph.es["weight"] = upper.data.astype(float).tolist()
    with seeded_igraph(seed):
        membership = np.asarray(graph.community_multilevel(weights="weight").membership)
    sizes = np.bincount(membership)
    smallest = np.full(sizes.shape[0], n)
    np.minimum.at(smallest, membership, np.arange(n))
    order = sorted(range(sizes.shape[0]), key=lambda k: (-sizes[k], smallest[k]))
    renumber = np.empty(sizes.shape[0], dtype=np.int64)
    renumber[order] = np.arange(len(order))
    return renumber[membership]


def concept_names(graph: nx.MultiDiGraph) -> dict[str, str]:
    """Node id -> how tables show it: concepts with their acronym, papers by title."""
    return {node: node_label(data, node) for node, data in graph.nodes(data=True)
            if data.get("kind") in ("concept", "paper")}


def cluster_labels(window: Window, names: Mapping[str, str] | None = None, *, top: int = 3) -> list[str]:
    """Each cluster's label: its ``top`` concepts with the most papers up to the cut-off."""
    names = names or {}
    labels = []
    for k in range(int(window.cluster.max()) + 1 if window.size else 0):
        members = np.flatnonzero(window.cluster == k)
        ranked = sorted(members.tolist(), key=lambda i: (-window.counts[i], window.concepts[i]))[:top]
        labels.append(", ".join(names.get(window.concepts[i], window.concepts[i]) for i in ranked))
    return labels


def aligned_vectors(window: Window, vectors: tuple[Sequence[str], np.ndarray] | None) -> np.ndarray | None:
    """Unit concept vectors in the window's order (a concept without one: zeros), or None."""
    if vectors is None:
        return None
    ids, matrix = vectors
    where = {c: i for i, c in enumerate(ids)}
    out = np.zeros((window.size, matrix.shape[1] if matrix.ndim == 2 else 0), dtype=np.float32)
    for i, c in enumerate(window.concepts):
        if c in where:
            out[i] = matrix[where[c]]
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def future_pairs(papers: DatedPapers, window: Window, horizon: int) -> sparse.csr_matrix:
    """0/1 upper-triangular matrix of eligible pairs that a paper of ``until + 1 … until + horizon``
    mentions together (for checking a forecast, never for making one)."""
    rows, cols = [], []
    for _, year, concepts in papers:
        if window.until < year <= window.until + horizon:
            at = sorted({window.index[c] for c in concepts if c in window.index})
            for a in range(len(at)):
                for b in range(a + 1, len(at)):
                    rows.append(at[a])
                    cols.append(at[b])
    n = window.size
    found = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, n))
    found.sum_duplicates()
    found.data[:] = 1.0
    return found


def name_overlap(concepts: Sequence[str]) -> np.ndarray:
    """Share of the shorter name's words that the other name has too (``web search engine`` and
    ``search engine``: 1; ``users interest`` and ``user interest``: 1, a plural ``s`` aside), for every pair of
    ``concepts`` (ids ``c:name``)."""
    vocabulary: dict[str, int] = {}
    rows, cols = [], []
    for i, concept in enumerate(concepts):
        for word in {_singular(w) for w in re.findall(r"[a-z0-9]+", concept.split(":", 1)[-1].lower())}:
            rows.append(i)
            cols.append(vocabulary.setdefault(word, len(vocabulary)))
    words = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                              shape=(len(concepts), max(len(vocabulary), 1)))
    overlap = np.asarray((words @ words.T).todense(), dtype=np.float32)
    sizes = np.maximum(np.asarray(words.sum(axis=1)).ravel(), 1.0)
    return overlap / np.minimum.outer(sizes, sizes)


def synonym_pairs(overlap: np.ndarray, cosine: np.ndarray | None) -> np.ndarray:
    """Which pairs are two wordings of one idea rather than two ideas that may meet: every word of one name is in
    the other (``name_overlap`` 1: ``search engine`` / ``Web search engine``) or their concept vectors are nearly
    the same (``cosine`` ``SYNONYM_COSINE`` or more). A research strategist gains nothing from hearing that two
    such names will "meet"."""
    same = np.asarray(overlap) >= 1.0
    if cosine is not None:
        same = same | (np.asarray(cosine) >= SYNONYM_COSINE)
    return same


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
