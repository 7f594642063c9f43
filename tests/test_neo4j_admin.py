"""kg export neo4j-admin: CSV files for Neo4j's offline import, checked with the real tool.

The unit tests read the files back with Python's csv module; the server test runs the written
``import.sh`` with Neo4j 5.26's own ``neo4j-admin database import full`` (tools/neo4j/neo4j-admin,
from Maven Central like the test server) into a fresh home folder, starts the test server on it,
runs ``after-import.cypher``, and compares the database with what ``kg push`` writes of the same
build: every node, relationship and property with its type, and every ``cypher/`` query file.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import secrets
import subprocess
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.export.cypher import CYPHER_DIR, run_query, split_statements
from kg.export.neo4j_tables import graph_tables
from kg.export.neo4j_admin import AFTER_IMPORT, IMPORT_SCRIPT, write_bulk_import
from kg.graphfile import graph_from_json
from kg.pipeline import BuildOptions, build

from conftest import EXAMPLE, HashEmbedder

ROOT = Path(__file__).resolve().parent.parent
ADMIN = ROOT / "tools" / "neo4j" / "neo4j-admin"
HOSTILE = [
    {"id": 'hostile-"1";a,b', "year": 2021, "venue": '=HYPERLINK("x"),\nProceedings; of "Q"',
     "title": 'Quotes "inside", commas; semicolons\nsecond line\r\nand \\" a backslash-quote',
     "authors": ["O'Brien; Jr.", "Smith | Jones", "  Spaced  "],
     "abstract": 'Graph neural networks "learn"; node embeddings,\nby message passing\r\n on citation graphs. \\'},
    {"id": "hostile-2", "year": 2022, "venue": "KDD", "title": "Message passing, again;",
     "authors": ["O'Brien; Jr."], "abstract": "Citation graphs and graph neural networks; message passing."},
]


def _build(folder: Path, extra: list[dict]) -> Path:
    corpus = folder / "papers.jsonl"
    corpus.write_text(EXAMPLE.read_text() + "".join(json.dumps(r) + "\n" for r in extra))
    out = folder / "build"
    build([corpus], out, BuildOptions(html=False), embedder=HashEmbedder())
    return out


LINES = 'two lines\nthen "CRLF"\r\nand a lone CR\r, ; | end\\'


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory) -> Path:
    """The example corpus and the hostile papers; ingest folds whitespace, so line breaks reach
    a graph only from elsewhere (an edited graph.json, kg.build with objects): one abstract gets them."""
    out = _build(tmp_path_factory.mktemp("hostile"), HOSTILE)
    data = json.loads((out / "graph.json").read_text())
    paper = next(n for n in data["nodes"] if n["id"] == "hostile-2")
    paper["abstract"] = LINES
    (out / "graph.json").write_text(json.dumps(data))
    return out


def _read(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, strict=True))


def test_files_read_back_to_the_push_rows(hostile_build, tmp_path):
    from kg.api import load
    from kg.export.neo4j_vectors import load_embeddings

    built = load(hostile_build)
    result = write_bulk_import(built.graph, tmp_path, analysis=built.analysis,
                               embeddings=load_embeddings(hostile_build))
    nodes, rels = graph_tables(built.graph, built.analysis)
    assert result.counts == {**{t.label: len(t.rows) for t in nodes}, **{t.name: len(t.rows) for t in rels}}
    # authors hold ";" and "|": the array delimiter is the next candidate, and the command says so
    assert result.array_delimiter == "\x1f" and "--array-delimiter=U+001F" in result.command
    assert any(a.startswith("--multiline-fields=") for a in result.command)
    paper = next(t for t in nodes if t.label == "Paper")
    by_id = {r["id"]: r["props"] for r in paper.rows}
    header = _read(tmp_path / "nodes-Paper.header.csv")[0]
    assert header[:2] == [":ID(Paper)", "id:string"] and "authors:string[]" in header and "year:long" in header
    rows = _read(tmp_path / "nodes-Paper.csv")
    assert len(rows) == len(paper.rows) and all(len(r) == len(header) for r in rows)
    for row in rows:
        props = by_id[row[0]]
        for column, cell in zip(header[1:], row[1:]):
            name, kind = column.split(":")
            if name.startswith("kg_empty_"):
                assert (cell == "true") == (props.get(name[len("kg_empty_"):]) == [])
            elif name == "embedding" or cell == "":
                continue
            elif kind == "string[]":
                assert cell.split("\x1f") == props[name]
            elif kind == "string":
                assert cell == props[name]  # quotes, commas, semicolons, CR, LF, backslashes intact
            elif kind in ("long", "double"):
                assert json.loads(cell) == props[name] and type(json.loads(cell)) is type(props[name])
    assert by_id["hostile-2"]["abstract"] == LINES
    assert '"Quotes ""inside"", commas; semicolons' in (tmp_path / "nodes-Paper.csv").read_text()
    script = (tmp_path / IMPORT_SCRIPT).read_text()
    assert os.access(tmp_path / IMPORT_SCRIPT, os.X_OK) and script.rstrip().endswith('"$@" neo4j')
    statements = split_statements((tmp_path / AFTER_IMPORT).read_text())
    assert statements == result.after_import
    assert statements[-1].startswith("CALL db.awaitIndexes")
    assert any("kg_paper_embedding" in s and "`vector.dimensions`: 256" in s for s in statements)


def test_a_property_of_two_types_splits_the_rows_and_empty_lists_become_flags(tmp_path):
    graph = nx.MultiDiGraph()
    graph.add_node("a", kind="paper", score=1, tags=["x;y"], note="")
    graph.add_node("b", kind="paper", score=1.5, tags=[])
    graph.add_node("c", kind="paper", score=2, tags=["z"])
    graph.add_edge("a", "b", key="cites", kind="cites", weight=1)
    analysis = {"communities": [{"id": 0, "papers": ["a", "b", "c"], "label": "x", "concepts": []}]}
    result = write_bulk_import(graph, tmp_path, analysis=analysis)
    assert result.array_delimiter == "|"
    headers = sorted(p.name for p in tmp_path.glob("nodes-Paper*.header.csv"))
    assert headers == ["nodes-Paper-1.header.csv", "nodes-Paper-2.header.csv"]
    by_header = {tuple(_read(tmp_path / h)[0]): _read(tmp_path / h.replace(".header", "")) for h in headers}
    assert by_header == {
        (":ID(Paper)", "id:string", "community:long", "kg:boolean", "note:string", "score:long", "tags:string[]"):
            [["a", "a", "0", "true", "", "1", "x;y"], ["c", "c", "0", "true", "", "2", "z"]],
        (":ID(Paper)", "id:string", "community:long", "kg:boolean", "score:double", "kg_empty_tags:boolean"):
            [["b", "b", "0", "true", "1.5", "true"]],
    }  # kg:boolean is kg's marker (kg push touches only what carries it)
    text = (tmp_path / "nodes-Paper-1.csv").read_text()
    assert '"a","a",0,true,"",1,"x;y"' in text and '"c","c",0,true,,2,"z"' in text  # "" is an empty string
    assert any("SET n.`tags` = []" in s for s in result.after_import)


def test_cli_writes_the_files_and_prints_the_command(hostile_build, tmp_path):
    result = CliRunner().invoke(app, ["export", "neo4j-admin", str(hostile_build), "--out", str(tmp_path / "bulk")])
    assert result.exit_code == 0, result.output
    assert "neo4j-admin database import full --nodes=Author=" in result.stdout
    assert (tmp_path / "bulk" / IMPORT_SCRIPT).exists() and (tmp_path / "bulk" / AFTER_IMPORT).exists()
    missing = CliRunner().invoke(app, ["export", "neo4j-admin", str(tmp_path / "nothing")])
    assert missing.exit_code == 1 and missing.stderr.startswith("Error: ")


# ---- the real import tool and server -----------------------------------------------------

def _tools():
    spec = importlib.util.spec_from_file_location("kg_neo4j_tools", ROOT / "tools" / "neo4j" / "server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tools():
    module = _tools()
    try:
        module.ensure_built()
    except module.ToolsMissing as exc:
        pytest.skip(f"neo4j-admin tests: {exc}")
    return module


def _dump(driver) -> tuple[list[str], list[str], list[str]]:
    """Every node and relationship with its properties, as JSON text (so 1 and 1.0 differ), sorted;
    and the names and settings of the indexes and constraints."""
    _, nodes = run_query(driver, "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props")
    _, rels = run_query(driver, "MATCH (a)-[r]->(b) RETURN type(r) AS type, labels(a) AS a, a.id AS source, "
                                "labels(b) AS b, b.id AS target, properties(r) AS props")
    _, schema = run_query(driver, "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options "
                                  "WHERE name STARTS WITH 'kg_' RETURN name, type, labelsOrTypes, properties, "
                                  "options.indexConfig AS config")

    def text(rows):
        return sorted(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows)

    return text(nodes), text(rels), text(schema)


def _answers(driver, graph) -> dict[str, list]:
    from _example_graphs import query_parameters

    out = {}
    params = query_parameters(graph)
    for path in sorted(CYPHER_DIR.glob("*.cypher")):
        from kg.export.cypher import read_query_file

        query = read_query_file(path)
        given = params.get(path.stem, {})
        if path.stem.startswith("semantic_"):
            label = "Paper" if path.stem == "semantic_search" else "Concept"
            _, rows = run_query(driver, f"MATCH (n:{label}) RETURN n.embedding AS e ORDER BY n.id LIMIT 1")
            given = {"embedding": rows[0]["e"], "limit": 5}
        rows = run_query(driver, query.text, query.parameters(given))[1]
        if path.stem == "concept_path":  # one of the shortest paths: which one follows the store's order
            rows = {"hops": rows[0]["hops"], "ends": (rows[0]["concept"], rows[-1]["concept"])}
        elif path.stem.startswith("semantic_"):  # equal scores may come in either order, or miss the cut
            last = rows[-1]["score"]
            rows = {"scores": [r["score"] for r in rows],
                    "above": sorted(json.dumps(r, sort_keys=True) for r in rows if r["score"] > last + 1e-6)}
        out[path.stem] = rows
    return out


@pytest.mark.slow
def test_imported_database_is_what_kg_push_writes(tools, hostile_build, tmp_path):
    export = CliRunner().invoke(app, ["export", "neo4j-admin", str(hostile_build), "--out", str(tmp_path / "bulk")])
    assert export.exit_code == 0, export.output
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "NEO4J_ADMIN": str(ADMIN), "NEO4J_HOME": str(home), "JAVA_OPTS": "-Xmx512m"}
    imported = subprocess.run([str(tmp_path / "bulk" / IMPORT_SCRIPT), "--max-off-heap-memory=256m",
                               "--threads=2"], env=env, capture_output=True, text=True, timeout=600)
    assert imported.returncode == 0, imported.stdout[-3000:] + imported.stderr[-3000:]
    assert "IMPORT DONE" in imported.stdout
    graph = graph_from_json((hostile_build / "graph.json").read_text())

    server = tools.LocalNeo4j(home, "kg-" + secrets.token_hex(8), heap="768m", page_cache_mb=128)
    server.start()
    try:
        with tools_driver(server) as driver:
            for statement in split_statements((tmp_path / "bulk" / AFTER_IMPORT).read_text()):
                with driver.session() as session:
                    session.run(statement).consume()
            bulk, bulk_answers = _dump(driver), _answers(driver, graph)
        env = {"NEO4J_URI": server.uri, "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": server.password}
        again = CliRunner().invoke(app, ["push", str(hostile_build)], env=env)
        assert again.exit_code == 0, again.output
        # kg push compares every property: onto the imported database it writes nothing
        assert "created: 0 nodes, 0 relationships" in again.stdout
        assert "updated: 0 nodes, 0 relationships" in again.stdout
        assert "deleted: 0 nodes, 0 relationships" in again.stdout
        pushed = CliRunner().invoke(app, ["push", str(hostile_build), "--replace"], env=env)
        assert pushed.exit_code == 0, pushed.output
        with tools_driver(server) as driver:
            push, push_answers = _dump(driver), _answers(driver, graph)
    finally:
        server.stop()
    assert bulk[0] == push[0]  # nodes: labels, properties and their types
    assert bulk[1] == push[1]  # relationships
    assert bulk[2] == push[2]  # constraints' indexes, indexes, vector indexes
    assert sum(json.dumps(LINES) in n for n in bulk[0]) == 1  # the hostile text went through
    assert bulk_answers == push_answers and all(bulk_answers.values())
    nodes, rels = graph_tables(graph)
    assert len(bulk[0]) == sum(len(t.rows) for t in nodes) and len(bulk[1]) == sum(len(t.rows) for t in rels)


def tools_driver(server):
    from kg.export.neo4j import open_driver

    return open_driver(server.uri, "neo4j", server.password, timeout=60)
