"""Graph files: node-link JSON, GraphML and GEXF (for Gephi), and CSV tables.

Every writer streams: it writes node after node and edge after edge to the file, so
its memory does not grow with the corpus (NetworkX's GraphML/GEXF writers build the
whole XML tree first: 17 GB more for a 25,000-paper graph). Every write is atomic: the
text goes to a temporary file in the same folder, which then replaces the target, so
a crash never leaves a half-written file behind.

What each file carries:

* ``graph.json`` -- the graph (NetworkX node-link, ``edges`` key), compact, one node or
  edge per line; what other attributes imply is left out and restored on load, and so
  are the papers' long texts (:mod:`kg.graphfile`). The graph every other command reads.
* ``corpus.jsonl`` -- every paper as kg read it, one JSON object per line (abstract,
  references and ids included): the texts graph.json leaves out, and a corpus ``kg build``
  reads again.
* ``graph.graphml``, ``graph.gexf`` -- the map for Gephi / Cytoscape: every paper,
  author and venue, the concepts of 2 or more papers (a concept of one paper joins
  nothing; in large corpora the threshold rises until at most 20,000 concepts remain) and
  every edge between those, co-occurrence links of the smallest count that keeps at most
  100,000 of them (:func:`gephi_thresholds`; the GraphML records both thresholds); nodes
  without aliases (and a title or name equal to the label: a concept's label is its name
  with its ``acronym``, which is an attribute of its own), edges without the ``shared``
  and ``surface`` explanations; no abstracts, raw references or external ids (they are
  in ``corpus.jsonl``); lists as ``"; "``-joined strings.
* ``papers.csv``, ``concepts.csv``, ``mentions.csv`` -- flat tables. Cells a spreadsheet
  would evaluate (starting with ``=``, ``+``, ``-``, ``@``) get a leading apostrophe,
  as OWASP recommends for CSV exports (:func:`kg.escape.csv_cell`).

All corpus text is cleaned of characters XML forbids (:func:`kg.escape.xml_text`).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Sequence
from typing import IO
from xml.sax.saxutils import quoteattr

import networkx as nx

from kg.atomic import atomic_file
from kg.escape import csv_cell, xml_text
from kg.corpusfile import write_corpus_jsonl
from kg.graphfile import all_edges, write_graph_json

__all__ = ["write_graph_files", "graph_writers", "write_graphml",
           "write_gexf", "flat_value", "LIST_SEPARATOR", "GRAPH_FILES"]

LIST_SEPARATOR = "; "
GRAPH_FILES = ("graph.json", "corpus.jsonl", "graph.graphml", "graph.gexf", "papers.csv", "concepts.csv", "mentions.csv")
# Node attributes left out of GraphML/GEXF: long texts and raw identifiers.
_GEPHI_SKIP = frozenset({"abstract", "references", "ids", "keyphrases", "source", "aliases"})
# Edge attributes left out of GraphML/GEXF: explanations and surfaces (graph.json has them;
# a mention's weight is its score).
_GEPHI_EDGE_SKIP = frozenset({"shared", "surface", "score"})


def flat_value(value: object) -> object:
    """A scalar for GraphML/GEXF/CSV: lists ``"; "``-joined, dicts as ``k=v`` pairs.

    Examples
    --------
    >>> flat_value(["Ada Lovelace", "Alan Turing"]), flat_value(3)
    ('Ada Lovelace; Alan Turing', 3)
    """
    if isinstance(value, (list, tuple)):
        return LIST_SEPARATOR.join(str(v) for v in value)
    if isinstance(value, dict):
        return LIST_SEPARATOR.join(f"{k}={v}" for k, v in sorted(value.items()))
    return value


# --- GraphML and GEXF ---------------------------------------------------------------------


# The Gephi map's size: at most this many concepts and co-occurrence links (VOSviewer's
# term maps keep ~1,000 terms; Gephi stays responsive up to a few hundred thousand edges).
GEPHI_CONCEPTS = 20_000
GEPHI_COOCCURRENCE = 100_000


def _threshold(values: list[int], cap: int, low: int) -> int:
    """The smallest threshold >= ``low`` that keeps at most ``cap`` of ``values`` (those >= it)."""
    values = sorted((v for v in values if v >= low), reverse=True)
    if len(values) <= cap:
        return low
    return values[cap] + 1  # the cap-th largest is cut, with every value equal to it


def gephi_thresholds(graph: nx.MultiDiGraph) -> tuple[int, int]:
    """``(min papers of a concept, min count of a co-occurrence)`` of the Gephi map of ``graph``.

    Concepts of one paper join nothing and are always left out; above
    :data:`GEPHI_CONCEPTS` concepts or :data:`GEPHI_COOCCURRENCE` co-occurrence links, the
    thresholds rise until they fit.
    """
    papers = [d.get("papers") or 0 for _, d in graph.nodes(data=True) if d.get("kind") == "concept"]
    counts = [d.get("count") or 0 for _, _, k, d in all_edges(graph) if k == "co_occurs"]
    return _threshold(papers, GEPHI_CONCEPTS, 2), _threshold(counts, GEPHI_COOCCURRENCE, 1)


def _gephi_nodes(graph: nx.MultiDiGraph, min_papers: int) -> set[str]:
    return {n for n, d in graph.nodes(data=True)
            if d.get("kind") != "concept" or (d.get("papers") or 0) >= min_papers}


def _scalar(value: object) -> object:
    if isinstance(value, (bool, int, float)):
        return value
    value = flat_value(value)
    return xml_text(value) if isinstance(value, str) else value


def _kind(value: object) -> str:
    """The XML type of a value (after :func:`flat_value`: lists become strings)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


