"""The ``kg`` command line: parse options, call one library function, print a summary.

Library errors (:class:`kg.errors.KgError`) become one ``Error: …`` line on stderr
and exit code 1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import functools
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.errors import KgError, OptionError
from kg.escape import terminal_text
from kg.extract.embedder import PRECISIONS

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


def _out(message: str, *, nl: bool = True) -> None:
    """Print to stdout; corpus text in ``message`` cannot reach the terminal as escape sequences."""
    typer.echo(terminal_text(message), nl=nl)


def _err(message: str) -> None:
    """Print a diagnostic to stderr, as safely as :func:`_out`."""
    typer.echo(terminal_text(message), err=True)


def reports_errors(func):
    """Turn library errors into ``Error: …`` on stderr and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except OptionError as exc:  # library argument names -> the flags of this command
            _err(f"Error: {_FLAGS.get(exc.argument, '--' + exc.argument.replace('_', '-'))}: {exc.reason}")
            raise typer.Exit(code=1) from None
        except KgError as exc:
            _err(f"Error: {exc}")
            raise typer.Exit(code=1) from None
        except OSError as exc:
            if exc.errno not in _ENVIRONMENT_ERRNOS:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            _err(f"Error: {where}{exc.strerror or exc}")
            raise typer.Exit(code=1) from None

    return wrapper


_FLAGS = {"mapping": "--map"}
# Errors of the machine, not of kg: a full disk, a read-only or vanished folder, no permission.
_ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT,
                       errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENAMETOOLONG, errno.EFBIG, errno.EIO}


def _output_folder(path: Path) -> Path:
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


def _output_file(path: Path) -> Path:
    """``path`` as a file kg can write (its folder created if missing), checked before any work starts."""
    if path.is_dir():
        raise KgError(f"{path}: is a folder; give --out a file name, e.g. {path / 'graph.html'}")
    _output_folder(path.parent if str(path.parent) else Path("."))
    return path


def _check_resolution(resolution: Optional[float]) -> None:
    import math

    if resolution is not None and not (math.isfinite(resolution) and resolution > 0):
        raise OptionError("resolution", f"must be a finite number > 0, not {resolution!r}")


class _ProgressBar:
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
                _err(f"kg: {stage}: {done:,}/{total:,}")
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
        _err(f"kg: {stage.line()}")


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
CacheOpt = Annotated[Optional[Path], typer.Option(
    "--cache", dir_okay=False, show_default=False,
    help="Embedding cache file (default OUT/.kg-cache/embeddings.sqlite).")]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Embed everything afresh; keep no cache.")]
CacheFileOpt = Annotated[Optional[Path], typer.Option(
    "--cache", dir_okay=False, show_default=False, help="Embedding cache file (default: none).")]


def _cache_path(cache: Optional[Path], no_cache: bool, out: Path) -> Optional[str]:
    if no_cache:
        return None
    return str(cache) if cache else str(out / ".kg-cache" / "embeddings.sqlite")


@app.command()
@reports_errors
def build(
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created if missing).")] = Path("out"),
    format: FormatOpt = "auto",
    strict: StrictOpt = False,
    column_map: MapOpt = None,
    top_n: Annotated[int, typer.Option("--top-n", min=1, help="Keyphrases extracted per paper.")] = 10,
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
    related_top_k: Annotated[int, typer.Option("--related-top-k", min=1, help="Related papers kept per paper.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed for communities and layout.")] = 42,
    resolution: Annotated[float, typer.Option(help="Community resolution (higher = smaller communities).")] = 1.0,
    html: Annotated[bool, typer.Option("--html/--no-html", help="Write graph.html.")] = True,
) -> None:
    """Build the paper–concept graph from INPUTS and write graph files, report and HTML to --out."""
    from kg.pipeline import BuildOptions, build as run_build

    started = time.perf_counter()
    tuned = {k: v for k, v in (("diversity", diversity), ("position_weight", position_weight),
                               ("title_weight", title_weight), ("merge_threshold", merge_threshold))
             if v is not None}
    options = BuildOptions(format=format, strict=strict, mapping=_parse_map(column_map),
                           top_n=top_n, precision=precision, thesaurus=str(thesaurus) if thesaurus else None,
                           write_thesaurus=write_thesaurus, **tuned,
                           related_top_k=related_top_k, seed=seed, resolution=resolution, html=html)
    _output_folder(out)
    cache_path = _cache_path(cache, no_cache, out)
    if cache_path is not None:
        from kg.extract.cache import check_cache

        check_cache(cache_path)
    progress = _ProgressBar()
    result = run_build([str(p) for p in inputs], out, options, on_progress=progress,
                       on_stage=progress.stage, cache=cache_path)
    corpus, s = result.corpus, result.analysis["summary"]
    skipped = ", ".join(f"{n} {reason}" for reason, n in corpus.skip_counts().items())
    _out(f"papers: {len(corpus.papers)} read, {len(corpus.skipped)} skipped"
               + (f" ({skipped})" if skipped else "")
               + (f", {corpus.merged} merged (same paper in several inputs)" if corpus.merged else "")
               + (f", {corpus.repaired} with unencodable or direction-changing characters removed"
                  if corpus.repaired else ""))
    for skip in corpus.skipped[:10]:
        _err(f"  skipped {skip}")
    if len(corpus.skipped) > 10:
        _err(f"  … and {len(corpus.skipped) - 10} more")
    edges = s["edges"]
    _out(f"concepts: {s['concepts']} ({s['shared_concepts']} shared by 2+ papers)")
    _out(f"edges: {edges['mentions']} mentions, {edges['related']} related, "
               f"{edges['co_occurs']} co_occurs, {edges['cites']} cites")
    _out(f"communities: {len(result.analysis['communities'])}")
    _out(f"wrote {len(result.files)} files to {out} in {time.perf_counter() - started:.1f}s")


