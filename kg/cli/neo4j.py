"""kg push and kg query: the graph into Neo4j, Cypher out of it."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.errors import KgError, Neo4jError

from kg.cli.app import app
from kg.cli.output import reports_errors, show, warn
from kg.api import load
from kg.export.cypher import check_parameters, format_rows, parse_param, query_parameters, read_query_file, run_query
from kg.export.neo4j import open_driver, push_graph, redact_uri
from kg.export.neo4j_vectors import load_embeddings
from kg.extract import load_embedder
from kg.graphfile import load_graph
from kg.search import embed_query, query_embedder


UriOpt = Annotated[str, typer.Option("--uri", envvar="NEO4J_URI", help="Neo4j URI.")]
UserOpt = Annotated[str, typer.Option("--user", "-u", envvar=["NEO4J_USERNAME", "NEO4J_USER"], help="Neo4j user.")]
PasswordOpt = Annotated[Optional[str], typer.Option(
    "--password", "-p", envvar="NEO4J_PASSWORD", show_default=False,
    help="Neo4j password (better: the NEO4J_PASSWORD variable; asked for on a terminal when unset).")]
DatabaseOpt = Annotated[Optional[str], typer.Option(
    "--database", "-d", envvar="NEO4J_DATABASE", show_default=False, help="Database (default: the server's).")]
TimeoutOpt = Annotated[float, typer.Option(
    "--timeout", min=1.0, help="Seconds to keep retrying when the server is unreachable or restarting.")]


class Neo4jConnection:
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
        self.driver = open_driver(self.uri, self.user, self._password, timeout=self.timeout)
        return self.driver

    def __exit__(self, kind, exc, tb):
        if self.driver is not None:
            self.driver.close()
        if isinstance(exc, KgError):
            message = str(exc).replace(self._password, "***") if self._password else str(exc)
            raise type(exc)(f"{message} [{redact_uri(self.uri)}]") from None
        return False



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
    embeddings: Annotated[bool, typer.Option(
        "--embeddings/--no-embeddings",
        help="Give Paper and Concept nodes the build's vectors (embedding) and a vector index each.")] = True,
) -> None:
    """Push the graph in DIRECTORY into Neo4j (idempotent: only what changed is written).

    Labels Paper, Concept, Author, Venue, Community; relationships MENTIONS, RELATED_TO, CO_OCCURS_WITH, CITES, WROTE, PUBLISHED_IN; pagerank and community as node properties; the build's vectors as Paper/Concept embedding with vector indexes kg_paper_embedding and kg_concept_embedding (cypher/semantic_search.cypher). Prints what was created, updated and deleted, then checks the counts in Neo4j.
    """
    started = time.perf_counter()
    built = load(directory)
    with Neo4jConnection(uri, user, password, timeout) as driver:
        result = push_graph(driver, built.graph, analysis=built.analysis, database=database,
                            batch_size=batch_size, workers=workers, replace=replace,
                            embeddings=load_embeddings(directory) if embeddings else None)
    width = max(len(name) for name in result.expected)
    show(f"{'':{width}}  {'created':>8}  {'updated':>8}  {'deleted':>8}  {'in Neo4j':>8}")
    for name, n in result.expected.items():
        show(f"{name:{width}}  {result.created.get(name, 0):>8}  {result.updated.get(name, 0):>8}  "
                   f"{result.deleted.get(name, 0):>8}  {result.found.get(name, 0):>8}")
    for what in ("created", "updated", "deleted"):
        nodes, rels = result.totals(what)
        show(f"{what}: {nodes} nodes, {rels} relationships")
    if result.mismatches:
        raise Neo4jError("Neo4j does not match the graph after the push: " + "; ".join(result.mismatches))
    nodes, rels = result.totals("found")
    show(f"verified: Neo4j holds the graph's {nodes} nodes and {rels} relationships "
               f"({time.perf_counter() - started:.1f}s)")
    for name, dimensions in result.vector_indexes.items():
        show(f"vector index {name}: {dimensions} dimensions, cosine")


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
    embed: Annotated[Optional[str], typer.Option(
        "--embed", metavar="TEXT", show_default=False,
        help="Embed TEXT with the build's model and pass the vector as $embedding "
             "(e.g. --file cypher/semantic_search.cypher --embed \"graph neural networks\").")] = None,
    build: Annotated[Optional[Path], typer.Option(
        "--build", show_default=False,
        help="With --embed: the build folder whose model settings to embed with (default: kg's packaged model).")] = None,
) -> None:
    """Run a Cypher query against Neo4j, read-only unless --write; print a table, --json or --csv.

    The files in cypher/ answer common questions; each file's header lists its parameters, e.g. kg query --file cypher/similar_papers.cypher --param paper=ID
    """
    if (cypher is None) == (file is None):
        raise KgError("give a Cypher statement or --file, not both")
    if as_json and as_csv:
        raise KgError("choose one of --json and --csv")
    given = dict(parse_param(p) for p in param or ())
    if build is not None and embed is None:
        raise KgError("--build only says which model --embed uses; give --embed TEXT too")
    if embed is not None:
        if "embedding" in given:
            raise KgError("give the query vector as --embed TEXT or as --param embedding=[...], not both")
        given["embedding"] = _embed(embed, build)
    if file is not None:
        query_file = read_query_file(file)
        text = query_file.text
        check_parameters(given, sorted({*query_file.defaults, *query_file.required, *query_parameters(text)}))
        parameters = query_file.parameters(given)
    else:
        text, parameters = cypher, given
        check_parameters(given, query_parameters(text))
    with Neo4jConnection(uri, user, password, timeout) as driver:
        keys, rows = run_query(driver, text, parameters, database=database, write=write)
    show(format_rows(keys, rows, "json" if as_json else "csv" if as_csv else "table"), nl=False)
    warn(f"{len(rows)} rows")


def _embed(text: str, build: Optional[Path]) -> list[float]:
    """``kg query --embed``: ``text`` as the build's model embeds it (the packaged model without ``--build``)."""
    if build is not None:
        embedder = query_embedder(load_graph(build))
    else:
        embedder = load_embedder()
    return [float(x) for x in embed_query(embedder, text)]
