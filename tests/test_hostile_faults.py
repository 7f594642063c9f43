"""Faults, races and hostile input, round two: nothing of the user's deleted, nothing
half-written, nothing unbounded, every failure one ``Error:`` line that says what to do.

Each test drives the real parts (the library build with a cheap stand-in embedder, the CLI,
real FIFOs, device nodes, mount points, file-size limits and concurrent processes) and fails
on the code before the fix it covers. The Neo4j items (push markers, the read-only allow-list,
streamed rows) are in ``test_neo4j_server.py``, against the real server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import HashEmbedder
from kg.cli import app
from kg.errors import KgError
from kg.export.staging import FolderBusyError, OutputFolderError, folder_lock
from kg.pipeline import BuildOptions, build

runner = CliRunner()
TESTS = Path(__file__).resolve().parent

PAPERS = [
    {"id": "p1", "title": "Graph neural networks for citation graphs", "year": 2020, "venue": "KDD",
     "authors": ["Ada Lovelace", "Alan Turing"],
     "abstract": "Graph neural networks learn node representations by message passing on citation graphs."},
    {"id": "p2", "title": "Message passing on citation graphs", "year": 2021, "venue": "KDD",
     "authors": ["Alan Turing"], "references": ["p1"],
     "abstract": "We study message passing in graph neural networks for node classification on citation graphs."},
    {"id": "p3", "title": "Collaborative filtering with implicit feedback", "year": 2019, "venue": "RecSys",
     "authors": ["Grace Hopper"],
     "abstract": "Collaborative filtering recommends items from implicit feedback with matrix factorization."},
    {"id": "p4", "title": "Implicit feedback for recommender systems", "year": 2022, "venue": "RecSys",
     "authors": ["Grace Hopper", "Ada Lovelace"], "references": ["p3"],
     "abstract": "Recommender systems trained on implicit feedback suffer from exposure bias in collaborative filtering."},
]


def _jsonl(path: Path, papers: list[dict]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One small build (with --write-thesaurus), copied by each test that changes it."""
    root = tmp_path_factory.mktemp("faults")
    corpus = _jsonl(root / "papers.jsonl", PAPERS)
    out = root / "out"
    build([corpus], out, BuildOptions(top_n=5, write_thesaurus=True), embedder=HashEmbedder())
    return corpus, out


@pytest.fixture
def folder(built, tmp_path):
    corpus, out = built
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    return corpus, copy


def _one_line_error(result, *fragments: str) -> str:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 1, result.output
    text = result.stderr if hasattr(result, "stderr") else result.output
    assert text.startswith("Error: ") and "Traceback" not in text, text
    for fragment in fragments:
        assert fragment in text, text
    return text


# --- data loss and damage -------------------------------------------------------------------


def test_a_thesaurus_inside_the_output_folder_survives_build_and_update(folder, tmp_path):
    corpus, out = folder
    thesaurus = out / "thesaurus.txt"
    thesaurus.write_text("label\treplace by\ngraph neural networks\tGNN\n", encoding="utf-8")
    build([corpus], out, BuildOptions(top_n=5, thesaurus=str(thesaurus)), embedder=HashEmbedder())
    assert thesaurus.read_text(encoding="utf-8").endswith("graph neural networks\tGNN\n")  # read, and still there
    extra = _jsonl(tmp_path / "more.jsonl", [{"id": "p5", "title": "Exposure bias in recommender systems",
                                              "abstract": "Exposure bias in implicit feedback recommender systems."}])
    from kg.pipeline import update

    update([extra], out, embedder=HashEmbedder())  # the recorded thesaurus is read again: it must be there
    assert thesaurus.read_text(encoding="utf-8").endswith("graph neural networks\tGNN\n")
    # reading it and writing one over it at once is refused before any work, and it stays
    with pytest.raises(OutputFolderError, match="thesaurus .* is in the output folder"):
        build([corpus], out, BuildOptions(top_n=5, thesaurus=str(thesaurus), write_thesaurus=True),
              embedder=HashEmbedder())
    assert thesaurus.read_text(encoding="utf-8").endswith("graph neural networks\tGNN\n")


