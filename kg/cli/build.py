"""kg build: a corpus in, every output file out."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.cli.root import app
from kg.cli.backend import nx_backend, NxBackendOpt
from kg.cli.extractflags import (DiversityOpt, EngineOpt, extraction_weights, ExtractorOpt, PositionOpt,
                                 PrecisionOpt, TitleOpt)
from kg.cli.flags import (CacheOpt, default_cache, FormatOpt, InputsArg, MapOpt, ModelOpt, NoCacheOpt, output_folder,
                          parse_map, QuietOpt, StrictOpt, VerboseOpt, verbosity)
from kg.cli.output import ProgressBar, reports_errors, show, show_backend_use, warn
from kg.defaults import SEED
from kg.errors import KgError
from kg.extract.cache import check_cache
from kg.changelog import summary_lines
from kg.nxbackend import tally
from kg.options import BuildOptions
from kg import pipeline  # the module, not its functions: kg.pipeline.build is looked up when the command runs


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or by its environment variable)."""
    source = ctx.get_parameter_source(name)  # an enum of Typer's own click: compared by name
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _update(inputs: list[Path], folder: Path, given: dict, cache_path: str | None, started: float,
            level: int = 0) -> None:
    """kg build --update: the papers of INPUTS added to the build in ``folder``."""

    if cache_path is not None and os.path.isfile(cache_path):
        check_cache(cache_path)
    progress = ProgressBar(level)
    try:
        result = pipeline.update([str(p) for p in inputs], folder, given, cache=cache_path, on_progress=progress,
                                 on_stage=progress.stage, on_warning=lambda message: warn(f"Warning: {message}"))
    finally:
        progress.finish()
    say = show if level >= 0 else (lambda message: None)
    log = result.changelog or {}
    for line in summary_lines(log):
        say(line)
    _skips(result.corpus, level)
    say(f"changelog: {folder / 'changelog.md'} (and changelog.json)")
    say(f"wrote {len(result.files)} files to {folder} in {time.perf_counter() - started:.1f}s")


def _skips(corpus, level: int) -> None:
    """The skipped records on stderr: the first ten (all with --verbose); quiet: their count only."""
    if not corpus.skipped:
        return
    if level < 0:
        warn(f"kg: {len(corpus.skipped)} record(s) skipped (kg build without --quiet lists them)")
        return
    shown = corpus.skipped if level > 0 else corpus.skipped[:10]
    for skip in shown:
        warn(f"  skipped {skip}")
    if len(corpus.skipped) > len(shown):
        warn(f"  … and {len(corpus.skipped) - len(shown)} more (--verbose lists them all)")


