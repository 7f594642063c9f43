"""The whole main job, stage after stage: ingest → extract → normalize → build → analyze → export.

:func:`build` is what ``kg build`` calls, :func:`update` what ``kg build --update`` calls (a build
plus new papers: :mod:`kg.buildfolder` reads the build, :mod:`kg.options` keeps its options,
:mod:`kg.analyze.numbering` keeps its community numbers, :mod:`kg.changelog` says what changed);
each stage is also usable on its own. :mod:`kg.timing` times the stages.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from kg._version import __version__
from kg.analyze import analyze
from kg.analyze.evolution import with_evolution
from kg.analyze.numbering import stable_analysis
from kg.analyze.result import save_analysis
from kg.atomic import atomic_write
from kg.buildfolder import PreviousBuild, read_build
from kg.changelog import changelog, write_changelog
from kg.export.files import write_graph_files
from kg.export.html import render_html
from kg.export.staging import KG_OUTPUTS, OutputFolderError, StagedFolder, check_target, folder_lock
from kg.extract import CachedEmbedder, Embedder, extract, extractor_name, load_embedder
from kg.graph import build_graph
from kg.index.write import write_index
from kg.ingest import load_corpus, merge_corpora
from kg.ingest.thesaurus import load_thesaurus
from kg.models import Corpus
from kg.normalize import normalize_concepts, thesaurus_text
from kg.normalize.quality import load_quality_model
from kg.options import OUTPUT_ONLY, BuildOptions, update_options
from kg.report import write_report
from kg.timing import Clock, Stage, release_memory
from kg.vectors import concept_vectors, save_concept_vectors, save_paper_vectors

__all__ = ["BuildOptions", "BuildResult", "Stage", "build", "run", "write_outputs", "update", "run_update",
           "update_warnings", "folder_cache", "kept_inputs"]

Progress = Callable[[str, int, int], None]


@dataclass
class BuildResult:
    """What a build computed (and, once written, the files it wrote)."""

    corpus: Corpus
    graph: nx.MultiDiGraph
    analysis: dict
    files: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # stage name -> wall seconds
    concepts: dict = field(default_factory=dict)  # concept id -> Concept
    doc_vectors: "np.ndarray | None" = None  # one row per paper of corpus.papers
    stages: list["Stage"] = field(default_factory=list)
    analysis_steps: dict[str, float] = field(default_factory=dict)  # analysis step -> seconds
    concept_vectors: "tuple[list[str], np.ndarray] | None" = None  # (concept ids, rows): kg search
    embedded: dict[str, int] = field(default_factory=dict)  # with a cache: distinct texts "cached" / "embedded"
    changelog: dict | None = None  # an update's (kg.changelog): written as changelog.json and changelog.md


def _fingerprint(path: str) -> dict[str, str]:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"path": os.path.basename(path), "sha256": digest.hexdigest()}


_EXTRACTION_STAGES = {"candidates": "documents and candidates", "phrases": "phrases", "ranking": "ranking"}


def build(
    inputs: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    options: BuildOptions = BuildOptions(),
    *,
    embedder: Embedder | None = None,
    cache: str | os.PathLike[str] | None = None,
    on_progress: Progress | None = None,
    on_stage: Callable[[Stage], None] | None = None,
) -> BuildResult:
    """Read ``inputs``, build the graph, analyze it and write every output file into ``out_dir``.

    :func:`run` and then :func:`write_outputs`. The outputs are written into a staging
    folder beside ``out_dir`` and swapped in together
    (:class:`~kg.export.staging.StagedFolder`): a reader sees the previous build or this
    one, never a mix, and a failed build changes nothing.

    Parameters
    ----------
    inputs : sequence of paths
        Corpus files (any format :func:`kg.ingest.load_corpus` reads).
    out_dir : path
        Created if missing. Its kg files are replaced as a whole; other entries in it
        (the embedding cache, files of the user's) are kept.
    options : BuildOptions
    embedder : Embedder, optional
        Default: the packaged all-MiniLM-L6-v2, loaded offline (and only if needed).
    cache : path, optional
        An embedding cache file (:class:`~kg.extract.CachedEmbedder`); a rebuild of an
        unchanged corpus then never runs the model.
    on_progress : callable, optional
        ``on_progress(stage, done, total)`` for long stages.
    on_stage : callable, optional
        Called with a :class:`Stage` as each stage ends (``BuildResult.stages`` has them all).
    """
    clock = Clock(on_stage)
    inputs = list(inputs)
    check_target(out_dir)
    with folder_lock(out_dir):  # a second command writing out_dir is refused, not interleaved
        staged = _staged(out_dir, inputs, options)  # fails now, not after extraction, if out_dir cannot be written
        return _write_staged(staged, clock, options, lambda: run(inputs, options, embedder=embedder, cache=cache,
                                                                 on_progress=on_progress, clock=clock))


def kept_inputs(out_dir: str | os.PathLike[str], options: BuildOptions) -> set[str]:
    """Names of kg outputs in ``out_dir`` that a build with ``options`` reads and does not write
    (a ``thesaurus.txt`` that ``--write-thesaurus`` wrote and the user edited): the swap keeps them.

    Raises
    ------
    OutputFolderError
        When the build would overwrite the thesaurus it reads.
    """
    if not options.thesaurus:
        return set()
    target = os.path.realpath(os.fspath(out_dir))
    where = os.path.realpath(options.thesaurus)
    name = os.path.basename(where)
    if os.path.dirname(where) != target or name not in KG_OUTPUTS:
        return set()  # elsewhere, or a file of the user's the swap keeps anyway
    if name != "thesaurus.txt" or options.write_thesaurus:
        raise OutputFolderError(f"the thesaurus {options.thesaurus} is in the output folder, where the build writes "
                                f"its own {name}; copy it elsewhere (or leave out --write-thesaurus)")
    return {name}


def _staged(out_dir: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]],
            options: BuildOptions | None = None) -> StagedFolder:
    """The staging folder of a build of ``inputs`` into ``out_dir``, refusing an input the build would overwrite
    and keeping the files of the folder the build reads (:func:`kept_inputs`)."""
    keep = kept_inputs(out_dir, options) if options is not None else set()
    staged = StagedFolder(out_dir, keep=keep)
    for path in inputs:
        where = os.path.realpath(os.fspath(path))
        if os.path.dirname(where) == staged.target and os.path.basename(where) in KG_OUTPUTS:
            staged.abort()
            raise OutputFolderError(f"{os.fspath(path)} is in the output folder, where the build writes its own "
                                    f"{os.path.basename(where)}; move it or choose another output folder")
    return staged


def _write_staged(staged: StagedFolder, clock: Clock, options: BuildOptions,
                  compute: Callable[[], BuildResult]) -> BuildResult:
    """``compute()``, its outputs written into ``staged`` and swapped in (nothing changes when it fails)."""
    try:
        result = compute()
        write_outputs(result, staged.staging, options, clock=clock)
        staged.commit()
    except BaseException:
        staged.abort()
        raise
    result.files = [os.path.join(staged.target, os.path.basename(f)) for f in result.files]
    clock.lap("commit")
    result.stages = clock.stages
    result.seconds = {s.name: s.wall for s in clock.stages}
    return result


def update(
    inputs: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    changes: "Mapping[str, object] | None" = None,
    *,
    embedder: Embedder | None = None,
    cache: "str | os.PathLike[str] | bool | None" = True,
    on_progress: Progress | None = None,
    on_stage: Callable[[Stage], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> BuildResult:
    """Add the papers of ``inputs`` to the build in ``out_dir`` (what ``kg build --update OUT`` runs).

    The build of the union of its papers and the new ones (:func:`run_update`), with the
    options it recorded, written as :func:`build` writes (the folder replaced as a whole),
    plus ``changelog.json`` and ``changelog.md`` (:mod:`kg.changelog`). Papers the embedding
    cache knows cost no model work: with the folder's cache only new texts are embedded.

    Parameters
    ----------
    inputs : sequence of paths
        The new corpus files (any format :func:`kg.ingest.load_corpus` reads).
    out_dir : path
        A folder that ``kg build`` wrote.
    changes : mapping, optional
        Options by their :class:`BuildOptions` name. ``format``, ``strict`` and ``mapping``
        read the new files, ``html`` and ``write_thesaurus`` choose outputs, ``thesaurus``
        and ``model`` say where the build's files are now; any other must equal the
        recorded one.
    embedder, on_progress, on_stage
        As for :func:`build`.
    cache : path or bool
        ``True`` (default): the folder's own cache (:func:`folder_cache`, what
        ``kg build --out OUT`` fills), so only new texts are embedded; ``False`` or ``None``:
        none (every text is embedded again); or another cache file.
    on_warning : callable, optional
        Called with each warning (no cache, another embedding model); they are also in
        the changelog.

    Raises
    ------
    GraphFileError
        When ``out_dir`` is not a kg build (before any other work).
    OptionError
        For an option that contradicts the build's (before any other work).
    """
    check_target(out_dir)
    with folder_lock(out_dir):  # held from reading the build to the swap: no other command writes in between
        return _update(inputs, out_dir, changes, embedder=embedder, cache=cache, on_progress=on_progress,
                       on_stage=on_stage, on_warning=on_warning)


def _update(inputs, out_dir, changes, *, embedder, cache, on_progress, on_stage, on_warning) -> BuildResult:
    """:func:`update`, with the folder's lock held."""
    clock = Clock(on_stage)
    previous = read_build(out_dir)
    options = update_options(previous, changes)
    cache = folder_cache(out_dir) if cache is True else (None if cache is False else cache)
    inputs = list(inputs)
    warnings: list[str] = []

    def say(message: str) -> None:
        warnings.append(message)
        if on_warning:
            on_warning(message)

    if embedder is None:
        embedder = load_embedder(options.model, precision=options.precision)
    for message in update_warnings(previous, embedder, cache):
        say(message)
    staged = _staged(out_dir, inputs, options)
    return _write_staged(staged, clock, options, lambda: run_update(
        previous, inputs, options, embedder=embedder, cache=cache, on_progress=on_progress, clock=clock,
        warnings=warnings))


