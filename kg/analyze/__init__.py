"""Analytics over the kg graph: pure functions from a graph to plain tables.

One module per question:

* :mod:`~kg.analyze.centrality`: centralities of papers, concepts, the bipartite graph, citations;
* :mod:`~kg.analyze.communities`: Louvain/Leiden communities, modularity, distinctive labels;
* :mod:`~kg.analyze.thematic`: the Callon thematic map of concept clusters;
* :mod:`~kg.analyze.trends`: concept trends per year and Kleinberg bursts;
* :mod:`~kg.analyze.related`: a paper's nearest papers, explained;
* :mod:`~kg.analyze.citation_maps`: clusters of the co-citation and coupling networks;
* :mod:`~kg.analyze.gds`: the same centralities and communities computed in Neo4j (Graph Data Science).

:func:`analyze` runs the standard set and returns a JSON-safe dict (every table's rows
carry node ids) that :mod:`kg.report` renders. A row's ``name`` (and each label) shows the
node as readers see it (:func:`kg.graph.node_label`): a concept's name with its acronym,
"collaborative filtering (CF)"; the graph's ``name`` attribute is the plain phrase. Node and edge kinds it does not use
(authors, venues, …) are ignored. Its NetworkX calls go to a NetworkX backend when given one
(``backend``, :mod:`kg.nxbackend`); its graph algorithms go to Neo4j when given a
:class:`~kg.analyze.gds.GdsEngine` (``engine``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import contextmanager

import networkx as nx

from kg.analyze.centrality import (
    EXACT_LIMIT,
    SAMPLES,
    betweenness_method,
    central_concepts,
    pagerank,
    edge_centrality_table,
    edge_eigenvector,
    central_papers,
    centrality_table,
    citation_table,
)
from kg.analyze.citation_maps import citation_map
from kg.analyze.communities import (
    central_members,
    detect_communities,
    distinctive_concepts,
    label_communities,
    modularity,
    specificity,
)
from kg.analyze.related import find_paper, related_papers
from kg.analyze.descriptive import descriptive
from kg.analyze.thematic import community_map, thematic_map
from kg.analyze.trends import MIN_TREND_PAPERS, concept_bursts, concept_trends, papers_per_year, sparse_years
from kg.analyze.result import check_analysis, saved_parameters
from kg.citations import cocitation, coupling
from kg.defaults import DETAIL, RESOLUTION, SEED
from kg.errors import NodeNotFoundError, OptionError
from kg.graph import node_label, projection
from kg.nxbackend import check_backend

__all__ = [
    "analyze",
    "analysis_for",
    "community_table",
    "saved_parameters",
    "paper_communities",
    "community_rows",
    "concept_rows",
    "community_concepts",
    "central_papers",
    "central_concepts",
    "centrality_table",
    "citation_table",
    "detect_communities",
    "distinctive_concepts",
    "label_communities",
    "modularity",
    "thematic_map",
    "community_map",
    "descriptive",
    "concept_trends",
    "concept_bursts",
    "find_paper",
    "related_papers",
    "citation_map",
    "citation_maps",
]


def _r(value: float) -> float:
    """Six significant digits: readable, and stable across platforms' last bits."""
    return float(f"{value:.6g}")


def _name(graph: nx.MultiDiGraph, node: str) -> str:
    """How tables and labels show a node: a concept with its acronym (:func:`kg.graph.node_label`)."""
    return node_label(graph.nodes[node], node)


def _summary(graph: nx.MultiDiGraph) -> dict:
    kinds = Counter(d.get("kind") for _, d in graph.nodes(data=True))
    edges = {kind: 0 for kind in ("mentions", "related", "co_occurs", "cites")}
    for _, _, key in graph.edges(keys=True):
        edges[key] = edges.get(key, 0) + 1
    years = list(papers_per_year(graph))
    return {
        "papers": kinds.get("paper", 0),
        "concepts": kinds.get("concept", 0),
        "other_nodes": {k: v for k, v in sorted(kinds.items(), key=lambda kv: str(kv[0]))
                        if k not in ("paper", "concept")},
        "edges": edges,
        "shared_concepts": sum(1 for _, d in graph.nodes(data=True)
                               if d.get("kind") == "concept" and d.get("papers", 0) > 1),
        "years": [years[0], years[-1]] if years else None,
        "dated_papers": sum(papers_per_year(graph).values()),
        "unresolved_references": graph.graph.get("unresolved_references", 0),
    }


