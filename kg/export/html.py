"""The browsable graph page of a whole graph: :func:`render_html` = the view chosen
(:func:`kg.export.html_view.graph_view`) + the page drawn (:mod:`kg.export.drawing`, which says what
the page holds and how it keeps the corpus's text safe).

The drawing lives apart so the read index's views (:mod:`kg.index.views`) draw the same page without
importing the analysis (:mod:`kg.analyze`) and SciPy that choosing a view of the whole graph needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from kg.defaults import SEED
from kg.export.drawing import (NONE_COLOR, OTHER_COLOR, PALETTE, color_of, detail_concepts, layout_positions,
                               render_view, view_payload)
from kg.export.html_view import SIZE_BY, VIEWS, graph_view
from kg.identifiers import paper_link

__all__ = ["render_html", "render_view", "view_payload", "detail_concepts", "layout_positions", "color_of", "PALETTE",
           "OTHER_COLOR", "NONE_COLOR", "paper_link", "VIEWS", "SIZE_BY"]


def render_html(
    graph: nx.MultiDiGraph,
    *,
    view: str = "bipartite",
    top: int | None = 2000,
    min_weight: float = 0.0,
    community: int | None = None,
    focus: str | None = None,
    depth: int = 1,
    size_by: str = "pagerank",
    seed: int = SEED,
    resolution: float | None = None,
    title: str = "kg graph",
    analysis: Mapping | None = None,
    communities: Mapping[str, int] | None = None,
    community_labels: Sequence[str] | None = None,
    membership: tuple[Mapping[str, int], list[dict]] | None = None,
    community_links: Mapping[tuple[int, int], float] | None = None,
) -> str:
    """A self-contained HTML page drawing one view of ``graph``.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (see :mod:`kg.graph`).
    view, top, min_weight, community, focus, depth, size_by, seed, resolution
        Which part to draw; see :func:`kg.export.html_view.graph_view`. The
        defaults keep at most 2,000 nodes, which opens in about a second.
    analysis : mapping, optional
        The build's analysis (``KnowledgeGraph.analysis``, ``analysis.json``; see
        :mod:`kg.analyze.result`): the page shows exactly its communities, numbered and labeled
        as in the report and Neo4j. Without it, ``communities`` (paper id -> number) and
        ``community_labels`` computed elsewhere; with neither, the communities are found
        as the analysis finds them (``seed``, ``resolution``: default, the graph's own).
    membership, community_links : optional
        The communities of every node (and the weights between communities) computed
        beforehand over the whole graph (see :func:`kg.export.html_view.graph_view`); ``graph``
        may then be the part of the graph around what is shown (what :mod:`kg.index` reads).
    title : str
        Page title and heading.

    Returns
    -------
    str
        The page; it makes no network request. Equal input gives an equal page.

    Raises
    ------
    kg.errors.ViewError
        When the view options name something that does not exist.
    """
    shown = graph_view(graph, view=view, top=top, min_weight=min_weight, community=community,
                       focus=focus, depth=depth, size_by=size_by, seed=seed, resolution=resolution,
                       analysis=analysis, communities=communities, community_labels=community_labels,
                       membership=membership, community_links=community_links)
    return render_view(graph, shown, seed=seed, title=title)
