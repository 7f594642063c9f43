"""kg push / kg query against a real Neo4j 5 server.

The session fixture builds the launcher in tools/neo4j (``mvn -q package``, cached in .tools/)
and starts Neo4j 5.26 Community on a free 127.0.0.1 port with its data in pytest's tmp folder.
Without Java and Maven the tests are skipped; set NEO4J_URI and NEO4J_PASSWORD (and optionally
NEO4J_USERNAME, NEO4J_DATABASE) to run them against any Neo4j 5 server whose kg labels may be
wiped (the stop-mid-push test needs the local server and is skipped then).
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg.analyze.centrality import central_concepts, central_papers
from kg.analyze.communities import detect_communities, label_communities
from kg.cli import app
from kg.export.cypher import CYPHER_DIR, run_query
from kg.export.neo4j import count_graph, graph_tables, open_driver, push_graph
from _example_graphs import query_parameters
from kg.graph import concepts_of, node_label, papers_of, projection
from kg.graphfile import graph_from_json
from kg.pipeline import BuildOptions, build

from conftest import EXAMPLE, HashEmbedder

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def _tools():
    spec = importlib.util.spec_from_file_location("kg_neo4j_tools", ROOT / "tools" / "neo4j" / "server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Target:
    uri: str
    user: str
    password: str
    database: str | None
    local: object | None  # the LocalNeo4j when the tests started the server themselves

    def env(self) -> dict[str, str]:
        env = {"NEO4J_URI": self.uri, "NEO4J_USERNAME": self.user, "NEO4J_PASSWORD": self.password}
        if self.database:
            env["NEO4J_DATABASE"] = self.database
        return env

    def driver(self, timeout: float = 30.0):
        return open_driver(self.uri, self.user, self.password, timeout=timeout)


@pytest.fixture(scope="session")
def neo4j(tmp_path_factory):
    if os.environ.get("NEO4J_URI"):
        if not os.environ.get("NEO4J_PASSWORD"):
            pytest.skip("NEO4J_URI is set but NEO4J_PASSWORD is not")
        user = os.environ.get("NEO4J_USERNAME") or os.environ.get("NEO4J_USER") or "neo4j"
        yield Target(os.environ["NEO4J_URI"], user, os.environ["NEO4J_PASSWORD"],
                     os.environ.get("NEO4J_DATABASE"), None)
        return
    tools = _tools()
    try:
        tools.ensure_built()
    except tools.ToolsMissing as exc:
        pytest.skip(f"Neo4j server tests: {exc}. Then run: .venv/bin/pytest tests/test_neo4j_server.py")
    server = tools.LocalNeo4j(tmp_path_factory.mktemp("neo4j-home"), "kg-" + secrets.token_hex(8))
    server.start()
    try:
        yield Target(server.uri, "neo4j", server.password, None, server)
    finally:
        server.stop()


def _cli(target: Target, *args: str):
    result = CliRunner().invoke(app, list(args), env=target.env())
    assert target.password not in result.output + result.stderr
    return result


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The example corpus built into a folder; returns (folder, graph as read back from graph.json)."""
    out = tmp_path_factory.mktemp("example-build")
    # Vectors of a phrase hash one to three words into 256 dimensions: most pairs are orthogonal,
    # and Neo4j's HNSW index cannot find its way among them (every score 0.5). A direction all
    # vectors share connects them, and the words' letter trigrams grade how near two phrases are,
    # as real embeddings do (with words alone, a node all others are equally far from can go unfound).
    build([EXAMPLE], out, BuildOptions(html=False), embedder=HashEmbedder(common=0.5, grams=3))
    return out, graph_from_json((out / "graph.json").read_text())


def _neo4j_counts(target: Target, graph):
    nodes, rels = graph_tables(graph)
    with target.driver() as driver:
        return count_graph(driver, nodes, rels, database=target.database)


def _local_counts(graph):
    nodes, rels = graph_tables(graph)
    return {**{t.label: len(t.rows) for t in nodes}, **{t.name: len(t.rows) for t in rels}}