def _centrality_rows(graph: nx.MultiDiGraph, table: list[dict], top: int) -> list[dict]:
    rows = []
    for row in table[:top]:
        out = {"id": row["id"], "kind": graph.nodes[row["id"]].get("kind"), "name": _name(graph, row["id"])}
        out.update({k: (_r(v) if isinstance(v, float) else v) for k, v in row.items() if k != "id"})
        rows.append(out)
    return rows


def _distribution(graph: nx.Graph) -> list[list[int]]:
    counts = Counter(d for _, d in graph.degree())
    return [[degree, n] for degree, n in sorted(counts.items())]


def _table_distribution(table: list[dict]) -> list[list[int]]:
    """:func:`_distribution` of the graph a centrality table has a row for each node of."""
    counts = Counter(int(row["degree"]) for row in table)
    return [[degree, n] for degree, n in sorted(counts.items())]


def _leading_concepts(graph: nx.MultiDiGraph, concepts, top: int) -> list[str]:
    """The ``top`` concepts by papers weighted by :func:`~kg.analyze.communities.specificity` (a one-word
    ordinary word counts half when choosing), listed by their papers (then id), as their bars show them."""
    chosen = sorted(concepts, key=lambda c: (-graph.nodes[c].get("papers", 0) * specificity(c), c))[:top]
    return sorted(chosen, key=lambda c: (-graph.nodes[c].get("papers", 0), c))


def concept_rows(graph: nx.MultiDiGraph, *, top: int = 20, backend: str | None = None) -> list[dict]:
    """The most frequent concepts: ``id``, ``name``, ``papers``, ``co_occurs`` (degree), ``pagerank``.

    PageRank is on the weighted co-occurrence graph. The concepts are chosen by papers
    weighted by :func:`~kg.analyze.communities.specificity` (a one-word ordinary word such as
    "user" counts half), so specific multi-word terms make the table, and listed by papers,
    then id.
    """
    cooc = projection(graph, "co_occurs")
    ranks = pagerank(cooc, backend=check_backend(backend))
    concepts = _leading_concepts(graph, cooc.nodes, top)
    return [{"id": c, "name": _name(graph, c), "papers": graph.nodes[c].get("papers", 0),
             "co_occurs": cooc.degree(c), "pagerank": _r(ranks[c])} for c in concepts]


def community_concepts(graph: nx.MultiDiGraph, community: int, *, seed: int = SEED, resolution: float = RESOLUTION,
                       method: str = "louvain", scoring: str = "ctfidf", top: int = 20,
                       analysis: Mapping | None = None) -> dict:
    """Paper community number ``community`` (as numbered in the report) with its distinctive concepts.

    Returns ``{"id", "size", "label", "concepts", "central_papers", "papers"}`` (see
    :func:`community_rows`). ``analysis``: the build's (:mod:`kg.analyze.result`); when it was
    made with this ``seed``, ``resolution`` and ``method``, its communities and numbers
    are used (an updated build numbers them as before, not largest first). Raises
    :class:`~kg.errors.NodeNotFoundError` for an unknown number.
    """
    made = (analysis or {}).get("parameters") or {}
    if analysis is not None and (made.get("seed"), made.get("resolution"), made.get("method", "louvain")) == (
            seed, resolution, method):
        related = projection(graph, "related")
        communities = [set(row["papers"]) for row in check_analysis(graph, analysis)["communities"]]
    else:
        related, communities = paper_communities(graph, method=method, seed=seed, resolution=resolution)
    if not 0 <= community < len(communities):
        raise NodeNotFoundError(f"no community {community}: communities are numbered 0 to {len(communities) - 1} "
                                f"(seed {seed}, resolution {resolution}, {method})")
    return community_rows(graph, related, communities, scoring=scoring, top=top, top_papers=10)[community]


