"""``graph.json``: the graph saved as NetworkX node-link JSON, streamed, compact, and read back checked.

:func:`write_graph_json` writes one node or edge per line, keys sorted, no
timestamps, so equal graphs give equal bytes and memory does not grow with the graph.
What other attributes imply is left out, and :func:`graph_from_json` puts it back, so
that ``graph_from_json(graph_to_json(g))`` equals ``g``:

* a concept's ``name`` equal to its id without ``c:`` (``c:graph neural network``: most names);
* a ``label`` equal to a paper's title, a concept's name with
  its ``acronym`` (:func:`kg.models.concept_label`; a concept without one has no ``acronym``
  attribute) or another node's name; ``aliases`` equal to ``[name]``; a mention's
  ``surface`` equal to its concept's name;
* a ``weight`` equal to a mention's score (0 if negative), a co-occurrence's count, or 1;
* a ``related`` link's ``shared`` and ``n_shared``: the concepts both papers mention,
  rarest first (ties by id), as :func:`kg.graph.build_graph` lists them;
* the ``co_occurs`` edges, when they are exactly the pairs of concepts that at least
  ``co_occurs_min_count`` papers mention together (the graph attribute says so): they are
  the co-occurrence projection of the ``mentions`` edges.

On ACM-CR (24.6k papers) these take graph.json from 207 MB to the figure in the README.
A reader other than kg gets every node and the ``mentions``, ``related``, ``cites``,
``wrote`` and ``published_in`` edges as they are, and derives co-occurrence from mentions.
Every node carries its ``kind`` and every edge its ``kind``, which is also kg's multigraph key, so
``networkx.node_link_graph`` and ``jq`` users read a self-describing file:
``nx.node_link_graph(data, edges="edges", key="kind")`` gives kg's keys (``"mentions"``, ``"related"``…);
with the default ``key="key"`` the keys are numbered and ``kind`` stays an edge attribute. The
edge's ``kind`` is written in place of a separate ``key`` (the same word twice would cost 11 MB
on ACM-CR); files written with a ``key`` read as before.
"""

from __future__ import annotations

import io
import json
import os
from collections import defaultdict
from types import SimpleNamespace

import networkx as nx
import numpy as np
from scipy import sparse

from kg.corpusfile import PAPERS_FILE, TEXTS, attach_texts
from kg.errors import GraphFileError
from kg.graph import add_people_and_venues
from kg.graphcheck import check_node_link
from kg.models import concept_label

__all__ = ["write_graph_json", "graph_to_json", "graph_from_json", "load_graph", "all_edges"]

_LABEL_OF = {"paper": "title", "concept": "name", "author": "name", "venue": "name"}
_UNIT_WEIGHT = ("cites", "wrote", "published_in")
_MIN_COUNT = "co_occurs_min_count"  # graph attributes saying what the file leaves out
_PEOPLE = "people_from_papers"
_RANKS = "mention_ranks_by_order"
_TEXTS_FILE = "paper_texts_file"
_CONCEPTS = "concepts_by_id"  # concept nodes without papers (their mentions count it); older files: nor kind


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


def _edges(graph: nx.MultiDiGraph, source_kinds: tuple[str, ...], key: str):
    """``(u, v, data)`` of the ``key`` edges leaving nodes of ``source_kinds`` (faster than edges())."""
    succ = graph._succ  # the plain dicts: no view object per node
    for node, data in graph.nodes(data=True):
        if data.get("kind") in source_kinds:
            for target, keys in succ[node].items():
                if key in keys:
                    yield node, target, keys[key]


def all_edges(graph: nx.MultiDiGraph):
    """``(u, v, key, data)`` of every edge, in ``graph.edges`` order (from the plain dicts: faster)."""
    for u, nbrs in graph._succ.items():
        for v, keys in nbrs.items():
            for key, data in keys.items():
                yield u, v, key, data


class _Mentions:
    """Each paper's concepts and each concept's paper count and name, from a graph's mentions."""

    def __init__(self, graph: nx.MultiDiGraph | None = None):
        self.of: dict[str, set[str]] = defaultdict(set)
        self.papers: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.ranks_by_order = False
        if graph is not None:
            for node, data in graph.nodes(data=True):
                if data.get("kind") == "concept":
                    self.add_concept(node, data)
            for u, v, _ in _edges(graph, ("paper",), "mentions"):
                self.of[u].add(v)

    def add_concept(self, node: str, data: dict) -> None:
        papers = data.get("papers")
        self.papers[node] = papers if isinstance(papers, int) else 0
        aliases = data.get("aliases")
        if isinstance(aliases, list) and len(aliases) == 1 and isinstance(aliases[0], str):
            self.names[node] = aliases[0]  # the one form every paper used
        elif isinstance(data.get("name"), str):
            self.names[node] = data["name"]

    def surface(self, concept: str) -> str | None:
        """The surface a mention of ``concept`` leaves out: its only alias, else its name."""
        return self.names.get(concept)

    def shared(self, p: str, q: str) -> list[str]:
        """The concepts both papers mention, rarest first, ties by id (as build_graph lists them)."""
        return sorted(self.of.get(p, set()) & self.of.get(q, set()), key=lambda c: (self.papers.get(c, 0), c))