def test_push_twice_gives_identical_counts_and_writes_nothing_the_second_time(neo4j, example):
    folder, graph = example
    (folder / "neo4j-push.json").unlink(missing_ok=True)
    first = _cli(neo4j, "push", str(folder), "--replace")
    assert first.exit_code == 0, first.output + first.stderr
    assert "verified: Neo4j holds the graph's" in first.stdout
    record = json.loads((folder / "neo4j-push.json").read_text())  # kg report says the copy is stale
    assert record["uri"] == neo4j.uri and record["pushed_at"]
    found, duplicates = _neo4j_counts(neo4j, graph)
    assert found == _local_counts(graph) and not any(duplicates.values())
    second = _cli(neo4j, "push", str(folder))
    assert second.exit_code == 0, second.output + second.stderr
    assert "created: 0 nodes, 0 relationships" in second.output
    assert "updated: 0 nodes, 0 relationships" in second.output
    assert _neo4j_counts(neo4j, graph) == (found, duplicates)


def test_many_concurrent_small_batches_give_the_same_graph(neo4j, example):
    _, graph = example
    with neo4j.driver() as driver:
        first = push_graph(driver, graph, database=neo4j.database, replace=True, batch_size=7, workers=4)
        assert not first.mismatches and first.found == _local_counts(graph)
        again = push_graph(driver, graph, database=neo4j.database, batch_size=1000, workers=1)
    assert not again.mismatches and again.totals("created") == (0, 0) and again.totals("updated") == (0, 0)


def test_bigger_corpus_adds_only_what_is_new(neo4j, example, tmp_path):
    _, full = example
    lines = EXAMPLE.read_text().splitlines(keepends=True)
    (tmp_path / "part.jsonl").write_text("".join(lines[:20]))
    part = build([tmp_path / "part.jsonl"], tmp_path / "part", BuildOptions(html=False), embedder=HashEmbedder()).graph
    part = graph_from_json((tmp_path / "part" / "graph.json").read_text())
    with neo4j.driver() as driver:
        first = push_graph(driver, part, database=neo4j.database, replace=True, batch_size=100)
        assert not first.mismatches
        second = push_graph(driver, full, database=neo4j.database, batch_size=100)
    assert not second.mismatches
    before, after = graph_tables(part), graph_tables(full)

    def keys(tables):
        out = {}
        for t in tables[0]:
            out[t.label] = {r["id"] for r in t.rows}
        for t in tables[1]:
            out[t.name] = {(r["source"], r["target"]) for r in t.rows}
        return out

    old, new = keys(before), keys(after)
    assert second.created["Paper"] == len(new["Paper"] - old["Paper"]) == len(lines) - 20
    for name in new:
        assert second.created.get(name, 0) == len(new[name] - old.get(name, set())), name
        assert second.deleted.get(name, 0) <= len(old.get(name, set()) - new[name]), name
    assert second.found == _local_counts(full)


def test_wrong_password_is_one_line_without_the_password(neo4j, example):
    folder, _ = example
    wrong = "not-the-" + secrets.token_hex(6)
    result = CliRunner().invoke(app, ["push", str(folder)], env={**neo4j.env(), "NEO4J_PASSWORD": wrong})
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0 and "refused the user name or password" in result.stderr
    assert wrong not in result.output + result.stderr


# ---- the query library, checked against the same questions answered on the NetworkX graph ----

def _mentions(graph):
    by_paper = defaultdict(set)
    for u, v, key in graph.edges(keys=True):
        if key == "mentions":
            by_paper[u].add(v)
    return by_paper


def _name(graph, node):
    return graph.nodes[node]["name"]


def _acronym(graph, node):
    return graph.nodes[node].get("acronym")


def expect_top_concepts(graph, params):
    df = Counter(c for cs in _mentions(graph).values() for c in cs)
    pagerank = dict(central_concepts(graph))
    ranked = sorted(concepts_of(graph), key=lambda c: (-df[c], c))[: params["limit"]]
    return [{"concept": c, "name": _name(graph, c), "acronym": _acronym(graph, c), "papers": df[c],
             "pagerank": pytest.approx(pagerank[c], abs=1e-9)} for c in ranked]


def expect_similar_papers(graph, params):
    mentions = _mentions(graph)
    mine = mentions[params["paper"]]
    rows = []
    for q in papers_of(graph):
        shared = sorted(mine & mentions[q])
        if q != params["paper"] and shared:
            rows.append({"paper": q, "title": graph.nodes[q]["title"], "n_shared": len(shared),
                         "shared": [_name(graph, c) for c in shared]})
    return sorted(rows, key=lambda r: (-r["n_shared"], r["paper"]))[: params["limit"]]


