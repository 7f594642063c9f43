"""Citation maps: co-citation and coupling clusters in the analysis and report, kg related --by, kg viz views."""

from __future__ import annotations

import json
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from typer.testing import CliRunner

from kg.analyze.citation_maps import internal_share, silhouettes
from kg.citations import cocitation, coupling
from kg.cli import app
from kg.graph import load_graph
from kg.pipeline import BuildOptions, build

from conftest import SHARED, HashEmbedder

ACM = SHARED / "data" / "acm_cr" / "papers.jsonl"


def _subset(others: int = 150) -> list[str]:
    """The ACM-CR papers with references, the papers two or more of them cite, and others:
    a few more they cite once and a few that no one cites, in file order."""
    lines = ACM.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    citing = {r["id"] for r in rows if r.get("references")}
    counts = Counter(ref for r in rows if r["id"] in citing for ref in set(r["references"]))
    cited_twice = {ref for ref, n in counts.items() if n >= 2}
    cited_once = [r["id"] for r in rows if counts.get(r["id"]) == 1][:others]
    uncited = [r["id"] for r in rows if r["id"] not in counts and r["id"] not in citing][:others]
    keep = citing | cited_twice | set(cited_once) | set(uncited)
    return [line for line, r in zip(lines, rows) if r["id"] in keep]


@pytest.fixture(scope="module")
def acm_cited(tmp_path_factory):
    """About 500 ACM-CR papers around the 48 that carry references, built with the stand-in embedder."""
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    folder = tmp_path_factory.mktemp("acm-cited")
    part = folder / "acm_cited.jsonl"
    part.write_text("\n".join(_subset()) + "\n", encoding="utf-8")
    out = folder / "out"
    build([part], out, BuildOptions(html=False), embedder=HashEmbedder())
    return out


def test_silhouette_and_internal_share_by_hand():
    g = nx.Graph()
    g.add_edge("a", "b", salton=1.0, weight=2)
    g.add_edge("b", "c", salton=0.5, weight=1)
    g.add_edge("c", "x", salton=0.5, weight=1)
    g.add_edge("x", "y", salton=1.0, weight=3)
    scores = silhouettes(g, [{"a", "b", "c"}, {"x", "y"}])
    # c: own mean distance ((1-0) + (1-0.5)) / 2 = 0.75; to {x, y}: (0.5 + 1) / 2 = 0.75
    assert scores["c"] == pytest.approx(0.0)
    # a: own (0 + 1) / 2 = 0.5, other 1.0 -> 0.5
    assert scores["a"] == pytest.approx(0.5)
    assert scores["x"] == pytest.approx((0.75 - 0.0) / 0.75)
    assert silhouettes(g, [set(g)]) == {n: 0.0 for n in g}
    assert internal_share(g, {"a", "b", "c"}) == pytest.approx(3 / 4)
    assert internal_share(g, {"x", "y"}) == pytest.approx(3 / 4)


def test_analysis_has_cocitation_and_coupling_clusters(acm_cited):
    graph = load_graph(acm_cited)
    analysis = json.loads((acm_cited / "analysis.json").read_text(encoding="utf-8"))
    maps = analysis["citation_maps"]
    for name, project in (("cocitation", cocitation), ("coupling", coupling)):
        result, projected = maps[name], project(graph)
        linked = {n for n in projected if projected.degree(n)}
        assert result["by"] == name and result["papers"] == len(linked) > 20
        assert result["links"] == projected.number_of_edges()
        clusters = result["clusters"]
        assert len(clusters) >= 2
        members = [p for c in clusters for p in c["papers"]]
        assert sorted(members) == sorted(linked)  # each linked paper in one cluster
        assert [c["size"] for c in clusters] == sorted((c["size"] for c in clusters), reverse=True)
        for c in clusters:
            assert c["size"] == len(c["papers"]) and -1 <= c["silhouette"] <= 1 and 0 <= c["internal"] <= 1
            years = [graph.nodes[p]["year"] for p in c["papers"]]
            assert c["mean_year"] == pytest.approx(sum(years) / len(years), rel=1e-5)
            assert c["years"] == [min(years), max(years)]
            assert c["central_papers"][0]["id"] == c["papers"][0]
        # the map's clusters are at least as cohesive as chance: shuffled clusters score lower
        sizes = [c["size"] for c in clusters]
        order = sorted(linked)
        np.random.default_rng(0).shuffle(order)
        shuffled, start = [], 0
        for size in sizes:
            shuffled.append(set(order[start:start + size]))
            start += size
        real = np.mean([c["internal"] for c in clusters])
        chance = np.mean([internal_share(projected, s) for s in shuffled])
        assert real > chance + 0.2
    # co-cited papers are cited: the central paper of the largest co-citation cluster is cited twice or more
    assert maps["cocitation"]["clusters"][0]["central_papers"][0]["cited_by"] >= 2
    # coupling links the citing papers (the 48 with references, all from 2020)
    assert all(graph.nodes[p].get("references") for c in maps["coupling"]["clusters"] for p in c["papers"])


def test_report_lists_the_clusters_of_both_maps(acm_cited):
    analysis = json.loads((acm_cited / "analysis.json").read_text(encoding="utf-8"))
    markdown = (acm_cited / "report.md").read_text(encoding="utf-8")
    page = (acm_cited / "report.html").read_text(encoding="utf-8")
    tables = json.loads((acm_cited / "report.json").read_text(encoding="utf-8"))
    assert tables["citation_maps"] == analysis["citation_maps"]
    for title, name in (("Co-citation clusters", "cocitation"), ("Bibliographic coupling clusters", "coupling")):
        assert f"## {title}" in markdown and f"<h2>{title}</h2>" in page
        first = analysis["citation_maps"][name]["clusters"][0]
        row = f"| 0 | {first['size']} | {first['silhouette']:.4g} | {first['internal']:.4g} | {first['mean_year']:.1f} |"
        assert row in markdown
        assert first["central_papers"][0]["id"] in markdown.split(f"## {title}")[1].split("\n## ")[0]