@app.command()
@reports_errors
def build(
    ctx: typer.Context,
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created if missing).")] = Path("out"),
    update: Annotated[Optional[Path], typer.Option(
        "--update", show_default=False, metavar="OUT",
        help="Add INPUTS to the build in OUT: only new texts are embedded (OUT's cache), the build's options are "
             "kept, communities keep their numbers, and OUT/changelog.md says what changed.")] = None,
    format: FormatOpt = "auto",
    strict: StrictOpt = False,
    column_map: MapOpt = None,
    top_n: Annotated[int, typer.Option("--top-n", min=1, help="Concepts per paper: the keyphrases a paper is "
                                                             "described by.")] = 10,
    link_depth: Annotated[int, typer.Option(
        "--link-depth", min=1, help="How far down its keyphrase ranking a paper may link to a concept other "
                                    "papers have (extraction depth; at least --top-n).")] = 20,
    extractor: ExtractorOpt = "kg",
    model: ModelOpt = None,
    diversity: DiversityOpt = None,
    position_weight: PositionOpt = None,
    title_weight: TitleOpt = None,
    precision: PrecisionOpt = "auto",
    merge_threshold: Annotated[Optional[float], typer.Option(
        "--merge-threshold", min=0.0, max=1.01, show_default=False,
        help="Cosine at which two concepts merge as near-synonyms (default 0.85; above 1 = never).")] = None,
    concept_filter: Annotated[bool, typer.Option(
        "--concept-filter/--no-concept-filter",
        help="Drop a paper's concepts after its third that the learned filter judges no expert would list "
             "(trained for the packaged model; see docs/EXTRACTION.md).")] = True,
    thesaurus: Annotated[Optional[Path], typer.Option(
        "--thesaurus", exists=True, dir_okay=False, show_default=False,
        help="VOSviewer thesaurus (label<TAB>replace by; empty replacement drops the term).")] = None,
    write_thesaurus: Annotated[bool, typer.Option(
        "--write-thesaurus", help="Also write OUT/thesaurus.txt: the merges kg made, ready to edit.")] = False,
    cache: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    related_top_k: Annotated[int, typer.Option("--related-top", "--related-top-k", min=1, help="Related-paper links kept per paper in the graph (--related-top-k: its old name).")] = 10,
    min_shared: Annotated[Optional[int], typer.Option(
        "--min-shared", min=0, show_default=False,
        help="Concepts two papers must share for a related link (default: the library's).")] = None,
    min_cooccurrence: Annotated[Optional[int], typer.Option(
        "--min-cooccurrence", min=1, show_default=False,
        help="Papers two concepts must share for a co-occurrence link (default: the library's).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for communities and layout.")] = SEED,
    resolution: Annotated[float, typer.Option(help="Community resolution (higher = smaller communities).")] = 1.0,
    html: Annotated[bool, typer.Option("--html/--no-html", help="Write graph.html.")] = True,
    engine: EngineOpt = "local",
    backend: NxBackendOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Build the paper–concept graph from INPUTS and write graph files, report and HTML to --out.

    With --update OUT, add INPUTS to the build in OUT instead (see --update).

    \b
    Examples:
      kg build examples/papers.jsonl --out out/example
      kg build scopus.csv wos.txt --out out/field     (formats mix; a paper in both counts once)
      kg build refs.bib --format bibtex --top-n 8 --out out/refs
      kg build more.jsonl --update out/field          (add papers to a build)

    On a terminal it shows a progress bar per long stage; in a log, one line per stage.
    """
    level = verbosity(quiet, verbose)
    started = time.perf_counter()
    if update is not None:
        values = {"format": format, "strict": strict, "mapping": parse_map(column_map), "top_n": top_n,
                  "link_depth": link_depth, "extractor": extractor, "model": str(model) if model else None,
                  "diversity": diversity, "position_weight": position_weight, "title_weight": title_weight,
                  "precision": precision, "merge_threshold": merge_threshold, "concept_filter": concept_filter,
                  "thesaurus": str(thesaurus) if thesaurus else None, "write_thesaurus": write_thesaurus,
                  "related_top_k": related_top_k, "min_shared": min_shared, "min_cooccurrence": min_cooccurrence,
                  "seed": seed, "resolution": resolution, "html": html, "engine": engine,
                  "nx_backend": nx_backend(backend)}
        flags = {"mapping": "column_map", "nx_backend": "backend"}
        given = {name: value for name, value in values.items() if _given(ctx, flags.get(name, name))}
        if _given(ctx, "out") and out.resolve() != update.resolve():
            raise KgError(f"--out {out} and --update {update} name two folders; an update writes into the build "
                          "it updates: give --update OUT alone")
        _update(inputs, update, given, default_cache(cache, no_cache, update), started, level)
        return
    extraction_weights(extractor, position_weight, title_weight)
    backend = nx_backend(backend)
    tuned = {k: v for k, v in (("diversity", diversity), ("position_weight", position_weight),
                               ("title_weight", title_weight), ("merge_threshold", merge_threshold),
                               ("min_shared", min_shared), ("min_cooccurrence", min_cooccurrence))
             if v is not None}
    options = BuildOptions(format=format, strict=strict, mapping=parse_map(column_map),
                           top_n=top_n, link_depth=link_depth, extractor=extractor,
                           model=str(model) if model else None, precision=precision, thesaurus=str(thesaurus) if thesaurus else None,
                           write_thesaurus=write_thesaurus, concept_filter=concept_filter, **tuned,
                           related_top_k=related_top_k, seed=seed, resolution=resolution, html=html, engine=engine,
                           nx_backend=backend)
    output_folder(out)
    cache_path = default_cache(cache, no_cache, out)
    if cache_path is not None:
        check_cache(cache_path)
    progress = ProgressBar(level)
    try:
        with tally() as counts:
            result = pipeline.build([str(p) for p in inputs], out, options, on_progress=progress,
                                    on_stage=progress.stage, cache=cache_path)
    finally:
        progress.finish()
    show_backend_use(backend, counts)
    if result.embedded.get("damaged"):
        warn(f"Warning: {result.embedded['damaged']} damaged rows of the embedding cache {cache_path} "
             "(not a vector of the model's length): their texts were embedded again and the rows rewritten")
    if level < 0:
        _skips(result.corpus, level)
        return
    corpus, s = result.corpus, result.analysis["summary"]
    skipped = ", ".join(f"{n} {reason}" for reason, n in corpus.skip_counts().items())
    repairs = ", ".join(f"{n} {kind}" for kind, n in corpus.text_repairs.items())
    show(f"papers: {len(corpus.papers)} read, {len(corpus.skipped)} skipped"
               + (f" ({skipped})" if skipped else "")
               + (f", {corpus.merged} merged (same paper in several inputs)" if corpus.merged else "")
               + (f", {corpus.repaired} with unencodable or direction-changing characters removed"
                  if corpus.repaired else "")
               + (f", text repaired ({repairs})" if repairs else ""))
    _skips(corpus, level)
    edges = s["edges"]
    show(f"concepts: {s['concepts']} ({s['shared_concepts']} shared by 2+ papers)")
    show(f"edges: {edges['mentions']} mentions, {edges['related']} related, "
               f"{edges['co_occurs']} co_occurs, {edges['cites']} cites")
    show(f"communities: {len(result.analysis['communities'])}")
    show(f"wrote {len(result.files)} files to {out} in {time.perf_counter() - started:.1f}s")