def expect_concept_path(graph, params):
    co = projection(graph, "co_occurs")

    def find(key):  # by id, else by name, case-insensitive
        return next(c for c in co if c == key or _name(graph, c).lower() == key.lower())

    path = nx.shortest_path(co, find(params["source"]), find(params["target"]))
    return {"hops": len(path) - 1, "ends": (path[0], path[-1]), "graph": co}


def expect_community(graph, params):
    parameters = json.loads(graph.graph["parameters"])
    communities = detect_communities(projection(graph, "related"), seed=parameters["seed"],
                                     resolution=parameters["resolution"])
    labels = label_communities(graph, communities)
    k = params["community"]
    pagerank = dict(central_papers(graph))
    members = sorted(communities[k], key=lambda p: (-pagerank[p], p))[: params["limit"]]
    label = ", ".join(node_label(graph.nodes[c]) for c in labels[k][:3])
    return [{"community": k, "label": label, "size": len(communities[k]), "paper": p,
             "title": graph.nodes[p]["title"], "pagerank": pytest.approx(pagerank[p], abs=1e-9)} for p in members]


def expect_concept_neighbourhood(graph, params):
    co = projection(graph, "co_occurs")
    rows = [{"concept": o, "name": _name(graph, o), "acronym": _acronym(graph, o),
             "papers": co.edges[params["concept"], o]["count"]}
            for o in co.neighbors(params["concept"])]
    return sorted(rows, key=lambda r: (-r["papers"], r["concept"]))[: params["limit"]]


def expect_most_cited(graph, params):
    cites = projection(graph, "cites")
    rows = [{"paper": p, "title": graph.nodes[p]["title"], "year": graph.nodes[p].get("year"),
             "citations": cites.in_degree(p)} for p in cites if cites.in_degree(p) > 0]
    return sorted(rows, key=lambda r: (-r["citations"], r["paper"]))[: params["limit"]]


def expect_concepts_by_year(graph, params):
    counts = defaultdict(Counter)
    for paper, concepts in _mentions(graph).items():
        year = graph.nodes[paper].get("year")
        if year is not None:
            counts[year].update(concepts)
    rows = []
    for year in sorted(counts):
        top = sorted(counts[year].items(), key=lambda kv: (-kv[1], kv[0]))[: params["per_year"]]
        rows += [{"year": year, "rank": i + 1, "concept": c, "name": _name(graph, c), "acronym": _acronym(graph, c),
                  "papers": n}
                 for i, (c, n) in enumerate(top)]
    return rows


EXPECTED = {
    "top_concepts": expect_top_concepts,
    "similar_papers": expect_similar_papers,
    "concept_path": expect_concept_path,
    "community": expect_community,
    "concept_neighbourhood": expect_concept_neighbourhood,
    "most_cited": expect_most_cited,
    "concepts_by_year": expect_concepts_by_year,
}


@pytest.fixture(scope="module")
def pushed(neo4j, example):
    folder, graph = example
    result = _cli(neo4j, "push", str(folder), "--replace")
    assert result.exit_code == 0, result.output + result.stderr
    return graph


SEMANTIC = {"semantic_search": ("Paper", "paper"), "semantic_concepts": ("Concept", "concept")}  # checked by numpy


def test_every_query_file_has_a_networkx_check():
    assert {p.stem for p in CYPHER_DIR.glob("*.cypher")} == set(EXPECTED) | set(SEMANTIC)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_query_file_matches_networkx(neo4j, pushed, name):
    graph = pushed
    params = query_parameters(graph)[name]
    args = ["query", name, "--json"]  # found by name in the library shipped with kg
    for key, value in params.items():
        args += ["--param", f"{key}={json.dumps(value) if not isinstance(value, str) else value}"]
    result = _cli(neo4j, *args)
    assert result.exit_code == 0, result.output + result.stderr
    rows = json.loads(result.stdout)
    expected = EXPECTED[name](graph, params)
    if name == "concept_path":
        assert len(rows) == expected["hops"] + 1 and rows[0]["hops"] == expected["hops"]
        path = [r["concept"] for r in rows]
        assert (path[0], path[-1]) == expected["ends"]
        assert all(expected["graph"].has_edge(a, b) for a, b in zip(path, path[1:]))
    else:
        assert rows and rows == expected


