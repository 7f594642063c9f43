"""kg.export.neo4j and kg.export.cypher without a server: rows, statements, query files, CLI errors.

The tests against a real Neo4j server are in test_neo4j_server.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.export.cypher import (
    CYPHER_DIR,
    format_rows,
    load_statement,
    parse_param,
    read_query_file,
    split_statements,
)
from kg.export.neo4j import _grouped_batches, graph_tables, label_of, type_of
from kg.errors import Neo4jError
from kg.analyze.communities import detect_communities
from kg.graph import projection
from kg.pipeline import BuildOptions, build

from conftest import EXAMPLE, HashEmbedder

ROOT = Path(__file__).resolve().parent.parent
QUERY_FILES = sorted(CYPHER_DIR.glob("*.cypher"))


@pytest.fixture(scope="module")
def example_graph(tmp_path_factory):
    out = tmp_path_factory.mktemp("example")
    return build([EXAMPLE], out, BuildOptions(html=False), embedder=HashEmbedder()).graph


def test_labels_and_types_follow_the_schema_and_generalize():
    assert [label_of(k) for k in ("paper", "concept", "author", "venue")] == ["Paper", "Concept", "Author", "Venue"]
    assert [type_of(k) for k in ("mentions", "related", "co_occurs", "cites", "wrote", "published_in")] == [
        "MENTIONS", "RELATED_TO", "CO_OCCURS_WITH", "CITES", "WROTE", "PUBLISHED_IN"]
    assert label_of("funding_body") == "FundingBody"
    assert type_of("funded-by") == "FUNDED_BY"


def test_tables_hold_every_node_and_edge_once(example_graph):
    nodes, rels = graph_tables(example_graph)
    by_label = {t.label: t for t in nodes}
    kinds = {}
    for _, data in example_graph.nodes(data=True):
        kinds[data["kind"]] = kinds.get(data["kind"], 0) + 1
    for kind, n in kinds.items():
        assert len(by_label[label_of(kind)].rows) == n
    derived = {"CO_CITED_WITH", "COUPLED_WITH", "CO_AUTHOR_OF"}  # from kg.citations, beside the edges
    assert sum(len(t.rows) for t in rels if t.type not in derived) == example_graph.number_of_edges()
    mentions = next(t for t in rels if t.type == "MENTIONS")
    assert (mentions.source, mentions.target) == ("Paper", "Concept")
    row = mentions.rows[0]
    assert set(row["props"]) >= {"score", "rank"} and "kind" not in row["props"]
    related = next(t for t in rels if t.type == "RELATED_TO")
    assert all(r["source"] < r["target"] for r in related.rows)
    assert all(isinstance(r["props"]["shared"], list) for r in related.rows)


def test_rows_are_neo4j_safe_and_carry_analytics(example_graph):
    nodes, _ = graph_tables(example_graph)
    for table in nodes:
        for row in table.rows:
            assert row["props"]["id"] == row["id"]
            for value in row["props"].values():
                assert value is not None and not isinstance(value, dict)
                if isinstance(value, list):
                    assert all(isinstance(v, (str, int, float, bool)) for v in value)
    papers = next(t for t in nodes if t.label == "Paper").rows
    assert all("pagerank" in r["props"] and "community" in r["props"] for r in papers)
    communities = detect_communities(projection(example_graph, "related"), seed=42)
    member_of = {p: i for i, members in enumerate(communities) for p in members}
    assert {r["id"]: r["props"]["community"] for r in papers} == member_of
    community_rows = next(t for t in nodes if t.label == "Community").rows
    assert [r["props"]["size"] for r in community_rows] == [len(c) for c in communities]


def test_values_neo4j_cannot_store_become_json_or_lose_nulls():
    import networkx as nx

    graph = nx.MultiDiGraph()
    graph.add_node("p1", kind="paper", year=None, extra={"b": 1}, mixed=[1, "a"], holes=["x", None], n=3)
    graph.add_node("f1", kind="funding_body", name="F")
    graph.add_edge("p1", "f1", key="funded_by", kind="funded_by", share=0.5, note=None)
    nodes, rels = graph_tables(graph)
    paper = next(t for t in nodes if t.label == "Paper").rows[0]["props"]
    assert paper["extra"] == '{"b": 1}' and paper["mixed"] == '[1, "a"]' and paper["holes"] == ["x"]
    assert "year" not in paper and paper["n"] == 3
    assert [t.label for t in nodes if t.label != "Community"] == ["FundingBody", "Paper"]
    assert [(t.type, t.source, t.target, t.rows[0]["props"]) for t in rels] == [
        ("FUNDED_BY", "Paper", "FundingBody", {"share": 0.5})]


def test_tables_are_deterministic(example_graph):
    assert graph_tables(example_graph) == graph_tables(example_graph)


def test_relationship_rows_travel_grouped_by_source_without_splitting_a_source():
    rows = [{"source": s, "target": t, "props": {"w": i}}
            for i, (s, t) in enumerate([("a", "x"), ("a", "y"), ("a", "z"), ("b", "x"), ("c", "x"), ("c", "y")])]
    batches = list(_grouped_batches(rows, 2))
    assert [n for _, n in batches] == [3, 3]  # "a" has 3 rows: its group stays whole
    assert batches[0][0] == [{"source": "a", "rows": [{"target": "x", "props": {"w": 0}},
                                                      {"target": "y", "props": {"w": 1}},
                                                      {"target": "z", "props": {"w": 2}}]}]
    assert [g["source"] for g in batches[1][0]] == ["b", "c"]
    flat = [(g["source"], r["target"], r["props"]) for groups, _ in batches for g in groups for r in g["rows"]]
    assert flat == [(r["source"], r["target"], r["props"]) for r in rows]
    assert [n for _, n in _grouped_batches(rows, 100)] == [6]
    assert list(_grouped_batches([], 10)) == []


def test_statements_fill_only_valid_names():
    text = load_statement("relationships", type="MENTIONS", source="Paper", target="Concept")
    assert "MERGE (a)-[r:`MENTIONS`]->(b)" in text and "(a:`Paper` {id: group.source})" in text
    assert "{label}" not in load_statement("nodes", label="Paper")
    with pytest.raises(ValueError):
        load_statement("nodes", label="Paper` {id: 1}) DETACH DELETE n //")


def test_schema_constrains_every_label_before_anything_else():
    statements = split_statements((CYPHER_DIR / "push" / "schema.cypher").read_text())
    constrained = {re.search(r"FOR \(n:(\w+)\) REQUIRE n\.id IS UNIQUE", s).group(1)
                   for s in statements if "CONSTRAINT" in s}
    assert constrained == {"Paper", "Concept", "Author", "Venue", "Community"}
    assert all("IF NOT EXISTS" in s for s in statements)


@pytest.mark.parametrize("path", QUERY_FILES, ids=lambda p: p.name)
def test_query_files_document_their_parameters(path):
    query = read_query_file(path)
    assert len(query.description) > 30
    used = set(re.findall(r"\$([A-Za-z_]\w*)", query.text))
    assert used == set(query.defaults) | set(query.required)


def test_query_library_covers_the_common_questions():
    assert {p.stem for p in QUERY_FILES} >= {
        "top_concepts", "similar_papers", "concept_path", "community", "concept_neighbourhood",
        "most_cited", "concepts_by_year"}


def test_required_parameters_are_enforced():
    query = read_query_file(CYPHER_DIR / "similar_papers.cypher")
    assert query.parameters({"paper": "x"}) == {"paper": "x", "limit": 10}
    with pytest.raises(Neo4jError, match="needs the parameter\\(s\\) paper"):
        query.parameters({})


def test_parse_param_reads_json_else_text():
    assert parse_param("limit=5") == ("limit", 5)
    assert parse_param("ids=[1, 2]") == ("ids", [1, 2])
    assert parse_param("paper=10.1145/3397271.3401075") == ("paper", "10.1145/3397271.3401075")
    assert parse_param("x=NaN") == ("x", "NaN")
    with pytest.raises(Neo4jError):
        parse_param("no equals sign")


def test_format_rows_table_json_csv():
    keys, rows = ["name", "shared"], [{"name": "a,b", "shared": ["x", "y"]}, {"name": None, "shared": []}]
    assert json.loads(format_rows(keys, rows, "json")) == rows
    assert format_rows(keys, rows, "csv") == 'name,shared\n"a,b","[""x"", ""y""]"\n,[]\n'
    table = format_rows(keys, rows, "table").splitlines()
    assert table[0].split() == ["name", "shared"] and table[2].startswith("a,b")


def _kg(*args, env_extra=None, timeout=120):
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=ROOT)


def test_push_to_a_server_that_is_down_fails_fast_in_one_line(tmp_path, example_graph):
    from kg.graphfile import graph_to_json
    import socket

    (tmp_path / "graph.json").write_text(graph_to_json(example_graph))
    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    secret = "s3cret-Pa55word"
    started = time.monotonic()
    result = _kg("push", str(tmp_path), "--uri", f"bolt://127.0.0.1:{port}", "--timeout", "5",
                 env_extra={"NEO4J_PASSWORD": secret})
    assert time.monotonic() - started < 60
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: Neo4j is unreachable"), result.stderr
    assert f"127.0.0.1:{port}" in lines[0] and secret not in result.stderr


def test_push_and_query_usage_errors(tmp_path):
    result = _kg("push", str(tmp_path), env_extra={"NEO4J_PASSWORD": "x"})
    assert result.returncode == 1 and "no graph.json" in result.stderr
    result = _kg("query", env_extra={"NEO4J_PASSWORD": "x"})
    assert result.returncode == 1 and "not both" in result.stderr
    result = _kg("query", "RETURN 1", env_extra={})
    assert result.returncode == 1 and "NEO4J_PASSWORD" in result.stderr
    result = _kg("query", "RETURN 1", "--uri", "http://localhost:7474", env_extra={"NEO4J_PASSWORD": "x"})
    assert result.returncode == 1 and "invalid Neo4j URI" in result.stderr


# ---- docker/: no Docker engine here, so the files are checked statically ----

DOCKER = ROOT / "docker"


def test_compose_runs_neo4j_with_volume_env_auth_and_healthcheck():
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((DOCKER / "docker-compose.yml").read_text())
    neo4j, kg = compose["services"]["neo4j"], compose["services"]["kg"]
    assert neo4j["image"].startswith("neo4j:5")
    volume, mount = neo4j["volumes"][0].split(":")
    assert mount == "/data" and volume in compose["volumes"]  # a named volume
    assert neo4j["environment"]["NEO4J_AUTH"].startswith("neo4j/${NEO4J_PASSWORD:?")
    assert "cypher-shell" in " ".join(neo4j["healthcheck"]["test"])
    assert all(port.startswith("127.0.0.1:") for port in neo4j["ports"])
    assert kg["env_file"] == ".env" and kg["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert kg["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert kg["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}
    example = dict(line.split("=", 1) for line in (DOCKER / "env.example").read_text().splitlines()
                   if line and not line.startswith("#"))
    assert set(example) == {"NEO4J_USERNAME", "NEO4J_PASSWORD"}
    assert example["NEO4J_PASSWORD"] not in (DOCKER / "docker-compose.yml").read_text()


def test_dockerfile_installs_kg_with_its_cypher():
    text = (DOCKER / "Dockerfile").read_text()
    instructions = [line.split()[0] for line in text.splitlines() if line.strip() and not line.startswith("#")
                    and not line.startswith(" ")]
    assert instructions[0] == "FROM" and set(instructions) <= {
        "FROM", "ENV", "WORKDIR", "ARG", "RUN", "COPY", "USER", "VOLUME", "ENTRYPOINT", "CMD"}
    assert "COPY cypher ./cypher" in text and 'ENTRYPOINT ["kg"]' in text and "USER kg" in text
    for path in re.findall(r"^COPY (\S+)", text, flags=re.M):
        assert (ROOT / path).exists(), path
    ignore = (DOCKER / "Dockerfile.dockerignore").read_text()
    assert "!cypher/" in ignore and "!kg/" in ignore


def test_compose_file_validates_with_docker_compose(tmp_path):
    import shutil

    if shutil.which("docker-compose") is None:
        pytest.skip("docker-compose (apt-get install docker-compose) is not installed")
    # docker-compose 1.x predates the top-level `name`; validate the rest as it is.
    (tmp_path / "docker").mkdir()
    text = "".join(line for line in (DOCKER / "docker-compose.yml").read_text().splitlines(keepends=True)
                   if not line.startswith("name:"))
    (tmp_path / "docker" / "docker-compose.yml").write_text(text)
    (tmp_path / "docker" / ".env").write_text((DOCKER / "env.example").read_text())
    result = subprocess.run(["docker-compose", "-f", str(tmp_path / "docker" / "docker-compose.yml"), "config"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "condition: service_healthy" in result.stdout


def test_a_password_inside_the_uri_is_never_echoed():
    from typer.testing import CliRunner

    from kg.cli import app

    for uri in ("bolt://neo4j:s3cret-in-uri@127.0.0.1:1", "neo4j://s3cret-in-uri@db", "http://u:s3cret-in-uri@x"):
        result = CliRunner().invoke(app, ["query", "RETURN 1", "--uri", uri], env={"NEO4J_PASSWORD": "pw-12345678"})
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: ") and len(result.output.strip().splitlines()) == 1
        assert "s3cret-in-uri" not in result.output and "***@" in result.output


@pytest.mark.parametrize("param, message", [
    ("x=99999999999999999999999999", "parameter x: 99999999999999999999999999 is beyond Neo4j's 64-bit integers"),
    ("x=[1, {\"a\": -99999999999999999999}]", "parameter x: -99999999999999999999 is beyond Neo4j's 64-bit integers"),
    ("x=" + "[" * 5000 + "]" * 5000, "parameter x: lists and maps nested more than 32 deep"),
    ("x=" + "[" * 5000, "parameter x: lists and maps nested more than 32 deep"),
])
def test_query_params_neo4j_cannot_take_are_one_line_errors(param, message):
    from typer.testing import CliRunner

    from kg.cli import app

    result = CliRunner().invoke(app, ["query", "RETURN $x", "--param", param], env={"NEO4J_PASSWORD": "pw-12345678"})
    assert result.exit_code == 1 and result.output.startswith(f"Error: {message}"), result.output[:300]
    assert len(result.output.strip().splitlines()) == 1


def test_unknown_query_params_are_named_with_the_ones_the_query_takes():
    from typer.testing import CliRunner

    from kg.cli import app

    env = {"NEO4J_PASSWORD": "pw-12345678"}
    result = CliRunner().invoke(app, ["query", "MATCH (p:Paper {id: $id}) RETURN p LIMIT $limit // $not",
                                      "--param", "idd=1", "--param", "limit=3"], env=env)
    assert result.exit_code == 1
    assert result.output == "Error: the query has no parameter idd; it takes id, limit\n"
    result = CliRunner().invoke(app, ["query", "--file", str(CYPHER_DIR / "top_concepts.cypher"),
                                      "--param", "limt=3"], env=env)
    assert result.exit_code == 1
    assert result.output == "Error: the query has no parameter limt; it takes limit\n"
    result = CliRunner().invoke(app, ["query", "RETURN '$x'", "--param", "x=1"], env=env)
    assert result.output == "Error: the query has no parameter x; it takes none\n"


def test_compose_confines_load_csv_to_the_import_folder():
    import yaml

    compose = yaml.safe_load((DOCKER / "docker-compose.yml").read_text())
    env = compose["services"]["neo4j"]["environment"]
    assert env["NEO4J_server_directories_import"] == "/var/lib/neo4j/import"
