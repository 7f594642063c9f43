"""Graph building: schema, related weights, co-occurrence, citations, JSON round trip."""

from __future__ import annotations

import math

import pytest

from kg.errors import GraphFileError
from kg.graph import build_graph, projection
from kg.graphfile import graph_from_json, graph_to_json
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
    # a cites b: the citation counts like a concept no other paper has
    assert ab["weight"] == pytest.approx(round(math.log((n + 1) / 2) + math.log((n + 1) / 4)
                                               + math.log(n + 1), 4))
    cd = g.edges["c", "d", "related"]
    assert cd["shared"] == ["c:common"] and cd["n_shared"] == 1
    assert ab["weight"] > cd["weight"]
    related = projection(g, "related")
    assert related.number_of_nodes() == 4 and related.number_of_edges() == 6


def test_related_top_k_keeps_strongest_links(small):
    g = build_graph(*small, related_top_k=1)
    related = projection(g, "related")
    # a and b are each other's strongest neighbour (both concepts and a citation); c's strongest is a
    # (c cites a); d shares only "common" with each of the others, a tie the smallest id wins. An
    # edge stays when it is in the top list of either end, so b-c, b-d and c-d (all 0.223) go.
    assert sorted(tuple(sorted(edge)) for edge in related.edges()) == [("a", "b"), ("a", "c"), ("a", "d")]
    full = projection(build_graph(*small), "related")
    assert full["a"]["c"]["weight"] > full["b"]["c"]["weight"] == full["c"]["d"]["weight"]


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


def _edited(small, edit) -> str:
    """graph.json of the small graph after ``edit(data)`` changed its decoded JSON."""
    import json

    data = json.loads(graph_to_json(build_graph(*small, metadata={"parameters": '{"seed": 1}'})))
    data = edit(data) or data
    return json.dumps(data)


def _drop_kind(d):
    del d["nodes"][0]["kind"]


def _dangling(d):
    d["edges"][0]["target"] = "nowhere"


def _string_weight(d):
    d["edges"][0]["weight"] = "heavy"


def _bad_year(d):
    d["nodes"][0]["year"] = 10**30


def _bad_resolution(d):
    d["graph"]["parameters"] = '{"resolution": "high"}'


@pytest.mark.parametrize("edit, message", [
    (_drop_kind, r"graph.json: node 0 \('a'\): 'kind' must be one of paper"),
    (_dangling, r"edge 0 \(\"a\" -> \"nowhere\"\): \"nowhere\" is not a node"),
    (_string_weight, r"edge 0 .*'weight' must be a finite number, not \"heavy\""),
    (_bad_year, r"node 0 \('a'\): 'year' must be a whole number"),
    (_bad_resolution, r"resolution must be a finite number > 0"),
    (lambda d: d["nodes"], r"not a kg graph \(a JSON list"),
    (lambda d: {"nodes": d["nodes"]}, r"no 'nodes' and 'edges' lists"),
])
def test_graph_from_json_names_what_a_hand_edit_broke(small, edit, message):
    with pytest.raises(GraphFileError, match=message):
        graph_from_json(_edited(small, edit))


def test_graph_from_json_locates_bad_bytes_and_refuses_deep_nesting():
    with pytest.raises(GraphFileError, match=r"graph.json:2: not UTF-8 \(byte 0xff"):
        graph_from_json(b'{"nodes": [],\n"edges": "\xff"}')
    with pytest.raises(GraphFileError, match="nested too deeply"):
        graph_from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(GraphFileError, match=r"graph.json:1:1: not a kg graph, not even JSON"):
        graph_from_json("")


def test_graph_from_json_cleans_surrogates_and_bidi_overrides(small):
    def evil(d):
        d["nodes"][0]["title"] = "A\ud800 \u202eB"

    graph = graph_from_json(_edited(small, evil))
    assert graph.nodes["a"]["title"] == "A\ufffd B"
    graph_to_json(graph).encode("utf-8")


@pytest.mark.parametrize("command", [["report", "{dir}"], ["viz", "{dir}"], ["related", "{dir}", "a"],
                                     ["concepts", "{dir}"], ["push", "{dir}"]])
@pytest.mark.parametrize("edit", [_drop_kind, _dangling, _string_weight, lambda d: d["nodes"]])
def test_commands_give_one_located_line_for_a_hand_edited_graph(tmp_path, small, command, edit, monkeypatch):
    from typer.testing import CliRunner

    from kg.cli import app

    monkeypatch.setenv("NEO4J_PASSWORD", "unused-password")
    (tmp_path / "graph.json").write_text(_edited(small, edit), encoding="utf-8")
    result = CliRunner().invoke(app, [a.format(dir=tmp_path) for a in command])
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"Error: {tmp_path / 'graph.json'}: "), result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