def test_queries_are_read_only_unless_write(neo4j, pushed):
    refused = _cli(neo4j, "query", "CREATE (n:KgScratch {id: 1}) RETURN n.id AS id")
    assert refused.exit_code == 1 and "not a read-only query" in refused.stderr and refused.stderr.count("\n") == 1
    written = _cli(neo4j, "query", "--write", "CREATE (n:KgScratch {id: 1}) RETURN n.id AS id", "--csv")
    assert written.exit_code == 0 and written.stdout == "id\n1\n"
    _cli(neo4j, "query", "--write", "MATCH (n:KgScratch) DELETE n")
    table = _cli(neo4j, "query", "MATCH (p:Paper) RETURN count(p) AS papers")
    assert table.stdout.splitlines() == ["papers", "------", str(len(papers_of(pushed)))]


# ---- faults: the server stops in the middle of a push ----

def _count_relationships(target: Target) -> int:
    with target.driver(timeout=5) as driver:
        return run_query(driver, "MATCH ()-[r:MENTIONS|CO_OCCURS_WITH]->() RETURN count(r) AS n",
                         database=target.database)[1][0]["n"]


def test_server_stopping_mid_push_then_rerun_completes(neo4j, example):
    if neo4j.local is None:
        pytest.skip("needs the local test server (NEO4J_URI points elsewhere)")
    folder, graph = example
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}, **neo4j.env()}
    total = sum(1 for _, _, k in graph.edges(keys=True) if k in ("mentions", "co_occurs"))
    push = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "push", str(folder), "--replace", "--batch-size", "1", "--timeout", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 300
        while (written := _count_relationships(neo4j)) == 0 or written == total:
            assert push.poll() is None, "the push ended before the server could be stopped"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        neo4j.local.kill()
        out, err = push.communicate(timeout=120)
    finally:
        push.kill()
    assert 0 < written < total
    assert push.returncode == 1
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith("Error: Neo4j is unreachable or stopped answering") and neo4j.uri in err
    assert neo4j.password not in out + err

    down = _cli(neo4j, "push", str(folder), "--timeout", "3")
    assert down.exit_code == 1 and down.stderr.startswith("Error: Neo4j is unreachable")

    neo4j.local.start()
    again = _cli(neo4j, "push", str(folder))
    assert again.exit_code == 0, again.output + again.stderr
    assert "verified" in again.output
    found, duplicates = _neo4j_counts(neo4j, graph)
    assert found == _local_counts(graph) and not any(duplicates.values())


def test_load_csv_cannot_read_the_servers_files(neo4j):
    if neo4j.local is None:
        pytest.skip("the import folder of a server the tests did not start is its own business")
    for url in ("file:///etc/passwd", "file:///../../../../etc/passwd", "file:///proc/self/environ"):
        result = _cli(neo4j, "query", f"LOAD CSV FROM '{url}' AS line RETURN line LIMIT 3")
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: ") and "root:" not in result.output
        assert "NEO4J_PASSWORD" not in result.output and neo4j.password not in result.output


def test_report_page_and_neo4j_agree_after_a_new_resolution(neo4j, tmp_path):
    """kg report --resolution rewrites analysis.json, the report and the page; kg push then
    carries the same communities: numbers, members and labels agree community by community."""
    import re

    folder = tmp_path / "build"
    build([EXAMPLE], folder, BuildOptions(), embedder=HashEmbedder())
    before = json.loads((folder / "analysis.json").read_text())
    pushed = _cli(neo4j, "push", str(folder), "--replace")  # recorded in the folder
    assert pushed.exit_code == 0, pushed.output + pushed.stderr
    result = _cli(neo4j, "report", str(folder), "--resolution", "0.2")
    assert result.exit_code == 0, result.output + result.stderr
    assert "kg push" in result.stderr  # says that the Neo4j copy is stale until pushed again
    analysis = json.loads((folder / "analysis.json").read_text())
    assert analysis["parameters"]["resolution"] == 0.2
    rows = analysis["communities"]
    assert [r["papers"] for r in rows] != [r["papers"] for r in before["communities"]]
    report = json.loads((folder / "report.json").read_text())
    assert [(r["id"], r["label"], r["papers"]) for r in report["communities"]] == \
        [(r["id"], r["label"], r["papers"]) for r in rows]
    markdown = (folder / "report.md").read_text()
    (body,) = re.findall(r'<script[^>]*id="kg-data"[^>]*>(.*?)</script>', (folder / "graph.html").read_text(), re.S)
    page = json.loads(body)
    legend = {e["community"]: e["label"] for e in page["legend"]}
    page_members = defaultdict(set)
    for node in page["nodes"]:
        if node["kind"] == "paper":
            page_members[node["community"]].add(node["id"])
    pushed = _cli(neo4j, "push", str(folder), "--replace")
    assert pushed.exit_code == 0, pushed.output + pushed.stderr
    with neo4j.driver() as driver:
        _, found = run_query(driver, "MATCH (c:Community) OPTIONAL MATCH (p:Paper {community: c.id}) "
                                     "RETURN c.id AS id, c.label AS label, c.size AS size, collect(p.id) AS papers "
                                     "ORDER BY id", database=neo4j.database)
    assert [r["id"] for r in found] == [r["id"] for r in rows]
    for row, db in zip(rows, found):
        assert db["label"] == row["label"] and db["size"] == row["size"]
        assert sorted(db["papers"]) == sorted(row["papers"]), row["id"]
        assert page_members.get(row["id"], set()) == set(row["papers"]), row["id"]  # the page draws all 32
        assert legend.get(row["id"], row["label"]) == row["label"]
        if row["size"] > 1:
            assert f"| {row['id']} | {row['size']} | {row['label']} |" in markdown