def paper_communities(graph: nx.MultiDiGraph, *, method: str = "louvain", seed: int = SEED,
                      resolution: float = RESOLUTION) -> tuple[nx.Graph, list[set]]:
    """The ``related`` projection and its communities (numbered as :func:`analyze` numbers them)."""
    related = projection(graph, "related")
    return related, detect_communities(related, method=method, seed=seed, resolution=resolution)


def community_rows(graph: nx.MultiDiGraph, related: nx.Graph, communities: list[set], *,
                   scoring: str = "ctfidf", top: int = 5, top_papers: int = 5) -> list[dict]:
    """One row per community: ``id``, ``size``, ``label``, ``concepts``, ``central_papers``, ``papers``.

    ``concepts`` are the distinctive concepts with their score and paper count;
    ``central_papers`` the members with the strongest links inside the community;
    ``papers`` every member id, most central first.
    """
    labels = distinctive_concepts(graph, communities, scoring=scoring, top=top)
    rows = []
    for index, (members, concepts) in enumerate(zip(communities, labels)):
        ranked = central_members(related, members)
        rows.append({
            "id": index,
            "size": len(members),
            "label": ", ".join(_name(graph, c["id"]) for c in concepts[:3]),
            "concepts": [{"id": c["id"], "name": _name(graph, c["id"]), "score": _r(c["score"]),
                          "papers": c["papers"]} for c in concepts],
            "central_papers": [{"id": p, "title": _name(graph, p), "strength": _r(s)}
                               for p, s in ranked[:top_papers]],
            "papers": [p for p, _ in ranked],
        })
    return rows


def citation_maps(graph: nx.MultiDiGraph, *, method: str = "louvain", seed: int = SEED,
                  resolution: float = RESOLUTION, top: int = 5, backend: str | None = None) -> dict:
    """The co-citation and bibliographic-coupling maps of ``graph`` (:func:`~kg.analyze.citation_maps.citation_map`).

    ``{"cocitation": ..., "coupling": ...}``; a map of a corpus without citations or
    references has no clusters.
    """
    return {name: citation_map(graph, project(graph), by=name, method=method, seed=seed, resolution=resolution,
                               top=top, backend=backend)
            for name, project in (("cocitation", cocitation), ("coupling", coupling))}


@contextmanager
def _timed(timings: dict | None, step: str):
    started = time.perf_counter()
    yield
    if timings is not None:
        timings[step] = round(time.perf_counter() - started, 3)


