"""Related-paper lookup: a paper's nearest papers, explained by what they share.

A candidate's score is the ``related`` link weight (:func:`kg.graph.link_weight`) for any
pair, not only the kept links: ``Σ_{c ∈ shared} ln((N + 1) / df(c))`` for *N* papers, so a
rare shared concept counts more than a common one; plus, when the build's document
vectors are given (:func:`kg.vectors.load_paper_vectors`), ``ln(N + 1) · w · cos`` of
the two papers' vectors (``w``: the build's ``similarity_weight``) and ``author_weight``
times the idf of each shared author (of at most ``CANDIDATE_DF`` papers); plus ``ln(N + 1)``
for a citation in either direction, as much as sharing a concept no other paper
mentions. The papers listed share at least the build's ``min_shared`` concepts (default 0:
with vectors, any paper may be listed) or a citation, so a paper's kept ``related`` links
come in the same order as here.

:func:`related_by` ranks by that score (``concepts``) or by one other relation: the
number of corpus papers citing both (``cocitation``), the number of references both
cite (``coupling``), each with Salton's cosine, or the cosine of the two papers'
document vectors alone (``embedding``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
import numpy as np

from kg.citations import citers, reference_keys
from kg.defaults import RELATED_BY
from kg.errors import NodeNotFoundError, OptionError
from kg.linkweight import (AUTHOR_WEIGHT, CANDIDATE_DF, SIMILARITY_WEIGHT, citation, cosines, related_parameters,
                           score_related)

__all__ = ["find_paper", "related_papers", "related_by", "RELATED_BY"]



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


def related_papers(graph: nx.MultiDiGraph, paper: str, *, top: int = 10,
                   vectors: tuple[Sequence[str], np.ndarray] | None = None) -> list[dict]:
    """The papers nearest to ``paper`` through shared concepts, document similarity and citations.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    paper : str
        A paper id (see :func:`find_paper` to resolve a title).
    top : int
    vectors : (ids, matrix), optional
        The build's document vectors, as :func:`kg.vectors.load_paper_vectors` returns
        them; without them the score rests on concepts and citations alone. The weight of
        similarity and the fewest shared concepts are the build's (its ``parameters``).

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
    params = related_parameters(graph.graph)
    weight = float(params.get("similarity_weight", SIMILARITY_WEIGHT))
    by_author = float(params.get("author_weight", AUTHOR_WEIGHT))
    min_shared = int(params.get("min_shared", 0))
    if params.get("vectors") is False:
        vectors = None  # the links were made without them: rank as they were weighed
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
    if vectors is not None and weight > 0 and min_shared <= 0:
        for other in vectors[0]:  # document similarity alone may link
            if other != paper and graph.nodes.get(other, {}).get("kind") == "paper":
                candidates.setdefault(other, [])
    cosine = _cosines(vectors, paper, candidates) if weight > 0 else {}
    authors = _shared_authors(graph, paper, n_papers) if cosine and by_author > 0 else {}
    rows = [{"id": other, "title": graph.nodes[other].get("title", ""), "score": score, "shared": shared,
             "citation": link}
            for score, other, shared, link in score_related(
                candidates, idf, n_papers, cites=cites, cited_by=cited_by, cosine=cosine, shared_authors=authors,
                min_shared=min_shared, similarity_weight=weight, author_weight=by_author)]
    rows.sort(key=lambda r: (-r["score"], r["id"]))
    return rows[:top]


def _shared_authors(graph: nx.MultiDiGraph, paper: str, n_papers: int) -> dict[str, list[float]]:
    """Other paper -> idf of each author it shares with ``paper`` (authors of at most CANDIDATE_DF papers)."""
    out: dict[str, list[float]] = {}
    for author, _, key in graph.in_edges(paper, keys=True):
        count = graph.nodes[author].get("papers") or 1
        if key != "wrote" or count > CANDIDATE_DF:
            continue
        for _, other, k in graph.out_edges(author, keys=True):
            if k == "wrote" and other != paper:
                out.setdefault(other, []).append(math.log((n_papers + 1) / count))
    return out


def _cosines(vectors, paper: str, candidates) -> dict[str, float]:
    """Cosine of ``paper``'s vector with each candidate's (as the build computed it), by id."""
    if vectors is None:
        return {}
    ids, matrix = vectors
    row = {pid: i for i, pid in enumerate(ids)}
    if paper not in row:
        return {}
    others = [other for other in candidates if other in row]
    return dict(zip(others, cosines(matrix, row[paper], [row[o] for o in others]).tolist()))


