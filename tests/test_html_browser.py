"""The graph page in a real headless Chromium: offline, no errors, drawn, searchable, safe.

Needs Debian's chromium (``make test`` installs it) and the playwright package; skips
with the reason otherwise. The example corpus screenshot goes to tests/output/.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from _browser import open_page, readable_labels, why_unavailable
from _html_graphs import synthetic_graph
from conftest import EXAMPLE, ROOT, HashEmbedder
from kg.export.html import render_html

OUTPUT = ROOT / "tests" / "output"
EVIL_TITLE = "Evil </script><script>window.__kgPwned='title'</script> paper"
EVIL_ABSTRACT = ("We inject <script>window.__kgPwned='abstract'</script> and "
                 "<img src=x onerror=\"window.__kgPwned='img'\"> into an abstract about graph neural networks. "
                 "Hostile markup in keyphrase extraction corpora tests citation network embeddings.")

pytestmark = pytest.mark.skipif(why_unavailable() is not None, reason=str(why_unavailable()))


def _example_papers():
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} is not present")
    from kg.ingest import load_corpus

    return load_corpus([str(EXAMPLE)]).papers


def _graph(papers):
    from kg.extract import extract_keyphrases
    from kg.graph import build_graph
    from kg.normalize import normalize_concepts

    concepts, mentions = normalize_concepts(papers, extract_keyphrases(papers, HashEmbedder()))
    return build_graph(papers, concepts, mentions)


@pytest.fixture(scope="module")
def example_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "example.html"
    path.write_text(render_html(_graph(_example_papers()), title="kg example corpus"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def evil_page(tmp_path_factory):
    from kg.models import Paper

    papers = list(_example_papers())
    papers.append(Paper(id="evil-1", title=EVIL_TITLE, abstract=EVIL_ABSTRACT,
                        year=2024, venue="<b>Venue</b>"))
    path = tmp_path_factory.mktemp("html") / "evil.html"
    path.write_text(render_html(_graph(papers)), encoding="utf-8")
    return path


def _assert_offline_and_clean(log, path: Path) -> None:
    assert log.requests == [path.resolve().as_uri()], f"requests left the page: {log.requests}"
    assert log.errors == [], f"console errors: {log.errors}"


def _node_point(page, index: int) -> dict:
    """The viewport position of node ``index`` (the canvas is inside #kg-network)."""
    return page.evaluate("""k => {
        const net = window.kg.network, p = net.canvasToDOM(net.getPosition(k));
        const box = document.getElementById('kg-network').getBoundingClientRect();
        return {x: box.left + p.x, y: box.top + p.y};
    }""", index)


def _index_of(page, node_id: str) -> int:
    return page.evaluate("id => window.kg.data.nodes.findIndex(n => n.id === id)", node_id)


def test_example_page_draws_offline_and_searches(browser, example_page):
    from PIL import Image

    page, log, seconds = open_page(browser, example_page)
    try:
        shot = page.locator("#kg-network").screenshot()
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "graph_example.png"))
        image = Image.open(io.BytesIO(shot)).convert("RGB")
        pixels = list(image.getdata())
        inked = sum(1 for p in pixels if min(p) < 235)
        assert inked / len(pixels) > 0.01, "the canvas is blank"
        assert len(set(image.quantize(64).getdata())) > 8, "the drawing has too few colours for communities"
        legend = page.locator("#kg-communities li")
        assert legend.count() >= 2
        assert page.evaluate("kg.data.counts.papers") == 32

        # search by typing: the best match is selected, zoomed to, and its details shown
        target = page.evaluate("kg.data.nodes.find(n => n.kind === 'paper').info.title")
        page.fill("#kg-search", target[5:25].lower())
        page.wait_for_selector("#kg-results li[aria-selected='true']")
        page.press("#kg-search", "Enter")
        selected = page.evaluate("kg.network.getSelectedNodes()")
        assert len(selected) == 1
        assert page.evaluate("k => kg.data.nodes[k].info.title", selected[0]) == target
        assert page.locator("#kg-details h3").inner_text() == target
        centred = """k => { const p = kg.network.canvasToDOM(kg.network.getPosition(k)),
            box = document.getElementById('kg-network');
            return Math.abs(p.x - box.clientWidth / 2) < 3 && Math.abs(p.y - box.clientHeight / 2) < 3; }"""
        page.wait_for_function(centred, arg=selected[0], polling=100, timeout=60_000)  # the view moved to it

        # clicking a node highlights it and its neighbours only
        page.evaluate("kg.clear()")
        index = page.evaluate("kg.data.nodes.findIndex(n => n.kind === 'concept')")
        page.evaluate("k => kg.network.moveTo({position: kg.network.getPosition(k), scale: 1.5})", index)
        point = _node_point(page, index)
        page.mouse.click(point["x"], point["y"])
        assert page.evaluate("kg.network.getSelectedNodes()") == [index]
        expected = page.evaluate("""k => [...new Set([k].concat(
            kg.data.edges.filter(e => e[0] === k || e[1] === k).map(e => e[0] === k ? e[1] : e[0])))]
            .sort((a, b) => a - b)""", index)
        assert page.evaluate("kg.highlighted()") == expected and len(expected) > 1
        page.keyboard.press("Escape")
        assert page.evaluate("kg.highlighted()") is None
        _assert_offline_and_clean(log, example_page)
    finally:
        page.close()


