"""The browsable graph page: one self-contained HTML file that works offline, drawn from a chosen view.

:func:`render_view` draws what :func:`kg.export.html_view.graph_view` (or, from the read index,
:func:`kg.export.selection.select_view`) chose; :func:`kg.export.html.render_html` is the two together.
This module needs neither the analysis nor SciPy, so the index's views start fast.

The page inlines vis-network 9.1.2 (the copy pyvis ships), kg's own script and
style, and the graph as JSON; it loads no fonts, images or scripts from anywhere
and a Content-Security-Policy forbids it to connect anywhere. Node positions are
precomputed here with seeded Fruchterman–Reingold layouts (:mod:`kg.export.forcelayout`,
NumPy), so physics stays off and a 5,000-node view is interactive at once. The layout is a map:
each community gets its own region (see :func:`layout_positions`).

Every string from the corpus travels inside a ``<script type="application/json">``
block with ``<``, ``>`` and ``&`` escaped, and the page only ever puts it into the
document as text (``textContent``), never as HTML.

Drawing: papers are squares and concepts dots, coloured by community (legend),
sized by centrality; edge width follows weight. Hover shows a tooltip, a click
highlights the node's neighbours and shows its details, and the search box
selects and zooms to a node.
"""

from __future__ import annotations

import base64
import hashlib
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources

import networkx as nx
import numpy as np

from kg.defaults import SEED
from kg.escape import script_json
from kg.export.forcelayout import fruchterman_reingold
from kg.identifiers import paper_link
from kg.models import node_label
from kg.visnetwork import vis_network_folder

__all__ = ["render_view", "view_payload", "detail_concepts", "layout_positions", "color_of", "PALETTE", "OTHER_COLOR",
           "NONE_COLOR"]

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#17becf", "#bcbd22", "#8c6d31", "#637939", "#d6616b", "#7b4173", "#3182bd",
           "#e6550d", "#31a354", "#843c39", "#5254a3")
OTHER_COLOR = "#a0a0a0"  # the communities past the palette, grouped as "other" in the legend
NONE_COLOR = "#d9d9d9"  # nodes in no community
_EXCERPT = 280


def _force(view: nx.Graph, nodes: list, seed: int, weighted: bool = False) -> np.ndarray:
    """Seeded Fruchterman–Reingold coordinates of ``nodes`` (:mod:`kg.export.forcelayout`), centred on 0."""
    n = len(nodes)
    if n == 1:
        return np.zeros((1, 2))
    index = {node: i for i, node in enumerate(nodes)}
    pairs = [(index[u], index[v], float(d.get("weight", 1) or 0)) for u, v, d in view.edges(nodes, data=True)
             if u in index and v in index]
    start = np.random.default_rng(seed).uniform(-1, 1, size=(n, 2)) * math.sqrt(n)
    weights = None
    if weighted and pairs:
        top = max(w for _, _, w in pairs) or 1.0
        weights = np.array([0.2 + 4.8 * math.sqrt(max(w, 0.0) / top) for _, _, w in pairs])
    coords = fruchterman_reingold(start, np.array([(a, b) for a, b, _ in pairs], dtype=np.int64).reshape(-1, 2),
                                  weights, niter=500, seed=seed)
    return coords - coords.mean(axis=0)


def _fill_disk(coords: np.ndarray, radius: float) -> np.ndarray:
    """Coordinates moved radially so that they fill a disk of ``radius`` evenly.

    Angles and the order of distances from the centre are kept (the ``i``-th
    closest point lands at ``radius * sqrt((i + 0.5) / n)``), so a dense core
    opens up and outliers come in.
    """
    n = len(coords)
    if n == 1:
        return np.zeros((1, 2))
    dist = np.hypot(coords[:, 0], coords[:, 1])
    order = np.argsort(dist, kind="stable")
    target = np.empty(n)
    target[order] = radius * np.sqrt((np.arange(n) + 0.5) / n)
    angle = np.arctan2(coords[:, 1], coords[:, 0])
    return np.column_stack([target * np.cos(angle), target * np.sin(angle)])


