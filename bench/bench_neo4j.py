"""Push throughput into Neo4j: batched ``UNWIND $rows … MERGE`` against one MERGE per row.

The graph is the ACM-CR corpus (../shared/data/acm_cr, 24,614 papers) built WITHOUT the
embedding model: each record's author keywords are its concepts (through kg.normalize and
kg.graph.build_graph, as in bench_analyze.py), because extracting with the model takes far
longer than the push on this machine's 2 CPUs. Everything else is what ``kg push`` does.

Run::

    .venv/bin/python bench/bench_neo4j.py [--limit N] [--batch-size 10000] [--workers 2] [--sample 3000] [--cache FILE]

It starts a local Neo4j 5.26 from tools/neo4j (Java 17 + Maven; built and cached in .tools/)
in a temporary folder, unless NEO4J_URI/NEO4J_PASSWORD point at a server whose kg labels may be
wiped. Prints, for the whole graph into an empty database: the push's relationships per second
(schema + nodes + relationships + count check; analytics are computed before the clock starts),
the rate of the relationship phase alone, a second identical push (nothing written), and a
``--replace`` push of the whole graph into the now warm server (as on a server that has run for
a while: its JVM has compiled Cypher's hot paths, which the first push into a fresh server pays
for with about 25 more CPU-seconds). Then,
on the same data in the same run, a sample of relationships (--sample, spread over every
relationship type) written once batched (the whole push_tables call: schema, batches, count check)
and once with one MERGE per row (one managed
transaction each, the naive way), and the ratio.

With ``--build DIR`` (a ``kg build`` output folder) it instead measures the bulk load against
``kg push`` on that build, in one run: ``kg export neo4j-admin`` (the CSV files), Neo4j 5.26's own
``neo4j-admin database import full`` run by the written ``import.sh`` (tools/neo4j/neo4j-admin) into
a fresh home folder, the server's start on it and ``after-import.cypher`` (constraints, indexes,
vector indexes, empty lists); then ``kg push`` of the same build, embeddings included, into an empty
database on a fresh server. Both end with the same database (tests/test_neo4j_admin.py checks it)::

    .venv/bin/python bench/bench_neo4j.py --build out/

Every line gives the wall clock and, with the local server, the CPU seconds of kg and of
Neo4j: on a machine shared with other work the wall clock mostly measures the neighbours,
while rows per CPU-second is what the same two cores give when nothing else runs (client and
server take turns on each batch).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import pickle
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"
TARGET = 20_000  # relationships per second, issue 6


def keyphrase_graph(path: Path, *, limit: int | None = None):
    """The kg graph of ``path`` with each record's author keywords as its concepts."""
    from kg.graph import build_graph
    from kg.ingest import load_corpus
    from kg.models import Keyphrase
    from kg.normalize import normalize_concepts

    corpus = load_corpus([str(path)])
    papers = corpus.papers[:limit] if limit else corpus.papers
    keyphrases = {p.id: [Keyphrase(k, round(1.0 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)]
                  for p in papers}
    concepts, mentions = normalize_concepts(papers, keyphrases)
    return build_graph(papers, concepts, mentions, metadata={"extractor": "author keyphrases (bench)"})


def _server(home: Path):
    spec = importlib.util.spec_from_file_location("kg_neo4j_tools", ROOT / "tools" / "neo4j" / "server.py")
    tools = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tools)
    server = tools.LocalNeo4j(home, "kg-" + secrets.token_hex(8), heap="2g", page_cache_mb=1024)
    server.start()
    return server


