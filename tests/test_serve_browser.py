"""kg serve in a real headless Chromium: search as one types, a paper's neighbourhood, a concept, the
communities and back (links, back and forward, deep links), the year range, nothing fetched from
anywhere but the server, and hostile titles shown as text.

The server is the real ``kg serve`` subprocess (tests/_served.py); the browser is the system Chromium
(tests/_browser.py), which skips these tests with the reason when it is missing.
"""

from __future__ import annotations

from contextlib import contextmanager
from urllib.parse import quote

import pytest

from _browser import open_served, why_unavailable
from _served import EVIL_ID, EVIL_TITLE, IMG_TITLE
from kg.export.html import PALETTE

pytestmark = pytest.mark.skipif(why_unavailable() is not None, reason=str(why_unavailable()))

SPECTRAL = "gnn-2016-spectral"


def _view(page, ready: str, timeout_ms: int = 30_000) -> None:
    """Wait until the page has drawn the view ``ready`` (``paper:ID``, ``community:N``, ``communities:``)."""
    page.wait_for_function("v => document.body.getAttribute('data-ready') === v", arg=ready, timeout=timeout_ms)


def _clean(log, server) -> None:
    assert log.requests and all(u.startswith(server.url) for u in log.requests), \
        [u for u in log.requests if not u.startswith(server.url)]
    assert log.errors == [], log.errors
    assert log.console == [] or all(not c.startswith("error") for c in log.console)


@contextmanager
def _explorer(browser, server, query: str = "", ready: str = "communities:", *, clean: bool = True):
    """The explorer opened at ``server.url + query`` and drawn (``ready``), as ``(page, log)``; on leaving,
    every request must have gone to the server and nothing have been logged as an error (unless not
    ``clean``: the test checks its log itself)."""
    page, log = open_served(browser, server.url + query)
    try:
        _view(page, ready)
        yield page, log
        if clean:
            _clean(log, server)
    finally:
        page.close()


def _texts(page, selector: str) -> list[str]:
    return page.locator(selector).all_text_contents()


def test_search_as_one_types_then_open_a_paper_and_its_neighbourhood(loopback_browser, server):
    with _explorer(loopback_browser, server) as (page, _):
        page.click("#x-search")
        page.keyboard.type("spectral gra", delay=40)
        hit = page.locator("#x-results .x-hit", has_text="Spectral Graph Convolutions")
        hit.first.wait_for()
        assert page.locator("#x-results .x-group").first.text_content() == "Papers"
        hit.first.click()
        _view(page, f"paper:{SPECTRAL}")
        assert page.url == server.url + "?paper=" + SPECTRAL
        answer = server.json("/api/paper?id=" + SPECTRAL)
        assert page.locator("#x-side h2").text_content() == answer["paper"]["title"]
        related = page.locator("#x-side .x-papers li")
        assert related.count() == len(answer["related"]) > 3
        for k, row in enumerate(answer["related"]):
            assert row["title"] in related.nth(k).text_content()
            assert str(row["year"]) in related.nth(k).locator(".x-year").text_content()
        drawn = page.evaluate("kgx.network.body.nodeIndices.length")
        assert drawn == len(answer["graph"]["nodes"])
        assert page.evaluate("kgx.network.body.edgeIndices.length") == len(answer["graph"]["edges"])
        # the way back to the overview is in sight, and the paper's community is one click away
        assert page.locator("#x-crumbs a.x-overview").is_visible()
        community = answer["paper"]["community"]
        assert page.locator("#x-crumbs a", has_text=f"Community {community['id']} · ").is_visible()
        # a related paper, then back and forward
        second = answer["related"][0]
        related.first.locator("a").click()
        _view(page, f"paper:{second['id']}")
        assert page.locator("#x-side h2").text_content() == second["title"]
        page.go_back()
        _view(page, f"paper:{SPECTRAL}")
        page.go_forward()
        _view(page, f"paper:{second['id']}")
        # Enter opens the first hit
        page.fill("#x-search", "")
        page.click("#x-search")
        page.keyboard.type("over-smooth", delay=30)
        page.locator("#x-results .x-hit").first.wait_for()
        page.keyboard.press("Enter")
        _view(page, "paper:gnn-2019-oversmoothing")


def test_a_concept_shows_its_papers_over_time_and_its_companions(loopback_browser, server):
    with _explorer(loopback_browser, server, "?paper=" + SPECTRAL, f"paper:{SPECTRAL}") as (page, _):
        chip = page.locator("#x-side .x-chips a").first
        name = chip.text_content()
        chip.click()
        concept = page.evaluate("kgx.state.id")
        _view(page, f"concept:{concept}")
        answer = server.json("/api/concept?id=" + quote(concept, safe=""))
        assert page.locator("#x-side h2").text_content() == name == answer["concept"]["name"]
        bars = page.locator("#x-side .x-bar")
        assert bars.count() == len(answer["years"])
        assert [int(bars.nth(k).get_attribute("data-year")) for k in range(bars.count())] == [y for y, _ in answer["years"]]
        assert _texts(page, "#x-side .x-chips a") == [f"{c['name']} {c['count']}" for c in answer["cooccurring"]]
        assert page.locator("#x-side .x-papers li").count() == len(answer["papers"])
        assert page.evaluate("kgx.network.body.nodeIndices.length") == len(answer["cooccurring"]) + 1