# --- extraction: kg extract / kg eval ------------------------------------------------------


def _extract(papers, top_n: int, diversity, position_weight, title_weight, cache: Optional[str],
             precision: str = "auto"):
    from kg.extract import CachedEmbedder, extract_keyphrases, load_embedder

    embedder = load_embedder(precision=precision)
    if cache:
        embedder = CachedEmbedder(embedder, cache)
    tuned = {k: v for k, v in (("diversity", diversity), ("position_weight", position_weight),
                               ("title_weight", title_weight)) if v is not None}
    return extract_keyphrases(papers, embedder, top_n=top_n, n_jobs=2, on_progress=_ProgressBar(),
                              **tuned)


@app.command()
@reports_errors
def extract(
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", dir_okay=False,
                                      help="JSONL file: one {id, keyphrases: [{phrase, score}]} per paper.")],
    format: FormatOpt = "auto",
    top_n: Annotated[int, typer.Option("--top-n", min=1, help="Keyphrases per paper.")] = 10,
    diversity: DiversityOpt = None,
    position_weight: PositionOpt = None,
    title_weight: TitleOpt = None,
    precision: PrecisionOpt = "auto",
    cache: CacheFileOpt = None,
) -> None:
    """Extract keyphrases from INPUTS (the extraction kg build uses) and write them to --out."""
    from kg.export.files import atomic_write
    from kg.extract import keyphrases_jsonl

    from kg.ingest import load_corpus

    started = time.perf_counter()
    corpus = load_corpus([str(p) for p in inputs], format=format)
    found = _extract(corpus.papers, top_n, diversity, position_weight, title_weight,
                     str(cache) if cache else None, precision)
    atomic_write(out, keyphrases_jsonl(corpus.papers, found))
    _out(f"wrote keyphrases of {len(corpus.papers)} papers to {out} "
               f"in {time.perf_counter() - started:.1f}s")


@app.command("eval")
@reports_errors
def eval_(
    gold: Annotated[Path, typer.Argument(help="JSONL with id, title, abstract and gold keyphrases.",
                                         show_default=False)],
    diversity: DiversityOpt = None,
    position_weight: PositionOpt = None,
    title_weight: TitleOpt = None,
    precision: PrecisionOpt = "auto",
    cache: CacheFileOpt = None,
) -> None:
    """Score kg's extraction on GOLD: micro-averaged P/R/F1 at 5, 10, 15 (Porter-stemmed exact match)."""
    from kg.evaluate import DEFAULT_KS, score_keyphrases
    from kg.ingest import load_corpus

    papers = [p for p in load_corpus([str(gold)], format="jsonl").papers if p.keyphrases]
    if not papers:
        raise KgError(f"{gold}: no record has gold keyphrases (a 'keyphrases' list)")
    found = _extract(papers, max(DEFAULT_KS), diversity, position_weight, title_weight,
                     str(cache) if cache else None, precision)
    scores = score_keyphrases({pid: [k.phrase for k in kps] for pid, kps in found.items()},
                              {p.id: list(p.keyphrases) for p in papers})
    _out(f"{len(papers)} documents, {sum(len(p.keyphrases) for p in papers)} gold keyphrases")
    _out(f"{'k':>4} {'P':>7} {'R':>7} {'F1':>7}")
    for k, row in scores.items():
        _out(f"{k:>4} {row['precision']:>7.2f} {row['recall']:>7.2f} {row['f1']:>7.2f}")


