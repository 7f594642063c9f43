"""Write a build's read index (``index.sqlite``, :mod:`kg.index.schema`) from its graph and analysis.

:func:`write_index` is called inside the staged output folder by ``kg build``, ``kg build
--update`` and ``kg report`` (:func:`kg.pipeline.write_outputs`,
:meth:`kg.api.KnowledgeGraph.write_analysis`), after the vectors, so the rows it records for
each node are those of the ``.npy`` files beside it. It writes a temporary file in the folder
and renames it into place: a reader sees the old index or the new one.

What several views show is computed here once and stored, never recomputed by a reader: the
community of every node (:func:`kg.export.html_view.community_membership`, the page's
colours), the weight between communities (the overview's links), the concept rankings of
``kg concepts`` (:func:`kg.analyze.concept_rows`, :func:`kg.analyze.community_concepts`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Mapping

import networkx as nx
import numpy as np

from kg.analyze import community_rows, specificity
from kg.analyze.centrality import pagerank
from kg.analyze.result import analysis_settings
from kg.atomic import umask
from kg.export.html_view import community_link_weights, community_membership
from kg.graph import node_label, projection
from kg.linkweight import related_parameters
from kg.index.schema import EDGE_KINDS, INDEX_FILE, INDEX_VERSION, INDEXES, RANKED_CONCEPTS, SCHEMA
from kg._version import __version__
from kg.vectors import CONCEPT_IDS_FILE, CONCEPT_VECTORS_FILE, IDS_FILE, VECTORS_FILE

__all__ = ["write_index"]

_SCORINGS = ("ctfidf",)  # kg concepts --community's default labels; the analysis's own are added


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)


def _vector_rows(folder: str, names: tuple[str, str]) -> tuple[dict[str, int], int | None]:
    """Row of each id in the folder's ``.npy`` (by its ``.json`` ids) and the row count; empty when absent
    or out of step (a reader then finds no vector, as :func:`kg.vectors.load_paper_vectors` would fail)."""
    npy, meta = (os.path.join(folder, name) for name in names)
    try:
        with open(meta, encoding="utf-8") as handle:
            ids = json.load(handle)["ids"]
        rows = np.load(npy, mmap_mode="r", allow_pickle=False).shape[0]
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return {}, None
    if not isinstance(ids, list) or rows != len(ids):
        return {}, None
    return {str(i): row for row, i in enumerate(ids)}, rows


def _concept_ranking(graph: nx.MultiDiGraph) -> Iterable[tuple]:
    """``kg concepts``'s choice order (papers weighted by specificity, then id), with the co-occurrence
    degree and PageRank it lists, as :func:`kg.analyze.concept_rows` computes them."""
    cooc = projection(graph, "co_occurs")
    ranks = pagerank(cooc)
    chosen = sorted(cooc.nodes, key=lambda c: (-graph.nodes[c].get("papers", 0) * specificity(c), c))
    for position, concept in enumerate(chosen[:RANKED_CONCEPTS]):
        yield position, concept, cooc.degree(concept), float(f"{ranks[concept]:.6g}")


def _community_concepts(graph: nx.MultiDiGraph, analysis: Mapping, scorings: Iterable[str]) -> dict[str, list]:
    related = projection(graph, "related")
    communities = [set(row["papers"]) for row in analysis.get("communities") or ()]
    out = {}
    for scoring in scorings:
        rows = community_rows(graph, related, communities, scoring=scoring, top=RANKED_CONCEPTS, top_papers=0)
        out[scoring] = [(scoring, row["id"], position, c["id"], c["name"], c["score"], c["papers"])
                        for row in rows for position, c in enumerate(row["concepts"])]
    return out


def write_index(graph: nx.MultiDiGraph, analysis: Mapping, folder: str | os.PathLike[str]) -> str:
    """Write ``folder/index.sqlite`` for ``graph`` and its ``analysis`` (atomically); its path.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        The build's graph (what ``graph.json`` holds).
    analysis : mapping
        Its analysis (what ``analysis.json`` holds), checked against the graph.
    folder : path
        The (staged) output folder; its ``paper_vectors.*`` and ``concept_vectors.*``, when
        there, are the vectors the index points into.
    """
    folder = os.fspath(folder)
    membership, rows = community_membership(graph, analysis=analysis)
    central = {paper: i for row in rows for i, paper in enumerate(row["papers"])}
    paper_rows, paper_count = _vector_rows(folder, (VECTORS_FILE, IDS_FILE))
    concept_rows, concept_count = _vector_rows(folder, (CONCEPT_VECTORS_FILE, CONCEPT_IDS_FILE))
    settings = {**analysis_settings(graph, analysis),
                "method": (analysis.get("parameters") or {}).get("method", "louvain"),
                "scoring": (analysis.get("parameters") or {}).get("scoring", "ctfidf")}
    scorings = sorted(set(_SCORINGS) | {settings["scoring"]})
    kinds = {n: d.get("kind") for n, d in graph.nodes(data=True)}
    meta = {
        "version": INDEX_VERSION,
        "kg_version": __version__,
        "embedding": str(graph.graph.get("embedding") or graph.graph.get("model") or ""),
        "related_parameters": related_parameters(graph.graph),
        "settings": settings,
        "scorings": scorings,
        "papers": sum(1 for k in kinds.values() if k == "paper"),
        "concepts": sum(1 for k in kinds.values() if k == "concept"),
        "communities": len(rows),
        "paper_vectors": paper_count,
        "concept_vectors": concept_count,
        "graph": {k: v for k, v in graph.graph.items() if isinstance(v, (str, int, float, bool)) or v is None},
    }
    path = os.path.join(folder, INDEX_FILE)
    temporary = os.path.join(folder, f".{INDEX_FILE}.{os.getpid()}.tmp")
    if os.path.exists(temporary):
        os.unlink(temporary)
    try:
        db = sqlite3.connect(temporary)
        try:
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")
            db.execute("PRAGMA cache_size = -65536")  # 64 MB of pages while the indexes are made
            db.executescript(SCHEMA)
            db.executemany("INSERT INTO meta VALUES (?, ?)", ((k, _json(v)) for k, v in meta.items()))
            db.executemany("INSERT INTO nodes (rowid, id, kind, attrs) VALUES (?, ?, ?, ?)",  # the graph's order
                           ((i, n, str(d.get("kind") or ""), _json(d))
                            for i, (n, d) in enumerate(graph.nodes(data=True), start=1)))
            row = {n: i for i, n in enumerate(graph.nodes, start=1)}
            papers, concepts, authors, texts = [], [], [], []
            for node, data in graph.nodes(data=True):
                kind = data.get("kind")
                if kind == "paper":
                    year = data.get("year")
                    papers.append((node, str(data.get("title") or ""),
                                   year if isinstance(year, int) and not isinstance(year, bool) else None,
                                   membership.get(node), central.get(node), paper_rows.get(node)))
                    words = [str(data.get("title") or ""), node, str(data.get("doi") or ""),
                             *(str(i) for i in data.get("ids") or ())]
                    texts.append((row[node], " ".join(w for w in words if w)))
                elif kind == "concept":
                    concepts.append((node, node_label(data, node), int(data.get("papers") or 0),
                                     membership.get(node), concept_rows.get(node)))
                    words = [node_label(data, node), *(str(a) for a in data.get("aliases") or ())]
                    texts.append((row[node], " ".join(words)))
                elif kind == "author":
                    authors.append((node, int(data.get("papers") or 0), membership.get(node)))
            db.executemany("INSERT INTO papers VALUES (?, ?, ?, ?, ?, ?)", papers)
            db.executemany("INSERT INTO concepts VALUES (?, ?, ?, ?, ?)", concepts)
            db.executemany("INSERT INTO authors VALUES (?, ?, ?)", authors)
            db.executemany("INSERT INTO search_text (rowid, text) VALUES (?, ?)", texts)
            db.executemany("INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           ((u, v, key, d.get("weight"), d.get("rank") if key == "mentions" else None,
                             d.get("score") if key == "mentions" else None,
                             d.get("count") if key == "co_occurs" else None,
                             _json(list(d.get("shared") or ())) if key == "related" else None)
                            for u, v, key, d in graph.edges(keys=True, data=True) if key in EDGE_KINDS))
            db.executemany("INSERT INTO communities VALUES (?, ?, ?, ?)",
                           ((int(row["id"]), str(row.get("label") or ""), len(row["papers"]), _json(row))
                            for row in rows))
            members = {int(row["id"]): set(row["papers"]) for row in rows if row["papers"]}
            db.executemany("INSERT INTO community_links VALUES (?, ?, ?)",
                           ((a, b, w) for (a, b), w in sorted(community_link_weights(graph, membership,
                                                                                     members).items())))
            db.executemany("INSERT INTO concept_ranking VALUES (?, ?, ?, ?)", _concept_ranking(graph))
            for scoring, ranked in _community_concepts(graph, analysis, scorings).items():
                db.executemany("INSERT INTO community_concepts VALUES (?, ?, ?, ?, ?, ?, ?)", ranked)
            db.executescript(INDEXES)
            db.execute("INSERT INTO search_text(search_text) VALUES ('optimize')")
            db.commit()
        finally:
            db.close()
        os.chmod(temporary, 0o666 & ~umask())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path
