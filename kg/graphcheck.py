"""Checking a ``graph.json`` read back from disk before anything uses it.

``graph.json`` is an interchange file: people open it, edit it, and hand it back.
:func:`check_node_link` turns the decoded JSON into the node-link parts of a kg
graph, or raises :class:`~kg.errors.GraphFileError` naming the node or edge that is
wrong and how, so that ``kg report``, ``viz``, ``push`` and ``related`` either read a
graph they can analyse or stop with one located line. Every string comes back
through :func:`kg.escape.clean_text` (no lone surrogates, no bidirectional overrides).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

from kg.defaults import RESOLUTION, SEED
from kg.errors import GraphFileError
from kg.escape import clean_text

__all__ = ["check_node_link", "NODE_KINDS"]

NODE_KINDS = ("paper", "concept", "author", "venue")
_EDGE_KINDS = ("mentions", "related", "co_occurs", "cites", "wrote", "published_in")
_TEXT = ("label", "title", "name", "acronym", "abstract", "venue", "doi", "source")
_TEXT_LISTS = ("authors", "keyphrases", "references", "aliases", "ids", "shared")
_COUNTS = ("papers", "rank", "n_shared", "position", "count")
_NUMBERS = ("weight", "score")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)  # type: ignore[arg-type]


def _scalar(value: object) -> bool:
    return value is None or isinstance(value, (str, bool)) or _is_number(value)


def _attributes(attrs: dict, where: Callable[[], str]) -> dict:
    """``attrs`` with strings cleaned; the known ones checked for their type."""
    out = {}
    for name, value in attrs.items():
        if not isinstance(name, str):
            raise GraphFileError(f"{where()}: attribute names must be strings")
        if value is None:
            pass
        elif name in _TEXT and not isinstance(value, str):
            raise GraphFileError(f"{where()}: {name!r} must be a string, not {json.dumps(value)[:40]}")
        elif name in _TEXT_LISTS and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise GraphFileError(f"{where()}: {name!r} must be a list of strings")
        elif name in _COUNTS and not (_is_int(value) and value >= 0):  # type: ignore[operator]
            raise GraphFileError(f"{where()}: {name!r} must be a whole number >= 0, not {json.dumps(value)[:40]}")
        elif name in _NUMBERS and not _is_number(value):
            raise GraphFileError(f"{where()}: {name!r} must be a finite number, not {json.dumps(value)[:40]}")
        elif name == "year" and not (_is_int(value) and 0 < value < 10_000):  # type: ignore[operator]
            raise GraphFileError(f"{where()}: 'year' must be a whole number from 1 to 9999, "
                                 f"not {json.dumps(value)[:40]}")
        elif name == "title_derived" and not isinstance(value, bool):
            raise GraphFileError(f"{where()}: 'title_derived' must be true or false")
        elif not (_scalar(value) or (isinstance(value, list) and all(_scalar(v) for v in value))):
            raise GraphFileError(f"{where()}: {name!r} must be a string, number, boolean or list of them")
        if isinstance(value, str):
            value = clean_text(value)
        elif isinstance(value, list):
            value = [clean_text(v) if isinstance(v, str) else v for v in value]
        out[clean_text(name)] = value
    return out


def _parameters(graph: dict, source: str) -> None:
    text = graph.get("parameters")
    if text is None:
        return
    try:
        recorded = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        recorded = None
    if not isinstance(recorded, dict):
        raise GraphFileError(f"{source}: graph attribute 'parameters' must be a JSON object in a string")
    seed, resolution = recorded.get("seed", SEED), recorded.get("resolution", RESOLUTION)
    if not (_is_int(seed) and 0 <= seed < 2**32):
        raise GraphFileError(f"{source}: recorded parameter seed must be a whole number from 0 to 2^32-1, "
                             f"not {json.dumps(seed)[:40]}")
    if not (_is_number(resolution) and resolution > 0):
        raise GraphFileError(f"{source}: recorded parameter resolution must be a finite number > 0, "
                             f"not {json.dumps(resolution)[:40]}")


def check_node_link(data: object, source: str) -> tuple[dict, list[tuple[str, dict]], list[tuple[str, str, str, dict]]]:
    """Graph attributes, nodes ``(id, attrs)`` and edges ``(u, v, key, attrs)`` of node-link ``data``.

    Raises
    ------
    GraphFileError
        When ``data`` is not a kg graph: the message names the node or edge (by position
        and id) and what is wrong with it.
    """
    if not isinstance(data, dict):
        raise GraphFileError(f"{source}: not a kg graph (a JSON {type(data).__name__.replace('dict', 'object')}, "
                             "expected an object with 'nodes' and 'edges'); rebuild it with kg build")
    nodes, edges = data.get("nodes"), data.get("edges", data.get("links"))
    if not isinstance(nodes, list) or not isinstance(edges, list):
        raise GraphFileError(f"{source}: not a kg graph (no 'nodes' and 'edges' lists); rebuild it with kg build")
    graph = data.get("graph") or {}
    if not isinstance(graph, dict):
        raise GraphFileError(f"{source}: 'graph' must be an object of graph attributes")
    graph = _attributes(graph, lambda: f"{source}: graph attributes")
    _parameters(graph, source)
    out_nodes: list[tuple[str, dict]] = []
    seen: set[str] = set()
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            raise GraphFileError(f"{source}: node {i}: expected an object, not {json.dumps(node)[:40]}")
        node_id = node.get("id")
        if not isinstance(node_id, str) or not node_id:
            raise GraphFileError(f"{source}: node {i}: 'id' must be a non-empty string, not {json.dumps(node_id)[:40]}")
        node_id = clean_text(node_id)

        def where(i=i, node_id=node_id) -> str:
            return f"{source}: node {i} ({node_id!r})"

        if node.get("kind") not in NODE_KINDS:
            raise GraphFileError(f"{where()}: 'kind' must be one of {', '.join(NODE_KINDS)}, "
                                 f"not {json.dumps(node.get('kind'))[:40]}")
        if node_id in seen:
            raise GraphFileError(f"{where()}: a second node with this id")
        seen.add(node_id)
        out_nodes.append((node_id, _attributes({k: v for k, v in node.items() if k != "id"}, where)))
    if not any(attrs["kind"] == "paper" for _, attrs in out_nodes):
        raise GraphFileError(f"{source}: the graph has no paper nodes; rebuild it with kg build")
    out_edges: list[tuple[str, str, str, dict]] = []
    for i, edge in enumerate(edges):
        if not isinstance(edge, dict):
            raise GraphFileError(f"{source}: edge {i}: expected an object, not {json.dumps(edge)[:40]}")
        ends = [edge.get("source"), edge.get("target")]
        label = " -> ".join(json.dumps(e)[:40] for e in ends)

        def where(i=i, label=label) -> str:
            return f"{source}: edge {i} ({label})"

        for end in ends:
            if not isinstance(end, str) or clean_text(end) not in seen:
                raise GraphFileError(f"{where()}: {json.dumps(end)[:40]} is not a node of the graph")
        key = edge.get("key", edge.get("kind"))
        if key not in _EDGE_KINDS or edge.get("kind", key) != key:
            raise GraphFileError(f"{where()}: 'key' and 'kind' must be one of {', '.join(_EDGE_KINDS)}, "
                                 f"not {json.dumps(key)[:40]}")
        attrs = _attributes({k: v for k, v in edge.items() if k not in ("source", "target", "key")}, where)
        attrs.setdefault("kind", key)
        out_edges.append((clean_text(ends[0]), clean_text(ends[1]), key, attrs))
    return graph, out_nodes, out_edges