def _pack(centres: np.ndarray, radii: np.ndarray, gap: float, rounds: int = 300) -> np.ndarray:
    """Circles moved apart until none overlap (with ``gap`` between), pulled gently together."""
    pos = centres.astype(float).copy()
    k = len(pos)
    if k < 2:
        return pos * 0
    need = radii[:, None] + radii[None, :] + gap
    np.fill_diagonal(need, 0.0)
    for _ in range(rounds):
        pos -= 0.02 * (pos - (pos * radii[:, None] ** 2).sum(axis=0) / (radii ** 2).sum())  # gravity
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.hypot(delta[..., 0], delta[..., 1])
        np.fill_diagonal(dist, np.inf)
        overlap = np.clip(need - dist, 0.0, None)
        if not overlap.any():
            continue
        safe = np.where(dist > 1e-9, dist, 1.0)
        unit = delta / safe[..., None]
        unit[dist <= 1e-9] = np.array([1.0, 0.0])  # coincident: push along x, by index order
        share = radii[None, :] ** 2 / (radii[:, None] ** 2 + radii[None, :] ** 2)  # small circles move more
        pos += 0.5 * (unit * (overlap * share)[..., None]).sum(axis=1)
    for _ in range(rounds):  # then settle: no more gravity, only pushes
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.hypot(delta[..., 0], delta[..., 1])
        np.fill_diagonal(dist, np.inf)
        overlap = np.clip(need - dist + 1e-3, 0.0, None)
        if not (dist < need - 1e-6).any():
            break
        safe = np.where(dist > 1e-9, dist, 1.0)
        unit = delta / safe[..., None]
        unit[dist <= 1e-9] = np.array([1.0, 0.0])
        share = radii[None, :] ** 2 / (radii[:, None] ** 2 + radii[None, :] ** 2)
        pos += (unit * (overlap * share)[..., None]).sum(axis=1)
    delta = pos[:, None, :] - pos[None, :, :]
    dist = np.hypot(delta[..., 0], delta[..., 1])
    np.fill_diagonal(dist, np.inf)
    if (dist < need - 1e-6).any():  # not settled: fall back to a grid of cells, which never overlaps
        cell = 2 * radii.max() + gap
        cols = math.ceil(math.sqrt(k))
        order = np.lexsort((pos[:, 0], pos[:, 1]))
        grid = np.array([[(i % cols) * cell, (i // cols) * cell] for i in range(k)], dtype=float)
        pos[order] = grid
    return pos - pos.mean(axis=0)


def layout_positions(view: nx.Graph, *, seed: int = SEED, spacing: float = 110.0,
                     room: Mapping[str, float] | None = None) -> dict[str, tuple[float, float]]:
    """Seeded positions in page pixels, centred on 0, with each community in its own region.

    The communities (node attribute ``community``; all one group when absent) are
    laid out first: a weighted Fruchterman–Reingold layout of the graph of
    communities (linked by the edges between them) gives each a centre, and each
    gets a disk with room for its nodes, pushed apart until no two disks overlap.
    Then each community's own nodes are laid out (Fruchterman–Reingold on the edges
    inside it) and spread evenly over its disk. About ``spacing`` pixels are left
    per node, so the drawing grows with the square root of the node count;
    ``room`` can ask for a larger radius around some nodes (a big node with its label).

    The same graph and seed give the same positions.
    """
    nodes = list(view)
    n = len(nodes)
    if n == 0:
        return {}
    if n == 1:
        return {nodes[0]: (0.0, 0.0)}
    groups: dict[int, list] = {}
    for node in nodes:
        groups.setdefault(int(view.nodes[node].get("community", -1)), []).append(node)
    keys = sorted(groups, key=lambda k: (-len(groups[k]), k))
    where = {node: i for i, k in enumerate(keys) for node in groups[k]}
    room = room or {}
    radii = np.array([max(spacing * math.sqrt(len(groups[k])) / 2, spacing / 2,
                          max(float(room.get(node, 0.0)) for node in groups[k])) for k in keys])
    if len(keys) == 1:
        centres = np.zeros((1, 2))
    else:
        between = nx.Graph()
        between.add_nodes_from(range(len(keys)))
        for u, v, d in view.edges(data=True):
            a, b = where[u], where[v]
            if a != b:
                w = float(d.get("weight", 1) or 0) + (between.edges[a, b]["weight"] if between.has_edge(a, b) else 0)
                between.add_edge(a, b, weight=w)
        centres = _force(between, list(range(len(keys))), seed, weighted=True)
        scale = float(np.percentile(np.hypot(centres[:, 0], centres[:, 1]), 90)) or 1.0
        centres = _pack(centres / scale * math.sqrt((radii ** 2).sum()), radii, gap=spacing)
    placed: dict[str, tuple[float, float]] = {}
    for i, k in enumerate(keys):
        members = groups[k]
        inner = _fill_disk(_force(view, members, seed), radii[i] if len(members) > 1 else 0.0) + centres[i]
        for node, (x, y) in zip(members, inner):
            placed[node] = (round(float(x), 1), round(float(y), 1))
    return {node: placed[node] for node in nodes}


def _excerpt(text: str, limit: int = _EXCERPT) -> str:
    text = " ".join(str(text or "").split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + "…"


def detail_concepts(mentions: Iterable[tuple[str, Mapping]], limit: int = 6) -> list[str]:
    """The concepts a paper's details on the page list, of its ``mentions`` (concept id, edge attributes):
    the ``limit`` best ranked."""
    return [c for _, c in sorted((d.get("rank", 0), c) for c, d in mentions)[:limit]]


def _info(graph: nx.MultiDiGraph, node: str, data: dict) -> dict:
    if data.get("kind") == "community":
        papers = []
        for paper in data.get("central") or []:
            p = graph.nodes[paper]
            papers.append({"title": str(p.get("title") or p.get("label") or paper), "year": p.get("year")})
        return {"title": str(data.get("label") or node), "papers": data.get("papers", 0),
                "concepts": [str(c) for c in data.get("concepts") or []], "central": papers}
    if data.get("kind") == "paper":
        authors = [str(a) for a in data.get("authors") or []]
        return {
            "title": str(data.get("title") or node),
            "year": data.get("year"),
            "venue": data.get("venue"),
            "authors": authors[:4] + (["et al."] if len(authors) > 4 else []),
            "concepts": [node_label(graph.nodes[c], c) for c in detail_concepts(
                (c, d) for _, c, k, d in graph.out_edges(node, keys=True, data=True) if k == "mentions")],
            "abstract": _excerpt(data.get("abstract", "")),
            "link": paper_link(node, data),
        }
    shown = {data.get("name"), data.get("acronym")}  # the title has them
    aliases = [str(a) for a in data.get("aliases") or [] if a not in shown]
    info = {"title": node_label(data, node), "aliases": aliases[:8], "papers": data.get("papers", 0)}
    if data.get("forecast"):  # the forecast view: the concepts it is predicted to meet, and through whom
        info["meets"] = [f"{node_label(graph.nodes[m['other']], m['other']) if m['other'] in graph else m['other']}"
                         f" (score {m['score']}; shared: {', '.join(str(s) for s in m['shared']) or 'none'}"
                         f"{_named_text(m.get('named'))})"
                         for m in data["forecast"]]
    return info


def _named_text(named: int | None) -> str:
    """"; named together in 3 abstracts" for a forecast pair whose papers' texts name both ("" when not read)."""
    if named is None:
        return ""
    return f"; named together in {named} abstract{'s' if named != 1 else ''}"


def _width(edge: dict, heaviest: dict[str, float]) -> float:
    """Edge width in px: 0.5–3 by the square root of weight over the heaviest edge of its kind."""
    if edge["kind"] == "cites":  # every citation weighs 1
        return 1.5
    share = max(float(edge.get("weight", 1)), 0.0) / (heaviest[edge["kind"]] or 1.0)
    return round(0.5 + 2.5 * math.sqrt(share), 2)


def _scale(values: list[float], low: float, high: float) -> list[float]:
    top = max(values, default=0.0)
    if top <= 0:
        return [low for _ in values]
    return [round(low + (high - low) * math.sqrt(max(v, 0.0) / top), 2) for v in values]


def view_payload(graph: nx.MultiDiGraph, view: nx.Graph, *, seed: int = SEED, title: str = "kg graph") -> dict:
    """The JSON-safe data the page draws: nodes, edges, legend and a caption.

    ``view`` is a :func:`kg.export.html_view.graph_view` result over ``graph``.
    """
    nodes = list(view)
    index = {node: i for i, node in enumerate(nodes)}
    overview = view.graph.get("view") == "communities"
    low, high = (14.0, 70.0) if overview else (6.0, 38.0)
    sizes = _scale([view.nodes[n].get("centrality", 0.0) for n in nodes], low, high)
    room = None
    if overview:  # each community with its label (about 7 px a character at 13 px) clear of the others
        room = {n: max(size, 3.6 * min(len(str(view.nodes[n].get("label", ""))) + 5, 42))
                for n, size in zip(nodes, sizes)}
    positions = layout_positions(view, seed=seed, spacing=60.0 if overview else 110.0, room=room)
    labels = view.graph.get("community_labels", [])
    community_sizes = view.graph.get("community_sizes") or []
    sizes_in = {}
    out_nodes = []
    for node, size in zip(nodes, sizes):
        data = view.nodes[node]
        community = int(data.get("community", -1))
        sizes_in[community] = sizes_in.get(community, 0) + (int(data.get("papers", 0)) if overview else 1)
        label = node_label(data, node) if data.get("kind") == "concept" else str(
            data.get("label") or data.get("name") or node)
        if data.get("kind") == "community":
            label = f"{community} · {label}"
        out_nodes.append({
            "id": node,
            "label": label if len(label) <= 42 else label[:40].rstrip() + "…",
            "kind": data.get("kind"),
            "x": positions[node][0],
            "y": positions[node][1],
            "size": size,
            "community": community,
            "centrality": round(float(data.get("centrality", 0.0)), 6),
            "info": _info(graph, node, data),
        })
    edges = sorted(view.edges(data=True), key=lambda e: (index[e[0]], index[e[1]]))
    by_kind: dict[str, float] = {}
    for _, _, d in edges:
        by_kind[d["kind"]] = max(by_kind.get(d["kind"], 0.0), float(d.get("weight", 1)))
    out_edges = [[index[u], index[v], _width(d, by_kind), 2 if d.get("predicted") else 1 if d.get("cites") else 0]
                 for u, v, d in edges]
    legend = _legend(sizes_in, labels, community_sizes)
    kinds = {"paper": 0, "concept": 0, "community": 0}
    for node in nodes:
        kind = view.nodes[node].get("kind")
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "title": title,
        "view": view.graph.get("view", "bipartite"),
        "size_by": view.graph.get("size_by", "pagerank"),
        "counts": {"papers": kinds.get("paper", 0), "concepts": kinds.get("concept", 0),
                   "communities": kinds.get("community", 0), "edges": len(out_edges)},
        "focus": index.get(view.graph.get("focus")) if view.graph.get("focus") is not None else None,
        "left_out": view.graph.get("left_out"),
        "palette": list(PALETTE),
        "other_color": OTHER_COLOR,
        "none_color": NONE_COLOR,
        "nodes": out_nodes,
        "edges": out_edges,
        "legend": legend,
    }


def _legend(shown: Mapping[int, int], labels: Sequence[str], sizes: Sequence[int]) -> list[dict]:
    """One legend entry per community the view shows, its count the community's papers in the one
    analysis (so every view says the same); communities past the palette grouped as one "other"
    entry with its own colour; nodes in no community last (counted as shown).

    Each entry: ``community`` (number, ``"other"`` or -1), ``members`` (the numbers it stands
    for), ``label``, ``color``, ``count``.
    """
    def size(k: int) -> int:
        return int(sizes[k]) if 0 <= k < len(sizes) else int(shown[k])

    own = sorted(k for k in shown if 0 <= k < len(PALETTE))
    tail = sorted(k for k in shown if k >= len(PALETTE))
    legend = [{"community": k, "members": [k], "label": labels[k] if k < len(labels) else "",
               "color": color_of(k), "count": size(k)} for k in own]
    if tail:
        legend.append({"community": "other", "members": tail,
                       "label": f"other communities ({len(tail)}: {tail[0]}–{tail[-1]})" if len(tail) > 1
                       else f"community {tail[0]}" + (f" · {labels[tail[0]]}" if tail[0] < len(labels) else ""),
                       "color": OTHER_COLOR, "count": sum(size(k) for k in tail)})
    if any(k < 0 for k in shown):
        legend.append({"community": -1, "members": [-1], "label": "no community", "color": NONE_COLOR,
                       "count": sum(n for k, n in shown.items() if k < 0)})
    return legend


def color_of(community: int) -> str:
    """The colour of community ``community``: the palette's, grey past it ("other"), light grey for none."""
    if community < 0:
        return NONE_COLOR
    return PALETTE[community] if community < len(PALETTE) else OTHER_COLOR


def _asset(name: str) -> str:
    return (resources.files("kg") / "resources" / name).read_text(encoding="utf-8")


def _vis_network() -> str:
    return (vis_network_folder() / "vis-network.min.js").read_text(encoding="utf-8")


def _script_text(code: str) -> str:
    # Inline script bodies must not close their own element.
    return code.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")


def _csp_hash(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


def render_view(graph: nx.MultiDiGraph, shown: nx.Graph, *, seed: int = SEED, title: str = "kg graph") -> str:
    """The page of a view already chosen: ``shown`` is a :func:`kg.export.html_view.graph_view` result over
    ``graph`` (:func:`kg.export.html.render_html` is the two together)."""
    payload = view_payload(graph, shown, seed=seed, title=title)
    scripts = [_script_text(_vis_network()), _script_text(_asset("graph.js"))]
    csp = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
           f"script-src {' '.join(_csp_hash(s) for s in scripts)}; base-uri 'none'; form-action 'none'")
    page = _asset("graph.html")
    parts = {
        "@@CSP@@": html.escape(csp),
        "@@TITLE@@": html.escape(title),
        "@@STYLE@@": _asset("graph.css"),
        "@@DATA@@": script_json(payload),
        "@@VIS@@": scripts[0],
        "@@APP@@": scripts[1],
    }
    # One pass over the template, so text that looks like a placeholder is never replaced twice.
    pieces = page.split("@@")
    return "".join(parts.get(f"@@{p}@@", p) if i % 2 else p for i, p in enumerate(pieces))
