"""What a new user meets on the command line: help that shows extras and examples, specific
errors, exact titles as --focus, the Neo4j note only after a push, default evolution slices,
the query library by name, and progress that fits a terminal or a log (a pseudo-terminal here)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import termios
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kg.cli import app
from kg.export.files import write_graph_files
from kg.graph import build_graph
from kg.ingest import load_corpus
from kg.models import Concept, Keyphrase, Mention, Paper
from kg.normalize import normalize_concepts

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "papers.jsonl"
runner = CliRunner()


def _help(*args: str) -> str:
    """``kg ARGS --help`` with the lines joined (help text wraps to the terminal's width)."""
    result = runner.invoke(app, [*args, "--help"], prog_name="kg")
    assert result.exit_code == 0, result.output
    return result.output


def _commands() -> list[str]:
    return sorted(typer.main.get_command(app).commands)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    papers = load_corpus([str(EXAMPLE)]).papers
    found = {p.id: [Keyphrase(k, round(1 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)] for p in papers}
    graph = build_graph(papers, *normalize_concepts(papers, found), metadata={"parameters": '{"seed": 42}'})
    folder = tmp_path_factory.mktemp("built")
    write_graph_files(graph, folder)
    return folder


# --- help --------------------------------------------------------------------------------------


def test_help_shows_extras_with_their_brackets_and_completion():
    root = " ".join(_help().split())
    assert "pip install 'kg[NAME]'" in root and "kg[gds] for kg report --engine gds" in root
    assert "--install-completion" in root
    assert "pip install 'kg[gds]'" in " ".join(_help("report").split())


@pytest.mark.parametrize("command", _commands())
def test_usage_lines_and_flags_read_plainly(command):
    output = _help(command)
    assert "<bool>" not in output
    usage = output.splitlines()[0]
    assert usage.startswith(f"Usage: kg {command} [OPTIONS]") and "{" not in usage, usage


def test_usage_names_arguments_as_click_does():
    assert _help("report").startswith("Usage: kg report [OPTIONS] DIRECTORY\n")
    assert _help("build").startswith("Usage: kg build [OPTIONS] INPUTS...\n")
    assert _help("query").startswith("Usage: kg query [OPTIONS] [QUERY]\n")
    assert "Examples:\n    kg build examples/papers.jsonl --out out/example\n" in _help("build")


# --- specific errors ---------------------------------------------------------------------------


def test_a_format_that_does_not_fit_the_file_is_named(tmp_path):
    result = runner.invoke(app, ["build", str(EXAMPLE), "--format", "bibtex", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: {EXAMPLE}: no paper read as bibtex (format='bibtex'); the file looks "
                                     "like jsonl: read it as jsonl, or let kg find the format (format='auto')")


def test_report_on_a_corpus_file_asks_for_a_build_folder():
    result = runner.invoke(app, ["report", str(EXAMPLE)])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {EXAMPLE}: expected a kg build folder")
    assert f"kg build {EXAMPLE} --out DIR" in result.output and "not even JSON" not in result.output


def test_neo4j_note_only_after_a_push(built):
    from kg.export.push_record import PUSH_RECORD, record_push

    (built / PUSH_RECORD).unlink(missing_ok=True)
    result = runner.invoke(app, ["report", str(built)])
    assert result.exit_code == 0, result.output
    assert "Neo4j" not in result.output
    record_push(built, uri="bolt://neo4j:secret@db.example:7687", database="papers")
    result = runner.invoke(app, ["report", str(built)])
    assert result.exit_code == 0, result.output
    assert "the Neo4j copy of this graph (bolt://***@db.example:7687, pushed " in result.output
    assert "secret" not in result.output
    (built / PUSH_RECORD).unlink()


def test_focus_accepts_an_exact_title_that_is_also_a_concept(tmp_path):
    from kg.export.html_view import find_node, graph_view

    papers = [Paper("ncf", "We model user item interactions.", "Neural Collaborative Filtering", year=2017),
              Paper("p2", "Neural collaborative filtering for items.", "Item models", year=2018)]
    concepts = {"c:neural collaborative filtering": Concept("c:neural collaborative filtering",
                                                            "neural collaborative filtering"),
                "c:item": Concept("c:item", "item")}
    mentions = [Mention(p.id, c, 0.9, 1, concepts[c].name) for p in papers for c in concepts]
    graph = build_graph(papers, concepts, mentions)
    view = graph_view(graph)
    assert find_node(view, graph, "Neural Collaborative Filtering") == "ncf"  # as written: the title
    assert find_node(view, graph, "neural collaborative filtering") == "c:neural collaborative filtering"
    assert find_node(view, graph, "NEURAL COLLABORATIVE FILTERING") == "ncf"  # any case: the paper
    write_graph_files(graph, tmp_path)
    result = runner.invoke(app, ["viz", str(tmp_path), "--focus", "Neural Collaborative Filtering",
                                 "--out", str(tmp_path / "f.html")])
    assert result.exit_code == 0, result.output


def test_evolution_without_slices_picks_three_and_says_which(built):
    result = runner.invoke(app, ["evolution", str(built), "--json"])
    assert result.exit_code == 0, result.output
    line = next(l for l in result.output.splitlines() if l.startswith("no --slices or --equal given"))
    spans = re.findall(r"(\d{4})–(\d{4}) \((\d+) papers\)", line)
    assert len(spans) == 3 and sum(int(n) for *_, n in spans) == 32
    assert int(spans[0][1]) < int(spans[1][0]) and int(spans[1][1]) < int(spans[2][0])
    both = runner.invoke(app, ["evolution", str(built), "--slices", "2018", "--equal", "2"])
    assert both.exit_code == 1 and "not both" in both.output


# --- the query library -------------------------------------------------------------------------


def test_query_library_is_listed_and_found_by_name_from_anywhere(tmp_path, monkeypatch):
    from kg.export.cypher import library_query, query_library
    from kg.errors import Neo4jError

    monkeypatch.chdir(tmp_path)  # not the checkout: the files ship inside the package
    result = runner.invoke(app, ["query", "--list"])
    assert result.exit_code == 0, result.output
    names = [line.split(":")[0] for line in result.output.splitlines()]
    assert names == sorted(query_library()) and "top_concepts" in names and "similar_papers" in names
    assert "top_concepts: Top concepts: the concepts mentioned by the most papers" in result.output
    assert "[params: limit=20]" in result.output
    assert library_query("top_concepts").text.startswith("MATCH (c:Concept)")
    assert library_query("top_concepts.cypher").path == library_query("top_concepts").path
    with pytest.raises(Neo4jError, match="no query named 'top_concept' in kg's query library; there are: "):
        library_query("top_concept")
    result = runner.invoke(app, ["query", "top_concept"])
    assert result.exit_code == 1 and "there are: " in result.output and "top_concepts" in result.output


# --- progress ----------------------------------------------------------------------------------


def _run(args: list[str], *, terminal: bool, cwd: Path) -> tuple[int, str, str]:
    """``kg ARGS`` in a fresh Python, stderr on a pseudo-terminal (or a pipe); (code, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    env.pop("KG_PROGRESS", None)
    command = [sys.executable, "-m", "kg.cli", *args]
    if not terminal:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))  # a terminal of 120 columns
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=follower,
                               stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif process.poll() is not None:
            break
    out = process.stdout.read().decode()
    process.wait(timeout=600)
    os.close(leader)
    return process.returncode, out, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.model
def test_progress_bars_on_a_terminal_stage_lines_in_a_log_quiet_and_verbose(tmp_path):
    small = tmp_path / "small.jsonl"  # 8 papers of the example: four real builds stay short
    small.write_text("".join(EXAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)[:8]), encoding="utf-8")
    code, out, err = _run(["build", str(small), "--out", str(tmp_path / "t"), "--no-html"], terminal=True,
                          cwd=tmp_path)
    assert code == 0, err
    assert "\r" in err  # live bars redrawn in place
    assert re.search(r"kg: embedding abstracts: +0%\|", err), err  # a bar as soon as the stage starts
    assert re.search(r"kg: embedding phrases: +\d+%\|.*\d+/\d+ \[\d\d:\d\d<", err), err  # count, elapsed<ETA
    assert re.search(r"kg: \d+ stages done, last normalize \([\d.]+ s\); \d+ s so far", err), err
    assert re.search(r"kg: done in [\d.]+ s \(slowest: .+ [\d.]+ s", err), err  # one summary at the end
    assert "RSS" not in err and "CPU" not in err  # timing lines only with --verbose
    assert "papers: 8 read" in out

    code, out, err = _run(["build", str(small), "--out", str(tmp_path / "l"), "--no-html"], terminal=False,
                          cwd=tmp_path)
    assert code == 0, err
    lines = err.splitlines()
    assert "\r" not in err and "done in" not in err
    assert lines[0].startswith("kg: ingest: ") and lines[-1].startswith("kg: commit: ")
    assert all(re.fullmatch(r"kg: [^:]+: [\d.]+ s", line) for line in lines), lines
    assert "papers: 8 read" in out

    code, out, err = _run(["build", str(small), "--out", str(tmp_path / "q"), "--no-html", "-q"], terminal=True,
                          cwd=tmp_path)
    assert (code, out, err) == (0, "", "")

    code, out, err = _run(["build", str(small), "--out", str(tmp_path / "v"), "--no-html", "-v"], terminal=False,
                          cwd=tmp_path)
    assert code == 0
    assert re.search(r"^kg: stage normalize: [\d.]+ s wall, [\d.]+ s CPU, RSS \d+ MB, peak \d+ MB$", err, re.M)
    assert runner.invoke(app, ["build", str(EXAMPLE), "-q", "-v"]).output.strip() == \
        "Error: choose one of --quiet and --verbose"
