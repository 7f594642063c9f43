"""The README's first commands and its quickstart stay true, and its "From Python" runs as it stands: that
session is a doctest, run here on the example corpus with the real model."""

from __future__ import annotations

import doctest
import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EXAMPLE, HashEmbedder
from kg.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_first_lines_are_make_demo_and_make_test():
    block = re.search(r"```sh\n(.*?)```", README, re.S).group(1).splitlines()
    assert [line.split("#")[0].split() for line in block] == [["make", "demo"], ["make", "test"]]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo: \$\(STAMP\).*\n\t\$\(BIN\)/kg build examples/papers.jsonl --out out/example", makefile, re.M)
    assert re.search(r"^test: .*\n\t\$\(BIN\)/pytest", makefile, re.M)


def test_quickstart_commands_run(tmp_path):
    from kg.pipeline import BuildOptions, build

    quickstart = README.split("## Quickstart", 1)[1]
    block = re.search(r"```sh\n(.*?)```", quickstart, re.S).group(1)
    commands = [shlex.split(line.split("  #")[0]) for line in block.splitlines() if line.startswith("kg ")]
    assert commands[0][:2] == ["kg", "build"] and len(commands) >= 4
    out = tmp_path / "out" / "example"
    build([ROOT / commands[0][2]], out, BuildOptions(), embedder=HashEmbedder())  # kg build, without the model
    runner = CliRunner()
    for command in commands[1:]:
        args = [str(out) if a == "out/example" else str(tmp_path / a) if a.startswith("out/example/") else a
                for a in command[1:]]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (command, result.output)
    for line in block.splitlines():
        if line.startswith("open "):
            assert (out / Path(line.split()[1]).name).is_file(), line


def test_the_readme_sends_users_to_docs_that_exist():
    for name in re.findall(r"docs/[A-Z]+\.md", README):
        assert (ROOT / name).is_file(), name
    assert "../shared/data" not in README and "before (issue" not in README


def _from_python() -> str:
    readme = README
    section = readme.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    (session,) = re.findall(r"```pycon\n(.*?)```", section, flags=re.S)
    return session


def test_the_section_is_a_session_of_the_public_api():
    session = _from_python()
    for call in ("kg.build(", "kg.load(", "kg.update(", ".write(", ".to_pandas()", ".reanalyze(", "kg.KgError"):
        assert call in session


@pytest.mark.model
@pytest.mark.slow
def test_from_python_runs_as_the_readme_shows(tmp_path, monkeypatch):
    shutil.copy(EXAMPLE, tmp_path / "papers.jsonl")
    shutil.copy(ROOT / "tests" / "fixtures" / "ingest" / "sample.bib", tmp_path / "new.bib")
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(_from_python(), {}, "README.md: From Python", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert (tmp_path / "out" / "changelog.md").is_file() and (tmp_path / "concepts.html").is_file()
