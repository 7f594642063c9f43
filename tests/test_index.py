"""The read index (kg.index): written by build, update and report; its answers equal the graph's.

Every answer of the index is compared with what the same question computes from the whole graph
(the slow path every command took before), on 400 ACM-CR papers built with the stand-in embedder
(real citations, authors, years) and on the example corpus built with the real model (kg search).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import kg
from conftest import EXAMPLE, ROOT, SHARED, HashEmbedder
from kg.analyze import community_concepts, concept_rows
from kg.analyze.related import related_by
from kg.analyze.result import load_analysis
from kg.cli import app
from kg.errors import GraphFileError, NodeNotFoundError
from kg.export.html import render_html
from kg.float16 import widener
from kg.graphfile import load_graph
from kg.index import INDEX_FILE, IndexDamagedError, IndexMissingError, open_index
from kg.index.read import _best_rows
from kg.index.views import render_part, view_part
from kg.index.write import write_index
from kg.opened import load
from kg.pipeline import BuildOptions, build, update
from kg.search import search, search_build
from kg.vectors import load_concept_vectors, load_paper_vectors

runner = CliRunner()
ACM = SHARED / "data" / "acm_cr" / "papers.jsonl"
HOSTILE = "</script><script>alert(1)</script> \"quoted\" 'single' NEAR( OR * \x1b[31m \u202e"


def _acm_slice(path: Path, start: int, count: int) -> Path:
    with open(ACM, encoding="utf-8") as handle:
        lines = [line for _, line in zip(range(start + count), handle)][start:]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def acm(tmp_path_factory):
    """400 ACM-CR papers built with the stand-in embedder, and the graph and analysis it wrote."""
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    root = tmp_path_factory.mktemp("index-acm")
    out = root / "out"
    build([_acm_slice(root / "papers.jsonl", 0, 400)], out, BuildOptions(html=False), embedder=HashEmbedder())
    return out, load_graph(out), load_analysis(out)


def test_build_writes_the_index_beside_the_graph(acm):
    out, graph, analysis = acm
    index = open_index(out)
    papers = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")
    assert index.meta["papers"] == len(papers) > 390
    assert index.meta["communities"] == len(analysis["communities"])
    assert index.meta["embedding"] == graph.graph["embedding"]
    assert index.community_rows() == analysis["communities"]
    first = papers[0]
    row = index.paper(first)
    assert row["title"] == graph.nodes[first]["title"] and row["abstract"] == graph.nodes[first]["abstract"]
    ranked = sorted((d["rank"], c) for _, c, k, d in graph.out_edges(first, keys=True, data=True) if k == "mentions")
    assert [c["id"] for c in row["concepts"]] == [c for _, c in ranked]
    assert sum(index.years().values()) == sum(1 for p in papers if isinstance(graph.nodes[p].get("year"), int))


def test_related_by_concepts_and_embedding_equal_the_graph(acm):
    out, graph, _ = acm
    index, vectors = open_index(out), load_paper_vectors(out)
    papers = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")
    for paper in papers[::7]:
        for by in ("concepts", "embedding"):
            assert index.related_by(paper, by=by, top=10) == related_by(graph, paper, by=by, top=10, vectors=vectors)
    cited = next(p for p in papers if any(k == "cites" for _, _, k in graph.out_edges(p, keys=True)))
    rows = index.related_by(cited, top=400)
    assert rows == related_by(graph, cited, top=400, vectors=vectors)
    assert any(r["citation"] for r in rows)


def test_semantic_search_equals_the_graph(acm):
    out, graph, analysis = acm
    index = open_index(out)
    ids, matrix = load_paper_vectors(out)
    concepts = load_concept_vectors(out)
    rng = np.random.default_rng(7)
    queries = [matrix[3], matrix[120], rng.normal(size=matrix.shape[1])]
    for query, top in zip(queries, (10, 1, 60)):
        query = np.asarray(query, dtype=np.float32) / np.linalg.norm(query)
        slow = search(graph, query, papers=(ids, matrix), concepts=concepts, communities=analysis["communities"],
                      top=top)
        assert index.semantic_search(query, top=top) == slow
        assert index.semantic_search(query, top=top, widen=widener()) == slow  # ONNX Runtime's Cast: the same
    text = graph.nodes[ids[5]]["title"]
    fast = load(out).search(text, top=8, embedder=HashEmbedder())
    assert fast == search_build(out, text, top=8, embedder=HashEmbedder())
    assert fast["papers"][0]["id"] == ids[5]


def test_the_best_rows_come_in_the_order_of_a_full_stable_sort():
    rng = np.random.default_rng(0)
    for n in (1, 3, 50, 5000):
        for count in (1, 4, 40, 6000):
            scores = rng.integers(0, 9, n).astype(np.float32)  # many equal scores: ties by row
            assert _best_rows(scores, count).tolist() == np.lexsort((np.arange(n), -scores))[:count].tolist()


def test_concept_rankings_equal_the_graph(acm):
    out, graph, analysis = acm
    index = open_index(out)
    for top in (1, 3, 20, 77):
        assert index.concept_rows(top=top) == concept_rows(graph, top=top)
    settings = analysis["parameters"]
    for community in range(len(analysis["communities"])):
        for top in (2, 20):
            slow = community_concepts(graph, community, top=top, analysis=analysis, seed=settings["seed"],
                                      resolution=settings["resolution"], method=settings.get("method", "louvain"))
            fast = index.community_concepts(community, top=top)
            assert fast == {k: slow[k] for k in ("id", "size", "label", "concepts")}
    with pytest.raises(NodeNotFoundError, match="communities are numbered 0 to"):
        index.community_concepts(len(analysis["communities"]))
    assert index.concept_rows(top=501) is None


def test_pages_drawn_from_the_index_equal_the_pages_of_the_graph(acm):
    out, graph, analysis = acm
    index = open_index(out)
    seed = analysis["parameters"]["seed"]
    paper = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")[11]
    concept = index.concept_rows(top=1)[0]["name"]
    cases = [dict(view="communities"), dict(focus=paper), dict(focus=paper, depth=2), dict(focus=concept),
             dict(view="papers", focus=paper), dict(view="concepts", focus=concept, top=30),
             *(dict(community=k) for k in range(min(4, len(analysis["communities"])))),
             dict(view="papers", community=0), dict(view="concepts", community=1, top=50)]
    for case in cases:
        part = view_part(index, view=case.get("view", "bipartite"), community=case.get("community"),
                         focus=case.get("focus"), depth=case.get("depth", 1))
        assert part is not None, case
        fast = render_part(index, part, seed=seed, **{k: v for k, v in case.items() if k != "focus"})
        assert fast == render_html(graph, seed=seed, analysis=analysis, **case), case
    assert view_part(index, view="coauthors", community=0) is None
    assert view_part(index, community=0, min_weight=0.5) is None


def test_read_commands_answer_from_the_index_as_from_the_graph(acm, tmp_path):
    out, graph, _ = acm
    old = tmp_path / "old"
    shutil.copytree(out, old)
    (old / INDEX_FILE).unlink()
    paper = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")[42]
    for args in (["related", paper, "--json"], ["related", paper], ["related", paper, "--by", "embedding"],
                 ["related", paper, "--by", "cocitation", "--json"], ["concepts", "--top", "15"],
                 ["concepts", "--community", "1", "--json"], ["concepts", "-c", "0", "--labels", "loglik"],
                 ["concepts", "-c", "0", "--resolution", "2.0"]):
        fast = runner.invoke(app, [args[0], str(out), *args[1:]])
        slow = runner.invoke(app, [args[0], str(old), *args[1:]])
        assert fast.exit_code == slow.exit_code == 0, (args, fast.output, slow.output)
        assert fast.stdout == slow.stdout, args
        assert "index.sqlite" not in fast.stderr
        assert slow.stderr.count(f"no {INDEX_FILE}") == 1 and f"kg report {old}" in slow.stderr
    for view in (["--focus", paper], ["--community", "2"], ["--view", "communities"]):
        pages = []
        for folder in (out, old):
            page = tmp_path / f"{folder.name}.html"
            done = runner.invoke(app, ["viz", str(folder), *view, "--out", str(page)])
            assert done.exit_code == 0, done.output
            pages.append(page.read_text(encoding="utf-8").replace(f"· {folder.name} ·", "·"))
        assert pages[0] == pages[1], view


def test_read_commands_load_only_what_they_answer_with(acm, tmp_path):
    """The index's answers start without the analysis, the projections (SciPy) and, but for a search,
    the embedders' code: ``kg viz`` of a part, ``kg related``, ``kg concepts`` (the cold-start budget of
    bench/bench_read.py)."""
    out, graph, _ = acm
    paper = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")[11]
    code = ("import sys; from kg.cli import main; sys.argv = ['kg', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
            "print('LOADED', code, ' '.join(sorted({m.split('.')[0] for m in sys.modules} | "
            "{m for m in sys.modules if m.startswith('kg.')})))")
    page = tmp_path / "page.html"
    for args in (["viz", str(out), "--community", "1", "--out", str(page)], ["viz", str(out), "--focus", paper,
                 "--out", str(page)], ["viz", str(out), "--view", "communities", "--out", str(page)],
                 ["related", str(out), paper], ["concepts", str(out), "--community", "0"]):
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        line = [x for x in done.stdout.splitlines() if x.startswith("LOADED")][-1].split()
        assert line[1] in ("0", "None"), (args, done.stderr[-2000:])
        loaded = set(line[2:])
        assert loaded & {"scipy", "kg.analyze", "kg.citations", "kg.graph", "kg.extract", "igraph", "onnxruntime",
                         "torch"} == set(), args
        assert "kg.index" in loaded


def test_kg_load_opens_the_index_and_reads_the_graph_only_when_touched(acm):
    out, graph, analysis = acm
    code = ("import kg, sys; b = kg.load(sys.argv[1]); p = b.find_paper(sys.argv[2]); "
            "r = b.related(p, top=3); c = b.concept_rows(top=5); x = b.community_concepts(0); "
            "print('networkx' in sys.modules, len(r), len(c), repr(b)); g = b.graph; "
            "print('networkx' in sys.modules, g.number_of_nodes(), len(b.analysis['communities']))")
    paper = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")[0]
    done = subprocess.run([sys.executable, "-c", code, str(out), paper], capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = done.stdout.splitlines()
    papers = sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "paper")
    assert before.startswith(f"False 3 5 <KnowledgeGraph: {papers} papers")
    assert after == f"True {graph.number_of_nodes()} {len(analysis['communities'])}"
    opened = kg.load(out)
    assert opened.hint is None and opened.settings()["seed"] == analysis["parameters"]["seed"]
    assert opened.reanalyze().analysis["communities"] == analysis["communities"]  # a KnowledgeGraph method


def test_update_and_report_rewrite_the_index(tmp_path):
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    out = tmp_path / "out"
    embedder = HashEmbedder()
    build([_acm_slice(tmp_path / "a.jsonl", 0, 150)], out, BuildOptions(html=False), embedder=embedder)
    update([_acm_slice(tmp_path / "b.jsonl", 150, 60)], out, embedder=embedder)
    graph, analysis = load_graph(out), load_analysis(out)
    index = open_index(out)
    papers = sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "paper")
    assert index.meta["papers"] == papers > 200 and index.community_rows() == analysis["communities"]
    vectors = load_paper_vectors(out)
    new = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")[-1]
    assert index.related_by(new, top=20) == related_by(graph, new, top=20, vectors=vectors)
    assert index.concept_rows(top=30) == concept_rows(graph, top=30)
    index.close()
    done = runner.invoke(app, ["report", str(out), "--resolution", "2.0"])
    assert done.exit_code == 0, done.output
    index, analysis = open_index(out), load_analysis(out)
    assert index.community_rows() == analysis["communities"] and index.meta["settings"]["resolution"] == 2.0
    assert index.related_by(new, top=20) == related_by(graph, new, top=20, vectors=vectors)
    assert index.meta["paper_vectors"] == papers  # report keeps the vectors and points into them


def test_a_report_gives_an_old_build_its_index(acm, tmp_path):
    out, _, analysis = acm
    old = tmp_path / "old"
    shutil.copytree(out, old)
    (old / INDEX_FILE).unlink()
    with pytest.raises(IndexMissingError, match=f"kg report {old} writes it"):
        open_index(old)
    assert kg.load(old).hint.startswith(f"{old} has no {INDEX_FILE}")
    assert runner.invoke(app, ["report", str(old)]).exit_code == 0
    assert open_index(old).community_rows() == analysis["communities"]


def test_a_damaged_index_is_reported_and_the_graph_answers(acm, tmp_path):
    out, graph, _ = acm
    paper = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")[3]
    expected = runner.invoke(app, ["related", str(out), paper, "--json"]).stdout
    for damage in ("garbage", "version", "vectors"):
        broken = tmp_path / damage
        shutil.copytree(out, broken)
        if damage == "garbage":
            (broken / INDEX_FILE).write_bytes(b"not a database" * 100)
        elif damage == "version":
            with sqlite3.connect(broken / INDEX_FILE) as db:
                db.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
        else:
            np.save(broken / "paper_vectors.npy", np.zeros((3, 4), dtype=np.float16))
        done = runner.invoke(app, ["related", str(broken), paper, "--json"])
        assert "Traceback" not in done.output
        if damage == "vectors":  # the index opens, the vectors beside it do not match it: one Error line
            assert done.exit_code == 1 and done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
            assert "out of step" in done.stderr
            with pytest.raises(IndexDamagedError):
                open_index(broken).related_by(paper)
        else:
            assert done.exit_code == 0 and done.stdout == expected
            assert done.stderr.count("Note: ") == 1 and "answering from graph.json meanwhile" in done.stderr


def test_hostile_text_round_trips_and_searches_safely(tmp_path):
    records = [{"id": f"p{i}", "title": f"Graph learning {i} {HOSTILE}", "year": 2000 + i, "authors": [HOSTILE],
                "abstract": f"Graph neural networks learn node representations {i}. {HOSTILE} message passing."}
               for i in range(6)]
    corpus = tmp_path / "hostile.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "out"
    build([corpus], out, BuildOptions(html=False), embedder=HashEmbedder())
    graph, index = load_graph(out), open_index(out)
    for paper in ("p0", "p5"):
        assert index.paper(paper)["title"] == graph.nodes[paper]["title"]
        assert index.paper(paper)["authors"] == graph.nodes[paper]["authors"]
    for text in (HOSTILE, '"', "NEAR(", "*", "graph OR", "'; DROP TABLE papers; --", "\x00", ""):
        assert isinstance(index.search(text)["papers"], list)
    assert [p["id"] for p in index.search("graph learn", kind="paper", year_from=2003)["papers"]] == \
        ["p3", "p4", "p5"]
    assert index.search("Graph learning 2")["papers"][0]["id"] == "p2"
    with pytest.raises(NodeNotFoundError):
        index.paper(HOSTILE)
    assert index.find_paper("graph learning 4") == "p4"


def test_lookups_for_browsing(acm):
    out, graph, analysis = acm
    index = open_index(out)
    papers = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")
    paper = papers[20]
    kept = sorted(((d["weight"], v if u == paper else u) for u, v, k, d in graph.edges(keys=True, data=True)
                   if k == "related" and paper in (u, v)), key=lambda x: (-x[0], x[1]))
    assert [r["id"] for r in index.related(paper, top=50)] == [p for _, p in kept]
    hood = index.neighbourhood(paper, top=5)
    shown = {paper, *(r["id"] for r in hood["papers"])}
    assert {(l["source"], l["target"]) for l in hood["links"]} == {
        (u, v) for u, v, k in graph.edges(keys=True) if k in ("related", "cites") and u in shown and v in shown}
    concept = index.concept_rows(top=1)[0]["id"]
    row = index.concept(concept)
    assert row["papers"] == graph.nodes[concept]["papers"] and sum(row["years"].values()) <= row["papers"]
    assert len(index.concept_papers(concept, top=1000)) == sum(
        1 for _, _, k in graph.in_edges(concept, keys=True) if k == "mentions")
    overview = index.communities()
    assert [c["size"] for c in overview] == [len(r["papers"]) for r in analysis["communities"]]
    first = index.community(0, top=5)
    assert [p["id"] for p in first["papers"]] == analysis["communities"][0]["papers"][:5]
    years = index.year_range()
    assert sum(index.community_sizes(year_from=years[0], year_to=years[1]).values()) == sum(index.years().values())
    with pytest.raises(NodeNotFoundError):
        index.community(999)


def test_kg_search_answers_from_the_index_with_the_real_model(tmp_path, real_embedder):
    out = tmp_path / "out"
    build([EXAMPLE], out, BuildOptions(html=False), embedder=real_embedder)
    old = tmp_path / "old"
    shutil.copytree(out, old)
    (old / INDEX_FILE).unlink()
    query = "graph neural networks for recommendation"
    fast = runner.invoke(app, ["search", str(out), query, "--json"])
    slow = runner.invoke(app, ["search", str(old), query, "--json"])
    assert fast.exit_code == slow.exit_code == 0, fast.output + slow.output
    assert json.loads(fast.stdout) == json.loads(slow.stdout)
    assert "Note: " in slow.stderr and "Note: " not in fast.stderr


def test_the_writer_refuses_nothing_a_build_holds_and_replaces_atomically(acm, tmp_path):
    out, graph, analysis = acm
    folder = tmp_path / "again"
    folder.mkdir()
    path = write_index(graph, analysis, folder)
    assert Path(path).name == INDEX_FILE and [p.name for p in folder.iterdir()] == [INDEX_FILE]
    index = open_index(folder)
    assert index.meta["paper_vectors"] is None and index.semantic_search(np.ones(256), top=3)["papers"] == []
    with pytest.raises(GraphFileError):
        load(tmp_path / "missing")