_EXACT_KINDS = {bool: "boolean", int: "long", float: "double", str: "string"}  # _kind of the common types, by lookup


def _attributes(items: Iterable[dict], skip: frozenset[str] = frozenset()) -> dict[str, str]:
    """Attribute name -> XML type (``boolean``, ``long``, ``double`` or ``string``) over ``items``."""
    kinds: dict[str, set[str]] = {}
    exact = _EXACT_KINDS
    for data in items:
        for name, value in data.items():
            if value is not None and name not in skip:
                kind = exact.get(type(value)) or _kind(value)
                seen = kinds.get(name)
                if seen is None:
                    kinds[name] = {kind}
                else:
                    seen.add(kind)
    types = {}
    for name, seen in sorted(kinds.items()):
        types[name] = (seen.pop() if len(seen) == 1 else "double" if seen <= {"long", "double"} else "string")
    return types


def _text(value: object, kind: str) -> str:
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "double":
        return repr(float(value))  # type: ignore[arg-type]
    return str(value)


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _escape(text: str) -> str:
    return text.translate(_ESCAPES)


class _Ids(dict):
    """Node id -> its quoted XML attribute value, computed once per node."""

    def __missing__(self, node: str) -> str:
        quoted = self[node] = quoteattr(xml_text(node))
        return quoted


def _gephi_items(graph: nx.MultiDiGraph):
    min_papers, min_count = gephi_thresholds(graph)
    keep = _gephi_nodes(graph, min_papers)
    nodes = [(n, {k: _scalar(v) for k, v in d.items() if k not in _GEPHI_SKIP and v is not None
                  and not (k in ("title", "name") and v == d.get("label"))})  # the label says it
             for n, d in graph.nodes(data=True) if n in keep]

    def raw_edges():
        for u, v, key, d in all_edges(graph):
            if u in keep and v in keep and (key != "co_occurs" or (d.get("count") or 0) >= min_count):
                yield u, v, key, {k: x for k, x in d.items() if k not in _GEPHI_EDGE_SKIP}

    return nodes, raw_edges, {"map_min_concept_papers": min_papers, "map_min_cooccurrence": min_count}


