"""Graph files: node-link JSON, GraphML and GEXF (for Gephi), and CSV tables.

Every write is atomic: the text goes to a temporary file in the same folder, which
then replaces the target, so a crash never leaves a half-written file behind.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterable, Sequence

import networkx as nx

from kg.graph import graph_to_json

__all__ = ["atomic_write", "write_graph_files", "flat_graph", "LIST_SEPARATOR"]

LIST_SEPARATOR = "; "


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _flat(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return LIST_SEPARATOR.join(str(v) for v in value)
    if isinstance(value, dict):
        return LIST_SEPARATOR.join(f"{k}={v}" for k, v in sorted(value.items()))
    return value


def flat_graph(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose list attributes are ``"; "``-joined strings and without ``None`` values.

    GraphML and GEXF only hold scalars; Gephi reads these files as they are.
    """
    flat = nx.MultiDiGraph()
    flat.graph.update({k: _flat(v) for k, v in graph.graph.items() if v is not None})
    for node, data in graph.nodes(data=True):
        flat.add_node(node, **{k: _flat(v) for k, v in data.items() if v is not None})
    for u, v, key, data in graph.edges(keys=True, data=True):
        flat.add_edge(u, v, key=key, **{k: _flat(x) for k, x in data.items() if x is not None})
    return flat


def _graphml(graph: nx.MultiDiGraph) -> str:
    buffer = io.BytesIO()
    nx.write_graphml(graph, buffer, encoding="utf-8", prettyprint=True, named_key_ids=True)
    return buffer.getvalue().decode("utf-8")


def _gexf(graph: nx.MultiDiGraph) -> str:
    buffer = io.BytesIO()
    nx.write_gexf(graph, buffer, encoding="utf-8", prettyprint=True)
    return buffer.getvalue().decode("utf-8")


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else _flat(v) for v in row])
    return buffer.getvalue()


def write_graph_files(graph: nx.MultiDiGraph, out_dir: str | os.PathLike[str]) -> list[str]:
    """Write ``graph.json``, ``graph.graphml``, ``graph.gexf``, ``papers.csv``,
    ``concepts.csv`` and ``mentions.csv`` into ``out_dir``; return their paths."""
    out = os.fspath(out_dir)
    flat = flat_graph(graph)
    nodes = graph.nodes
    papers = [(n, d) for n, d in nodes(data=True) if d.get("kind") == "paper"]
    concepts = [(n, d) for n, d in nodes(data=True) if d.get("kind") == "concept"]
    mentions = [(u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == "mentions"]
    n_concepts = {p: 0 for p, _ in papers}
    for u, _, _ in mentions:
        n_concepts[u] += 1
    files = {
        "graph.json": graph_to_json(graph),
        "graph.graphml": _graphml(flat),
        "graph.gexf": _gexf(flat),
        "papers.csv": _csv(
            ["id", "title", "title_derived", "year", "venue", "authors", "concepts", "source"],
            ([p, d["title"], d["title_derived"], d.get("year"), d.get("venue"), d.get("authors", []),
              n_concepts[p], d.get("source")] for p, d in papers),
        ),
        "concepts.csv": _csv(
            ["id", "name", "aliases", "papers"],
            ([c, d["name"], d.get("aliases", []), d["papers"]] for c, d in concepts),
        ),
        "mentions.csv": _csv(
            ["paper_id", "concept_id", "rank", "score", "surface"],
            ([u, v, d["rank"], d["score"], d.get("surface")] for u, v, d in mentions),
        ),
    }
    written = []
    for name, text in files.items():
        path = os.path.join(out, name)
        atomic_write(path, text)
        written.append(path)
    return written