class _Clock:
    """Wall-clock seconds plus the CPU seconds of this process and of the local server's JVM.

    On a shared machine the wall clock measures the neighbours as much as kg; the client and
    server run one after the other for each batch, so ``rows / (client + server CPU)`` is what
    the same push achieves on an otherwise idle machine with the same cores.
    """

    def __init__(self, server) -> None:
        self.stat = Path(f"/proc/{server.process.pid}/stat") if server is not None else None
        self.tick = os.sysconf("SC_CLK_TCK")

    def read(self) -> tuple[float, float, float]:
        server = 0.0
        if self.stat is not None and self.stat.exists():
            fields = self.stat.read_text().rsplit(")", 1)[1].split()
            server = (int(fields[11]) + int(fields[12])) / self.tick
        return time.perf_counter(), time.process_time(), server

    def since(self, start):
        return _Clock.between(start, self.read())

    @staticmethod
    def between(a, b):
        return _Span(b[0] - a[0], b[1] - a[1], b[2] - a[2])


class _Span:
    def __init__(self, wall: float, client: float, server: float) -> None:
        self.wall, self.client, self.server = wall, client, server
        self.cpu = client + server if server else 0.0

    def show(self, rows: int) -> str:
        text = f"{self.wall:.1f}s wall = {rows / self.wall:,.0f}/s"
        if self.cpu:
            text += (f"; CPU {self.client:.1f}s client + {self.server:.1f}s server = "
                     f"{rows / self.cpu:,.0f}/s per CPU-second")
        return text


def _per_row(driver, tables, database):
    """One MERGE per relationship, each in its own managed write transaction."""
    from kg.export.cypher import load_statement

    with driver.session(database=database) as session:
        for table in tables:
            statement = load_statement("merge_one_relationship", type=table.type, source=table.source,
                                       target=table.target)
            for row in table.rows:
                session.execute_write(lambda tx, r=row: tx.run(statement, source=r["source"], target=r["target"],
                                                                props=r["props"]).consume())


def _clear_relationships(driver, tables, database):
    from kg.export.cypher import run_query

    for table in tables:
        while run_query(driver, f"MATCH (:`{table.source}`)-[r:`{table.type}`]->(:`{table.target}`) "
                        "WITH r LIMIT 20000 DELETE r RETURN count(*) AS n", database=database,
                        write=True)[1][0]["n"]:
            pass


