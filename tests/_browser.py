"""Headless Chromium for the HTML tests and bench: Debian's /usr/bin/chromium driven by Playwright.

No browser is downloaded: Playwright only speaks the DevTools protocol to the system
Chromium (``make test`` installs it with apt). :func:`browser_or_skip` gives a clear
skip reason when Chromium or the ``playwright`` package is missing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # nothing resolves, even if a request slipped through
]


def find_chromium() -> str | None:
    """Path of the system Chromium (``$KG_CHROMIUM``, /usr/bin/chromium, or on PATH), else None."""
    for candidate in (os.environ.get("KG_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def why_unavailable() -> str | None:
    """None when a browser test can run, else the reason to skip."""
    if find_chromium() is None:
        return ("Chromium not found at /usr/bin/chromium: run `make test` (it runs "
                "`apt-get install -y chromium`) or set KG_CHROMIUM")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: pip install -e '.[test]' (no `playwright install` needed)"
    return None


@dataclass
class PageLog:
    """What a page did: every request it made (URL) and every console error or page error."""

    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)


@contextlib.contextmanager
def chromium(width: int = 1400, height: int = 900, *, loopback: bool = False):
    """A fresh persistent context (new --user-data-dir) on the system Chromium; yields the context.

    No host name resolves; with ``loopback`` the address 127.0.0.1 still does (for a page a local
    server such as ``kg serve`` answers), and nothing else."""
    from playwright.sync_api import sync_playwright

    flags = [f + ", EXCLUDE 127.0.0.1" if loopback and f.startswith("--host-resolver-rules=") else f
             for f in CHROMIUM_FLAGS]
    with tempfile.TemporaryDirectory(prefix="kg-chromium-") as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=find_chromium(), headless=True, args=flags,
            viewport={"width": width, "height": height}, service_workers="block",
        )
        try:
            yield context
        finally:
            context.close()


def _recorded_page(context, allowed) -> tuple:
    """A new page of ``context`` whose requests, console lines and errors go to a :class:`PageLog`, and
    whose requests for URLs ``allowed`` refuses are blocked. Returns ``(page, log)``."""
    log = PageLog()

    def route(r):
        if allowed(r.request.url):
            r.continue_()
        else:
            r.abort()

    page = context.new_page()
    page.route("**/*", route)
    page.on("request", lambda req: log.requests.append(req.url))
    page.on("console", lambda msg: (log.console.append(f"{msg.type}: {msg.text}"),
                                    log.errors.append(msg.text) if msg.type == "error" else None))
    page.on("pageerror", lambda exc: log.errors.append(f"pageerror: {exc}"))
    return page, log


def open_page(context, path: Path, *, timeout_ms: int = 60_000):
    """Open ``path`` with every request recorded and all but the page itself blocked.

    Returns ``(page, log, seconds)`` where ``seconds`` is the time from navigation to
    the page's ready signal (``window.kg.ready``, set after the first full drawing).
    """
    page_url = Path(path).resolve().as_uri()
    page, log = _recorded_page(context, lambda url: url == page_url)
    page.goto(page_url, wait_until="load", timeout=timeout_ms)
    page.wait_for_function("() => window.kg && window.kg.ready !== null", timeout=timeout_ms, polling=50)
    seconds = page.evaluate("window.kg.ready") / 1000.0  # performance.now() counts from navigation start
    return page, log, seconds


def readable_labels(page) -> list[dict]:
    """The node labels the page drew in its last frame that a person can read: wholly on the
    canvas, at least 10 px, overlapping no other label. Each is ``{node, px, box}`` (box in
    canvas pixels: left, top, right, bottom)."""
    width, height = page.evaluate("[kg.network.canvas.frame.clientWidth, kg.network.canvas.frame.clientHeight]")
    shown = [label for label in page.evaluate("kg.labels()")
             if label["box"][0] >= 0 and label["box"][1] >= 0 and label["box"][2] <= width
             and label["box"][3] <= height and label["px"] >= 10]

    def apart(a, b):
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]

    return [a for i, a in enumerate(shown)
            if all(apart(a["box"], b["box"]) for j, b in enumerate(shown) if j != i)]


def open_served(context, url: str, *, timeout_ms: int = 60_000):
    """Open ``url`` of a running ``kg serve`` with every request recorded and any that would leave its
    origin blocked; wait until the page has drawn its view. Returns ``(page, log)``."""
    origin = "/".join(url.split("/", 3)[:3]) + "/"
    page, log = _recorded_page(context, lambda wanted: wanted.startswith(origin))
    page.goto(url, wait_until="load", timeout=timeout_ms)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=timeout_ms)
    return page, log