def folder_cache(folder: str | os.PathLike[str]) -> str:
    """The embedding cache a build folder keeps (``FOLDER/.kg-cache/embeddings.sqlite``, kg build's default)."""
    return os.path.join(os.fspath(folder), ".kg-cache", "embeddings.sqlite")


def update_warnings(previous: PreviousBuild, embedder: Embedder,
                    cache: str | os.PathLike[str] | None) -> list[str]:
    """What an update of ``previous`` with ``embedder`` and ``cache`` should say first: that every
    text will be embedded again (no cache, or another model or precision than the build's)."""
    out = []
    signature = getattr(embedder, "signature", getattr(embedder, "name", type(embedder).__name__))
    recorded = previous.attrs.get("embedding")
    if isinstance(recorded, str) and recorded != signature:
        out.append(f"the build's texts were embedded as {recorded}, this update embeds as {signature}: every "
                   "text is embedded again (old and new vectors are never mixed)")
    elif cache is None:
        out.append("no embedding cache: every paper is embedded again, not only the new ones (the same result, "
                   "within the model's tolerance)")
    elif not os.path.isfile(os.fspath(cache)):
        out.append(f"no embedding cache at {os.fspath(cache)} (a build made with --no-cache, or the cache was "
                   "removed): every paper is embedded again, not only the new ones; the cache is filled now")
    return out


