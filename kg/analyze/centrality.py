"""Centralities on the projection that fits each question.

* papers: the ``related`` graph (papers linked by the concepts they share);
* concepts: the ``co_occurs`` graph (concepts linked by the papers they share);
* the bipartite ``mentions`` graph (papers and concepts together);
* citations: the directed ``cites`` graph (in-degree and PageRank), when it has edges.

Every measure is a dict ``node -> float``. Betweenness treats a link of weight *w* as
a distance of ``1 / w`` (a strong link is a short one); it is exact up to
``exact_limit`` nodes and estimated from ``samples`` seeded source nodes above that.

``backend`` names a NetworkX backend for the NetworkX calls (:mod:`kg.nxbackend`).
"""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
from scipy import sparse
from scipy.sparse import csgraph
from scipy.sparse import linalg as splinalg

from kg.defaults import SEED
from kg.fastgraph import to_igraph
from kg.graph import EDGE_ENDS, projection
from kg.nxbackend import call
from kg.pagerank import edge_list, pagerank_of_edges

__all__ = [
    "weighted_degree",
    "pagerank",
    "eigenvector",
    "edge_eigenvector",
    "edge_adjacency",
    "adjacency",
    "pagerank_of_matrix",
    "edge_centrality_table",
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


def pagerank(graph: nx.Graph, *, weight: str = "weight", alpha: float = 0.85, backend: str | None = None) -> dict:
    """Weighted PageRank (NetworkX, tolerance 1e-10); empty for an empty graph."""
    if graph.number_of_nodes() == 0:
        return {}
    return call(nx.pagerank, graph, alpha=alpha, weight=weight, max_iter=500, tol=1e-10, backend=backend)


def eigenvector(graph: nx.Graph, *, weight: str = "weight") -> dict:
    """Weighted eigenvector centrality of an undirected graph, L2-normalized, non-negative.

    The leading eigenvector of the weighted adjacency matrix (ARPACK from a fixed start
    vector, dense for small graphs), so it is deterministic and works on bipartite graphs,
    where power iteration oscillates. On a disconnected graph the mass sits in the
    component with the largest eigenvalue (shared equally by components that tie for it);
    the other nodes score 0.
    """
    nodes = list(graph.nodes)
    n = len(nodes)
    if n == 0:
        return {}
    if graph.number_of_edges() == 0:
        return {node: 1.0 / np.sqrt(n) for node in nodes}
    matrix = nx.to_scipy_sparse_array(graph.to_undirected(as_view=True), nodelist=nodes, weight=weight,
                                      dtype=float, format="csr")
    return _leading_eigenvector(matrix, nodes)


def edge_eigenvector(graph: nx.MultiDiGraph, kind: str, *, weight: str = "weight") -> dict:
    """:func:`eigenvector` of ``projection(graph, kind)`` without making the projection
    (:func:`edge_adjacency`): the gds engine (:mod:`kg.analyze.gds`) computes this one measure
    here, since GDS's weighted eigenvector divides each node's weights by their sum (another measure).
    """
    nodes, matrix = edge_adjacency(graph, kind, weight=weight)
    if not nodes:
        return {}
    if not matrix.nnz:
        return {node: 1.0 / np.sqrt(len(nodes)) for node in nodes}
    return _leading_eigenvector(matrix, nodes)


def edge_adjacency(graph: nx.MultiDiGraph, kind: str, *, weight: str = "weight") -> tuple[list, sparse.csr_array]:
    """The nodes and weighted adjacency matrix of ``projection(graph, kind)`` (an undirected
    kind), made straight from the ``kind`` edges: arrays, not a NetworkX graph. Nodes in graph
    order; a pair joined twice keeps the later edge's weight, as the projection does."""
    kinds = EDGE_ENDS[kind]
    nodes = [node for node, data in graph.nodes(data=True) if data.get("kind") in kinds]
    n = len(nodes)
    index = {node: i for i, node in enumerate(nodes)}
    pairs: dict[tuple[int, int], float] = {}
    succ = graph._succ
    for node in nodes:
        i = index[node]
        for other, keys in succ[node].items():
            data = keys.get(kind)
            if data is not None:
                j = index.get(other)
                if j is not None:
                    pairs[(i, j) if i <= j else (j, i)] = float(data.get(weight, 1.0))
    rows, cols = (np.fromiter((k[a] for k in pairs), dtype=np.int64, count=len(pairs)) for a in (0, 1))
    values = np.fromiter(pairs.values(), dtype=float, count=len(pairs))
    off = rows != cols
    matrix = sparse.csr_array((np.concatenate([values, values[off]]),
                               (np.concatenate([rows, cols[off]]), np.concatenate([cols, rows[off]]))), shape=(n, n))
    matrix.sort_indices()
    return nodes, matrix


def _leading_eigenvector(matrix, nodes: list) -> dict:
    """The Perron vector of ``matrix`` (symmetric, non-negative), made unique: where components tie for the
    largest eigenvalue (a graph of like pairs or triangles), their own Perron vectors share the mass equally,
    so the result never depends on the order of the nodes (an update and a build of the same papers agree)."""
    top, vector = _eigenpair(matrix)
    count, label = csgraph.connected_components(matrix, directed=False)
    if count > 1:
        tol = 1e-9 * max(top, 1.0)
        reach = np.zeros(count)  # a component's largest eigenvalue is at most its largest row sum
        np.maximum.at(reach, label, np.asarray(abs(matrix).sum(axis=1)).ravel())
        tied = []
        candidates = np.flatnonzero(reach >= top - tol)
        for part in candidates if len(candidates) > 1 else ():  # one alone: the vector found is its own
            rows = np.flatnonzero(label == part)
            value, own = _eigenpair(matrix[rows][:, rows])
            if value >= top - tol:
                tied.append((rows, own))
        if tied:
            vector = np.zeros(len(nodes))
            for rows, own in tied:
                vector[rows] = own
    vector = np.abs(vector)
    vector /= np.linalg.norm(vector)
    vector[vector < 1e-10] = 0.0  # numerical noise outside the leading component
    return {node: float(value) for node, value in zip(nodes, vector)}


def _eigenpair(matrix) -> tuple[float, np.ndarray]:
    """The largest eigenvalue of a symmetric matrix and its unit eigenvector, made non-negative (ARPACK from a
    fixed start vector, dense for small matrices)."""
    n = matrix.shape[0]
    if n <= 64:
        values, vectors = np.linalg.eigh(matrix.toarray())
        at = int(np.argmax(values))
        value, vector = float(values[at]), vectors[:, at]
    else:
        values, vectors = splinalg.eigsh(sparse.csr_matrix(matrix), k=1, which="LA", v0=np.ones(n), tol=1e-10,
                                         maxiter=max(1000, 10 * n))
        value, vector = float(values[0]), vectors[:, 0]
    vector = np.abs(vector)
    return value, vector / np.linalg.norm(vector)


def betweenness_method(graph: nx.Graph | int, *, exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                       seed: int = SEED) -> str:
    """How :func:`betweenness` computes ``graph`` (or a graph of that many nodes): ``exact`` or
    ``sampled (k sources, seed s)``."""
    n = graph if isinstance(graph, int) else graph.number_of_nodes()
    if n <= exact_limit or samples >= n:
        return "exact"
    return f"sampled ({samples} sources, seed {seed})"


def betweenness(graph: nx.Graph, *, weight: str | None = "weight", seed: int = SEED,
                exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES, fast: bool = True,
                backend: str | None = None) -> dict:
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
    backend : str, optional
        NetworkX backend for the NetworkX path (``fast=False``).

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
        raw = call(nx.betweenness_centrality_subset, graph, [nodes[i] for i in sources], nodes, normalized=False,
                   weight=length, backend=backend)
    else:
        raw = call(nx.betweenness_centrality, graph, normalized=False, weight=length, backend=backend)
    return {node: raw[node] * scale for node in nodes}


def centrality_table(graph: nx.Graph, *, weight: str = "weight", seed: int = SEED,
                     exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES,
                     fast: bool = True, backend: str | None = None, hops: bool = False) -> list[dict]:
    """One row per node with every measure, highest PageRank first (ties by id).

    Row keys: ``id``, ``degree``, ``weighted_degree``, ``pagerank``, ``betweenness``,
    ``eigenvector``. ``hops``: betweenness counts links (each of length 1) instead of
    ``1 / weight``; the other measures stay weighted.

    An undirected graph (without ``backend``, with ``fast``) is read once into a sparse
    matrix that every measure uses: the same numbers as :func:`pagerank`,
    :func:`weighted_degree` and :func:`eigenvector`, a third of the time on large graphs.
    """
    if fast and backend is None and not graph.is_directed():
        return _matrix_table(*adjacency(graph, weight), hops=hops, seed=seed, exact_limit=exact_limit,
                             samples=samples)
    strength = weighted_degree(graph, weight=weight)
    ranks = pagerank(graph, weight=weight, backend=backend)
    between = betweenness(graph, weight=None if hops else weight, seed=seed, exact_limit=exact_limit,
                          samples=samples, fast=fast, backend=backend)
    eigen = eigenvector(graph, weight=weight)
    rows = [
        {"id": node, "degree": graph.degree(node), "weighted_degree": strength[node], "pagerank": ranks[node],
         "betweenness": between[node], "eigenvector": eigen[node]}
        for node in graph.nodes
    ]
    return sorted(rows, key=lambda r: (-r["pagerank"], str(r["id"])))


def edge_centrality_table(graph: nx.MultiDiGraph, kind: str, *, weight: str = "weight", seed: int = SEED,
                          exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES, hops: bool = False) -> list[dict]:
    """:func:`centrality_table` of ``projection(graph, kind)`` (an undirected kind), the same rows,
    without making the projection (:func:`edge_adjacency`): on 25k papers the paper–concept
    projection alone is 250 MB."""
    return _matrix_table(*edge_adjacency(graph, kind, weight=weight), hops=hops, seed=seed, exact_limit=exact_limit,
                         samples=samples)


def _matrix_table(nodes: list, matrix: sparse.csr_array, *, hops: bool, seed: int, exact_limit: int,
                  samples: int) -> list[dict]:
    """:func:`centrality_table` of the undirected graph with this adjacency matrix."""
    n = len(nodes)
    loops = matrix.diagonal()
    strength = (matrix.sum(axis=1) + loops).tolist() if n else []  # a loop counts twice, as in NetworkX
    degree = (np.diff(matrix.indptr) + (loops != 0)).tolist() if n else []
    ranks = pagerank_of_matrix(matrix, nodes)
    eigen = (_leading_eigenvector(matrix, nodes) if matrix.nnz
             else {node: 1.0 / np.sqrt(n) for node in nodes})
    between = _betweenness_matrix(matrix, nodes, weighted=not hops, seed=seed, exact_limit=exact_limit,
                                  samples=samples)
    rows = [{"id": node, "degree": degree[i], "weighted_degree": float(strength[i]), "pagerank": ranks[node],
             "betweenness": between[node], "eigenvector": eigen[node]} for i, node in enumerate(nodes)]
    return sorted(rows, key=lambda r: (-r["pagerank"], str(r["id"])))


def adjacency(graph: nx.Graph, weight: str) -> tuple[list, sparse.csr_array]:
    """The nodes of an undirected graph and its weighted adjacency matrix (a missing weight is 1),
    read once from its plain dicts (:func:`kg.pagerank.edge_list`): what ``nx.to_scipy_sparse_array``
    gives, faster."""
    nodes, rows, cols, values = edge_list(graph, weight)
    n = len(nodes)
    return nodes, sparse.csr_array((values, (rows, cols)), shape=(n, n))


def pagerank_of_matrix(matrix: sparse.csr_array, nodes: list, *, alpha: float = 0.85, max_iter: int = 500,
                     tol: float = 1e-10) -> dict:
    """:func:`pagerank` from the adjacency matrix: NetworkX's power iteration, step for step
    (:func:`kg.pagerank.pagerank_of_edges` over the matrix's entries, in its order)."""
    rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    return pagerank_of_edges(nodes, rows, matrix.indices, matrix.data, alpha=alpha, max_iter=max_iter, tol=tol)


def _betweenness_matrix(matrix: sparse.csr_array, nodes: list, *, weighted: bool, seed: int, exact_limit: int,
                        samples: int) -> dict:
    """:func:`betweenness` (igraph) of the undirected graph with this adjacency matrix."""
    import igraph as ig  # igraph: only on this fast path

    n = len(nodes)
    if n < 3:
        return {node: 0.0 for node in nodes}
    sampled = betweenness_method(n, exact_limit=exact_limit, samples=samples) != "exact"
    sources = sorted(random.Random(seed).sample(range(n), samples)) if sampled else None
    scale = 2 * (n / samples if sampled else 1.0) / ((n - 1) * (n - 2))
    upper = sparse.triu(matrix, k=0).tocoo()
    converted = ig.Graph(n=n, edges=np.column_stack([upper.row, upper.col]).tolist(), directed=False)
    lengths = None
    if weighted:
        with np.errstate(divide="ignore"):
            lengths = np.where(upper.data > 0, 1.0 / upper.data, np.inf).tolist()
    raw = converted.betweenness(weights=lengths, sources=sources, directed=False)
    return {node: float(value) * scale for node, value in zip(nodes, raw)}


def citation_table(graph: nx.MultiDiGraph, *, backend: str | None = None) -> list[dict]:
    """Papers by PageRank on the citation graph (``cites``), with in- and out-degree.

    Empty when the graph has no ``cites`` edges. Rows: ``id``, ``cited_by``
    (in-degree inside the corpus), ``cites``, ``pagerank``; highest PageRank first.
    """
    cites = projection(graph, "cites")
    if cites.number_of_edges() == 0:
        return []
    ranks = call(nx.pagerank, cites, max_iter=500, tol=1e-10, backend=backend)
    rows = [{"id": n, "cited_by": cites.in_degree(n), "cites": cites.out_degree(n), "pagerank": ranks[n]}
            for n in cites.nodes]
    return sorted(rows, key=lambda r: (-r["pagerank"], -r["cited_by"], r["id"]))


def _ranked(scores: dict) -> list[tuple[str, float]]:
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def central_papers(graph: nx.MultiDiGraph, *, weight: str = "weight", backend: str | None = None
                   ) -> list[tuple[str, float]]:
    """Papers by weighted PageRank on the ``related`` projection, highest first."""
    return _ranked(pagerank(projection(graph, "related"), weight=weight, backend=backend))


def central_concepts(graph: nx.MultiDiGraph, *, weight: str = "weight", backend: str | None = None
                     ) -> list[tuple[str, float]]:
    """Concepts by weighted PageRank on the ``co_occurs`` projection, highest first."""
    return _ranked(pagerank(projection(graph, "co_occurs"), weight=weight, backend=backend))
