"""The part of a build's graph that one page view draws, read from its index.

``kg viz --focus``, ``--community`` and ``--view communities`` draw a small part of a large
graph. :func:`view_part` reads that part from the index (the nodes the view can show, every
edge of the view between them, and what the page's details list: each paper's concepts, the
overview's central papers) together with the communities of the whole graph
(:func:`kg.export.html_view.community_membership`, stored by the writer), so that
:func:`kg.export.html.render_html` draws the same page as from the whole graph.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import networkx as nx

from kg.defaults import DETAIL
from kg.export.html_view import find_node
from kg.index.read import BuildIndex

__all__ = ["view_part", "ViewPart"]

_EDGES = {"bipartite": ("mentions", "cites"), "papers": ("related", "cites"), "concepts": ("co_occurs",)}
_NODES = {"bipartite": ("paper", "concept"), "papers": ("paper",), "concepts": ("concept",)}
_NAMES = ("label", "name", "acronym", "title", "aliases")


class ViewPart:
    """What :func:`kg.export.html.render_html` takes to draw a view from the index: ``graph`` (the part),
    ``membership`` (node -> community for its nodes, and the analysis's community rows),
    ``community_links`` (the overview's weights, or None) and ``focus`` (the id the focus named, or
    None: pass it as ``focus``, since a part of the titles cannot tell whether a part of a title is unique)."""

    def __init__(self, graph: nx.MultiDiGraph, membership: tuple[dict, list[dict]],
                 community_links: dict | None = None, focus: str | None = None):
        self.graph = graph
        self.membership = membership
        self.community_links = community_links
        self.focus = focus


_EDGE_ATTRS = ("weight", "rank", "score", "count", "shared")


def _edges(index: BuildIndex, sql: str, args) -> list[tuple[int, str, str, str, dict]]:
    """(order, source, target, kind, attributes) of the edges ``sql`` selects (``rowid, source, target, kind``
    and the attribute columns); the order is the graph's, which the part keeps so its views are computed
    as the graph's are."""
    out = []
    for r, u, v, k, *values in index._rows(sql, args):
        data = {name: value for name, value in zip(_EDGE_ATTRS, values) if value is not None}
        if "shared" in data:
            data["shared"] = json.loads(data["shared"])
        out.append((r, u, v, k, data))
    return out


def _graph(index: BuildIndex, nodes: Iterable[str], edges: list[tuple]) -> nx.MultiDiGraph:
    """The part: ``nodes`` with their attributes, ``edges``, and each paper's ``mentions`` (the page
    lists a paper's top concepts) with those concepts; nodes and edges in the graph's order."""
    wanted = set(nodes) | {u for _, u, _, _, _ in edges} | {v for _, _, v, _, _ in edges}
    papers = sorted(n for n, k in _kinds(index, wanted).items() if k == "paper")
    mentions = _edges(index, "SELECT rowid, source, target, kind, weight, rank, score, count, shared FROM edges WHERE kind = 'mentions' "
                             "AND source IN (SELECT value FROM json_each(?))", (json.dumps(papers),))
    wanted |= {v for _, _, v, _, _ in mentions}
    graph = nx.MultiDiGraph()
    attrs = index.nodes(wanted)
    graph.add_nodes_from(attrs.items())
    for _, u, v, key, data in sorted({e[0]: e for e in edges + mentions}.values(), key=lambda e: e[0]):
        if u in attrs and v in attrs:
            graph.add_edge(u, v, key=key, **data)
    return graph


def _kinds(index: BuildIndex, ids: Iterable[str]) -> dict[str, str]:
    """Node id -> kind, for the ids the build has."""
    return dict(index._rows("SELECT id, kind FROM nodes WHERE id IN (SELECT value FROM json_each(?))",
                            (json.dumps(sorted(set(ids))),)))


def _membership(index: BuildIndex, graph: nx.MultiDiGraph) -> tuple[dict, list[dict]]:
    ids = json.dumps(sorted(graph.nodes))
    member = {}
    for table in ("papers", "concepts", "authors"):
        member.update((n, c) for n, c in index._rows(
            f"SELECT id, community FROM {table} WHERE community IS NOT NULL AND id IN "
            "(SELECT value FROM json_each(?))", (ids,)))
    return member, index.community_rows()


def _focus_nodes(index: BuildIndex, view: str, focus: str) -> str | None:
    """The node ``focus`` names among the view's nodes, as :func:`kg.export.html_view.find_node` finds it;
    None when it names a node of another kind (the whole graph then says why)."""
    kinds = _NODES[view]
    if index._rows("SELECT 1 FROM nodes WHERE id = ? AND kind IN (SELECT value FROM json_each(?))",
                   (focus, json.dumps(kinds))):
        return focus
    if index._rows("SELECT 1 FROM nodes WHERE id = ?", (focus,)):
        return None
    names = nx.Graph()
    for node, *values in index._rows(
            "SELECT id, " + ", ".join(f"json_extract(attrs, '$.{k}')" for k in _NAMES) +
            " FROM nodes WHERE kind IN (SELECT value FROM json_each(?))", (json.dumps(kinds),)):
        data = {k: v for k, v in zip(_NAMES, values) if v is not None}
        if "aliases" in data:
            data["aliases"] = json.loads(data["aliases"])
        names.add_node(node, **data)
    return find_node(names, nx.MultiDiGraph(), focus)


def view_part(index: BuildIndex, *, view: str = "bipartite", community: int | None = None,
              focus: str | None = None, depth: int = 1, min_weight: float = 0.0) -> ViewPart | None:
    """The part of the graph that ``kg viz`` draws for these options, read from ``index``; None when
    the view needs the whole graph (another view, a ``min_weight``, a focus with a community).

    Raises
    ------
    kg.errors.ViewError
        For a focus that names nothing or several nodes (as the page would).
    """
    if view == "communities" and focus is None:
        rows = index.community_rows()
        central = [p for row in rows for p in row["papers"][:DETAIL]]
        graph = _graph(index, central, [])
        links = {(a, b): w for a, b, w in index.community_links()}
        return ViewPart(graph, _membership(index, graph), links)
    if view not in _EDGES or min_weight > 0 or (focus is None) == (community is None):
        return None
    kinds = json.dumps(_EDGES[view])
    if community is not None:
        inside = [n for (n,) in index._rows(
            "SELECT id FROM papers WHERE community = ? UNION SELECT id FROM concepts WHERE community = ?",
            (community, community))]
        kind = _kinds(index, inside)
        inside = sorted(n for n in inside if kind.get(n) in _NODES[view])
        members = json.dumps(inside)
        edges = _edges(index, "SELECT rowid, source, target, kind, weight, rank, score, count, shared FROM edges WHERE kind IN "
                              "(SELECT value FROM json_each(?)) AND source IN (SELECT value FROM json_each(?)) "
                              "AND target IN (SELECT value FROM json_each(?))", (kinds, members, members))
        graph = _graph(index, inside, edges)
        return ViewPart(graph, _membership(index, graph))
    centre = _focus_nodes(index, view, focus)
    if centre is None:
        return None
    reached, frontier = {centre}, [centre]
    for _ in range(depth):
        found = json.dumps(frontier)
        step = [n for (n,) in index._rows(
            "SELECT target FROM edges WHERE kind IN (SELECT value FROM json_each(?)) AND source IN "
            "(SELECT value FROM json_each(?)) UNION SELECT source FROM edges WHERE kind IN "
            "(SELECT value FROM json_each(?)) AND target IN (SELECT value FROM json_each(?))",
            (kinds, found, kinds, found))]
        kind = _kinds(index, step)
        step = sorted(n for n in step if kind.get(n) in _NODES[view] and n not in reached)
        if not step:
            break
        reached.update(step)
        frontier = step
    ego = json.dumps(sorted(reached))
    edges = _edges(index, "SELECT rowid, source, target, kind, weight, rank, score, count, shared FROM edges WHERE kind IN "
                          "(SELECT value FROM json_each(?)) AND source IN (SELECT value FROM json_each(?)) "
                          "AND target IN (SELECT value FROM json_each(?))", (kinds, ego, ego))
    graph = _graph(index, reached, edges)
    return ViewPart(graph, _membership(index, graph), focus=centre)

