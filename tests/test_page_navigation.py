"""Finding one's way on the graph page, in the real headless Chromium: a fit/reset control and
Escape, legend counts from the one analysis in every view, a colour (or the "other" group) for
every community, numbered discs, the overview's strongest links, safe DOI/URL links, a year
range, PNG/SVG export, and pyvis pages that open offline."""

from __future__ import annotations

import base64
import io
import re
import xml.dom.minidom
from pathlib import Path

import networkx as nx
import pytest

from _browser import open_page, why_unavailable
from _html_graphs import synthetic_graph
from conftest import EXAMPLE
from kg.analyze import analyze
from kg.export.html import OTHER_COLOR, PALETTE, render_html
from kg.export.html_view import COMMUNITY_LINKS, graph_view

pytestmark = pytest.mark.skipif(why_unavailable() is not None, reason=str(why_unavailable()))


def _example_graph(edit=None):
    from kg.graph import build_graph
    from kg.ingest import load_corpus
    from kg.models import Keyphrase
    from kg.normalize import normalize_concepts

    papers = load_corpus([str(EXAMPLE)]).papers
    if edit:
        papers = edit(papers)
    found = {p.id: [Keyphrase(k, round(1 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)] for p in papers}
    return build_graph(papers, *normalize_concepts(papers, found), metadata={"parameters": '{"seed": 42}'})


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    graph = _example_graph()
    analysis = analyze(graph)
    folder = tmp_path_factory.mktemp("nav")
    pages = {}
    for view in ("bipartite", "papers", "communities"):
        pages[view] = folder / f"{view}.html"
        pages[view].write_text(render_html(graph, view=view, analysis=analysis, title="nav"), encoding="utf-8")
    return graph, analysis, pages


def _clean(log, path):
    assert log.requests == [Path(path).resolve().as_uri()], log.requests
    assert log.errors == [], log.errors


def _in_view(page) -> list[int]:
    """Indices of the nodes whose centre is inside the drawing."""
    return page.evaluate("""() => { const net = kg.network, box = document.getElementById('kg-network');
        return kg.data.nodes.map((n, k) => k).filter(k => { const p = net.canvasToDOM(net.getPosition(k));
            return p.x >= 0 && p.y >= 0 && p.x <= box.clientWidth && p.y <= box.clientHeight; }); }""")


def test_fit_control_and_escape_return_to_the_whole_view(browser, example):
    _, _, pages = example
    page, log, _ = open_page(browser, pages["bipartite"])
    try:
        everything = list(range(page.evaluate("kg.data.nodes.length")))
        assert _in_view(page) == everything
        # a search zooms in: most nodes leave the screen
        title = page.evaluate("kg.data.nodes.find(n => n.kind === 'paper').info.title")
        page.fill("#kg-search", title)
        page.wait_for_selector("#kg-results li[aria-selected='true']")
        page.press("#kg-search", "Enter")
        page.wait_for_function("() => kg.network.getScale() >= 0.5", timeout=10_000)
        page.wait_for_timeout(600)  # the zoom animation
        assert len(_in_view(page)) < len(everything)
        # a legend entry: its community is highlighted and brought into view, not left off screen
        entry = page.locator("#kg-communities li").first
        entry.click()
        community = page.evaluate("kg.data.legend[0].members")
        kept = page.evaluate("kg.highlighted()")
        assert kept == page.evaluate("m => kg.data.nodes.map((n, k) => k).filter(k => m.includes(kg.data.nodes[k].community))",
                                     community)
        assert set(kept) <= set(_in_view(page))
        # the visible Fit control: nothing highlighted, everything in sight
        assert page.locator("#kg-fit").is_visible()
        page.click("#kg-fit")
        assert page.evaluate("kg.highlighted()") is None and _in_view(page) == everything
        # Escape does the same after a search zoom
        page.fill("#kg-search", title)
        page.press("#kg-search", "Enter")
        page.wait_for_timeout(600)
        page.keyboard.press("Escape")
        page.wait_for_timeout(100)
        assert page.evaluate("kg.highlighted()") is None and _in_view(page) == everything
        assert page.evaluate("kg.network.getSelectedNodes()") == []
        _clean(log, pages["bipartite"])
    finally:
        page.close()


def test_legend_counts_are_the_analysis_community_sizes_in_every_view(browser, example):
    _, analysis, pages = example
    sizes = {c["id"]: c["size"] for c in analysis["communities"]}
    for view, path in pages.items():
        page, log, _ = open_page(browser, path)
        try:
            shown = page.evaluate("""[...document.querySelectorAll('#kg-communities li')].map(li => [
                li.querySelector('.kg-name').textContent, Number(li.querySelector('.kg-count').textContent)])""")
            numbered = {int(name.split(" · ")[0]): count for name, count in shown if re.match(r"^\d+ · ", name)}
            assert numbered and all(count == sizes[k] for k, count in numbered.items()), (view, numbered)
            _clean(log, path)
        finally:
            page.close()


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    graph = synthetic_graph(1600, seed=5, topics=28)
    analysis = analyze(graph, resolution=2.0)
    folder = tmp_path_factory.mktemp("many")
    bipartite, overview = folder / "bipartite.html", folder / "communities.html"
    bipartite.write_text(render_html(graph, analysis=analysis, top=None), encoding="utf-8")
    overview.write_text(render_html(graph, view="communities", analysis=analysis), encoding="utf-8")
    return graph, analysis, bipartite, overview


def test_every_community_has_its_colour_or_the_other_group(browser, many):
    graph, analysis, bipartite, _ = many
    assert len(analysis["communities"]) > len(PALETTE)  # more communities than colours
    page, log, _ = open_page(browser, bipartite)
    try:
        legend = page.evaluate("kg.data.legend")
        colours = [e["color"] for e in legend]
        assert len(colours) == len(set(colours))  # no two entries look alike
        other = [e for e in legend if e["community"] == "other"]
        assert len(other) == 1 and other[0]["color"] == OTHER_COLOR
        assert other[0]["members"] == sorted(k for k in {n["community"] for n in page.evaluate("kg.data.nodes")}
                                             if k >= len(PALETTE))
        assert other[0]["label"].startswith(f"other communities ({len(other[0]['members'])}: ")
        assert other[0]["count"] == sum(c["size"] for c in analysis["communities"] if c["id"] in other[0]["members"])
        page.locator("#kg-communities li", has_text="other communities").click()
        kept = set(page.evaluate("kg.highlighted()"))
        members = set(other[0]["members"])
        assert kept == {k for k, n in enumerate(page.evaluate("kg.data.nodes")) if n["community"] in members}
        _clean(log, bipartite)
    finally:
        page.close()


def test_overview_discs_are_all_numbered_and_keep_their_strongest_links(browser, many):
    graph, analysis, _, overview = many
    view = graph_view(graph, view="communities", analysis=analysis)
    every = graph_view(graph, view="communities", analysis=analysis)  # same call: deterministic
    assert nx.utils.graphs_equal(view, every)
    for u, v, d in view.edges(data=True):  # each kept link is among the strongest of one of its ends
        strongest = [sorted((-w, m) for _, m, w in view.edges(end, data="weight"))[:COMMUNITY_LINKS] for end in (u, v)]
        assert any((-d["weight"], other) in ranks for ranks, other in zip(strongest, (v, u)))
    assert view.number_of_edges() <= COMMUNITY_LINKS * view.number_of_nodes()
    assert all(view.degree(n) >= 1 for n in view)
    page, log, _ = open_page(browser, overview)
    try:
        discs = page.evaluate("kg.discs()")
        nodes = page.evaluate("kg.data.nodes")
        assert sorted(d["node"] for d in discs) == list(range(len(nodes))) and len(nodes) > 20
        assert all(d["text"] == str(nodes[d["node"]]["community"]) for d in discs)
        _clean(log, overview)
    finally:
        page.close()


def _linked_graph():
    def edit(papers):
        from dataclasses import replace

        papers[0] = replace(papers[0], ids={**papers[0].ids, "doi": "10.1145/3015022.3015026"})
        papers[1] = replace(papers[1], id="javascript:alert(1)", title="A paper whose id is a script")
        papers[2] = replace(papers[2], id="https://example.org/paper?x=1&y=2", title="A paper with a web id")
        return papers

    return _example_graph(edit)


def test_papers_link_to_their_doi_or_web_page_and_nothing_else(browser, tmp_path):
    graph = _linked_graph()
    path = tmp_path / "links.html"
    path.write_text(render_html(graph), encoding="utf-8")
    page, log, _ = open_page(browser, path)
    try:
        def link_of(node_id):
            index = page.evaluate("id => kg.data.nodes.findIndex(n => n.id === id)", node_id)
            assert index >= 0
            page.evaluate("k => kg.select(k, false)", index)
            links = page.locator("#kg-details a")
            return [(links.nth(i).get_attribute("href"), links.nth(i).get_attribute("rel"), links.nth(i).inner_text())
                    for i in range(links.count())]

        first = page.evaluate("kg.data.nodes.find(n => n.info.link && n.info.link.includes('doi.org')).id")
        assert link_of(first) == [("https://doi.org/10.1145/3015022.3015026", "noopener noreferrer",
                                   "DOI: 10.1145/3015022.3015026")]
        assert link_of("javascript:alert(1)") == []
        (href, _, _), = link_of("https://example.org/paper?x=1&y=2")
        assert href == "https://example.org/paper?x=1&y=2"
        _clean(log, path)
    finally:
        page.close()


def test_a_year_range_dims_the_papers_outside_it(browser, example):
    graph, _, pages = example
    page, log, _ = open_page(browser, pages["bipartite"])
    try:
        assert page.locator("#kg-years").is_visible()
        assert page.evaluate("[document.getElementById('kg-year-from').value, document.getElementById('kg-year-to').value]") \
            == ["2015", "2024"]
        page.fill("#kg-year-from", "2019")
        page.dispatch_event("#kg-year-from", "change")
        page.fill("#kg-year-to", "2020")
        page.dispatch_event("#kg-year-to", "change")
        nodes = page.evaluate("kg.data.nodes")
        edges = page.evaluate("kg.data.edges")
        papers = {k for k, n in enumerate(nodes) if n["kind"] == "paper" and 2019 <= n["info"]["year"] <= 2020}
        linked = {b if a in papers else a for a, b, *_ in edges if (a in papers) != (b in papers)}
        concepts = {k for k in linked if nodes[k]["kind"] != "paper"}
        assert set(page.evaluate("kg.highlighted()")) == papers | concepts and len(papers) == 7
        assert page.locator("#kg-year-note").inner_text() == "7 papers from 2019 to 2020"
        page.keyboard.press("Escape")  # a selection cleared keeps the range
        assert set(page.evaluate("kg.highlighted()")) == papers | concepts
        page.evaluate("kg.setYears(2015, 2024)")
        assert page.evaluate("kg.highlighted()") is None
        _clean(log, pages["bipartite"])
    finally:
        page.close()


def test_the_view_exports_as_png_and_svg(browser, tmp_path):
    from PIL import Image

    from kg.models import Paper

    def edit(papers):
        return papers + [Paper(id="evil-1", title="Evil </text><script>alert(1)</script> & Co",
                               abstract="Graph neural networks on hostile titles for node classification.",
                               year=2020, keyphrases=("graph neural network",))]

    path = tmp_path / "export.html"
    path.write_text(render_html(_example_graph(edit)), encoding="utf-8")
    page, log, _ = open_page(browser, path)
    try:
        png = page.evaluate("kg.exportPNG()")
        assert png.startswith("data:image/png;base64,")
        image = Image.open(io.BytesIO(base64.b64decode(png.split(",", 1)[1])))
        width, height = page.evaluate("[kg.network.canvas.frame.canvas.width, kg.network.canvas.frame.canvas.height]")
        assert image.size == (width, height)
        svg = page.evaluate("kg.exportSVG()")
        doc = xml.dom.minidom.parseString(svg)  # well-formed: every title escaped
        shapes = doc.getElementsByTagName("rect").length + doc.getElementsByTagName("circle").length - 1  # background
        assert shapes == len(_in_view(page)) == page.evaluate("kg.data.nodes.length")
        titles = [t.firstChild.data for t in doc.getElementsByTagName("title")]
        assert "Evil </text><script>alert(1)</script> & Co" in titles
        assert "<script>" not in svg and "&lt;script&gt;" in svg
        texts = [t.firstChild.data for t in doc.getElementsByTagName("text")]
        assert len(texts) == len(page.evaluate("kg.labels()")) > 5
        with page.expect_download() as got:
            page.click("#kg-svg")
        assert got.value.suggested_filename == "kg-bipartite.svg"
        with page.expect_download() as got:
            page.click("#kg-png")
        assert got.value.suggested_filename == "kg-bipartite.png"
        _clean(log, path)
    finally:
        page.close()


def test_pyvis_pages_open_offline(browser, tmp_path):
    from kg.api import KnowledgeGraph

    graph = _example_graph()
    kg = KnowledgeGraph(graph, analyze(graph))
    path = tmp_path / "pyvis.html"
    kg.to_pyvis().write_html(str(path))
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    page = browser.new_page()
    requests, errors = [], []
    page.route("**/*", lambda r: r.continue_() if r.request.url == path.resolve().as_uri() else r.abort())
    page.on("request", lambda req: requests.append(req.url))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(path.resolve().as_uri(), wait_until="load")
        page.wait_for_function("() => typeof network !== 'undefined' && network.body.data.nodes.length > 0",
                               timeout=30_000)
        assert page.evaluate("network.body.data.nodes.length") == graph.number_of_nodes() - sum(
            1 for _, d in graph.nodes(data=True) if d["kind"] in ("author", "venue"))
        assert requests == [path.resolve().as_uri()] and errors == []
    finally:
        page.close()
