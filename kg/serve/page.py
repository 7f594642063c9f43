"""The explorer's page and its static files, all from the package: no CDN, no build step.

The page is one HTML document (``kg/resources/explore.html``) with its style and script served
beside it (``/static/explore.css``, ``/static/explore.js``) and vis-network 9.1.2 as pyvis ships
it (``/static/vis-network.min.js`` and its style), so it works without a network. What the page needs before
its first request (the build's name, its years) sits in a ``<script type="application/json">``
block, escaped by :func:`kg.escape.script_json`; the title is HTML-escaped. Every other corpus
string arrives as JSON from the API and the script puts it into the document as text only.

:data:`SECURITY_HEADERS` go with every answer: the Content-Security-Policy lets the page load
scripts, styles and data from its own origin alone and connect nowhere else.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import resources

from kg.escape import script_json
from kg.visnetwork import vis_network_folder

__all__ = ["Asset", "SECURITY_HEADERS", "page_html", "static_assets"]

SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                                "img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


@dataclass(frozen=True)
class Asset:
    """A file the page loads: its bytes and media type."""

    body: bytes
    media_type: str


def _resource(name: str) -> str:
    return (resources.files("kg") / "resources" / name).read_text(encoding="utf-8")


def static_assets() -> dict[str, Asset]:
    """The files under ``/static/``, by name, read once from the package (and pyvis's vis-network)."""
    vis = vis_network_folder()
    return {
        "explore.js": Asset(_resource("explore.js").encode("utf-8"), "text/javascript; charset=utf-8"),
        "explore.css": Asset(_resource("explore.css").encode("utf-8"), "text/css; charset=utf-8"),
        "vis-network.min.js": Asset((vis / "vis-network.min.js").read_bytes(), "text/javascript; charset=utf-8"),
        "vis-network.css": Asset((vis / "vis-network.css").read_bytes(), "text/css; charset=utf-8"),
    }


def page_html(title: str, meta: dict) -> str:
    """The page: ``title`` as text, ``meta`` (JSON-safe) in its data block.

    Examples
    --------
    >>> page = page_html("<b>x</b>", {"build": "</script>"})
    >>> "<title>&lt;b&gt;x&lt;/b&gt;</title>" in page, "</script>\\"" in page
    (True, False)
    """
    parts = {"@@TITLE@@": html.escape(title), "@@META@@": script_json(meta)}
    pieces = _resource("explore.html").split("@@")
    # One pass over the template, so text that looks like a placeholder is never replaced twice.
    return "".join(parts.get(f"@@{p}@@", p) if i % 2 else p for i, p in enumerate(pieces))