def run_update(
    previous: PreviousBuild,
    inputs: "Sequence[str | os.PathLike[str]] | Corpus",
    options: BuildOptions,
    *,
    embedder: Embedder | None = None,
    cache: str | os.PathLike[str] | None = None,
    on_progress: Progress | None = None,
    clock: "Clock | None" = None,
    warnings: Sequence[str] = (),
) -> BuildResult:
    """Everything :func:`update` computes, in memory: nothing is written (but the cache).

    ``previous`` is :func:`kg.buildfolder.read_build` of the folder and ``options``
    :func:`kg.options.update_options` of it; ``inputs`` may also be a :class:`~kg.models.Corpus`
    read already. The union of the build's papers and the new ones goes through :func:`run`
    (so every corpus-level step is that of a fresh build of the union); communities are
    found as the folder's ``analysis.json`` found them (its seed, resolution, method and
    labels) and numbered as there (:func:`kg.analyze.numbering.stable_analysis`); ``result.changelog``
    says what changed (:func:`kg.changelog.changelog`).
    """
    clock = clock or Clock(None)
    prior = Corpus(list(previous.papers))
    paths = [] if isinstance(inputs, Corpus) else [os.fspath(p) for p in inputs]
    if isinstance(inputs, Corpus):
        corpus = merge_corpora([prior, inputs])
        corpus.repaired, corpus.text_repairs = inputs.repaired, dict(inputs.text_repairs)
    else:
        corpus = load_corpus(paths, format=options.format, strict=options.strict,
                             mapping=dict(options.mapping) or None, prior=prior)
    records = {"skipped": len(corpus.skipped), "merged": corpus.merged}
    added = [_fingerprint(p) for p in paths]
    provenance = {"inputs": json.dumps(previous.inputs + added),
                  "records_skipped": previous.count("records_skipped") + records["skipped"],
                  "records_merged": previous.count("records_merged") + records["merged"]}
    made = (previous.analysis or {}).get("parameters") or {}
    settings = {k: made[k] for k in ("seed", "resolution", "method", "scoring", "top") if k in made}
    result = run(corpus, options, embedder=embedder, cache=cache, on_progress=on_progress, clock=clock,
                 provenance=provenance, settings=settings)
    evolution = ((previous.analysis or {}).get("evolution") or {}).get("parameters")
    if evolution:  # the same slices again (as kg report does)
        result.analysis = with_evolution(
            result.graph, result.analysis, cuts=evolution.get("cuts"), equal=evolution.get("equal"),
            min_inclusion=evolution.get("min_inclusion"), min_size=evolution.get("min_size"),
            min_shared=evolution.get("min_shared"))
    result.analysis = stable_analysis(result.analysis, previous.analysis)
    result.changelog = changelog(previous, result, new_inputs=added, records=records, warnings=warnings)
    clock.lap("changelog")
    return result