def _sample(rel_tables, size):
    from kg.export.neo4j import RelationshipTable

    total = sum(len(t.rows) for t in rel_tables)
    return [RelationshipTable(t.type, t.source, t.target, t.rows[: max(1, round(size * len(t.rows) / total))])
            for t in rel_tables]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="Use the first N papers only.")
    parser.add_argument("--batch-size", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=2, help="Concurrent transactions (kg push --workers).")
    parser.add_argument("--sample", type=int, default=3000, help="Relationships in the per-row comparison.")
    parser.add_argument("--build", type=Path, default=None,
                        help="A kg build folder: measure the neo4j-admin bulk import against kg push on it.")
    parser.add_argument("--cache", type=Path, default=None,
                        help="Pickle of the built graph: read when present, else written (saves the build).")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    if args.build is not None:
        bulk_against_push(args.build, batch_size=args.batch_size, workers=args.workers)
        return
    if not DATA.exists():
        sys.exit(f"{DATA} is not present")

    from kg.export.neo4j import graph_tables, open_driver, push_tables

    started = time.perf_counter()
    if args.cache is not None and args.cache.exists():
        graph = pickle.loads(args.cache.read_bytes())
    else:
        graph = keyphrase_graph(DATA, limit=args.limit)
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(graph))
    print(f"graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges "
          f"(built from author keywords or read from --cache in {time.perf_counter() - started:.1f}s)")
    started = time.perf_counter()
    nodes, rels = graph_tables(graph)
    n_nodes, n_rels = sum(len(t.rows) for t in nodes), sum(len(t.rows) for t in rels)
    print(f"rows: {n_nodes} nodes, {n_rels} relationships "
          f"({', '.join(f'{t.type} {len(t.rows)}' for t in rels)}); analytics {time.perf_counter() - started:.1f}s")

    with tempfile.TemporaryDirectory(prefix="kg-bench-neo4j-") as home:
        server = None
        if os.environ.get("NEO4J_URI"):
            uri, user, password = (os.environ["NEO4J_URI"], os.environ.get("NEO4J_USERNAME", "neo4j"),
                                   os.environ["NEO4J_PASSWORD"])
        else:
            started = time.perf_counter()
            server = _server(Path(home))
            uri, user, password = server.uri, "neo4j", server.password
            print(f"server: Neo4j 5.26 at {uri}, started in {time.perf_counter() - started:.1f}s")
        database = os.environ.get("NEO4J_DATABASE")
        try:
            with open_driver(uri, user, password, timeout=120) as driver:
                clock = _Clock(server)

                def replace_push(title: str) -> None:
                    """``push --replace`` of the whole graph, timed overall and for its relationship phase."""
                    marks = {"last": clock.read()}

                    def progress(name, done, total):  # marks the start and end of the relationship phase
                        if "(" in name and "rels_start" not in marks:
                            marks["rels_start"] = marks["last"]
                        marks["last"] = clock.read()
                        if "(" in name:
                            marks["rels_end"] = marks["last"]

                    start = clock.read()
                    result = push_tables(driver, nodes, rels, database=database, batch_size=args.batch_size,
                                         workers=args.workers, replace=True, on_progress=progress)
                    whole = clock.since(start)
                    assert not result.mismatches, result.mismatches
                    assert result.totals("created") == (n_nodes, n_rels), result.totals("created")
                    phase = _Clock.between(marks["rels_start"], marks["rels_end"])
                    print(f"{title}, counts verified: {whole.show(n_rels)} overall "
                          f"({n_nodes:,} nodes + {n_rels:,} relationships)")
                    print(f"  relationship phase alone: {phase.show(n_rels)} (target {TARGET:,} relationships/s)")

                replace_push("push into an empty database on a fresh server (JVM not yet warmed up)")
                start = clock.read()
                again = push_tables(driver, nodes, rels, database=database, batch_size=args.batch_size,
                                    workers=args.workers)
                assert not again.mismatches and again.totals("created") == (0, 0) and again.totals("updated") == (0, 0)
                print(f"second identical push (nothing written): {clock.since(start).show(n_rels)}")
                replace_push("push --replace on the now warm server (everything deleted and written anew)")

                sample = _sample(rels, args.sample)
                n_sample = sum(len(t.rows) for t in sample)
                _clear_relationships(driver, rels, database)
                start = clock.read()
                push_tables(driver, [], sample, database=database, batch_size=args.batch_size)
                batched = clock.since(start)
                _clear_relationships(driver, rels, database)
                start = clock.read()
                _per_row(driver, sample, database)
                per_row = clock.since(start)
                print(f"same {n_sample:,} relationships, same run:\n  batched UNWIND/MERGE: {batched.show(n_sample)}"
                      f"\n  one MERGE per row:    {per_row.show(n_sample)}"
                      f"\n  batched is {per_row.wall / batched.wall:.1f}x faster (wall clock)"
                      + (f", {per_row.cpu / batched.cpu:.1f}x less CPU" if batched.cpu else ""))
                _clear_relationships(driver, rels, database)
        finally:
            if server is not None:
                server.stop()


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bulk_against_push(folder: Path, *, batch_size: int, workers: int) -> None:
    """``kg export neo4j-admin`` + ``neo4j-admin database import full`` + ``after-import.cypher``
    against ``kg push``, on the build in ``folder``, in one run (see the module docstring)."""
    import subprocess

    from kg.api import load
    from kg.export.cypher import split_statements
    from kg.export.neo4j import open_driver, push_graph
    from kg.export.neo4j_admin import AFTER_IMPORT, IMPORT_SCRIPT, write_bulk_import
    from kg.export.neo4j_vectors import load_embeddings

    built = load(folder)
    embeddings = load_embeddings(folder)
    print(f"build {folder}: {built.graph.number_of_nodes():,} nodes, {built.graph.number_of_edges():,} edges, "
          f"vectors for {', '.join(f'{len(ids):,} {label}' for label, (ids, _) in embeddings.items())}")
    with tempfile.TemporaryDirectory(prefix="kg-bench-bulk-") as tmp:
        tmp = Path(tmp)
        started, cpu = time.perf_counter(), time.process_time()
        result = write_bulk_import(built.graph, tmp / "bulk", analysis=built.analysis, embeddings=embeddings)
        export = time.perf_counter() - started
        nodes, rels = result.totals()
        size = sum((tmp / "bulk" / name).stat().st_size for name in result.files)
        print(f"kg export neo4j-admin: {export:.1f}s wall, {time.process_time() - cpu:.1f}s CPU "
              f"({nodes:,} nodes, {rels:,} relationships, {size / 1e6:.0f} MB of CSV)")
        home = tmp / "home"
        home.mkdir()
        env = {**os.environ, "NEO4J_ADMIN": str(ROOT / "tools" / "neo4j" / "neo4j-admin"), "NEO4J_HOME": str(home),
               "JAVA_OPTS": "-Xmx1g"}
        started, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run([str(tmp / "bulk" / IMPORT_SCRIPT), "--max-off-heap-memory=1g"], env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"import failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        imported = time.perf_counter() - started
        import_cpu = _children_cpu() - cpu
        print(f"neo4j-admin database import full (import.sh, JVM start included): {imported:.1f}s wall = "
              f"{rels / imported:,.0f} relationships/s; CPU {import_cpu:.1f}s = {rels / import_cpu:,.0f}/s per CPU-second")
        server = _server(home)
        try:
            with open_driver(server.uri, "neo4j", server.password, timeout=120) as driver:
                clock = _Clock(server)
                start = clock.read()
                for statement in split_statements((tmp / "bulk" / AFTER_IMPORT).read_text()):
                    with driver.session() as session:
                        session.run(statement).consume()
                after = clock.since(start)
                print(f"after-import.cypher (empty lists, constraints, indexes, vector indexes online): "
                      f"{after.wall:.1f}s wall")
                start = clock.read()
                check = push_graph(driver, built.graph, analysis=built.analysis, embeddings=embeddings,
                                   batch_size=batch_size, workers=workers)
                assert not check.mismatches and check.totals("created") == (0, 0), check.mismatches
                assert check.totals("updated") == (0, 0), check.updated
                print(f"kg push onto the imported database: wrote nothing, counts verified "
                      f"({clock.since(start).wall:.1f}s)")
        finally:
            server.stop()
        total = export + imported + after.wall
        print(f"bulk load overall (export + import + after-import): {total:.1f}s = {rels / total:,.0f} relationships/s")

        home = tmp / "push-home"
        server = _server(home)
        try:
            with open_driver(server.uri, "neo4j", server.password, timeout=120) as driver:
                clock = _Clock(server)
                marks = {"last": clock.read()}

                def progress(name, done, total):
                    if "(" in name and "rels_start" not in marks:
                        marks["rels_start"] = marks["last"]
                    marks["last"] = clock.read()
                    if "(" in name:
                        marks["rels_end"] = marks["last"]

                start = clock.read()
                pushed = push_graph(driver, built.graph, analysis=built.analysis, embeddings=embeddings,
                                    batch_size=batch_size, workers=workers, on_progress=progress)
                whole = clock.since(start)
                assert not pushed.mismatches, pushed.mismatches
                phase = _Clock.between(marks["rels_start"], marks["rels_end"])
                print(f"kg push into an empty database on a fresh server (embeddings, vector indexes, count check): "
                      f"{whole.show(rels)} overall")
                print(f"  relationship phase alone: {phase.show(rels)}")
        finally:
            server.stop()
        print(f"bulk load is {whole.wall / total:.1f}x faster than kg push overall (wall clock); the import "
              f"tool alone {whole.wall / imported:.1f}x")


if __name__ == "__main__":
    main()
