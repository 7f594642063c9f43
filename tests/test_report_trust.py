"""A report a researcher can trust: sorted charts, one theme per community with readable labels,
trend charts without sparse years, most cited by citations, text escaped once, a descriptive part."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from kg.analyze import analyze
from kg.analyze.descriptive import descriptive, growth_rate, h_index
from kg.graph import build_graph
from kg.ingest import load_corpus
from kg.models import Concept, Keyphrase, Mention, Paper
from kg.normalize import normalize_concepts
from kg.plots import thematic_map_figure, trends_plot
from kg.report import render_markdown, render_report_html, report_sections

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "papers.jsonl"


@pytest.fixture(scope="module")
def example():
    papers = load_corpus([str(EXAMPLE)]).papers
    found = {p.id: [Keyphrase(k, round(1 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)] for p in papers}
    graph = build_graph(papers, *normalize_concepts(papers, found))
    return graph, analyze(graph)


def _graph(papers: list[Paper], keys: dict[str, list[str]]):
    concepts = {f"c:{k}": Concept(f"c:{k}", k) for ks in keys.values() for k in ks}
    mentions = [Mention(pid, f"c:{k}", 1.0 - 0.1 * i, i + 1, k) for pid, ks in keys.items() for i, k in enumerate(ks)]
    return build_graph(papers, concepts, mentions)


def test_top_concepts_table_and_chart_are_in_the_order_of_their_bars(example):
    _, analysis = example
    papers = [row["papers"] for row in analysis["top_concepts"]]
    assert papers == sorted(papers, reverse=True) and len(papers) > 5
    section = next(s for s in report_sections(analysis) if s["title"] == "Top concepts")
    assert [r[2] for r in section["rows"]] == papers


def test_thematic_map_has_one_theme_per_community_labelled_as_the_community(example):
    graph, analysis = example
    communities = {c["id"]: c for c in analysis["communities"]}
    themes = analysis["thematic_map"]
    expected = [c["id"] for c in sorted(communities.values(), key=lambda c: (-c["size"], c["id"]))
                if c["size"] >= 2 and c["concepts"]]
    assert [t["id"] for t in themes] == expected and len(themes) >= 3
    for theme in themes:
        assert theme["label"] == communities[theme["id"]]["label"]
        assert theme["papers"] == communities[theme["id"]]["size"]
        assert set(theme["concepts"]) <= {c["id"] for c in communities[theme["id"]]["concepts"]}
    every = [c for t in themes for c in t["concepts"]]
    assert len(every) == len(set(every))  # disjoint, as Callon's measures need
    assert any(" " in t["label"] for t in themes)  # multi-word labels, not "0: user"
    assert {t["quadrant"] for t in themes} <= {"motor", "niche", "emerging or declining", "basic"}


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_thematic_map_labels_overlap_neither_each_other_nor_the_quadrant_names():
    rng = random.Random(3)
    labels = ["recommender systems, collaborative filtering", "graph neural networks, node classification",
              "information retrieval, query expansion", "knowledge graphs, entity linking"]
    themes = [{"id": i, "label": labels[i % 4] + f" {i}", "papers": rng.randint(5, 400),
               "centrality": rng.uniform(0, 3), "density": rng.uniform(0, 1), "quadrant": "motor"} for i in range(24)]
    themes.append({**themes[0], "id": 24, "centrality": themes[0]["centrality"] + 1e-3})  # a near twin
    figure = thematic_map_figure({"thematic_map": themes})
    ax = figure.axes[0]
    texts = [t for t in ax.texts + [c for c in ax.get_children() if c.__class__.__name__ == "Annotation"]
             if t.get_text()]
    texts = list({id(t): t for t in texts}.values())
    boxes = [(t.get_text(), t.get_window_extent()) for t in texts]
    numbers = sorted(int(re.match(r"^(\d+)(: |$)", text).group(1)) for text, _ in boxes
                     if re.match(r"^(\d+)(: |$)", text))
    assert numbers == list(range(len(themes)))  # every disc labelled, once
    assert sum(1 for text, _ in boxes if re.match(r"^\d+: ", text)) >= 20  # most with their words
    for i, (ta, a) in enumerate(boxes):
        for tb, b in boxes[i + 1:]:
            assert not _overlaps(a, b), (ta, tb)
    frame = ax.get_window_extent()
    assert all(frame.x0 <= b.x0 and b.x1 <= frame.x1 for _, b in boxes)


def test_trend_chart_leaves_out_sparse_years_and_the_report_says_which():
    trends = {"years": [2001, 2002, 2003, 2004], "papers": [2, 40, 50, 3], "min_papers": 10,
              "hidden_years": [2001, 2004],
              "concepts": [{"id": "c:x", "name": "x", "counts": [2, 4, 5, 3]}]}
    svg = trends_plot({"trends": trends})
    assert svg is not None and "<?xml" in svg
    analysis_like = {"trends": trends}
    assert trends_plot({"trends": {**trends, "hidden_years": [2001, 2002, 2004]}}) is None  # one year left
    assert analysis_like["trends"]["hidden_years"] == [2001, 2004]


def test_analysis_hides_years_below_the_minimum(example):
    graph, analysis = example
    assert analysis["trends"]["min_papers"] == 10
    assert analysis["trends"]["hidden_years"] == analysis["trends"]["years"]  # 2–4 papers a year
    text = render_markdown(analysis)
    assert "The trend chart leaves out the years with fewer than 10 papers (2015, 2016" in text
    assert "fewer than two years remain, so there is no chart" in text
    assert analyze(graph, min_trend_papers=3)["trends"]["hidden_years"] == [2023]


def test_most_cited_is_by_local_citations_with_pagerank_beside():
    # "hub" is cited by 7 leaves; "chain0" once, but by a paper that is itself cited a lot
    papers = [Paper("hub", "abstract hub", "Hub", year=2000)]
    papers += [Paper(f"leaf{i}", f"abstract leaf {i}", f"Leaf {i}", year=2001, references=("hub",)) for i in range(7)]
    papers += [Paper("chain0", "abstract c0", "Chain 0", year=2000),
               Paper("chain1", "abstract c1", "Chain 1", year=2001, references=("chain0",))]
    papers += [Paper(f"fan{i}", f"abstract fan {i}", f"Fan {i}", year=2002, references=("chain1",))
               for i in range(8)]
    keys = {p.id: ["shared topic", f"own {p.id}"] for p in papers}
    analysis = analyze(_graph(papers, keys))
    rows = analysis["citations"]
    assert [r["cited_by"] for r in rows] == sorted((r["cited_by"] for r in rows), reverse=True)
    order = [r["id"] for r in rows]
    assert order.index("hub") < order.index("chain0")
    hub, chain0 = rows[order.index("hub")], rows[order.index("chain0")]
    assert (hub["cited_by"], chain0["cited_by"]) == (7, 1) and chain0["pagerank"] > hub["pagerank"]
    section = next(s for s in report_sections(analysis) if s["title"] == "Most cited papers")
    assert section["header"] == ["paper", "id", "cited by", "cites", "PageRank"]
    assert "local citations" in section["text"]


def test_entities_are_decoded_once_at_ingest_and_escaped_once_on_output(tmp_path):
    record = {"id": "10.1145/1", "title": "Discerning Questions in Educational Q&amp;A",
              "abstract": "Social Q&amp;A sites and video &amp; lifelog search.",
              "authors": ["Anna M&amp;uuml;ller", "Bo &amp; Co"], "venue": "CHIIR &amp; IIiX '17",
              "keyphrases": ["community q&amp;a", "AT&amp;T"], "year": 2017}
    path = tmp_path / "acm.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (paper,) = load_corpus([str(path)]).papers
    assert paper.title == "Discerning Questions in Educational Q&A"
    assert paper.venue == "CHIIR & IIiX '17" and paper.keyphrases == ("community q&a", "AT&T")
    assert paper.authors == ("Anna M&uuml;ller", "Bo & Co") or paper.authors == ("Anna Müller", "Bo & Co")
    from kg.escape import markdown_text

    assert markdown_text(paper.title) == "Discerning Questions in Educational Q&A"
    assert "&amp;amp;" not in markdown_text(paper.venue) and "&amp;" not in markdown_text(paper.venue)


def test_report_shows_an_ampersand_once(tmp_path):
    from kg.pipeline import BuildOptions, build
    from conftest import HashEmbedder

    lines = EXAMPLE.read_text().splitlines()
    first = json.loads(lines[0])
    first["title"] = "Ranking &amp; Retrieval for Q&amp;A"
    first["venue"] = "SIGIR &amp; Friends"
    (tmp_path / "in.jsonl").write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n", encoding="utf-8")
    build([tmp_path / "in.jsonl"], tmp_path / "out", BuildOptions(), embedder=HashEmbedder())
    corpus = (tmp_path / "out" / "corpus.jsonl").read_text()
    assert "Ranking & Retrieval for Q&A" in corpus and "&amp;" not in corpus
    page = (tmp_path / "out" / "graph.html").read_text()
    assert "&amp;amp;" not in page and "Ranking \\u0026 Retrieval" in page
    for name in ("report.md", "report.html"):
        assert "&amp;amp;" not in (tmp_path / "out" / name).read_text()


def test_descriptive_numbers_by_hand():
    assert h_index([10, 8, 5, 4, 3]) == 4 and h_index([1]) == 1 and h_index([]) == 0
    assert growth_rate({2010: 1, 2012: 4}) == 100.0
    papers = [Paper("a", "abstract a", "A", authors=("Ann Lee",), year=2010, venue="KDD 2010"),
              Paper("b", "abstract b", "B", authors=("Ann Lee", "Bo Chen"), year=2012, venue="KDD '12",
                    references=("a",)),
              Paper("c", "abstract c", "C", authors=("Bo Chen", "Cy Diaz", "Ann Lee"), year=2012, venue="WWW",
                    references=("a", "b")),
              Paper("d", "abstract d", "D", authors=("Di Evans",), year=2012, venue="WWW", references=("a",)),
              Paper("e", "abstract e", "E", year=2013, venue="WWW")]
    graph = _graph(papers, {p.id: ["topic", f"own {p.id}"] for p in papers})
    d = descriptive(graph, top=3)
    assert d["annual_production"] == [[2010, 1], [2011, 0], [2012, 3], [2013, 1]]
    assert d["growth_rate"] == pytest.approx(0.0)  # 1 paper in 2010, 1 in 2013
    ann = d["authors"][0]
    assert (ann["name"], ann["papers"], ann["citations"], ann["h_index"]) == ("Ann Lee", 3, 4, 1)
    # Ann's papers a, b, c are cited 3, 1, 0 times: h = 1
    assert [r["name"] for r in d["authors"]] == ["Ann Lee", "Bo Chen", "Cy Diaz"]
    assert d["venues"][0]["name"] == "WWW" and d["venues"][0]["papers"] == 3
    kdd = next(r for r in d["venues"] if r["id"] == "v:kdd")
    assert (kdd["papers"], kdd["citations"], kdd["h_index"]) == (2, 4, 1)
    c = d["collaboration"]
    assert c["papers_with_authors"] == 4 and c["authors"] == 4
    assert c["authors_per_paper"] == pytest.approx(7 / 4) and c["single_authored"] == 2
    assert c["single_authored_share"] == 0.5 and c["coauthors_per_paper"] == pytest.approx(3 / 4)


def test_report_has_the_descriptive_part(example):
    _, analysis = example
    titles = [s["title"] for s in report_sections(analysis)]
    for title in ("Main information", "Annual production", "Most productive authors", "Most relevant venues"):
        assert title in titles
    assert titles.index("Main information") < titles.index("Top concepts")
    page = render_report_html(analysis)
    assert 'alt="Annual production"' in page
    text = render_markdown(analysis)
    assert "| annual growth rate |" in text and "local h-index" in text
