"""``graph.json``: the graph saved as NetworkX node-link JSON, streamed, compact, and read back checked.

:func:`write_graph_json` writes one node or edge per line, keys sorted, no
timestamps, so equal graphs give equal bytes and memory does not grow with the graph.
What other attributes imply is left out, and :func:`graph_from_json` puts it back, so
that ``graph_from_json(graph_to_json(g))`` equals ``g``:

* an edge's ``kind`` (its key); a ``label`` equal to a paper's title or a node's name;
  ``aliases`` equal to ``[name]``; a mention's ``surface`` equal to its concept's name;
* a ``weight`` equal to a mention's score (0 if negative), a co-occurrence's count, or 1;
* a ``related`` link's ``shared`` and ``n_shared``: the concepts both papers mention,
  rarest first (ties by id), as :func:`kg.graph.build_graph` lists them;
* the ``co_occurs`` edges, when they are exactly the pairs of concepts that at least
  ``co_occurs_min_count`` papers mention together (the graph attribute says so): they are
  the co-occurrence projection of the ``mentions`` edges.

On ACM-CR (24.6k papers) these take graph.json from 207 MB to the figure in the README.
A reader other than kg gets every node and the ``mentions``, ``related``, ``cites``,
``wrote`` and ``published_in`` edges as they are, and derives co-occurrence from mentions.
"""

from __future__ import annotations

import io
import json
import os
from collections import defaultdict

import networkx as nx
import numpy as np
from scipy import sparse

from kg.errors import GraphFileError

__all__ = ["write_graph_json", "graph_to_json", "graph_from_json", "load_graph"]

_LABEL_OF = {"paper": "title", "concept": "name", "author": "name", "venue": "name"}
_UNIT_WEIGHT = ("cites", "wrote", "published_in")
_MIN_COUNT = "co_occurs_min_count"


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _implied_weight(key: str, data: dict) -> float | None:
    if key == "mentions" and isinstance(data.get("score"), (int, float)):
        return max(data["score"], 0.0)
    if key == "co_occurs" and isinstance(data.get("count"), int):
        return data["count"]
    if key in _UNIT_WEIGHT:
        return 1
    return None


class _Mentions:
    """Each paper's concepts and each concept's paper count and name, from a graph's mentions."""

    def __init__(self, graph: nx.MultiDiGraph | None = None):
        self.of: dict[str, set[str]] = defaultdict(set)
        self.papers: dict[str, int] = {}
        self.names: dict[str, str] = {}
        if graph is not None:
            for node, data in graph.nodes(data=True):
                if data.get("kind") == "concept":
                    self.add_concept(node, data)
            for u, v, key in graph.edges(keys=True):
                if key == "mentions":
                    self.of[u].add(v)

    def add_concept(self, node: str, data: dict) -> None:
        papers = data.get("papers")
        self.papers[node] = papers if isinstance(papers, int) else 0
        if isinstance(data.get("name"), str):
            self.names[node] = data["name"]

    def shared(self, p: str, q: str) -> list[str]:
        """The concepts both papers mention, rarest first, ties by id (as build_graph lists them)."""
        return sorted(self.of.get(p, set()) & self.of.get(q, set()), key=lambda c: (self.papers.get(c, 0), c))


def _co_occurrence(graph: nx.MultiDiGraph, min_count: int) -> list[tuple[str, str, int]]:
    """The ``co_occurs`` pairs build_graph makes: concepts mentioned together by >= min_count papers."""
    concepts = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "concept")
    column = {c: j for j, c in enumerate(concepts)}
    papers: dict[str, int] = {}
    rows, cols = [], []
    for u, v, key in graph.edges(keys=True):
        if key == "mentions" and v in column:
            rows.append(papers.setdefault(u, len(papers)))
            cols.append(column[v])
    if not rows:
        return []
    x = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(papers), len(concepts)))
    x.sum_duplicates()
    x.data[:] = 1.0
    co = sparse.triu((x.T @ x).tocsr(), k=1).tocoo()
    return sorted((concepts[i], concepts[j], int(n)) for i, j, n in zip(co.row, co.col, co.data)
                  if n >= min_count)


def _co_occurs_derivable(graph: nx.MultiDiGraph) -> int | None:
    """The min count at which the graph's co_occurs edges are exactly the derived ones, else None."""
    stored = sorted((u, v, d.get("count")) for u, v, k, d in graph.edges(keys=True, data=True) if k == "co_occurs")
    if any(set(d) - {"kind", "count", "weight"} or d.get("weight") != d.get("count")
           for _, _, k, d in graph.edges(keys=True, data=True) if k == "co_occurs"):
        return None
    try:
        wanted = int(json.loads(graph.graph.get("parameters", "{}")).get("min_cooccurrence", 1))
    except (ValueError, TypeError, AttributeError):
        return None
    if stored and min(c for _, _, c in stored) < wanted:
        return None
    return wanted if stored == [(a, b, n) for a, b, n in _co_occurrence(graph, wanted)] else None


def _compact_node(data: dict) -> dict:
    out = dict(data)
    source = _LABEL_OF.get(data.get("kind"))
    if source and "label" in out and out["label"] == data.get(source):
        del out["label"]
    if data.get("kind") == "concept" and out.get("aliases") == [data.get("name")]:
        del out["aliases"]
    return out


