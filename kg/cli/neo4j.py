"""kg push and kg query: the graph into Neo4j, Cypher out of it."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.errors import KgError, Neo4jError

from kg.cli.root import app
from kg.cli.coauthors import warn_coauthor_cap
from kg.cli.output import reports_errors, show, warn
from kg.api import load
from kg.export.cypher import (check_parameters, library_query, parse_param, query_library, query_parameters,
                              query_rows, read_query_file, stream_rows)
from kg.export.neo4j import open_driver, push_graph, redact_uri
from kg.export.neo4j_vectors import load_embeddings
from kg.export.push_record import record_push
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


# A bare word (letters, digits, _): a library query's name; a Cypher statement always has a space or bracket.
_LIBRARY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.cypher)?$")


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
    if database is not None and database.strip().lower() == "system":
        raise KgError("--database system holds Neo4j's users and databases and cannot hold a graph; push into a "
                      "graph database (e.g. neo4j, the default, or one made with CREATE DATABASE)")
    built = load(directory)
    warn_coauthor_cap(built.graph)
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
    if directory.is_dir():
        record_push(directory, uri=uri, database=database)
    for name, dimensions in result.vector_indexes.items():
        show(f"vector index {name}: {dimensions} dimensions, cosine")


@app.command()
@reports_errors
def query(
    cypher: Annotated[Optional[str], typer.Argument(
        metavar="QUERY", help="The name of a query in kg's library (kg query --list), or a Cypher statement.",
        show_default=False)] = None,
    file: Annotated[Optional[Path], typer.Option("--file", help="A .cypher file of your own.",
                                                 show_default=False)] = None,
    list_queries: Annotated[bool, typer.Option("--list", help="List the library's queries and their parameters.")
                            ] = False,
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
    """Run a query against Neo4j, read-only unless --write; print a table, --json or --csv.

    \b
    kg ships a library of queries for common questions, found by name from anywhere:
      kg query --list
      kg query top_concepts --param limit=10
      kg query similar_papers --param paper=ID

    A Cypher statement or --file FILE runs your own.
    """
    if list_queries:
        for name, found in query_library().items():
            params = [*found.required, *(f"{k}={json.dumps(v)}" for k, v in found.defaults.items())]
            show(f"{name}: {found.description}" + (f"  [params: {', '.join(params)}]" if params else ""))
        return
    if (cypher is None) == (file is None):
        raise KgError("give a query name (kg query --list) or a Cypher statement, or --file, not both")
    if cypher is not None and _LIBRARY_NAME.match(cypher):
        file, cypher = Path(library_query(cypher).path), None
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
    if database is not None and database.strip().lower() == "system":
        raise KgError("--database system holds Neo4j's users and databases, not a graph; query a graph database "
                      "(e.g. neo4j, the default)")
    count = 0

    def counted(rows):
        nonlocal count
        for row in rows:
            count += 1
            yield row

    with Neo4jConnection(uri, user, password, timeout) as driver:
        with query_rows(driver, text, parameters, database=database, write=write) as (keys, rows):
            for piece in stream_rows(keys, counted(rows), "json" if as_json else "csv" if as_csv else "table"):
                show(piece, nl=False)  # rows are printed as they arrive, never all held
    warn(f"{count} rows")


def _embed(text: str, build: Optional[Path]) -> list[float]:
    """``kg query --embed``: ``text`` as the build's model embeds it (the packaged model without ``--build``)."""
    if build is not None:
        embedder = query_embedder(load_graph(build))
    else:
        embedder = load_embedder()
    return [float(x) for x in embed_query(embedder, text)]
