"""The project's Cypher files: loading them, filling in labels, and running queries.

Every statement kg runs lives in ``cypher/`` at the repository root:
``cypher/push/*.cypher`` are the schema and upsert statements of :mod:`kg.export.neo4j`
(templates whose ``{label}``, ``{source}``, ``{target}`` and ``{type}`` are filled in with
back-quoted names from kg's fixed lists), and ``cypher/*.cypher`` is the curated query
library for ``kg query --file``. Values always travel as parameters.

A query file starts with ``//`` comment lines saying what it answers; lines of the form
``// param NAME = DEFAULT  description`` declare its parameters (``DEFAULT`` is JSON; a
parameter without ``= DEFAULT`` is required).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import Neo4jError
from kg.escape import csv_cell
from kg.neo4j_errors import driver_errors

__all__ = [
    "CYPHER_DIR",
    "QueryFile",
    "load_statement",
    "split_statements",
    "read_query_file",
    "query_library",
    "library_query",
    "parse_param",
    "query_parameters",
    "check_parameters",
    "run_query",
    "query_rows",
    "check_read_only",
    "READ_PROCEDURES",
    "plain_value",
    "format_rows",
    "stream_rows",
]

def _cypher_dir() -> Path:
    """``cypher/``: installed inside the package as ``kg/_cypher``, at the top of a source checkout."""
    packaged = Path(__file__).resolve().parents[1] / "_cypher"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "cypher"


CYPHER_DIR = _cypher_dir()
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_SLOT = re.compile(r"\{(label|source|target|type)\}")
_PARAM = re.compile(r"^//\s*param\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*(\S+))?\s*(.*)$")


def _quote(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"not a valid Neo4j label or relationship type: {name!r}")
    return f"`{name}`"


def load_statement(name: str, *, cypher_dir: Path | None = None, **names: str) -> str:
    """The statement in ``cypher/push/<name>.cypher`` with its ``{label}``-style slots filled in.

    Parameters
    ----------
    name : str
        File name without ``.cypher``.
    cypher_dir : Path, optional
        Default: the repository's ``cypher/``.
    **names : str
        ``label``, ``source``, ``target``, ``type``: labels or a relationship type
        (letters, digits and ``_`` only), inserted back-quoted.

    Examples
    --------
    >>> print(load_statement("count_nodes", label="Paper").splitlines()[-3])
    MATCH (n:`Paper`)
    """
    path = (cypher_dir or CYPHER_DIR) / "push" / f"{name}.cypher"
    text = path.read_text(encoding="utf-8")
    quoted = {key: _quote(value) for key, value in names.items()}

    def fill(match: re.Match[str]) -> str:
        return quoted.get(match.group(1), match.group(0))

    return _SLOT.sub(fill, text)


def split_statements(text: str) -> list[str]:
    """The ``;``-separated statements of a Cypher file, without ``//`` comment lines.

    Examples
    --------
    >>> split_statements("// two\\nRETURN 1;\\nRETURN 2;\\n")
    ['RETURN 1', 'RETURN 2']
    """
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [part.strip() for part in body.split(";") if part.strip()]


@dataclass(frozen=True)
class QueryFile:
    """A query from the library: its text, what it answers, and its parameters."""

    path: str
    text: str
    description: str
    defaults: dict[str, object] = field(default_factory=dict)
    required: tuple[str, ...] = ()

    def parameters(self, given: Mapping[str, object]) -> dict[str, object]:
        """The defaults overridden by ``given``.

        Raises
        ------
        Neo4jError
            When a required parameter is missing.
        """
        missing = [name for name in self.required if name not in given]
        if missing:
            raise Neo4jError(f"{self.path} needs the parameter(s) {', '.join(missing)}")
        return {**self.defaults, **given}


def query_library(cypher_dir: Path | None = None) -> dict[str, QueryFile]:
    """The curated queries shipped with kg (``cypher/*.cypher``, installed as ``kg/_cypher``), by name.

    Examples
    --------
    >>> "top_concepts" in query_library()
    True
    """
    folder = cypher_dir or CYPHER_DIR
    return {path.stem: read_query_file(path) for path in sorted(folder.glob("*.cypher"))}


def library_query(name: str, cypher_dir: Path | None = None) -> QueryFile:
    """The library query called ``name`` (``top_concepts``; ``top_concepts.cypher`` works too).

    Raises
    ------
    Neo4jError
        When there is no such query; the message lists the names there are.
    """
    library = query_library(cypher_dir)
    stem = name[: -len(".cypher")] if name.endswith(".cypher") else name
    if stem not in library:
        raise Neo4jError(f"no query named {name!r} in kg's query library; there are: {', '.join(library)}")
    return library[stem]


def read_query_file(path: str | Path) -> QueryFile:
    """Read a query file and its ``// param`` header lines.

    Raises
    ------
    Neo4jError
        When the file cannot be read or a default is not JSON.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise Neo4jError(f"cannot read query file {path}: {exc.strerror}") from None
    description, defaults, required = [], {}, []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        match = _PARAM.match(stripped)
        if match is None:
            description.append(stripped.lstrip("/ ").strip())
        elif match.group(2) is None:
            required.append(match.group(1))
        else:
            try:
                defaults[match.group(1)] = json.loads(match.group(2))
            except json.JSONDecodeError:
                raise Neo4jError(f"{path}: default of parameter {match.group(1)} is not JSON") from None
    statements = split_statements(text)
    if len(statements) != 1:
        raise Neo4jError(f"{path}: expected one Cypher statement, found {len(statements)}")
    return QueryFile(str(path), statements[0], " ".join(d for d in description if d),
                     defaults, tuple(required))


def parse_param(text: str) -> tuple[str, object]:
    """``k=v`` -> ``(k, v)``; ``v`` is read as JSON when it is JSON (numbers, lists, quoted
    strings), else kept as the string itself.

    Examples
    --------
    >>> parse_param("limit=5"), parse_param("paper=10.1145/1"), parse_param('id="42"')
    (('limit', 5), ('paper', '10.1145/1'), ('id', '42'))
    """
    name, sep, value = text.partition("=")
    if not sep or not _NAME.match(name.strip()):
        raise Neo4jError(f"parameter {text[:60]!r}: write it as NAME=VALUE")
    name = name.strip()
    if _depth(value) > _MAX_DEPTH:
        raise Neo4jError(f"parameter {name}: lists and maps nested more than {_MAX_DEPTH} deep; Neo4j takes "
                         "plain values, lists and maps")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    if isinstance(parsed, float) and not math.isfinite(parsed):
        parsed = value
    _check_value(name, parsed)
    return name, parsed


_MAX_DEPTH = 32
_INT64 = (-(2**63), 2**63 - 1)


def _depth(text: str) -> int:
    """How deep brackets nest in ``text`` (an upper bound for its JSON; strings not parsed)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_value(name: str, value: object) -> None:
    """Refuse a value Neo4j cannot take: an integer beyond 64 bits (anywhere in lists and maps)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool) and not _INT64[0] <= item <= _INT64[1]:
            raise Neo4jError(f"parameter {name}: {str(item)[:30]}{'…' if len(str(item)) > 30 else ''} is beyond "
                             "Neo4j's 64-bit integers; quote it to pass text, e.g. "
                             f"{name}='\"{str(item)[:12]}…\"'")
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


_PARAM_USE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|`([^`]+)`)")
_STRINGS_AND_COMMENTS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|//[^\n]*|/\*.*?\*/", re.S)


def query_parameters(query: str) -> list[str]:
    """The ``$names`` a Cypher statement uses, sorted (names inside strings and comments are not).

    Examples
    --------
    >>> query_parameters("MATCH (p:Paper {id: $id}) RETURN p LIMIT $limit // not $this")
    ['id', 'limit']
    """
    code = _STRINGS_AND_COMMENTS.sub(" ", query)
    return sorted({a or b for a, b in _PARAM_USE.findall(code)})


def check_parameters(given: Mapping[str, object], takes: Sequence[str]) -> None:
    """Refuse parameters a query does not take, naming the ones it does.

    Raises
    ------
    Neo4jError
    """
    unknown = sorted(set(given) - set(takes))
    if unknown:
        names = ", ".join(unknown)
        takes_text = f"it takes {', '.join(takes)}" if takes else "it takes none"
        raise Neo4jError(f"the query has no parameter {names}; {takes_text}")


def plain_value(value: object) -> object:
    """A query result value as JSON-safe plain data (nodes and relationships become their
    property maps, paths the list of their nodes, temporal values ISO strings)."""
    from neo4j.graph import Node, Path as GraphPath, Relationship  # the Neo4j driver loads only where Neo4j is used

    if isinstance(value, Node):
        return {**{k: plain_value(v) for k, v in value.items()}, "_labels": sorted(value.labels)}
    if isinstance(value, Relationship):
        return {**{k: plain_value(v) for k, v in value.items()}, "_type": value.type}
    if isinstance(value, GraphPath):
        return [plain_value(node) for node in value.nodes]
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    if isinstance(value, dict):
        return {k: plain_value(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "iso_format"):
        return value.iso_format()
    return str(value)


# Read-only means an allow-list: without ``write`` a statement runs only when Neo4j's own plan of it
# (EXPLAIN) is a read ("r") made of these reading operators, and every procedure it calls is one of
# READ_PROCEDURES. Anything else (TERMINATE TRANSACTIONS, SHOW ..., LOAD CSV, dbms.* procedures, writes
# inside subqueries) is refused before it runs, even where the server would allow it in a read transaction.
_READ_OPERATORS = frozenset({
    "ProduceResults", "Projection", "Filter", "Limit", "ExhaustiveLimit", "Skip", "Top", "Top1WithTies",
    "PartialTop", "Sort", "PartialSort", "Distinct", "OrderedDistinct", "EagerAggregation", "OrderedAggregation",
    "Aggregation", "CacheProperties", "CartesianProduct", "Apply", "SemiApply", "AntiSemiApply", "LetSemiApply",
    "LetAntiSemiApply", "SelectOrSemiApply", "SelectOrAntiSemiApply", "LetSelectOrSemiApply",
    "LetSelectOrAntiSemiApply", "RollUpApply", "ConditionalApply", "AntiConditionalApply", "Optional", "Anti",
    "Union", "OrderedUnion", "Unwind", "PartitionedUnwind", "Argument", "Eager", "EmptyRow", "ShortestPath",
    "AssertSameNode", "AssertSameRelationship", "ProjectEndpoints", "TriadicSelection", "TriadicBuild",
    "TriadicFilter", "NullifyMetadata", "ProcedureCall", "Trail", "Repeat", "BidirectionalRepeat",
    "NodeCountFromCountStore", "RelationshipCountFromCountStore", "ValueHashJoin", "UnionNodeByLabelsScan",
    "IntersectionNodeByLabelsScan", "SubtractionNodeByLabelsScan",
    "ShowIndexes", "ShowConstraints",  # SHOW [VECTOR] INDEXES / CONSTRAINTS: the schema, read
})
_READ_FAMILIES = re.compile(r"^(\w*(Scan|Seek|SeekByRange|Expand|HashJoin\w*)(\(.*\))?|StatefulShortestPath.*|Repeat(\(.*\))?|"
                            r"\w*Expand\(.*\)|\w*Seek\w*)$")
#: Procedures a read-only query may call: they read the graph, its schema or its indexes.
READ_PROCEDURES = frozenset({
    "db.labels", "db.relationshipTypes", "db.propertyKeys", "db.schema.visualization",
    "db.schema.nodeTypeProperties", "db.schema.relTypeProperties", "db.index.fulltext.queryNodes",
    "db.index.fulltext.queryRelationships", "db.index.vector.queryNodes", "db.index.vector.queryRelationships",
    "db.info", "dbms.components",
})
_QUERY_TYPES = {"w": "a write", "rw": "a read and write", "s": "a schema or administration change"}
_LEADING = re.compile(r"^\s*(?:(?://[^\n]*\n|/\*.*?\*/)\s*)*(EXPLAIN|PROFILE)\b", re.I | re.S)


def _operators(plan: Mapping) -> Iterator[tuple[str, str]]:
    """``(operator, details)`` of every step of a plan, as the driver returns it."""
    stack = [plan]
    while stack:
        step = stack.pop()
        name = str(step.get("operatorType", "")).split("@", 1)[0]
        yield name, str((step.get("args") or {}).get("Details", ""))
        stack.extend(step.get("children") or ())


def check_read_only(session, query: str, parameters: Mapping[str, object] | None = None) -> None:
    """Refuse ``query`` unless it only reads (the allow-list above), asking Neo4j for its plan.

    Raises
    ------
    Neo4jError
        Naming the first clause or procedure that is not a read.
    """
    match = _LEADING.match(query)
    if match and match.group(1).upper() == "EXPLAIN":
        return  # planned, never run
    body = query[match.end():] if match else query
    summary = session.run("EXPLAIN " + body, dict(parameters or {})).consume()
    plan = summary.plan or {}
    why = None if summary.query_type == "r" else f"Neo4j plans it as {_QUERY_TYPES.get(summary.query_type, summary.query_type)}"
    for name, details in () if why else _operators(plan):
        if name == "ProcedureCall":
            called = details.split("(", 1)[0].strip()
            if called not in READ_PROCEDURES:
                why = f"it calls the procedure {called or details[:60]!r}, which is not one of the reading procedures"
                break
        elif name not in _READ_OPERATORS and not _READ_FAMILIES.match(name):
            why = f"its plan has {name} ({details[:60]})" if details else f"its plan has {name}"
            break
    if why is not None:
        raise Neo4jError(f"not a read-only query: {why}; a read-only query matches, filters, aggregates and returns, "
                         "and calls only reading procedures (db.labels, db.schema.*, db.index.*.queryNodes, …): "
                         "run it with writes allowed (--write) if it is meant to change the server")


@contextlib.contextmanager
def query_rows(driver, query: str, parameters: Mapping[str, object] | None = None, *,
               database: str | None = None, write: bool = False) -> Iterator[tuple[list[str], Iterator[dict]]]:
    """Run one Cypher statement; the ``with`` block gets its columns and an iterator of its rows.

    The rows stream from the server as they are read (the driver fetches them in batches), so
    memory does not grow with the result. Without ``write`` the statement must be a read
    (:func:`check_read_only`: an allow-list of reading clauses and procedures, checked on the
    server's plan) and runs in a read transaction. The transaction commits when the block ends.

    Raises
    ------
    Neo4jError
        When the server is unreachable, refuses the credentials, rejects the query, or (without
        ``write``) the query is not a read.
    """
    import neo4j  # the Neo4j driver loads only where Neo4j is used

    mode = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
    with driver_errors(queries=True), driver.session(database=database, default_access_mode=mode) as session:
        if not write:
            check_read_only(session, query, parameters)
        with session.begin_transaction() as tx:
            result = tx.run(query, dict(parameters or {}))
            keys = list(result.keys())
            yield keys, ({k: plain_value(record[k]) for k in keys} for record in result)
            tx.commit()


def run_query(driver, query: str, parameters: Mapping[str, object] | None = None, *,
              database: str | None = None, write: bool = False) -> tuple[list[str], list[dict]]:
    """Run one Cypher statement and return its columns and all its rows (:func:`query_rows`
    streams them instead).

    Parameters
    ----------
    driver : neo4j.Driver
    query : str
    parameters : dict, optional
    database : str, optional
        Default: the server's default database.
    write : bool
        Run as a write transaction; otherwise the query must be a read (:func:`check_read_only`).

    Returns
    -------
    (list of str, list of dict)
        Column names and rows of plain values (see :func:`plain_value`).

    Raises
    ------
    Neo4jError
        When the server is unreachable, refuses the credentials or rejects the query.
    """
    with query_rows(driver, query, parameters, database=database, write=write) as (keys, rows):
        return keys, list(rows)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def format_rows(keys: list[str], rows: list[dict], fmt: str = "table", *, width: int = 60) -> str:
    """Query results as an aligned text table, ``json`` (a list of objects) or ``csv``.

    Lists and maps are JSON in table and CSV cells; table cells are cut at ``width``; CSV
    cells a spreadsheet would evaluate get a leading ``'`` (:func:`kg.escape.csv_cell`).

    Examples
    --------
    >>> print(format_rows(["name", "n"], [{"name": "graph", "n": 3}]), end="")
    name   n
    -----  -
    graph  3
    >>> print(format_rows(["x"], [{"x": '=HYPERLINK("http://x")'}], "csv"), end="")
    x
    "'=HYPERLINK(""http://x"")"
    """
    return "".join(stream_rows(keys, iter(rows), fmt, width=width))


_ALIGNED = 1000  # table rows read before the columns' widths are fixed


def stream_rows(keys: list[str], rows: Iterator[dict], fmt: str = "table", *, width: int = 60,
                chunk: int = 1 << 16) -> Iterator[str]:
    """:func:`format_rows` as pieces of text of about ``chunk`` characters, reading ``rows`` as it goes:
    memory does not grow with the rows. A table's columns are as wide as its first 1,000 rows need."""
    if fmt not in ("table", "json", "csv"):
        raise ValueError(f"unknown format {fmt!r}")
    buffer = io.StringIO()
    if fmt == "csv":
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([csv_cell(k) for k in keys])
        lines = ([csv_cell(_cell(row.get(k))) for k in keys] for row in rows)
        for line in lines:
            writer.writerow(line)
            if buffer.tell() >= chunk:
                yield buffer.getvalue()
                buffer.seek(0)
                buffer.truncate()
        yield buffer.getvalue()
        return
    if fmt == "json":
        first = True
        for row in rows:
            text = json.dumps(row, ensure_ascii=False, indent=1).replace("\n", "\n ")
            buffer.write(("[\n " if first else ",\n ") + text)
            first = False
            if buffer.tell() >= chunk:
                yield buffer.getvalue()
                buffer.seek(0)
                buffer.truncate()
        buffer.write("[]\n" if first else "\n]\n")
        yield buffer.getvalue()
        return

    def cut(row: dict) -> list[str]:
        return [c if len(c) <= width else c[: width - 1] + "…" for c in (_cell(row.get(k)) for k in keys)]

    head = [cut(row) for _, row in zip(range(_ALIGNED), rows)]
    widths = [max([len(k), *(len(line[i]) for line in head)]) for i, k in enumerate(keys)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip() + "\n"

    buffer.write(line(keys) + line(["-" * w for w in widths]))
    for cells in head:
        buffer.write(line(cells))
    del head
    for row in rows:
        buffer.write(line(cut(row)))
        if buffer.tell() >= chunk:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
