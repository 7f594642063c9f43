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
* **co-authorship**: authors linked by the number of papers they wrote together; papers
  with more than :data:`MAX_COAUTHORS` authors make no links (a collaboration paper would
  make millions), and the ``weight`` is fractional (see :func:`coauthorship`).

Every edge has ``count``, ``weight`` (= ``count``; fractional for co-authorship) and ``salton``, the count
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

__all__ = ["cocitation", "coupling", "coauthorship", "coauthor_cap", "MAX_COAUTHORS", "related_projection", "citers", "reference_keys",
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


#: Papers with more authors than this make no co-author links (VOSviewer's default for
#: co-authorship maps): a 3,000-author collaboration paper alone would make 4.5 million.
MAX_COAUTHORS = 25


def _authors_by_paper(graph: nx.MultiDiGraph) -> dict[str, set[str]]:
    papers = papers_of(graph)
    out: dict[str, set[str]] = {}
    for u, v, key in graph.edges(keys=True):
        if key == "wrote" and v in papers and graph.nodes[u].get("kind") == "author":
            out.setdefault(v, set()).add(u)
    return out


def coauthor_cap(graph: nx.MultiDiGraph, *, max_authors: int = MAX_COAUTHORS) -> int:
    """How many papers of ``graph`` have more than ``max_authors`` authors (and so make no
    co-author links in :func:`coauthorship`)."""
    return sum(1 for members in _authors_by_paper(graph).values() if len(members) > max_authors)


def coauthorship(graph: nx.MultiDiGraph, *, min_count: int = 1, max_authors: int = MAX_COAUTHORS) -> nx.Graph:
    """Authors linked by the papers they wrote together (``wrote`` edges), bounded as
    bibliometric tools bound it.

    A paper with more than ``max_authors`` authors (default :data:`MAX_COAUTHORS`) makes no
    links, so the projection stays linear in the corpus whatever one record holds; how many
    papers that left out is the graph attribute ``papers_over_author_cap`` (with
    ``max_authors``). ``count`` is the number of papers two authors share (full counting);
    ``weight`` is fractional (Newman 2001): each paper with *n* authors adds ``1/(n-1)``
    to each of its pairs, so a paper gives each author a total weight of 1.

    Examples
    --------
    >>> from kg.graph import build_graph
    >>> from kg.models import Paper
    >>> g = build_graph([Paper("a", "x", "A", authors=("Ann", "Bob", "Cy")), Paper("b", "y", "B", authors=("Ann", "Bob"))], {}, [])
    >>> co = coauthorship(g)
    >>> co.edges["a:ann", "a:bob"]["count"], co.edges["a:ann", "a:bob"]["weight"]
    (2, 1.5)
    >>> coauthorship(g, max_authors=2).graph["papers_over_author_cap"]
    1
    """
    authors = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "author")
    row = {a: i for i, a in enumerate(authors)}
    by_paper = _authors_by_paper(graph)
    kept = {p: members for p, members in by_paper.items() if len(members) <= max_authors}
    papers = {p: k for k, p in enumerate(sorted(kept))}
    entries = ((row[a], papers[p]) for p, members in kept.items() for a in members if a in row)
    out = _pairs_graph(authors, graph, entries, min_count=min_count)
    fraction: dict[tuple[str, str], float] = {}
    for members in kept.values():
        ordered = sorted(members)
        if len(ordered) < 2:
            continue
        share = 1.0 / (len(ordered) - 1)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                fraction[(a, b)] = fraction.get((a, b), 0.0) + share
    for a, b, data in out.edges(data=True):
        data["weight"] = round(fraction.get((min(a, b), max(a, b)), 0.0), 4)
    out.graph["max_authors"] = max_authors
    out.graph["papers_over_author_cap"] = len(by_paper) - len(kept)
    return out


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
