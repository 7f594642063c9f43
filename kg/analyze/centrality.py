"""Centralities on the projection that fits each question."""

from __future__ import annotations

import networkx as nx

from kg.graph import projection

__all__ = ["central_papers", "central_concepts"]


def _pagerank(graph: nx.Graph, *, weight: str = "weight") -> list[tuple[str, float]]:
    if graph.number_of_nodes() == 0:
        return []
    scores = nx.pagerank(graph, weight=weight, max_iter=200, tol=1e-10)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def central_papers(graph: nx.MultiDiGraph, *, weight: str = "weight") -> list[tuple[str, float]]:
    """Papers by weighted PageRank on the ``related`` projection, highest first."""
    return _pagerank(projection(graph, "related"), weight=weight)


def central_concepts(graph: nx.MultiDiGraph, *, weight: str = "weight") -> list[tuple[str, float]]:
    """Concepts by weighted PageRank on the ``co_occurs`` projection, highest first."""
    return _pagerank(projection(graph, "co_occurs"), weight=weight)