def test_out_naming_a_fifo_or_a_device_is_written_into_never_replaced(folder, tmp_path):
    _, out = folder
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = runner.invoke(app, ["viz", str(out), "--out", str(fifo)])
    reader.join(timeout=60)
    assert result.exit_code == 0, result.output
    assert fifo.is_fifo() and received and received[0].startswith(b"<!DOCTYPE html>")
    if os.geteuid() == 0:  # a character device of our own, made where the test may
        device = tmp_path / "null"
        os.mknod(device, 0o666 | __import__("stat").S_IFCHR, os.makedev(1, 3))
        result = runner.invoke(app, ["viz", str(out), "--out", str(device)])
        assert result.exit_code == 0, result.output
        assert device.is_char_device()
    result = runner.invoke(app, ["viz", str(out), "--out", "/dev/null"])
    assert result.exit_code == 0 and Path("/dev/null").is_char_device()


def _mount_tmpfs(where: Path) -> bool:
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "kgtest", str(where)],
                          capture_output=True).returncode == 0


def test_out_a_mount_point_is_refused_before_any_work(tmp_path):
    point = tmp_path / "mnt"
    if not _mount_tmpfs(point):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        corpus = _jsonl(tmp_path / "papers.jsonl", PAPERS)
        embedder = HashEmbedder()
        with pytest.raises(OutputFolderError, match="is a mount point"):
            build([corpus], point, BuildOptions(top_n=5), embedder=embedder)
        assert embedder.calls == []  # refused before extraction
        build([corpus], point / "out", BuildOptions(top_n=5), embedder=HashEmbedder())  # inside it: fine
        assert (point / "out" / "graph.json").is_file()
    finally:
        subprocess.run(["umount", str(point)], check=False)


def test_out_the_working_directory_or_a_parent_of_it_is_refused(tmp_path, monkeypatch):
    corpus = _jsonl(tmp_path / "papers.jsonl", PAPERS)
    here = tmp_path / "work" / "sub"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    for target in (".", "..", str(tmp_path / "work")):
        result = runner.invoke(app, ["build", str(corpus), "--out", target, "--no-cache"])
        _one_line_error(result, "working directory")
    assert Path.cwd() == here and here.is_dir()


# --- races and half-written folders ---------------------------------------------------------

_HOLD = textwrap.dedent("""
    import sys, time
    from kg.export.staging import folder_lock
    with folder_lock(sys.argv[1]):
        print("held", flush=True)
        time.sleep(60)
""")


def _holder(out: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-c", _HOLD, str(out)], stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout.readline().strip() == "held"
    return process


def test_a_second_command_on_a_folder_being_written_is_refused_with_who_holds_it(folder, tmp_path):
    corpus, out = folder
    extra = _jsonl(tmp_path / "more.jsonl", [{"id": "p5", "title": "Exposure bias", "abstract": "Exposure bias."}])
    before = (out / "graph.json").read_bytes()
    holder = _holder(out)
    try:
        for args in (["build", "--update", str(out), str(extra), "--no-cache"],
                     ["build", str(corpus), "--out", str(out), "--no-cache"],
                     ["report", str(out), "--resolution", "2"],
                     ["evolution", str(out), "--equal", "2"]):
            result = runner.invoke(app, args)
            _one_line_error(result, "is being written by another kg command", f"pid {holder.pid}", "wait")
        with pytest.raises(FolderBusyError):
            build([corpus], out, BuildOptions(top_n=5), embedder=HashEmbedder())
    finally:
        holder.kill()
        holder.wait()
    assert (out / "graph.json").read_bytes() == before
    # the killed holder left its lock file: the next command takes the lock all the same
    result = runner.invoke(app, ["report", str(out), "--resolution", "2"])
    assert result.exit_code == 0, result.output
    assert not [p for p in os.listdir(out.parent) if p.endswith(".kg-lock")]


def test_two_updates_at_once_lose_no_paper(folder, tmp_path):
    """Both updates run as processes; one adds its papers, the other is refused and says so (never both
    report success while one's papers vanish)."""
    _, out = folder
    files = [_jsonl(tmp_path / f"new{k}.jsonl",
                    [{"id": f"n{k}-{i}", "title": f"Exposure bias study {k} {i}",
                      "abstract": f"Exposure bias in implicit feedback recommender systems, study {k} {i}."}
                     for i in range(5)]) for k in (1, 2)]
    script = textwrap.dedent("""
        import sys
        sys.path.insert(0, {tests!r})
        from conftest import HashEmbedder
        from kg.errors import KgError
        from kg.pipeline import update
        try:
            update([sys.argv[1]], sys.argv[2], embedder=HashEmbedder(), cache=False)
            print("added")
        except KgError as exc:
            print("refused", exc)
    """).format(tests=str(TESTS))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), os.environ.get("PYTHONPATH", "")])}
    runs = [subprocess.Popen([sys.executable, "-c", script, str(f), str(out)], stdout=subprocess.PIPE, text=True,
                             env=env) for f in files]
    outcomes = [r.communicate(timeout=600)[0].strip() for r in runs]
    from kg.graphfile import load_graph

    papers = {n for n, d in load_graph(out).nodes(data=True) if d.get("kind") == "paper"}
    for outcome, k in zip(outcomes, (1, 2)):
        mine = {f"n{k}-{i}" for i in range(5)}
        if outcome == "added":
            assert mine <= papers, (outcomes, sorted(papers))
        else:
            assert outcome.startswith("refused") and "being written by another kg command" in outcome, outcomes
    assert "added" in outcomes


