"""The flags commands share (one flag, one meaning everywhere) and the checks made on them before any work.

Library errors name arguments (``top_n``); :func:`kg.cli.output.reports_errors` shows them as the
flags defined here (``--top-n``).
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.defaults import MAX_RESOLUTION, METHODS, SCORINGS
from kg.errors import GraphFileError, InputError, KgError, OptionError


def output_folder(path: Path) -> Path:
    """``path`` as a folder kg can write into (created if missing), checked before any work starts."""
    if path.exists() and not path.is_dir():
        raise KgError(f"{path}: is a file, not a folder; give --out a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path, prefix=".kg-probe-"):
            pass
    except OSError as exc:
        raise KgError(f"{path}: cannot write into this folder ({exc.strerror or exc})") from None
    return path


def build_folder(path: Path) -> Path:
    """``path`` as the build folder a command reads (kg analyze, kg forecast, kg gaps): a corpus file given where
    a build is expected is named as such before any folder check."""
    if path.is_file():
        raise GraphFileError(f"{path}: expected a kg build folder (the --out of kg build, holding graph.json), "
                             f"not this file; to build one from it: kg build {path} --out DIR")
    return path


def output_file(path: Path) -> Path:
    """``path`` as a file kg can write (its folder created if missing), checked before any work starts."""
    if path.is_dir():
        raise KgError(f"{path}: is a folder; give --out a file name, e.g. {path / 'graph.html'}")
    output_folder(path.parent if str(path.parent) else Path("."))
    return path


def check_resolution(resolution: Optional[float]) -> None:
    if resolution is not None and not (math.isfinite(resolution) and 0 < resolution <= MAX_RESOLUTION):
        raise OptionError("resolution", f"must be a number > 0 and <= {MAX_RESOLUTION:g}, not {resolution!r}")



QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but warnings and errors.")]
VerboseOpt = Annotated[bool, typer.Option(
    "--verbose", "-v", help="Also print each stage's wall and CPU time and memory (and the steps inside).")]


def verbosity(quiet: bool, verbose: bool) -> int:
    """-1 (quiet), 0 or 1 (verbose); both given is an error."""
    if quiet and verbose:
        raise KgError("choose one of --quiet and --verbose")
    return -1 if quiet else 1 if verbose else 0
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


def parse_map(values: list[str] | None) -> tuple[tuple[str, str], ...]:
    """``["abstract=AB"]`` -> ``(("abstract", "AB"),)``; a malformed item is a one-line error."""
    pairs = []
    for value in values or ():
        field, sep, column = value.partition("=")
        if not sep or not field.strip() or not column.strip():
            raise InputError(f"--map {value!r}: expected FIELD=COLUMN, e.g. --map abstract=Summary")
        pairs.append((field.strip(), column.strip()))
    return tuple(pairs)
StrictOpt = Annotated[bool, typer.Option("--strict", help="Fail on the first skipped record instead of counting it.")]
ModelOpt = Annotated[Optional[Path], typer.Option(
    "--model", file_okay=False, show_default=False,
    help="A local sentence-transformers model folder (default: the packaged all-MiniLM-L6-v2).")]


CacheOpt = Annotated[Optional[Path], typer.Option(
    "--cache", dir_okay=False, show_default=False,
    help="Embedding cache file (default OUT/.kg-cache/embeddings.sqlite).")]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Embed everything afresh; keep no cache.")]
CacheFileOpt = Annotated[Optional[Path], typer.Option(
    "--cache", dir_okay=False, show_default=False, help="Embedding cache file (default: none).")]


def default_cache(cache: Optional[Path], no_cache: bool, out: Path) -> Optional[str]:
    if no_cache:
        return None
    return str(cache) if cache else str(out / ".kg-cache" / "embeddings.sqlite")
SeedOpt = Annotated[Optional[int], typer.Option(
    help="Seed for communities and sampled betweenness (default: the saved analysis's).")]
ResolutionOpt = Annotated[Optional[float], typer.Option(
    help="Community resolution (default: the saved analysis's).")]
MethodOpt = Annotated[str, typer.Option("--method", help="Community detection: louvain or leiden.")]
LabelsOpt = Annotated[str, typer.Option("--labels", help="Community labels: ctfidf or loglik.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print rows as JSON.")]
def analysis_options(built, seed: Optional[int], resolution: Optional[float], method: str, labels: str) -> dict:
    """The analysis settings of a command: the options given, else those of the saved analysis."""
    if method not in METHODS:
        raise KgError(f"unknown --method {method!r}; choose from {', '.join(METHODS)}")
    if labels not in SCORINGS:
        raise KgError(f"unknown --labels {labels!r}; choose from {', '.join(SCORINGS)}")
    saved = built.settings()
    return {"seed": saved["seed"] if seed is None else seed,
            "resolution": saved["resolution"] if resolution is None else resolution,
            "method": method, "scoring": labels}