def test_injected_markup_shows_as_text_and_never_runs(browser, evil_page):
    page, log, _ = open_page(browser, evil_page)
    try:
        index = _index_of(page, "evil-1")
        assert index >= 0
        # hover: the tooltip shows the text
        page.evaluate("k => kg.network.moveTo({position: kg.network.getPosition(k), scale: 3})", index)
        point = _node_point(page, index)
        on_top = "k => kg.network.getNodeAt(kg.network.canvasToDOM(kg.network.getPosition(k)))"
        assert page.evaluate(on_top, index) == index  # no other node covers it
        page.mouse.move(point["x"], point["y"])
        page.wait_for_selector("#kg-tooltip:not([hidden])", timeout=5000)
        tooltip = page.locator("#kg-tooltip").inner_text()
        assert "</script><script>window.__kgPwned='title'</script>" in tooltip
        assert "<img src=x onerror=" in tooltip
        # search and select it: the details panel shows the text
        page.fill("#kg-search", "evil </script>")
        page.press("#kg-search", "Enter")
        assert page.evaluate("kg.network.getSelectedNodes()") == [index]
        details = page.locator("#kg-details").inner_text()
        assert "<script>window.__kgPwned='abstract'</script>" in details
        assert "<b>Venue</b>" in details
        page.wait_for_timeout(300)
        assert page.evaluate("typeof window.__kgPwned") == "undefined"
        assert page.locator("#kg-app img, #kg-app script").count() == 0
        _assert_offline_and_clean(log, evil_page)
    finally:
        page.close()


@pytest.mark.slow
def test_five_thousand_nodes_open_and_respond(browser, tmp_path):
    path = tmp_path / "big.html"
    path.write_text(render_html(synthetic_graph(5000, seed=1), top=None), encoding="utf-8")
    page, log, seconds = open_page(browser, path)
    try:
        assert page.evaluate("kg.data.nodes.length") == 5000
        hits = page.evaluate("kg.search('paper 1234')")
        assert hits and page.evaluate("k => kg.data.nodes[k].id", hits[0]) == "P01234"
        page.evaluate("k => kg.select(k, true)", hits[0])
        assert page.evaluate("kg.network.getSelectedNodes()") == [hits[0]]
        _assert_offline_and_clean(log, path)
    finally:
        page.close()


@pytest.fixture(scope="module")
def large_graph():
    return synthetic_graph(4000, seed=11)


def _readable_labels(page) -> list[dict]:
    """The labels readable at the current zoom (see ``_browser.readable_labels``), after checking
    that no two labels on the canvas overlap and that each shows ink (its text) on a screenshot."""
    from PIL import Image

    labels = readable_labels(page)
    drawn = page.evaluate("kg.labels()")
    for i, a in enumerate(drawn):
        for b in drawn[:i]:
            apart = (a["box"][2] <= b["box"][0] or b["box"][2] <= a["box"][0]
                     or a["box"][3] <= b["box"][1] or b["box"][3] <= a["box"][1])
            assert apart, f"labels overlap: {a} {b}"
    image = Image.open(io.BytesIO(page.locator("#kg-network").screenshot())).convert("L")
    for label in labels:
        left, top, right, bottom = (round(v) for v in label["box"])
        dark = sum(1 for v in image.crop((left, top, right, bottom)).getdata() if v < 100)
        assert dark >= 8, f"no text drawn in {label}"
    return labels


