"""Citation maps as CiteSpace draws them: clusters of the co-citation and coupling networks.

:func:`citation_map` takes one of the paper–paper projections of :mod:`kg.citations`
(co-citation: papers cited together; bibliographic coupling: papers citing the same
works), keeps the papers with at least one link, finds its communities (as
:func:`~kg.analyze.communities.detect_communities` does for the ``related`` graph) and
describes each cluster: its size, two cohesion measures, its years, its most
distinctive concepts and its most central papers.

Cohesion
--------
``silhouette``
    The mean silhouette of the members (Rousseeuw 1987), with the distance between two
    papers ``1 - salton`` (Salton's cosine of their citer or reference sets, see
    :mod:`kg.citations`; 1 when they are not linked). Between -1 and 1; above 0 a
    member is on average nearer its own cluster than any other. On sparse networks the
    values stay small, since most pairs, inside a cluster too, are unlinked.
``internal``
    The share of the members' link weight (counts) that stays inside the cluster:
    1.0 for a cluster linked to nothing else.

Examples
--------
>>> g = nx.Graph()
>>> g.add_edges_from([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y")], salton=1.0, weight=1)
>>> scores = silhouettes(g, [{"a", "b", "c"}, {"x", "y"}])
>>> scores["a"], scores["x"]
(1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx
import numpy as np
from scipy import sparse

from kg.defaults import SEED
from kg.analyze.communities import central_members, detect_communities, distinctive_concepts, modularity
from kg.graph import node_label

__all__ = ["MAPS", "citation_map", "paper_cluster", "silhouettes", "internal_share", "ordered_subgraph"]

MAPS = ("cocitation", "coupling")


def silhouettes(graph: nx.Graph, clusters: Sequence[set], *, similarity: str = "salton") -> dict:
    """Silhouette of every clustered node, with distance ``1 - similarity`` (1 for unlinked pairs).

    A member of a one-node cluster, or of the only cluster, scores 0 (as in
    scikit-learn). Linear in the edges and clusters: the mean distance to a cluster is
    ``1 - (similarity to its members) / size``.
    """
    nodes = [n for cluster in clusters for n in sorted(cluster, key=str)]
    if len(clusters) < 2 or not nodes:
        return {n: 0.0 for n in nodes}
    index = {n: i for i, n in enumerate(nodes)}
    of = np.empty(len(nodes), dtype=np.int64)
    for k, cluster in enumerate(clusters):
        for n in cluster:
            of[index[n]] = k
    sizes = np.array([len(c) for c in clusters], dtype=np.float64)
    rows, cols, values = [], [], []
    for u, v, s in graph.edges(data=similarity, default=0.0):
        if u in index and v in index and u != v:
            rows += [index[u], index[v]]
            cols += [of[index[v]], of[index[u]]]
            values += [float(s), float(s)]
    sums = sparse.csr_matrix((values, (rows, cols)), shape=(len(nodes), len(clusters)))
    out = {}
    for i, node in enumerate(nodes):
        own = of[i]
        if sizes[own] < 2:
            out[node] = 0.0
            continue
        start, stop = sums.indptr[i], sums.indptr[i + 1]
        linked = dict(zip(sums.indices[start:stop].tolist(), sums.data[start:stop].tolist()))
        a = 1.0 - linked.get(own, 0.0) / (sizes[own] - 1)
        others = [1.0 - s / sizes[k] for k, s in linked.items() if k != own]
        if len(linked) - (own in linked) < len(clusters) - 1:
            others.append(1.0)  # an unlinked cluster lies at distance 1
        b = min(others)
        top = max(a, b)
        out[node] = 0.0 if top <= 0 else float((b - a) / top)
    return out


def internal_share(graph: nx.Graph, members: set, *, weight: str = "weight") -> float:
    """The share of the members' link weight that joins two members (1.0 without outside links)."""
    inside = outside = 0.0
    for node in members:
        for other, data in graph.adj[node].items():
            w = float(data.get(weight, 1.0))
            if other in members:
                inside += w / 2
            else:
                outside += w
    total = inside + outside
    return 1.0 if total == 0 else inside / total