# ---- embeddings and vector indexes: kg push, cypher/semantic_*.cypher, kg query --embed ----

def _vectors(folder):
    from kg.export.neo4j_vectors import load_embeddings

    return load_embeddings(folder)


@pytest.mark.parametrize("name", sorted(SEMANTIC))
def test_semantic_query_files_rank_by_the_stored_vectors(neo4j, pushed, example, name):
    import numpy as np

    folder, graph = example
    # other tests of this module push other builds: put the example's back first
    again = _cli(neo4j, "push", str(folder), "--replace")
    assert again.exit_code == 0, again.output + again.stderr
    label, column = SEMANTIC[name]
    ids, matrix = _vectors(folder)[label]
    query = matrix[len(ids) // 2] + 0.5 * matrix[len(ids) // 3]  # near two nodes, not equal to any
    query = (query / np.linalg.norm(query)).tolist()
    result = _cli(neo4j, "query", "--file", str(CYPHER_DIR / f"{name}.cypher"), "--json",
                  "--param", f"embedding={json.dumps(query)}", "--param", "limit=5")
    assert result.exit_code == 0, result.output + result.stderr
    rows = json.loads(result.stdout)
    cosine = matrix @ np.asarray(query, dtype=np.float32)
    exact = {node: (1 + float(cosine[i])) / 2 for i, node in enumerate(ids)}
    # the vector index is approximate (HNSW): every row it returns carries its node's own score by the
    # stored vectors, best first, and the best it finds is the best there is
    assert len(rows) == 5
    assert all(r["score"] == pytest.approx(exact[r[column]], abs=1e-3) for r in rows)
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    assert rows[0]["score"] == pytest.approx(max(exact.values()), abs=1e-3)
    if name == "semantic_search":
        first = rows[0]
        assert first["community"] == graph.nodes[first["paper"]].get("community", first["community"])
        assert len(first["concepts"]) == min(3, sum(1 for _, _, k in graph.out_edges(first["paper"], keys=True)
                                                     if k == "mentions"))


def test_push_stores_every_vector_once_and_a_second_push_writes_nothing(neo4j, example):
    import numpy as np

    folder, graph = example
    vectors = _vectors(folder)
    with neo4j.driver() as driver:
        first = push_graph(driver, graph, database=neo4j.database, replace=True, embeddings=vectors)
        again = push_graph(driver, graph, database=neo4j.database, embeddings=vectors)
        _, rows = run_query(driver, "MATCH (n:Paper|Concept) RETURN n.id AS id, n.embedding AS embedding",
                            database=neo4j.database)
        _, indexes = run_query(driver, "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options "
                                       "RETURN name, labelsOrTypes, properties, options", database=neo4j.database)
    assert not first.mismatches and first.vector_indexes == {"kg_concept_embedding": 256, "kg_paper_embedding": 256}
    assert again.totals("created") == (0, 0) and again.totals("updated") == (0, 0)
    stored = {r["id"]: r["embedding"] for r in rows}
    for label, (ids, matrix) in vectors.items():
        for node, row in zip(ids, matrix):
            assert np.array_equal(np.asarray(stored[node], dtype=np.float32), row)
    by_name = {r["name"]: r for r in indexes}
    for name, label in (("kg_paper_embedding", "Paper"), ("kg_concept_embedding", "Concept")):
        config = by_name[name]["options"]["indexConfig"]
        assert by_name[name]["labelsOrTypes"] == [label] and by_name[name]["properties"] == ["embedding"]
        assert config["vector.dimensions"] == 256 and config["vector.similarity_function"].lower() == "cosine"


def test_query_embed_finds_what_kg_search_finds_with_the_real_model(neo4j, tmp_path, real_embedder, seeds):
    from kg.search import search_build

    out = tmp_path / "seeds"
    build(seeds, out, BuildOptions(html=False), embedder=real_embedder)
    pushed = _cli(neo4j, "push", str(out), "--replace")
    assert pushed.exit_code == 0, pushed.output + pushed.stderr
    assert "vector index kg_paper_embedding: 384 dimensions, cosine" in pushed.stdout  # the 256 index remade
    text = "defending distributed training against malicious workers"
    result = _cli(neo4j, "query", "--file", str(CYPHER_DIR / "semantic_search.cypher"), "--embed", text,
                  "--build", str(out), "--param", "limit=3", "--json")
    assert result.exit_code == 0, result.output + result.stderr
    rows = json.loads(result.stdout)
    local = search_build(out, text, embedder=real_embedder, top=3)["papers"]
    assert [r["paper"] for r in rows] == [r["id"] for r in local]
    assert [r["score"] for r in rows] == pytest.approx([(1 + r["score"]) / 2 for r in local], abs=2e-3)
    assert [r["community"] for r in rows] == [r["community"] for r in local]
    lonely = _cli(neo4j, "query", "--file", str(CYPHER_DIR / "semantic_search.cypher"), "--build", str(out))
    assert lonely.exit_code == 1 and "--embed" in lonely.stderr
    twice = _cli(neo4j, "query", "--file", str(CYPHER_DIR / "semantic_search.cypher"), "--embed", text,
                 "--param", "embedding=[1, 0]")
    assert twice.exit_code == 1 and "not both" in twice.stderr


def test_push_after_an_update_writes_only_what_changed(neo4j, tmp_path):
    """kg build --update, then kg push: created, updated and deleted are exactly the rows that are new,
    changed or gone (PageRank, recomputed over the union, changes on most nodes); with the communities
    numbered as before, fewer papers change their community property than with numbers by size."""
    from kg.api import load
    from kg.pipeline import update

    lines = EXAMPLE.read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:20]))
    (tmp_path / "b.jsonl").write_text("".join(lines[20:]))
    out, cache = tmp_path / "out", str(tmp_path / "out" / ".kg-cache" / "embeddings.sqlite")
    build([tmp_path / "a.jsonl"], out, BuildOptions(html=False), embedder=HashEmbedder(common=0.5), cache=cache)
    before = load(out)
    push = _cli(neo4j, "push", str(out), "--replace")
    assert push.exit_code == 0, push.output + push.stderr
    update([tmp_path / "b.jsonl"], out, {"html": False}, embedder=HashEmbedder(common=0.5), cache=cache)
    after = load(out)
    with neo4j.driver() as driver:
        second = push_graph(driver, after.graph, analysis=after.analysis, database=neo4j.database)
    assert not second.mismatches

    def rows(graph, analysis):
        nodes, rels = graph_tables(graph, analysis)
        out = {t.label: {r["id"]: r["props"] for r in t.rows} for t in nodes}
        out.update({t.name: {(r["source"], r["target"]): r["props"] for r in t.rows} for t in rels})
        return out

    old, new = rows(before.graph, before.analysis), rows(after.graph, after.analysis)
    for name, table in new.items():
        was = old.get(name, {})
        assert second.created.get(name, 0) == len(table.keys() - was.keys()), name
        assert second.updated.get(name, 0) == sum(table[k] != was[k] for k in table.keys() & was.keys()), name
        assert second.deleted.get(name, 0) == len(was.keys() - table.keys()), name
    # numbers by size, as a fresh build gives them, would move more papers' community property
    by_size = sorted(after.analysis["communities"], key=lambda r: (-len(r["papers"]), min(r["papers"])))
    fresh = {**after.analysis, "communities": [{**r, "id": i} for i, r in enumerate(by_size)]}
    moved = {name: sum(new_rows[p].get("community") != old["Paper"][p].get("community")
                       for p in old["Paper"]) for name, new_rows in
             (("stable", new["Paper"]), ("by size", rows(after.graph, fresh)["Paper"]))}
    assert moved["stable"] <= moved["by size"]