def _co_occurrence(graph: nx.MultiDiGraph, min_count: int) -> list[tuple[str, str, int]]:
    """The ``co_occurs`` pairs build_graph makes: concepts mentioned together by >= min_count papers."""
    concepts = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "concept")
    column = {c: j for j, c in enumerate(concepts)}
    papers: dict[str, int] = {}
    rows, cols = [], []
    for u, v, _ in _edges(graph, ("paper",), "mentions"):
        if v in column:
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


def _key_counts(graph: nx.MultiDiGraph) -> dict[str, int]:
    """How many edges the graph has of each key (one pass over the plain adjacency dicts)."""
    counts: dict[str, int] = defaultdict(int)
    for nbrs in graph._succ.values():
        for keys in nbrs.values():
            for key in keys:
                counts[key] += 1
    return counts


def _co_occurs_derivable(graph: nx.MultiDiGraph, key_counts: dict[str, int] | None = None) -> int | None:
    """The min count at which the graph's co_occurs edges are exactly the derived ones, else None."""
    edges = list(_edges(graph, ("concept",), "co_occurs"))
    if len(edges) != (key_counts or _key_counts(graph)).get("co_occurs", 0):
        return None  # co_occurs leaving a node that is no concept: not build_graph's
    if any(set(d) - {"kind", "count", "weight"} or d.get("weight") != d.get("count") for _, _, d in edges):
        return None
    stored = sorted((u, v, d.get("count")) for u, v, d in edges)
    wanted = _recorded_min_count(graph, default=1)
    if wanted is None:
        return None
    if stored and min(c for _, _, c in stored) < wanted:
        return None
    return wanted if stored == [(a, b, n) for a, b, n in _co_occurrence(graph, wanted)] else None


def _recorded_min_count(graph: nx.MultiDiGraph, *, default: int | None = None) -> int | None:
    """The ``min_cooccurrence`` in the graph's recorded ``parameters`` (``default`` when absent; None if unreadable)."""
    try:
        return int(json.loads(graph.graph.get("parameters", "{}")).get("min_cooccurrence", default))
    except (ValueError, TypeError, AttributeError):
        return None


