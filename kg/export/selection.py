"""Which nodes and edges of one view the graph page draws, once the view's nodes, edges and communities
are known: filters, a community, a focus, the most central nodes, the strongest links.

:func:`select_view` is the part of :func:`kg.export.html_view.graph_view` that needs nothing but the
graph part and the communities: no analysis, no projection, no SciPy. The whole-graph path
(:func:`~kg.export.html_view.graph_view`) computes the communities and the citation views first and
hands them here; the read index (:mod:`kg.index.views`) hands the part it read, with the communities
it stores, straight to it, so ``kg viz --community``, ``--focus`` and ``--view communities`` import
neither the analysis nor SciPy (0.4 s of a cold start). See :mod:`kg.export.html_view` for the views.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import networkx as nx

from kg.defaults import DETAIL, SEED
from kg.errors import ViewError
from kg.pagerank import pagerank_of_graph

__all__ = ["VIEWS", "CITATION_VIEWS", "SIZE_BY", "CONCEPT_LINKS", "COMMUNITY_LINKS", "select_view", "check_options", "find_node",
           "community_link_weights"]

VIEWS = ("bipartite", "papers", "concepts", "communities", "cocitation", "coupling", "coauthors", "forecast")
CITATION_VIEWS = ("cocitation", "coupling", "coauthors")
SIZE_BY = ("pagerank", "degree", "betweenness")
_EDGES = {"bipartite": ("mentions", "cites"), "papers": ("related", "cites"), "concepts": ("co_occurs",)}
_NODES = {"bipartite": ("paper", "concept"), "papers": ("paper",), "concepts": ("concept",)}
CONCEPT_LINKS = 4  # concepts view: the strongest links each concept keeps
COMMUNITY_LINKS = 3  # communities view: the strongest links each community keeps


def community_link_weights(graph: nx.MultiDiGraph, membership: Mapping[str, int],
                           members: Mapping[int, set]) -> dict[tuple[int, int], float]:
    """The weight between two communities (lower number first): the ``related`` weight and one per
    ``cites`` link between their papers, for the communities of ``members`` (number -> papers)."""
    weights: Counter[tuple[int, int]] = Counter()
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key not in ("related", "cites") or u not in membership or v not in membership:
            continue
        a, b = membership[u], membership[v]
        if a != b and a in members and b in members:
            weights[min(a, b), max(a, b)] += float(data.get("weight", 1) or 0) if key == "related" else 1.0
    return dict(weights)


def _community_view(rows: list[dict], weights: Mapping[tuple[int, int], float]) -> nx.Graph:
    """One node per paper community, linked by ``weights`` (:func:`community_link_weights`)."""
    members = {int(row["id"]): set(row["papers"]) for row in rows if row["papers"]}
    out = nx.Graph()
    for row in rows:
        k = int(row["id"])
        if k not in members:
            continue
        out.add_node(f"community:{k}", kind="community", community=k, papers=len(members[k]),
                     label=row["label"],
                     concepts=[str(c["name"]) for c in row["concepts"][:DETAIL]],
                     central=list(row["papers"][:DETAIL]))
    for (a, b), weight in sorted(weights.items()):
        out.add_edge(f"community:{a}", f"community:{b}", kind="links", weight=round(weight, 3), cites=False)
    return out


def _strongest_links(view: nx.Graph, keep: int) -> nx.Graph:
    """``view`` with only the edges that are among the ``keep`` heaviest of either end."""
    kept = set()
    for node in view:
        ranked = sorted(view.adj[node].items(), key=lambda kv: (-float(kv[1].get("weight", 1)), kv[0]))
        kept.update((min(node, other), max(node, other)) for other, _ in ranked[:keep])
    view.remove_edges_from([(u, v) for u, v in list(view.edges()) if (min(u, v), max(u, v)) not in kept])
    return view


def _linked_top(view: nx.Graph, scores: dict[str, float], top: int, first: str | None) -> list[str]:
    """The ``top`` most central nodes such that each has an edge to another kept node.

    Nodes of the plain top ``top`` whose links all leave it are replaced by the next
    most central nodes with a link into what is kept (which can only give kept nodes
    more links). ``first`` (the focus) is always kept.
    """
    ranked = sorted(view, key=lambda n: (n != first, -scores[n], n))
    kept = set(ranked[:top])
    alone = {n for n in kept if n != first and not any(m in kept for m in view.adj[n])}
    kept -= alone
    if not kept:  # nothing links: keep the plain top
        return ranked[:top]
    for node in ranked[top:]:
        if len(kept) >= top:
            break
        if any(m in kept for m in view.adj[node]):
            kept.add(node)
    return [n for n in ranked if n in kept]


def _induced(view: nx.Graph, nodes) -> nx.Graph:
    """``view.subgraph(nodes).copy()``, in ``view``'s order of nodes and edges, built directly: NetworkX's
    filtered views check every node and neighbour through a view object (seconds on a 10,000-node view).
    ``view`` itself when ``nodes`` are all of it (its callers own it)."""
    keep = set(nodes)
    if len(keep) == view.number_of_nodes() and all(n in keep for n in view):
        return view
    out = view.__class__()
    out.graph.update(view.graph)
    out.add_nodes_from((n, d.copy()) for n, d in view.nodes(data=True) if n in keep)
    done: set = set()  # an undirected edge is added once, from the end that comes first
    for u, near in view.adj.items():
        if u in keep:
            out.add_edges_from((u, v, d.copy()) for v, d in near.items() if v in keep and v not in done)
            done.add(u)
    return out


def _names(data: dict) -> set[str]:
    names = {str(data.get(key) or "").casefold() for key in ("label", "name", "acronym", "title")}
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
        raise ViewError("focus", f"{query!r} is a {kind}, not shown in this view; try the bipartite view")
    wanted = query.casefold().strip()
    exact = sorted(n for n, d in view.nodes(data=True) if wanted in _names(d))
    if len(exact) > 1:  # a title pasted as written names its paper, not the concept of the same words
        for narrower in ([n for n in exact if query.strip() in {str(view.nodes[n].get(k) or "")
                                                                for k in ("title", "name", "label")}],
                         [n for n in exact if view.nodes[n].get("kind") == "paper"]):
            if len(narrower) == 1:
                return narrower[0]
            exact = narrower or exact
    if len(exact) == 1:
        return exact[0]
    partial = exact or sorted(n for n, d in view.nodes(data=True)
                              if wanted and wanted in str(d.get("label", "")).casefold())
    if len(partial) == 1:
        return partial[0]
    if not partial:
        raise ViewError("focus", f"{query!r} matches no node id or label in this view; "
                                 "use an id from graph.json or part of a title or concept name")
    shown = "; ".join(f"{n} ({view.nodes[n].get('label', '')})" for n in partial[:5])
    raise ViewError("focus", f"{query!r} matches {len(partial)} nodes ({shown}"
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
    if view.is_directed():
        return nx.pagerank(view, weight="weight", max_iter=200, tol=1e-8)
    return pagerank_of_graph(view, "weight", max_iter=200, tol=1e-8)  # NetworkX's numbers, without SciPy


def check_options(view: str, size_by: str, depth: int) -> None:
    """Raise :class:`ViewError` for an unknown view or size measure or a negative depth."""
    if view not in VIEWS:
        raise ViewError("view", f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    if size_by not in SIZE_BY:
        raise ViewError("size_by", f"unknown {size_by!r}; choose one of {', '.join(SIZE_BY)}")
    if depth < 0:
        raise ViewError("depth", "must be 0 or more")


def select_view(
    graph: nx.MultiDiGraph,
    *,
    membership: tuple[Mapping[str, int], list[dict]],
    view: str = "bipartite",
    top: int | None = 2000,
    min_weight: float = 0.0,
    community: int | None = None,
    focus: str | None = None,
    depth: int = 1,
    size_by: str = "pagerank",
    seed: int = SEED,
    community_links: Mapping[tuple[int, int], float] | None = None,
    shown: nx.Graph | None = None,
    labels: Sequence[str] | None = None,
    sizes: Sequence[int] | None = None,
) -> nx.Graph:
    """:func:`kg.export.html_view.graph_view` given the communities (``membership``: node -> number and
    the analysis's community rows) and, for the views drawn from projections, the view's own graph.

    ``shown`` is that graph (citation and forecast views, built by :mod:`kg.export.html_view`; it is
    changed), ``labels`` and ``sizes`` the names and sizes of the groups it is coloured by (default:
    the communities'). Without ``shown`` the ``bipartite``, ``papers``, ``concepts`` and ``communities``
    views are made here from ``graph`` (``community_links``: the overview's weights, default from
    ``graph``). The other parameters and the result are :func:`~kg.export.html_view.graph_view`'s.

    Raises
    ------
    ViewError
        For an unknown view or size measure, a missing community or focus node, or a view that needs
        the whole graph's projections without ``shown``.
    """
    check_options(view, size_by, depth)
    membership, rows = dict(membership[0]), membership[1]
    labels = [row["label"] for row in rows] if labels is None else list(labels)
    sizes = [len(row["papers"]) for row in rows] if sizes is None else list(sizes)
    if shown is None:
        if view == "communities":
            if community_links is None:
                members = {int(row["id"]): set(row["papers"]) for row in rows if row["papers"]}
                community_links = community_link_weights(graph, membership, members)
            shown = _community_view(rows, community_links)
            membership = {**membership, **{n: d["community"] for n, d in shown.nodes(data=True)}}
        elif view in _EDGES:
            shown = _base_view(graph, view)
        else:
            raise ViewError("view", f"the {view} view is drawn from the whole graph (kg.export.html_view.graph_view)")
    if min_weight > 0:
        shown.remove_edges_from([(u, v) for u, v, w in shown.edges(data="weight") if w < min_weight])
        shown.remove_nodes_from([n for n in list(shown) if shown.degree(n) == 0])
    if community is not None:
        if not 0 <= community < len(labels):
            raise ViewError("community", f"{community} does not exist; the graph has communities "
                            f"0 to {len(labels) - 1} (see report.md)")
        shown = _induced(shown, (n for n in shown if membership.get(n) == community))
    focus_id = None
    if focus is not None:
        focus_id = find_node(shown, graph, focus)
        shown = nx.ego_graph(shown, focus_id, radius=depth)
    left_out = None
    if view == "communities":  # size is the number of papers; the largest are kept
        alone = [n for n in shown if shown.degree(n) == 0]
        if alone and len(alone) < shown.number_of_nodes() and focus_id is None:
            # communities linked to no other (often single papers that relate to none) are left out
            left_out = {"communities": len(alone), "papers": sum(shown.nodes[n]["papers"] for n in alone)}
            shown.remove_nodes_from(alone)
        scores = {n: float(d["papers"]) for n, d in shown.nodes(data=True)}
        size_by = "papers"
    else:
        scores = _centrality(shown, size_by, seed)
    if top and shown.number_of_nodes() > top:
        shown = _induced(shown, _linked_top(shown, scores, top, focus_id))
    if view == "concepts":
        shown = _strongest_links(shown, CONCEPT_LINKS)
    elif view == "communities":
        shown = _strongest_links(shown, COMMUNITY_LINKS)
    out = nx.Graph(focus=focus_id, community_labels=labels, community_sizes=sizes, view=view, size_by=size_by,
                   left_out=left_out)
    for node in sorted(shown):
        out.add_node(node, **shown.nodes[node])
        out.nodes[node]["community"] = membership.get(node, -1)
        out.nodes[node]["centrality"] = float(scores.get(node, 0.0))
    out.add_edges_from(sorted((min(u, v), max(u, v), d) for u, v, d in shown.edges(data=True)))
    return out
