"""kg extract and kg eval: keyphrases alone, and their score on a gold standard."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.errors import KgError

from kg.cli.root import app
from kg.cli.extractflags import (DiversityOpt, EngineOpt, extraction_weights, ExtractorOpt, PositionOpt,
                                 PrecisionOpt, TitleOpt)
from kg.cli.flags import CacheFileOpt, FormatOpt, InputsArg, ModelOpt
from kg.cli.output import ProgressBar, reports_errors, show
from kg.atomic import atomic_write
from kg.evaluate import DEFAULT_KS, score_keyphrases
from kg.extract import CachedEmbedder, extract_keyphrases, keyphrases_jsonl, load_embedder
from kg.extract.ray_engine import check_engine
from kg.ingest import load_corpus


def _extract(papers, top_n: int, diversity, position_weight, title_weight, cache: Optional[str],
             precision: str = "auto", extractor: str = "kg", model: Optional[Path] = None, engine: str = "local"):
    extraction_weights(extractor, position_weight, title_weight)
    embedder = load_embedder(model, precision=precision)
    if cache:
        embedder = CachedEmbedder(embedder, cache)
    tuned = {k: v for k, v in (("diversity", diversity), ("position_weight", position_weight),
                               ("title_weight", title_weight)) if v is not None}
    progress = ProgressBar()
    try:
        return extract_keyphrases(papers, embedder, top_n=top_n, n_jobs=2, extractor=extractor, engine=engine,
                                  on_progress=progress, **tuned)
    finally:
        progress.finish()


@app.command()
@reports_errors
def extract(
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", dir_okay=False,
                                      help="JSONL file: one {id, keyphrases: [{phrase, score}]} per paper.")],
    format: FormatOpt = "auto",
    top_n: Annotated[int, typer.Option("--top-n", min=1, help="Keyphrases per paper.")] = 10,
    extractor: ExtractorOpt = "kg",
    model: ModelOpt = None,
    diversity: DiversityOpt = None,
    position_weight: PositionOpt = None,
    title_weight: TitleOpt = None,
    precision: PrecisionOpt = "auto",
    cache: CacheFileOpt = None,
    engine: EngineOpt = "local",
) -> None:
    """Extract keyphrases from INPUTS (the extraction kg build uses) and write them to --out."""
    started = time.perf_counter()
    check_engine(engine, extractor)
    corpus = load_corpus([str(p) for p in inputs], format=format)
    found = _extract(corpus.papers, top_n, diversity, position_weight, title_weight,
                     str(cache) if cache else None, precision, extractor, model, engine)
    atomic_write(out, keyphrases_jsonl(corpus.papers, found))
    show(f"wrote keyphrases of {len(corpus.papers)} papers to {out} "
               f"in {time.perf_counter() - started:.1f}s")


@app.command("eval")
@reports_errors
def eval_(
    gold: Annotated[Path, typer.Argument(help="JSONL with id, title, abstract and gold keyphrases.",
                                         show_default=False)],
    extractor: ExtractorOpt = "kg",
    model: ModelOpt = None,
    diversity: DiversityOpt = None,
    position_weight: PositionOpt = None,
    title_weight: TitleOpt = None,
    precision: PrecisionOpt = "auto",
    cache: CacheFileOpt = None,
) -> None:
    """Score an extraction (kg's, or KeyBERT's with --extractor keybert) on GOLD: micro-averaged P/R/F1 at 5, 10, 15 (Porter-stemmed exact match)."""
    papers = [p for p in load_corpus([str(gold)], format="jsonl").papers if p.keyphrases]
    if not papers:
        raise KgError(f"{gold}: no record has gold keyphrases (a 'keyphrases' list)")
    found = _extract(papers, max(DEFAULT_KS), diversity, position_weight, title_weight,
                     str(cache) if cache else None, precision, extractor, model)
    scores = score_keyphrases({pid: [k.phrase for k in kps] for pid, kps in found.items()},
                              {p.id: list(p.keyphrases) for p in papers})
    show(f"{len(papers)} documents, {sum(len(p.keyphrases) for p in papers)} gold keyphrases")
    show(f"{'k':>4} {'P':>7} {'R':>7} {'F1':>7}")
    for k, row in scores.items():
        show(f"{k:>4} {row['precision']:>7.2f} {row['recall']:>7.2f} {row['f1']:>7.2f}")
