"""The part of a build's graph that one page view draws, read from its index.

``kg viz --focus``, ``--community`` and ``--view communities`` draw a small part of a large
graph. :func:`view_part` reads that part from the index (the nodes the view can show, every
edge of the view between them, and what the page's details list: each paper's concepts, the
overview's central papers) together with the communities of the whole graph
(:func:`kg.export.html_view.community_membership`, stored by the writer), and
:func:`render_part` draws it: the same page :func:`kg.export.html.render_html` draws from the
whole graph.

A community holds thousands of nodes of which the page shows 2,000 at most, and a node's
attributes (a paper's abstract, authors, ids) are most of what the index holds. So the part's
nodes of a community or a focus carry only their ``kind`` (all that choosing the view needs:
:func:`kg.export.selection.select_view`), and :func:`render_part` reads the attributes of the
nodes the view shows (and of the concepts their details list) once they are chosen.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import networkx as nx

from kg.defaults import DETAIL, SEED
from kg.export.drawing import detail_concepts, render_view
from kg.export.selection import find_node, select_view
from kg.index.read import BuildIndex
from kg.timing import collection_paused

__all__ = ["view_part", "render_part", "ViewPart"]

_EDGES = {"bipartite": ("mentions", "cites"), "papers": ("related", "cites"), "concepts": ("co_occurs",)}
_NODES = {"bipartite": ("paper", "concept"), "papers": ("paper",), "concepts": ("concept",)}
_NAMES = ("label", "name", "acronym", "title", "aliases")


class ViewPart:
    """What :func:`render_part` draws a view from: ``graph`` (the part), ``membership`` (node -> community
    for its nodes, and the analysis's community rows), ``community_links`` (the overview's weights, or
    None), ``focus`` (the id the focus named, or None: a part of the titles cannot tell whether a part
    of a title is unique) and ``light`` (True when the nodes carry only their ``kind`` so far)."""

    def __init__(self, graph: nx.MultiDiGraph, membership: tuple[dict, list[dict]],
                 community_links: dict | None = None, focus: str | None = None, light: bool = False):
        self.graph = graph
        self.membership = membership
        self.community_links = community_links
        self.focus = focus
        self.light = light


_EDGE_ATTRS = ("weight", "rank", "score", "count", "shared")
_EDGE_SQL = f"SELECT rowid, source, target, kind, {', '.join(_EDGE_ATTRS)} FROM edges WHERE "
# the edges of some kinds between some nodes, found from their sources ("+target": not through the index on
# targets, whose lists are long for a concept many papers mention: 2.3 times slower on an ACM-CR community)
_AMONG = ("kind IN (SELECT value FROM json_each(?)) AND source IN (SELECT value FROM json_each(?)) "
          "AND +target IN (SELECT value FROM json_each(?))")


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
    """The part: ``nodes`` with their attributes, ``edges``, and each paper's ``mentions`` (the page lists a
    paper's top concepts) with those concepts; nodes and edges in the graph's order."""
    wanted = set(nodes) | {u for _, u, _, _, _ in edges} | {v for _, _, v, _, _ in edges}
    edges = edges + _mentions(index, [n for n, k in _kinds(index, wanted).items() if k == "paper"])
    return _assemble(index.nodes(wanted | {v for _, _, v, _, _ in edges}), edges)


def _light(index: BuildIndex, where: str, args: Sequence) -> dict[str, dict]:
    """Node id -> ``{"kind": kind}`` for the nodes ``where`` selects, in the graph's order."""
    return {n: {"kind": k} for n, k in index._rows(f"SELECT id, kind FROM nodes WHERE {where} ORDER BY rowid", args)}


def _assemble(nodes: dict[str, dict], edges: list[tuple]) -> nx.MultiDiGraph:
    """A part graph of ``nodes`` (id -> attributes, in order) and the ``edges`` between them, by their order."""
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(nodes.items())
    graph.add_edges_from((u, v, key, data) for _, u, v, key, data in
                         sorted({e[0]: e for e in edges}.values(), key=lambda e: e[0]) if u in nodes and v in nodes)
    return graph


