"""Graph building: schema, related weights, co-occurrence, citations, JSON round trip."""

from __future__ import annotations

import math

import pytest

from kg.errors import GraphFileError
from kg.graph import build_graph, graph_from_json, graph_to_json, projection
from kg.models import Concept, Mention, Paper


def _paper(pid, refs=(), **ids):
    return Paper(id=pid, abstract=f"abstract of {pid}", title=pid.upper(), references=tuple(refs), ids=ids)


@pytest.fixture
def small():
    papers = [_paper("a", refs=["10.1/b", "missing"], doi="10.1/a"), _paper("b", doi="10.1/b"),
              _paper("c", refs=["a"]), _paper("d")]
    concepts = {f"c:{k}": Concept(f"c:{k}", k, (k,)) for k in ("rare", "common", "solo")}
    mentions = [
        Mention("a", "c:rare", 0.9, 1, "rare"), Mention("a", "c:common", 0.5, 2, "common"),
        Mention("b", "c:rare", 0.8, 1, "rare"), Mention("b", "c:common", 0.4, 2, "common"),
        Mention("c", "c:common", 0.7, 1, "common"), Mention("d", "c:common", 0.6, 1, "common"),
        Mention("d", "c:solo", 0.3, 2, "solo"),
    ]
    return papers, concepts, mentions


def test_nodes_carry_kind_and_attributes(small):
    g = build_graph(*small, metadata={"kg_version": "test"})
    assert g.graph["kg_version"] == "test"
    assert {n for n, d in g.nodes(data=True) if d["kind"] == "paper"} == {"a", "b", "c", "d"}
    assert g.nodes["c:common"]["papers"] == 4
    assert g.nodes["c:rare"]["papers"] == 2
    assert g.nodes["c:solo"]["aliases"] == ["solo"]
    assert g.nodes["a"]["title"] == "A" and g.nodes["a"]["title_derived"] is False
    assert g.edges["a", "c:rare", "mentions"] == {"kind": "mentions", "score": 0.9, "rank": 1,
                                                   "surface": "rare", "weight": 0.9}


def test_related_weight_favours_rare_shared_concepts(small):
    g = build_graph(*small)
    n = 4
    ab = g.edges["a", "b", "related"]
    assert ab["shared"] == ["c:rare", "c:common"]  # rarest first
    assert ab["weight"] == pytest.approx(round(math.log((n + 1) / 2) + math.log((n + 1) / 4), 4))
    cd = g.edges["c", "d", "related"]
    assert cd["shared"] == ["c:common"] and cd["n_shared"] == 1
    assert ab["weight"] > cd["weight"]
    related = projection(g, "related")
    assert related.number_of_nodes() == 4 and related.number_of_edges() == 6


def test_related_top_k_keeps_strongest_links(small):
    g = build_graph(*small, related_top_k=1)
    related = projection(g, "related")
    # a and b are each other's strongest neighbour; c and d pick their best too.
    assert related.has_edge("a", "b")
    assert related.number_of_edges() < 6


def test_co_occurrence_counts(small):
    g = build_graph(*small)
    assert g.edges["c:common", "c:rare", "co_occurs"]["count"] == 2
    assert g.edges["c:common", "c:solo", "co_occurs"]["count"] == 1
    assert not projection(g, "co_occurs").has_edge("c:rare", "c:solo")
    g2 = build_graph(*small, min_cooccurrence=2)
    assert projection(g2, "co_occurs").number_of_edges() == 1


def test_citations_resolve_by_id_and_doi(small):
    g = build_graph(*small)
    cites = projection(g, "cites")
    assert sorted(cites.edges()) == [("a", "b"), ("c", "a")]
    assert g.graph["unresolved_references"] == 1


def test_json_round_trip_is_byte_identical(small):
    text = graph_to_json(build_graph(*small))
    again = graph_to_json(graph_from_json(text))
    assert again == text
    assert graph_to_json(build_graph(*small)) == text


def test_graph_from_json_rejects_non_graphs():
    with pytest.raises(GraphFileError, match="not a kg graph"):
        graph_from_json("{oops")
    with pytest.raises(GraphFileError, match="no paper nodes"):
        graph_from_json('{"directed": true, "multigraph": true, "graph": {}, "nodes": [], "edges": []}')