# ---- names a user types: a concept by its plain name, its acronym or an alias, in any case ----

RECOMMENDER = ROOT / "tests" / "fixtures" / "recommender.jsonl"  # defines "collaborative filtering (CF)", "… (MF)"


def test_concepts_are_found_by_name_acronym_and_alias_in_any_case(neo4j, tmp_path):
    out = tmp_path / "recommender"
    build([RECOMMENDER], out, BuildOptions(html=False), embedder=HashEmbedder(common=0.5))
    graph = graph_from_json((out / "graph.json").read_text())
    cf, mf = "c:collaborative filtering", "c:matrix factorization"
    assert (graph.nodes[cf]["name"], graph.nodes[cf]["acronym"]) == ("collaborative filtering", "CF")
    assert (graph.nodes[mf]["name"], graph.nodes[mf]["acronym"]) == ("matrix factorization", "MF")
    pushed = _cli(neo4j, "push", str(out), "--replace")
    assert pushed.exit_code == 0, pushed.output + pushed.stderr
    with neo4j.driver() as driver:
        _, stored = run_query(driver, "MATCH (c:Concept) WHERE c.id IN $ids RETURN c.id AS id, c.name AS name, "
                                      "c.acronym AS acronym, c.label AS label, c.aliases AS aliases ORDER BY id",
                              database=neo4j.database, parameters={"ids": [cf, mf]})
    assert [(r["name"], r["acronym"], r["label"]) for r in stored] == [
        ("collaborative filtering", "CF", "collaborative filtering (CF)"),
        ("matrix factorization", "MF", "matrix factorization (MF)")]
    assert "CF" in stored[0]["aliases"]  # the acronym stays an alias

    def query(name, **params):
        args = ["query", "--file", str(CYPHER_DIR / f"{name}.cypher"), "--json"]
        for key, value in params.items():
            args += ["--param", f"{key}={value}"]
        result = _cli(neo4j, *args)
        assert result.exit_code == 0, result.output + result.stderr
        return json.loads(result.stdout)

    co = projection(graph, "co_occurs")
    neighbours = sorted(co.neighbors(cf))
    assert mf in neighbours
    for typed in ("collaborative filtering", "CF", "Collaborative Filtering", "cf", cf,
                  "collaborative filtering (CF)", "Collaborative filtering"):
        rows = query("concept_neighbourhood", concept=typed)
        assert sorted(r["concept"] for r in rows) == neighbours, typed
    assert next(r for r in rows if r["concept"] == mf)["acronym"] == "MF"
    assert query("concept_neighbourhood", concept="no such concept") == []
    for source, target in (("collaborative filtering", "matrix factorization"), ("CF", "mf"),
                           ("Collaborative Filtering", "MATRIX FACTORIZATION")):
        path = query("concept_path", source=source, target=target)
        assert path and (path[0]["concept"], path[-1]["concept"]) == (cf, mf), (source, target)
        assert [r["name"] for r in (path[0], path[-1])] == ["collaborative filtering", "matrix factorization"]
        assert path[0]["hops"] == nx.shortest_path_length(co, cf, mf)