def related_by(graph: nx.MultiDiGraph, paper: str, *, by: str = "concepts", top: int = 10,
               vectors: tuple[Sequence[str], np.ndarray] | None = None) -> list[dict]:
    """The papers nearest to ``paper`` by one relation (:data:`RELATED_BY`), best first (ties by id).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    paper : str
        A paper id.
    by : {"concepts", "cocitation", "coupling", "embedding"}
        ``concepts``: :func:`related_papers` (``shared``: concept ids, rarest first).
        ``cocitation``: score = corpus papers citing both, ``shared``: their ids.
        ``coupling``: score = references both cite, ``shared``: the corpus ids of those
        in the corpus, else their canonical keys (``doi:…``). Both also give ``salton``,
        the score over the geometric mean of both papers' totals (ties are broken by it).
        ``embedding``: score = cosine of the document vectors, ``shared``: the concepts
        both mention, rarest first.
    top : int
    vectors : (ids, matrix), optional
        The build's document vectors (:func:`kg.vectors.load_paper_vectors`); required
        for ``embedding``, used by ``concepts`` as :func:`related_papers` uses them.

    Returns
    -------
    list of dict
        ``{"id", "title", "score", "shared", "citation"}`` (and ``salton`` for the two
        citation relations); ``citation`` as in :func:`related_papers`.

    Raises
    ------
    OptionError
        For an unknown ``by`` (argument ``by``), or ``embedding`` without vectors
        (argument ``vectors``).
    NodeNotFoundError
        For a ``paper`` not in the graph, or without a vector for ``embedding``.
    """
    if by not in RELATED_BY:
        raise OptionError("by", f"unknown relation {by!r}; choose from {', '.join(RELATED_BY)}")
    if graph.nodes.get(paper, {}).get("kind") != "paper":
        raise NodeNotFoundError(f"no paper with id {paper!r}; see papers.csv for ids")
    if by == "concepts":
        return related_papers(graph, paper, top=top, vectors=vectors)
    if by == "embedding":
        rows = _by_embedding(graph, paper, vectors, top)
    else:
        rows = _by_citations(graph, paper, by)
    cites = {v for _, v, k in graph.out_edges(paper, keys=True) if k == "cites"}
    cited_by = {u for u, _, k in graph.in_edges(paper, keys=True) if k == "cites"}
    for row in rows:
        row["title"] = graph.nodes[row["id"]].get("title", "")
        row["citation"] = citation(row["id"], cites, cited_by)
    rows.sort(key=lambda r: (-r["score"], -r.get("salton", 0.0), r["id"]))
    return [{k: row[k] for k in ("id", "title", "score", "salton", "shared", "citation") if k in row}
            for row in rows[:top]]


def _by_citations(graph: nx.MultiDiGraph, paper: str, by: str) -> list[dict]:
    if by == "cocitation":
        sets = {p: citers(graph, p) for p in _papers(graph)}
    else:
        sets = reference_keys(graph)
    mine = sets[paper]
    rows = []
    for other, theirs in sets.items():
        shared = mine & theirs
        if other == paper or not shared:
            continue
        salton = len(shared) / math.sqrt(len(mine) * len(theirs))
        shown = sorted(key[1:] if key.startswith("=") else key for key in shared)
        rows.append({"id": other, "score": len(shared), "salton": round(salton, 4), "shared": shown})
    return rows


def _by_embedding(graph: nx.MultiDiGraph, paper: str, vectors, top: int) -> list[dict]:
    if vectors is None:
        raise OptionError("vectors", "ranking by embedding needs the build's document vectors "
                                     "(paper_vectors.npy, written by kg build); rebuild to get them")
    ids, matrix = vectors
    row = {pid: i for i, pid in enumerate(ids)}
    if paper not in row:
        raise NodeNotFoundError(f"paper {paper!r} has no document vector in this build; rebuild to get one")
    scores = matrix.astype(np.float64) @ matrix[row[paper]].astype(np.float64)
    ranked = sorted((-round(score, 6), other) for other, score in zip(ids, scores.tolist())
                    if other != paper and graph.nodes.get(other, {}).get("kind") == "paper")
    mine = {c for _, c, k in graph.out_edges(paper, keys=True) if k == "mentions"}
    rows = []
    for score, other in ranked[:top]:
        shared = [c for _, c, k in graph.out_edges(other, keys=True) if k == "mentions" and c in mine]
        shared.sort(key=lambda c: (graph.nodes[c].get("papers") or 1, c))
        rows.append({"id": other, "score": -score, "shared": shared})
    return rows
