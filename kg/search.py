"""Semantic search over a build: papers and concepts ranked by the vectors the build stored.

``kg build`` keeps every paper's document vector (``paper_vectors.npy``) and every
concept's phrase vector (``concept_vectors.npy``, :mod:`kg.vectors`). A query is embedded
by the same model, with the same settings (the graph's ``embedding`` metadata records
them), and each stored vector is scored by its cosine with the query. Each hit comes with
its place in the graph: a paper's community (as numbered and labeled in the report) and
its strongest concepts; a concept's paper count, the community most of its papers are in,
and the concepts it co-occurs with most.

:func:`search` is the pure ranking (vectors in, rows out); :func:`search_build` reads a
build folder, embeds the query and calls it; :func:`query_embedder` gives the embedder a
build's vectors came from (or refuses one that differs).

Examples
--------
>>> import numpy as np
>>> from kg.graph import build_graph
>>> from kg.models import Paper
>>> g = build_graph([Paper("a", "x", "Graphs"), Paper("b", "y", "Words")], {}, [])
>>> papers = (["a", "b"], np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32))
>>> [(r["id"], r["score"]) for r in search(g, np.array([0.8, 0.6]), papers=papers)["papers"]]
[('a', 0.8), ('b', 0.6)]
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence

import networkx as nx
import numpy as np

from kg.errors import GraphFileError, OptionError
from kg.graph import node_label
from kg.analyze import community_rows, paper_communities, saved_parameters
from kg.graphfile import load_graph
from kg.queryvector import EmbeddingMismatchError, embed_query
from kg.queryvector import query_embedder as embedder_for
from kg.queryvector import signature as _signature
from kg.vectors import load_concept_vectors, load_paper_vectors

__all__ = ["search", "search_build", "query_embedder", "embed_query", "EmbeddingMismatchError"]

Vectors = tuple[Sequence[str], np.ndarray]


def query_embedder(graph: nx.MultiDiGraph, embedder=None, *, model: str | os.PathLike[str] | None = None):
    """The embedder that made ``graph``'s vectors: ``embedder`` checked against it, else loaded
    (:func:`kg.queryvector.query_embedder` with the graph's recorded ``embedding``).

    Raises
    ------
    EmbeddingMismatchError
        When ``embedder`` differs from the build's, or the build's model is not one kg
        can load.
    """
    recorded = str(graph.graph.get("embedding") or graph.graph.get("model") or "")
    return embedder_for(recorded, embedder, model=model)


def _ranked(vectors: Vectors | None, query: np.ndarray, top: int, keep) -> list[tuple[str, float]]:
    if vectors is None or top <= 0:
        return []
    ids, matrix = vectors
    if len(ids) == 0:
        return []
    if matrix.shape[1] != query.shape[0]:
        raise EmbeddingMismatchError(f"stored vectors have {matrix.shape[1]} dimensions, the query "
                                     f"{query.shape[0]}: they come from different models")
    scores = np.asarray(matrix, dtype=np.float32) @ query.astype(np.float32)
    order = np.lexsort((np.arange(len(ids)), -scores))  # best first, ties by stored order (ids sorted)
    out = []
    for i in order:
        if keep(ids[i]):
            out.append((str(ids[i]), round(float(scores[i]), 4)))
            if len(out) == top:
                break
    return out


def _names(graph: nx.MultiDiGraph, nodes) -> list[str]:
    return [node_label(graph.nodes[n], n) for n in nodes]


def search(graph: nx.MultiDiGraph, query: np.ndarray, *, papers: Vectors | None = None,
           concepts: Vectors | None = None, communities: Sequence[dict] | None = None,
           top: int = 10, context: int = 3) -> dict:
    """Papers and concepts of ``graph`` nearest to the ``query`` vector, with their graph context.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    query : numpy.ndarray
        A unit vector from the build's embedder (:func:`embed_query`).
    papers, concepts : (ids, matrix), optional
        Stored vectors (:func:`kg.vectors.load_paper_vectors`, :func:`~kg.vectors.load_concept_vectors`).
        Ids the graph does not hold are skipped.
    communities : sequence of dict, optional
        The report's community rows (``id``, ``label``, ``papers``); without them hits
        carry no community.
    top : int
        Hits of each kind.
    context : int
        Concepts listed with each hit.

    Returns
    -------
    dict
        ``{"papers": [...], "concepts": [...]}``, best first (ties by id). A paper row:
        ``id``, ``title``, ``year``, ``score`` (cosine), ``community``, ``community_label``,
        ``concepts`` (its top-ranked concepts). A concept row: ``id``, ``name``, ``score``,
        ``papers``, ``community`` (where most of its papers are; None when none),
        ``community_label``, ``concepts`` (those it co-occurs with most). Concepts are
        named as readers see them, acronym included: "collaborative filtering (CF)".
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise OptionError("top", f"must be a whole number >= 1, not {top!r}")
    query = np.asarray(query, dtype=np.float32).ravel()
    member: dict[str, int] = {}
    labels: dict[int, str] = {}
    for row in communities or ():
        labels[row["id"]] = row.get("label", "")
        for p in row.get("papers", ()):
            member[p] = row["id"]

    def kind(wanted: str):
        return lambda n: graph.nodes.get(n, {}).get("kind") == wanted

    paper_rows = []
    for pid, score in _ranked(papers, query, top, kind("paper")):
        data = graph.nodes[pid]
        ranked = sorted(((d.get("rank", 0), v) for _, v, k, d in graph.out_edges(pid, keys=True, data=True)
                         if k == "mentions"))
        community = member.get(pid)
        paper_rows.append({"id": pid, "title": data.get("title", ""), "year": data.get("year"), "score": score,
                           "community": community, "community_label": labels.get(community),
                           "concepts": _names(graph, [c for _, c in ranked[:context]])})
    concept_rows = []
    for cid, score in _ranked(concepts, query, top, kind("concept")):
        data = graph.nodes[cid]
        citing = [u for u, _, k in graph.in_edges(cid, keys=True) if k == "mentions"]
        votes = Counter(member[p] for p in citing if p in member)
        community = min(votes, key=lambda c: (-votes[c], c)) if votes else None
        cooc = Counter()
        for u, v, k, d in graph.edges(cid, keys=True, data=True):
            if k == "co_occurs":
                cooc[v] = d.get("count", d.get("weight", 1))
        for u, _, k, d in graph.in_edges(cid, keys=True, data=True):
            if k == "co_occurs":
                cooc[u] = d.get("count", d.get("weight", 1))
        strongest = sorted(cooc, key=lambda c: (-cooc[c], c))[:context]
        concept_rows.append({"id": cid, "name": node_label(data, cid), "score": score,
                             "papers": data.get("papers", len(citing)), "community": community,
                             "community_label": labels.get(community), "concepts": _names(graph, strongest)})
    return {"papers": paper_rows, "concepts": concept_rows}


def _report_communities(folder: str, graph: nx.MultiDiGraph) -> list[dict]:
    """The report's community rows (``report.json``), else computed as the report computes them."""
    try:
        with open(os.path.join(folder, "report.json"), encoding="utf-8") as handle:
            rows = json.load(handle).get("communities")
        if isinstance(rows, list) and all(isinstance(r, dict) and "id" in r for r in rows):
            return rows
    except (OSError, ValueError, AttributeError):
        pass
    related, found = paper_communities(graph, **saved_parameters(graph))
    return community_rows(graph, related, found)


def search_build(folder: str | os.PathLike[str], text: str, *, embedder=None, top: int = 10,
                 graph: nx.MultiDiGraph | None = None, model: str | os.PathLike[str] | None = None) -> dict:
    """:func:`search` in the build in ``folder`` for ``text``, embedded as the build embedded its papers.

    Parameters
    ----------
    folder : path
        A ``kg build`` output folder (``graph.json``, ``paper_vectors.*``, ``concept_vectors.*``,
        ``report.json``).
    text : str
        The query.
    embedder : Embedder, optional
        Default: the build's model (:func:`query_embedder`); one given is checked against it.
    top : int
        Hits of each kind.
    graph : networkx.MultiDiGraph, optional
        The folder's graph, when the caller has loaded it already.
    model : path, optional
        The sentence-transformers folder a build made with ``model`` was embedded by.

    Returns
    -------
    dict
        :func:`search`'s result plus ``query`` and ``embedding`` (the model settings).

    Raises
    ------
    GraphFileError
        When the folder has no paper vectors (a build by a kg older than them: rebuild).
    EmbeddingMismatchError
        See :func:`query_embedder`.
    """
    folder = os.fspath(folder)
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise OptionError("top", f"must be a whole number >= 1, not {top!r}")
    if not isinstance(text, str) or not text.strip():
        raise OptionError("query", "must be some text, not an empty string")
    graph = load_graph(folder) if graph is None else graph
    papers = load_paper_vectors(folder)
    if papers is None:
        raise GraphFileError(f"{folder}: no paper_vectors.npy/.json (or they are out of step); "
                             "rebuild with kg build to search it")
    embedder = query_embedder(graph, embedder, model=model)
    vector = embed_query(embedder, text)
    found = search(graph, vector, papers=papers, concepts=load_concept_vectors(folder),
                   communities=_report_communities(folder, graph), top=top)
    return {"query": text.strip(), "embedding": _signature(embedder), **found}
