"""Which part of the graph the HTML page shows: views, filters, communities, centrality.

:func:`graph_view` turns a kg graph into the plain ``nx.Graph`` the page draws:
every node carries ``kind``, ``community`` and ``centrality``; every edge ``kind``
and ``weight``. It is separate from the drawing so it can be tested (and reused)
without a browser. The selection itself (filters, a community, a focus, the most central nodes,
the strongest links) is :func:`kg.export.selection.select_view`; this module adds what needs the
whole graph: the communities from the analysis (:func:`community_membership`) and the citation,
co-author and forecast views.

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
from kg.analyze.citation_maps import paper_cluster
from kg.citations import coauthorship, cocitation, coupling
from kg.defaults import SEED
from kg.errors import ViewError
from kg.export.selection import (CITATION_VIEWS, COMMUNITY_LINKS, CONCEPT_LINKS, SIZE_BY, VIEWS,
                                  check_options, community_link_weights, find_node, select_view)

__all__ = ["VIEWS", "SIZE_BY", "CITATION_VIEWS", "CONCEPT_LINKS", "COMMUNITY_LINKS", "graph_view", "find_node",
           "community_membership", "community_link_weights"]

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
            named = ((pair.get("evidence") or {}).get("named_together") or {}).get("papers")
            meets.setdefault(one, []).append({"other": other, "score": pair.get("score"), "shared": names,
                                              "named": named})
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
    check_options(view, size_by, depth)
    if membership is None:
        membership = community_membership(graph, analysis=analysis, communities=communities,
                                          community_labels=community_labels, seed=seed, resolution=resolution)
    shown, labels, sizes = None, None, None
    if view == "forecast":
        shown = _forecast_view(graph, analysis)
    elif view in CITATION_VIEWS:
        shown = _citation_view(graph, view)
        clusters = _map_clusters(analysis, view) if view != "coauthors" else None
        if clusters is not None:
            membership, labels = (clusters[0], membership[1]), clusters[1]
            sizes = [0] * len(labels)
            for k in clusters[0].values():
                sizes[k] += 1
    return select_view(graph, membership=membership, view=view, top=top, min_weight=min_weight, community=community,
                       focus=focus, depth=depth, size_by=size_by, seed=seed, community_links=community_links,
                       shown=shown, labels=labels, sizes=sizes)