def analyze(graph: nx.MultiDiGraph, *, seed: int = SEED, resolution: float = RESOLUTION, method: str = "louvain",
            scoring: str = "ctfidf", top: int = 15, samples: int = SAMPLES, exact_limit: int = EXACT_LIMIT,
            min_trend_papers: int = MIN_TREND_PAPERS, timings: dict | None = None, backend: str | None = None,
            engine=None) -> dict:
    """Every standard table of a kg graph, as JSON-safe plain data.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (see :mod:`kg.graph`).
    seed : int
        Seed for communities, concept clusters and sampled betweenness.
    resolution : float
        Community resolution: above 1 gives more, smaller communities.
    method : {"louvain", "leiden"}
    scoring : {"ctfidf", "loglik"}
        How community labels rank concepts.
    top : int
        Rows per table.
    samples, exact_limit : int
        Betweenness is exact up to ``exact_limit`` nodes, else sampled from ``samples`` sources.
    min_trend_papers : int
        Years with fewer papers are left out of the concept trends (a share of a handful of
        papers is noise); ``trends["hidden_years"]`` lists them.
    timings : dict, optional
        Filled with the seconds each step took (left out of the result so that it stays
        identical from run to run).
    backend : str, optional
        A NetworkX backend (e.g. ``"parallel"``, ``"rustworkx"``) for the NetworkX calls that it
        implements (:mod:`kg.nxbackend`); the results are NetworkX's, computed elsewhere.
        Checked first: an unknown or broken backend raises :class:`~kg.errors.OptionError`.
    engine : kg.analyze.gds.GdsEngine, optional
        Compute the centralities (PageRank, betweenness, degrees; the eigenvector stays kg's),
        the citation PageRank and the paper communities (Leiden: ``method`` must be
        ``"leiden"``) in Neo4j with the Graph Data Science library; the database must hold
        ``graph`` (``kg push``), which is checked first. The tables then have the same shape;
        see :mod:`kg.analyze.gds` for how close the numbers are. ``parameters`` records
        ``engine``.

    Returns
    -------
    dict
        ``parameters``, ``summary``, ``descriptive`` (:func:`~kg.analyze.descriptive.descriptive`),
        ``top_concepts``, ``central_papers``,
        ``central_concepts``, ``bipartite``, ``citations``, ``communities``,
        ``modularity``, ``thematic_map``, ``trends``, ``bursts``, ``degree_distribution``,
        ``citation_maps`` (see :func:`citation_maps`).
    """
    options = {"seed": seed, "exact_limit": exact_limit, "samples": samples}
    backend = check_backend(backend)
    if engine is not None:
        if method != "leiden":
            raise OptionError("method", f"the {engine.name} engine finds communities with Leiden, not {method!r}")
        with _timed(timings, f"{engine.name}: check the graph in Neo4j"):
            engine.check_graph(graph)

    def between(graph_or_n) -> str:
        how = betweenness_method(graph_or_n, exact_limit=exact_limit, samples=samples, seed=seed)
        return how.replace(" sources,", f" sources drawn by {engine.name.upper()},") if engine is not None else how

    def table(kind: str, projected: nx.Graph | None = None, *, hops: bool = False) -> list[dict]:
        if engine is not None:  # every measure in Neo4j but the eigenvector (kg.analyze.gds says why)
            return engine.centrality_table(kind, eigenvector=edge_eigenvector(graph, kind), hops=hops, **options)
        if projected is None and backend is None:  # straight from the edges: no NetworkX projection
            return edge_centrality_table(graph, kind, hops=hops, **options)
        return centrality_table(projected or projection(graph, kind, attrs=("weight",)), backend=backend, hops=hops,
                                **options)

    with _timed(timings, "summary"):
        summary = _summary(graph)
        concepts = sorted((n for n, d in graph.nodes(data=True) if d.get("kind") == "concept"),
                          key=lambda c: (-graph.nodes[c].get("papers", 0) * specificity(c), c))
        production = descriptive(graph, top=top)
    # One projection at a time (weights only), each dropped once its tables are made: on a
    # 25k-paper corpus the three together would take 200 MB more at once.
    betweenness_methods: dict[str, str] = {}
    with _timed(timings, "centrality: papers (related)"):
        related = projection(graph, "related", attrs=("weight",))
        paper_table = table("related", related)
        betweenness_methods["papers"] = between(related)
    with _timed(timings, "centrality: concepts (co_occurs)"):
        # No projection is made here: the table reads the edges (or, with an engine, the database's).
        concept_table = table("co_occurs")
        betweenness_methods["concepts"] = between(len(concept_table))
        concept_degrees = _table_distribution(concept_table)
    with _timed(timings, "centrality: bipartite (mentions)"):
        # Betweenness of the two-mode graph counts links (a path alternates paper and concept),
        # as for two-mode networks in the literature: a third of the time of weighted paths.
        bipartite_table = table("mentions", hops=True)
        betweenness_methods["bipartite"] = between(len(bipartite_table)) + ", hop counts"
    with _timed(timings, "centrality: citations"):
        citations = engine.citation_table() if engine is not None else citation_table(graph, backend=backend)
        # most cited first (local citations), as bibliometrix and CiteSpace list them; PageRank beside
        citations = sorted(citations, key=lambda r: (-r["cited_by"], -r["pagerank"], r["id"]))
    with _timed(timings, f"communities ({method})"):
        if engine is not None:
            communities = engine.communities(method=method, seed=seed, resolution=resolution)
        else:
            communities = detect_communities(related, method=method, seed=seed, resolution=resolution,
                                             backend=backend)
        q = modularity(related, communities, resolution=resolution, backend=backend)
    with _timed(timings, f"community labels ({scoring})"):
        community_table = community_rows(graph, related, communities, scoring=scoring, top=DETAIL)
    with _timed(timings, "thematic map"):
        themes = community_map(graph, community_table)
    with _timed(timings, "trends and bursts"):
        trends = concept_trends(graph, concepts[:8]) if summary["years"] else None
        if trends is not None:
            trends["min_papers"] = min_trend_papers
            trends["hidden_years"] = sparse_years(trends, min_trend_papers)
            for row in trends["concepts"]:
                row["name"] = _name(graph, row["id"])
        bursts = concept_bursts(graph, top=top) if summary["years"] else []
        for row in bursts:
            row["name"] = _name(graph, row["id"])
    with _timed(timings, "citation maps"):
        maps = citation_maps(graph, method=method, seed=seed, resolution=resolution, backend=backend)
    ranks = {name: {row["id"]: round(float(row["pagerank"]), 10)
                    for row in sorted(table, key=lambda r: str(r["id"]))}
             for name, table in (("papers", paper_table), ("concepts", concept_table))}
    parameters = {"seed": seed, "resolution": resolution, "method": method, "scoring": scoring, "top": top,
                  "betweenness": betweenness_methods}
    if engine is not None:
        parameters["engine"] = engine.description
    return {
        "parameters": parameters,
        "summary": summary,
        "top_concepts": [{"id": c, "name": _name(graph, c), "papers": graph.nodes[c].get("papers", 0)}
                         for c in _leading_concepts(graph, concepts[:top], top)],
        "descriptive": production,
        "central_papers": _centrality_rows(graph, paper_table, top),
        "central_concepts": _centrality_rows(graph, concept_table, top),
        "bipartite": _centrality_rows(graph, bipartite_table, top),
        "citations": [{"id": r["id"], "name": _name(graph, r["id"]), "cited_by": r["cited_by"],
                       "cites": r["cites"], "pagerank": _r(r["pagerank"])} for r in citations[:top]],
        "communities": community_table,
        "pagerank": ranks,
        "modularity": _r(q),
        "thematic_map": [{**row, "centrality": _r(row["centrality"]), "density": _r(row["density"])}
                         for row in themes],
        "trends": trends,
        "bursts": [{**row, "weight": _r(row["weight"])} for row in bursts],
        "degree_distribution": {"papers": _distribution(related), "concepts": concept_degrees},
        "citation_maps": maps,
    }


