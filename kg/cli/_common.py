"""What every ``kg`` command shares: the Typer app, output, error reporting, option types."""

from __future__ import annotations

import errno
import functools
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from kg.errors import KgError, OptionError
from kg.escape import terminal_text
from kg.extract.embedder import PRECISIONS

def _plain_flags(params: list) -> list:
    """Flags show no ``<bool>`` type in help: the flag is the value."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    """A kg command: usage lines as ``kg report [OPTIONS] DIRECTORY``, flags without ``<bool>``."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = (param.metavar or param.name or "").upper()
                name = name if param.required else f"[{name}]"
                pieces.append(name + ("..." if param.nargs != 1 else ""))
        return pieces

    def get_params(self, ctx) -> list:
        return _plain_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx) -> list:
        return _plain_flags(super().get_params(ctx))


class _App(typer.Typer):
    """The ``kg`` Typer app: every command made with :class:`_Command`."""

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", _Command)
        return super().command(*args, **kwargs)


app = _App(
    cls=_Group,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    # plain text: help that says pip install 'kg[gds]' shows the brackets (Rich markup would eat them)
    rich_markup_mode=None,
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

    Extras (pip install 'kg[NAME]'): kg[gds] for kg report --engine gds (Neo4j Graph Data Science),
    kg[ray] for --engine ray (extraction on a Ray cluster), kg[parallel] for --nx-backend parallel,
    kg[notebook] for KnowledgeGraph.to_pandas(). Shell completion: kg --install-completion.
    """


def show(message: str, *, nl: bool = True) -> None:
    """Print to stdout; corpus text in ``message`` cannot reach the terminal as escape sequences."""
    typer.echo(terminal_text(message), nl=nl)


def warn(message: str) -> None:
    """Print a diagnostic to stderr, as safely as :func:`_out`."""
    typer.echo(terminal_text(message), err=True)


_ERROR_CHARS = 2000  # an error line longer than this (an argument of 130 KB echoed) is cut in the middle


def short_error(message: str, limit: int = _ERROR_CHARS) -> str:
    """``message`` cut to about ``limit`` characters, its start and end kept.

    Examples
    --------
    >>> short_error("no paper matches '" + "x" * 5000 + "'", limit=60)
    "no paper matches 'xxxxxxxxxxxxxxxxxxxxxx … (4,969 characters cut) … xxxxxxxxx'"
    """
    if len(message) <= limit:
        return message
    head, tail = (2 * limit) // 3, limit // 6
    return f"{message[:head]} … ({len(message) - head - tail:,} characters cut) … {message[-tail:]}"


def reports_errors(func):
    """Turn library errors into ``Error: …`` on stderr and exit code 1 (one line, cut when huge)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except OptionError as exc:  # library argument names -> the flags of this command
            flag = _FLAGS.get(exc.argument, "--" + exc.argument.replace("_", "-"))
            warn(short_error(f"Error: {flag}: {exc.reason}"))
            raise typer.Exit(code=1) from None
        except KgError as exc:
            warn(short_error(f"Error: {exc}"))
            raise typer.Exit(code=1) from None
        except OSError as exc:
            if exc.errno not in _ENVIRONMENT_ERRNOS:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            warn(short_error(f"Error: {where}{exc.strerror or exc}"))
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

    from kg.analysis import MAX_RESOLUTION

    if resolution is not None and not (math.isfinite(resolution) and 0 < resolution <= MAX_RESOLUTION):
        raise OptionError("resolution", f"must be a number > 0 and <= {MAX_RESOLUTION:g}, not {resolution!r}")


_STAGE_NAMES = {"documents": "embedding abstracts", "phrases": "embedding phrases", "candidates": "candidate phrases",
                "ranking": "ranking keyphrases"}


class ProgressBar:
    """What a long command says on stderr while it works, by ``verbosity`` (-1 quiet, 0, 1 verbose).

    On a terminal (or with ``KG_PROGRESS=1``): a live tqdm bar with ETA per long stage and a
    status line naming the stages done, then one summary line (:meth:`finish`). Without a
    terminal (a log, a pipe): one line per build stage with its seconds, and a line at every
    quarter of a long stage. Verbose adds the wall/CPU/memory of every stage and step, in
    both modes; quiet says nothing (warnings and errors still reach stderr).
    """

    def __init__(self, verbosity: int = 0, *, terminal: bool | None = None) -> None:
        import os

        self.verbosity = verbosity
        self.terminal = (sys.stderr.isatty() or os.environ.get("KG_PROGRESS") == "1") if terminal is None \
            else terminal
        self.bars_enabled = self.terminal and verbosity >= 0
        self.bars: dict = {}
        self.quarters: dict[str, int] = {}
        self.stages: list = []
        self.status = None
        self.started = time.perf_counter()
        self._ticking = None

    def _tick(self) -> None:
        """Once a second while bars are open: redraw them and the status line (elapsed times stay live
        through a long chunk of work)."""
        import threading

        if self._ticking is not None:
            return
        self._ticking = threading.Event()

        def run(stop=self._ticking):
            while not stop.wait(1.0):
                for bar in list(self.bars.values()):
                    if not bar.disable:
                        bar.refresh()
                if self.status is not None and not self.status.disable:
                    self._status()

        threading.Thread(target=run, name="kg-progress", daemon=True).start()

    def _status(self) -> None:
        if not self.bars_enabled:
            return
        from tqdm import tqdm

        if self.status is None:
            self.status = tqdm(total=None, file=sys.stderr, leave=False, bar_format="{desc}", **self._width())
            self._tick()
        done = [s for s in self.stages if s.cpu == s.cpu]
        what = f"{len(done)} stages done, last {done[-1].name} ({done[-1].wall:.1f} s)" if done else "starting"
        self.status.set_description_str(terminal_text(f"kg: {what}; {time.perf_counter() - self.started:.0f} s so far"))

    @staticmethod
    def _width() -> dict:
        """tqdm's width: the terminal's as it changes, or 100 columns where it reports none (0x0)."""
        import os

        try:
            if os.get_terminal_size(sys.stderr.fileno()).columns > 0:
                return {"dynamic_ncols": True}
        except (OSError, ValueError):
            pass
        return {"ncols": 100}

    def _write(self, message: str) -> None:
        if self.bars_enabled:
            from tqdm import tqdm

            tqdm.write(terminal_text(message), file=sys.stderr)
        else:
            warn(message)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.verbosity < 0:
            return
        if not self.bars_enabled:
            quarter = 4 * done // max(total, 1)
            if total >= 2000 and 0 < quarter < 4 and self.quarters.get(stage, 0) < quarter:
                self.quarters[stage] = quarter
                warn(f"kg: {stage}: {done:,}/{total:,}")
            return
        from tqdm import tqdm

        if self.status is None:
            self._status()
        bar = self.bars.get(stage)
        if bar is None:
            if done >= total:  # done at once: no bar to show
                return
            bar = self.bars[stage] = tqdm(total=total, desc=f"kg: {_STAGE_NAMES.get(stage, stage)}", unit="text",
                                          file=sys.stderr, leave=False, **self._width())
            self._tick()
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def stage(self, stage) -> None:
        """A build stage ended: a line (a log), the status line (a terminal), its full timing (verbose)."""
        self.stages.append(stage)
        step = stage.cpu != stage.cpu  # NaN: a step inside a stage
        if self.verbosity < 0 or (step and self.verbosity < 1):
            return
        if self.verbosity > 0:
            self._write(f"kg: {stage.line()}")
        elif not self.terminal:
            self._write(f"kg: {stage.name}: {stage.wall:.1f} s")
        self._status()

    def finish(self) -> None:
        """Close the bars; on a terminal, one summary line: the time taken and the slowest stages."""
        if self._ticking is not None:
            self._ticking.set()
        for bar in self.bars.values():
            bar.close()
        if self.status is not None:
            self.status.close()
        if not self.bars_enabled or self.verbosity > 0:
            return
        stages = sorted((s for s in self.stages if s.cpu == s.cpu), key=lambda s: -s.wall)
        slowest = ", ".join(f"{s.name} {s.wall:.1f} s" for s in stages[:3])
        warn(f"kg: done in {time.perf_counter() - self.started:.1f} s" + (f" (slowest: {slowest})" if slowest else ""))


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
    from kg.errors import InputError

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
    from kg.extract import EXTRACTORS

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
    from kg.extract import ENGINES

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
    from kg.nxbackend import check_backend

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
    from kg.analyze.communities import METHODS, SCORINGS

    if method not in METHODS:
        raise KgError(f"unknown --method {method!r}; choose from {', '.join(METHODS)}")
    if labels not in SCORINGS:
        raise KgError(f"unknown --labels {labels!r}; choose from {', '.join(SCORINGS)}")
    saved = built.settings()
    return {"seed": saved["seed"] if seed is None else seed,
            "resolution": saved["resolution"] if resolution is None else resolution,
            "method": method, "scoring": labels}


def warn_coauthor_cap(graph) -> None:
    """Say how many papers made no co-author links for having too many authors (kg.citations.coauthorship)."""
    from kg.citations import MAX_COAUTHORS, coauthor_cap

    over = coauthor_cap(graph)
    if over:
        warn(f"co-authorship: {over} paper{'s' if over != 1 else ''} with more than {MAX_COAUTHORS} authors "
             "left out of the co-author links (as bibliometric maps do; their authors are still linked to them)")


def print_rows(keys: list[str], rows: list[dict], as_json: bool) -> None:
    from kg.export.cypher import format_rows

    show(format_rows(keys, rows, "json" if as_json else "table"), nl=False)


def read_graph(directory: Path):
    from kg.graph import load_graph

    return load_graph(directory)