def write_graphml(graph: nx.MultiDiGraph, handle: IO[str]) -> None:
    """Stream the Gephi map of ``graph`` (see the module docstring) as GraphML."""
    nodes, raw_edges, thresholds = _gephi_items(graph)
    node_types = _attributes(d for _, d in nodes)
    edge_types = _attributes(d for _, _, _, d in raw_edges())
    graph_attrs = {k: _scalar(v) for k, v in {**graph.graph, **thresholds}.items() if v is not None}
    graph_types = _attributes([graph_attrs])
    handle.write("<?xml version='1.0' encoding='utf-8'?>\n"
                 '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                 'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                 'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
    opening: dict[str, dict[str, str]] = {}
    for prefix, scope, types in (("g", "graph", graph_types), ("n", "node", node_types), ("e", "edge", edge_types)):
        opening[prefix] = {}
        for name, kind in types.items():
            key = quoteattr(prefix + "_" + xml_text(name))
            opening[prefix][name] = f"<data key={key}>"
            handle.write(f'  <key id={key} for="{scope}" attr.name={quoteattr(xml_text(name))} '
                         f'attr.type="{kind}" />\n')
    handle.write('  <graph edgedefault="directed">\n')
    for name, value in sorted(graph_attrs.items()):
        handle.write(f"    {opening['g'][name]}{_escape(_text(value, graph_types[name]))}</data>\n")

    def data(prefix: str, values: dict, types: dict[str, str]) -> str:
        tags = opening[prefix]
        return "".join(f"{tags[k]}{_escape(_text(v, types[k]))}</data>" for k, v in sorted(values.items()))

    ids = _Ids()
    for node, values in nodes:
        handle.write(f"    <node id={ids[node]}>{data('n', values, node_types)}</node>\n")
    for number, (u, v, key, raw) in enumerate(raw_edges()):
        values = {k: _scalar(x) for k, x in raw.items() if x is not None}
        handle.write(f'    <edge id="e{number}" source={ids[u]} target={ids[v]}>{data("e", values, edge_types)}</edge>\n')
    handle.write("  </graph>\n</graphml>\n")


def write_gexf(graph: nx.MultiDiGraph, handle: IO[str]) -> None:
    """Stream the Gephi map of ``graph`` (see the module docstring) as GEXF 1.2."""
    nodes, raw_edges, _ = _gephi_items(graph)
    node_types = _attributes((d for _, d in nodes), skip=frozenset({"label"}))
    edge_types = _attributes((d for _, _, _, d in raw_edges()), skip=frozenset({"weight"}))
    node_ids = {name: f'<attvalue for="{i}" value=' for i, name in enumerate(node_types)}
    edge_ids = {name: f'<attvalue for="{i}" value=' for i, name in enumerate(edge_types)}
    handle.write("<?xml version='1.0' encoding='utf-8'?>\n"
                 '<gexf xmlns="http://www.gexf.net/1.2draft" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                 'xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" '
                 'version="1.2">\n  <meta>\n    <creator>kg</creator>\n  </meta>\n'
                 '  <graph defaultedgetype="directed" mode="static" name="">\n')
    for scope, types in (("node", node_types), ("edge", edge_types)):
        handle.write(f'    <attributes mode="static" class="{scope}">\n')
        for i, (name, kind) in enumerate(types.items()):
            handle.write(f'      <attribute id="{i}" title={quoteattr(xml_text(name))} type="{kind}" />\n')
        handle.write("    </attributes>\n")

    def attvalues(values: dict, types: dict[str, str], ids: dict[str, str]) -> str:
        cells = "".join(f"{ids[k]}{quoteattr(_text(v, types[k]))} />"
                        for k, v in sorted(values.items()) if k in types)
        return f"<attvalues>{cells}</attvalues>" if cells else ""

    quoted = _Ids()
    handle.write("    <nodes>\n")
    for node, values in nodes:
        label = values.get("label", node)
        handle.write(f"      <node id={quoted[node]} label={quoteattr(xml_text(str(label)))}>"
                     f"{attvalues(values, node_types, node_ids)}</node>\n")
    handle.write("    </nodes>\n    <edges>\n")
    for number, (u, v, key, raw) in enumerate(raw_edges()):
        values = {k: _scalar(x) for k, x in raw.items() if x is not None}
        weight = values.get("weight", 1)
        weight = float(weight) if isinstance(weight, (int, float)) and not isinstance(weight, bool) else 1.0
        handle.write(f'      <edge source={quoted[u]} target={quoted[v]} id="{number}" '
                     f'weight="{weight!r}">{attvalues(values, edge_types, edge_ids)}</edge>\n')
    handle.write("    </edges>\n  </graph>\n</gexf>\n")


# --- CSV tables ----------------------------------------------------------------------------


def _write_csv(handle: IO[str], header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else csv_cell(flat_value(v)) for v in row])


