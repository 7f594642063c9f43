"""The concept map as VOSviewer files: a map and network file pair, and VOSviewer Online JSON.

VOSviewer (van Eck & Waltman) opens a term map from two tab-separated files
(*File → Create → Create a map based on network data*):

* the **map file**, one row per item under a header: ``id``, ``label``, ``x``, ``y``,
  ``cluster``, ``weight<Links>``, ``weight<Total link strength>``,
  ``weight<Occurrences>``, ``score<Avg. pub. year>``;
* the **network file**, one row per link, no header: ``id1``, ``id2``, ``strength``.

VOSviewer Online (app.vosviewer.com) opens the same map as one JSON file,
``{"network": {"items": [...], "links": [...]}, "config": {...}}``, each item with
``id``, ``label``, ``description`` (HTML), ``x``, ``y``, ``cluster``, ``weights`` and
``scores``, each link with ``source_id``, ``target_id`` and ``strength``.

The items are the concepts of kg's own concept map (:func:`kg.export.html_view.graph_view`,
view ``concepts``): the ``top`` most central concepts that link to one another, placed by
the same seeded layout as ``graph.html`` (y pointing up, scaled into [-1, 1]) and
clustered by the build's paper communities (cluster = community number + 1; concepts of
no community share the last cluster). Links are every co-occurrence between them
(strength: papers naming both), not only the four per concept the page draws, so
VOSviewer's own link filters have them all. ``Occurrences`` is the number of papers
with the concept; ``Avg. pub. year`` their mean year (VOSviewer's overlay map).

Labels are corpus text: tabs, line breaks and control characters become spaces, a
label that a spreadsheet would evaluate (``=``, ``+``, ``-``, ``@``) gets a leading
``'`` in the tab-separated files (:func:`kg.escape.csv_cell`), and the JSON
``description`` (shown as HTML by VOSviewer Online) is HTML-escaped.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
from collections.abc import Mapping

import networkx as nx

from kg.escape import clean_text, csv_cell
from kg.graph import node_label
from kg.analyze import saved_parameters
from kg.atomic import atomic_write
from kg.export.html import layout_positions
from kg.export.html_view import graph_view

__all__ = ["vosviewer_network", "vosviewer_map_text", "vosviewer_network_text", "vosviewer_json",
           "save_vosviewer", "VOSVIEWER_FILES", "MAP_COLUMNS"]

#: The files :func:`write_vosviewer` writes.
VOSVIEWER_FILES = ("vosviewer_map.txt", "vosviewer_network.txt", "vosviewer.json")
MAP_COLUMNS = ("id", "label", "x", "y", "cluster", "weight<Links>", "weight<Total link strength>",
               "weight<Occurrences>", "score<Avg. pub. year>")
_SPACES = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")


def _label(text: object) -> str:
    return _SPACES.sub(" ", clean_text(str(text))).strip()


def vosviewer_network(graph: nx.MultiDiGraph, *, top: int | None = 1000, seed: int | None = None,
                      analysis: Mapping | None = None) -> dict:
    """The concept map as VOSviewer items and links (plain data; see the module docstring).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    top : int or None
        Most central concepts kept (None or 0: every linked concept).
    seed : int, optional
        Layout and community seed (default: the build's).
    analysis : mapping, optional
        The build's analysis (:mod:`kg.analyze.result`), whose communities become the clusters.

    Returns
    -------
    dict
        ``{"items": [...], "links": [...], "clusters": [...]}``: items with ``id`` (1..),
        ``node`` (kg id), ``label``, ``description``, ``x``, ``y``, ``cluster``, ``weights``,
        ``scores``; links with ``source_id``, ``target_id``, ``strength``; clusters with
        ``cluster`` and ``label``.
    """
    seed = saved_parameters(graph)["seed"] if seed is None else seed
    view = graph_view(graph, view="concepts", top=top or None, seed=seed, analysis=analysis)
    nodes = sorted(view, key=lambda n: (-graph.nodes[n].get("papers", 0), n))
    labels = list(view.graph.get("community_labels") or ())
    unclustered = len(labels) + 1
    position = layout_positions(view, seed=seed)
    scale = max((max(abs(x), abs(y)) for x, y in position.values()), default=0.0) or 1.0
    number = {node: i for i, node in enumerate(nodes, start=1)}
    chosen = set(nodes)
    strength: dict[tuple[int, int], int] = {}
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key == "co_occurs" and u in chosen and v in chosen and u != v:
            pair = tuple(sorted((number[u], number[v])))
            strength[pair] = max(strength.get(pair, 0), int(data.get("count", data.get("weight", 1)) or 1))
    links_of: dict[int, list[int]] = {}
    for (a, b), s in strength.items():
        links_of.setdefault(a, []).append(s)
        links_of.setdefault(b, []).append(s)
    items, used = [], set()
    for node in nodes:
        data = graph.nodes[node]
        years = [graph.nodes[p].get("year") for p, _, k in graph.in_edges(node, keys=True) if k == "mentions"]
        years = [y for y in years if isinstance(y, (int, float)) and not isinstance(y, bool)]
        community = int(view.nodes[node].get("community", -1))
        cluster = community + 1 if community >= 0 else unclustered
        used.add(cluster)
        x, y = position.get(node, (0.0, 0.0))
        aliases = [a for a in data.get("aliases") or () if a not in (data.get("name"), data.get("acronym"))]
        description = f"<b>{html.escape(_label(node_label(data, node)))}</b> ({html.escape(node)})"
        if aliases:
            description += "<br>also: " + html.escape(_label(", ".join(map(str, aliases[:10]))))
        if 0 <= community < len(labels):
            description += f"<br>community {community}: {html.escape(_label(labels[community]))}"
        item = {"id": number[node], "node": node, "label": _label(node_label(data, node)),
                "description": description, "x": round(x / scale, 4), "y": round(-y / scale, 4),
                "cluster": cluster,
                "weights": {"Links": len(links_of.get(number[node], ())),
                            "Total link strength": sum(links_of.get(number[node], ())),
                            "Occurrences": int(data.get("papers", 0) or 0)},
                "scores": {"Avg. pub. year": round(sum(years) / len(years), 2)} if years else {}}
        items.append(item)
    clusters = [{"cluster": k + 1, "label": _label(labels[k])} for k in range(len(labels)) if k + 1 in used]
    if unclustered in used:
        clusters.append({"cluster": unclustered, "label": "(no community)"})
    links = [{"source_id": a, "target_id": b, "strength": s} for (a, b), s in sorted(strength.items())]
    return {"items": items, "links": links, "clusters": clusters}


def _tsv(rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerows(rows)
    return buffer.getvalue()


def vosviewer_map_text(network: Mapping) -> str:
    """The VOSviewer map file of :func:`vosviewer_network`'s result (tab-separated, header row)."""
    rows = [MAP_COLUMNS]
    for item in network["items"]:
        year = item["scores"].get("Avg. pub. year")
        rows.append((item["id"], csv_cell(item["label"]), item["x"], item["y"], item["cluster"],
                     item["weights"]["Links"], item["weights"]["Total link strength"],
                     item["weights"]["Occurrences"], "" if year is None else year))
    return _tsv(rows)


def vosviewer_network_text(network: Mapping) -> str:
    """The VOSviewer network file: ``id1<TAB>id2<TAB>strength`` per link, no header."""
    return _tsv((link["source_id"], link["target_id"], link["strength"]) for link in network["links"])


def vosviewer_json(network: Mapping) -> str:
    """VOSviewer Online JSON: ``{"network": {"items", "links"}, "config": {"terminology": ...}}``."""
    items = [{k: v for k, v in item.items() if k != "node" and not (k == "scores" and not v)}
             for item in network["items"]]
    document = {
        "network": {"items": items, "links": list(network["links"])},
        "config": {
            "terminology": {"item": "concept", "items": "concepts", "link": "co-occurrence link",
                            "links": "co-occurrence links", "link_strength": "papers naming both",
                            "total_link_strength": "total link strength"},
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def save_vosviewer(network: Mapping, folder: str | os.PathLike[str]) -> list[str]:
    """Write :func:`vosviewer_network`'s result as ``vosviewer_map.txt``, ``vosviewer_network.txt``
    and ``vosviewer.json`` into ``folder`` (each atomically); their paths.

    Examples
    --------
    >>> import tempfile
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("c:a", kind="concept", name="a", papers=2); g.add_node("c:b", kind="concept", name="b", papers=2)
    >>> _ = g.add_edge("c:a", "c:b", key="co_occurs", count=2, weight=2)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = save_vosviewer(vosviewer_network(g), folder)
    ...     open(paths[1]).read()
    '1\\t2\\t2\\n'
    """
    folder = os.fspath(folder)
    texts = (vosviewer_map_text(network), vosviewer_network_text(network), vosviewer_json(network))
    paths = []
    for name, text in zip(VOSVIEWER_FILES, texts):
        path = os.path.join(folder, name)
        atomic_write(path, text)
        paths.append(path)
    return paths