# --- Neo4j: kg push / kg query -------------------------------------------------------------

UriOpt = Annotated[str, typer.Option("--uri", envvar="NEO4J_URI", help="Neo4j URI.")]
UserOpt = Annotated[str, typer.Option("--user", "-u", envvar=["NEO4J_USERNAME", "NEO4J_USER"], help="Neo4j user.")]
PasswordOpt = Annotated[Optional[str], typer.Option(
    "--password", "-p", envvar="NEO4J_PASSWORD", show_default=False,
    help="Neo4j password (better: the NEO4J_PASSWORD variable; asked for on a terminal when unset).")]
DatabaseOpt = Annotated[Optional[str], typer.Option(
    "--database", "-d", envvar="NEO4J_DATABASE", show_default=False, help="Database (default: the server's).")]
TimeoutOpt = Annotated[float, typer.Option(
    "--timeout", min=1.0, help="Seconds to keep retrying when the server is unreachable or restarting.")]


class _Neo4jConnection:
    """A driver for the CLI: the password is asked for when missing and never shown; errors
    name the URI, with the password scrubbed from every message."""

    def __init__(self, uri: str, user: str, password: str | None, timeout: float) -> None:
        import logging

        logging.getLogger("neo4j").addHandler(logging.NullHandler())
        logging.getLogger("neo4j").propagate = False  # retry notices are not for users
        if password is None:
            if not sys.stdin.isatty():
                raise KgError("no Neo4j password: set NEO4J_PASSWORD (or pass --password)")
            password = typer.prompt(f"Neo4j password for {user}", hide_input=True)
        self.uri, self.user, self._password, self.timeout = uri, user, password, timeout
        self.driver = None

    def __enter__(self):
        from kg.export.neo4j import open_driver

        self.driver = open_driver(self.uri, self.user, self._password, timeout=self.timeout)
        return self.driver

    def __exit__(self, kind, exc, tb):
        from kg.export.neo4j import redact_uri

        if self.driver is not None:
            self.driver.close()
        if isinstance(exc, KgError):
            message = str(exc).replace(self._password, "***") if self._password else str(exc)
            raise type(exc)(f"{message} [{redact_uri(self.uri)}]") from None
        return False


def _read_graph(directory: Path):
    from kg.graph import load_graph

    return load_graph(directory)


