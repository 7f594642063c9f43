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
from kg.graphfile import load_graph
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


def _raw_references() -> dict[str, set[str]]:
    rows = [json.loads(line) for line in _subset()]
    return {r["id"]: {ref.casefold() for ref in r.get("references") or ()} for r in rows}


def test_related_by_cocitation_and_coupling_count_what_the_data_says(acm_cited):
    from kg.analyze.related import related_by

    graph = load_graph(acm_cited)
    corpus = {n for n, d in graph.nodes(data=True) if d.get("kind") == "paper"}  # records with an abstract
    refs = {p: r for p, r in _raw_references().items() if p in corpus}
    # coupling: references in common, counted on the raw reference lists (in the corpus or not)
    paper = max((p for p in refs if refs[p]), key=lambda p: (sum(len(refs[p] & refs[q]) for q in refs if q != p), p))
    expected = sorted(((len(refs[paper] & refs[q]), q) for q in refs if q != paper and refs[paper] & refs[q]),
                      key=lambda t: (-t[0], t[1]))
    rows = related_by(graph, paper, by="coupling", top=1000)
    assert {(r["score"], r["id"]) for r in rows} == set(expected)
    assert [r["score"] for r in rows] == [n for n, _ in expected]
    top = rows[0]
    assert set(top["shared"]) == {ref for ref in refs[paper] & refs[top["id"]] if ref in corpus} | {
        key for key in top["shared"] if key.startswith("doi:")}
    # co-citation: corpus papers whose reference lists name both
    cited = Counter(ref for p in refs for ref in refs[p] if ref in corpus)
    paper = max(cited, key=lambda p: (cited[p], p))
    citing = {p for p in refs if paper in refs[p]}
    rows = related_by(graph, paper, by="cocitation", top=1000)
    for row in rows:
        both = {p for p in citing if row["id"] in refs[p]}
        assert row["score"] == len(both) and set(row["shared"]) == both
        n_other = sum(1 for p in refs if row["id"] in refs[p])
        assert row["salton"] == pytest.approx(len(both) / (len(citing) * n_other) ** 0.5, abs=1e-4)
    assert len(rows) == len({q for p in citing for q in refs[p] if q in corpus} - {paper})


def test_related_by_embedding_is_the_cosine_of_the_stored_vectors(acm_cited):
    from kg.analyze.related import related_by, related_papers
    from kg.vectors import load_paper_vectors

    graph = load_graph(acm_cited)
    ids, matrix = load_paper_vectors(acm_cited)
    paper = ids[0]
    cosines = matrix.astype(np.float64) @ matrix[0].astype(np.float64)
    rows = related_by(graph, paper, by="embedding", top=5, vectors=(ids, matrix))
    best = sorted(((-c, q) for q, c in zip(ids, cosines) if q != paper))[:5]
    assert [r["id"] for r in rows] == [q for _, q in best]
    assert [r["score"] for r in rows] == pytest.approx([-c for c, _ in best], abs=1e-6)
    assert related_by(graph, paper, by="concepts", vectors=(ids, matrix)) == related_papers(
        graph, paper, vectors=(ids, matrix))


def test_cli_related_by(acm_cited):
    graph = load_graph(acm_cited)
    paper = max((p for p in graph if graph.nodes[p].get("kind") == "paper"),
                key=lambda p: (sum(1 for _, _, k in graph.in_edges(p, keys=True) if k == "cites"), p))
    runner = CliRunner()
    for by in ("concepts", "cocitation", "coupling", "embedding"):
        result = runner.invoke(app, ["related", str(acm_cited), paper, "--by", by, "--json", "--top", "3"])
        assert result.exit_code == 0, result.output
        rows = json.loads(result.stdout)
        assert len(rows) == 3 or by == "coupling"
    result = runner.invoke(app, ["related", str(acm_cited), paper, "--by", "cocitation"])
    assert "salton" in result.stdout.splitlines()[0]
    result = runner.invoke(app, ["related", str(acm_cited), paper, "--by", "authors"])
    assert result.exit_code == 1 and "Error: --by: unknown relation 'authors'" in result.output


def test_viz_views_draw_the_maps_coloured_by_their_clusters(acm_cited, tmp_path):
    from kg.api import load
    from kg.citations import coauthorship
    from kg.export.html_view import graph_view

    built = load(acm_cited)
    graph, analysis = built.graph, built.analysis
    for view, project in (("cocitation", cocitation), ("coupling", coupling), ("coauthors", coauthorship)):
        projected = project(graph)
        shown = graph_view(graph, view=view, top=None, analysis=analysis)
        assert set(shown) == {n for n in projected if projected.degree(n)}
        assert {(min(u, v), max(u, v), w) for u, v, w in shown.edges(data="weight")} == {
            (min(u, v), max(u, v), float(c)) for u, v, c in projected.edges(data="count")}
        if view != "coauthors":
            clusters = analysis["citation_maps"][view]["clusters"]
            assert shown.graph["community_labels"] == [c["label"] for c in clusters]
            for c in clusters:
                assert {shown.nodes[p]["community"] for p in c["papers"]} == {c["id"]}
            one = graph_view(graph, view=view, top=None, community=1, analysis=analysis)
            assert set(one) == set(clusters[1]["papers"])
        else:
            assert {d["kind"] for _, d in shown.nodes(data=True)} == {"author"}
            papers = {int(c["id"]): set(c["papers"]) for c in analysis["communities"]}
            author = max(shown, key=lambda a: (shown.degree(a), a))
            own = Counter(k for _, p, key in graph.out_edges(author, keys=True) if key == "wrote"
                          for k, members in papers.items() if p in members)
            assert shown.nodes[author]["community"] == min(own, key=lambda k: (-own[k], k))
        result = CliRunner().invoke(app, ["viz", str(acm_cited), "--view", view, "--top", "100",
                                          "--out", str(tmp_path / f"{view}.html")])
        assert result.exit_code == 0, result.output
        page = (tmp_path / f"{view}.html").read_text(encoding="utf-8")
        assert f"view: {view}" in page or f'"view": "{view}"' in page or f'"view":"{view}"' in page


def test_neo4j_tables_carry_the_maps(acm_cited):
    from kg.api import load
    from kg.citations import coauthorship
    from kg.export.neo4j import graph_tables

    built = load(acm_cited)
    nodes, rels = graph_tables(built.graph, built.analysis)
    by_type = {t.type: t for t in rels}
    for rel_type, label, project in (("CO_CITED_WITH", "Paper", cocitation), ("COUPLED_WITH", "Paper", coupling),
                                     ("CO_AUTHOR_OF", "Author", coauthorship)):
        table = by_type[rel_type]
        assert (table.source, table.target) == (label, label)
        assert {(r["source"], r["target"], r["props"]["count"]) for r in table.rows} == {
            (min(u, v), max(u, v), c) for u, v, c in project(built.graph).edges(data="count")}
    papers = {r["id"]: r["props"] for r in next(t for t in nodes if t.label == "Paper").rows}
    for name in ("cocitation", "coupling"):
        for cluster in built.analysis["citation_maps"][name]["clusters"]:
            assert {papers[p][f"{name}_cluster"] for p in cluster["papers"]} == {cluster["id"]}
