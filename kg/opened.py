"""A build folder opened for reading (``kg.load``): answers from its index at once, the graph when touched.

:func:`load` opens the folder's read index (:mod:`kg.index`) and returns an
:class:`OpenedBuild` in milliseconds; nothing else is read. :meth:`OpenedBuild.search`,
:meth:`~OpenedBuild.related`, :meth:`~OpenedBuild.concept_rows` and
:meth:`~OpenedBuild.community_concepts` answer from the index. The NetworkX graph and the
analysis are read (``graph.json``, ``analysis.json``: seconds on a large build) only when
``.graph``, ``.analysis`` or a method of :class:`kg.api.KnowledgeGraph` is first used; the
object then acts as that :class:`~kg.api.KnowledgeGraph` (``reanalyze``, ``write``,
``to_html``, ``to_pandas`` …).

A build written by a kg older than the index has none: the same calls then read the whole
graph (slowly), and :attr:`OpenedBuild.hint` says how to write the index. A damaged index is
never used: :attr:`OpenedBuild.hint` says why, and the answers come from the graph.

This module sits above :mod:`kg.api` and reaches it, like ``kg/__init__``, only through the
package's lazy attributes (``kg.KnowledgeGraph``, ``kg.search``), so that opening a build
does not import the pipeline.
"""

from __future__ import annotations

import os

import kg
from kg.errors import GraphFileError, OptionError
from kg.index import BuildIndex, IndexDamagedError, IndexMissingError, index_hint, open_index

__all__ = ["OpenedBuild", "load"]


def load(folder: str | os.PathLike[str], *, damaged_analysis: str = "raise") -> "OpenedBuild":
    """The build in ``folder``, opened for reading: its index now, its graph and analysis when first used.

    Returns in milliseconds whatever the size of the build: the NetworkX graph is built only
    when ``.graph`` is first touched (and ``.analysis`` read when first touched); searches,
    related papers and concept rankings come from the index (``index.sqlite``) without it.
    Every :class:`kg.api.KnowledgeGraph` attribute and method works on the result.

    Parameters
    ----------
    folder : path
        A ``kg build`` output folder.
    damaged_analysis : {"raise", "ignore"}
        As for :meth:`kg.api.KnowledgeGraph.read`, applied when the analysis is read.

    Raises
    ------
    GraphFileError
        When the folder or its ``graph.json`` is missing.
    """
    if damaged_analysis not in ("raise", "ignore"):
        raise OptionError("damaged_analysis", f"must be 'raise' or 'ignore', not {damaged_analysis!r}")
    if not isinstance(folder, (str, os.PathLike)):
        raise OptionError("folder", f"must be a path (str or os.PathLike) to a kg build folder, not {folder!r}")
    name = os.fspath(folder)
    if not os.path.exists(name):
        raise GraphFileError(f"{name}: no such folder; build one with kg build PAPERS --out DIR")
    if not os.path.isdir(name):  # a graph.json given itself (or a file that is none: reading it says so)
        return OpenedBuild(name, None, None, damaged_analysis)
    if not os.path.isfile(os.path.join(name, "graph.json")):
        raise GraphFileError(f"{name}: no graph.json in this folder; build one with kg build PAPERS --out DIR")
    index, hint = None, None
    try:
        index = open_index(name)
    except IndexMissingError:
        hint = index_hint(name)
    except IndexDamagedError as exc:
        hint = f"{exc}; answering from graph.json meanwhile"
    return OpenedBuild(name, index, hint, damaged_analysis)