def ordered_subgraph(graph: nx.Graph, nodes) -> nx.Graph:
    """A copy of ``graph`` induced on ``nodes``, nodes and edges inserted in sorted order.

    Community detection depends on insertion order, and a subgraph *view* iterates its
    nodes in set order, which changes with ``PYTHONHASHSEED``: a sorted copy keeps seeded
    results equal from process to process.
    """
    keep = set(nodes)
    out = nx.Graph()
    out.add_nodes_from((n, graph.nodes[n]) for n in sorted(keep, key=str))
    edges = [((u, v, d) if str(u) <= str(v) else (v, u, d)) for u, v, d in graph.edges(keep, data=True)
             if u in keep and v in keep]
    out.add_edges_from(sorted(edges, key=lambda e: (str(e[0]), str(e[1]))))
    return out


def _r(value: float) -> float:
    return float(f"{value:.6g}")


def citation_map(graph: nx.MultiDiGraph, projected: nx.Graph, *, by: str, method: str = "louvain",
                 seed: int = SEED, resolution: float = 1.0, top: int = 5, top_papers: int = 5,
                 backend: str | None = None) -> dict:
    """The clusters of one citation projection, described (see the module docstring).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The kg graph (for titles, years, concepts and citation counts).
    projected : networkx.Graph
        :func:`kg.citations.cocitation` or :func:`kg.citations.coupling` of ``graph``:
        edges with ``weight`` (count) and ``salton``.
    by : {"cocitation", "coupling"}
        Recorded in the result.
    method, seed, resolution, backend
        As for :func:`~kg.analyze.communities.detect_communities`.
    top, top_papers : int
        Distinctive concepts and central papers kept per cluster.

    Returns
    -------
    dict
        ``by``, ``papers`` (linked papers), ``links``, ``modularity``, ``silhouette``
        (mean over the linked papers) and ``clusters``, largest first, each ``id``,
        ``size``, ``silhouette``, ``internal``, ``mean_year``, ``years`` ([first, last] or
        None), ``label``, ``concepts`` ([{id, name, score}]), ``central_papers``
        ([{id, title, year, strength, cited_by}]: strongest links inside the cluster) and
        ``papers`` (every member, most central first).
    """
    linked = ordered_subgraph(projected, [n for n in projected if projected.degree(n) > 0])
    clusters = detect_communities(linked, method=method, seed=seed, resolution=resolution, backend=backend)
    scores = silhouettes(linked, clusters)
    labels = distinctive_concepts(graph, clusters, top=top) if clusters else []
    rows = []
    for k, (members, concepts) in enumerate(zip(clusters, labels)):
        years = sorted(int(y) for p in members if isinstance(y := graph.nodes[p].get("year"), int))
        ranked = central_members(linked, members)
        rows.append({
            "id": k,
            "size": len(members),
            "silhouette": _r(sum(scores[p] for p in members) / len(members)),
            "internal": _r(internal_share(linked, members)),
            "mean_year": _r(sum(years) / len(years)) if years else None,
            "years": [years[0], years[-1]] if years else None,
            "label": ", ".join(_name(graph, c["id"]) for c in concepts[:3]),
            "concepts": [{"id": c["id"], "name": _name(graph, c["id"]), "score": _r(c["score"])} for c in concepts],
            "central_papers": [{"id": p, "title": _name(graph, p), "year": graph.nodes[p].get("year"),
                                "strength": _r(s), "cited_by": _cited_by(graph, p)} for p, s in ranked[:top_papers]],
            "papers": [p for p, _ in ranked],
        })
    return {
        "by": by,
        "papers": linked.number_of_nodes(),
        "links": linked.number_of_edges(),
        "modularity": _r(modularity(linked, clusters, resolution=resolution, backend=backend)) if clusters else 0.0,
        "silhouette": _r(sum(scores.values()) / len(scores)) if scores else 0.0,
        "clusters": rows,
    }


def paper_cluster(citation_map_result: Mapping) -> dict[str, int]:
    """Paper id -> cluster number of a :func:`citation_map` result."""
    return {p: int(row["id"]) for row in citation_map_result.get("clusters") or () for p in row["papers"]}


def _cited_by(graph: nx.MultiDiGraph, paper: str) -> int:
    return sum(1 for _, _, key in graph.in_edges(paper, keys=True) if key == "cites")


def _name(graph: nx.MultiDiGraph, node: str) -> str:
    """How tables and labels show a node: a concept with its acronym (:func:`kg.graph.node_label`)."""
    return node_label(graph.nodes[node], node)
