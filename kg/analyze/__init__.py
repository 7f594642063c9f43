"""Analytics over the kg graph: pure functions from a graph to plain tables.

:func:`analyze` runs the standard set (centralities, communities with labels) and
returns a JSON-safe dict that :mod:`kg.report` renders.
"""

from __future__ import annotations

import networkx as nx

from kg.analyze.centrality import central_concepts, central_papers
from kg.analyze.communities import detect_communities, label_communities
from kg.graph import concepts_of, papers_of, projection

__all__ = ["analyze", "central_papers", "central_concepts", "detect_communities", "label_communities"]


def analyze(graph: nx.MultiDiGraph, *, seed: int = 42, resolution: float = 1.0, top: int = 15) -> dict:
    """The corpus summary, top concepts, central nodes and labeled communities.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (see :mod:`kg.graph`).
    seed : int
        Seed for community detection.
    resolution : float
        Louvain resolution: above 1 gives more, smaller communities.
    top : int
        Rows per table.
    """
    papers = papers_of(graph)
    concepts = concepts_of(graph)
    related = projection(graph, "related")
    counts = {kind: 0 for kind in ("mentions", "related", "co_occurs", "cites")}
    for _, _, key in graph.edges(keys=True):
        counts[key] = counts.get(key, 0) + 1
    years = sorted({graph.nodes[p]["year"] for p in papers if graph.nodes[p].get("year") is not None})
    top_concepts = sorted(concepts, key=lambda c: (-graph.nodes[c]["papers"], c))[:top]
    communities = detect_communities(related, seed=seed, resolution=resolution)
    labels = label_communities(graph, communities)
    paper_rank = central_papers(graph)
    return {
        "summary": {
            "papers": len(papers),
            "concepts": len(concepts),
            "edges": counts,
            "shared_concepts": sum(1 for c in concepts if graph.nodes[c]["papers"] > 1),
            "years": [years[0], years[-1]] if years else None,
            "unresolved_references": graph.graph.get("unresolved_references", 0),
        },
        "top_concepts": [
            {"id": c, "name": graph.nodes[c]["name"], "papers": graph.nodes[c]["papers"]} for c in top_concepts
        ],
        "central_papers": [
            {"id": p, "title": graph.nodes[p]["title"], "pagerank": round(score, 5)}
            for p, score in paper_rank[:top]
        ],
        "central_concepts": [
            {"id": c, "name": graph.nodes[c]["name"], "pagerank": round(score, 5)}
            for c, score in central_concepts(graph)[:top]
        ],
        "communities": [
            {
                "id": index,
                "size": len(members),
                "label": ", ".join(graph.nodes[c]["name"] for c in labels[index][:3]),
                "top_concepts": labels[index],
                "papers": sorted(members, key=lambda p: (-dict(paper_rank).get(p, 0), p)),
            }
            for index, members in enumerate(communities)
        ],
    }
