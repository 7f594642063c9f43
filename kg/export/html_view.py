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
    Concepts joined by ``co_occurs`` (weight: number of papers naming both); each
    concept keeps only its strongest links (a term map, as VOSviewer draws one).
``communities``
    One node per paper community (``papers``: its size), joined by the weight of
    the ``related`` and ``cites`` links between their papers (communities linked to
    no other are left out, and counted in ``left_out``); each community keeps only its
    ``COMMUNITY_LINKS`` strongest links, so the overview's edges say which communities
    belong together; each node carries the community's top concepts and most central
    papers for the page's details panel.
``cocitation``, ``coupling``
    Papers joined by co-citation (weight: corpus papers citing both) or bibliographic
    coupling (weight: references both cite), see :mod:`kg.citations`; papers without
    such a link are left out. Coloured, numbered and labeled by the clusters of that map
    in the analysis (``citation_maps``, the report's co-citation and coupling sections),
    so ``community`` selects one of those clusters.
``coauthors``
    Authors joined by the papers they wrote together; an author takes the paper
    community of most of their papers.
``forecast``
    "Concepts likely to meet next": the concept pairs of the analysis's ``forecast``
    (``kg forecast``) joined by a predicted link (``kind`` ``forecast``, weight: the
    score, drawn dashed), with up to three of each pair's shared neighbours and the
    ``co_occurs`` links among all of them; each concept lists the concepts it is
    predicted to meet (``forecast``).

Communities are the ones the build's analysis found (``analysis``, see
:mod:`kg.analyze.result`: computed once, handed on), numbered and labeled as in the report
and Neo4j; a concept joins the community of most of its papers, so a colour means the
same thing in every view.

The ``top`` most central nodes are kept so that every kept node has a kept edge:
nodes whose links all leave the selection give way to the next most central ones
that link into it. Only a view with no edges at all (or a focus node alone) shows
nodes alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import networkx as nx

from kg.analyze import community_table
from kg.analyze.centrality import adjacency, pagerank_of_matrix
from kg.analyze.citation_maps import paper_cluster
from kg.citations import coauthorship, cocitation, coupling
from kg.defaults import DETAIL, SEED
from kg.errors import ViewError

__all__ = ["VIEWS", "SIZE_BY", "graph_view", "find_node", "community_membership", "community_link_weights"]

VIEWS = ("bipartite", "papers", "concepts", "communities", "cocitation", "coupling", "coauthors", "forecast")
CITATION_VIEWS = ("cocitation", "coupling", "coauthors")
SIZE_BY = ("pagerank", "degree", "betweenness")
_EDGES = {"bipartite": ("mentions", "cites"), "papers": ("related", "cites"), "concepts": ("co_occurs",)}
_NODES = {"bipartite": ("paper", "concept"), "papers": ("paper",), "concepts": ("concept",)}
CONCEPT_LINKS = 4  # concepts view: the strongest links each concept keeps
COMMUNITY_LINKS = 3  # communities view: the strongest links each community keeps


def community_membership(graph: nx.MultiDiGraph, *, analysis: Mapping | None = None,
                         communities: Mapping[str, int] | None = None,
                         community_labels: Sequence[str] | None = None, seed: int | None = None,
                         resolution: float | None = None) -> tuple[dict[str, int], list[dict]]:
    """Community number of every paper and concept, and the row of each community.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    analysis : mapping, optional
        The build's analysis (:mod:`kg.analyze.result`): the page shows exactly its
        communities, numbers and labels. The usual way.
    communities, community_labels : optional
        Without an analysis: paper id -> community number computed elsewhere, and the
        label of each number (labeled from the members when not given).
    seed, resolution : optional
        With neither: the settings to find communities with (default: the graph's own).

    Returns
    -------
    (dict, list of dict)
        Node id -> community number, and one row per number (``label``, ``concepts``,
        ``papers``; see :func:`kg.analyze.community_table`). Concepts and authors take
        the community of most of their papers (ties: the larger community, then the lower
        number); nodes in none get -1.
    """
    rows = community_table(graph, analysis=analysis, communities=communities, community_labels=community_labels,
                           seed=seed, resolution=resolution)
    membership = {paper: int(row["id"]) for row in rows for paper in row["papers"]}
    votes: dict[str, Counter[int]] = {}
    for u, v, key in graph.edges(keys=True):
        if key == "mentions" and u in membership and v not in membership:  # paper -> concept
            votes.setdefault(v, Counter())[membership[u]] += 1
        elif key == "wrote" and v in membership and u not in membership:  # author -> paper
            votes.setdefault(u, Counter())[membership[v]] += 1
    size = {int(row["id"]): len(row["papers"]) for row in rows}
    for concept, counter in votes.items():
        membership[concept] = min(counter, key=lambda k: (-counter[k], -size.get(k, 0), k))
    return membership, rows


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


def _citation_view(graph: nx.MultiDiGraph, view: str) -> nx.Graph:
    """Papers (authors) linked by co-citation, coupling (co-authorship), without unlinked ones."""
    projected = {"cocitation": cocitation, "coupling": coupling, "coauthors": coauthorship}[view](graph)
    out = nx.Graph()
    out.add_nodes_from((n, graph.nodes[n]) for n in sorted(projected) if projected.degree(n) > 0)
    out.add_edges_from((u, v, {"kind": view, "weight": float(d["count"]), "salton": d["salton"], "cites": False})
                       for u, v, d in projected.edges(data=True))
    return out


