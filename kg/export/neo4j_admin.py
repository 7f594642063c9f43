"""Bulk load for Neo4j: the CSV files, command and schema of ``neo4j-admin database import full``.

``kg push`` writes through transactions; for a large graph into an empty database,
Neo4j's offline import tool is far faster. :func:`write_bulk_import` writes, into one folder:

==========================================  ===============================================
file                                        what
==========================================  ===============================================
``nodes-<Label>.header.csv`` + ``.csv``     ``:ID(<Label>)`` then the typed properties
``relationships-<TYPE>-<A>-<B>.header.csv``  ``:START_ID(<A>)``, ``:END_ID(<B>)``, ``:TYPE``,
  + ``.csv``                                  then the typed properties
``import.sh``                               the exact ``neo4j-admin database import full`` command
``after-import.cypher``                     the constraints and indexes ``kg push`` creates
                                            (``cypher/push/schema.cypher``, the vector indexes),
                                            and the empty lists the import tool cannot write
==========================================  ===============================================

The rows are :func:`kg.export.neo4j_tables.graph_tables` of the graph and the build's analysis, the
ones ``kg push`` writes, and the vectors are those of
:func:`kg.export.neo4j_vectors.with_embeddings`: after the import and ``after-import.cypher``
the database holds exactly what ``kg push`` writes (labels, types, properties and their types,
counts), and a ``kg push`` of the same build then writes nothing.

How values are written (the import tool's own rules, checked against Neo4j 5.26 in the tests):

* each label / type / pair of end labels has its own id space (``:ID(Paper)``), so ids never
  clash across labels; the ``:ID`` column is not stored and ``id`` is a typed property of its
  own (``id:string``, or ``id:long`` for communities), as ``kg push`` stores it;
* types are ``string``, ``long``, ``double``, ``boolean`` and their arrays (``title:string[]``),
  64-bit as the Bolt driver writes them; a property whose type varies across rows (an ``int`` in
  one, a ``float`` in another) splits the rows over several files, each with its own header;
* strings and arrays are always quoted, with ``"`` doubled (RFC 4180), and may hold commas,
  newlines (``--multiline-fields`` is then on for the files that have them), backslashes and any
  Unicode; an absent property is an empty cell;
* array elements are joined by the array delimiter, ``;`` unless an element holds one: then the
  first of ``|``, U+001F and private-use characters that no element holds (``--array-delimiter``
  says which), since the tool has no escape inside arrays;
* an empty list cannot be written (the tool reads ``""`` in an array column as no value): such a
  property is written as a ``kg_empty_<name>`` flag that ``after-import.cypher`` turns into ``[]``.

These CSV files are for the import tool, not for spreadsheets: values are written exactly, and
cells beginning with ``=`` are not defused as the build's ``papers.csv`` is.
"""

from __future__ import annotations

import math
import os
import re
import shlex
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from kg.export.cypher import CYPHER_DIR, load_statement, split_statements
from kg.atomic import atomic_file, atomic_write, umask
from kg.export.neo4j_tables import graph_tables, marked
from kg.export.neo4j_vectors import VECTOR_INDEXES

__all__ = ["BulkImport", "write_bulk_import", "import_arguments", "after_import_statements",
           "IMPORT_SCRIPT", "AFTER_IMPORT"]

IMPORT_SCRIPT = "import.sh"
AFTER_IMPORT = "after-import.cypher"
EMPTY_FLAG = "kg_empty_"  # kg_empty_<property>: true where the property is an empty list
_DELIMITERS = (";", "|", "\x1f")
_BATCH = 10000  # rows per transaction of the empty-list fix-ups
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class _File:
    """One header + data file pair: ``--nodes=<label>=header,data`` or ``--relationships=header,data``."""

    label: str | None
    header: str
    data: str
    rows: int
    multiline: bool


@dataclass
class BulkImport:
    """What :func:`write_bulk_import` wrote.

    ``counts`` has a count per label and per relationship name (``MENTIONS(Paper->Concept)``), as
    :class:`kg.export.neo4j.PushResult` names them; ``command`` is the ``neo4j-admin`` argument
    list (file names relative to ``folder``); ``files`` every file written, in order.
    """

    folder: str
    database: str
    array_delimiter: str
    counts: dict[str, int] = field(default_factory=dict)
    command: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    after_import: list[str] = field(default_factory=list)

    def totals(self) -> tuple[int, int]:
        """``(nodes, relationships)``."""
        rels = sum(n for name, n in self.counts.items() if "(" in name)
        return sum(self.counts.values()) - rels, rels

    def shell_command(self) -> str:
        """The command as one shell line, run from ``folder``."""
        return " ".join(shlex.quote(arg) for arg in self.command)


