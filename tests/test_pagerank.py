"""kg.pagerank: NetworkX's PageRank in NumPy alone, the same numbers as NetworkX's and as the SciPy
version the analysis used (kg.analyze.centrality)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from conftest import EXAMPLE, HashEmbedder
from kg.analyze.centrality import adjacency, pagerank_of_matrix
from kg.export.selection import _base_view
from kg.graphfile import load_graph
from kg.pagerank import pagerank_of_edges, pagerank_of_graph
from kg.pipeline import BuildOptions, build


def _karate(seed: int) -> nx.Graph:
    """Zachary's karate club (a real network) with seeded weights, a node of its own and a pair apart."""
    graph = nx.karate_club_graph()
    rng = random.Random(seed)
    for u, v in graph.edges:
        graph.edges[u, v]["weight"] = rng.choice([0.5, 1.0, 2.0, 3.25])
    graph.add_node("alone")
    graph.add_edge("a", "b")  # no weight: 1
    return graph


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pagerank_equals_networkx_and_the_scipy_version(seed):
    graph = _karate(seed)
    ranks = pagerank_of_graph(graph, "weight", max_iter=200, tol=1e-8)
    assert ranks == pagerank_of_matrix(*reversed(adjacency(graph, "weight")), max_iter=200, tol=1e-8)
    expected = nx.pagerank(graph, weight="weight", max_iter=200, tol=1e-8)
    assert list(ranks) == list(graph)
    assert max(abs(ranks[n] - expected[n]) for n in graph) < 1e-15
    assert abs(sum(ranks.values()) - 1) < 1e-12
    assert ranks["alone"] < min(ranks[n] for n in range(34))  # no links: the least


def test_pagerank_of_the_real_graph_pages(tmp_path):
    """On the bipartite and papers views of a real kg build (the example corpus): the page's PageRank
    is NetworkX's to the last bit."""
    build([EXAMPLE], tmp_path / "out", BuildOptions(html=False), embedder=HashEmbedder())
    graph = load_graph(tmp_path / "out")
    for view in ("bipartite", "papers", "concepts"):
        shown = _base_view(graph, view)
        assert shown.number_of_edges() > 20, view
        ranks = pagerank_of_graph(shown, "weight", max_iter=200, tol=1e-8)
        assert ranks == nx.pagerank(shown, weight="weight", max_iter=200, tol=1e-8), view


def test_no_nodes_and_no_convergence():
    assert pagerank_of_edges([], [], [], []) == {}
    assert pagerank_of_graph(nx.Graph()) == {}
    with pytest.raises(nx.PowerIterationFailedConvergence):
        pagerank_of_graph(nx.path_graph(30), max_iter=2)
