"""Hostile and careless corpus text, generated into every input format and text field.

Each example writes a small corpus (four ordinary papers and one whose every text field
carries a generated hostile string: markup, control characters, lone surrogates, formula
prefixes, a right-to-left override, a huge field), runs the library build with a cheap
stand-in embedder, then ``kg report``, ``kg viz`` and ``kg related`` through the CLI, and
checks: errors are one ``Error:`` line with exit code 1, never a traceback; every output
parses back; no corpus string lands unescaped in report.md, report.html, graph.html or the
terminal; no CSV cell is a formula.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import tempfile
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import HashEmbedder
from kg.cli import app
from kg.errors import KgError
from kg.graphfile import graph_from_json
from kg.pipeline import BuildOptions, build

runner = CliRunner()

SCRIPT = "</script><script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"
MARKUP = (SCRIPT, IMG, "[click](javascript:alert(3))", "<!--", "]]>", "&amp;", "{{x}}", "${x}")
CONTROL = ("\x00", "\x01", "\x07", "\x1b[31m", "\x1b]0;title\x07", "\x7f", "\x85", "\x9b2J", "\r", "\t", "\x0c")
UNICODE = ("\ud800", "\udfff", "\u202e", "\u2066", "\u200f", "\ufeff", "\ufffe", "\u0301", "é", "数据")
FORMULA = ('=HYPERLINK("http://x?"&A1,"click")', "+1+2", "-2+3", "@SUM(A1:A2)", "=cmd|' /C calc'!A0")
SYNTAX = ('"', "'", ",", ";", "|", "*", "_", "`", "\\", "{", "}", "@article{", "ER  - ", "\n", "\n\n", "TY  - ")
WORDS = ("graph", "neural network", "Graph neural networks learn node embeddings.", "x", " ")
FRAGMENTS = MARKUP + CONTROL + UNICODE + FORMULA + SYNTAX + WORDS

hostile = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join),
    st.text(max_size=30),
    st.sampled_from(["H" * 100_001, "graph " * 20_001]),  # over the 100,000-character field limit
)

NORMAL = [
    ("Graph neural networks for citation graphs", "Ada Lovelace", "KDD",
     "Graph neural networks learn node representations by message passing on citation graphs."),
    ("Message passing on citation graphs", "Alan Turing", "KDD",
     "We study message passing in graph neural networks for node classification on citation graphs."),
    ("Collaborative filtering with implicit feedback", "Grace Hopper", "RecSys",
     "Collaborative filtering recommends items from implicit feedback with matrix factorization."),
    ("Implicit feedback for recommender systems", "Edsger Dijkstra", "RecSys",
     "Recommender systems trained on implicit feedback suffer from exposure bias in collaborative filtering."),
]


def _records(evil: str) -> list[dict]:
    rows = [{"id": f"p{i}", "title": t, "author": a, "venue": v, "abstract": ab, "keyword": "graphs"}
            for i, (t, a, v, ab) in enumerate(NORMAL, start=1)]
    rows.append({"id": "p5", "title": f"Hostile {evil} title", "author": f"Eve {evil}", "venue": f"{evil}Conf",
                 "abstract": f"Graph neural networks {evil} on citation graphs and implicit feedback.",
                 "keyword": evil})
    return rows


def _write(fmt: str, records: list[dict], folder: Path) -> Path:
    if fmt == "jsonl":
        text = "".join(json.dumps({"id": r["id"], "title": r["title"], "abstract": r["abstract"],
                                   "authors": [r["author"]], "venue": r["venue"], "year": 2020,
                                   "keyphrases": [r["keyword"]]}) + "\n" for r in records)
    elif fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["id", "title", "abstract", "authors", "venue", "year", "keyphrases"])
        writer.writerows([r["id"], r["title"], r["abstract"], r["author"], r["venue"], 2021, r["keyword"]]
                         for r in records)
        text = buffer.getvalue()
    elif fmt == "bibtex":
        text = "".join(f"@article{{{r['id']},\n  title = {{{r['title']}}},\n  author = {{{r['author']}}},\n"
                       f"  journal = {{{r['venue']}}},\n  year = {{2019}},\n  keywords = {{{r['keyword']}}},\n"
                       f"  abstract = {{{r['abstract']}}}\n}}\n\n" for r in records)
    elif fmt == "ris":
        text = "".join(f"TY  - JOUR\nTI  - {r['title']}\nAU  - {r['author']}\nJO  - {r['venue']}\nPY  - 2018\n"
                       f"KW  - {r['keyword']}\nAB  - {r['abstract']}\nER  - \n\n" for r in records)
    else:
        text = "".join(r["abstract"] + "\n\n" for r in records)
    path = folder / f"corpus.{ {'jsonl': 'jsonl', 'csv': 'csv', 'bibtex': 'bib', 'ris': 'ris'}.get(fmt, 'txt') }"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # lone surrogates as the invalid bytes they become
    return path


def _fragments(evil: str) -> list[str]:
    """Hostile pieces of ``evil`` that must never appear verbatim in a rendered output."""
    return [f for f in (SCRIPT, IMG, "<script>alert", "alert(1)</script>", "<img src") if f in evil]


def _assert_one_line_error_or_success(result) -> None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: the test fails with it
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 1:
        assert result.output.startswith("Error: ") and "Traceback" not in result.output


def _check_terminal(output: str) -> None:
    for raw in ("\x1b", "\u202e", "\x07", "\x9b", "\ud800"):
        assert raw not in output, (raw, output[:300])


def _check_outputs(out: Path, evil: str) -> None:
    graph = graph_from_json((out / "graph.json").read_bytes(), source="graph.json")
    assert graph.number_of_nodes() > 0
    json.loads((out / "report.json").read_text(encoding="utf-8"))
    for name in ("papers.csv", "concepts.csv", "mentions.csv"):
        with open(out / name, encoding="utf-8", newline="") as handle:
            for row in csv.reader(handle):
                for cell in row:
                    assert not re.match(r"[=+\-@\t\r]", cell) or _number(cell), (name, cell)
    nx.read_graphml(out / "graph.graphml")
    nx.read_gexf(out / "graph.gexf")
    for name in ("report.md", "report.html", "graph.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert "\u202e" not in text and "\ud800" not in text, name
        for fragment in _fragments(evil):
            assert fragment not in text, (name, fragment)
    assert "\x1b" not in (out / "report.md").read_text(encoding="utf-8")


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@settings(max_examples=15, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(["jsonl", "csv", "bibtex", "ris", "text"]), evil=hostile)
def test_hostile_text_in_every_format_and_field(fmt, evil):
    folder = Path(tempfile.mkdtemp(prefix="kg-hostile-"))
    try:
        corpus = _write(fmt, _records(evil), folder)
        out = folder / "out"
        try:
            result = build([corpus], out, BuildOptions(top_n=5), embedder=HashEmbedder())
        except KgError as exc:  # the CLI's Error: line (e.g. a lone surrogate's bytes in a text file)
            assert str(exc)
            return
        assert result.corpus.papers
        _check_outputs(out, evil)
        for args in (["report", str(out)], ["viz", str(out), "--top", "50"], ["related", str(out), "p5"],
                     ["related", str(out), result.corpus.papers[-1].id], ["concepts", str(out)]):
            cli = runner.invoke(app, args)
            _assert_one_line_error_or_success(cli)
            _check_terminal(cli.output)  # markup is plain text on a terminal; escape sequences are not
        _check_outputs(out, evil)  # as kg report and kg viz rewrote them
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "bibtex", "ris", "text"])
def test_every_fragment_at_once(tmp_path, fmt):
    """The deterministic worst case: every hostile fragment in every field of one paper (lone
    surrogates only in JSON, where they can be written; in a text file they are bytes that are
    not UTF-8, and the file is refused with their line)."""
    skip = {"\n\n", "ER  - ", "TY  - ", "@article{", "{", "}"} | ({"\ud800", "\udfff"} if fmt != "jsonl" else set())
    evil = "".join(f for f in FRAGMENTS if f not in skip)
    corpus = _write(fmt, _records(evil), tmp_path)
    result = build([corpus], tmp_path / "out", BuildOptions(top_n=5), embedder=HashEmbedder())
    assert len(result.corpus.papers) >= 4
    _check_outputs(tmp_path / "out", evil)
    for args in (["report", str(tmp_path / "out")], ["related", str(tmp_path / "out"), "Hostile"]):
        cli = runner.invoke(app, args)
        _assert_one_line_error_or_success(cli)
        _check_terminal(cli.output)


def test_a_lone_surrogate_in_a_text_file_is_refused_with_its_line(tmp_path):
    corpus = _write("csv", _records("\ud800"), tmp_path)
    with pytest.raises(KgError, match=r"corpus.csv:6: not UTF-8 \(byte 0xed"):
        build([corpus], tmp_path / "out", BuildOptions(top_n=5), embedder=HashEmbedder())
