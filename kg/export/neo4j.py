"""Push a kg graph into Neo4j: constraints first, then ``UNWIND $rows … MERGE`` batches.

The driver is passed in (:func:`open_driver` makes one with timeouts that never hang); rows
are plain dicts (:func:`~kg.export.neo4j_tables.graph_tables`); every statement is loaded from ``cypher/push/``.

Mapping (node ``kind`` -> label, edge ``kind`` -> relationship type):

=========  ===========  ================  ==============================
kind       label        edge kind         relationship
=========  ===========  ================  ==============================
paper      ``Paper``    mentions          ``MENTIONS {score, rank, …}``
concept    ``Concept``  related           ``RELATED_TO {weight, shared, …}``
author     ``Author``   co_occurs         ``CO_OCCURS_WITH {count, …}``
venue      ``Venue``    cites             ``CITES``
(derived)  ``Community`` wrote / published_in  ``WROTE`` / ``PUBLISHED_IN``
=========  ===========  ================  ==============================

Other kinds map the same way (``foo_bar`` -> ``FooBar`` / ``FOO_BAR``). Three more relationship
types are derived from citations and authorship (:mod:`kg.citations`), each stored once per
pair (from the smaller id) with ``{count, salton}``: ``(:Paper)-[:CO_CITED_WITH]->(:Paper)``
(corpus papers citing both), ``(:Paper)-[:COUPLED_WITH]->(:Paper)`` (references both cite) and
``(:Author)-[:CO_AUTHOR_OF]->(:Author)`` (papers written together). Each node gets every
attribute of the local graph plus its analytics, taken from the build's analysis (:mod:`kg.analyze.result`,
never recomputed here): ``pagerank`` (papers on the ``related``
projection, concepts on ``co_occurs``) and, for papers, ``community`` (and ``cocitation_cluster``,
``coupling_cluster``: the clusters of the report's citation maps, where a paper is in one); each community is a
``:Community {id, label, size, top_concepts}`` node.

The push is idempotent and incremental: a node or relationship is written only when its
properties differ, and what kg wrote in Neo4j (every node and relationship it writes carries
``kg: true``) ends up mirroring the local graph (anything of kg's the graph no longer has is
deleted; nodes and relationships added by hand are never counted, changed or deleted, and a
hand-added node holding an id kg writes stops the push with its label, id and element id), so pushing the same graph twice writes nothing and a graph
from a larger corpus adds only what is new. A relationship type that Neo4j holds none of yet
(a first push, or after ``--replace``) is written with CREATE instead of MERGE, which skips the
lookup of existing relationships. Counts are verified at the end.

Relationship rows travel grouped by source node. Batches run in ``workers`` concurrent
transactions (default 2): a transaction runs on one server thread, so two keep two cores busy.
Batches that touch the same node wait for each other's locks; a deadlock is a transient error
that the managed transaction retries. Nodes are all written before the first relationship.
On the ACM graph (626,235 relationships, ``bench/bench_neo4j.py``, 2 cores shared by client
and server) the relationship phase ran at 16,300/s with one worker and CREATE per row, and
at 33,900/s with two workers and grouped rows on a warmed-up server (18,100/s on a server
whose JVM has just started).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import networkx as nx

from kg.errors import Neo4jError
from kg.export.cypher import CYPHER_DIR, load_statement, split_statements
from kg.neo4j_errors import driver_errors
from kg.export.neo4j_tables import (LABELS, MARKER, NodeTable, RelationshipTable, graph_tables,  # noqa: F401
                                    label_of, marked, type_of)
from kg.export.neo4j_vectors import ensure_vector_indexes, with_embeddings

__all__ = [
    "NodeTable",
    "RelationshipTable",
    "PushResult",
    "graph_tables",
    "open_driver",
    "redact_uri",
    "push_graph",
    "push_tables",
    "count_graph",
    "driver_errors",
    "label_of",
    "type_of",
]

Progress = Callable[[str, int, int], None]
_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def open_driver(uri: str, user: str, password: str, *, timeout: float = 30.0):
    """A Neo4j driver whose every wait is bounded by ``timeout`` seconds (no I/O yet).

    Connecting gives up after ``min(timeout, 10)`` seconds, and a transaction that keeps
    failing on a transient error (server restarting, connection lost) is retried for at
    most ``timeout`` seconds before the error is raised.

    Raises
    ------
    Neo4jError
        When ``uri`` is not a Neo4j URI.
    """
    import neo4j  # the Neo4j driver loads only where Neo4j is used

    shown = redact_uri(uri)
    if shown != uri:
        raise Neo4jError(f"the Neo4j URI {shown} holds a user name or password: give them apart from the URI "
                         "(user and password), so they never show in messages or process lists")
    scheme = uri.partition("://")[0] if "://" in uri else ""
    if scheme not in _SCHEMES:
        raise Neo4jError(f"invalid Neo4j URI {shown!r}: use bolt://host:7687 or neo4j://host:7687 "
                         "(+s / +ssc for TLS)")
    try:
        return neo4j.GraphDatabase.driver(
            uri, auth=(user, password), connection_timeout=min(timeout, 10.0),
            connection_acquisition_timeout=timeout, max_transaction_retry_time=timeout,
            user_agent="kg")
    except (ValueError, neo4j.exceptions.ConfigurationError) as exc:
        reason = str(exc).replace(password, "***") if password else str(exc)
        raise Neo4jError(f"invalid Neo4j URI {shown!r} ({reason}); use e.g. bolt://localhost:7687 or "
                         "neo4j://host:7687") from None


_USERINFO = re.compile(r"^([^:/?#]*://)([^@/?#]*)@")


def redact_uri(uri: str) -> str:
    """``uri`` with any ``user:password@`` part shown as ``***@``.

    Examples
    --------
    >>> redact_uri("bolt://neo4j:secret@db:7687"), redact_uri("neo4j://db")
    ('bolt://***@db:7687', 'neo4j://db')
    """
    return _USERINFO.sub(lambda m: m.group(1) + "***@", uri)


@dataclass
class PushResult:
    """What a push did, by label / relationship name, and whether Neo4j now matches the graph."""

    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    expected: dict[str, int] = field(default_factory=dict)
    found: dict[str, int] = field(default_factory=dict)
    duplicates: dict[str, int] = field(default_factory=dict)
    vector_indexes: dict[str, int] = field(default_factory=dict)  # index name -> dimensions

    @property
    def mismatches(self) -> list[str]:
        """``name: N in Neo4j, M in the graph`` for every count that differs."""
        out = [f"{name}: {self.found.get(name, 0)} in Neo4j, {n} in the graph"
               for name, n in self.expected.items() if self.found.get(name, 0) != n]
        out += [f"{name}: {n} duplicates in Neo4j" for name, n in self.duplicates.items() if n]
        return out

    def totals(self, what: str) -> tuple[int, int]:
        """``(nodes, relationships)`` summed over ``created``/``updated``/``deleted``/``expected``/``found``."""
        table = getattr(self, what)
        rels = sum(n for name, n in table.items() if "(" in name)
        return sum(table.values()) - rels, rels


def _batches(rows: list, size: int) -> Iterator[list]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def _grouped_batches(rows: list[dict], size: int) -> Iterator[tuple[list[dict], int]]:
    """Relationship rows as ``{source, rows: [{target, props}]}`` groups, in batches of about
    ``size`` relationships (a source's group is never split); yields ``(groups, relationships)``.
    The server then looks each source node up once per group instead of once per row: on the ACM
    graph it spent 28.5 instead of 34.4 CPU-seconds on the relationships."""
    groups: list[dict] = []
    count = 0
    for row in rows:  # sorted by source, so each source's rows are adjacent
        if not groups or groups[-1]["source"] != row["source"]:
            if count >= size:
                yield groups, count
                groups, count = [], 0
            groups.append({"source": row["source"], "rows": []})
        groups[-1]["rows"].append({"target": row["target"], "props": row["props"]})
        count += 1
    if groups:
        yield groups, count


def _write(session, statement: str, **params) -> tuple[int, int, int]:
    """Run ``statement`` in one managed write transaction; ``(written, created, deleted)``."""

    def work(tx):
        result = tx.run(statement, params)
        record = result.single()
        counters = result.consume().counters
        written = record["written"] if record is not None and "written" in record.keys() else 0
        created = counters.nodes_created + counters.relationships_created
        return written or 0, created, counters.nodes_deleted + counters.relationships_deleted

    return session.execute_write(work)


def _write_batches(driver, database: str | None, jobs: list[tuple[str, str, list[dict], int]], workers: int,
                   result: PushResult, on_progress: Progress | None) -> None:
    """Run ``(name, statement, rows, size)`` jobs, each in its own write transaction, ``workers`` at a time.

    ``size`` is how many nodes or relationships the rows hold. Per name, ``result.created`` /
    ``updated`` add up what the transactions wrote and ``on_progress`` (called from this thread)
    reports the progress. The first failure cancels the jobs not yet started and is raised.
    """
    totals = defaultdict(int)
    for name, _, rows, size in jobs:
        totals[name] += size
        result.created.setdefault(name, 0)
        result.updated.setdefault(name, 0)
    done: dict[str, int] = defaultdict(int)

    def run(statement: str, rows: list[dict]) -> tuple[int, int, int]:
        with driver.session(database=database) as session:
            return _write(session, statement, rows=rows)

    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="kg-push") as pool:
        pending = {}
        try:
            for name, statement, rows, size in jobs:
                pending[pool.submit(run, statement, rows)] = (name, size)
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    name, n = pending.pop(future)
                    written, new, _ = future.result()
                    result.created[name] += new
                    result.updated[name] += written - new
                    done[name] += n
                    if on_progress is not None:
                        on_progress(name, done[name], totals[name])
        finally:
            for future in pending:
                future.cancel()


def _read(session, statement: str, **params) -> list[dict]:
    return session.execute_read(lambda tx: [r.data() for r in tx.run(statement, params)])


def count_graph(driver, node_tables: list[NodeTable], rel_tables: list[RelationshipTable], *,
                database: str | None = None) -> tuple[dict[str, int], dict[str, int]]:
    """Counts in Neo4j for each table's label / relationship, and the duplicates among them."""
    found, duplicates = {}, {}
    with driver_errors(), driver.session(database=database) as session:
        for table in node_tables:
            row = _read(session, load_statement("count_nodes", label=table.label))[0]
            found[table.label], duplicates[table.label] = row["total"], row["total"] - row["distinct_ids"]
        for table in rel_tables:
            row = _read(session, load_statement("count_relationships", type=table.type,
                                                source=table.source, target=table.target))[0]
            found[table.name], duplicates[table.name] = row["total"], row["total"] - row["distinct_pairs"]
    return found, duplicates


def _refuse_foreign(session, table: NodeTable, batch_size: int) -> None:
    """Stop before a push would take over a node kg did not write (one without its marker) that
    holds an id of ``table``: a node added by hand, or pushed by a kg without the marker.

    Raises
    ------
    Neo4jError
        Naming the node: its label, id and element id.
    """
    statement = load_statement("foreign_nodes", label=table.label)
    for batch in _batches([r["id"] for r in table.rows], batch_size):
        found = _read(session, statement, ids=batch)
        if found:
            row = found[0]
            raise Neo4jError(
                f"Neo4j holds a :{table.label} node with id {row['id']!r} that kg did not write (element id "
                f"{row['element']}, properties {', '.join(sorted(row['keys']))}; no {MARKER}: true marker): the push "
                f"would overwrite it: remove it or change its id; if an earlier kg pushed it, "
                "kg push --replace rewrites kg's labels once")


def _prune(session, node_tables, rel_tables, found, batch_size, result: PushResult) -> None:
    """Delete what Neo4j has beyond the graph (only for tables whose count is too high)."""
    for table in rel_tables:
        if found.get(table.name, 0) <= len(table.rows):
            continue
        names = dict(type=table.type, source=table.source, target=table.target)
        keep = {(r["source"], r["target"]) for r in table.rows}
        stale = [{"source": r["source"], "target": r["target"]}
                 for r in _read(session, load_statement("relationship_pairs", **names))
                 if (r["source"], r["target"]) not in keep]
        for batch in _batches(stale, batch_size):
            result.deleted[table.name] = result.deleted.get(table.name, 0) + \
                _write(session, load_statement("delete_relationships", **names), rows=batch)[2]
    for table in node_tables:
        if found.get(table.label, 0) <= len(table.rows):
            continue
        keep = {r["id"] for r in table.rows}
        stale = [r["id"] for r in _read(session, load_statement("node_ids", label=table.label)) if r["id"] not in keep]
        statement = load_statement("delete_nodes", label=table.label)
        for batch in _batches(stale, batch_size):
            _write(session, statement, ids=batch)
            result.deleted[table.label] = result.deleted.get(table.label, 0) + len(batch)


def push_graph(
    driver,
    graph: nx.MultiDiGraph,
    *,
    database: str | None = None,
    batch_size: int = 10000,
    workers: int = 2,
    replace: bool = False,
    analysis: Mapping | None = None,
    on_progress: Progress | None = None,
    embeddings: Mapping | None = None,
) -> PushResult:
    """Write ``graph`` into Neo4j and verify the counts.

    Parameters
    ----------
    driver : neo4j.Driver
        See :func:`open_driver`.
    graph : networkx.MultiDiGraph
        A kg graph.
    database : str, optional
        Default: the server's default database.
    batch_size : int
        Rows per ``UNWIND`` transaction.
    workers : int
        Transactions run at the same time (see the module docstring).
    replace : bool
        First delete every node with one of kg's labels (and its relationships).
    analysis : mapping, optional
        The build's analysis (see :func:`graph_tables`).
    embeddings : mapping, optional
        Label -> ``(ids, matrix)``, e.g. :func:`kg.export.neo4j_vectors.load_embeddings` of the
        build folder: each node with a vector gets an ``embedding`` property, and each label a
        cosine vector index (:mod:`kg.export.neo4j_vectors`; ``result.vector_indexes``).
    on_progress : callable, optional
        ``on_progress(name, rows_done, rows_total)`` after each batch.

    Returns
    -------
    PushResult
        ``mismatches`` is empty when Neo4j holds exactly the graph's nodes and relationships.

    Raises
    ------
    Neo4jError
        When the server is unreachable, refuses the credentials, or stops mid-push. Every
        batch is its own transaction, so rerunning the push completes it.
    """
    node_tables, rel_tables = graph_tables(graph, analysis)
    if embeddings:
        node_tables = with_embeddings(node_tables, embeddings)
    result = push_tables(driver, node_tables, rel_tables, database=database, batch_size=batch_size,
                         workers=workers, replace=replace, on_progress=on_progress)
    if embeddings:
        result.vector_indexes = ensure_vector_indexes(driver, embeddings, database=database)
    return result


def push_tables(
    driver,
    node_tables: list[NodeTable],
    rel_tables: list[RelationshipTable],
    *,
    database: str | None = None,
    batch_size: int = 10000,
    workers: int = 2,
    replace: bool = False,
    on_progress: Progress | None = None,
) -> PushResult:
    """:func:`push_graph` for tables already made by :func:`graph_tables`."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    result = PushResult()
    with driver_errors():
        driver.verify_connectivity()
    with driver_errors(), driver.session(database=database) as session:
        for statement in split_statements((CYPHER_DIR / "push" / "schema.cypher").read_text(encoding="utf-8")):
            session.execute_write(lambda tx, s=statement: tx.run(s).consume())
        if replace:
            for label in sorted({*LABELS.values(), *(t.label for t in node_tables)}):
                statement = load_statement("clear_label", label=label)
                while (deleted := _write(session, statement, limit=batch_size)[2]):
                    result.deleted[label] = result.deleted.get(label, 0) + deleted
        for t in node_tables:
            _refuse_foreign(session, t, batch_size)
        node_jobs = [(t.label, load_statement("nodes", label=t.label),
                      [{"id": r["id"], "props": marked(r["props"])} for r in batch], len(batch))
                     for t in node_tables for batch in _batches(t.rows, batch_size)]
        _write_batches(driver, database, node_jobs, workers, result, on_progress)
        known = {r["relationshipType"] for r in _read(session, load_statement("relationship_types"))}
        rel_jobs = []
        for t in rel_tables:
            names = dict(type=t.type, source=t.source, target=t.target)
            present = t.type in known and _read(session, load_statement("any_relationship", **names))[0]["present"]
            # A type Neo4j has none of yet is created outright; MERGE only when some exist.
            statement = load_statement("relationships" if present else "create_relationships", **names)
            rows = [{"source": r["source"], "target": r["target"], "props": marked(r["props"])} for r in t.rows]
            rel_jobs += [(t.name, statement, groups, n) for groups, n in _grouped_batches(rows, batch_size)]
        _write_batches(driver, database, rel_jobs, workers, result, on_progress)
        result.expected.update({t.label: len(t.rows) for t in node_tables})
        result.expected.update({t.name: len(t.rows) for t in rel_tables})
    found, _ = count_graph(driver, node_tables, rel_tables, database=database)
    if any(found[name] > n for name, n in result.expected.items()):
        with driver_errors(), driver.session(database=database) as session:
            _prune(session, node_tables, rel_tables, found, batch_size, result)
    result.found, result.duplicates = count_graph(driver, node_tables, rel_tables, database=database)
    return result
