"""The README's "From Python" runs as it stands: its session is a doctest, run here on the example corpus
with the real model."""

from __future__ import annotations

import doctest
import re
import shutil

import pytest

from conftest import EXAMPLE, ROOT


def _from_python() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
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