@app.command()
@reports_errors
def push(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    uri: UriOpt = "bolt://localhost:7687",
    user: UserOpt = "neo4j",
    password: PasswordOpt = None,
    database: DatabaseOpt = None,
    replace: Annotated[bool, typer.Option("--replace", help="First delete every node with a kg label.")] = False,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Rows per transaction.")] = 10000,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Transactions run at the same time.")] = 2,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Push the graph in DIRECTORY into Neo4j (idempotent: only what changed is written).

    Labels Paper, Concept, Author, Venue, Community; relationships MENTIONS, RELATED_TO, CO_OCCURS_WITH, CITES, WROTE, PUBLISHED_IN; pagerank and community as node properties. Prints what was created, updated and deleted, then checks the counts in Neo4j.
    """
    from kg.errors import Neo4jError
    from kg.export.neo4j import push_graph

    started = time.perf_counter()
    graph = _read_graph(directory)
    with _Neo4jConnection(uri, user, password, timeout) as driver:
        result = push_graph(driver, graph, database=database, batch_size=batch_size, workers=workers,
                            replace=replace)
    width = max(len(name) for name in result.expected)
    _out(f"{'':{width}}  {'created':>8}  {'updated':>8}  {'deleted':>8}  {'in Neo4j':>8}")
    for name, n in result.expected.items():
        _out(f"{name:{width}}  {result.created.get(name, 0):>8}  {result.updated.get(name, 0):>8}  "
                   f"{result.deleted.get(name, 0):>8}  {result.found.get(name, 0):>8}")
    for what in ("created", "updated", "deleted"):
        nodes, rels = result.totals(what)
        _out(f"{what}: {nodes} nodes, {rels} relationships")
    if result.mismatches:
        raise Neo4jError("Neo4j does not match the graph after the push: " + "; ".join(result.mismatches))
    nodes, rels = result.totals("found")
    _out(f"verified: Neo4j holds the graph's {nodes} nodes and {rels} relationships "
               f"({time.perf_counter() - started:.1f}s)")


@app.command()
@reports_errors
def query(
    cypher: Annotated[Optional[str], typer.Argument(help="A Cypher statement (or use --file).",
                                                    show_default=False)] = None,
    file: Annotated[Optional[Path], typer.Option("--file", help="A .cypher file, e.g. cypher/top_concepts.cypher.",
                                                 show_default=False)] = None,
    param: Annotated[Optional[list[str]], typer.Option(
        "--param", metavar="NAME=VALUE", show_default=False,
        help="Query parameter (repeatable); VALUE is JSON when it parses as JSON, else text.")] = None,
    write: Annotated[bool, typer.Option("--write", help="Allow the query to write.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print rows as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print rows as CSV.")] = False,
    uri: UriOpt = "bolt://localhost:7687",
    user: UserOpt = "neo4j",
    password: PasswordOpt = None,
    database: DatabaseOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Run a Cypher query against Neo4j, read-only unless --write; print a table, --json or --csv.

    The files in cypher/ answer common questions; each file's header lists its parameters, e.g. kg query --file cypher/similar_papers.cypher --param paper=ID
    """
    from kg.export.cypher import (check_parameters, format_rows, parse_param, query_parameters, read_query_file,
                                  run_query)

    if (cypher is None) == (file is None):
        raise KgError("give a Cypher statement or --file, not both")
    if as_json and as_csv:
        raise KgError("choose one of --json and --csv")
    given = dict(parse_param(p) for p in param or ())
    if file is not None:
        query_file = read_query_file(file)
        text = query_file.text
        check_parameters(given, sorted({*query_file.defaults, *query_file.required, *query_parameters(text)}))
        parameters = query_file.parameters(given)
    else:
        text, parameters = cypher, given
        check_parameters(given, query_parameters(text))
    with _Neo4jConnection(uri, user, password, timeout) as driver:
        keys, rows = run_query(driver, text, parameters, database=database, write=write)
    _out(format_rows(keys, rows, "json" if as_json else "csv" if as_csv else "table"), nl=False)
    _err(f"{len(rows)} rows")


SeedOpt = Annotated[Optional[int], typer.Option(
    help="Seed for communities and sampled betweenness (default: the one the graph was built with).")]
ResolutionOpt = Annotated[Optional[float], typer.Option(
    help="Community resolution (default: the one the graph was built with).")]
MethodOpt = Annotated[str, typer.Option("--method", help="Community detection: louvain or leiden.")]
LabelsOpt = Annotated[str, typer.Option("--labels", help="Community labels: ctfidf or loglik.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print rows as JSON.")]


def _analysis_options(graph, seed: Optional[int], resolution: Optional[float], method: str, labels: str) -> dict:
    from kg.analyze import saved_parameters
    from kg.analyze.communities import METHODS, SCORINGS

    if method not in METHODS:
        raise KgError(f"unknown --method {method!r}; choose from {', '.join(METHODS)}")
    if labels not in SCORINGS:
        raise KgError(f"unknown --labels {labels!r}; choose from {', '.join(SCORINGS)}")
    saved = saved_parameters(graph)
    return {"seed": saved["seed"] if seed is None else seed,
            "resolution": saved["resolution"] if resolution is None else resolution,
            "method": method, "scoring": labels}


def _print_rows(keys: list[str], rows: list[dict], as_json: bool) -> None:
    from kg.export.cypher import format_rows

    _out(format_rows(keys, rows, "json" if as_json else "table"), nl=False)


@app.command()
@reports_errors
def report(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Where to write (default: DIRECTORY).",
                                                show_default=False)] = None,
    seed: SeedOpt = None,
    resolution: ResolutionOpt = None,
    method: MethodOpt = "louvain",
    labels: LabelsOpt = "ctfidf",
    top: Annotated[int, typer.Option("--top", min=1, help="Rows per table.")] = 15,
) -> None:
    """Analyze the graph in DIRECTORY and write report.md, report.html and report.json.

    Centralities, labeled communities with modularity, the thematic map, trends and bursts; every table lists node ids.
    """
    from kg.analyze import analyze
    from kg.graph import load_graph
    from kg.report import write_report

    started = time.perf_counter()
    _check_resolution(resolution)
    target = _output_folder(out) if out is not None else directory
    graph = load_graph(directory)
    analysis = analyze(graph, top=top, **_analysis_options(graph, seed, resolution, method, labels))
    files = write_report(analysis, target)
    _out(f"communities: {len(analysis['communities'])} (modularity {analysis['modularity']:.4f}), "
               f"themes: {len(analysis['thematic_map'])}, bursts: {len(analysis['bursts'])}")
    _out(f"wrote {', '.join(files)} in {time.perf_counter() - started:.1f}s")


