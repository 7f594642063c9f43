"""The README's first commands and its quickstart stay true."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from conftest import HashEmbedder
from kg.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_first_lines_are_make_demo_and_make_test():
    block = re.search(r"```sh\n(.*?)```", README, re.S).group(1).splitlines()
    assert [line.split("#")[0].split() for line in block] == [["make", "demo"], ["make", "test"]]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "demo: $(STAMP)\n\t$(BIN)/kg build examples/papers.jsonl --out out/example" in makefile
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