@pytest.mark.parametrize("view", ["bipartite", "concepts", "communities"])
def test_large_graph_opens_as_a_labelled_map(browser, large_graph, tmp_path, view):
    from _html_graphs import map_metrics

    path = tmp_path / f"{view}.html"
    path.write_text(render_html(large_graph, view=view), encoding="utf-8")
    page, log, seconds = open_page(browser, path)
    try:
        data = page.evaluate("kg.data")
        metrics = map_metrics(data)
        assert metrics["isolated"] == 0.0, metrics
        labels = _readable_labels(page)
        if view == "communities":
            assert len(labels) == len(data["nodes"]) >= 10  # every community named
            OUTPUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUTPUT / "graph_large_communities.png"))
        else:
            assert len(data["nodes"]) == 2000 and metrics["agreement"] >= 0.6 > metrics["baseline"], metrics
            assert len(labels) >= 20, f"{len(labels)} readable labels at the opening zoom"
            OUTPUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUTPUT / f"graph_large_{view}.png"))
        _assert_offline_and_clean(log, path)
    finally:
        page.close()


def test_a_click_on_a_community_opens_its_papers_and_concepts(browser, large_graph, tmp_path):
    path = tmp_path / "communities.html"
    path.write_text(render_html(large_graph, view="communities"), encoding="utf-8")
    page, log, _ = open_page(browser, path)
    try:
        index = page.evaluate("kg.data.nodes.reduce((b, n, k, all) => n.size > all[b].size ? k : b, 0)")
        info = page.evaluate("k => kg.data.nodes[k].info", index)
        point = _node_point(page, index)
        page.mouse.click(point["x"], point["y"])
        assert page.evaluate("kg.network.getSelectedNodes()") == [index]
        details = page.locator("#kg-details")
        assert details.is_visible()
        text = details.inner_text()
        assert info["title"] in text and f"{info['papers']} papers" in text
        assert info["concepts"][0] in text and info["central"][0]["title"] in text
        assert f"--community {page.evaluate('k => kg.data.nodes[k].community', index)}" in text
        assert len(page.evaluate("kg.highlighted()")) > 1  # its neighbouring communities
        _assert_offline_and_clean(log, path)
    finally:
        page.close()


def test_the_legend_lists_only_the_shapes_drawn(browser, large_graph, tmp_path):
    path = tmp_path / "communities.html"
    path.write_text(render_html(large_graph, view="communities"), encoding="utf-8")
    page, log, _ = open_page(browser, path)
    try:
        shown = page.evaluate("""[...document.querySelectorAll('#kg-shapes li')]
            .filter(li => getComputedStyle(li).display !== 'none').map(li => li.textContent.trim())""")
        assert shown == ["community (size = papers)", "edge width = weight"]
    finally:
        page.close()


def test_enter_right_after_a_new_query_picks_from_that_querys_hits(browser, example_page):
    """ArrowDown three times on one query's list, then a query with one hit and Enter before the
    list is redrawn (within its 60 ms): the one hit is chosen, and no TypeError is thrown."""
    page, log, _ = open_page(browser, example_page)
    try:
        page.fill("#kg-search", "graph")
        page.wait_for_selector("#kg-results li[aria-selected='true']")
        assert page.evaluate("kg.search('graph').length") > 4
        for _ in range(3):
            page.press("#kg-search", "ArrowDown")
        assert page.locator("#kg-results li").nth(3).get_attribute("aria-selected") == "true"
        query = page.evaluate("kg.data.nodes.map(n => n.info.title).find(t => t && kg.search(t).length === 1)")
        assert query, "no title with exactly one hit in the example"
        page.evaluate("""q => {
            const input = document.getElementById('kg-search');
            input.value = q;
            input.dispatchEvent(new Event('input'));
            input.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
        }""", query)
        assert log.errors == [], log.errors
        (hit,) = page.evaluate("q => kg.search(q)", query)
        assert page.evaluate("kg.network.getSelectedNodes()") == [hit]
    finally:
        page.close()