# ---- round two of hostile use: what kg did not write, read-only as an allow-list, unbounded rows ----


def _run(target: Target, statement: str, **params):
    with target.driver() as driver, driver.session(database=target.database) as session:
        return [r.data() for r in session.run(statement, params)]


def test_push_touches_only_what_kg_wrote_and_names_a_foreign_node_in_the_way(neo4j, example):
    folder, graph = example
    assert _cli(neo4j, "push", str(folder), "--replace").exit_code == 0
    try:
        # a user's own nodes with kg's labels: an Author kg never wrote, a Paper without an id
        _run(neo4j, "CREATE (:Author {id: 'a:added by hand', name: 'Hand'}), (:Paper {title: 'mine, no id'})")
        again = _cli(neo4j, "push", str(folder))
        assert again.exit_code == 0, again.output + again.stderr
        assert "verified" in again.stdout and "duplicates" not in again.output
        assert _run(neo4j, "MATCH (a:Author {id: 'a:added by hand'}) RETURN a.name AS name") == [{"name": "Hand"}]
        assert _run(neo4j, "MATCH (p:Paper) WHERE p.id IS NULL RETURN p.title AS t") == [{"t": "mine, no id"}]
        # a hand-made node holding an id kg writes: the push stops and names it, and leaves it as it is
        venue = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "venue")[0]
        _run(neo4j, "MATCH (v:Venue {id: $id}) DETACH DELETE v", id=venue)
        _run(neo4j, "CREATE (:Venue {id: $id, note: 'my own'})", id=venue)
        blocked = _cli(neo4j, "push", str(folder))
        assert blocked.exit_code == 1 and blocked.stderr.count("\n") == 1, blocked.stderr
        assert f":Venue node with id {venue!r} that kg did not write" in blocked.stderr
        assert "element id" in blocked.stderr and "note" in blocked.stderr
        assert _run(neo4j, "MATCH (v:Venue {id: $id}) RETURN v.note AS note, v.kg AS kg", id=venue) == \
            [{"note": "my own", "kg": None}]
    finally:
        _run(neo4j, "MATCH (n:Author {id: 'a:added by hand'}) DETACH DELETE n")
        _run(neo4j, "MATCH (n:Paper) WHERE n.id IS NULL DETACH DELETE n")
        _run(neo4j, "MATCH (n:Venue) WHERE n.kg IS NULL DETACH DELETE n")
    assert _cli(neo4j, "push", str(folder)).exit_code == 0


