"""A build replaces its output folder as a whole: old build or new build, never a mix, nothing stray."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kg.export.staging import KG_OUTPUTS, OutputFolderError, StagedFolder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "papers.jsonl"


def _stage(target: Path, files: dict[str, str]) -> None:
    staged = StagedFolder(target)
    for name, text in files.items():
        Path(staged.path(name)).write_text(text, encoding="utf-8")
    staged.commit()


def test_commit_replaces_kg_outputs_and_keeps_everything_else(tmp_path):
    out = tmp_path / "out"
    (out / ".kg-cache").mkdir(parents=True)
    (out / ".kg-cache" / "embeddings.sqlite").write_text("cache")
    (out / "notes.txt").write_text("mine")
    (out / "graph.json").write_text("old")
    (out / "thesaurus.txt").write_text("old merges")  # a kg output this build does not write
    _stage(out, {"graph.json": "new", "report.md": "new report"})
    assert sorted(os.listdir(out)) == [".kg-cache", "graph.json", "notes.txt", "report.md"]
    assert (out / "graph.json").read_text() == "new"
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / ".kg-cache" / "embeddings.sqlite").read_text() == "cache"
    assert sorted(os.listdir(tmp_path)) == ["out"]


def test_a_file_as_target_or_an_unwritable_parent_is_refused_at_once(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputFolderError, match="is a file"):
        StagedFolder(tmp_path / "file")
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        with pytest.raises(OutputFolderError, match="cannot write"):
            StagedFolder(locked / "out")


def test_abort_leaves_the_target_untouched(tmp_path):
    out = tmp_path / "out"
    _stage(out, {"graph.json": "old"})
    staged = StagedFolder(out)
    Path(staged.path("graph.json")).write_text("half")
    staged.abort()
    assert (out / "graph.json").read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["out"]


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_killed_builds_staging_folder_is_removed_and_user_files_carried_back(tmp_path):
    out = tmp_path / "out"
    _stage(out, {"graph.json": "new"})
    # a build killed between the exchange and carrying entries back: the old folder,
    # holding the user's file and the cache, sits under a staging name
    stale = tmp_path / f".out.kg-staging-{_dead_pid()}-abcd"
    (stale / ".kg-cache").mkdir(parents=True)
    (stale / ".kg-cache" / "embeddings.sqlite").write_text("cache")
    (stale / "notes.txt").write_text("mine")
    (stale / "graph.json").write_text("old")
    StagedFolder(out).abort()  # any later build of the folder recovers first
    assert sorted(os.listdir(tmp_path)) == ["out"]
    assert sorted(os.listdir(out)) == [".kg-cache", "graph.json", "notes.txt"]
    assert (out / "graph.json").read_text() == "new"


_BUILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    from conftest import HashEmbedder
    from kg.pipeline import BuildOptions, build

    def on_stage(stage):
        print(stage.name, flush=True)

    build([{corpus!r}], {out!r}, BuildOptions(seed={seed}), embedder=HashEmbedder(), on_stage=on_stage)
    print("done", flush=True)
""")


def _consistent(out: Path) -> str:
    """The seed of the complete build in ``out`` (every file present, all from one build)."""
    names = {"graph.json", "graph.graphml", "graph.gexf", "papers.csv", "concepts.csv", "mentions.csv",
             "report.md", "report.html", "report.json", "graph.html", "paper_vectors.npy", "paper_vectors.json"}
    present = {p.name for p in out.iterdir()} & KG_OUTPUTS
    assert names <= present, f"missing {names - present}"
    graph = json.loads((out / "graph.json").read_text(encoding="utf-8"))
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    seed = json.loads(graph["graph"]["parameters"])["seed"]
    assert report["parameters"]["seed"] == seed, "graph.json and report.json come from different builds"
    return str(seed)


@pytest.mark.slow
def test_killing_a_build_in_its_write_phase_leaves_the_old_or_the_new_build(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    script = _BUILD.format(tests=str(Path(__file__).parent), corpus=str(EXAMPLE), out=str(out), seed=1)
    subprocess.run([sys.executable, "-c", script], check=True, env=env, capture_output=True)
    assert _consistent(out) == "1"
    rng = random.Random(7)
    # kill right after a random stage of the write phase (and a random instant more)
    stages = ["analyze", "write graph.json", "write graph.graphml", "write graph.gexf", "write papers.csv",
              "write mentions.csv", "write paper_vectors.npy", "write report", "write graph.html", "commit"]
    seen = set()
    for attempt, target in enumerate(rng.sample(stages, len(stages))):
        seed = 2 + attempt
        script = _BUILD.format(tests=str(Path(__file__).parent), corpus=str(EXAMPLE), out=str(out), seed=seed)
        process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env, text=True)
        for line in process.stdout:
            if line.strip() == target:
                break
        time.sleep(rng.uniform(0, 0.05))
        process.send_signal(signal.SIGKILL)
        process.wait()
        seen.add(_consistent(out))
        assert not [p for p in os.listdir(out) if p.endswith(".tmp")]
    # a later build removes whatever the killed ones left beside the folder
    StagedFolder(out).abort()
    assert sorted(os.listdir(tmp_path)) == ["out"]
    assert len(seen) >= 2, f"every kill landed on the same side ({seen}); the test did not probe the write phase"