# ---- values -------------------------------------------------------------------------------

def _kind(value: object) -> str:
    """The import tool's type of a property value (``kg push`` stores ints and floats as 64-bit)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple, np.ndarray)):
        if len(value) == 0:
            return "[]"
        return _kind(value[0]) + "[]"
    raise TypeError(f"cannot write a {type(value).__name__} property for neo4j-admin: {value!r:.60}")


def _number(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    return str(value)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _cell(value: object, delimiter: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, (list, tuple)):
        return _quoted(delimiter.join(v if isinstance(v, str) else _number(v) for v in value))
    return _number(value)


def _array_delimiter(tables: Iterable) -> str:
    """``;`` unless an array element holds one; then the first candidate that no element holds."""
    elements = [element for table in tables for row in table.rows for value in row["props"].values()
                if isinstance(value, (list, tuple)) and value and isinstance(value[0], str) for element in value]
    for candidate in _DELIMITERS:
        if not any(candidate in element for element in elements):
            return candidate
    used = set().union(*map(set, elements))
    return next(chr(code) for code in range(0xE000, 0x110000) if chr(code) not in used)


def _delimiter_option(delimiter: str) -> str:
    return delimiter if delimiter.isprintable() and delimiter.isascii() else f"U+{ord(delimiter):04X}"


# ---- tables -> files ----------------------------------------------------------------------

class _Vectors:
    """The embedding of each node of one label, looked up by id (as in ``with_embeddings``)."""

    def __init__(self, vectors) -> None:
        ids, self.matrix = vectors
        self.row_of = {str(node): i for i, node in enumerate(ids)}

    def get(self, node: object) -> list[float] | None:
        i = self.row_of.get(str(node))
        return None if i is None else np.asarray(self.matrix[i], dtype=np.float32).tolist()


def _props(row: dict, vectors: _Vectors | None) -> dict:
    vector = vectors.get(row["id"]) if vectors is not None else None
    return marked(row["props"]) if vector is None else {**marked(row["props"]), "embedding": vector}


def _layouts(rows: list[dict], props_of) -> list[tuple[list[tuple[str, str]], list[str], list[dict]]]:
    """Rows split into groups that share one header: ``(columns, empty-list flags, rows)`` each.

    A property whose type differs between rows (``long`` here, ``double`` there) splits the rows by
    that type; an empty list takes the type of the property's other lists and is written as a flag.
    """
    kinds: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        for key, value in props_of(row).items():
            kinds[key].add(_kind(value))
    for key, found in kinds.items():
        if "[]" in found and len(found) > 1:
            found.discard("[]")
        if not _NAME.match(key):
            raise ValueError(f"property name {key!r} is not a plain Neo4j name")
    mixed = sorted(key for key, found in kinds.items() if len(found) > 1)
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        props = props_of(row)
        signature = tuple(_kind(props[key]) if key in props else None for key in mixed)
        groups.setdefault(signature, []).append(row)
    out = []
    for signature, members in groups.items():
        chosen = dict(zip(mixed, signature))
        present: dict[str, str] = {}
        flags: set[str] = set()
        for row in members:
            for key, value in props_of(row).items():
                kind = chosen.get(key) or next(iter(kinds[key]))
                if kind == "[]" or _kind(value) == "[]":
                    flags.add(key)
                if kind != "[]" and _kind(value) != "[]":
                    present[key] = kind
        columns = sorted(present.items(), key=lambda kv: (kv[0] != "id", kv[0]))
        out.append((columns, sorted(flags), members))
    return out


def _write_rows(path: str, lines: Iterator[str]) -> tuple[int, bool]:
    """Write ``lines`` to ``path`` (atomically); ``(rows, whether a value holds a line break)``."""
    rows, multiline = 0, False
    with atomic_file(path) as handle:
        for line in lines:
            if not multiline and ("\n" in line or "\r" in line):
                multiline = True
            handle.write(line)
            handle.write("\n")
            rows += 1
    return rows, multiline


def _line(cells: list[str]) -> str:
    return ",".join(cells)


def _data_lines(members, columns, flags, props_of, delimiter, head) -> Iterator[str]:
    for row in members:
        props = props_of(row)
        cells = head(row)
        for key, _ in columns:
            value = props.get(key)
            cells.append("" if isinstance(value, (list, tuple)) and len(value) == 0 else _cell(value, delimiter))
        for key in flags:
            value = props.get(key)
            cells.append("true" if isinstance(value, (list, tuple)) and len(value) == 0 else "")
        yield _line(cells)


def _header(first: list[str], columns, flags) -> str:
    return _line(first + [f"{key}:{kind}" for key, kind in columns] + [f"{EMPTY_FLAG}{key}:boolean" for key in flags])


def _write_table(folder: str, stem: str, first: list[str], rows, props_of, head, delimiter,
                 label: str | None) -> tuple[list[_File], list[tuple[str, str]]]:
    """The files of one node label or relationship type; ``(files, empty-list flags)``."""
    files, flagged = [], []
    layouts = _layouts(rows, props_of)
    for n, (columns, flags, members) in enumerate(layouts, start=1):
        name = stem if len(layouts) == 1 else f"{stem}-{n}"
        header, data = f"{name}.header.csv", f"{name}.csv"
        atomic_write(os.path.join(folder, header), _header(first, columns, flags) + "\n")
        count, multiline = _write_rows(os.path.join(folder, data),
                                       _data_lines(members, columns, flags, props_of, delimiter, head))
        files.append(_File(label, header, data, count, multiline))
        flagged += [(key, key) for key in flags]
    return files, sorted(set(flagged))


# ---- command and after-import -------------------------------------------------------------

def import_arguments(files: list[_File], *, delimiter: str, database: str) -> list[str]:
    """The ``neo4j-admin database import full`` argument list for ``files`` (names relative to their folder).

    Every setting the files rely on is spelled out, whatever the tool's defaults.
    """
    args = ["neo4j-admin", "database", "import", "full"]
    for f in files:
        option = f"--nodes={f.label}=" if f.label is not None else "--relationships="
        args.append(f"{option}{f.header},{f.data}")
    args += ["--delimiter=,", f"--array-delimiter={_delimiter_option(delimiter)}", '--quote="',
             "--id-type=string", "--legacy-style-quoting=false", "--ignore-empty-strings=false",
             "--trim-strings=false", "--normalize-types=true", "--skip-bad-relationships=false",
             "--skip-duplicate-nodes=false", "--bad-tolerance=0"]
    multiline = [f.data for f in files if f.multiline]
    if multiline:
        args += ["--multiline-fields-format=v2", f"--multiline-fields={','.join(multiline)}"]
    args.append(database)
    return args


def after_import_statements(*, node_flags: Mapping[str, list[str]] | None = None,
                            rel_flags: Mapping[tuple[str, str, str], list[str]] | None = None,
                            vector_indexes: Mapping[str, int] | None = None, wait: float = 300.0) -> list[str]:
    """The Cypher to run once the imported database is started, in order.

    The empty lists (flags to ``[]``, in batches), then the constraints and indexes of
    ``cypher/push/schema.cypher``, then a vector index per label in ``vector_indexes``
    (label -> dimensions, as :func:`kg.export.neo4j_vectors.ensure_vector_indexes` makes
    them), then a wait until every index is online. Names are kg's own (checked), never corpus text.
    """
    out = []
    for label, keys in sorted((node_flags or {}).items()):
        for key in keys:
            out.append(f"MATCH (n:{_q(label)}) WHERE n.{_q(EMPTY_FLAG + key)}\n"
                       f"CALL (n) {{ SET n.{_q(key)} = [] REMOVE n.{_q(EMPTY_FLAG + key)} }} "
                       f"IN TRANSACTIONS OF {_BATCH} ROWS")
    for (rel_type, source, target), keys in sorted((rel_flags or {}).items()):
        for key in keys:
            out.append(f"MATCH (:{_q(source)})-[r:{_q(rel_type)}]->(:{_q(target)}) WHERE r.{_q(EMPTY_FLAG + key)}\n"
                       f"CALL (r) {{ SET r.{_q(key)} = [] REMOVE r.{_q(EMPTY_FLAG + key)} }} "
                       f"IN TRANSACTIONS OF {_BATCH} ROWS")
    out += split_statements((CYPHER_DIR / "push" / "schema.cypher").read_text(encoding="utf-8"))
    for label, dimensions in sorted((vector_indexes or {}).items()):
        if label not in VECTOR_INDEXES:
            continue
        statement = split_statements(load_statement("vector_index", label=label))[0]
        out.append(statement.replace("$name", _q(VECTOR_INDEXES[label]))
                   .replace("$dimensions", str(int(dimensions))))
    out.append(f"CALL db.awaitIndexes({int(wait)})")
    return out


def _q(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"not a plain Neo4j name: {name!r}")
    return f"`{name}`"


def _script(command: list[str]) -> str:
    options = "".join(f"  {shlex.quote(arg)} \\\n" for arg in command[1:-1])
    return ("#!/bin/sh\n"
            "# Bulk import of a kg build into an empty Neo4j database (written by kg export neo4j-admin).\n"
            "# Stop the server first; set NEO4J_ADMIN to the tool when it is not neo4j-admin on the PATH\n"
            "# (NEO4J_HOME / NEO4J_CONF as for any neo4j-admin command). Options given to this script,\n"
            "# e.g. --overwrite-destination=true, are passed on. Then start the server and run\n"
            f"#   cypher-shell -f {AFTER_IMPORT}\n"
            "set -e\n"
            'cd "$(dirname "$0")"\n'
            'exec "${NEO4J_ADMIN:-neo4j-admin}" \\\n'
            f'{options}  "$@" {shlex.quote(command[-1])}\n')


def _after_import_text(statements: list[str]) -> str:
    head = ("// Run once the imported database is started, e.g. cypher-shell -u neo4j -f after-import.cypher\n"
            "// (written by kg export neo4j-admin): the empty lists the import tool cannot write, the\n"
            "// constraints and indexes kg push creates (cypher/push/schema.cypher), the vector indexes.\n")
    return head + "".join(f"{s};\n" for s in statements)


# ---- the whole export ---------------------------------------------------------------------

def write_bulk_import(graph: nx.MultiDiGraph, folder: str | os.PathLike[str], *,
                      analysis: Mapping | None = None, embeddings: Mapping | None = None,
                      database: str = "neo4j") -> BulkImport:
    """Write the files of a ``neo4j-admin database import full`` of ``graph`` into ``folder``.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    folder : path
        Created if missing; files of an earlier export are replaced.
    analysis : mapping, optional
        The build's analysis (see :func:`kg.export.neo4j_tables.graph_tables`).
    embeddings : mapping, optional
        Label -> ``(ids, matrix)``, e.g. :func:`kg.export.neo4j_vectors.load_embeddings` of the
        build folder: the nodes' ``embedding`` and a vector index per label, as ``kg push`` writes.
    database : str
        The database the command imports into.

    Returns
    -------
    BulkImport
    """
    if not re.match(r"^[A-Za-z][A-Za-z0-9.\-]*$", database):
        raise ValueError(f"not a Neo4j database name: {database!r}")
    folder = os.fspath(folder)
    os.makedirs(folder, exist_ok=True)
    node_tables, rel_tables = graph_tables(graph, analysis)
    delimiter = _array_delimiter([*node_tables, *rel_tables])
    result = BulkImport(folder, database, delimiter)
    files: list[_File] = []
    node_flags: dict[str, list[str]] = {}
    rel_flags: dict[tuple[str, str, str], list[str]] = {}
    for table in node_tables:
        vectors = _Vectors(embeddings[table.label]) if embeddings and table.label in embeddings else None
        written, flags = _write_table(
            folder, f"nodes-{table.label}", [f":ID({table.label})"], table.rows,
            lambda row, v=vectors: _props(row, v), lambda row: [_quoted(str(row["id"]))], delimiter, table.label)
        files += written
        if flags:
            node_flags[table.label] = [key for key, _ in flags]
        result.counts[table.label] = len(table.rows)
    for table in rel_tables:
        head = [f":START_ID({table.source})", f":END_ID({table.target})", ":TYPE"]
        kind = _quoted(table.type)
        written, flags = _write_table(
            folder, f"relationships-{table.type}-{table.source}-{table.target}", head, table.rows,
            lambda row: marked(row["props"]), lambda row: [_quoted(str(row["source"])), _quoted(str(row["target"])), kind],
            delimiter, None)
        files += written
        if flags:
            rel_flags[(table.type, table.source, table.target)] = [key for key, _ in flags]
        result.counts[table.name] = len(table.rows)
    result.command = import_arguments(files, delimiter=delimiter, database=database)
    dimensions = {label: int(matrix.shape[1]) for label, (ids, matrix) in (embeddings or {}).items() if len(ids)}
    result.after_import = after_import_statements(node_flags=node_flags, rel_flags=rel_flags,
                                                  vector_indexes=dimensions)
    script = os.path.join(folder, IMPORT_SCRIPT)
    atomic_write(script, _script(result.command))
    os.chmod(script, 0o755 & ~umask())
    atomic_write(os.path.join(folder, AFTER_IMPORT), _after_import_text(result.after_import))
    result.files = [name for f in files for name in (f.header, f.data)] + [IMPORT_SCRIPT, AFTER_IMPORT]
    return result

