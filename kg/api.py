"""kg from Python: build in memory, look, write when asked.

>>> import kg
>>> result = kg.build([{"id": "p1", "title": "…", "abstract": "…"}, "more.bib"])  # doctest: +SKIP
>>> result.analysis["communities"][0]["label"]                                   # doctest: +SKIP
>>> tables = result.to_pandas(); tables["papers"].head()                         # doctest: +SKIP
>>> result                       # in Jupyter / VS Code: the graph page, inline  # doctest: +SKIP
>>> result.write("out/")         # the files kg build writes                     # doctest: +SKIP

Every ``kg`` command is one of these calls plus printing.
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Union

import networkx as nx

from kg.analyze import analysis_for, analyze, community_concepts, concept_rows
from kg.analyze.communities import METHODS, SCORINGS
from kg.analyze.cooccurrence import MIN_PAPERS, concept_names, dated_mentions
from kg.analyze.evolution import with_evolution
from kg.analyze.forecast import HORIZON, backtest, forecast
from kg.analyze.gaps import concept_gaps, gap_backtest
from kg.analyze.numbering import keep_numbers
from kg.analyze.related import RELATED_BY, find_paper, related_by
from kg.analyze.result import (AnalysisMismatchError, analysis_settings, load_analysis, paper_community,
                               save_analysis, saved_pagerank)
from kg.analyze.textnames import text_names
from kg.atomic import atomic_write
from kg.buildfolder import read_build
from kg.defaults import MAX_RESOLUTION
from kg.errors import GraphFileError, KgError, OptionError
from kg.export.html import color_of, render_html, view_payload
from kg.export.html_view import graph_view
from kg.export.pyvis_page import offline_network
from kg.export.staging import StagedFolder, folder_lock
from kg.extract import load_embedder
from kg.graph import node_label
from kg.graphfile import load_graph
from kg.index.schema import INDEX_FILE
from kg.index.write import write_index
from kg.ingest import corpus_from_records
from kg.models import Concept, Corpus, Paper, Skip
from kg.options import BuildOptions, update_options
from kg.pipeline import BuildResult, folder_cache, kept_inputs, run, run_update, update_warnings, write_outputs
from kg.report import write_report
from kg.vectors import load_paper_vectors

__all__ = ["KnowledgeGraph", "build", "load", "update"]

PaperLike = Union[Paper, Mapping[str, object], str, "os.PathLike[str]"]


@dataclass
class KnowledgeGraph:
    """A built (or loaded) knowledge graph and its one analysis.

    Attributes
    ----------
    graph : networkx.MultiDiGraph
        Papers, concepts (and authors, venues) with ``mentions``, ``related``,
        ``co_occurs`` and ``cites`` edges (see :mod:`kg.graph`).
    analysis : dict
        Communities, centralities and every report table (see :mod:`kg.analyze.result`); the
        report, the page and Neo4j all show this one.
    concepts : dict
        Concept id -> :class:`~kg.models.Concept` (a build's; empty when loaded from a folder).
    skipped : list of Skip
        Records that were not read, with where and why.
    options : BuildOptions
        The parameters of the build.
    changelog : dict or None
        What an update changed (:func:`update`; :func:`kg.changelog.changelog`), written
        as ``changelog.json`` and ``changelog.md`` by :meth:`write`.
    """

    graph: nx.MultiDiGraph
    analysis: dict
    concepts: dict[str, Concept] = field(default_factory=dict)
    skipped: list[Skip] = field(default_factory=list)
    options: BuildOptions | None = None
    _result: BuildResult | None = field(default=None, repr=False)  # for write()
    changelog: dict | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        s = self.analysis.get("summary", {})
        return (f"<KnowledgeGraph: {s.get('papers', 0)} papers, {s.get('concepts', 0)} concepts, "
                f"{len(self.analysis.get('communities') or [])} communities>")

    def _settings(self) -> dict:
        """The ``seed`` and ``resolution`` of the analysis (which the page's layout also uses)."""
        return analysis_settings(self.graph, self.analysis)

    @property
    def papers(self) -> list[str]:
        """Paper ids, sorted."""
        return sorted(n for n, d in self.graph.nodes(data=True) if d.get("kind") == "paper")

    def write(self, folder: str | os.PathLike[str], *, html: bool = True) -> list[str]:
        """Write every output file of ``kg build`` into ``folder``, replaced as a whole; their paths.

        A graph loaded from a folder writes its graph, tables, analysis, report and page
        (not the paper vectors it was built with).
        """
        options = replace(self.options or BuildOptions(), html=html, **self._settings())
        result = replace(self._result, analysis=self.analysis) if self._result is not None \
            else BuildResult(Corpus(), self.graph, self.analysis)
        with folder_lock(folder):
            staged = StagedFolder(folder, keep=kept_inputs(folder, options))
            try:
                write_outputs(result, staged.staging, options)
                staged.commit()
            except BaseException:
                staged.abort()
                raise
        return [os.path.join(staged.target, os.path.basename(f)) for f in result.files]

    def write_analysis(self, folder: str | os.PathLike[str], *, page: bool = True) -> list[str]:
        """Write every view that shows the analysis into ``folder``: ``analysis.json``, the
        report (``report.md``, ``.html``, ``.json``), the read index (``index.sqlite``) and, when
        ``page``, ``graph.html`` (the default view); their paths. The graph files are left as they are.

        The folder is replaced as a whole, as a build replaces it (its other outputs linked
        into the new one unchanged), under the folder's lock: a reader sees the old analysis
        files or the new ones, never a mix, and a failed write changes nothing.
        """
        with folder_lock(folder):
            staged = StagedFolder(folder)
            try:
                files = [save_analysis(self.analysis, staged.staging), *write_report(self.analysis, staged.staging)]
                if page:
                    path = os.path.join(staged.staging, "graph.html")
                    atomic_write(path, self.to_html())
                    files.append(path)
                staged.link_outputs([*(os.path.basename(f) for f in files), INDEX_FILE])
                files.append(write_index(self.graph, self.analysis, staged.staging))  # with the vectors linked
                staged.commit()
            except BaseException:
                staged.abort()
                raise
        return [os.path.join(os.fspath(folder), os.path.basename(f)) for f in files]

    def settings(self) -> dict:
        """What made the analysis: ``seed``, ``resolution``, ``method``, ``scoring``."""
        made = self.analysis.get("parameters") or {}
        return {**self._settings(), "method": made.get("method", "louvain"), "scoring": made.get("scoring", "ctfidf")}

    def reanalyze(self, *, seed: int | None = None, resolution: float | None = None, method: str = "louvain",
                  scoring: str = "ctfidf", top: int = 15, backend: str | None = None,
                  engine=None) -> "KnowledgeGraph":
        """The same graph with a new analysis (``seed``, ``resolution``: ``None`` keeps the current one's).

        Every view made from the result (report, page, Neo4j) shows the new communities. When
        they are the communities this analysis has (e.g. only the labels change), they keep
        its numbers (:func:`kg.analyze.numbering.keep_numbers`: after ``kg build --update`` those need
        not follow size).
        ``backend`` (a NetworkX backend) and ``engine`` (a :class:`kg.analyze.gds.GdsEngine`:
        centralities and Leiden communities computed in Neo4j) are those of
        :func:`kg.analyze.analyze`.
        """
        if method not in METHODS:
            raise OptionError("method", f"unknown method {method!r}; choose from {', '.join(METHODS)}")
        if scoring not in SCORINGS:
            raise OptionError("scoring", f"unknown scoring {scoring!r}; choose from {', '.join(SCORINGS)}")
        saved = self._settings()
        seed = saved["seed"] if seed is None else seed
        resolution = saved["resolution"] if resolution is None else resolution
        if isinstance(resolution, bool) or not isinstance(resolution, (int, float)) or not (
                math.isfinite(resolution) and 0 < resolution <= MAX_RESOLUTION):
            raise OptionError("resolution", f"must be a number > 0 and <= {MAX_RESOLUTION:g}, not {resolution!r}")
        analysis = analyze(self.graph, seed=seed, resolution=resolution, method=method, scoring=scoring, top=top,
                           backend=backend, engine=engine)
        analysis = keep_numbers(analysis, self.analysis)  # the same communities keep the numbers an update gave
        options = replace(self.options, seed=seed, resolution=resolution) if self.options is not None else None
        result = replace(self._result, changelog=None) if self._result is not None else None  # numbers changed
        if self.analysis.get("forecast"):  # made from the graph alone (its own clusters): still true
            analysis = {**analysis, "forecast": self.analysis["forecast"]}
        again = KnowledgeGraph(self.graph, analysis, self.concepts, self.skipped, options, result)
        made = (self.analysis.get("evolution") or {}).get("parameters")
        if made:  # the same slices again, with the new communities' settings
            again = again.evolution(cuts=made.get("cuts"), equal=made.get("equal"),
                                    min_inclusion=made.get("min_inclusion"), min_size=made.get("min_size"),
                                    min_shared=made.get("min_shared"))
        return again

    def evolution(self, *, cuts: Sequence[int] | None = None, equal: int | None = None,
                  min_inclusion: float | None = None, min_size: int | None = None,
                  min_shared: int | None = None) -> "KnowledgeGraph":
        """The same graph whose analysis also holds the thematic evolution over time slices
        (:func:`kg.analyze.evolution.thematic_evolution`: ``cuts`` years that start a slice, or
        ``equal`` slices of about equal paper counts), shown by the report; communities,
        seed and resolution are this analysis's."""
        analysis = with_evolution(self.graph, self.analysis, cuts=cuts, equal=equal, min_inclusion=min_inclusion,
                                  min_size=min_size, min_shared=min_shared)
        return KnowledgeGraph(self.graph, analysis, self.concepts, self.skipped, self.options, self._result,
                              self.changelog)

    @classmethod
    def read(cls, folder: str | os.PathLike[str], *, damaged_analysis: str = "raise") -> "KnowledgeGraph":
        """The graph and analysis a build wrote into ``folder``, read now (:func:`load`; ``kg.load``
        opens a build without reading them, :mod:`kg.opened`)."""
        return load(folder, damaged_analysis=damaged_analysis)

    # --- answers -------------------------------------------------------------------------

    def find_paper(self, query: str) -> str:
        """The id of the paper ``query`` names: its id, its title, or a unique part of one
        (:func:`kg.analyze.related.find_paper`)."""
        return find_paper(self.graph, query)

    def labels(self, ids: Sequence[str]) -> dict[str, str]:
        """Node id -> how listings name it (:func:`kg.graph.node_label`), for the ids the graph has."""
        return {n: node_label(self.graph.nodes[n], n) for n in ids if n in self.graph}

    def related(self, paper: str, *, by: str = "concepts", top: int = 10,
                folder: str | os.PathLike[str] | None = None) -> list[dict]:
        """The papers nearest to the paper ``paper`` names, by ``by`` (:func:`kg.analyze.related.related_by`),
        with the document vectors of this build (or of the build in ``folder``)."""
        if by not in RELATED_BY:
            raise OptionError("by", f"unknown relation {by!r}; choose from {', '.join(RELATED_BY)}")
        paper_id = find_paper(self.graph, paper)
        vectors = None
        if by in ("concepts", "embedding"):
            if folder is not None and os.path.isdir(folder):
                vectors = load_paper_vectors(folder)
            else:
                vectors = self._paper_vectors()
        if by == "embedding" and vectors is None:
            raise GraphFileError(f"{folder or 'this build'} has no paper_vectors.npy/.json to rank by embedding; "
                                 "kg build writes them (rebuild this folder)")
        return related_by(self.graph, paper_id, by=by, top=top, vectors=vectors)

    def concept_rows(self, *, top: int = 20) -> list[dict]:
        """The most frequent concepts (:func:`kg.analyze.concept_rows`)."""
        return concept_rows(self.graph, top=top)

    def community_concepts(self, community: int, *, top: int = 20, seed: int | None = None,
                           resolution: float | None = None, method: str = "louvain",
                           scoring: str = "ctfidf") -> dict:
        """Community number ``community`` with its distinctive concepts (:func:`kg.analyze.community_concepts`;
        ``seed``, ``resolution``: default, this analysis's)."""
        saved = self._settings()
        return community_concepts(self.graph, community, top=top, analysis=self.analysis,
                                  seed=saved["seed"] if seed is None else seed,
                                  resolution=saved["resolution"] if resolution is None else resolution,
                                  method=method, scoring=scoring)

    def _paper_vectors(self) -> "tuple[list[str], object] | None":
        """The document vectors of a build made in memory, ``(paper ids sorted, matrix)``; None for a loaded one."""
        if self._result is None or self._result.doc_vectors is None:
            return None
        papers = self._result.corpus.papers
        order = sorted(range(len(papers)), key=lambda i: papers[i].id)
        return [papers[i].id for i in order], self._result.doc_vectors[order]

    # --- what comes next --------------------------------------------------------------

    def _forecast_inputs(self, vectors, seed):
        if vectors is None and self._result is not None:
            vectors = self._result.concept_vectors
        return (dated_mentions(self.graph), vectors, concept_names(self.graph),
                self._settings()["seed"] if seed is None else seed)

    def forecast(self, *, until: int | None = None, horizon: int = HORIZON, top: int = 20, min_papers: int = 5,
                 seed: int | None = None, vectors: "tuple[Sequence[str], object] | None" = None,
                 paper_vectors: "tuple[Sequence[str], object] | None" = None) -> dict:
        """The concept pairs most likely to be mentioned together for the first time within ``horizon``
        years of ``until`` (default: the build's last year), each with its evidence
        (:func:`kg.analyze.forecast.forecast`; ``pairs`` best first). Only papers up to ``until`` are read.

        ``vectors``: concept vectors (``kg.vectors.load_concept_vectors(folder)``), ``paper_vectors``: document
        vectors (``kg.vectors.load_paper_vectors(folder)``; a build made in memory uses its own of both);
        ``seed``: default the analysis's.
        """
        papers, vectors, names, seed = self._forecast_inputs(vectors, seed)
        return forecast(papers, until=until, horizon=horizon, top=top, min_papers=min_papers, seed=seed,
                        vectors=vectors, names=names,
                        paper_vectors=self._paper_vectors() if paper_vectors is None else paper_vectors,
                        named=text_names(self.graph, min_papers=min_papers))

    def backtest(self, *, until: int, horizon: int = HORIZON, top: int = 10, min_papers: int = 5,
                 seed: int | None = None, vectors: "tuple[Sequence[str], object] | None" = None,
                 paper_vectors: "tuple[Sequence[str], object] | None" = None) -> dict:
        """The forecast made at ``until`` graded by the papers of the next ``horizon`` years, with the
        baselines in the same run (:func:`kg.analyze.forecast.backtest`: ``rows`` per method; ``vectors``,
        ``paper_vectors`` as for :meth:`forecast`)."""
        papers, vectors, names, seed = self._forecast_inputs(vectors, seed)
        return backtest(papers, until=until, horizon=horizon, top=top, min_papers=min_papers, seed=seed,
                        vectors=vectors, names=names,
                        paper_vectors=self._paper_vectors() if paper_vectors is None else paper_vectors,
                        named=text_names(self.graph, min_papers=min_papers))

    def gaps(self, *, until: int | None = None, top: int = 10, min_size: int = 5, seed: int | None = None,
             vectors: "tuple[Sequence[str], object] | None" = None) -> dict:
        """Concept clusters close in meaning but rarely linked, and unlinked close pairs inside clusters
        (:func:`kg.analyze.gaps.concept_gaps`), as of ``until`` (default: the last year)."""
        papers, vectors, names, seed = self._forecast_inputs(vectors, seed)
        return concept_gaps(papers, until=until, top=top, min_size=min_size, seed=seed, vectors=vectors,
                            names=names, named=text_names(self.graph, min_papers=MIN_PAPERS))

    def gap_backtest(self, *, until: int, horizon: int = HORIZON, top: int = 10, min_size: int = 5,
                     seed: int | None = None, vectors: "tuple[Sequence[str], object] | None" = None) -> dict:
        """The gaps found at ``until`` graded by the papers of the next ``horizon`` years, against random
        concept sets of the same sizes (:func:`kg.analyze.gaps.gap_backtest`)."""
        papers, vectors, names, seed = self._forecast_inputs(vectors, seed)
        return gap_backtest(papers, until=until, horizon=horizon, top=top, min_size=min_size, seed=seed,
                            vectors=vectors, names=names, named=text_names(self.graph, min_papers=MIN_PAPERS))

    def with_forecast(self, result: Mapping) -> "KnowledgeGraph":
        """The same graph whose analysis holds ``result`` (a :meth:`forecast`) as its ``forecast``
        section: the report's "Concepts likely to meet next" and the page's ``forecast`` view."""
        if not isinstance(result, Mapping) or not isinstance(result.get("pairs"), list):
            raise OptionError("result", "must be what KnowledgeGraph.forecast returned (a dict with 'pairs')")
        return KnowledgeGraph(self.graph, {**self.analysis, "forecast": dict(result)}, self.concepts, self.skipped,
                              self.options, self._result, self.changelog)

    # --- views -------------------------------------------------------------------------

    def to_html(self, **view: object) -> str:
        """The self-contained graph page (options of :func:`kg.export.html.render_html`: ``view``,
        ``top``, ``community``, ``focus``, …), with this analysis's communities."""
        view.setdefault("seed", self._settings()["seed"])
        return render_html(self.graph, analysis=self.analysis, **view)  # type: ignore[arg-type]

    def _repr_html_(self) -> str:
        """The page inline in Jupyter, VS Code or Colab: an iframe whose ``srcdoc`` holds it (escaped)."""
        page = self.to_html(top=1000)
        return (f'<iframe srcdoc="{html.escape(page, quote=True)}" title="kg graph" '
                'style="width:100%;height:640px;border:1px solid #ddd" '
                'sandbox="allow-scripts"></iframe>')

    def to_pyvis(self, *, notebook: bool = False, **view: object):
        """The graph as a :class:`pyvis.network.Network` (the page's view, positions and colours).

        ``view`` takes the options of :func:`kg.export.html_view.graph_view` (``view``,
        ``top``, ``community``, ``focus``, …). Node titles are plain text (pyvis shows
        them as HTML, so they are escaped). Its pages open offline: vis-network is inlined and
        nothing is fetched from a CDN (:class:`kg.export.pyvis_page.OfflineNetwork`).
        """

        seed = int(view.pop("seed", self._settings()["seed"]))  # type: ignore[call-overload]
        shown = graph_view(self.graph, analysis=self.analysis, seed=seed, **view)  # type: ignore[arg-type]
        payload = view_payload(self.graph, shown, seed=seed)
        net = offline_network(height="750px", width="100%", notebook=notebook)
        for node in payload["nodes"]:
            info = node["info"]
            net.add_node(node["id"], label=node["label"], title=html.escape(str(info.get("title", node["id"]))),
                         x=node["x"], y=node["y"], size=node["size"], color=color_of(node["community"]),
                         shape="square" if node["kind"] == "paper" else "dot", physics=False,
                         kind=node["kind"], community=node["community"])
        ids = [n["id"] for n in payload["nodes"]]
        for u, v, width, cites in payload["edges"]:
            net.add_edge(ids[u], ids[v], width=width, color="#d62728" if cites else "#bbbbbb")
        net.toggle_physics(False)
        return net

    def to_pandas(self) -> dict:
        """The graph as pandas DataFrames: ``papers``, ``concepts``, ``mentions``, ``links``, ``communities``.

        ``papers`` and ``concepts`` carry ``community`` (papers; -1: none) and
        ``pagerank`` from the analysis. Needs pandas (``pip install pandas``).
        """
        try:
            import pandas as pd  # optional (kg[notebook]): only this method needs it
        except ImportError:
            raise KgError("to_pandas needs pandas: pip install pandas") from None
        member, ranks = paper_community(self.analysis), saved_pagerank(self.analysis)
        papers, concepts = [], []
        for node, data in sorted(self.graph.nodes(data=True)):
            kind = data.get("kind")
            if kind == "paper":
                papers.append({"id": node, "title": data.get("title"), "year": data.get("year"),
                               "venue": data.get("venue"), "authors": list(data.get("authors") or []),
                               "community": member.get(node, -1), "pagerank": ranks.get(node),
                               "abstract": data.get("abstract")})
            elif kind == "concept":
                concepts.append({"id": node, "name": data.get("name"), "acronym": data.get("acronym"),
                                 "papers": data.get("papers", 0),
                                 "aliases": list(data.get("aliases") or []), "pagerank": ranks.get(node)})
        mentions, links = [], []
        for u, v, key, data in self.graph.edges(keys=True, data=True):
            if key == "mentions":
                mentions.append({"paper": u, "concept": v, "score": data.get("weight"), "rank": data.get("rank")})
            elif key in ("related", "cites"):
                links.append({"source": u, "target": v, "kind": key, "weight": data.get("weight", 1.0)})
        communities = [{"id": r["id"], "size": r["size"], "label": r["label"],
                        "concepts": [c["name"] for c in r["concepts"]], "central_papers": r["papers"][:5]}
                       for r in self.analysis.get("communities") or []]
        frames = {"papers": papers, "concepts": concepts, "mentions": mentions, "links": links,
                  "communities": communities}
        columns = {"papers": ["id", "title", "year", "venue", "authors", "community", "pagerank", "abstract"],
                   "concepts": ["id", "name", "acronym", "papers", "aliases", "pagerank"],
                   "mentions": ["paper", "concept", "score", "rank"],
                   "links": ["source", "target", "kind", "weight"],
                   "communities": ["id", "size", "label", "concepts", "central_papers"]}
        return {name: pd.DataFrame(rows, columns=columns[name]) for name, rows in frames.items()}


def _options(options: Mapping[str, object]):
    known = {f.name for f in fields(BuildOptions)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise OptionError(unknown[0], f"unknown option; options are {', '.join(sorted(known))}")
    return BuildOptions(**options)  # type: ignore[arg-type]


def build(papers: Sequence[PaperLike] | str | os.PathLike[str], *, embedder=None,
          cache: str | os.PathLike[str] | None = None,
          on_progress: Callable[[str, int, int], None] | None = None, **options: object) -> KnowledgeGraph:
    """Build a knowledge graph in memory; nothing is written (but ``cache``, when given).

    Parameters
    ----------
    papers : path, or sequence of paths, Paper objects or dicts
        Corpus files (any format ``kg build`` reads), :class:`~kg.models.Paper`
        objects, or dicts with kg's field names (``id``, ``title``, ``abstract``,
        ``authors``, ``year``, ``venue``, ``references``, …); not mixed.
    embedder : optional
        Anything with ``embed(texts) -> ndarray`` (default: the packaged
        all-MiniLM-L6-v2, offline).
    cache : path, optional
        An embedding cache file; a rebuild then never runs the model.
    on_progress : callable, optional
        ``on_progress(stage, done, total)``.
    **options
        Any field of :class:`kg.options.BuildOptions` (``top_n``, ``link_depth``,
        ``seed``, ``resolution``, ``extractor``, ``model``, ``engine``, …).

    Returns
    -------
    KnowledgeGraph
    """
    if papers is None or isinstance(papers, (bytes, bytearray)) or not isinstance(papers, (str, os.PathLike, Sequence)):
        raise OptionError("papers", f"give a path, or a list of paths, Paper objects or dicts, not {papers!r:.80}")
    chosen = _options(options)
    inputs = _inputs(papers, strict=chosen.strict)
    result = run(inputs, chosen, embedder=embedder, cache=cache, on_progress=on_progress)  # type: ignore[arg-type]
    return KnowledgeGraph(result.graph, result.analysis, result.concepts, list(result.corpus.skipped), chosen,
                          result)


def _inputs(papers: "Sequence[PaperLike] | str | os.PathLike[str]", *, strict: bool) -> object:
    """What :func:`kg.pipeline.run` takes for ``papers``: the paths, or a Corpus of the records."""
    items = [papers] if isinstance(papers, (str, os.PathLike)) else list(papers)
    if not items:
        raise OptionError("papers", "no papers or files given")
    if all(isinstance(p, (str, os.PathLike)) for p in items):
        return items
    if any(isinstance(p, (str, os.PathLike)) for p in items):
        raise OptionError("papers", "give either files or papers (Paper objects or dicts), not both")
    return corpus_from_records(items, strict=strict)


def update(folder: str | os.PathLike[str], papers: Sequence[PaperLike] | str | os.PathLike[str], *, embedder=None,
           cache: "str | os.PathLike[str] | bool | None" = True, on_progress: Callable[[str, int, int], None] | None = None,
           **options: object) -> KnowledgeGraph:
    """The build in ``folder`` with ``papers`` added, in memory (``kg build --update``'s graph); nothing is
    written (but the cache) until :meth:`KnowledgeGraph.write`, which also writes the changelog.

    Parameters
    ----------
    folder : path
        A folder that ``kg build`` (or :meth:`KnowledgeGraph.write`) wrote.
    papers : path, or sequence of paths, Paper objects or dicts
        The new papers, as for :func:`build`. A paper already in the build merges into it.
    embedder : optional
        As for :func:`build`.
    cache : path or bool
        ``True`` (default): the folder's own embedding cache (``.kg-cache/embeddings.sqlite``,
        what ``kg build --out folder`` fills), so only new texts are embedded; ``False`` or
        ``None``: none (every text is embedded again); or a cache file.
    on_progress : callable, optional
    **options
        :class:`kg.options.BuildOptions` fields: ``format``, ``strict``, ``mapping`` (how
        the new files are read), ``thesaurus``, ``model`` (where the build's are now);
        any other must equal the build's recorded value (see
        :func:`kg.options.update_options`).

    Returns
    -------
    KnowledgeGraph
        With ``changelog`` (:func:`kg.changelog.changelog`), whose ``warnings`` say when
        every text had to be embedded again.

    Examples
    --------
    >>> updated = kg.update("out/", "new.bib")                          # doctest: +SKIP
    >>> updated.changelog["counts"]["papers"], len(updated.changelog["moved"])  # doctest: +SKIP
    >>> updated.write("out/")            # the build replaced, changelog.md beside it  # doctest: +SKIP
    """
    previous = read_build(folder)
    chosen = update_options(previous, options)
    inputs = _inputs(papers, strict=chosen.strict)
    cache = folder_cache(folder) if cache is True else (None if cache is False else cache)
    if embedder is None:
        embedder = load_embedder(chosen.model, precision=chosen.precision)
    warnings = update_warnings(previous, embedder, cache)  # type: ignore[arg-type]
    result = run_update(previous, inputs, chosen, embedder=embedder, cache=cache,  # type: ignore[arg-type]
                        on_progress=on_progress, warnings=warnings)
    return KnowledgeGraph(result.graph, result.analysis, result.concepts, list(result.corpus.skipped), chosen,
                          result, result.changelog)


def load(folder: str | os.PathLike[str], *, damaged_analysis: str = "raise") -> KnowledgeGraph:
    """The graph a build wrote into ``folder`` and its analysis (``analysis.json``).

    A folder from a kg without ``analysis.json`` is analyzed now, with the parameters
    its graph was built with.

    Parameters
    ----------
    folder : path
    damaged_analysis : {"raise", "ignore"}
        What a damaged or foreign ``analysis.json`` does: raise, or (what ``kg report``,
        which rewrites it, asks for) give a graph whose ``analysis`` is empty, with the
        reason in ``analysis["damaged"]``; :meth:`KnowledgeGraph.reanalyze` then makes a new one.

    Raises
    ------
    GraphFileError
        When the folder, its graph.json or its analysis.json is missing, unreadable or not kg's.
    AnalysisMismatchError
        When analysis.json does not belong to graph.json.
    """
    if damaged_analysis not in ("raise", "ignore"):
        raise OptionError("damaged_analysis", f"must be 'raise' or 'ignore', not {damaged_analysis!r}")
    if not isinstance(folder, (str, os.PathLike)):
        raise OptionError("folder", f"must be a path (str or os.PathLike) to a kg build folder, not {folder!r}")
    graph = load_graph(folder)
    folder = os.fspath(folder)
    try:
        analysis = load_analysis(folder) if os.path.isdir(folder) else None
        return KnowledgeGraph(graph, dict(analysis_for(graph, analysis)))
    except (GraphFileError, AnalysisMismatchError) as exc:
        if damaged_analysis == "raise":
            if isinstance(exc, AnalysisMismatchError):
                raise AnalysisMismatchError(f"{os.path.join(folder, 'analysis.json')}: {exc}: kg report {folder} "
                                            "analyzes it again") from None
            raise
        return KnowledgeGraph(graph, {"damaged": str(exc)})
