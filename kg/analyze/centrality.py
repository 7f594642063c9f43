"""Centralities on the projection that fits each question.

* papers: the ``related`` graph (papers linked by the concepts they share);
* concepts: the ``co_occurs`` graph (concepts linked by the papers they share);
* the bipartite ``mentions`` graph (papers and concepts together);
* citations: the directed ``cites`` graph (in-degree and PageRank), when it has edges.

Every measure is a dict ``node -> float``. Betweenness treats a link of weight *w* as
a distance of ``1 / w`` (a strong link is a short one); it is exact up to
``exact_limit`` nodes and estimated from ``samples`` seeded source nodes above that.
"""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
from scipy import sparse
from scipy.sparse import linalg as splinalg

from kg.analysis import SEED
from kg.fastgraph import to_igraph
from kg.graph import projection

__all__ = [
    "weighted_degree",
    "pagerank",
    "eigenvector",
    "betweenness",
    "betweenness_method",
    "centrality_table",
    "citation_table",
    "central_papers",
    "central_concepts",
]

EXACT_LIMIT = 2000
SAMPLES = 100


def weighted_degree(graph: nx.Graph, *, weight: str = "weight") -> dict:
    """Sum of the weights of each node's links (its strength).

    Examples
    --------
    >>> g = nx.Graph([("a", "b", {"weight": 2.0}), ("a", "c", {"weight": 0.5})])
    >>> weighted_degree(g)
    {'a': 2.5, 'b': 2.0, 'c': 0.5}
    """
    return {n: float(d) for n, d in graph.degree(weight=weight)}


def pagerank(graph: nx.Graph, *, weight: str = "weight", alpha: float = 0.85) -> dict:
    """Weighted PageRank (NetworkX, tolerance 1e-10); empty for an empty graph."""
    if graph.number_of_nodes() == 0:
        return {}
    return nx.pagerank(graph, alpha=alpha, weight=weight, max_iter=500, tol=1e-10)


def eigenvector(graph: nx.Graph, *, weight: str = "weight") -> dict:
    """Weighted eigenvector centrality of an undirected graph, L2-normalized, non-negative.

    The leading eigenvector of the weighted adjacency matrix (ARPACK from a fixed start
    vector, dense for small graphs), so it is deterministic and works on bipartite graphs,
    where power iteration oscillates. On a disconnected graph the mass sits in the
    component with the largest eigenvalue; the other nodes score 0 or close to it.
    """
    nodes = list(graph.nodes)
    n = len(nodes)
    if n == 0:
        return {}
    if graph.number_of_edges() == 0:
        return {node: 1.0 / np.sqrt(n) for node in nodes}
    matrix = nx.to_scipy_sparse_array(graph.to_undirected(as_view=True), nodelist=nodes, weight=weight,
                                      dtype=float, format="csr")
    if n <= 64:
        values, vectors = np.linalg.eigh(matrix.toarray())
        vector = vectors[:, np.argmax(values)]
    else:
        _, vectors = splinalg.eigsh(sparse.csr_matrix(matrix), k=1, which="LA", v0=np.ones(n), tol=1e-10,
                                    maxiter=max(1000, 10 * n))
        vector = vectors[:, 0]
    vector = np.abs(vector)
    vector /= np.linalg.norm(vector)
    vector[vector < 1e-10] = 0.0  # numerical noise outside the leading component
    return {node: float(value) for node, value in zip(nodes, vector)}


def betweenness_method(graph: nx.Graph, *, exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                       seed: int = SEED) -> str:
    """How :func:`betweenness` computes ``graph``: ``exact`` or ``sampled (k sources, seed s)``."""
    n = graph.number_of_nodes()
    if n <= exact_limit or samples >= n:
        return "exact"
    return f"sampled ({samples} sources, seed {seed})"


