"""The browsable graph page: pyvis with every script and style inlined (works offline).

Papers are boxes and concepts dots; node size follows degree. Positions are
precomputed with a seeded spring layout so the page is readable at once and
physics is off.
"""

from __future__ import annotations

import html
import re

import networkx as nx

__all__ = ["render_html"]

_REMOTE = re.compile(r"<(link|script)\b[^>]*\b(?:href|src)=\"https?://[^>]*>(?:\s*</script>)?", re.S)


def _tooltip(data: dict) -> str:
    if data.get("kind") == "paper":
        bits = [f"<b>{html.escape(str(data.get('title', '')))}</b>"]
        meta = " · ".join(html.escape(str(v)) for v in (data.get("year"), data.get("venue")) if v)
        if meta:
            bits.append(meta)
        abstract = str(data.get("abstract", ""))
        bits.append(html.escape(abstract[:300] + ("…" if len(abstract) > 300 else "")))
    else:
        bits = [f"<b>{html.escape(str(data.get('name', '')))}</b>",
                f"{data.get('papers', 0)} papers",
                html.escape(", ".join(data.get("aliases", [])[:8]))]
    return "<br>".join(bits)


def render_html(graph: nx.MultiDiGraph, *, seed: int = 42, title: str = "kg graph") -> str:
    """A self-contained HTML page showing papers, concepts and their links."""
    from pyvis.network import Network  # imported here: pyvis pulls in jinja2 and IPython

    view = nx.Graph()
    view.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if d.get("kind") in ("paper", "concept"))
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key in ("mentions", "cites"):
            view.add_edge(u, v, kind=key, weight=data.get("weight", 1))
    positions = nx.spring_layout(view, seed=seed, k=1.5 / max(view.number_of_nodes(), 1) ** 0.5)
    net = Network(height="900px", width="100%", directed=False, cdn_resources="in_line",
                  heading="", notebook=False)
    for node, data in view.nodes(data=True):
        x, y = positions[node]
        is_paper = data.get("kind") == "paper"
        net.add_node(
            node,
            label=str(data.get("label", node))[:40],
            title=_tooltip(data),
            shape="box" if is_paper else "dot",
            color="#4e79a7" if is_paper else "#f28e2b",
            size=8 + 2 * view.degree(node),
            x=float(x) * 1500, y=float(y) * 1500, physics=False,
        )
    for u, v, data in view.edges(data=True):
        net.add_edge(u, v, width=1 + 2 * float(data.get("weight", 1)), color="#bbbbbb")
    net.toggle_physics(False)
    page = net.generate_html(notebook=False)
    page = _REMOTE.sub("", page)
    return page.replace("<head>", f"<head>\n<title>{html.escape(title)}</title>", 1)
