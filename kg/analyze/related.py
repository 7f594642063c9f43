"""Related-paper lookup: a paper's nearest papers, explained by what they share.

A candidate's score is the ``related`` edge weight recomputed over *all* shared
concepts (not only the kept edges): ``Σ_{c ∈ shared} ln((N + 1) / df(c))`` for *N*
papers, so a rare shared concept counts more than a common one. A citation between
the two papers, in either direction, adds ``ln(N + 1)``: as much as sharing a concept
no other paper mentions.
"""

from __future__ import annotations

import math

import networkx as nx

from kg.errors import NodeNotFoundError

__all__ = ["find_paper", "related_papers"]


def _papers(graph: nx.MultiDiGraph) -> list[str]:
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == "paper"]


def find_paper(graph: nx.MultiDiGraph, query: str) -> str:
    """The id of the paper ``query`` names: its id, else its exact title, else a unique title substring.

    Matching on titles ignores case. Raises :class:`kg.errors.NodeNotFoundError` when
    nothing or more than one paper matches, listing the candidates.
    """
    if graph.nodes.get(query, {}).get("kind") == "paper":
        return query
    papers = _papers(graph)
    wanted = query.casefold().strip()
    exact = [p for p in papers if str(graph.nodes[p].get("title", "")).casefold().strip() == wanted]
    if len(exact) == 1:
        return exact[0]
    partial = exact or [p for p in papers if wanted and wanted in str(graph.nodes[p].get("title", "")).casefold()]
    if len(partial) == 1:
        return partial[0]
    if not partial:
        raise NodeNotFoundError(f"no paper with id or title {query!r}; see papers.csv for ids")
    shown = "; ".join(f"{p} ({graph.nodes[p].get('title', '')})" for p in sorted(partial)[:5])
    more = f" and {len(partial) - 5} more" if len(partial) > 5 else ""
    raise NodeNotFoundError(f"{len(partial)} papers match {query!r}: {shown}{more}; give an id")


def related_papers(graph: nx.MultiDiGraph, paper: str, *, top: int = 10) -> list[dict]:
    """The papers nearest to ``paper`` through shared concepts and citations.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    paper : str
        A paper id (see :func:`find_paper` to resolve a title).
    top : int

    Returns
    -------
    list of dict
        ``{"id", "title", "score", "shared", "citation"}`` best first (ties by id):
        ``shared`` lists the shared concept ids, rarest first; ``citation`` is
        ``"cites"`` (``paper`` cites it), ``"cited by"``, ``"both"`` or None.
    """
    if graph.nodes.get(paper, {}).get("kind") != "paper":
        raise NodeNotFoundError(f"no paper with id {paper!r}; see papers.csv for ids")
    n_papers = len(_papers(graph))
    idf = {}
    candidates: dict[str, list[str]] = {}
    for _, concept, key in graph.out_edges(paper, keys=True):
        if key != "mentions":
            continue
        df = graph.nodes[concept].get("papers") or 1
        idf[concept] = math.log((n_papers + 1) / df)
        for other, _, k in graph.in_edges(concept, keys=True):
            if k == "mentions" and other != paper:
                candidates.setdefault(other, []).append(concept)
    cites = {v for _, v, k in graph.out_edges(paper, keys=True) if k == "cites"}
    cited_by = {u for u, _, k in graph.in_edges(paper, keys=True) if k == "cites"}
    for other in cites | cited_by:
        candidates.setdefault(other, [])
    rows = []
    for other, shared in candidates.items():
        shared = sorted(shared, key=lambda c: (-idf[c], c))
        link = ("both" if other in cites and other in cited_by else "cites" if other in cites
                else "cited by" if other in cited_by else None)
        score = sum(idf[c] for c in shared) + (math.log(n_papers + 1) if link else 0.0)
        rows.append({"id": other, "title": graph.nodes[other].get("title", ""), "score": round(score, 4),
                     "shared": shared, "citation": link})
    rows.sort(key=lambda r: (-r["score"], r["id"]))
    return rows[:top]