@app.command()
@reports_errors
def related(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    paper: Annotated[str, typer.Argument(help="A paper id, its title, or a unique part of its title.")],
    top: Annotated[int, typer.Option("--top", min=1, help="Papers to list.")] = 10,
    as_json: JsonOpt = False,
) -> None:
    """List the papers nearest to PAPER, with the concepts they share (rarest first) and citation links."""
    from kg.analyze import find_paper, related_papers
    from kg.graph import load_graph

    graph = load_graph(directory)
    paper_id = find_paper(graph, paper)
    rows = related_papers(graph, paper_id, top=top)
    if not as_json:
        names = {c: graph.nodes[c].get("name", c) for row in rows for c in row["shared"]}
        rows = [{**row, "shared": ", ".join(names[c] for c in row["shared"])} for row in rows]
    _err(f"papers related to {paper_id} ({graph.nodes[paper_id].get('title', '')}):")
    _print_rows(["id", "score", "citation", "shared", "title"], rows, as_json)


@app.command()
@reports_errors
def concepts(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    community: Annotated[Optional[int], typer.Option(
        "--community", "-c", help="List the distinctive concepts of this paper community (numbered as in the report).",
        show_default=False)] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Concepts to list.")] = 20,
    seed: SeedOpt = None,
    resolution: ResolutionOpt = None,
    method: MethodOpt = "louvain",
    labels: LabelsOpt = "ctfidf",
    as_json: JsonOpt = False,
) -> None:
    """List the most frequent concepts, or with --community N the concepts that set community N apart."""
    from kg.analyze import community_concepts, concept_rows
    from kg.graph import load_graph

    _check_resolution(resolution)
    graph = load_graph(directory)
    if community is None:
        _print_rows(["id", "name", "papers", "co_occurs", "pagerank"], concept_rows(graph, top=top), as_json)
        return
    options = _analysis_options(graph, seed, resolution, method, labels)
    row = community_concepts(graph, community, top=top, **options)
    _err(f"community {community}: {row['size']} papers, label: {row['label'] or '(no shared concept)'}")
    _print_rows(["id", "name", "score", "papers"], row["concepts"], as_json)


@app.command()
@reports_errors
def viz(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    view: Annotated[str, typer.Option("--view", help="bipartite (papers + concepts), papers, concepts (term map) "
                                                     "or communities (one node per community).")] = "bipartite",
    top: Annotated[int, typer.Option("--top", min=0,
                                     help="Keep the N most central nodes, each linked to another (0: all).")] = 2000,
    min_weight: Annotated[float, typer.Option("--min-weight", min=0.0,
                                              help="Drop lighter edges (mentions: score 0-1; related: shared-concept "
                                                   "weight; co_occurs: papers), then unlinked nodes.")] = 0.0,
    community: Annotated[Optional[int], typer.Option("--community", min=0, show_default=False,
                                                     help="Only this community (numbered as in the report).")] = None,
    focus: Annotated[Optional[str], typer.Option("--focus", show_default=False,
                                                 help="Ego network of this node: id, label or a unique part of one.")] = None,
    depth: Annotated[int, typer.Option("--depth", min=0, help="Ego network radius for --focus.")] = 1,
    size_by: Annotated[str, typer.Option("--size-by", help="Node size: pagerank, degree or betweenness.")] = "pagerank",
    seed: Annotated[Optional[int], typer.Option(help="Seed for communities and layout (default: the build's).",
                                                show_default=False)] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", show_default=False,
                                                help="HTML file to write (default: DIRECTORY/graph.html).")] = None,
) -> None:
    """Write an interactive, self-contained HTML view of the graph in DIRECTORY (opens offline)."""
    from kg.analyze import saved_parameters
    from kg.export.files import atomic_write
    from kg.export.html import render_html

    if out is not None:
        _output_file(out)
    graph = _read_graph(directory)
    built = saved_parameters(graph)
    target = out or (directory / "graph.html" if directory.is_dir() else directory.with_suffix(".html"))
    page = render_html(graph, view=view, top=top or None, min_weight=min_weight, community=community,
                       focus=focus, depth=depth, size_by=size_by, seed=built["seed"] if seed is None else seed,
                       resolution=built["resolution"], title=f"kg · {directory.resolve().name} · {view}")
    atomic_write(target, page)
    _out(f"wrote {target} ({len(page.encode()) // 1024} KiB)")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