def test_read_only_query_is_an_allow_list(neo4j, pushed):
    """Without --write only reading clauses and procedures run: another client's open write transaction
    survives TERMINATE TRANSACTIONS, and connection, cache and admin commands are refused before they run."""
    import neo4j as driver_module

    with neo4j.driver() as driver, driver.session(database=neo4j.database) as other:
        tx = other.begin_transaction()
        tx.run("CREATE (:KgScratch {id: 'kept'})").consume()
        with driver.session(database=neo4j.database, default_access_mode=driver_module.READ_ACCESS) as admin:
            ids = [r["transactionId"] for r in admin.run("SHOW TRANSACTIONS YIELD transactionId, currentQuery")]
        for statement in [*(f"TERMINATE TRANSACTIONS '{i}'" for i in ids), "CALL dbms.killConnections(['bolt-1'])",
                          "CALL db.clearQueryCaches()", "SHOW TRANSACTIONS", "CALL dbms.listConnections()",
                          "MATCH (n:KgScratch) CALL (n) { DETACH DELETE n } RETURN 1",
                          "CALL db.createLabel('Evil')", "MATCH (p:Paper) FOREACH (x IN [1] | SET p.x = 1)"]:
            refused = _cli(neo4j, "query", statement)
            assert refused.exit_code == 1, (statement, refused.output)
            assert refused.stderr.startswith("Error: not a read-only query") and refused.stderr.count("\n") == 1
        tx.commit()  # it was never terminated
    assert _run(neo4j, "MATCH (n:KgScratch {id: 'kept'}) RETURN count(n) AS n") == [{"n": 1}]
    _run(neo4j, "MATCH (n:KgScratch) DELETE n")
    for statement, expected in (("CALL db.labels() YIELD label WHERE label = 'Paper' RETURN label", "label\nPaper\n"),
                                ("PROFILE UNWIND [1, 2] AS i RETURN i", "i\n1\n2\n"),
                                ("MATCH (p:Paper) WHERE EXISTS { (p)-[:MENTIONS]->() } RETURN count(*) > 0 AS any",
                                 "any\ntrue\n")):
        read = _cli(neo4j, "query", statement, "--csv")
        assert read.exit_code == 0 and read.stdout.lower() == expected.lower(), (statement, read.output)


def test_query_streams_rows_and_escapes_csv_formulas(neo4j):
    import tracemalloc

    n = 120_000
    assert _cli(neo4j, "query", "UNWIND [1, 2] AS i RETURN i", "--csv").stdout == "i\n1\n2\n"  # imports done
    tracemalloc.start()
    try:
        result = _cli(neo4j, "query", f"UNWIND range(1, {n}) AS i RETURN i", "--csv")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == n + 1 and result.stderr.strip() == f"{n} rows"
    # every row held at once costs ~26 MB here (dicts and ints); streamed, memory is the output and a batch
    assert peak - len(result.stdout) * 3 < 10 * 2**20, peak
    cells = _cli(neo4j, "query", "RETURN '=HYPERLINK(\"http://x\",\"y\")' AS a, '@SUM(A1)' AS b, -2 AS c",
                 "--csv")
    assert cells.stdout == 'a,b,c\n"\'=HYPERLINK(""http://x"",""y"")",\'@SUM(A1),-2\n'