def run(
    inputs: "Sequence[str | os.PathLike[str]] | Corpus",
    options: BuildOptions = BuildOptions(),
    *,
    embedder: Embedder | None = None,
    cache: str | os.PathLike[str] | None = None,
    on_progress: Progress | None = None,
    clock: "Clock | None" = None,
    provenance: dict | None = None,
    settings: "Mapping[str, object] | None" = None,
) -> BuildResult:
    """Everything :func:`build` computes, in memory: nothing is written (but the cache).

    Parameters are those of :func:`build` (``inputs`` may also be a :class:`~kg.models.Corpus`
    already read); ``clock`` times the stages. ``provenance`` replaces the metadata that
    say where the papers came from (``inputs``, ``records_skipped``, ``records_merged``):
    an update records those of the whole build. ``settings`` are options of
    :func:`kg.analyze.analyze` (``seed``, ``resolution``, ``method``, ``scoring``, ``top``)
    replacing the build's: an update finds communities as the folder's analysis did.
    """
    clock = clock or Clock(None)
    given = inputs if isinstance(inputs, Corpus) else None  # papers read already (kg.build from Python)
    paths = [] if given is not None else [os.fspath(p) for p in inputs]
    thesaurus = load_thesaurus(options.thesaurus) if options.thesaurus else None
    corpus = given or load_corpus(paths, format=options.format, strict=options.strict,
                                  mapping=dict(options.mapping) or None)
    clock.lap("ingest")
    if embedder is None:
        embedder = load_embedder(options.model, precision=options.precision)
    cached = CachedEmbedder(embedder, cache) if cache is not None else None

    def progress(stage: str, done: int, total: int) -> None:
        if on_progress:
            on_progress(stage, done, total)
        if done >= total and stage in _EXTRACTION_STAGES:
            clock.lap(_EXTRACTION_STAGES[stage])

    try:
        found = extract(corpus.papers, cached or embedder, top_n=options.top_n,
                        depth=max(options.top_n, options.link_depth), diversity=options.diversity,
                        position_weight=options.position_weight, title_weight=options.title_weight,
                        n_jobs=min(2, os.cpu_count() or 1), extractor=options.extractor, engine=options.engine,
                        on_progress=progress)
        concepts, mentions = normalize_concepts(corpus.papers, found.keyphrases, thesaurus=thesaurus,
                                                embedder=cached or embedder, vectors=found.phrase_vectors,
                                                merge_threshold=options.merge_threshold, top_n=options.top_n,
                                                doc_vectors=found.doc_vectors,
                                                min_relevance=getattr(embedder, "relevance_floor", None),
                                                quality=(load_quality_model(getattr(embedder, "name", ""))
                                                         if options.concept_filter else None))
        concept_rows = concept_vectors(((m.concept_id, m.surface) for m in mentions), found.phrase_vectors,
                                       embedder=cached or embedder)
    finally:
        if cached is not None:
            cached.close()
    embedded = {"cached": cached.hits, "embedded": cached.misses} if cached is not None else {}
    if cached is not None and cached.damaged:
        embedded["damaged"] = cached.damaged  # cache rows that were no vector of the model's: embedded again
    found.doc_vectors = found.doc_vectors.astype(np.float16)  # as saved; the links use float16 too
    model, signature = (getattr(embedder, "name", type(embedder).__name__),
                        getattr(embedder, "signature", getattr(embedder, "name", type(embedder).__name__)))
    found.phrase_vectors = {}  # the largest array of the build (phrases x 384 floats): not needed now
    embedder = cached = None  # nor the model
    release_memory()
    clock.lap("normalize")
    metadata = {
        "kg_version": __version__,
        "extractor": extractor_name(options.extractor),
        "model": model,
        "embedding": signature,
        "parameters": json.dumps({k: v for k, v in vars(options).items() if k not in OUTPUT_ONLY},
                                 sort_keys=True),
        "inputs": json.dumps([_fingerprint(p) for p in paths]),
        "papers_read": len(corpus.papers),
        "records_skipped": len(corpus.skipped),
        "records_merged": corpus.merged,
        **(provenance or {}),
    }
    graph = build_graph(corpus.papers, concepts, mentions, related_top_k=options.related_top_k,
                        min_shared=options.min_shared, min_cooccurrence=options.min_cooccurrence,
                        metadata=metadata, doc_vectors=found.doc_vectors)
    del mentions  # the graph holds them now
    found.keyphrases = {}
    release_memory(collect=False)  # lists of plain records: freed as they were dropped
    clock.lap("graph")
    steps: dict[str, float] = {}
    # The graph lives to the end: a garbage collection need not walk its millions of objects
    # (2-3 s each on 25k papers). Frozen objects are still freed when dropped; only cycles wait.
    gc.freeze()
    try:
        analysis = analyze(graph, **{"seed": options.seed, "resolution": options.resolution, **(settings or {})},
                           timings=steps, backend=options.nx_backend)
        release_memory()  # the projections the analysis dropped (NetworkX graphs hold cycles)
    finally:
        gc.unfreeze()
    clock.lap("analyze")
    if clock.on_stage:
        for step, seconds in steps.items():
            clock.on_stage(Stage(f"analyze: {step}", seconds, float("nan"), 0.0, 0.0))
    return BuildResult(corpus, graph, analysis, analysis_steps=steps, concepts=concepts,
                       doc_vectors=found.doc_vectors, concept_vectors=concept_rows, embedded=embedded)


