"""Projections derived from citations and authorship: co-citation, coupling, co-authorship.

All three read a kg graph (see :mod:`kg.graph`) and return a simple undirected
``nx.Graph`` with every node of the projected kind (isolated ones included):

* **co-citation** (Small 1973): papers *p* and *q* are linked when other corpus
  papers cite both; ``count`` = number of papers citing both.
* **bibliographic coupling** (Kessler 1963): *p* and *q* are linked when their
  reference lists share works, in the corpus or outside it; ``count`` = number of
  shared references. References are compared by canonical key, so a DOI URL and a
  bare DOI of the same work match, and a reference that resolves to a corpus paper
  matches any other reference to that paper.
* **co-authorship**: authors linked by the number of papers they wrote together.

Every edge has ``count``, ``weight`` (= ``count``) and ``salton``, the count
normalised by the geometric mean of both ends' totals, ``count / sqrt(n_p * n_q)``
(1.0 when both have exactly the same citers, references or papers).
:func:`related_projection` picks one of them, or the concept-based ``related``
projection, by name.

Examples
--------
>>> from kg.graph import build_graph
>>> from kg.models import Paper
>>> papers = [Paper("a", "x", "A", references=("c", "d")), Paper("b", "y", "B", references=("c", "d")),
...           Paper("c", "z", "C"), Paper("d", "w", "D")]
>>> g = build_graph(papers, {}, [])
>>> sorted(cocitation(g).edges(data="count"))
[('c', 'd', 2)]
>>> sorted(coupling(g).edges(data="salton"))
[('a', 'b', 1.0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx
import numpy as np
from scipy import sparse

from kg.graph import papers_of, projection
from kg.identity import reference_index, resolve_reference
from kg.identifiers import reference_key

__all__ = ["cocitation", "coupling", "coauthorship", "related_projection", "citers", "reference_keys",
           "PROJECTIONS"]

#: Names :func:`related_projection` accepts.
PROJECTIONS = ("concepts", "cocitation", "coupling")


def _pairs_graph(nodes: Sequence[str], graph: nx.Graph, rows: Iterable[tuple[int, int]],
                 *, min_count: int) -> nx.Graph:
    """Link ``nodes`` whose rows of the 0/1 incidence ``rows`` (row, column) overlap."""
    out = nx.Graph()
    out.graph.update(graph.graph)
    out.add_nodes_from((n, graph.nodes[n]) for n in nodes)
    entries = sorted(set(rows))
    if not entries:
        return out
    r, c = zip(*entries)
    n_cols = max(c) + 1
    matrix = sparse.csr_matrix((np.ones(len(r)), (r, c)), shape=(len(nodes), n_cols))
    totals = np.asarray(matrix.sum(axis=1)).ravel()
    overlap = sparse.triu(matrix @ matrix.T, k=1).tocoo()
    edges = sorted(
        (nodes[i], nodes[j], int(v)) if nodes[i] < nodes[j] else (nodes[j], nodes[i], int(v))
        for i, j, v in zip(overlap.row, overlap.col, overlap.data) if v >= min_count
    )
    index = {n: k for k, n in enumerate(nodes)}
    for p, q, count in edges:
        salton = count / float(np.sqrt(totals[index[p]] * totals[index[q]]))
        out.add_edge(p, q, count=count, weight=count, salton=round(salton, 4))
    return out


def cocitation(graph: nx.MultiDiGraph, *, min_count: int = 1) -> nx.Graph:
    """Papers linked by the number of corpus papers that cite both (``cites`` edges).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    min_count : int
        Fewest common citers for a link.
    """
    papers = sorted(papers_of(graph))
    row = {p: i for i, p in enumerate(papers)}
    citing = {u: k for k, u in enumerate(sorted({u for u, _, key in graph.edges(keys=True) if key == "cites"}))}
    entries = ((row[v], citing[u]) for u, v, key in graph.edges(keys=True)
               if key == "cites" and v in row)
    return _pairs_graph(papers, graph, entries, min_count=min_count)


def citers(graph: nx.MultiDiGraph, paper: str) -> set[str]:
    """The corpus papers that cite ``paper`` (its ``cites`` in-edges)."""
    return {u for u, _, key in graph.in_edges(paper, keys=True) if key == "cites"}


def reference_keys(graph: nx.MultiDiGraph, papers: Iterable[str] | None = None) -> dict[str, set[str]]:
    """Each paper's references as canonical keys, as :func:`coupling` compares them.

    A reference that resolves to a corpus paper is that paper's id prefixed with ``=``
    (so it never equals an outside key); any other is :func:`kg.identifiers.reference_key`
    of its text. A paper without a ``references`` attribute (older kg versions) gets its
    resolved ``cites`` targets.

    Examples
    --------
    >>> from kg.graph import build_graph
    >>> from kg.models import Paper
    >>> g = build_graph([Paper("a", "x", "A", references=("b", "10.1000/Z")), Paper("b", "y", "B")], {}, [])
    >>> sorted(reference_keys(g, ["a"])["a"])
    ['=b', 'doi:10.1000/z']
    """
    everything = sorted(papers_of(graph))
    known = reference_index((p, graph.nodes[p].get("ids") or ()) for p in everything)
    out: dict[str, set[str]] = {}
    for p in everything if papers is None else papers:
        refs = graph.nodes[p].get("references")
        if refs is None:
            keys = {"=" + v for _, v, key in graph.out_edges(p, keys=True) if key == "cites"}
        else:
            keys = set()
            for ref in refs:
                target = resolve_reference(str(ref), known)
                if target != p:
                    keys.add("=" + target if target else reference_key(str(ref)))
        out[p] = keys
    return out


def coupling(graph: nx.MultiDiGraph, *, min_count: int = 1) -> nx.Graph:
    """Papers linked by the number of references they share (bibliographic coupling).

    Uses each paper's ``references`` attribute; a graph without it (older kg
    versions) falls back to the resolved ``cites`` edges (see :func:`reference_keys`).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    min_count : int
        Fewest shared references for a link.
    """
    papers = sorted(papers_of(graph))
    columns: dict[str, int] = {}
    entries: list[tuple[int, int]] = []
    keys = reference_keys(graph)
    for i, p in enumerate(papers):
        for key in keys[p]:
            entries.append((i, columns.setdefault(key, len(columns))))
    return _pairs_graph(papers, graph, entries, min_count=min_count)


def coauthorship(graph: nx.MultiDiGraph, *, min_count: int = 1) -> nx.Graph:
    """Authors linked by the number of papers they wrote together (``wrote`` edges)."""
    authors = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "author")
    row = {a: i for i, a in enumerate(authors)}
    papers = {p: k for k, p in enumerate(sorted(papers_of(graph)))}
    entries = ((row[u], papers[v]) for u, v, key in graph.edges(keys=True)
               if key == "wrote" and u in row and v in papers)
    return _pairs_graph(authors, graph, entries, min_count=min_count)


def related_projection(graph: nx.MultiDiGraph, by: str = "concepts", *, min_count: int = 1) -> nx.Graph:
    """Paper–paper links by shared ``concepts`` (the ``related`` edges), ``cocitation`` or ``coupling``.

    Every variant is an undirected ``nx.Graph`` over all papers whose edges carry
    ``weight``, so centrality and community code can take any of them.
    """
    if by == "concepts":
        return projection(graph, "related")
    if by == "cocitation":
        return cocitation(graph, min_count=min_count)
    if by == "coupling":
        return coupling(graph, min_count=min_count)
    raise ValueError(f"unknown projection {by!r}; choose from {PROJECTIONS}")
