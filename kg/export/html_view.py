"""Which part of the graph the HTML page shows: views, filters, communities, centrality.

:func:`graph_view` turns a kg graph into the plain ``nx.Graph`` the page draws:
every node carries ``kind``, ``community`` and ``centrality``; every edge ``kind``
and ``weight``. It is separate from the drawing so it can be tested (and reused)
without a browser.

Views
-----
``bipartite``
    Papers and concepts, joined by ``mentions`` (weight: keyphrase score, 0–1) and
    ``cites`` (weight 1).
``papers``
    Papers joined by ``related`` (weight: shared-concept weight) and ``cites``.
``concepts``
    Concepts joined by ``co_occurs`` (weight: number of papers naming both).

Communities are the paper communities of the report (Louvain on the ``related``
projection, largest first); a concept joins the community of most of its papers,
so a colour means the same thing in every view.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx

from kg.analyze.communities import detect_communities, label_communities
from kg.errors import ViewError
from kg.graph import projection

__all__ = ["VIEWS", "SIZE_BY", "graph_view", "find_node", "community_membership"]

VIEWS = ("bipartite", "papers", "concepts")
SIZE_BY = ("pagerank", "degree", "betweenness")
_EDGES = {"bipartite": ("mentions", "cites"), "papers": ("related", "cites"), "concepts": ("co_occurs",)}
_NODES = {"bipartite": ("paper", "concept"), "papers": ("paper",), "concepts": ("concept",)}


def community_membership(graph: nx.MultiDiGraph, *, seed: int = 42, resolution: float = 1.0,
                         communities: list[set[str]] | None = None) -> tuple[dict[str, int], list[str]]:
    """Community index of every paper and concept, and a short label per community.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    seed, resolution
        Louvain settings, as for the report (ignored when ``communities`` is given).
    communities : list of set, optional
        Paper communities already computed (e.g. by :func:`kg.analyze.analyze`).

    Returns
    -------
    (dict, list)
        Node id -> community index, and the label (top three concept names) of each
        community. Concepts take the community of most of their papers (ties: the
        larger community).
    """
    if communities is None:
        communities = detect_communities(projection(graph, "related"), seed=seed, resolution=resolution)
    membership = {paper: index for index, members in enumerate(communities) for paper in members}
    votes: dict[str, Counter[int]] = {}
    for paper, concept, key in graph.edges(keys=True):
        if key == "mentions" and paper in membership:
            votes.setdefault(concept, Counter())[membership[paper]] += 1
    for concept, counter in votes.items():
        membership[concept] = min(counter, key=lambda k: (-counter[k], k))
    labels = [", ".join(str(graph.nodes[c].get("name", c)) for c in top[:3])
              for top in label_communities(graph, communities)]
    return membership, labels


def _names(data: dict) -> set[str]:
    names = {str(data.get(key) or "").casefold() for key in ("label", "name", "title")}
    return names | {str(alias).casefold() for alias in data.get("aliases") or []}


def find_node(view: nx.Graph, graph: nx.MultiDiGraph, query: str) -> str:
    """The node ``query`` names: its id, else its exact label, name, title or alias (any case),
    else the one node whose label contains it.

    Raises
    ------
    ViewError
        When nothing or several nodes match, or the node is not in this view.
    """
    if query in view:
        return query
    if query in graph:
        kind = graph.nodes[query].get("kind")
        raise ViewError(f"--focus {query!r} is a {kind}, not shown in this view; "
                        "try --view bipartite")
    wanted = query.casefold().strip()
    exact = sorted(n for n, d in view.nodes(data=True) if wanted in _names(d))
    if len(exact) == 1:
        return exact[0]
    partial = exact or sorted(n for n, d in view.nodes(data=True)
                              if wanted and wanted in str(d.get("label", "")).casefold())
    if len(partial) == 1:
        return partial[0]
    if not partial:
        raise ViewError(f"--focus {query!r} matches no node id or label in this view; "
                        "use an id from graph.json or part of a title or concept name")
    shown = "; ".join(f"{n} ({view.nodes[n].get('label', '')})" for n in partial[:5])
    raise ViewError(f"--focus {query!r} matches {len(partial)} nodes ({shown}"
                    f"{'; …' if len(partial) > 5 else ''}); give one of their ids")


def _base_view(graph: nx.MultiDiGraph, view: str) -> nx.Graph:
    kinds, node_kinds = _EDGES[view], _NODES[view]
    out = nx.Graph()
    out.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if d.get("kind") in node_kinds)
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key not in kinds or u == v:
            continue
        weight = float(data.get("weight", 1) or 0)
        if out.has_edge(u, v):  # a related pair that also cites: keep the weight, note the citation
            edge = out.edges[u, v]
            edge["cites"] = edge.get("cites", False) or key == "cites"
            if key != "cites":
                edge["weight"], edge["kind"] = weight, key
        else:
            out.add_edge(u, v, kind=key, weight=weight, cites=key == "cites")
    return out


def _centrality(view: nx.Graph, size_by: str, seed: int) -> dict[str, float]:
    if view.number_of_nodes() == 0:
        return {}
    if size_by == "degree":
        return {n: float(d) for n, d in view.degree(weight="weight")}
    if size_by == "betweenness":
        k = min(view.number_of_nodes(), 256)
        return nx.betweenness_centrality(view, k=k, seed=seed, weight=None)
    return nx.pagerank(view, weight="weight", max_iter=200, tol=1e-8)


def graph_view(
    graph: nx.MultiDiGraph,
    *,
    view: str = "bipartite",
    top: int | None = 2000,
    min_weight: float = 0.0,
    community: int | None = None,
    focus: str | None = None,
    depth: int = 1,
    size_by: str = "pagerank",
    seed: int = 42,
    resolution: float = 1.0,
    communities: list[set[str]] | None = None,
) -> nx.Graph:
    """The part of ``graph`` to draw, with community and centrality on each node.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (see :mod:`kg.graph`).
    view : {"bipartite", "papers", "concepts"}
        Which nodes and edges to show (see the module docstring).
    top : int or None
        Keep the ``top`` most central nodes (``None`` or 0: all).
    min_weight : float
        Drop edges lighter than this, then nodes left without edges.
    community : int, optional
        Keep one community (its index in the report, 0 = largest).
    focus : str, optional
        Keep the ego network of this node (id, label, or a unique part of a label).
    depth : int
        Radius of the ego network, in edges.
    size_by : {"pagerank", "degree", "betweenness"}
        Centrality stored as ``centrality`` and used by ``top``.
    seed : int
        Seed for community detection and sampled betweenness.
    resolution : float
        Community resolution (as ``kg build --resolution``).
    communities : list of set, optional
        Paper communities already computed, to skip detecting them again.

    Returns
    -------
    networkx.Graph
        Nodes keep (copies of) their attributes plus ``community`` and
        ``centrality``; the graph attributes ``focus`` (node id or None) and
        ``community_labels`` (list of str) describe the view.

    Raises
    ------
    ViewError
        For an unknown view or size measure, a missing community or focus node.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("p1", kind="paper", label="A"); g.add_node("c:x", kind="concept", label="x", name="x")
    >>> _ = g.add_edge("p1", "c:x", key="mentions", weight=0.5)
    >>> sorted(graph_view(g).nodes)
    ['c:x', 'p1']
    """
    if view not in VIEWS:
        raise ViewError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    if size_by not in SIZE_BY:
        raise ViewError(f"unknown --size-by {size_by!r}; choose one of {', '.join(SIZE_BY)}")
    if depth < 0:
        raise ViewError("--depth must be 0 or more")
    membership, labels = community_membership(graph, seed=seed, resolution=resolution,
                                             communities=communities)
    shown = _base_view(graph, view)
    if min_weight > 0:
        shown.remove_edges_from([(u, v) for u, v, w in shown.edges(data="weight") if w < min_weight])
        shown.remove_nodes_from([n for n in list(shown) if shown.degree(n) == 0])
    if community is not None:
        if not 0 <= community < len(labels):
            raise ViewError(f"--community {community} does not exist; the graph has communities "
                            f"0 to {len(labels) - 1} (see report.md)")
        shown = shown.subgraph(n for n in shown if membership.get(n) == community).copy()
    focus_id = None
    if focus is not None:
        focus_id = find_node(shown, graph, focus)
        shown = nx.ego_graph(shown, focus_id, radius=depth)
    scores = _centrality(shown, size_by, seed)
    if top and shown.number_of_nodes() > top:
        ranked = sorted(shown, key=lambda n: (n != focus_id, -scores[n], n))
        shown = shown.subgraph(ranked[:top]).copy()
    out = nx.Graph(focus=focus_id, community_labels=labels, view=view, size_by=size_by)
    for node in sorted(shown):
        out.add_node(node, **shown.nodes[node])
        out.nodes[node]["community"] = membership.get(node, -1)
        out.nodes[node]["centrality"] = float(scores.get(node, 0.0))
    out.add_edges_from(sorted((min(u, v), max(u, v), d) for u, v, d in shown.edges(data=True)))
    return out
