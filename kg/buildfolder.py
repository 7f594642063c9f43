"""A build folder read back for an update: its papers, graph attributes, analysis and inputs.

``corpus.jsonl`` holds every field of every paper as the build read it
(:func:`kg.corpusfile.read_corpus_jsonl`), so the papers come back exactly; the graph's
attributes (how it was made) and its ``analysis.json`` come from beside it. Reading is all
this module does: :mod:`kg.pipeline` runs the update, :mod:`kg.options` reconciles its
options with the recorded ones.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field

from kg.analyze.result import load_analysis
from kg.corpusfile import paper_from_node, read_corpus_jsonl
from kg.errors import GraphFileError
from kg.models import Paper, concept_label

__all__ = ["PreviousBuild", "read_build"]


@dataclass
class PreviousBuild:
    """What an update needs from the build in a folder (:func:`read_build`).

    Attributes
    ----------
    folder : str
    attrs : dict
        ``graph.json``'s graph attributes (kg version, model, ``parameters``, ``inputs``, …).
    parameters : dict
        The build's recorded options (``attrs["parameters"]``, decoded).
    papers : list of Paper
        Every paper of the build, as the build read it (duplicates merged).
    concepts : dict
        Concept id -> ``{"name", "acronym", "label", "aliases", "papers"}`` (``label``: how the
        build showed it, :func:`kg.models.concept_label`; a build made before concepts had an
        ``acronym`` has it in its names, "collaborative filtering (CF)", and the same label).
    analysis : dict or None
        Its ``analysis.json`` (None when missing or not this graph's).
    """

    folder: str
    attrs: dict
    parameters: dict
    papers: list[Paper]
    concepts: dict[str, dict] = field(default_factory=dict)
    analysis: dict | None = None

    @property
    def inputs(self) -> list:
        try:
            value = json.loads(self.attrs.get("inputs") or "[]")
        except (TypeError, ValueError):
            return []
        return value if isinstance(value, list) else []

    def count(self, name: str) -> int:
        value = self.attrs.get(name, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _not_a_build(folder: str, why: str) -> GraphFileError:
    return GraphFileError(f"{folder}: not a kg build ({why}); --update adds papers to a folder that kg build wrote: "
                          f"kg build PAPERS --out {folder}")


def read_build(folder: str | os.PathLike[str]) -> PreviousBuild:
    """The build in ``folder``: its papers (from ``corpus.jsonl``), concepts, options and analysis.

    Raises
    ------
    GraphFileError
        When ``folder`` is not a folder that ``kg build`` wrote, or its files are damaged
        (one line naming the folder and what is missing).
    """
    name = os.fspath(folder)
    if not os.path.isdir(name):
        raise _not_a_build(name, "no such folder" if not os.path.exists(name) else "a file, not a folder")
    path = os.path.join(name, "graph.json")
    if not os.path.isfile(path):
        raise _not_a_build(name, "no graph.json in it")
    try:
        attrs, nodes, mentioned = _scan_graph(path)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _not_a_build(name, f"its graph.json cannot be read: {str(exc)[:120]}") from None
    except TypeError:
        raise _not_a_build(name, "its graph.json is not a kg graph") from None
    try:
        parameters = json.loads(attrs.get("parameters") or "")
    except (TypeError, ValueError):
        parameters = None
    if not isinstance(parameters, dict):
        raise _not_a_build(name, "its graph.json records no build parameters")
    implied = attrs.get("concepts_by_id") is True
    paper_nodes: dict[str, dict] = {}
    concepts: dict[str, dict] = {}
    for node in nodes:
        if not isinstance(node, dict) or not isinstance(node.get("id"), str):
            raise _not_a_build(name, "its graph.json has a node without an id")
        kind = node.get("kind")
        if kind == "paper":
            paper_nodes[node["id"]] = node
        elif kind == "concept" or (kind is None and implied and node["id"].startswith("c:")):
            concept_name = str(node.get("name") or node["id"][2:])  # a name the id implies is left out
            acronym = node.get("acronym") if isinstance(node.get("acronym"), str) else None
            aliases = node.get("aliases")
            papers = node.get("papers")
            concepts[node["id"]] = {"name": concept_name, "acronym": acronym,
                                    "label": concept_label(concept_name, acronym),
                                    "papers": papers if isinstance(papers, int) else mentioned.get(node["id"], 0),
                                    "aliases": list(aliases) if isinstance(aliases, list) else [concept_name]}
    del nodes, mentioned
    texts = attrs.get("paper_texts_file")
    if isinstance(texts, str) and texts:
        corpus_path = os.path.join(name, os.path.basename(texts))
        if not os.path.isfile(corpus_path):
            raise GraphFileError(f"{corpus_path}: missing; an update rebuilds from the papers' texts, which this "
                                 f"file holds: rebuild the folder with kg build")
        papers = read_corpus_jsonl(corpus_path)
        if sorted(p.id for p in papers) != sorted(paper_nodes):
            raise GraphFileError(f"{corpus_path} does not hold the papers of {path} (it was changed or comes from "
                                 "another build): rebuild the folder with kg build")
    else:  # an older build: the texts are in graph.json
        papers = [paper_from_node(pid, node, source=path) for pid, node in paper_nodes.items()]
    if not papers:
        raise _not_a_build(name, "its graph has no papers")
    analysis = load_analysis(name)
    if analysis is not None:
        rows = analysis.get("communities")
        members = [p for row in rows for p in row.get("papers", ())] if isinstance(rows, list) else None
        if members is None or sorted(members) != sorted(paper_nodes) or any(
                not isinstance(r, dict) or r.get("id") != i for i, r in enumerate(rows)):
            analysis = None  # not this graph's: the update numbers its communities afresh
        else:
            analysis = _what_an_update_reads(analysis)
    return PreviousBuild(name, attrs, parameters, papers, concepts, analysis)


def _what_an_update_reads(analysis: dict) -> dict:
    """The parts of an analysis an update uses (numbers, members, labels, settings, counts): the
    PageRank of every node and the report's tables would only take memory."""

    def rows(items) -> list:
        return [{"id": r.get("id"), "papers": list(r.get("papers", ())), "label": r.get("label", "")}
                for r in items or () if isinstance(r, dict)]

    maps = analysis.get("citation_maps")
    evolution = analysis.get("evolution")
    return {
        "parameters": analysis.get("parameters") or {},
        "summary": analysis.get("summary") or {},
        "communities": rows(analysis.get("communities")),
        "citation_maps": {name: {"clusters": rows(m.get("clusters"))} for name, m in maps.items()
                          if isinstance(m, dict)} if isinstance(maps, dict) else {},
        **({"evolution": {"parameters": evolution.get("parameters")}} if isinstance(evolution, dict) else {}),
    }


def _scan_graph(path: str) -> tuple[dict, list, Counter]:
    """``graph.json``'s graph attributes, its nodes, and each node's count of ``mentions`` edges into it.

    kg writes one node or edge per line (:func:`kg.graphfile.write_graph_json`): read so, the
    edges are never held (a 25k-paper graph has a million of them); any other layout is read whole.
    """
    mentioned: Counter[str] = Counter()
    with open(path, encoding="utf-8") as handle:
        head = handle.readline()
        opening = ',"nodes":['
        if not (head.startswith('{"directed":') and head.rstrip("\n").endswith(opening)):
            handle.seek(0)
            data = json.load(handle)
            if not isinstance(data, dict) or not isinstance(data.get("graph"), dict) \
                    or not isinstance(data.get("nodes"), list) or not isinstance(data.get("edges"), list):
                raise TypeError("not a kg graph")
            mentioned.update(e.get("target") for e in data["edges"]
                             if isinstance(e, dict) and e.get("kind", e.get("key")) == "mentions")
            return data["graph"], data["nodes"], mentioned
        attrs = json.loads(head.rstrip("\n")[:-len(opening)] + "}").get("graph")
        nodes = []
        for line in handle:
            if line.startswith("],"):
                break
            nodes.append(json.loads(line.rstrip().rstrip(",")))
        else:
            raise ValueError("graph.json ends inside its nodes")
        for line in handle:
            if '"kind":"mentions"' in line or '"key":"mentions"' in line:  # kind: since every edge names it
                edge = json.loads(line.rstrip().rstrip(","))
                if edge.get("kind", edge.get("key")) == "mentions":
                    mentioned[edge.get("target")] += 1
    if not isinstance(attrs, dict):
        raise TypeError("not a kg graph")
    return attrs, nodes, mentioned