def analysis_for(graph: nx.MultiDiGraph, analysis: Mapping | None = None, *, seed: int | None = None,
                 resolution: float | None = None) -> Mapping:
    """``analysis`` checked against ``graph``; without one, the analysis of ``graph``.

    The one place a consumer falls back to computing (see :mod:`kg.analyze.result`), with
    ``seed`` and ``resolution`` (default: the ones the graph was built with).
    """
    if analysis is not None:
        return check_analysis(graph, analysis)
    saved = saved_parameters(graph)
    return analyze(graph, seed=saved["seed"] if seed is None else seed,
                   resolution=saved["resolution"] if resolution is None else resolution)


def community_table(graph: nx.MultiDiGraph, *, analysis: Mapping | None = None,
                    communities: Mapping[str, int] | None = None,
                    community_labels: Sequence[str] | None = None, seed: int | None = None,
                    resolution: float | None = None) -> list[dict]:
    """One row per community number (``id``, ``size``, ``label``, ``concepts``, ``papers``), for a view.

    From ``analysis`` when given (the usual case). A caller holding only a membership
    (``communities``: paper -> number, optionally ``community_labels``) gets rows
    labeled from it; with neither, the communities found as :func:`kg.analyze.analyze`
    finds them (``seed``, ``resolution``: default, the graph's own).
    """
    if analysis is not None:
        return [dict(row) for row in check_analysis(graph, analysis)["communities"]]
    if communities is None:
        saved = saved_parameters(graph)
        related, groups = paper_communities(graph, seed=saved["seed"] if seed is None else seed,
                                            resolution=saved["resolution"] if resolution is None else resolution)
    else:
        given = {str(n): int(k) for n, k in communities.items() if n in graph and int(k) >= 0}
        groups = [set() for _ in range(max(given.values(), default=-1) + 1)]
        for node, k in given.items():
            groups[k].add(node)
        related = projection(graph, "related")
    rows = community_rows(graph, related, groups, top=DETAIL)
    for row, label in zip(rows, community_labels or ()):
        row["label"] = str(label)
    return rows