def _mentions(index: BuildIndex, papers: Iterable[str]) -> list[tuple[int, str, str, str, dict]]:
    """The ``mentions`` edges of ``papers`` (as :func:`_edges` gives them)."""
    return _edges(index, _EDGE_SQL + "kind = 'mentions' AND source IN (SELECT value FROM json_each(?))",
                  (json.dumps(sorted(papers)),))


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
    """The node ``focus`` names among the view's nodes, as :func:`kg.export.selection.find_node` finds it;
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
    with collection_paused():  # tens of thousands of nodes and edges made at once: no collection walks them
        return _view_part(index, view=view, community=community, focus=focus, depth=depth, min_weight=min_weight)


def _view_part(index: BuildIndex, *, view: str, community: int | None, focus: str | None, depth: int,
               min_weight: float) -> ViewPart | None:
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
        inside = _light(index, "id IN (SELECT id FROM papers WHERE community = ? UNION SELECT id FROM concepts "
                               "WHERE community = ?) AND kind IN (SELECT value FROM json_each(?))",
                        (community, community, json.dumps(_NODES[view])))
        members = json.dumps(sorted(inside))
        graph = _assemble(inside, _edges(index, _EDGE_SQL + _AMONG, (kinds, members, members)))
        return ViewPart(graph, ({n: community for n in graph}, index.community_rows()), light=True)  # all in it
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
    graph = _assemble(_light(index, "id IN (SELECT value FROM json_each(?))", (ego,)),
                      _edges(index, _EDGE_SQL + _AMONG, (kinds, ego, ego)))
    return ViewPart(graph, _membership(index, graph), focus=centre, light=True)


def render_part(index: BuildIndex, part: ViewPart, *, view: str = "bipartite", top: int | None = 2000,
                min_weight: float = 0.0, community: int | None = None, depth: int = 1, size_by: str = "pagerank",
                seed: int = SEED, title: str = "kg graph") -> str:
    """The page of ``part`` (:func:`view_part`, called with the same ``view``, ``community``, ``depth`` and
    ``min_weight``): what :func:`kg.export.html.render_html` draws from the whole graph with these options.

    The view is chosen on the part (:func:`kg.export.selection.select_view`, what
    :func:`kg.export.html_view.graph_view` does once it has the communities: no analysis, no SciPy is
    imported); the nodes it shows, and the concepts their details list, then get their attributes from
    ``index``.
    """
    with collection_paused():  # as in view_part
        shown = select_view(part.graph, membership=part.membership, view=view, top=top, min_weight=min_weight,
                            community=community, focus=part.focus, depth=depth, size_by=size_by, seed=seed,
                            community_links=part.community_links)
        if part.light:
            _add_attributes(index, part.graph, shown)
        return render_view(part.graph, shown, seed=seed, title=title)


def _add_attributes(index: BuildIndex, graph: nx.MultiDiGraph, shown: nx.Graph) -> None:
    """Give the nodes of ``shown`` their attributes from ``index``, and give ``graph`` them and, for each
    paper shown, the ``mentions`` its details list (:func:`kg.export.html.detail_concepts`; with their
    ``rank``, all the page reads of them) with those concepts; ``shown`` keeps the ``community`` and
    ``centrality`` the view gave its nodes."""
    mentioned: dict[str, dict[str, dict]] = {}
    for paper, concept, rank in index._rows(
            "SELECT source, target, rank FROM edges WHERE kind = 'mentions' AND source IN "
            "(SELECT value FROM json_each(?))", (json.dumps([n for n in shown if graph.nodes[n].get("kind") == "paper"]),)):
        mentioned.setdefault(paper, {})[concept] = {} if rank is None else {"rank": rank}
    listed = [(paper, concept, concepts[concept]) for paper, concepts in mentioned.items()
              for concept in detail_concepts(concepts.items())]
    for node, data in index.nodes(set(shown) | {c for _, c, _ in listed}).items():
        if node not in graph:
            graph.add_node(node)
        graph.nodes[node].update(data)
        if node in shown:
            mine = shown.nodes[node]
            given = {key: mine[key] for key in ("community", "centrality") if key in mine}
            mine.update(data)
            mine.update(given)
    graph.add_edges_from((paper, concept, "mentions", data) for paper, concept, data in listed
                         if concept in graph and not graph.has_edge(paper, concept, "mentions"))
