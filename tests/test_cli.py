"""The CLI: help texts, exit codes, one-line errors, the build summary."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

from kg.cli import app

runner = CliRunner()


def _commands() -> list[str]:
    group = typer.main.get_command(app)
    return sorted(group.commands)


def test_root_help_lists_commands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "build" in result.output


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help(command):
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output
    group = typer.main.get_command(app)
    assert (group.commands[command].help or "").strip(), f"{command} has no help text"


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("kg ")


def test_missing_input_is_one_line_error(tmp_path):
    result = runner.invoke(app, ["build", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {tmp_path / 'nope.jsonl'}: no such file"
    assert "Traceback" not in result.output


def test_non_utf8_input_names_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"First abstract here.\n\nSecond \xff abstract.\n")
    result = runner.invoke(app, ["build", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert f"Error: {bad}:3: not UTF-8 (byte 0xff" in result.output


def test_strict_turns_skip_into_error(tmp_path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "a", "abstract": "Text about graphs."}\n{not json\n', encoding="utf-8")
    result = runner.invoke(app, ["build", str(corpus), "--strict", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert f"{corpus}:2: unparsable: invalid JSON" in result.output
    assert "(strict: stopped at the first of 1 record(s) skipped in all)" in result.output


@pytest.mark.model
def test_build_prints_summary_with_skips(tmp_path):
    corpus = tmp_path / "c.jsonl"
    lines = [
        {"id": "a", "title": "Graph neural networks", "abstract": "Graph neural networks learn on graphs."},
        {"id": "b", "abstract": ""},
        {"id": "a", "abstract": "A duplicate id."},
    ]
    corpus.write_text("\n".join(json.dumps(x) for x in lines) + "\n{broken\n", encoding="utf-8")
    result = runner.invoke(app, ["build", str(corpus), "--out", str(tmp_path / "o"), "--no-html", "--verbose"])
    assert result.exit_code == 0, result.output
    assert "papers: 1 read, 3 skipped (1 duplicate, 1 empty, 1 unparsable)" in result.output
    assert f"skipped {corpus}:2: empty: no abstract" in result.output
    assert f"skipped {corpus}:3: duplicate: same id 'a' as {corpus}:1" in result.output
    assert (tmp_path / "o" / "graph.json").exists()
    # with --verbose a line per stage with its time and memory, also when stderr is no terminal
    stages = re.findall(r"^kg: stage (.+?): [\d.]+ s wall, [\d.]+ s CPU, RSS \d+ MB, peak \d+ MB$",
                        result.output, flags=re.M)
    assert stages[0] == "ingest" and stages[-1] == "commit"
    assert {"documents and candidates", "phrases", "normalize", "graph", "analyze", "write graph.json"} <= set(stages)


ESCAPES = ("\x1b", "\u202e", "\x07", "\x9b")


@pytest.fixture
def hostile_build(tmp_path):
    """graph.json of four papers whose titles and keyphrases carry terminal escapes."""
    from kg.graph import build_graph
    from kg.graphfile import graph_to_json
    from kg.models import Keyphrase, Paper
    from kg.normalize import normalize_concepts

    evil = "\x1b[31mred\x1b]0;pwned\x07 \u202egnp\x9b2J"
    papers = [Paper(id=f"p{i}", title=f"{evil} paper {i}", abstract=f"Graph neural networks, part {i}.",
                    keyphrases=(f"{evil} graph", "graph neural network", f"shared {i % 2}"))
              for i in range(4)]
    found = {p.id: [Keyphrase(k, 1 / (1 + r)) for r, k in enumerate(p.keyphrases)] for p in papers}
    graph = build_graph(papers, *normalize_concepts(papers, found), metadata={"parameters": '{"seed": 42}'})
    assert all("\x1b" in graph.nodes[p.id]["title"] for p in papers)
    (tmp_path / "graph.json").write_text(graph_to_json(graph), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args", [["related", "{dir}", "p0"], ["related", "{dir}", "p0", "--json"],
                                  ["concepts", "{dir}"], ["concepts", "{dir}", "--json"],
                                  ["concepts", "{dir}", "--community", "0"], ["related", "{dir}", "paper"]])
def test_corpus_text_reaches_the_terminal_without_escapes(hostile_build, args):
    result = runner.invoke(app, [a.format(dir=hostile_build) for a in args])
    assert result.exit_code in (0, 1), result.output
    assert "red" in result.output
    for raw in ESCAPES:
        assert raw not in result.output, (raw, result.output)


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"id": "a", "title": "Graphs", "abstract": "Graph neural networks learn on graphs."}\n',
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("args, message", [
    (["--resolution", "nan"], "Error: --resolution: must be a finite number, not nan"),
    (["--resolution", "inf"], "Error: --resolution: must be a finite number, not inf"),
    (["--resolution", "-5"], "Error: --resolution: must be > 0 and <= 1e+06, not -5.0"),
    (["--seed", "-1"], "Error: --seed: must be between 0 and 4294967295, not -1"),
    (["--format", "pdf"], "Error: --format: unknown format 'pdf'"),
    (["--map", "color=Colour"], "Error: --map: color=Colour: unknown field 'color'; fields are id, title"),
])
def test_build_refuses_bad_options_before_reading_anything(tmp_path, corpus, args, message):
    out = tmp_path / "o"
    result = runner.invoke(app, ["build", str(corpus), "--out", str(out), *args])
    assert result.exit_code == 1
    assert result.output.startswith(message), result.output
    assert not out.exists()  # refused before the output folder (or the model) was touched


def test_build_refuses_an_out_that_is_a_file_or_unwritable(tmp_path, corpus):
    existing = tmp_path / "file"
    existing.write_text("keep me", encoding="utf-8")
    result = runner.invoke(app, ["build", str(corpus), "--out", str(existing), "--no-cache"])
    assert result.exit_code == 1 and result.output == f"Error: {existing}: is a file, not a folder; give --out a folder\n"
    result = runner.invoke(app, ["build", str(corpus), "--out", str(existing / "sub")])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {existing / 'sub'}: cannot write into this folder (")
    assert existing.read_text(encoding="utf-8") == "keep me"


@pytest.fixture
def built_graph(tmp_path):
    """A kg output folder with a graph.json (the example corpus, its own keyphrases as concepts)."""
    from conftest import EXAMPLE
    from kg.graph import build_graph
    from kg.graphfile import graph_to_json
    from kg.ingest import load_corpus
    from kg.models import Keyphrase
    from kg.normalize import normalize_concepts

    papers = load_corpus([str(EXAMPLE)]).papers[:8]
    found = {p.id: [Keyphrase(k, 1 / (1 + i)) for i, k in enumerate(p.keyphrases)] for p in papers}
    graph = build_graph(papers, *normalize_concepts(papers, found), metadata={"parameters": '{"seed": 42}'})
    folder = tmp_path / "built"
    folder.mkdir()
    (folder / "graph.json").write_text(graph_to_json(graph), encoding="utf-8")
    return folder


def test_report_and_viz_refuse_an_out_of_the_wrong_kind(built_graph, tmp_path):
    a_file = tmp_path / "report.txt"
    a_file.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["report", str(built_graph), "--out", str(a_file)])
    assert result.exit_code == 1 and result.output.startswith(f"Error: {a_file}: is a file, not a folder")
    result = runner.invoke(app, ["viz", str(built_graph), "--out", str(tmp_path)])
    assert result.exit_code == 1 and result.output.startswith(f"Error: {tmp_path}: is a folder; give --out a file")
    result = runner.invoke(app, ["viz", str(built_graph), "--out", str(a_file / "g.html")])
    assert result.exit_code == 1 and result.output.startswith(f"Error: {a_file}: is a file, not a folder")


@pytest.mark.parametrize("command", ["report", "concepts"])
@pytest.mark.parametrize("value", ["nan", "inf", "-5", "0", "1e308"])
def test_analysis_commands_refuse_a_bad_resolution(built_graph, command, value):
    result = runner.invoke(app, [command, str(built_graph), "--resolution", value])
    assert result.exit_code == 1
    assert result.output.startswith("Error: --resolution: must be a number > 0 and <= 1e+06"), result.output
