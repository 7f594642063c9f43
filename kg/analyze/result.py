"""The analysis a build hands on: saved as ``analysis.json``, checked, read back (no computing here).

:func:`kg.analyze.analyze` computes it (communities with their numbering, members, labels,
distinctive concepts and central papers; the PageRank of every paper and concept; the
report's tables; the parameters that made them). The report (:mod:`kg.report`), the graph
page (:mod:`kg.export.html`) and Neo4j (:mod:`kg.export.neo4j`) receive this result and never
recompute it, so community 3 is the same papers, label and colour in all three.

This module is the hand-over: reading and writing ``analysis.json``, checking that an
analysis belongs to a graph, and the few views of it that consumers share. It computes
nothing: :func:`kg.analyze.analysis_for` does, and only when the caller has no analysis to
hand in (a bare graph from an old build, a graph made in Python).

Examples
--------
>>> paper_community({"communities": [{"id": 0, "papers": ["p1", "p2"]}, {"id": 1, "papers": ["p3"]}]})
{'p1': 0, 'p2': 0, 'p3': 1}
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

import networkx as nx

from kg.atomic import atomic_write
from kg.defaults import RESOLUTION, SEED
from kg.errors import GraphFileError, KgError
from kg.escape import clean_tree

__all__ = [
    "ANALYSIS_FILE", "AnalysisMismatchError", "saved_parameters", "analysis_settings", "check_analysis", "render_analysis",
    "save_analysis", "load_analysis", "paper_community", "community_labels", "saved_pagerank",
]

ANALYSIS_FILE = "analysis.json"


class AnalysisMismatchError(KgError):
    """An analysis that does not belong to the graph it is handed with."""


def saved_parameters(graph: nx.MultiDiGraph) -> dict:
    """The ``seed`` and ``resolution`` the graph was built with (the defaults when unrecorded)."""
    try:
        recorded = json.loads(graph.graph.get("parameters") or "{}")
    except (TypeError, ValueError):
        recorded = {}
    if not isinstance(recorded, dict):
        recorded = {}
    return {"seed": int(recorded.get("seed", SEED)), "resolution": float(recorded.get("resolution", RESOLUTION))}


def analysis_settings(graph: nx.MultiDiGraph, analysis: Mapping) -> dict:
    """The ``seed`` and ``resolution`` that made ``analysis`` (the graph's own where it does not say)."""
    saved, made = saved_parameters(graph), analysis.get("parameters") or {}
    return {"seed": int(made.get("seed", saved["seed"])), "resolution": float(made.get("resolution", saved["resolution"]))}


def check_analysis(graph: nx.MultiDiGraph, analysis: Mapping) -> Mapping:
    """``analysis`` if its communities number exactly the papers of ``graph``.

    Raises
    ------
    AnalysisMismatchError
        When the analysis is malformed, names a paper the graph lacks, or leaves one out
        (e.g. a graph.json rebuilt or edited after its analysis.json was written).
    """
    rows = analysis.get("communities") if isinstance(analysis, Mapping) else None
    if not isinstance(rows, list) or not all(isinstance(r, Mapping) and isinstance(r.get("papers"), list)
                                             and r.get("id") == i for i, r in enumerate(rows)):
        raise AnalysisMismatchError("the analysis has no numbered community rows (communities: "
                                    "[{id: 0, papers: [...]}, ...]); analyze the graph again")
    papers = {n for n, d in graph.nodes(data=True) if d.get("kind") == "paper"}
    members = [p for row in rows for p in row["papers"]]
    unknown = sorted(set(members) - papers)
    missing = sorted(papers - set(members))
    if unknown or missing or len(members) != len(set(members)):
        what = (f"names {len(unknown)} papers the graph does not have (e.g. {unknown[0]!r})" if unknown
                else f"leaves out {len(missing)} of its papers (e.g. {missing[0]!r})" if missing
                else "puts a paper in two communities")
        raise AnalysisMismatchError(f"the analysis does not belong to this graph: it {what}; analyze it again")
    return analysis


def render_analysis(analysis: Mapping) -> str:
    """``analysis`` as JSON text: sorted keys, so equal analyses give equal bytes."""
    return json.dumps(clean_tree(analysis), ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def save_analysis(analysis: Mapping, folder: str | os.PathLike[str]) -> str:
    """Write ``folder/analysis.json`` (atomically); its path."""
    path = os.path.join(os.fspath(folder), ANALYSIS_FILE)
    atomic_write(path, render_analysis(analysis))
    return path


def load_analysis(folder: str | os.PathLike[str]) -> dict | None:
    """The analysis saved in ``folder`` (a build's output folder), or None when it has none.

    Raises
    ------
    GraphFileError
        When ``analysis.json`` is not UTF-8 JSON holding an object.
    """
    path = os.path.join(os.fspath(folder), ANALYSIS_FILE)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (UnicodeDecodeError, ValueError) as exc:
        raise GraphFileError(f"{path}: not a kg analysis ({str(exc)[:120]}); run kg report on its folder to redo it"
                             ) from None
    except RecursionError:
        raise GraphFileError(f"{path}: not a kg analysis (lists or maps nested too deep); run kg report on its "
                             "folder to redo it") from None
    if not isinstance(data, dict):
        raise GraphFileError(f"{path}: not a kg analysis (a JSON object); run kg report on its folder to redo it")
    return data


def paper_community(analysis: Mapping) -> dict[str, int]:
    """Paper id -> community number."""
    return {paper: int(row["id"]) for row in analysis.get("communities") or () for paper in row["papers"]}


def community_labels(analysis: Mapping) -> list[str]:
    """The label of each community number."""
    return [str(row.get("label") or "") for row in analysis.get("communities") or ()]


def saved_pagerank(analysis: Mapping) -> dict[str, float]:
    """Node id -> PageRank: papers on the ``related`` projection, concepts on ``co_occurs``."""
    ranks = analysis.get("pagerank") or {}
    return {**ranks.get("papers", {}), **ranks.get("concepts", {})}