def test_from_the_overview_into_a_community_and_back(loopback_browser, server):
    with _explorer(loopback_browser, server, clean=False) as (page, log):
        overview = server.json("/api/communities")
        rows = page.locator("#x-side .x-communities li")
        assert rows.count() == len(overview["communities"]) >= 2
        assert page.evaluate("kgx.palette") == list(PALETTE)  # a community has the graph page's colour
        # a click on the community's disc in the drawing opens it
        point = page.evaluate("""() => { const net = kgx.network, p = net.canvasToDOM(net.getPosition(0)),
            box = document.getElementById('x-graph').getBoundingClientRect();
            return {x: box.left + p.x, y: box.top + p.y}; }""")
        page.mouse.click(point["x"], point["y"])
        first = overview["communities"][0]
        _view(page, f"community:{first['id']}")
        assert page.locator("#x-side h2").text_content() == first["label"]
        assert page.locator("#x-crumbs a.x-overview").is_visible()
        assert page.locator("#x-side a.x-back", has_text="All communities").is_visible()
        answer = server.json(f"/api/community?id={first['id']}")
        assert page.locator("#x-side .x-papers li").count() == len(answer["papers"])
        assert page.evaluate("kgx.network.body.nodeIndices.length") == len(answer["graph"]["nodes"])
        # back to the overview by the breadcrumb; the browser's back and forward retrace it
        page.locator("#x-crumbs a.x-overview").click()
        _view(page, "communities:")
        page.go_back()
        _view(page, f"community:{first['id']}")
        page.go_forward()
        _view(page, "communities:")
        # the overview's list opens another; a paper of it leads back to it by its breadcrumb
        other = overview["communities"][1]
        rows.nth(1).locator("a").click()
        _view(page, f"community:{other['id']}")
        page.locator("#x-side .x-papers a").first.click()
        paper = page.evaluate("kgx.state.id")
        _view(page, f"paper:{paper}")
        page.locator("#x-crumbs a", has_text=f"Community {other['id']} · ").click()
        _view(page, f"community:{other['id']}")
        # a deep link opens the view directly; a bad one says so, with the way back
        page.goto(server.url + f"?community={first['id']}")
        _view(page, f"community:{first['id']}")
        _clean(log, server)
        page.goto(server.url + "?paper=no-such-paper")
        _view(page, "paper:no-such-paper")
        assert "no paper with id 'no-such-paper'" in page.locator("#x-side .x-error").text_content()
        assert page.locator("#x-crumbs a.x-overview").is_visible()
        assert log.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]


def test_the_year_range_filters_every_view_and_stays_in_the_address(loopback_browser, server):
    with _explorer(loopback_browser, server) as (page, _):
        page.fill("#x-year-from", "2019")
        page.fill("#x-year-to", "2021")
        page.click("#x-year-apply")
        _view(page, "communities:")
        assert page.url == server.url + "?from=2019&to=2021"
        assert page.locator("#x-crumbs .x-range").text_content() == "years 2019–2021"
        ranged = server.json("/api/communities?from=2019&to=2021")["communities"]
        assert _texts(page, "#x-side .x-communities .x-count") == [f"{c['in_range']} / {c['size']}" for c in ranged]
        page.locator("#x-side .x-communities a").first.click()
        _view(page, f"community:{ranged[0]['id']}")
        assert "from=2019&to=2021" in page.url
        years = [int(t) for t in _texts(page, "#x-side .x-papers .x-year")]
        assert years and all(2019 <= y <= 2021 for y in years)
        assert page.locator("#x-side .x-bar.x-out").count() > 0  # the years outside the range are pale
        page.click("#x-search")
        page.keyboard.type("graph", delay=30)
        page.locator("#x-results .x-hit").first.wait_for()
        found = [t for t in _texts(page, "#x-results .x-hit .x-year") if t.isdigit()]
        assert found and all(2019 <= int(t) <= 2021 for t in found)
        page.keyboard.press("Escape")
        page.click("#x-year-all")
        _view(page, f"community:{ranged[0]['id']}")
        assert "from=" not in page.url and page.locator("#x-crumbs .x-range").count() == 0


def test_hostile_titles_ids_and_links_are_shown_as_text(loopback_browser, server):
    with _explorer(loopback_browser, server) as (page, _):
        page.click("#x-search")
        page.keyboard.type("evil quoted", delay=30)
        hit = page.locator("#x-results .x-hit .x-title").first
        hit.wait_for()
        assert hit.text_content() == EVIL_TITLE
        hit.click()
        _view(page, f"paper:{EVIL_ID}")
        assert page.locator("#x-side h2").text_content() == EVIL_TITLE
        assert "<b>Venue</b>" in page.locator("#x-side").text_content()
        assert "\"><svg onload=\"window.__kgPwned='author'\">" in page.locator("#x-side").text_content()
        assert page.locator("#x-side a.x-link").count() == 0  # a javascript: id is no link
        assert page.evaluate("window.__kgPwned") is None
        assert page.evaluate("document.querySelectorAll('script').length") == 3
        assert page.evaluate("document.querySelectorAll('#x-side svg, #x-side img, #x-side b, #x-results b').length") == 0
        page.goto(server.url + "?paper=evil-img")
        _view(page, "paper:evil-img")
        assert page.locator("#x-side h2").text_content() == IMG_TITLE
        link = page.locator("#x-side a.x-link")
        assert link.get_attribute("href") == server.json("/api/paper?id=evil-img")["paper"]["link"]
        assert link.get_attribute("href").startswith("https://doi.org/10.1234/evil")
        assert link.get_attribute("rel") == "noopener noreferrer"
        hrefs = page.evaluate("Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
        assert hrefs and all(h.startswith(server.url) or h.startswith("https://") for h in hrefs), hrefs
        assert page.evaluate("window.__kgPwned") is None
        assert page.evaluate("document.querySelectorAll('#x-side img, #x-side svg, #x-crumbs img').length") == 0