def _tables(graph: nx.MultiDiGraph) -> dict[str, Callable[[IO[str]], None]]:
    nodes = graph.nodes
    papers = [(n, d) for n, d in nodes(data=True) if d.get("kind") == "paper"]
    n_concepts = {p: 0 for p, _ in papers}
    for u, _, key, _ in all_edges(graph):
        if key == "mentions":
            n_concepts[u] += 1

    def papers_csv(handle):
        _write_csv(handle, ["id", "title", "title_derived", "year", "venue", "authors", "concepts", "source"],
                   ([p, d.get("title"), d.get("title_derived"), d.get("year"), d.get("venue"),
                     d.get("authors", []), n_concepts[p], d.get("source")] for p, d in papers))

    def concepts_csv(handle):
        _write_csv(handle, ["id", "name", "acronym", "aliases", "papers"],
                   ([c, d.get("name"), d.get("acronym"), d.get("aliases", []), d.get("papers")]
                    for c, d in nodes(data=True) if d.get("kind") == "concept"))

    def mentions_csv(handle):
        _write_csv(handle, ["paper_id", "concept_id", "rank", "score", "surface"],
                   ([u, v, d.get("rank"), d.get("score"), d.get("surface")]
                    for u, v, k, d in all_edges(graph) if k == "mentions"))

    return {"papers.csv": papers_csv, "concepts.csv": concepts_csv, "mentions.csv": mentions_csv}


def graph_writers(graph: nx.MultiDiGraph, *, built: bool = False) -> dict[str, Callable[[IO[str]], None]]:
    """File name -> a function that streams that file of ``graph`` to a text handle
    (``built``: see :func:`kg.graphfile.write_graph_json`)."""
    writers: dict[str, Callable[[IO[str]], None]] = {
        "graph.json": lambda handle: write_graph_json(graph, handle, texts=False, built=built),
        "corpus.jsonl": lambda handle: write_corpus_jsonl(graph, handle),
        "graph.graphml": lambda handle: write_graphml(graph, handle),
        "graph.gexf": lambda handle: write_gexf(graph, handle),
    }
    writers.update(_tables(graph))
    return writers


def write_graph_files(graph: nx.MultiDiGraph, out_dir: str | os.PathLike[str], *,
                      on_file: Callable[[str], None] | None = None, built: bool = False) -> list[str]:
    """Write ``graph.json``, ``graph.graphml``, ``graph.gexf``, ``papers.csv``,
    ``concepts.csv`` and ``mentions.csv`` into ``out_dir``; return their paths.

    ``on_file(name)`` is called after each file is written (for timing); ``built``: see
    :func:`kg.graphfile.write_graph_json`.
    """
    written = []
    for name, write in graph_writers(graph, built=built).items():
        path = os.path.join(os.fspath(out_dir), name)
        with atomic_file(path) as handle:
            write(handle)
        written.append(path)
        if on_file:
            on_file(name)
    return written
