"""graph.json leaves out what other attributes imply, and reading it back restores the same graph."""

from __future__ import annotations

import json

from kg.graph import build_graph

from kg.graphfile import graph_from_json, graph_to_json
from kg.models import Concept, Mention, Paper


def _graph(min_cooccurrence: int = 1):
    papers = [Paper(p, f"abstract of {p}", f"Title {p}", authors=("Ada Lovelace",)) for p in "abcd"]
    concepts = {f"c:{c}": Concept(f"c:{c}", c, (c, c.upper())) for c in ("graph", "net", "rare", "solo")}
    concepts["c:solo"] = Concept("c:solo", "solo", ("solo",))
    rows = [("a", "graph", 0.9), ("a", "net", 0.5), ("a", "rare", 0.4), ("b", "graph", 0.8), ("b", "net", 0.3),
            ("b", "rare", -0.1), ("c", "graph", 0.7), ("c", "net", 0.6), ("d", "solo", 0.2)]
    mentions = [Mention(p, f"c:{c}", s, rank, "GRAPH" if c == "graph" else c)
                for rank, (p, c, s) in enumerate(rows, start=1)]
    metadata = {"parameters": json.dumps({"min_cooccurrence": min_cooccurrence, "seed": 42})}
    return build_graph(papers, concepts, mentions, min_cooccurrence=min_cooccurrence, metadata=metadata)


def _edges(graph):
    return sorted((u, v, k, json.dumps(d, sort_keys=True)) for u, v, k, d in graph.edges(keys=True, data=True))


def test_implied_attributes_and_derived_edges_are_left_out_and_restored():
    graph = _graph()
    text = graph_to_json(graph)
    data = json.loads(text)
    keys = [e["kind"] for e in data["edges"]]
    assert "co_occurs" not in keys and data["graph"]["co_occurs_min_count"] == 1
    assert keys.count("related") == sum(1 for *_, k in graph.edges(keys=True) if k == "related") > 0
    assert all("shared" not in e for e in data["edges"])
    assert all("key" not in e for e in data["edges"])  # the kind is the key
    assert all(n["kind"] in ("paper", "concept", "author", "venue") for n in data["nodes"])
    solo = next(n for n in data["nodes"] if n["id"] == "c:solo")
    assert "aliases" not in solo and "label" not in solo
    back = graph_from_json(text)
    assert _edges(back) == _edges(graph)
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))
    assert graph_to_json(back) == text
    # a negative score's weight is 0 and comes back as 0
    assert back.edges["b", "c:rare", "mentions"]["weight"] == 0.0


def test_co_occurrence_that_is_not_the_projection_stays_in_the_file():
    graph = _graph(min_cooccurrence=2)
    assert any(k == "co_occurs" for *_, k in graph.edges(keys=True))
    graph.edges["c:graph", "c:net", "co_occurs"]["count"] = 99  # edited by hand
    graph.edges["c:graph", "c:net", "co_occurs"]["weight"] = 99
    text = graph_to_json(graph)
    data = json.loads(text)
    assert "co_occurs_min_count" not in data["graph"]
    stored = [e["count"] for e in data["edges"] if e["kind"] == "co_occurs"]
    assert 99 in stored and len(stored) == sum(1 for *_, k in graph.edges(keys=True) if k == "co_occurs")
    assert _edges(graph_from_json(text)) == _edges(graph)


def test_a_graph_written_without_texts_gets_them_back_from_papers_jsonl(tmp_path):
    from kg.export.files import write_graph_files
    from kg.graphfile import load_graph

    graph = _graph()
    write_graph_files(graph, tmp_path)
    data = json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))
    papers = [n for n in data["nodes"] if n.get("kind") == "paper"]
    assert papers and all("abstract" not in n and "source" not in n for n in papers)
    assert not any(n.get("kind") in ("author", "venue") for n in data["nodes"])  # derived from the papers
    assert not any(e["kind"] in ("wrote", "published_in") for e in data["edges"])
    records = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["abstract"] for r in records] == ["abstract of a", "abstract of b", "abstract of c", "abstract of d"]
    back = load_graph(tmp_path)
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))
    assert _edges(back) == _edges(graph)
    assert list(back.nodes) == list(graph.nodes)
    (tmp_path / "corpus.jsonl").unlink()  # graph.json alone: the graph without the texts
    alone = load_graph(tmp_path)
    assert alone.nodes["a"].get("abstract") is None and alone.nodes["a"]["title"] == "Title a"


