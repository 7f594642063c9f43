"""Graphs and parameters several test modules share (a helper module, not a test module)."""

from __future__ import annotations

from collections import defaultdict

import networkx as nx

from kg.graph import build_graph, papers_of, projection
from kg.ingest import load_corpus
from kg.models import Keyphrase
from kg.normalize import normalize_concepts


def keyphrase_graph(path):
    """The kg graph of a corpus file with its records' own keyphrases as concepts (no model)."""
    papers = load_corpus([str(path)]).papers
    found = {p.id: [Keyphrase(k, round(1 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)] for p in papers}
    return build_graph(papers, *normalize_concepts(papers, found))


def mentions_by_paper(graph) -> dict[str, set[str]]:
    """Paper id -> the concepts it mentions."""
    by_paper = defaultdict(set)
    for u, v, key in graph.edges(keys=True):
        if key == "mentions":
            by_paper[u].add(v)
    return by_paper


def query_parameters(graph) -> dict[str, dict]:
    """Parameters that make each curated Cypher query (cypher/*.cypher) non-trivial on the example graph."""
    mentions = mentions_by_paper(graph)
    paper = max(papers_of(graph), key=lambda p: (sum(len(mentions[p] & mentions[q]) for q in mentions if q != p), p))
    co = projection(graph, "co_occurs")
    hub = max(co, key=lambda c: (co.degree(c), c))
    for source in sorted(co, key=lambda c: (-co.degree(c), c)):  # the best-linked concept with a path of 2+ hops
        distance = nx.single_source_shortest_path_length(co, source, cutoff=8)
        far = max(distance, key=lambda c: (distance[c], c))
        if distance[far] >= 2:
            break
    assert distance[far] >= 2
    return {
        "top_concepts": {"limit": 15},
        "similar_papers": {"paper": paper, "limit": 10},
        "concept_path": {"source": graph.nodes[source]["name"].upper(), "target": far},
        "community": {"community": 1, "limit": 50},
        "concept_neighbourhood": {"concept": hub, "limit": 12},
        "most_cited": {"limit": 10},
        "concepts_by_year": {"per_year": 3},
    }
