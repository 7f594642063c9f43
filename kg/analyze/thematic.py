"""The thematic map (Callon et al. 1991; Cobo et al. 2011): concept clusters placed by
centrality and density.

Concepts are linked by the equivalence index ``e(i, j) = c(i, j)² / (c(i) · c(j))``,
where *c(i, j)* is the number of papers mentioning both and *c(i)* the papers
mentioning *i*. The concepts are clustered (Louvain on those links), then per cluster:

* **Callon centrality**: the sum of the weights of the links leaving the cluster
  (how much the theme is tied to the rest of the field);
* **Callon density**: the sum of the weights of the links inside the cluster divided
  by its number of concepts (how developed the theme is internally).

bibliometrix multiplies these by 10 and 100; kg does not (the map's shape is the same).
Clusters are split at the median centrality and the median density (a value equal to
the median counts as high) into four quadrants:

============================  ===========  ==========
quadrant                      centrality   density
============================  ===========  ==========
``motor``                     high         high
``niche``                     low          high
``emerging or declining``     low          low
``basic``                     high         low
============================  ===========  ==========
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import networkx as nx

from kg.defaults import SEED
from kg.analyze.communities import detect_communities
from kg.graph import node_label

__all__ = ["QUADRANTS", "association_graph", "callon_metrics", "place_in_quadrants", "thematic_map", "community_map"]

QUADRANTS = ("motor", "niche", "emerging or declining", "basic")


def association_graph(graph: nx.MultiDiGraph, *, top: int = 250, min_papers: int = 2,
                      concepts: Sequence[str] | None = None) -> nx.Graph:
    """The ``top`` most frequent concepts (in at least ``min_papers`` papers) linked by equivalence index.

    ``concepts``: these concepts instead (``top`` and ``min_papers`` then do not apply).
    Edges carry ``weight`` (the equivalence index) and ``count`` (papers in common).
    """
    if concepts is not None:
        chosen = {c for c in concepts if graph.nodes[c].get("papers", 0) > 0}
    else:
        chosen = set(sorted(
            (n for n, d in graph.nodes(data=True)
             if d.get("kind") == "concept" and d.get("papers", 0) >= min_papers),
            key=lambda n: (-graph.nodes[n]["papers"], n),
        )[:top])
    out = nx.Graph()
    out.add_nodes_from(sorted(chosen))
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key == "co_occurs" and u in chosen and v in chosen:
            count = int(data.get("count", data.get("weight", 1)))
            e = count * count / (graph.nodes[u]["papers"] * graph.nodes[v]["papers"])
            out.add_edge(u, v, weight=e, count=count)
    return out


def callon_metrics(graph: nx.Graph, clusters: Sequence[set], *, weight: str = "weight") -> list[dict]:
    """Callon centrality and density of each cluster of an undirected weighted graph.

    Returns
    -------
    list of dict
        In cluster order: ``{"centrality", "density", "internal", "external"}`` where
        ``internal``/``external`` count the links inside / leaving the cluster.

    Examples
    --------
    >>> g = nx.Graph()
    >>> g.add_weighted_edges_from([("a", "b", 1.0), ("b", "c", 0.5), ("c", "d", 1.0)])
    >>> callon_metrics(g, [{"a", "b"}, {"c", "d"}])[0]
    {'centrality': 0.5, 'density': 0.5, 'internal': 1, 'external': 1}
    """
    owner = {n: i for i, members in enumerate(clusters) for n in members}
    inside = [0.0] * len(clusters)
    outside = [0.0] * len(clusters)
    n_in = [0] * len(clusters)
    n_out = [0] * len(clusters)
    for u, v, data in graph.edges(data=True):
        if u not in owner or v not in owner:
            continue
        w = float(data.get(weight, 1.0))
        a, b = owner[u], owner[v]
        if a == b:
            inside[a] += w
            n_in[a] += 1
        else:
            for side in (a, b):
                outside[side] += w
                n_out[side] += 1
    return [
        {"centrality": outside[i], "density": inside[i] / len(members) if members else 0.0,
         "internal": n_in[i], "external": n_out[i]}
        for i, members in enumerate(clusters)
    ]


def place_in_quadrants(rows: Sequence[dict]) -> list[str]:
    """The quadrant of each row (``centrality``, ``density``), split at the medians.

    Examples
    --------
    >>> place_in_quadrants([{"centrality": 4, "density": 4}, {"centrality": 1, "density": 3},
    ...                     {"centrality": 2, "density": 1}, {"centrality": 3, "density": 2}])
    ['motor', 'niche', 'emerging or declining', 'basic']
    """
    if not rows:
        return []
    mid_c = statistics.median(r["centrality"] for r in rows)
    mid_d = statistics.median(r["density"] for r in rows)
    names = {(True, True): "motor", (False, True): "niche", (False, False): "emerging or declining",
             (True, False): "basic"}
    return [names[(r["centrality"] >= mid_c, r["density"] >= mid_d)] for r in rows]


def thematic_map(graph: nx.MultiDiGraph, *, top: int = 250, min_papers: int = 2, min_cluster: int = 2,
                 seed: int = SEED, resolution: float = 1.0, method: str = "louvain",
                 backend: str | None = None) -> list[dict]:
    """Cluster the frequent concepts and place each cluster on the thematic map.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    top, min_papers : int
        Concepts considered (see :func:`association_graph`).
    min_cluster : int
        Clusters with fewer concepts are left off the map.
    seed, resolution, method, backend
        Passed to :func:`kg.analyze.communities.detect_communities`.

    Returns
    -------
    list of dict
        Clusters, largest first: ``id`` (0..), ``label`` (its three most frequent
        concepts' names), ``concepts`` (ids, most frequent first), ``papers``
        (papers mentioning any of them), ``centrality``, ``density``, ``quadrant``.
    """
    assoc = association_graph(graph, top=top, min_papers=min_papers)
    clusters = [c for c in detect_communities(assoc, method=method, seed=seed, resolution=resolution,
                                              backend=backend)
                if len(c) >= min_cluster]
    metrics = callon_metrics(assoc, clusters)
    rows = []
    for index, (members, metric) in enumerate(zip(clusters, metrics)):
        concepts = sorted(members, key=lambda c: (-graph.nodes[c]["papers"], c))
        papers = {p for c in members for p, _, k in graph.in_edges(c, keys=True) if k == "mentions"}
        rows.append({
            "id": index,
            "label": ", ".join(node_label(graph.nodes[c], c) for c in concepts[:3]),
            "concepts": concepts,
            "papers": len(papers),
            "centrality": metric["centrality"],
            "density": metric["density"],
        })
    for row, quadrant in zip(rows, place_in_quadrants(rows)):
        row["quadrant"] = quadrant
    return rows


def community_map(graph: nx.MultiDiGraph, communities: Sequence[dict], *, min_size: int = 2) -> list[dict]:
    """The thematic map of the paper communities: one theme per community, from the one analysis.

    Each community of ``min_size`` papers or more with distinctive concepts is a theme
    (VOSviewer's and bibliometrix's users read a map of the communities they see on the
    page). Its concepts are its distinctive concepts (``communities[i]["concepts"]``), a
    concept distinctive of several communities staying with the one it is most distinctive
    of (highest score, then lowest number), so the clusters are disjoint as Callon's
    measures need. Centrality and density are computed on the equivalence-index links
    among all the themes' concepts (:func:`association_graph`).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    communities : sequence of dict
        The analysis's communities (:func:`kg.analyze.community_rows`): ``id``, ``size``,
        ``label``, ``concepts`` (``{"id", "score"}``, most distinctive first).
    min_size : int
        Smaller communities are left off the map.

    Returns
    -------
    list of dict
        One row per theme, largest community first: ``id`` (the community's number),
        ``label`` (the community's), ``concepts`` (ids), ``papers`` (the community's size),
        ``centrality``, ``density``, ``quadrant``.
    """
    shown = sorted((c for c in communities if c["size"] >= min_size and c["concepts"]),
                   key=lambda c: (-c["size"], c["id"]))
    owner: dict[str, tuple[float, int]] = {}
    for row in shown:
        for concept in row["concepts"]:
            best = owner.get(concept["id"])
            if best is None or (-concept["score"], row["id"]) < (-best[0], best[1]):
                owner[concept["id"]] = (concept["score"], row["id"])
    members = [[c["id"] for c in row["concepts"] if owner[c["id"]][1] == row["id"]] for row in shown]
    assoc = association_graph(graph, concepts=sorted(owner))
    metrics = callon_metrics(assoc, [set(m) for m in members])
    rows = [{"id": row["id"], "label": row["label"], "concepts": concepts, "papers": row["size"],
             "centrality": metric["centrality"], "density": metric["density"]}
            for row, concepts, metric in zip(shown, members, metrics)]
    for row, quadrant in zip(rows, place_in_quadrants(rows)):
        row["quadrant"] = quadrant
    return rows