def write_outputs(result: BuildResult, folder: str | os.PathLike[str], options: BuildOptions = BuildOptions(),
                  *, clock: "Clock | None" = None) -> list[str]:
    """Write the files of ``result`` into ``folder`` (each atomically); set and return ``result.files``.

    ``graph.json``, GraphML, GEXF, the CSV tables, ``paper_vectors.npy``/``.json`` and
    ``concept_vectors.npy``/``.json`` (:mod:`kg.vectors`), the
    report (``.md``, ``.html``, ``.json``), the read index ``index.sqlite`` (:mod:`kg.index`), ``graph.html`` unless ``options.html`` is
    false, ``thesaurus.txt`` when ``options.write_thesaurus``, and an update's
    ``changelog.json`` and ``changelog.md`` (:func:`kg.changelog.write_changelog`).
    """
    clock = clock or Clock(None)
    folder = os.fspath(folder)
    graph, analysis = result.graph, result.analysis
    # run() made the graph with build_graph and nothing changed it since: what it implies need not be checked
    files = write_graph_files(graph, folder, on_file=lambda name: clock.lap(f"write {name}"), built=True)
    if result.doc_vectors is not None:
        papers = result.corpus.papers
        order = sorted(range(len(papers)), key=lambda i: papers[i].id)
        files.extend(save_paper_vectors(folder, [papers[i].id for i in order], result.doc_vectors[order]))
        clock.lap("write paper_vectors.npy")
    if result.concept_vectors is not None:
        files.extend(save_concept_vectors(folder, *result.concept_vectors))
        clock.lap("write concept_vectors.npy")
    files.append(save_analysis(analysis, folder))  # the one analysis report, page and Neo4j show
    files.extend(write_report(analysis, folder))
    clock.lap("write report")
    files.append(write_index(graph, analysis, folder))  # after the vectors: it records their rows
    clock.lap("write index.sqlite")
    if options.html:
        page = os.path.join(folder, "graph.html")
        atomic_write(page, render_html(graph, seed=options.seed, analysis=analysis))
        files.append(page)
        clock.lap("write graph.html")
    if options.write_thesaurus:
        merges = os.path.join(folder, "thesaurus.txt")
        atomic_write(merges, thesaurus_text(result.concepts))
        files.append(merges)
    if result.changelog is not None:
        files.extend(write_changelog(result.changelog, folder))
        clock.lap("write changelog")
    result.files = files
    return files