def test_a_build_written_on_trust_is_byte_for_byte_the_checked_file(hash_embedder):
    """kg build skips the derivability checks (``built=True``); on its real output they agree."""
    import io
    from pathlib import Path

    from kg.graphfile import write_graph_json
    from kg.pipeline import BuildOptions, run

    example = Path(__file__).resolve().parents[1] / "examples" / "papers.jsonl"
    graph = run([example], BuildOptions(html=False), embedder=hash_embedder).graph
    checked, trusted = io.StringIO(), io.StringIO()
    write_graph_json(graph, checked, texts=False)
    write_graph_json(graph, trusted, texts=False, built=True)
    assert trusted.getvalue() == checked.getvalue()
    header = json.loads(checked.getvalue())["graph"]
    assert header["co_occurs_min_count"] == 2 and header["people_from_papers"] is True


def _acronym_graph():
    papers = [Paper(p, f"abstract of {p}", f"Title {p}") for p in "ab"]
    concepts = {"c:collaborative filtering": Concept("c:collaborative filtering", "collaborative filtering",
                                                     ("CF", "collaborative filtering"), "CF"),
                "c:graph": Concept("c:graph", "graph", ("graph",))}
    mentions = [Mention(p, c, 0.5, rank, surface) for p in "ab"
                for rank, (c, surface) in enumerate([("c:collaborative filtering", "CF"), ("c:graph", "graph")], 1)]
    return build_graph(papers, concepts, mentions)


def test_a_concepts_acronym_is_an_attribute_and_its_label_is_implied():
    graph = _acronym_graph()
    cf = graph.nodes["c:collaborative filtering"]
    assert (cf["name"], cf["acronym"], cf["label"]) == ("collaborative filtering", "CF",
                                                         "collaborative filtering (CF)")
    assert "acronym" not in graph.nodes["c:graph"] and graph.nodes["c:graph"]["label"] == "graph"
    text = graph_to_json(graph)
    node = next(n for n in json.loads(text)["nodes"] if n["id"] == "c:collaborative filtering")
    assert node["acronym"] == "CF" and "label" not in node and "name" not in node  # the id says the name
    assert node["kind"] == "concept"
    back = graph_from_json(text)
    assert back.nodes["c:collaborative filtering"]["name"] == "collaborative filtering"
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))
    assert graph_to_json(back) == text


def test_concepts_csv_graphml_and_gexf_carry_the_acronym(tmp_path):
    import csv

    from kg.export.files import write_graph_files
    from kg.graphfile import load_graph

    write_graph_files(_acronym_graph(), tmp_path)
    assert load_graph(tmp_path).nodes["c:collaborative filtering"]["acronym"] == "CF"
    with open(tmp_path / "concepts.csv", newline="", encoding="utf-8") as handle:
        rows = {r["id"]: r for r in csv.DictReader(handle)}
    assert list(next(iter(rows.values()))) == ["id", "name", "acronym", "aliases", "papers"]
    assert (rows["c:collaborative filtering"]["name"], rows["c:collaborative filtering"]["acronym"]) == (
        "collaborative filtering", "CF")
    assert rows["c:graph"]["acronym"] == ""
    graphml = (tmp_path / "graph.graphml").read_text(encoding="utf-8")
    assert 'attr.name="acronym"' in graphml and ">CF</data>" in graphml
    gexf = (tmp_path / "graph.gexf").read_text(encoding="utf-8")
    assert 'label="collaborative filtering (CF)"' in gexf and 'title="acronym"' in gexf


def test_graph_json_read_by_networkx_and_jq_users_names_every_kind(tmp_path):
    """A reader other than kg (networkx.node_link_graph, jq) finds every node's and edge's kind."""
    import networkx as nx

    graph = _graph()
    data = json.loads(graph_to_json(graph))
    plain = nx.node_link_graph(data, edges="edges")  # numbered keys, kind an attribute
    assert all(d["kind"] in ("paper", "concept", "author", "venue") for _, d in plain.nodes(data=True))
    assert {d["kind"] for *_, d in plain.edges(data=True)} == {"mentions", "related"}
    expected = {k: sum(1 for *_, key in graph.edges(keys=True) if key == k) for k in ("mentions", "related")}
    assert {k: sum(1 for *_, d in plain.edges(data=True) if d["kind"] == k) for k in expected} == expected
    keyed = nx.node_link_graph(data, edges="edges", key="kind")  # kg's own keys
    assert {k for *_, k in keyed.edges(keys=True)} == {"mentions", "related"}
    assert sorted(keyed.edges(keys=True)) == sorted((u, v, k) for u, v, k in graph.edges(keys=True)
                                                    if k in ("mentions", "related"))
    # a file from before (a "key", no "kind") still reads
    old = {**data, "edges": [{**{k: v for k, v in e.items() if k != "kind"}, "key": e["kind"]} for e in data["edges"]]}
    assert _edges(graph_from_json(json.dumps(old))) == _edges(graph_from_json(json.dumps(data)))
