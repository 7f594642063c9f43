"""What every ``kg`` command shares: the Typer app, output, error reporting, option types."""

from __future__ import annotations

import errno
import functools
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.errors import InputError, KgError, OptionError
from kg.escape import terminal_text
from kg.extract.embedder import PRECISIONS
from kg.analyze.communities import METHODS, SCORINGS
from kg.export.cypher import format_rows
from kg.extract import ENGINES, EXTRACTORS
from kg.graphfile import load_graph
from kg.nxbackend import check_backend
from kg._version import __version__

app = typer.Typer(
    help="kg — build a citation-style knowledge graph from research papers.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kg {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """kg — build a citation-style knowledge graph from research papers.

    Start with: kg build PAPERS.jsonl --out out/  (then open out/graph.html and out/report.md)
    """


def show(message: str, *, nl: bool = True) -> None:
    """Print to stdout; corpus text in ``message`` cannot reach the terminal as escape sequences."""
    typer.echo(terminal_text(message), nl=nl)


def warn(message: str) -> None:
    """Print a diagnostic to stderr, as safely as :func:`_out`."""
    typer.echo(terminal_text(message), err=True)


def reports_errors(func):
    """Turn library errors into ``Error: …`` on stderr and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except OptionError as exc:  # library argument names -> the flags of this command
            warn(f"Error: {_FLAGS.get(exc.argument, '--' + exc.argument.replace('_', '-'))}: {exc.reason}")
            raise typer.Exit(code=1) from None
        except KgError as exc:
            warn(f"Error: {exc}")
            raise typer.Exit(code=1) from None
        except OSError as exc:
            if exc.errno not in _ENVIRONMENT_ERRNOS:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            warn(f"Error: {where}{exc.strerror or exc}")
            raise typer.Exit(code=1) from None

    return wrapper


_FLAGS = {"mapping": "--map"}
# Errors of the machine, not of kg: a full disk, a read-only or vanished folder, no permission.
_ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT,
                       errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENAMETOOLONG, errno.EFBIG, errno.EIO}


def output_folder(path: Path) -> Path:
    """``path`` as a folder kg can write into (created if missing), checked before any work starts."""
    import tempfile

    if path.exists() and not path.is_dir():
        raise KgError(f"{path}: is a file, not a folder; give --out a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path, prefix=".kg-probe-"):
            pass
    except OSError as exc:
        raise KgError(f"{path}: cannot write into this folder ({exc.strerror or exc})") from None
    return path


def output_file(path: Path) -> Path:
    """``path`` as a file kg can write (its folder created if missing), checked before any work starts."""
    if path.is_dir():
        raise KgError(f"{path}: is a folder; give --out a file name, e.g. {path / 'graph.html'}")
    output_folder(path.parent if str(path.parent) else Path("."))
    return path


def check_resolution(resolution: Optional[float]) -> None:
    import math

    if resolution is not None and not (math.isfinite(resolution) and resolution > 0):
        raise OptionError("resolution", f"must be a finite number > 0, not {resolution!r}")


class ProgressBar:
    """Progress on stderr: a tqdm bar per stage on a terminal (or with KG_PROGRESS=1), else a
    line at every quarter of a long stage; and one line as each build stage ends."""

    def __init__(self) -> None:
        import os

        self.bars_enabled = sys.stderr.isatty() or os.environ.get("KG_PROGRESS") == "1"
        self.bars: dict = {}
        self.quarters: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.bars_enabled:
            quarter = 4 * done // max(total, 1)
            if total >= 2000 and 0 < quarter < 4 and self.quarters.get(stage, 0) < quarter:
                self.quarters[stage] = quarter
                warn(f"kg: {stage}: {done:,}/{total:,}")
            return
        from tqdm import tqdm

        bar = self.bars.get(stage)
        if bar is None:
            bar = self.bars[stage] = tqdm(total=total, desc=f"embedding {stage}", unit="text",
                                          file=sys.stderr, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def stage(self, stage) -> None:
        """A build stage ended: one line with its wall and CPU time and memory."""
        warn(f"kg: {stage.line()}")


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


DiversityOpt = Annotated[Optional[float], typer.Option(
    min=0.0, max=1.0, show_default=False, help="MMR diversity, 0 = pure relevance (default 0.3).")]
PositionOpt = Annotated[Optional[float], typer.Option(
    "--position-weight", min=0.0, show_default=False, help="Bonus for phrases that occur early (default 0.1).")]
TitleOpt = Annotated[Optional[float], typer.Option(
    "--title-weight", min=0.0, show_default=False, help="Bonus for phrases in the title (default 0.05).")]


def _precision(value: str) -> str:
    if value not in PRECISIONS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(PRECISIONS)}")
    return value


PrecisionOpt = Annotated[str, typer.Option(
    "--precision", callback=_precision,
    help="Arithmetic of the embedding model: auto (int8 through ONNX Runtime on a CPU, fp16 on a GPU), "
         "fp32, bf16, fp16 or int8.")]
def _extractor(value: str) -> str:
    if value not in EXTRACTORS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(EXTRACTORS)}")
    return value


