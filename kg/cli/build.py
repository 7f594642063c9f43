"""kg build: a corpus in, every output file out."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.cli._common import (
    app, reports_errors, show, warn, InputsArg, FormatOpt, StrictOpt, MapOpt, DiversityOpt, PositionOpt,
    TitleOpt, PrecisionOpt, CacheOpt, NoCacheOpt, output_folder, default_cache, ProgressBar, parse_map,
    ExtractorOpt, ModelOpt, extraction_weights
)
from kg.analysis import SEED


@app.command()
@reports_errors
def build(
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created if missing).")] = Path("out"),
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
) -> None:
    """Build the paper–concept graph from INPUTS and write graph files, report and HTML to --out."""
    from kg.pipeline import BuildOptions, build as run_build

    started = time.perf_counter()
    extraction_weights(extractor, position_weight, title_weight)
    tuned = {k: v for k, v in (("diversity", diversity), ("position_weight", position_weight),
                               ("title_weight", title_weight), ("merge_threshold", merge_threshold),
                               ("min_shared", min_shared), ("min_cooccurrence", min_cooccurrence))
             if v is not None}
    options = BuildOptions(format=format, strict=strict, mapping=parse_map(column_map),
                           top_n=top_n, link_depth=link_depth, extractor=extractor,
                           model=str(model) if model else None, precision=precision, thesaurus=str(thesaurus) if thesaurus else None,
                           write_thesaurus=write_thesaurus, **tuned,
                           related_top_k=related_top_k, seed=seed, resolution=resolution, html=html)
    output_folder(out)
    cache_path = default_cache(cache, no_cache, out)
    if cache_path is not None:
        from kg.extract.cache import check_cache

        check_cache(cache_path)
    progress = ProgressBar()
    result = run_build([str(p) for p in inputs], out, options, on_progress=progress,
                       on_stage=progress.stage, cache=cache_path)
    corpus, s = result.corpus, result.analysis["summary"]
    skipped = ", ".join(f"{n} {reason}" for reason, n in corpus.skip_counts().items())
    show(f"papers: {len(corpus.papers)} read, {len(corpus.skipped)} skipped"
               + (f" ({skipped})" if skipped else "")
               + (f", {corpus.merged} merged (same paper in several inputs)" if corpus.merged else "")
               + (f", {corpus.repaired} with unencodable or direction-changing characters removed"
                  if corpus.repaired else ""))
    for skip in corpus.skipped[:10]:
        warn(f"  skipped {skip}")
    if len(corpus.skipped) > 10:
        warn(f"  … and {len(corpus.skipped) - 10} more")
    edges = s["edges"]
    show(f"concepts: {s['concepts']} ({s['shared_concepts']} shared by 2+ papers)")
    show(f"edges: {edges['mentions']} mentions, {edges['related']} related, "
               f"{edges['co_occurs']} co_occurs, {edges['cites']} cites")
    show(f"communities: {len(result.analysis['communities'])}")
    show(f"wrote {len(result.files)} files to {out} in {time.perf_counter() - started:.1f}s")
