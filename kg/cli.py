"""The ``kg`` command line: parse options, call one library function, print a summary.

Library errors (:class:`kg.errors.KgError`) become one ``Error: …`` line on stderr
and exit code 1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import functools
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.errors import KgError

app = typer.Typer(
    help="kg — build a citation-style knowledge graph from research papers.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        import kg

        typer.echo(f"kg {kg.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """kg — build a citation-style knowledge graph from research papers.

    Start with: kg build PAPERS.jsonl --out out/  (then open out/graph.html and out/report.md)
    """


def _err(message: str) -> None:
    typer.echo(message, err=True)


def reports_errors(func):
    """Turn library errors into ``Error: …`` on stderr and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except KgError as exc:
            _err(f"Error: {exc}")
            raise typer.Exit(code=1) from None

    return wrapper


class _ProgressBar:
    """A tqdm bar per stage on stderr, only when stderr is a terminal or KG_PROGRESS=1."""

    def __init__(self) -> None:
        import os

        self.enabled = sys.stderr.isatty() or os.environ.get("KG_PROGRESS") == "1"
        self.bars: dict = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm

        bar = self.bars.get(stage)
        if bar is None:
            bar = self.bars[stage] = tqdm(total=total, desc=f"embedding {stage}", unit="text",
                                          file=sys.stderr, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()


InputsArg = Annotated[list[Path], typer.Argument(help="Corpus files: .txt, .jsonl, .json, .csv, .tsv, .bib, "
                                                      ".ris (mixed is fine; see --format).",
                                                 show_default=False)]
FormatOpt = Annotated[str, typer.Option(
    "--format", "-f", help="Input format: auto (by extension and content), text, jsonl, csv, scopus, wos, "
                           "bibtex, ris, openalex, s2 (Semantic Scholar) or arxiv (metadata snapshot).")]
MapOpt = Annotated[Optional[list[str]], typer.Option(
    "--map", metavar="FIELD=COLUMN", help="Read a kg field from a CSV column, e.g. --map abstract=Summary "
                                          "(repeatable; fields: id, title, abstract, authors, year, venue, "
                                          "keyphrases, references, doi, arxiv_id).", show_default=False)]


def _parse_map(values: list[str] | None) -> tuple[tuple[str, str], ...]:
    """``["abstract=AB"]`` -> ``(("abstract", "AB"),)``; a malformed item is a one-line error."""
    from kg.errors import InputError

    pairs = []
    for value in values or ():
        field, sep, column = value.partition("=")
        if not sep or not field.strip() or not column.strip():
            raise InputError(f"--map {value!r}: expected FIELD=COLUMN, e.g. --map abstract=Summary")
        pairs.append((field.strip(), column.strip()))
    return tuple(pairs)


StrictOpt = Annotated[bool, typer.Option("--strict", help="Fail on the first skipped record instead of counting it.")]


@app.command()
@reports_errors
def build(
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created if missing).")] = Path("out"),
    format: FormatOpt = "auto",
    strict: StrictOpt = False,
    column_map: MapOpt = None,
    top_n: Annotated[int, typer.Option("--top-n", min=1, help="Keyphrases extracted per paper.")] = 10,
    diversity: Annotated[float, typer.Option(min=0.0, max=1.0, help="MMR diversity (0 = pure relevance).")] = 0.0,
    related_top_k: Annotated[int, typer.Option("--related-top-k", min=1, help="Related papers kept per paper.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed for communities and layout.")] = 42,
    resolution: Annotated[float, typer.Option(help="Community resolution (higher = smaller communities).")] = 1.0,
    html: Annotated[bool, typer.Option("--html/--no-html", help="Write graph.html.")] = True,
) -> None:
    """Build the paper–concept graph from INPUTS and write graph files, report and HTML to --out."""
    from kg.pipeline import BuildOptions, build as run_build

    started = time.perf_counter()
    options = BuildOptions(format=format, strict=strict, mapping=_parse_map(column_map),
                           top_n=top_n, diversity=diversity,
                           related_top_k=related_top_k, seed=seed, resolution=resolution, html=html)
    result = run_build([str(p) for p in inputs], out, options, on_progress=_ProgressBar())
    corpus, s = result.corpus, result.analysis["summary"]
    skipped = ", ".join(f"{n} {reason}" for reason, n in corpus.skip_counts().items())
    typer.echo(f"papers: {len(corpus.papers)} read, {len(corpus.skipped)} skipped"
               + (f" ({skipped})" if skipped else "")
               + (f", {corpus.merged} merged (same paper in several inputs)" if corpus.merged else ""))
    for skip in corpus.skipped[:10]:
        _err(f"  skipped {skip}")
    if len(corpus.skipped) > 10:
        _err(f"  … and {len(corpus.skipped) - 10} more")
    edges = s["edges"]
    typer.echo(f"concepts: {s['concepts']} ({s['shared_concepts']} shared by 2+ papers)")
    typer.echo(f"edges: {edges['mentions']} mentions, {edges['related']} related, "
               f"{edges['co_occurs']} co_occurs, {edges['cites']} cites")
    typer.echo(f"communities: {len(result.analysis['communities'])}")
    typer.echo(f"wrote {len(result.files)} files to {out} in {time.perf_counter() - started:.1f}s")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