def _people(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The author and venue nodes and wrote/published_in edges build_graph makes from the papers."""
    papers = [SimpleNamespace(id=n, authors=tuple(d.get("authors") or ()), venue=d.get("venue"))
              for n, d in graph.nodes(data=True) if d.get("kind") == "paper"]
    out = nx.MultiDiGraph()
    add_people_and_venues(out, papers)  # type: ignore[arg-type]
    return out


def _people_derivable(graph: nx.MultiDiGraph, key_counts: dict[str, int] | None = None) -> bool:
    """Whether the graph's authors, venues, wrote and published_in are exactly what the papers give,
    in the place build_graph puts them (nodes last; a paper's published_in its last edge)."""
    derived = _people(graph)
    nodes = [n for n, d in graph.nodes(data=True) if d.get("kind") in ("author", "venue")]
    made = [(n, d) for n, d in derived.nodes(data=True) if d.get("kind") in ("author", "venue")]
    if nodes != [n for n, _ in made] or list(graph.nodes)[len(graph) - len(nodes):] != nodes:
        return False
    if any(graph.nodes[n] != d for n, d in made):
        return False
    mine = sorted([(u, v, "wrote", d) for u, v, d in _edges(graph, ("author",), "wrote")]
                  + [(u, v, "published_in", d) for u, v, d in _edges(graph, ("paper",), "published_in")],
                  key=lambda e: e[:3])
    key_counts = key_counts or _key_counts(graph)
    if len(mine) != key_counts.get("wrote", 0) + key_counts.get("published_in", 0):
        return False
    theirs = sorted(derived.edges(keys=True, data=True), key=lambda e: e[:3])
    if [e[:3] for e in mine] != [e[:3] for e in theirs] or any(a[3] != b[3] for a, b in zip(mine, theirs)):
        return False
    for u, v, key, _ in mine:
        if key == "published_in" and next(reversed(graph._succ[u])) != v:
            return False
    return True


def _ranks_by_order(graph: nx.MultiDiGraph) -> bool:
    """Whether each paper's mentions are ranked 1, 2, … in the order its edges are stored."""
    for node, data in graph.nodes(data=True):
        if data.get("kind") != "paper":
            continue
        expected = 1
        for target, keys in graph._succ[node].items():
            if "mentions" in keys:
                if keys["mentions"].get("rank") != expected:
                    return False
                expected += 1
    return True


def _implied_label(data: dict) -> str | None:
    """The ``label`` a node's other attributes imply: a paper's title, a concept's name with its
    acronym, another node's name (None when the node lacks them)."""
    kind = data.get("kind")
    value = data.get(_LABEL_OF[kind]) if kind in _LABEL_OF else None
    if kind == "concept" and isinstance(value, str) and isinstance(data.get("acronym"), str):
        return concept_label(value, data["acronym"])
    return value


# A paper attribute equal to its default is left out (the long texts excepted: absent from a
# graph.json written without them, they are unknown, not empty).
_PAPER_DEFAULTS = {"title_derived": False, "year": None, "venue": None, "doi": None, "authors": [],
                   "keyphrases": []}


def _compact_node(data: dict) -> dict:
    out = dict(data)
    if "label" in out and out["label"] is not None and out["label"] == _implied_label(data):
        del out["label"]
    if data.get("kind") == "concept" and out.get("aliases") == [data.get("name")]:
        del out["aliases"]
    if data.get("kind") == "paper":
        for name, default in _PAPER_DEFAULTS.items():
            if name in out and out[name] == default and type(out[name]) is type(default):
                del out[name]
    return out


def _compact_edge(u: str, v: str, key: str, data: dict, mentions: _Mentions) -> dict:
    out = dict(data)
    out["kind"] = key  # every edge says its kind; it is the multigraph key too
    implied = _implied_weight(key, out)
    if implied is not None and out.get("weight") == implied:
        del out["weight"]
    if key == "mentions" and "surface" in out and out["surface"] == mentions.surface(v):
        del out["surface"]
    if key == "mentions" and mentions.ranks_by_order:
        out.pop("rank", None)
    if key == "related" and out.get("shared") == mentions.shared(u, v):
        del out["shared"]
        if out.get("n_shared") == len(data["shared"]):
            del out["n_shared"]
    return out


def write_graph_json(graph: nx.MultiDiGraph, handle, *, texts: bool = True, built: bool = False) -> None:
    """Stream ``graph`` to the text ``handle`` as NetworkX node-link JSON (``nodes``/``edges``).

    Compact, keys sorted, one node or edge per line, no timestamps; what other
    attributes imply is left out (see the module docstring). With ``texts=False`` the
    papers' long attributes (:data:`TEXTS`: abstract, raw references, external ids,
    source) are left out too, for :func:`kg.corpusfile.write_corpus_jsonl` to write beside it.

    A graph is checked before its co-occurrence links, authors and venues are left out
    as derivable (5 s on 25k papers); ``built=True`` vouches that ``graph`` is
    :func:`kg.graph.build_graph`'s output, unchanged, with ``min_cooccurrence`` recorded in
    its ``parameters``: they are then derivable by construction (``kg build`` passes it; a
    test writes real builds both ways and compares the bytes).
    """
    mentions = _Mentions(graph)
    mentions.ranks_by_order = _ranks_by_order(graph)
    attrs = {k: v for k, v in graph.graph.items() if k not in (_MIN_COUNT, _PEOPLE, _RANKS, _TEXTS_FILE, _CONCEPTS)}
    key_counts = _key_counts(graph)
    min_count = _recorded_min_count(graph) if built else None
    if min_count is None:
        min_count = _co_occurs_derivable(graph, key_counts)
    if min_count is not None:
        attrs[_MIN_COUNT] = min_count
    people = built or _people_derivable(graph, key_counts)
    if people:
        attrs[_PEOPLE] = True
    if mentions.ranks_by_order:
        attrs[_RANKS] = True
    if not texts:
        attrs[_TEXTS_FILE] = PAPERS_FILE
    counts: dict[str, int] = defaultdict(int)
    for _, v, _ in _edges(graph, ("paper",), "mentions"):
        counts[v] += 1
    implied_concepts = key_counts.get("mentions", 0) == sum(counts.values()) and all(str(n).startswith("c:") and d.get("papers") == counts.get(n, 0)
                           for n, d in graph.nodes(data=True) if d.get("kind") == "concept")
    if implied_concepts:
        attrs[_CONCEPTS] = True
    handle.write('{"directed":true,"multigraph":true,"graph":' + _dumps(attrs) + ',"nodes":[')
    separator = "\n"
    for node, data in graph.nodes(data=True):
        if people and data.get("kind") in ("author", "venue"):
            continue
        if not texts and data.get("kind") == "paper":
            data = {k: v for k, v in data.items() if k not in TEXTS}
        item = _compact_node(data)
        if implied_concepts and data.get("kind") == "concept":
            item = {k: v for k, v in item.items() if k != "papers"}
        if data.get("kind") == "concept" and str(node).startswith("c:") and item.get("name") == node[2:]:
            del item["name"]  # the id says it (and pays for every node's kind)
        handle.write(separator + _dumps({**item, "id": node}))
        separator = ",\n"
    handle.write('\n],"edges":[')
    separator = "\n"
    for u, v, key, data in all_edges(graph):
        if (key == "co_occurs" and min_count is not None) or (people and key in ("wrote", "published_in")):
            continue
        handle.write(separator + _dumps({**_compact_edge(u, v, key, data, mentions), "source": u, "target": v}))
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
    counts: dict[str, int] = defaultdict(int)
    for _, v, key in graph.edges(keys=True):
        if key == "mentions":
            counts[v] += 1
    for node, data in graph.nodes(data=True):
        if data.get("kind") == "concept" and "name" not in data and str(node).startswith("c:"):
            data["name"] = node[2:]
        if data.get("kind") == "concept" and "papers" not in data:
            data["papers"] = counts.get(node, 0)
        if data.get("kind") == "paper":
            for name, default in _PAPER_DEFAULTS.items():
                if name not in data:
                    data[name] = list(default) if isinstance(default, list) else default
        if "label" not in data:
            label = _implied_label(data)
            if label is not None:
                data["label"] = label
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
            data["surface"] = mentions.surface(v)
        if key == "related":
            if "shared" not in data:
                data["shared"] = mentions.shared(u, v)
            data.setdefault("n_shared", len(data["shared"]))
    if graph.graph.pop(_RANKS, None) is True:
        for node, data in graph.nodes(data=True):
            if data.get("kind") == "paper":
                rank = 0
                for keys in graph.succ[node].values():
                    if "mentions" in keys:
                        rank += 1
                        keys["mentions"].setdefault("rank", rank)
    min_count = graph.graph.pop(_MIN_COUNT, None)
    if isinstance(min_count, int) and not isinstance(min_count, bool):
        for a, b, count in _co_occurrence(graph, min_count):
            graph.add_edge(a, b, key="co_occurs", kind="co_occurs", count=count, weight=count)
    if graph.graph.pop(_PEOPLE, None) is True:
        people = _people(graph)
        graph.add_nodes_from((n, d) for n, d in people.nodes(data=True) if d.get("kind") in ("author", "venue"))
        graph.add_edges_from(people.edges(keys=True, data=True))


def graph_from_json(text: str | bytes, *, source: str = "graph.json", folder: str | None = None) -> nx.MultiDiGraph:
    """Inverse of :func:`graph_to_json`, checking what it reads (the file may have been edited).

    A graph written without its papers' texts names the file that holds them; given the
    ``folder`` it is in, they are put back (else the papers have no abstracts).

    Raises
    ------
    GraphFileError
        When ``text`` is not a kg graph; the message says where: line and column of a
        JSON or UTF-8 error, or the node or edge that lacks a ``kind``, points at a
        missing node, or has an attribute of the wrong type.
    """
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
    if isinstance(data, dict) and isinstance(data.get("graph"), dict) and data["graph"].get(_CONCEPTS) is True:
        for node in data.get("nodes") or ():  # concepts written without their kind (their ids say it)
            if isinstance(node, dict) and "kind" not in node and str(node.get("id", "")).startswith("c:"):
                node["kind"] = "concept"
    attrs, nodes, edges = check_node_link(data, source)
    attrs.pop(_CONCEPTS, None)
    graph = nx.MultiDiGraph()
    graph.graph.update(attrs)
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    _expand(graph)
    texts = graph.graph.pop(_TEXTS_FILE, None)
    if folder is not None and isinstance(texts, str) and os.path.basename(texts) == texts:
        beside = os.path.join(folder, texts)
        if os.path.isfile(beside):
            attach_texts(graph, beside)
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
    try:
        return graph_from_json(data, source=path, folder=os.path.dirname(path))
    except GraphFileError:
        if path == name and os.path.basename(name) != "graph.json":  # a file given where a build is expected
            raise GraphFileError(f"{name}: expected a kg build folder (the --out of kg build, holding graph.json), "
                                 f"not this file; to build one from it: kg build {name} --out DIR") from None
        raise