def _compact_edge(u: str, v: str, key: str, data: dict, mentions: _Mentions) -> dict:
    out = {k: x for k, x in data.items() if k != "kind"}
    implied = _implied_weight(key, out)
    if implied is not None and out.get("weight") == implied:
        del out["weight"]
    if key == "mentions" and "surface" in out and out["surface"] == mentions.names.get(v):
        del out["surface"]
    if key == "related" and out.get("shared") == mentions.shared(u, v):
        del out["shared"]
        if out.get("n_shared") == len(data["shared"]):
            del out["n_shared"]
    return out


def write_graph_json(graph: nx.MultiDiGraph, handle) -> None:
    """Stream ``graph`` to the text ``handle`` as NetworkX node-link JSON (``nodes``/``edges``).

    Compact, keys sorted, one node or edge per line, no timestamps; what other
    attributes imply is left out (see the module docstring).
    """
    mentions = _Mentions(graph)
    attrs = dict(graph.graph)
    attrs.pop(_MIN_COUNT, None)
    min_count = _co_occurs_derivable(graph)
    if min_count is not None:
        attrs[_MIN_COUNT] = min_count
    handle.write('{"directed":true,"multigraph":true,"graph":' + _dumps(attrs) + ',"nodes":[')
    separator = "\n"
    for node, data in graph.nodes(data=True):
        handle.write(separator + _dumps({**_compact_node(data), "id": node}))
        separator = ",\n"
    handle.write('\n],"edges":[')
    separator = "\n"
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key == "co_occurs" and min_count is not None:
            continue
        handle.write(separator + _dumps({**_compact_edge(u, v, key, data, mentions), "source": u, "target": v,
                                         "key": key}))
        separator = ",\n"
    handle.write("\n]}\n")


def graph_to_json(graph: nx.MultiDiGraph) -> str:
    """The text :func:`write_graph_json` writes."""
    buffer = io.StringIO()
    write_graph_json(graph, buffer)
    return buffer.getvalue()


def _expand(graph: nx.MultiDiGraph) -> None:
    """Put back, in place, what :func:`write_graph_json` left out."""
    mentions = _Mentions()
    for node, data in graph.nodes(data=True):
        source = _LABEL_OF.get(data.get("kind"))
        if source and "label" not in data and data.get(source) is not None:
            data["label"] = data[source]
        if data.get("kind") == "concept":
            if "aliases" not in data and isinstance(data.get("name"), str):
                data["aliases"] = [data["name"]]
            mentions.add_concept(node, data)
    for u, v, key in graph.edges(keys=True):
        if key == "mentions":
            mentions.of[u].add(v)
    for u, v, key, data in graph.edges(keys=True, data=True):
        data.setdefault("kind", key)
        if "weight" not in data:
            implied = _implied_weight(key, data)
            if implied is not None:
                data["weight"] = implied
        if key == "mentions" and "surface" not in data and v in mentions.names:
            data["surface"] = mentions.names[v]
        if key == "related":
            if "shared" not in data:
                data["shared"] = mentions.shared(u, v)
            data.setdefault("n_shared", len(data["shared"]))
    min_count = graph.graph.pop(_MIN_COUNT, None)
    if isinstance(min_count, int) and not isinstance(min_count, bool):
        for a, b, count in _co_occurrence(graph, min_count):
            graph.add_edge(a, b, key="co_occurs", kind="co_occurs", count=count, weight=count)


def graph_from_json(text: str | bytes, *, source: str = "graph.json") -> nx.MultiDiGraph:
    """Inverse of :func:`graph_to_json`, checking what it reads (the file may have been edited).

    Raises
    ------
    GraphFileError
        When ``text`` is not a kg graph; the message says where: line and column of a
        JSON or UTF-8 error, or the node or edge that lacks a ``kind``, points at a
        missing node, or has an attribute of the wrong type.
    """
    from kg._graph_json import check_node_link

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = text.count(b"\n", 0, exc.start) + 1
            raise GraphFileError(f"{source}:{line}: not UTF-8 (byte 0x{text[exc.start]:02x} at offset {exc.start}); "
                                 "rebuild it with kg build") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GraphFileError(f"{source}:{exc.lineno}:{exc.colno}: not a kg graph, not even JSON ({exc.msg}); "
                             "rebuild it with kg build") from None
    except RecursionError:
        raise GraphFileError(f"{source}: not a kg graph (nested too deeply); rebuild it with kg build") from None
    attrs, nodes, edges = check_node_link(data, source)
    graph = nx.MultiDiGraph()
    graph.graph.update(attrs)
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    _expand(graph)
    return graph


def load_graph(directory: str | os.PathLike[str]) -> nx.MultiDiGraph:
    """The graph that ``kg build`` wrote into ``directory`` (its ``graph.json``; or that file itself).

    Raises
    ------
    GraphFileError
        When the folder or its ``graph.json`` is missing, unreadable or not a kg graph.
    """
    name = os.fspath(directory)
    path = os.path.join(name, "graph.json") if os.path.isdir(name) else name
    if not os.path.exists(name):
        raise GraphFileError(f"{name}: no such folder; build one with kg build PAPERS --out DIR")
    if not os.path.isfile(path):
        raise GraphFileError(f"{name}: no graph.json in this folder; build one with kg build PAPERS --out DIR")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise GraphFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return graph_from_json(data, source=path)
