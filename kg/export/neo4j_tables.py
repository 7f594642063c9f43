"""A kg graph as the rows Neo4j stores: nodes by label and relationships by type, with the
analysis's communities and PageRank (:func:`graph_tables`). :mod:`kg.export.neo4j` writes them
through a driver, :mod:`kg.export.neo4j_admin` as files for ``neo4j-admin import``.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from kg.analyze import analysis_for
from kg.analyze.result import saved_pagerank
from kg.citations import coauthorship, cocitation, coupling

__all__ = ["NodeTable", "RelationshipTable", "graph_tables", "label_of", "type_of", "LABELS", "TYPES", "DERIVED",
           "COMMUNITY_CONCEPTS", "MARKER", "marked"]

LABELS = {"paper": "Paper", "concept": "Concept", "author": "Author", "venue": "Venue",
          "community": "Community"}
TYPES = {"mentions": "MENTIONS", "related": "RELATED_TO", "co_occurs": "CO_OCCURS_WITH",
         "cites": "CITES", "wrote": "WROTE", "published_in": "PUBLISHED_IN"}
DERIVED = (("cocitation", "CO_CITED_WITH", "Paper"), ("coupling", "COUPLED_WITH", "Paper"),
           ("coauthors", "CO_AUTHOR_OF", "Author"))  # (kg.citations projection, type, label of both ends)
COMMUNITY_CONCEPTS = 5  # top_concepts of a :Community node (the report lists as many)
# The property every node and relationship kg writes carries (``kg: true``): a push counts,
# prunes and updates only what has it, so nodes and relationships added by hand are left alone.
MARKER = "kg"


def marked(props: Mapping) -> dict:
    """``props`` with kg's marker (:data:`MARKER`)."""
    return {**props, MARKER: True}


def label_of(kind: str) -> str:
    """Neo4j label of a node kind: ``paper`` -> ``Paper``, ``foo_bar`` -> ``FooBar``."""
    return LABELS.get(kind) or "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", kind) if part)


def type_of(kind: str) -> str:
    """Neo4j relationship type of an edge kind: ``co_occurs`` -> ``CO_OCCURS_WITH``."""
    return TYPES.get(kind) or re.sub(r"[^A-Za-z0-9]+", "_", kind).strip("_").upper()


@dataclass(frozen=True)
class NodeTable:
    """Rows ``{id, props}`` of one label, sorted by id."""

    label: str
    rows: list[dict]


@dataclass(frozen=True)
class RelationshipTable:
    """Rows ``{source, target, props}`` of one relationship type between two labels."""

    type: str
    source: str
    target: str
    rows: list[dict]

    @property
    def name(self) -> str:
        return f"{self.type}({self.source}->{self.target})"


def _value(value: object) -> object:
    """A Neo4j property value: scalars and lists of one scalar type stay (nulls dropped from
    lists); maps and mixed lists, which Neo4j cannot store, become JSON text."""
    if isinstance(value, (list, tuple)):
        items = [v for v in value if v is not None]
        if len({type(v) for v in items}) <= 1 and not any(isinstance(v, (dict, list, tuple)) for v in items):
            return items
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value


def _props(data: dict, **extra: object) -> dict:
    merged = {**data, **extra}
    return {k: _value(v) for k, v in sorted(merged.items()) if k != "kind" and v is not None}


def _analytics(graph: nx.MultiDiGraph, analysis: Mapping) -> tuple[dict[str, dict], list[dict]]:
    """Per-node properties (``pagerank``; ``community`` for papers) and the Community rows."""
    extra: dict[str, dict] = defaultdict(dict)
    for node, score in saved_pagerank(analysis).items():
        if node in graph:
            extra[node]["pagerank"] = score
    rows = []
    for row in analysis["communities"]:
        index = int(row["id"])
        for paper in row["papers"]:
            extra[paper]["community"] = index
        rows.append({"id": index, "props": {
            "id": index, "size": len(row["papers"]), "label": row["label"],
            "top_concepts": [c["id"] for c in row["concepts"][:COMMUNITY_CONCEPTS]],
        }})
    for name, result in sorted((analysis.get("citation_maps") or {}).items()):
        for cluster in result.get("clusters") or ():
            for paper in cluster["papers"]:
                if paper in graph:
                    extra[paper][f"{name}_cluster"] = int(cluster["id"])
    return extra, rows


def _derived_rows(graph: nx.MultiDiGraph) -> dict[tuple[str, str, str], list[dict]]:
    """Co-citation, coupling and co-authorship pairs (:data:`DERIVED`) as relationship rows."""
    project = {"cocitation": cocitation, "coupling": coupling, "coauthors": coauthorship}
    out = {}
    for name, rel_type, label in DERIVED:
        rows = [{"source": min(u, v), "target": max(u, v), "props": {"count": int(d["count"]), "salton": d["salton"]}}
                for u, v, d in project[name](graph).edges(data=True)]
        if rows:
            out[(rel_type, label, label)] = rows
    return out


def graph_tables(graph: nx.MultiDiGraph, analysis: Mapping | None = None
                 ) -> tuple[list[NodeTable], list[RelationshipTable]]:
    """The rows a push writes: nodes by label and relationships by type, with analytics.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (:mod:`kg.graph`).
    analysis : mapping, optional
        The build's analysis (:mod:`kg.analyze.result`, ``analysis.json``): communities
        (numbered, labeled) and PageRank exactly as the report and the page show them.
        Without it, the graph is analyzed with the parameters it was built with.

    Returns
    -------
    (list of NodeTable, list of RelationshipTable)
        Sorted by label / type, rows sorted by id / endpoints: equal graphs give equal tables.
    """
    extra, community_rows = _analytics(graph, analysis_for(graph, analysis))
    nodes: dict[str, list[dict]] = defaultdict(list)
    for node, data in graph.nodes(data=True):
        props = _props(data, **extra.get(node, {}), id=node)
        nodes[label_of(str(data.get("kind", "node")))].append({"id": node, "props": props})
    if community_rows:
        nodes["Community"] = community_rows
    rels: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for u, v, key, data in graph.edges(keys=True, data=True):
        kind = str(data.get("kind", key))
        ends = (label_of(str(graph.nodes[u].get("kind", "node"))), label_of(str(graph.nodes[v].get("kind", "node"))))
        rels[(type_of(kind), *ends)].append({"source": u, "target": v, "props": _props(data)})
    for key, rows in _derived_rows(graph).items():
        rels[key].extend(rows)
    node_tables = [NodeTable(label, sorted(rows, key=lambda r: str(r["id"]))) for label, rows in sorted(nodes.items())]
    rel_tables = [RelationshipTable(t, s, e, sorted(rows, key=lambda r: (str(r["source"]), str(r["target"]))))
                  for (t, s, e), rows in sorted(rels.items())]
    return node_tables, rel_tables
