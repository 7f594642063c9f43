"""A pyvis ``Network`` whose pages open offline.

pyvis's template links Bootstrap (and, with some options, vis-network and tom-select) from
CDNs even with ``cdn_resources="in_line"``, so a page written on a laptop on a train draws
nothing. :class:`OfflineNetwork` inlines what pyvis ships (vis-network is inlined by
``in_line`` already) and drops every ``<link>`` and ``<script src>`` that points at the
network: Bootstrap only styles pyvis's optional menus, which kg does not turn on.
"""

from __future__ import annotations

import functools
import re

__all__ = ["OfflineNetwork", "offline_html", "offline_network"]

_REMOTE = re.compile(r"""<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?//[^>]*>"""
                     r"""|<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?//[^>]*>\s*</script\s*>""", re.I | re.S)


def offline_html(page: str) -> str:
    """``page`` without the stylesheets and scripts it would fetch from the network.

    Examples
    --------
    >>> offline_html('<link href="https://cdn.x/b.css" rel="stylesheet" /><script src="//cdn.x/b.js"></script><p>ok')
    '<p>ok'
    """
    return _REMOTE.sub("", page)


def offline_network(*args, **kwargs):
    """An :class:`OfflineNetwork` (pyvis loads on this first call, not when kg is imported)."""
    return _offline_class()(*args, **kwargs)


@functools.cache
def _offline_class() -> type:
    from pyvis.network import Network  # pyvis (and its Jinja templates) load only for this view

    class OfflineNetwork(Network):
        """:class:`pyvis.network.Network` with its resources in line and nothing fetched from a CDN."""

        def __init__(self, *args, **kwargs) -> None:
            kwargs["cdn_resources"] = "in_line"
            super().__init__(*args, **kwargs)

        def generate_html(self, name: str = "index.html", local: bool = True, notebook: bool = False) -> str:
            self.html = offline_html(super().generate_html(name, local=local, notebook=notebook))
            return self.html

    return OfflineNetwork


def __getattr__(name: str):
    """``OfflineNetwork``: the class, made on first use (pyvis is imported then)."""
    if name == "OfflineNetwork":
        return _offline_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