def betweenness(graph: nx.Graph, *, weight: str | None = "weight", seed: int = SEED,
                exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES, fast: bool = True) -> dict:
    """Normalized betweenness centrality, with ``1 / weight`` as the length of a link.

    Exact for graphs of at most ``exact_limit`` nodes; above that, estimated from
    ``samples`` source nodes drawn with ``random.Random(seed)`` and scaled by
    ``n / samples`` (Brandes & Pich 2007). Values match
    ``networkx.betweenness_centrality(graph, weight=…, normalized=True)`` when exact.

    Parameters
    ----------
    graph : networkx.Graph or DiGraph
    weight : str or None
        Edge attribute holding the link strength; None counts hops.
    seed : int
    exact_limit, samples : int
    fast : bool
        Use igraph (the default) or NetworkX (``False``). They agree exactly on hop
        counts; with weights igraph treats path lengths equal within 1e-10 as ties
        where NetworkX compares floats exactly, so a node on such tied paths can differ.

    Examples
    --------
    >>> g = nx.path_graph(["a", "b", "c"])
    >>> betweenness(g)
    {'a': 0.0, 'b': 1.0, 'c': 0.0}
    """
    nodes = list(graph.nodes)
    n = len(nodes)
    if n < 3:
        return {node: 0.0 for node in nodes}
    sampled = betweenness_method(graph, exact_limit=exact_limit, samples=samples) != "exact"
    sources = sorted(random.Random(seed).sample(range(n), samples)) if sampled else None
    scale = (n / samples if sampled else 1.0) / ((n - 1) * (n - 2))
    if not graph.is_directed():
        scale *= 2
    if fast:
        converted, _ = to_igraph(graph, weight=weight or "weight")
        lengths = [1.0 / w if w > 0 else float("inf") for w in converted.es["weight"]] if weight else None
        raw = converted.betweenness(weights=lengths, sources=sources, directed=graph.is_directed())
        return {node: float(value) * scale for node, value in zip(nodes, raw)}
    length = None
    if weight:
        length = "_kg_length"
        graph = graph.copy()
        for _, _, data in graph.edges(data=True):
            w = float(data.get(weight, 1.0))
            data[length] = 1.0 / w if w > 0 else float("inf")
    if sampled:
        raw = nx.betweenness_centrality_subset(graph, [nodes[i] for i in sources], nodes, normalized=False,
                                               weight=length)
    else:
        raw = nx.betweenness_centrality(graph, normalized=False, weight=length)
    return {node: raw[node] * scale for node in nodes}


def centrality_table(graph: nx.Graph, *, weight: str = "weight", seed: int = SEED,
                     exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                     fast: bool = True) -> list[dict]:
    """One row per node with every measure, highest PageRank first (ties by id).

    Row keys: ``id``, ``degree``, ``weighted_degree``, ``pagerank``, ``betweenness``,
    ``eigenvector``.
    """
    strength = weighted_degree(graph, weight=weight)
    ranks = pagerank(graph, weight=weight)
    between = betweenness(graph, weight=weight, seed=seed, exact_limit=exact_limit, samples=samples, fast=fast)
    eigen = eigenvector(graph, weight=weight)
    rows = [
        {"id": node, "degree": graph.degree(node), "weighted_degree": strength[node], "pagerank": ranks[node],
         "betweenness": between[node], "eigenvector": eigen[node]}
        for node in graph.nodes
    ]
    return sorted(rows, key=lambda r: (-r["pagerank"], str(r["id"])))


def citation_table(graph: nx.MultiDiGraph) -> list[dict]:
    """Papers by PageRank on the citation graph (``cites``), with in- and out-degree.

    Empty when the graph has no ``cites`` edges. Rows: ``id``, ``cited_by``
    (in-degree inside the corpus), ``cites``, ``pagerank``; highest PageRank first.
    """
    cites = projection(graph, "cites")
    if cites.number_of_edges() == 0:
        return []
    ranks = nx.pagerank(cites, max_iter=500, tol=1e-10)
    rows = [{"id": n, "cited_by": cites.in_degree(n), "cites": cites.out_degree(n), "pagerank": ranks[n]}
            for n in cites.nodes]
    return sorted(rows, key=lambda r: (-r["pagerank"], -r["cited_by"], r["id"]))


def _ranked(scores: dict) -> list[tuple[str, float]]:
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def central_papers(graph: nx.MultiDiGraph, *, weight: str = "weight") -> list[tuple[str, float]]:
    """Papers by weighted PageRank on the ``related`` projection, highest first."""
    return _ranked(pagerank(projection(graph, "related"), weight=weight))


def central_concepts(graph: nx.MultiDiGraph, *, weight: str = "weight") -> list[tuple[str, float]]:
    """Concepts by weighted PageRank on the ``co_occurs`` projection, highest first."""
    return _ranked(pagerank(projection(graph, "co_occurs"), weight=weight))
