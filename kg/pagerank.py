"""PageRank by NetworkX's power iteration, step for step, over an edge list in NumPy (no SciPy).

:func:`kg.analyze.centrality.pagerank_of_matrix` (the analysis) and the graph page's node sizes
(:mod:`kg.export.selection`) both rank with :func:`pagerank_of_edges`. The page needs no SciPy
for it: importing ``scipy.sparse`` costs a read command 0.3 s or more, more than the ranking of a
10,000-node community. The sums are made in the order SciPy's sparse product makes them (row
by row), so the ranks are the same numbers to the last bit (tested against the SciPy version
and against ``networkx.pagerank`` on a real graph).

Examples
--------
>>> import networkx as nx
>>> ranks = pagerank_of_graph(nx.path_graph(3))
>>> [round(ranks[n], 4) for n in range(3)]
[0.2568, 0.4865, 0.2568]
"""

from __future__ import annotations

import networkx as nx
import numpy as np

__all__ = ["pagerank_of_edges", "pagerank_of_graph", "edge_list"]


def pagerank_of_edges(nodes: list, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, *,
                      alpha: float = 0.85, max_iter: int = 500, tol: float = 1e-10) -> dict:
    """PageRank of the weighted directed edges ``rows[k] -> cols[k]`` (positions in ``nodes``; an undirected
    graph gives each edge both ways), as ``networkx.pagerank`` computes it: uniform start and
    personalization, a dangling node's rank spread evenly, stop when the L1 change is below
    ``len(nodes) * tol``.

    The edges must come row by row (``rows`` ascending, as a CSR matrix stores them), each (row, col)
    once: every sum is then made in SciPy's order.

    Raises
    ------
    networkx.PowerIterationFailedConvergence
        After ``max_iter`` steps without converging.
    """
    n = len(nodes)
    if n == 0:
        return {}
    rows = np.asarray(rows, dtype=np.intp)
    cols = np.asarray(cols, dtype=np.intp)
    weights = np.asarray(weights, dtype=float)
    out = np.zeros(n)
    if len(rows):  # row sums as SciPy's CSR sum makes them (np.add.reduceat over each row's entries)
        starts = np.flatnonzero(np.concatenate(([True], rows[1:] != rows[:-1])))
        out[rows[starts]] = np.add.reduceat(weights, starts)
    out[out != 0] = 1.0 / out[out != 0]
    walk = out[rows] * weights  # the row-normalised matrix, entry by entry
    x = np.repeat(1.0 / n, n)
    p = np.repeat(1.0 / n, n)
    dangling = np.where(out == 0)[0]
    for _ in range(max_iter):
        last = x
        x = alpha * (np.bincount(cols, weights=walk * last[rows], minlength=n) + sum(x[dangling]) * p) + (1 - alpha) * p
        if np.absolute(x - last).sum() < n * tol:
            return dict(zip(nodes, map(float, x)))
    raise nx.PowerIterationFailedConvergence(max_iter)


def edge_list(graph: nx.Graph, weight: str = "weight") -> tuple[list, np.ndarray, np.ndarray, np.ndarray]:
    """``(nodes, rows, cols, weights)``: the entries of an undirected ``graph``'s weighted adjacency matrix
    (each edge both ways; a missing ``weight`` is 1), read once from its plain dicts, node by node in
    the graph's order."""
    nodes = list(graph)
    index = {node: i for i, node in enumerate(nodes)}
    rows, cols, values = [], [], []
    for node, nbrs in graph._adj.items():
        i = index[node]
        for other, data in nbrs.items():
            rows.append(i)
            cols.append(index[other])
            values.append(data.get(weight, 1.0))
    return nodes, np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64), np.asarray(values, dtype=float)


def pagerank_of_graph(graph: nx.Graph, weight: str = "weight", *, alpha: float = 0.85, max_iter: int = 500,
                      tol: float = 1e-10) -> dict:
    """:func:`pagerank_of_edges` of an undirected ``graph`` (a missing ``weight`` is 1): the numbers of
    ``kg.analyze.centrality.pagerank_of_matrix(*adjacency(graph, weight))``."""
    nodes, rows, cols, values = edge_list(graph, weight)
    order = np.lexsort((cols, rows))  # row by row, columns ascending: a CSR matrix's order
    return pagerank_of_edges(nodes, rows[order], cols[order], values[order], alpha=alpha, max_iter=max_iter, tol=tol)