class OpenedBuild:
    """A build folder opened by :func:`load`.

    Attributes
    ----------
    folder : str
    index : BuildIndex or None
        The read index; None for a build without one (or with a damaged one).
    hint : str or None
        Why there is no index and how to write one (one line), else None.
    graph : networkx.MultiDiGraph
        Read from ``graph.json`` on first touch (seconds on a large build).
    analysis : dict
        Read from ``analysis.json`` on first touch.
    """

    def __init__(self, folder: str, index: BuildIndex | None, hint: str | None, damaged_analysis: str = "raise"):
        self.folder = folder
        self.index = index
        self.hint = hint
        self._damaged = damaged_analysis
        self._full = None

    def __repr__(self) -> str:
        if self._full is not None:
            return repr(self._full)
        if self.index is not None:
            meta = self.index.meta
            return (f"<KnowledgeGraph: {meta.get('papers', 0)} papers, {meta.get('concepts', 0)} concepts, "
                    f"{meta.get('communities', 0)} communities>")
        return f"<KnowledgeGraph of {self.folder} (not read yet)>"

    def knowledge_graph(self):
        """The build as a :class:`kg.api.KnowledgeGraph` (its graph and analysis read now, once)."""
        if self._full is None:
            self._full = kg.KnowledgeGraph.read(self.folder, damaged_analysis=self._damaged)
        return self._full

    @property
    def graph(self):
        """The NetworkX graph, read from ``graph.json`` when first touched."""
        return self.knowledge_graph().graph

    @property
    def analysis(self) -> dict:
        """The analysis, read from ``analysis.json`` (with the graph) when first touched."""
        return self.knowledge_graph().analysis

    def __getattr__(self, name: str):
        """Every other :class:`kg.api.KnowledgeGraph` attribute and method, on the graph read then."""
        if name.startswith("__") or name in ("_full", "index", "folder", "hint", "_damaged"):
            raise AttributeError(name)
        return getattr(self.knowledge_graph(), name)

    def settings(self) -> dict:
        """What made the analysis: ``seed``, ``resolution``, ``method``, ``scoring``."""
        if self.index is not None and self._full is None:
            made = self.index.meta.get("settings") or {}
            return {"seed": int(made["seed"]), "resolution": float(made["resolution"]),
                    "method": made.get("method", "louvain"), "scoring": made.get("scoring", "ctfidf")}
        return self.knowledge_graph().settings()

    # --- answers from the index (else from the graph) ------------------------------------

    def search(self, text: str, *, top: int = 10, embedder=None, model: str | os.PathLike[str] | None = None) -> dict:
        """:func:`kg.search.search_build` for this build: papers and concepts nearest in meaning to ``text``
        (from the index and the memory-mapped vectors when there is an index)."""
        if self.index is not None:
            # kg.index.query loads the embedders' code (kg.extract): only a search needs it, so the other
            # read commands start without it (0.05-0.1 s)
            from kg.index.query import search_index

            return search_index(self.index, text, top=top, embedder=embedder, model=model)
        graph = self._full.graph if self._full is not None else None
        return kg.search.search_build(self.folder, text, top=top, embedder=embedder, model=model, graph=graph)

    def find_paper(self, query: str) -> str:
        """The id of the paper ``query`` names (id, title, or a unique part of one)."""
        if self.index is not None:
            return self.index.find_paper(query)
        return self.knowledge_graph().find_paper(query)

    def labels(self, ids) -> dict[str, str]:
        """Node id -> how listings name it (a concept with its acronym, a paper by its title)."""
        ids = list(ids)
        if self.index is not None:
            return self.index.labels(ids)
        return self.knowledge_graph().labels(ids)

    def related(self, paper: str, *, by: str = "concepts", top: int = 10) -> list[dict]:
        """:func:`kg.analyze.related.related_by` for the paper ``paper`` names (an id, a title or a unique
        part of one); ``concepts`` and ``embedding`` come from the index when there is one."""
        if self.index is not None and by in ("concepts", "embedding"):
            return self.index.related_by(self.index.find_paper(paper), by=by, top=top)
        return self.knowledge_graph().related(paper, by=by, top=top, folder=self.folder)

    def concept_rows(self, *, top: int = 20) -> list[dict]:
        """:func:`kg.analyze.concept_rows`: the most frequent concepts (from the index up to 500)."""
        rows = self.index.concept_rows(top=top) if self.index is not None else None
        return rows if rows is not None else self.knowledge_graph().concept_rows(top=top)

    def community_concepts(self, community: int, *, top: int = 20, seed: int | None = None,
                           resolution: float | None = None, method: str = "louvain",
                           scoring: str = "ctfidf") -> dict:
        """:func:`kg.analyze.community_concepts` of community number ``community``: from the index when
        asked with the analysis's own seed, resolution and method."""
        settings = self.settings()
        seed = settings["seed"] if seed is None else seed
        resolution = settings["resolution"] if resolution is None else resolution
        if self.index is not None and (seed, resolution, method) == (
                settings["seed"], settings["resolution"], settings["method"]):
            row = self.index.community_concepts(community, top=top, scoring=scoring)
            if row is not None:
                return row
        return self.knowledge_graph().community_concepts(community, top=top, seed=seed, resolution=resolution,
                                                         method=method, scoring=scoring)
