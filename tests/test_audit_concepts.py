"""bench/audit_concepts.py: the automatic counts, the sample, the packet and label scoring (no model)."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from conftest import bench_script

audit = bench_script("audit_concepts")


def _graph() -> nx.MultiDiGraph:
    """Three papers (one without an abstract) and their ranked concepts, as kg stores them."""
    g = nx.MultiDiGraph()
    mentions = {
        "p1": ["graph neural networks", "neural network", "graphs.DeepWalk", "method", "e.g. ranking"],
        "p2": ["method", "Node.js", "&lt;b&gt; tags", "knowledge graphs", "knowledge-graph", "query"],
        "p3": ["method", "query"],
    }
    for i, p in enumerate(mentions, start=1):
        g.add_node(p, kind="paper", title=f"Paper {i}", abstract="" if p == "p3" else f"Abstract  of\n{p}.")
    for p, names in mentions.items():
        # edges added out of rank order: ranks, not insertion, decide
        for rank, name in reversed(list(enumerate(names, start=1))):
            c = "c:" + name
            g.add_node(c, kind="concept", name=name)
            g.add_edge(p, c, key="mentions", kind="mentions", rank=rank, score=1.0 / rank)
    g.add_edge("p1", "p2", key="related", kind="related", weight=1.0)
    return g


def test_ranked_concepts_follow_rank_and_cut_at_top():
    ranked = audit.ranked_concepts(_graph(), top=2)
    assert ranked == {"p1": ["c:graph neural networks", "c:neural network"], "p2": ["c:method", "c:Node.js"],
                      "p3": ["c:method", "c:query"]}
    assert audit.concept_papers(_graph())["c:method"] == 3


def test_lemmas_junk_and_near_duplicates():
    assert audit.lemma_words("Knowledge-Graphs\u2013Embeddings") == ("knowledge", "graph", "embedding")
    assert audit.junk_kind("graphs.DeepWalk") == "full-stop"
    assert audit.junk_kind("version 2.0 release") is None
    assert audit.junk_kind("&amp; operator") == "markup" and audit.junk_kind("$x$ model") == "markup"
    assert audit.junk_kind("neural network") is None
    assert audit.is_known_dotted("Node.js") and audit.is_known_dotted("e.g. ranking")
    assert not audit.is_known_dotted("graphs.DeepWalk")
    assert audit.near_duplicate_pairs(["knowledge graphs", "knowledge-graph", "large knowledge graph",
                                       "graph"]) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    # same words but another head, or a head without nesting: not pairs
    assert audit.near_duplicate_pairs(["network model", "model network", "deep model", "graph model"]) == []


def test_auto_counts_on_a_sample_and_the_build():
    g = _graph()
    c = audit.auto_counts(g, ["p1", "p2"], top=10)
    assert (c["papers"], c["slots"], c["mean_concepts"]) == (2, 11, 5.5)
    assert c["full_stop"] == ["Node.js", "e.g. ranking", "graphs.DeepWalk"]
    assert c["full_stop_known"] == ["Node.js", "e.g. ranking"] and c["full_stop_slots"] == 3
    assert c["markup"] == ["&lt;b&gt; tags"] and c["markup_slots"] == 1
    assert c["near_duplicates"] == {"pairs": 2, "papers": 2, "examples": [
        ("graph neural networks", "neural network"), ("knowledge graphs", "knowledge-graph")]}
    # single words (no space): method twice, graphs.DeepWalk, Node.js, knowledge-graph, query; every
    # one is in more than 2% of the 3 papers
    assert c["single_word_slots"] == 6 and c["single_word_share"] == round(6 / 11, 4)
    assert c["frequent_single_words"] == {"method": 1.0, "query": 0.6667, "Node.js": 0.3333,
                                          "graphs.DeepWalk": 0.3333, "knowledge-graph": 0.3333}
    assert c["frequent_single_word_slots"] == 6
    assert audit.auto_counts(g, ["p1", "p2"], share=0.5)["frequent_single_words"] == {"method": 1.0, "query": 0.6667}
    top2 = audit.auto_counts(g, ["p1", "p2"], top=2)
    assert top2["slots"] == 4 and top2["near_duplicates"]["pairs"] == 1
    whole = audit.build_counts(g, top=10)
    assert whole["papers"] == 3 and whole["concepts"] == 10 and whole["slots"] == 13
    assert whole["all_markup"] == ["&lt;b&gt; tags"] and whole["frequent_single_word_concepts"] == 5
    assert audit.auto_counts(g, [])["mean_concepts"] is None


def test_sample_is_seeded_and_has_abstracts_only(tmp_path):
    g = _graph()
    assert audit.draw_sample(g, 5, seed=3) == audit.draw_sample(g, 5, seed=3)
    assert sorted(audit.draw_sample(g, 5, seed=3)) == ["p1", "p2"]
    assert len(audit.draw_sample(g, 1, seed=7)) == 1
    rows = audit.packet(g, ["p2", "p1"], audit.ranked_concepts(g, top=None), top=3)
    assert rows[0] == {"paper": 1, "title": "Paper 2", "abstract": "Abstract of p2.",
                       "concepts": ["method", "Node.js", "&lt;b&gt; tags"]}
    template = audit.labels_template(rows)
    assert len(template) == 6
    assert template[3] == {"paper": 2, "concept": 1, "name": "graph neural networks", "label": ""}
    md = audit.packet_markdown(rows)
    assert "## 1. Paper 2" in md and "3. &amp;lt;b&amp;gt; tags" in md  # shown literally
    assert "score" not in md and "c:" not in md


def test_sample_mode_writes_the_packet(tmp_path, capsys):
    from kg.corpusfile import write_corpus_jsonl
    from kg.graphfile import write_graph_json

    build = tmp_path / "build"  # as kg build writes it: abstracts in corpus.jsonl beside graph.json
    build.mkdir()
    with open(build / "graph.json", "w", encoding="utf-8") as handle:
        write_graph_json(_graph(), handle, texts=False)
    with open(build / "corpus.jsonl", "w", encoding="utf-8") as handle:
        write_corpus_jsonl(_graph(), handle)
    audit.main([str(build), "--sample", "5", "--seed", "11", "--out", str(tmp_path / "audit")])
    out = capsys.readouterr().out
    assert "seed: 11" in out and "2 of 2 papers with an abstract" in out
    files = sorted(p.name for p in (tmp_path / "audit").iterdir())
    assert files == ["auto.json", "labels_template.json", "sample.json", "sample.md"]
    auto = json.loads((tmp_path / "audit" / "auto.json").read_text())
    assert auto["seed"] == 11 and sorted(auto["sample_ids"]) == ["p1", "p2"]
    assert auto["build_counts"]["papers"] == 3


def test_labels_are_read_leniently_and_scored():
    assert [audit.normalize_label(v) for v in ["GOOD", "Near duplicate", "near_duplicate", "broken name",
                                               "Broken-Name", "x", None]] == [
        "good", "near-duplicate", "near-duplicate", "broken-name", "broken-name", None, None]
    a = [{"paper": 1, "concept": j, "label": x} for j, x in enumerate(["good", "good", "generic", "wrong", ""], 1)]
    b = [{"paper": "1", "concept": str(j), "label": x}
         for j, x in enumerate(["Good", "generic", "Generic", "WRONG", "good"], 1)]
    counts = audit.label_counts(a)
    assert counts["labelled"] == 4 and counts["empty"] == 1
    assert counts["counts"]["good"] == 2 and counts["shares"]["good"] == 0.5
    assert audit.label_counts([{"label": "meh"}])["unknown"] == ["meh"]
    agr = audit.agreement(a, b)  # 4 both labelled; good/good, good/not, not/not, not/not
    assert (agr["n"], agr["agree"], agr["percent"]) == (4, 3, 75.0)
    assert agr["kappa"] == pytest.approx(0.5)
    everything_good = [{"paper": 1, "concept": 1, "label": "good"}]
    assert audit.agreement(everything_good, everything_good)["kappa"] is None


def test_score_mode_prints_shares_and_agreement(tmp_path, capsys):
    rows = [{"paper": 1, "concept": j, "name": f"c{j}", "label": x}
            for j, x in enumerate(["good", "generic", "good", "near duplicate"], 1)]
    (tmp_path / "a.json").write_text(json.dumps(rows))
    (tmp_path / "b.json").write_text(json.dumps([dict(r, label="good") for r in rows]))
    audit.main(["--score", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    out = capsys.readouterr().out
    assert "50.0%" in out and "100.0%" in out and "mean" in out and "75.0%" in out
    assert "2 of 4 agree (50.0%), Cohen's kappa 0.00" in out


def test_the_packet_shows_a_concept_as_the_map_labels_it():
    g = _graph()
    g.nodes["c:knowledge graphs"]["acronym"] = "KG"
    rows = audit.packet(g, ["p2"], audit.ranked_concepts(g, top=None))
    assert rows[0]["concepts"][3] == "knowledge graphs (KG)" and rows[0]["concepts"][0] == "method"


def test_gold_mode_samples_a_corpus_own_keyphrases(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    records = [{"id": "a", "title": "A", "abstract": "Text a.", "keyphrases": "['Query Prediction', 'Retrieval']"},
               {"id": "b", "title": "B", "abstract": "Text b.", "keyphrases": ["wavelength services"]},
               {"id": "c", "title": "C", "abstract": "", "keyphrases": ["no abstract"]},
               {"id": "d", "title": "D", "abstract": "Text d.", "keyphrases": None}]
    corpus.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    audit.main(["--gold", str(corpus), "--sample", "5", "--seed", "3", "--out", str(tmp_path / "gold")])
    assert "2 of 2 records with an abstract and keyphrases; 3 keyphrases" in capsys.readouterr().out
    rows = json.loads((tmp_path / "gold" / "sample.json").read_text())
    assert sorted(tuple(r["concepts"]) for r in rows) == [("Query Prediction", "Retrieval"), ("wavelength services",)]
    template = json.loads((tmp_path / "gold" / "labels_template.json").read_text())
    assert len(template) == 3 and all(t["label"] == "" for t in template)


def test_a_sample_of_the_papers_two_builds_list_differently(tmp_path, capsys):
    from kg.corpusfile import write_corpus_jsonl
    from kg.graphfile import write_graph_json

    other = _graph()  # p2's third concept renamed: only p2 differs in its top 3
    other.nodes["c:&lt;b&gt; tags"]["name"] = "tags"
    assert audit.differing_papers(_graph(), other, top=3) == {"p2"}
    assert audit.differing_papers(_graph(), other, top=2) == set()
    for name, graph in (("a", _graph()), ("b", other)):
        (tmp_path / name).mkdir()
        with open(tmp_path / name / "graph.json", "w", encoding="utf-8") as handle:
            write_graph_json(graph, handle, texts=False)
        with open(tmp_path / name / "corpus.jsonl", "w", encoding="utf-8") as handle:
            write_corpus_jsonl(graph, handle)
    audit.main([str(tmp_path / "a"), "--sample", "5", "--seed", "1", "--top", "3", "--differ", str(tmp_path / "b"),
                "--out", str(tmp_path / "audit")])
    assert "1 papers' top 3 differ" in capsys.readouterr().out
    assert json.loads((tmp_path / "audit" / "auto.json").read_text())["sample_ids"] == ["p2"]
