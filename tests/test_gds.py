"""kg report --engine gds against a real Neo4j 5.26 with the Graph Data Science library loaded.

The module's server is tools/neo4j's launcher started with the open-source GDS 2.13 jars from
Maven Central as its plugin folder (``LocalNeo4j(gds=True)``); it is skipped without Java and
Maven. The example corpus is built, pushed, and analyzed in the database; the results are
compared with kg's own (NetworkX/igraph/leidenalg) analysis of the same graph within the
tolerances kg.analyze.gds documents.
"""

from __future__ import annotations

import importlib.util
import json
import secrets
import shutil
from pathlib import Path

import pytest
from scipy.stats import spearmanr
from typer.testing import CliRunner

from kg.analyze.result import check_analysis, load_analysis
from kg.analyze import analyze
from kg.analyze.centrality import centrality_table, citation_table, edge_eigenvector
from kg.cli import app
from kg.errors import Neo4jError
from kg.export.neo4j import open_driver, push_graph
from kg.graph import projection
from kg.pipeline import BuildOptions, build
from kg.report import REPORT_FILES, report_sections

from conftest import EXAMPLE, HashEmbedder

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("graphdatascience", reason="the gds engine needs graphdatascience (pip install -e '.[test]')")


def _tools():
    spec = importlib.util.spec_from_file_location("kg_neo4j_tools", ROOT / "tools" / "neo4j" / "server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tools = _tools()
    try:
        tools.ensure_built()
    except tools.ToolsMissing as exc:
        pytest.skip(f"GDS tests: {exc}")
    local = tools.LocalNeo4j(tmp_path_factory.mktemp("neo4j-gds-home"), "kg-" + secrets.token_hex(8), gds=True)
    local.start()
    try:
        yield local
    finally:
        local.stop()


@pytest.fixture(scope="module")
def pushed(server, tmp_path_factory):
    """The example corpus built (with its page) and pushed; returns (folder, KnowledgeGraph)."""
    from kg.api import load

    out = tmp_path_factory.mktemp("gds-build") / "build"
    build([EXAMPLE], out, BuildOptions(), embedder=HashEmbedder())
    built = load(out)
    with open_driver(server.uri, "neo4j", server.password) as driver:
        result = push_graph(driver, built.graph, analysis=built.analysis, replace=True, embeddings=None)
    assert not result.mismatches
    return out, built


@pytest.fixture()
def engine(server):
    from kg.analyze.gds import GdsEngine

    with open_driver(server.uri, "neo4j", server.password) as driver:
        yield GdsEngine(driver)


def _env(server) -> dict[str, str]:
    return {"NEO4J_URI": server.uri, "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": server.password}


def _shape(value):
    """Keys and types of a JSON tree (lists by their first item), for comparing two analyses' shapes."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else type(value).__name__


def test_report_in_the_database_has_the_default_reports_shape(server, pushed, tmp_path):
    folder, built = pushed
    copy = tmp_path / "build"
    shutil.copytree(folder, copy)
    result = CliRunner().invoke(app, ["report", str(copy), "--engine", "gds"], env=_env(server))
    assert result.exit_code == 0, result.output + result.stderr
    assert "computed in Neo4j: gds (Neo4j Graph Data Science 2.13" in result.stdout
    assert server.password not in result.output + result.stderr
    analysis = load_analysis(copy)
    check_analysis(built.graph, analysis)  # every paper in exactly one community
    assert analysis["parameters"]["engine"].startswith("gds (Neo4j Graph Data Science 2.13")
    assert analysis["parameters"]["method"] == "leiden"

    reference = analyze(built.graph, method="leiden")
    shape = _shape(analysis)
    shape["parameters"].pop("engine")
    assert shape == _shape(reference)
    for name in REPORT_FILES:
        assert (copy / name).stat().st_size > 0
    titles = [s["title"] for s in report_sections(analysis)]
    assert titles == [s["title"] for s in report_sections(reference)]
    assert "| engine | gds (Neo4j Graph Data Science 2.13" in (copy / "report.md").read_text()
    page = (copy / "graph.html").read_text()  # the page was rewritten with these communities
    assert page.count(analysis["communities"][0]["label"].split(",")[0]) >= 1

    from kg.api import load

    again = load(copy)  # the page, report and push code read it back as a build's analysis
    assert again.to_html(top=50) and again.analysis["communities"] == analysis["communities"]

    # Single-threaded and seeded: the same report twice.
    second = tmp_path / "second"
    result = CliRunner().invoke(app, ["report", str(copy), "--engine", "gds", "--out", str(second)],
                                env=_env(server))
    assert result.exit_code == 0, result.output + result.stderr
    assert (second / "analysis.json").read_text() == (copy / "analysis.json").read_text()

    # Communities: GDS's Leiden is not leidenalg's, but finds as good a partition (modularity
    # within 5 % of kg's Leiden and Louvain on the same graph).
    for method in ("leiden", "louvain"):
        q = analyze(built.graph, method=method)["modularity"]
        assert abs(analysis["modularity"] - q) <= 0.05 * q, (method, analysis["modularity"], q)


def test_centralities_agree_with_networkx(pushed, engine):
    """The documented tolerances (kg.analyze.gds): degrees and exact betweenness equal, PageRank
    equal to 1e-3 of the score on the paper and concept graphs and ranked alike, the citation
    PageRank (dangling papers) ranked alike; the eigenvector, kg's own, equal."""
    _, built = pushed
    graph = built.graph
    for kind in ("related", "co_occurs", "mentions"):
        mine = {r["id"]: r for r in centrality_table(projection(graph, kind))}
        theirs = {r["id"]: r for r in engine.centrality_table(kind)}
        assert mine.keys() == theirs.keys()
        ids = sorted(mine)
        for node in ids:
            assert theirs[node]["degree"] == mine[node]["degree"]
            assert theirs[node]["weighted_degree"] == pytest.approx(mine[node]["weighted_degree"], rel=1e-9)
            assert theirs[node]["betweenness"] == pytest.approx(mine[node]["betweenness"], rel=1e-6, abs=1e-12)
        rank = spearmanr([mine[n]["pagerank"] for n in ids], [theirs[n]["pagerank"] for n in ids]).statistic
        assert rank > 0.99, (kind, rank)
        if kind != "mentions":
            worst = max(abs(theirs[n]["pagerank"] - mine[n]["pagerank"]) / mine[n]["pagerank"] for n in ids)
            assert worst < 1e-3, (kind, worst)
        # The eigenvector is kg's, from the edges without a projection: equal.
        here = edge_eigenvector(graph, kind)
        assert here.keys() == mine.keys()
        assert all(here[n] == pytest.approx(mine[n]["eigenvector"], abs=1e-9) for n in ids), kind
        with_gds = {r["id"]: r for r in engine.centrality_table(kind, eigenvector=here)}
        assert all(with_gds[n]["eigenvector"] == here[n] for n in ids)
    mine = {r["id"]: r for r in citation_table(graph)}
    theirs = {r["id"]: r for r in engine.citation_table()}
    assert mine.keys() == theirs.keys()
    ids = sorted(mine)
    assert all(mine[n]["cited_by"] == theirs[n]["cited_by"] and mine[n]["cites"] == theirs[n]["cites"] for n in ids)
    rank = spearmanr([mine[n]["pagerank"] for n in ids], [theirs[n]["pagerank"] for n in ids]).statistic
    assert rank > 0.9, rank
    assert engine.projections() == []


def test_sampled_betweenness_is_scaled_like_kgs(pushed, engine):
    """Above exact_limit GDS draws its own sources; scaled by n / samples, the estimate is of the
    same quantity: its total is within a factor of two of the exact total here."""
    exact = engine.centrality_table("co_occurs")
    sampled = engine.centrality_table("co_occurs", exact_limit=10, samples=100)
    total = sum(r["betweenness"] for r in exact)
    assert 0.5 * total < sum(r["betweenness"] for r in sampled) < 2 * total
    assert sampled == engine.centrality_table("co_occurs", exact_limit=10, samples=100)  # seeded, one thread


def test_projections_are_dropped_even_when_an_algorithm_fails(pushed, engine, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("stopped in the middle")

    monkeypatch.setattr(type(engine.gds.leiden), "stream", fail)  # gds.leiden is made anew on each access
    with pytest.raises(RuntimeError, match="stopped in the middle"):
        engine.communities(seed=1)
    assert engine.projections() == []


def test_a_database_without_this_graph_is_refused(pushed, engine):
    _, built = pushed
    graph = built.graph.copy()
    graph.add_node("not-pushed", kind="paper", title="A paper Neo4j has not seen")
    with pytest.raises(Neo4jError, match=r"Neo4j does not hold this graph \(paper: \d+ in Neo4j, \d+ in the "
                                         r"graph\): run kg push"):
        analyze(graph, method="leiden", engine=engine)
    with pytest.raises(Exception, match="Leiden"):
        analyze(built.graph, method="louvain", engine=engine)


def test_connection_settings_are_checked_as_for_kg_push(tmp_path):
    """No server needed: the URI is refused before any connection, the method before any work."""
    build([EXAMPLE], tmp_path / "b", BuildOptions(html=False), embedder=HashEmbedder())
    runner = CliRunner()
    bad = runner.invoke(app, ["report", str(tmp_path / "b"), "--engine", "gds", "--uri", "bolt://neo4j:secret@db:7687"],
                        env={"NEO4J_PASSWORD": "x" * 12})
    assert bad.exit_code == 1 and "holds a user name or password" in bad.stderr and "secret" not in bad.stderr
    wrong = runner.invoke(app, ["report", str(tmp_path / "b"), "--engine", "gds", "--uri", "http://db:7474"],
                          env={"NEO4J_PASSWORD": "x" * 12})
    assert wrong.exit_code == 1 and "invalid Neo4j URI" in wrong.stderr
    louvain = runner.invoke(app, ["report", str(tmp_path / "b"), "--engine", "gds", "--method", "louvain"])
    assert louvain.exit_code == 1 and louvain.stderr.startswith("Error: --method: --engine gds finds communities "
                                                                "with Leiden")
