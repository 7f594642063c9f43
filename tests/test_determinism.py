"""Determinism across processes: two builds of one corpus in separate interpreters, with
different hash seeds (so set and dict orders that depend on ``hash()`` differ), write the same
bytes into every output file. Runs in one process cannot catch that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLE

TESTS = Path(__file__).resolve().parent
_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from conftest import HashEmbedder
from kg.pipeline import BuildOptions, build
build([{corpus!r}], sys.argv[1], BuildOptions(write_thesaurus=True), embedder=HashEmbedder())
"""


def _build(folder: Path, hash_seed: str) -> None:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    script = _SCRIPT.format(tests=str(TESTS), corpus=str(EXAMPLE))
    done = subprocess.run([sys.executable, "-c", script, str(folder)], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_builds_in_two_processes_with_different_hash_seeds_write_identical_bytes(tmp_path):
    _build(tmp_path / "a", "1")
    _build(tmp_path / "b", "2")
    names = sorted(p.name for p in (tmp_path / "a").iterdir() if p.is_file())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir() if p.is_file())
    assert {"graph.json", "analysis.json", "report.md", "report.json", "graph.html", "graph.graphml",
            "papers.csv", "thesaurus.txt"} <= set(names)
    differ = [n for n in names if (tmp_path / "a" / n).read_bytes() != (tmp_path / "b" / n).read_bytes()]
    assert not differ, f"differ between processes: {differ}"


def test_how_texts_write_a_phrase_or_a_word_after_a_name_does_not_depend_on_the_order_they_come_in():
    from kg.normalize.names import cases_after_names, phrase_cases

    # "Spacetimes" is the plural of the phrase "vaidya spacetime" and the phrase "vaidya spacetimes" itself: the
    # count goes to the phrase written so, whichever comes first (a set's order changes with the hash seed)
    texts = ["Collapse and the Vaidya Spacetimes; a Vaidya spacetime."]
    phrases = [("vaidya", "spacetime"), ("vaidya", "spacetimes")]
    assert phrase_cases(texts, phrases) == phrase_cases(texts, phrases[::-1]) == {
        ("vaidya", "spacetimes"): (1, 0, 0), ("vaidya", "spacetime"): (0, 0, 1)}
    texts = ["The Vaidya spacetimes of Penrose, and a Vaidya spacetime."]
    words = ["spacetime", "spacetimes"]
    assert cases_after_names(texts, words) == cases_after_names(texts, words[::-1]) == {
        "spacetimes": (1, 0), "spacetime": (1, 0)}
