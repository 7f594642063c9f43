"""report.md / report.html / report.json and the kg report, related and concepts commands."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.analyze import analyze
from kg.cli import app
from kg.export.files import write_graph_files
from kg.graph import build_graph
from kg.graphfile import load_graph
from kg.ingest import load_corpus
from kg.models import Keyphrase
from kg.normalize import normalize_concepts
from kg.report import REPORT_FILES, render_json, render_markdown, render_report_html, report_sections, write_report

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "papers.jsonl"
runner = CliRunner()


@pytest.fixture(scope="module")
def graph():
    """The example corpus with its records' own keyphrases as concepts (no model)."""
    papers = load_corpus([str(EXAMPLE)]).papers
    found = {p.id: [Keyphrase(k, round(1 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)] for p in papers}
    return build_graph(papers, *normalize_concepts(papers, found), metadata={"parameters": '{"seed": 42}'})


@pytest.fixture(scope="module")
def analysis(graph):
    return analyze(graph)


@pytest.fixture
def built(tmp_path, graph):
    write_graph_files(graph, tmp_path)
    return tmp_path


def test_every_table_has_an_id_column(analysis):
    sections = report_sections(analysis)
    tables = [s for s in sections if s["rows"]]
    assert len(tables) >= 8
    for section in tables:
        if section["title"] in ("Corpus", "Parameters", "Main information", "Annual production"):
            continue
        header = section["header"]
        assert "id" in header or any("[id]" in h or h == "concept ids" for h in header), section["title"]


def test_markdown_lists_ids_and_labels(analysis):
    text = render_markdown(analysis)
    top = analysis["top_concepts"][0]
    assert f"| {top['name']} | {top['id']} | {top['papers']} |" in text
    assert "## Communities of papers" in text and "modularity" in text
    assert "## Thematic map" in text and "## Most cited papers" in text
    first = analysis["communities"][0]
    assert f"| {first['id']} | {first['size']} | {first['label']} |" in text


def test_html_is_self_contained_with_embedded_figures(analysis):
    page = render_report_html(analysis)
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    images = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    # annual production, top concepts, community sizes, thematic map, degree distribution; no trend chart:
    # every year of the example has fewer than 10 papers (the report says so)
    assert len(images) == 5
    assert "The trend chart leaves out the years with fewer than 10 papers" in page
    assert all(base64.b64decode(i).lstrip().startswith(b"<?xml") for i in images)
    assert analysis["central_papers"][0]["id"] in page


def test_json_tables_match_the_graph(graph, analysis):
    """report.json against numbers counted from the graph itself, not against the analysis it renders."""
    import networkx as nx

    data = json.loads(render_json(analysis))
    papers = {n for n, d in graph.nodes(data=True) if d["kind"] == "paper"}
    concepts = {n for n, d in graph.nodes(data=True) if d["kind"] == "concept"}
    assert data["summary"]["papers"] == len(papers) == 32 and data["summary"]["concepts"] == len(concepts)
    mentioned_by = {c: sum(1 for p in papers if graph.has_edge(p, c, key="mentions")) for c in concepts}
    for row in data["top_concepts"]:
        assert row["papers"] == mentioned_by[row["id"]], row
    members = [p for row in data["communities"] for p in row["papers"]]
    assert sorted(members) == sorted(papers)  # a partition of the papers, each once
    assert [row["size"] for row in data["communities"]] == [len(row["papers"]) for row in data["communities"]]
    related = nx.Graph()
    related.add_nodes_from(papers)
    related.add_weighted_edges_from((u, v, d["weight"]) for u, v, k, d in graph.edges(keys=True, data=True)
                                    if k == "related")
    ranks = nx.pagerank(related, weight="weight", max_iter=500, tol=1e-10)
    best = max(sorted(ranks), key=lambda p: ranks[p])
    assert data["central_papers"][0]["id"] == best
    assert data["central_papers"][0]["pagerank"] == pytest.approx(ranks[best], rel=1e-5)
    assert "pagerank" not in data  # the per-node maps live in analysis.json only


def test_reports_are_byte_identical_across_runs(tmp_path, graph, analysis):
    first = write_report(analysis, tmp_path / "a")
    second = write_report(analyze(graph), tmp_path / "b")
    assert [Path(p).name for p in first] == list(REPORT_FILES)
    for a, b in zip(first, second):
        assert Path(a).read_bytes() == Path(b).read_bytes(), a


def test_kg_report_writes_the_three_files(built):
    result = runner.invoke(app, ["report", str(built), "--method", "leiden", "--labels", "loglik"])
    assert result.exit_code == 0, result.output
    assert "communities:" in result.output
    for name in REPORT_FILES:
        assert (built / name).stat().st_size > 0
    data = json.loads((built / "report.json").read_text())
    assert data["parameters"]["method"] == "leiden" and data["parameters"]["scoring"] == "loglik"


def test_kg_report_rejects_a_folder_without_graph(tmp_path):
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 1
    assert "no graph.json" in result.output
    result = runner.invoke(app, ["report", str(built_dir := tmp_path / "nope")])
    assert result.exit_code == 1 and "no such folder" in result.output and built_dir.name in result.output


def test_kg_related_prints_shared_concepts(built, graph):
    result = runner.invoke(app, ["related", str(built), "gnn-2016-spectral", "--top", "3", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 3 and all(r["shared"] or r["citation"] for r in rows)
    assert all(c in graph for r in rows for c in r["shared"])
    table = runner.invoke(app, ["related", str(built), "Spectral Graph Convolutions"])
    assert table.exit_code == 0 and table.stdout.startswith("id")
    assert rows[0]["id"] in table.stdout


def test_kg_related_unknown_paper_is_one_line_error(built):
    result = runner.invoke(app, ["related", str(built), "no such paper at all"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: no paper")


def test_kg_concepts_overall_and_per_community(built, analysis):
    result = runner.invoke(app, ["concepts", str(built), "--json", "--top", "5"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["id"] for r in rows] == [c["id"] for c in analysis["top_concepts"][:5]]
    result = runner.invoke(app, ["concepts", str(built), "--community", "0", "--json", "--top", "5"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == analysis["communities"][0]["concepts"][:5]
    result = runner.invoke(app, ["concepts", str(built), "--community", "99"])
    assert result.exit_code == 1 and "numbered 0 to" in result.output
    result = runner.invoke(app, ["concepts", str(built), "--method", "spectral", "--community", "0"])
    assert result.exit_code == 1 and "unknown --method" in result.output


def test_load_graph_reads_what_build_wrote(built, graph):
    assert load_graph(built).number_of_nodes() == graph.number_of_nodes()


def test_kg_build_writes_reports_that_agree_with_its_graph_and_page(tmp_path, hash_embedder):
    from kg.pipeline import BuildOptions, build

    build([EXAMPLE], tmp_path, BuildOptions(), embedder=hash_embedder)
    graph = load_graph(tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["summary"]["papers"] == len(EXAMPLE.read_text().splitlines()) == 32
    assert data["summary"]["concepts"] == sum(1 for _, d in graph.nodes(data=True) if d["kind"] == "concept")
    saved = json.loads((tmp_path / "analysis.json").read_text())
    assert [r["papers"] for r in saved["communities"]] == [r["papers"] for r in data["communities"]]
    markdown = (tmp_path / "report.md").read_text()
    for row in data["communities"]:
        if row["size"] > 1:
            assert f"| {row['id']} | {row['size']} | {row['label']} |" in markdown
    (body,) = re.findall(r'<script[^>]*id="kg-data"[^>]*>(.*?)</script>', (tmp_path / "graph.html").read_text(), re.S)
    page = json.loads(body)
    assert [e["label"] for e in page["legend"] if isinstance(e["community"], int) and e["community"] >= 0] == \
        [r["label"] for r in data["communities"] if any(n["community"] == r["id"] for n in page["nodes"])]
    number = {p: r["id"] for r in data["communities"] for p in r["papers"]}
    assert all(n["community"] == number[n["id"]] for n in page["nodes"] if n["kind"] == "paper")


def test_trends_plot_leaves_out_years_with_too_few_papers():
    from kg.plots import trends_plot

    trends = {"years": [1990, 2020], "papers": [1, 100], "concepts": [{"id": "c:x", "name": "x", "counts": [1, 5]}]}
    assert trends_plot({"trends": trends}) is None  # 1990 has 1% of 2020's papers: one year left, no line
    trends["papers"] = [3, 100]
    assert trends_plot({"trends": trends}).lstrip().startswith("<?xml")


HOSTILE = "</script><script>alert(1)</script><img src=x onerror=alert(2)> [x](javascript:y) \u202e\ud800\x1b[31m"


def _hostile_analysis(analysis):
    import copy

    hostile = copy.deepcopy(analysis)
    hostile["top_concepts"][0]["name"] = HOSTILE
    hostile["central_papers"][0]["name"] = HOSTILE
    hostile["communities"][0]["label"] = HOSTILE
    return hostile


def test_markdown_shows_corpus_markup_as_text(analysis):
    text = render_markdown(_hostile_analysis(analysis), title="<b>t</b>")
    for raw in ("<script>", "</script>", "<img", "<b>", "[x](", "\u202e", "\ud800", "\x1b"):
        assert raw not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    text.encode("utf-8")  # no lone surrogate left


def test_html_and_json_reports_drop_surrogates_and_bidi_overrides(analysis):
    hostile = _hostile_analysis(analysis)
    page = render_report_html(hostile)
    page.encode("utf-8")
    assert "\u202e" not in page and "<script>" not in page and "<img src=x" not in page
    data = render_json(hostile)
    data.encode("utf-8")
    assert "\u202e" not in data
    assert json.loads(data)["top_concepts"][0]["name"].startswith("</script>")  # JSON keeps the text itself


RECOMMENDER = Path(__file__).resolve().parent / "fixtures" / "recommender.jsonl"


def test_report_page_and_listings_show_a_concept_with_its_acronym(tmp_path, hash_embedder):
    from kg.pipeline import BuildOptions, build

    build([RECOMMENDER], tmp_path, BuildOptions(), embedder=hash_embedder)
    graph = load_graph(tmp_path)
    assert graph.nodes["c:collaborative filtering"]["name"] == "collaborative filtering"
    data = json.loads((tmp_path / "report.json").read_text())
    shown = {c["id"]: c["name"] for c in data["top_concepts"]}
    assert shown["c:collaborative filtering"] == "collaborative filtering (CF)"
    assert shown["c:matrix factorization"] == "matrix factorization (MF)"
    assert shown["c:implicit feedback"] == "implicit feedback"
    markdown = (tmp_path / "report.md").read_text()
    assert "| collaborative filtering (CF) | c:collaborative filtering |" in markdown
    label = data["communities"][0]["label"]
    assert "collaborative filtering (CF)" in label and f"| {label} |" in markdown
    (body,) = re.findall(r'<script[^>]*id="kg-data"[^>]*>(.*?)</script>', (tmp_path / "graph.html").read_text(), re.S)
    page = {n["id"]: n for n in json.loads(body)["nodes"]}
    cf = page["c:collaborative filtering"]
    assert cf["label"] == cf["info"]["title"] == "collaborative filtering (CF)"
    assert "CF" not in cf["info"]["aliases"] and "collaborative filtering" not in cf["info"]["aliases"]
    assert "collaborative filtering (CF)" in page["rec-2010-implicit"]["info"]["concepts"]
    result = runner.invoke(app, ["concepts", str(tmp_path), "--top", "3"])
    assert result.exit_code == 0, result.output
    assert "collaborative filtering (CF)" in result.stdout and "matrix factorization (MF)" in result.stdout
    result = runner.invoke(app, ["related", str(tmp_path), "rec-2010-implicit", "--top", "3"])
    assert result.exit_code == 0, result.output
    assert "collaborative filtering (CF)" in result.stdout