def _forecast_view(graph: nx.MultiDiGraph, analysis: Mapping | None) -> nx.Graph:
    """The predicted pairs of the analysis's forecast, their shared neighbours, and the links among them."""
    pairs = ((analysis or {}).get("forecast") or {}).get("pairs")
    if not pairs:
        raise ViewError("view", "the analysis holds no forecast to draw; kg forecast DIRECTORY makes one")
    out = nx.Graph()
    meets: dict[str, list[dict]] = {}
    for pair in pairs:
        a, b = pair.get("source"), pair.get("target")
        if a not in graph or b not in graph:
            continue
        shared = [s["id"] for s in (pair.get("evidence") or {}).get("shared_neighbours", [])[:3] if s.get("id") in graph]
        for node in (a, b, *shared):
            out.add_node(node, **graph.nodes[node])
        out.add_edge(a, b, kind="forecast", weight=float(pair.get("score") or 0.0), cites=False, predicted=True)
        names = [s.get("name") for s in (pair.get("evidence") or {}).get("shared_neighbours", [])[:3]]
        for one, other in ((a, b), (b, a)):
            meets.setdefault(one, []).append({"other": other, "score": pair.get("score"), "shared": names})
    for node, rows in meets.items():
        out.nodes[node]["forecast"] = rows
    for u, v, key, data in graph.subgraph(list(out)).edges(keys=True, data=True):
        if key == "co_occurs" and u != v and not out.has_edge(u, v):
            out.add_edge(u, v, kind="co_occurs", weight=float(data.get("weight", 1) or 0), cites=False)
    return out


def _map_clusters(analysis: Mapping | None, view: str) -> tuple[dict[str, int], list[str]] | None:
    """Paper -> cluster number and the cluster labels of the analysis's ``view`` map, if it has one."""
    result = ((analysis or {}).get("citation_maps") or {}).get(view)
    if not result:
        return None  # an analysis from before citation maps: the paper communities colour the view
    return paper_cluster(result), [str(row.get("label") or "") for row in result.get("clusters") or []]


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
    nodes, matrix = adjacency(view, "weight")  # NetworkX's numbers, read once
    return pagerank_of_matrix(matrix, nodes, max_iter=200, tol=1e-8)


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
    seed: int = SEED,
    resolution: float | None = None,
    analysis: Mapping | None = None,
    communities: Mapping[str, int] | None = None,
    community_labels: Sequence[str] | None = None,
    membership: tuple[Mapping[str, int], list[dict]] | None = None,
    community_links: Mapping[tuple[int, int], float] | None = None,
) -> nx.Graph:
    """The part of ``graph`` to draw, with community and centrality on each node.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (see :mod:`kg.graph`).
    view : {"bipartite", "papers", "concepts", "communities", "cocitation", "coupling", "coauthors", "forecast"}
        Which nodes and edges to show (see the module docstring).
    top : int or None
        Keep the ``top`` most central nodes that link to one another (``None`` or 0: all).
    min_weight : float
        Drop edges lighter than this, then nodes left without edges.
    community : int, optional
        Keep one community (its number in the report).
    focus : str, optional
        Keep the ego network of this node (id, label, or a unique part of a label).
    depth : int
        Radius of the ego network, in edges.
    size_by : {"pagerank", "degree", "betweenness"}
        Centrality stored as ``centrality`` and used by ``top``.
    seed : int
        Seed for sampled betweenness (and for finding communities when no analysis is given).
    analysis : mapping, optional
        The build's analysis; the view shows its communities (see :func:`community_membership`,
        also for ``communities``, ``community_labels`` and ``resolution``, used only without it).
    membership : (dict, list of dict), optional
        What :func:`community_membership` returns for the whole graph, computed beforehand (the
        read index stores it): ``graph`` may then be the part of the graph around what is
        shown, and ``analysis`` is not needed.
    community_links : mapping, optional
        With ``membership``, for the communities view: :func:`community_link_weights` of the
        whole graph.

    Returns
    -------
    networkx.Graph
        Nodes keep (copies of) their attributes plus ``community`` and
        ``centrality``; the graph attributes ``focus`` (node id or None),
        ``community_labels`` (list of str), ``community_sizes`` (papers in each community or
        cluster of the analysis, whatever the view shows of it) and ``left_out`` (communities view: how
        many communities, of how many papers, were left out for linking to no
        other; else None) describe the view.

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
        raise ViewError("view", f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    if size_by not in SIZE_BY:
        raise ViewError("size_by", f"unknown {size_by!r}; choose one of {', '.join(SIZE_BY)}")
    if depth < 0:
        raise ViewError("depth", "must be 0 or more")
    if membership is None:
        membership, rows = community_membership(graph, analysis=analysis, communities=communities,
                                                community_labels=community_labels, seed=seed, resolution=resolution)
    else:
        membership, rows = dict(membership[0]), membership[1]
    labels = [row["label"] for row in rows]
    sizes = [len(row["papers"]) for row in rows]
    if view == "communities":
        if community_links is None:
            members = {int(row["id"]): set(row["papers"]) for row in rows if row["papers"]}
            community_links = community_link_weights(graph, membership, members)
        shown = _community_view(rows, community_links)
        membership = {**membership, **{n: d["community"] for n, d in shown.nodes(data=True)}}
    elif view == "forecast":
        shown = _forecast_view(graph, analysis)
    elif view in CITATION_VIEWS:
        shown = _citation_view(graph, view)
        clusters = _map_clusters(analysis, view) if view != "coauthors" else None
        if clusters is not None:
            membership, labels = clusters
            sizes = [0] * len(labels)
            for k in membership.values():
                sizes[k] += 1
    else:
        shown = _base_view(graph, view)
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