ExtractorOpt = Annotated[str, typer.Option(
    "--extractor", callback=_extractor,
    help="What ranks each paper's candidate phrases: kg (cosine + position and title bonuses + MMR) or "
         "keybert (the KeyBERT package itself: cosine, MMR with --diversity).")]
ModelOpt = Annotated[Optional[Path], typer.Option(
    "--model", file_okay=False, show_default=False,
    help="A local sentence-transformers model folder (default: the packaged all-MiniLM-L6-v2).")]


def _engine(value: str) -> str:
    if value not in ENGINES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(ENGINES)}")
    return value


EngineOpt = Annotated[str, typer.Option(
    "--engine", callback=_engine,
    help="Where extraction runs: local (this process) or ray (Ray Data: the cluster at RAY_ADDRESS, else a "
         "local Ray runtime; pip install 'kg[ray]'). Same keyphrases and graph either way.")]


def extraction_weights(extractor: str, position_weight: Optional[float], title_weight: Optional[float]) -> None:
    """Refuse kg's ranking bonuses with the KeyBERT extractor, which has none."""
    if extractor == "keybert":
        for name, value in (("position_weight", position_weight), ("title_weight", title_weight)):
            if value is not None:
                raise OptionError(name, "applies to --extractor kg only (KeyBERT ranks by cosine and MMR)")


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
NxBackendOpt = Annotated[Optional[str], typer.Option(
    "--nx-backend", metavar="NAME", show_default=False,
    help="Run the analysis's NetworkX calls (PageRank, Louvain, modularity) on this installed NetworkX "
         "backend where it implements them, e.g. parallel (pip install 'kg[parallel]') or rustworkx.")]


def nx_backend(name: Optional[str]) -> Optional[str]:
    """``--nx-backend``, checked before any work (one error for an unknown or broken backend)."""
    try:
        return check_backend(name)
    except OptionError as exc:
        raise OptionError("nx_backend", exc.reason) from None


def show_backend_use(backend: Optional[str], counts) -> None:
    """One line: which NetworkX calls ran on ``backend`` and which NetworkX ran itself."""
    if backend is None:
        return
    def listed(where: str) -> str:
        return ", ".join(f"{name} ×{n}" for (name, ran), n in sorted(counts.items()) if ran == where) or "none"
    warn(f"NetworkX backend {backend}: ran {listed(backend)}; NetworkX ran (not implemented there): "
         f"{listed('networkx')}")


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


def print_rows(keys: list[str], rows: list[dict], as_json: bool) -> None:
    show(format_rows(keys, rows, "json" if as_json else "table"), nl=False)


def read_graph(directory: Path):
    return load_graph(directory)
