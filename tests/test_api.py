"""The Python API: kg.build in memory from files, Paper objects or dicts; write, load, views."""

from __future__ import annotations

import html
import json
import re

import pytest

import kg
from kg.errors import OptionError
from kg.ingest import load_corpus

from conftest import EXAMPLE


@pytest.fixture(scope="module")
def built():
    from conftest import HashEmbedder

    return kg.build(EXAMPLE, embedder=HashEmbedder())


def _records():
    return [json.loads(line) for line in EXAMPLE.read_text().splitlines()]


def test_build_from_dicts_or_papers_equals_build_from_the_file(built, tmp_path, monkeypatch, hash_embedder):
    monkeypatch.chdir(tmp_path)
    from_dicts = kg.build(_records(), embedder=hash_embedder)
    from_papers = kg.build(load_corpus([str(EXAMPLE)]).papers, embedder=hash_embedder)
    assert list(tmp_path.iterdir()) == []  # nothing written
    for other in (from_dicts, from_papers):
        assert sorted(other.graph.nodes) == sorted(built.graph.nodes)
        assert sorted(other.graph.edges(keys=True)) == sorted(built.graph.edges(keys=True))
        assert [r["papers"] for r in other.analysis["communities"]] == \
            [r["papers"] for r in built.analysis["communities"]]


def test_build_counts_skipped_records_and_refuses_unknown_options(hash_embedder):
    result = kg.build([*_records()[:5], {"title": "no abstract"}], embedder=hash_embedder)
    assert len(result.papers) == 5 and [s.reason for s in result.skipped] == ["empty: no abstract"]
    with pytest.raises(OptionError) as info:
        kg.build(_records(), embedder=hash_embedder, top_k=3)
    assert info.value.argument == "top_k"
    with pytest.raises(OptionError):
        kg.build([str(EXAMPLE), _records()[0]], embedder=hash_embedder)


def test_write_then_load_gives_the_same_graph_and_analysis(built, tmp_path):
    files = built.write(tmp_path / "out")
    assert {"graph.json", "analysis.json", "report.md", "graph.html"} <= {f.rsplit("/", 1)[-1] for f in files}
    loaded = kg.load(tmp_path / "out")
    assert sorted(loaded.graph.nodes) == sorted(built.graph.nodes)
    assert loaded.analysis["communities"] == json.loads(json.dumps(built.analysis["communities"]))
    assert loaded.to_html() == built.to_html()


def test_reanalyze_changes_the_communities_every_view_shows(built):
    coarse = built.reanalyze(resolution=0.2)
    assert coarse.analysis["parameters"]["resolution"] == 0.2
    assert len(coarse.analysis["communities"]) < len(built.analysis["communities"])
    (body,) = re.findall(r'<script[^>]*id="kg-data"[^>]*>(.*?)</script>', coarse.to_html(), re.S)
    assert [e["label"] for e in json.loads(body)["legend"]] == [r["label"] for r in coarse.analysis["communities"]]


def test_to_pandas_tables(built):
    pytest.importorskip("pandas")
    tables = built.to_pandas()
    assert set(tables) == {"papers", "concepts", "mentions", "links", "communities"}
    papers = tables["papers"]
    assert len(papers) == 32 and papers["id"].is_unique
    number = {p: r["id"] for r in built.analysis["communities"] for p in r["papers"]}
    assert dict(zip(papers["id"], papers["community"])) == number
    assert len(tables["mentions"]) == sum(1 for *_, k in built.graph.edges(keys=True) if k == "mentions")
    assert tables["communities"]["label"].tolist() == [r["label"] for r in built.analysis["communities"]]


def test_to_pyvis_is_a_pyvis_network_with_the_pages_communities(built):
    from pyvis.network import Network

    net = built.to_pyvis(top=None)
    assert isinstance(net, Network)
    number = {p: r["id"] for r in built.analysis["communities"] for p in r["papers"]}
    papers = [n for n in net.nodes if n["kind"] == "paper"]
    assert len(papers) == 32 and all(n["community"] == number[n["id"]] for n in papers)
    assert all("<" not in n["title"] for n in net.nodes)  # corpus text escaped: pyvis shows titles as HTML
    assert len(net.edges) > 0


def test_repr_html_is_the_page_in_an_escaped_srcdoc(built):
    shown = built._repr_html_()
    (srcdoc,) = re.findall(r'<iframe srcdoc="([^"]*)"', shown)
    assert "<" not in srcdoc and html.unescape(srcdoc).startswith("<!DOCTYPE html>")
    assert 'sandbox="allow-scripts"' in shown
    assert html.unescape(srcdoc) == built.to_html(top=1000)