def _limited(args: list[str], limit: int) -> subprocess.CompletedProcess:
    """``kg ARGS`` in a process whose files may not grow beyond ``limit`` bytes (ulimit -f)."""
    script = textwrap.dedent("""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
        from kg.cli import app
        app(sys.argv[1:])
    """).format(limit=limit)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env)


ANALYSIS_OUTPUTS = ("analysis.json", "report.md", "report.html", "report.json", "graph.html")


def test_report_stopped_by_a_write_error_changes_nothing(folder):
    _, out = folder
    before = {name: (out / name).read_bytes() for name in ANALYSIS_OUTPUTS}
    sizes = sorted(len(v) for v in before.values())
    limit = sizes[-1] - 1  # every file fits but the largest
    result = _limited(["report", str(out), "--resolution", "3"], limit)
    assert result.returncode == 1 and result.stderr.startswith("Error: ") and "Traceback" not in result.stderr, \
        result.stderr
    assert {name: (out / name).read_bytes() for name in ANALYSIS_OUTPUTS} == before
    assert not [p for p in os.listdir(out.parent) if "kg-staging" in p]


def test_report_rewrites_the_analysis_outputs_as_one_swap(folder):
    _, out = folder
    graph_before = (out / "graph.json").read_bytes()
    inode = os.stat(out / "graph.json").st_ino
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["report", str(out), "--resolution", "3"])
    assert result.exit_code == 0, result.output
    analysis = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert analysis["parameters"]["resolution"] == 3 == report["parameters"]["resolution"]
    assert (out / "graph.json").read_bytes() == graph_before and os.stat(out / "graph.json").st_ino == inode
    assert (out / "thesaurus.txt").is_file() and (out / "notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("damage", ["{}", "[]", "not json", "[" * 100_000 + "]" * 100_000, '{"communities": 3}'])
def test_a_damaged_analysis_json_is_rebuilt_by_kg_report(folder, damage):
    _, out = folder
    (out / "analysis.json").write_text(damage, encoding="utf-8")
    result = runner.invoke(app, ["viz", str(out)])
    _one_line_error(result, "kg report")
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert "analyzing the graph anew" in result.stderr
    analysis = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    assert analysis["communities"] and analysis["summary"]["papers"] == 4
    assert runner.invoke(app, ["viz", str(out)]).exit_code == 0


# --- unbounded work ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def collaboration(tmp_path_factory):
    """The small corpus plus one paper by a 400-author collaboration."""
    root = tmp_path_factory.mktemp("collaboration")
    big = {"id": "atlas", "title": "Observation of a new boson with a collaboration of physicists",
           "abstract": "Graph neural networks and message passing observe a new boson in citation graphs.",
           "authors": [f"Physicist {i:04d}" for i in range(400)] + ["Ada Lovelace"], "venue": "PRL"}
    corpus = _jsonl(root / "papers.jsonl", PAPERS + [big])
    out = root / "out"
    build([corpus], out, BuildOptions(top_n=5, html=False), embedder=HashEmbedder())
    return out


def test_coauthorship_is_bounded_and_fractional_in_every_stage(collaboration, tmp_path):
    from kg.citations import MAX_COAUTHORS, coauthorship
    from kg.export.neo4j_tables import graph_tables
    from kg.graphfile import load_graph

    graph = load_graph(collaboration)
    co = coauthorship(graph)
    assert co.graph["papers_over_author_cap"] == 1 and co.graph["max_authors"] == MAX_COAUTHORS
    # the four small papers alone: Ada-Alan (p1) and Grace-Ada (p4); the 401-author paper makes none
    assert sorted(co.edges(data="weight")) == [("a:ada lovelace", "a:alan turing", 1.0),
                                               ("a:ada lovelace", "a:grace hopper", 1.0)]
    assert coauthorship(graph, max_authors=500).number_of_edges() == 401 * 400 // 2 + 2  # what the cap saves
    shared = coauthorship(graph, max_authors=500).edges["a:ada lovelace", "a:physicist 0001"]
    assert shared["count"] == 1 and shared["weight"] == round(1 / 400, 4)  # fractional: 1/(n-1)
    # push writes graph_tables' rows; neo4j-admin writes the same rows as CSV
    _, rels = graph_tables(graph)
    assert sum(len(t.rows) for t in rels if t.type == "CO_AUTHOR_OF") == 2
    result = runner.invoke(app, ["export", "neo4j-admin", str(collaboration), "--out", str(tmp_path / "import"),
                                 "--no-embeddings"])
    assert result.exit_code == 0, result.output
    assert "1 paper with more than 25 authors left out of the co-author links" in result.stderr
    rows = sum(len(p.read_text(encoding="utf-8").splitlines())
               for p in (tmp_path / "import").glob("relationships-CO_AUTHOR_OF-*.csv") if ".header" not in p.name)
    assert rows == 2
    started = time.perf_counter()
    page = tmp_path / "coauthors.html"
    result = runner.invoke(app, ["viz", str(collaboration), "--view", "coauthors", "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert "left out of the co-author links" in result.stderr
    assert time.perf_counter() - started < 60 and page.stat().st_size < 2_000_000


# --- tracebacks and wrong values ------------------------------------------------------------


def test_paper_ids_like_kg_node_ids_never_collide(tmp_path):
    papers = [{**PAPERS[0], "id": "c:user"}, {**PAPERS[1], "id": "a:alan turing", "references": ["c:user"]},
              {**PAPERS[2], "id": "v:kdd"}, PAPERS[3]]
    corpus = _jsonl(tmp_path / "papers.jsonl", papers)
    result = build([corpus], tmp_path / "out", BuildOptions(top_n=5), embedder=HashEmbedder())
    graph = result.graph
    assert {"paper:c:user", "paper:a:alan turing", "paper:v:kdd", "p4"} <= set(graph)
    assert graph.nodes["a:alan turing"]["kind"] == "author" and graph.nodes["v:kdd"]["kind"] == "venue"
    assert graph.has_edge("paper:a:alan turing", "paper:c:user", key="cites")  # the reference as written
    assert result.corpus.text_repairs["id like a kg node id (prefixed paper:)"] == 3
    assert runner.invoke(app, ["related", str(tmp_path / "out"), "paper:c:user"]).exit_code == 0


def test_fields_in_other_shapes_are_kept_and_counted(tmp_path):
    from kg.ingest import load_corpus

    rows = [{"id": "j1", "title": "Venues", "abstract": "Graph neural networks.", "venue": ["SIGIR", "CIKM"],
             "authors": "Ann Smith and Bob Jones"}]
    bib = ("@article{b1, title={In press}, author={Ann Smith and Bob Jones}, year={in press}, abstract={Graphs.}}\n"
           "@article{b2, title={Lettered}, author={Ann Smith}, year={2020a}, abstract={Graph neural networks.}}\n"
           "@article{b3, title={Undated}, author={Bob Jones}, year={n.d.}, abstract={Citation graphs.}}\n")
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    corpus = load_corpus([str(_jsonl(tmp_path / "a.jsonl", rows)), str(tmp_path / "refs.bib")])
    by_id = {p.id: p for p in corpus.papers}
    assert not corpus.skipped and sorted(by_id) == ["b1", "b2", "b3", "j1"]
    assert by_id["j1"].venue == "SIGIR" and by_id["j1"].extra["other_venues"] == ["CIKM"]
    assert by_id["j1"].authors == ("Ann Smith", "Bob Jones") == by_id["b1"].authors
    assert (by_id["b1"].year, by_id["b2"].year, by_id["b3"].year) == (None, 2020, None)
    assert corpus.text_repairs == {"year not a year (kept as unknown)": 2, "venue a list (first kept)": 1}


def test_values_past_what_the_analysis_can_compute_are_refused(folder):
    import kg
    from kg.errors import OptionError

    _, out = folder
    for value in ("1e308", "1e7", "inf", "0"):
        _one_line_error(runner.invoke(app, ["report", str(out), "--resolution", value]), "--resolution")
    with pytest.raises(OptionError, match="resolution"):
        kg.load(out).reanalyze(resolution=1e308)
    with pytest.raises(OptionError, match="resolution"):
        BuildOptions(resolution=1e308)
    _one_line_error(runner.invoke(app, ["concepts", str(out), "--method", "nope"]), "--method 'nope'")
    for args in (["push", str(out), "--database", "system"], ["query", "RETURN 1", "--database", "SYSTEM"]):
        _one_line_error(runner.invoke(app, args, env={"NEO4J_PASSWORD": "x"}), "system", "graph database")


@pytest.mark.parametrize("call", ["build(None)", "build(42)", "build(b'papers.jsonl')", "load(None)", "load(42)"])
def test_the_python_api_refuses_what_is_no_path_with_its_own_error(call):
    import kg
    from kg.errors import OptionError

    with pytest.raises(OptionError):
        eval(f"kg.{call}", {"kg": kg})


def test_a_damaged_cache_row_is_embedded_again_and_counted(tmp_path):
    import sqlite3

    corpus = _jsonl(tmp_path / "papers.jsonl", PAPERS)
    cache = tmp_path / "cache.sqlite"
    first = build([corpus], tmp_path / "a", BuildOptions(top_n=5, html=False), embedder=HashEmbedder(), cache=cache)
    with sqlite3.connect(cache) as db:  # the right schema, a 2-byte vector and a 3-byte one
        keys = [k for (k,) in db.execute("SELECT key FROM kg_vectors ORDER BY key LIMIT 2")]
        db.execute("UPDATE kg_vectors SET vec = x'0000' WHERE key = ?", (keys[0],))
        db.execute("UPDATE kg_vectors SET vec = x'000000' WHERE key = ?", (keys[1],))
    second = build([corpus], tmp_path / "b", BuildOptions(top_n=5, html=False), embedder=HashEmbedder(), cache=cache)
    assert second.embedded["damaged"] == 2 and second.embedded["embedded"] == 2
    assert (tmp_path / "a" / "graph.json").read_bytes() == (tmp_path / "b" / "graph.json").read_bytes()
    assert first.embedded.get("damaged") is None


def test_control_characters_in_a_thesaurus_leave_every_figure_valid_svg(tmp_path):
    import base64
    import re
    import xml.etree.ElementTree as ET

    corpus = _jsonl(tmp_path / "papers.jsonl", PAPERS)
    thesaurus = tmp_path / "thesaurus.txt"
    thesaurus.write_text("label\treplace by\ngraph neural networks\tgraph\x01neural\x1b[31m net\x7fworks\x0c\n"
                         "implicit feedback\timplicit\x00 feedback\n", encoding="utf-8")
    out = tmp_path / "out"
    build([corpus], out, BuildOptions(top_n=5, thesaurus=str(thesaurus)), embedder=HashEmbedder())
    page = (out / "report.html").read_text(encoding="utf-8")
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", page)
    figures = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert len(figures) >= 4
    for data in figures:
        ET.fromstring(base64.b64decode(data))  # raises on an invalid character
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", (out / "report.json").read_text(encoding="utf-8"))


def test_an_error_line_cuts_a_huge_argument(folder):
    _, out = folder
    huge = "x" * 130_000
    result = runner.invoke(app, ["related", str(out), huge])
    text = _one_line_error(result, "characters cut")
    assert len(text) < 3000 and text.count("\n") == 1


def test_damaged_concept_vectors_are_said_to_be_damaged(folder):
    from kg.errors import GraphFileError
    from kg.search import search_build

    _, out = folder
    assert search_build(out, "graph neural networks", embedder=HashEmbedder())["concepts"]
    (out / "concept_vectors.npy").write_bytes(os.urandom(500))
    with pytest.raises(GraphFileError, match="concept_vectors.npy .*is damaged"):
        search_build(out, "graph neural networks", embedder=HashEmbedder())
