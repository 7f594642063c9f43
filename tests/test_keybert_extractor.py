"""extractor="keybert": the KeyBERT package's own ranking over kg's candidates and embeddings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import kg
import kg.defaults
from kg.cli import app
from kg.errors import OptionError
from kg.extract import document_text, extract, paper_candidates
from kg.extract.keybert_extractor import keybert_form
from kg.models import Keyphrase, Paper

PAPERS = [
    Paper("p1", "Graph neural networks (GNNs) learn node representations by message passing over graphs; "
                "we study over-smoothing in deep GNNs and propose residual message passing.",
          "Residual message passing for deep graph neural networks"),
    Paper("p2", "Federated learning trains a shared model across clients without moving their data; "
                "Byzantine clients can poison the global model, so we propose robust aggregation rules.",
          "Robust aggregation for federated learning"),
    Paper("p3", "x", ""),  # no candidate at all
]


def _keybert_direct(model, paper, top_n, diversity, **embeddings):
    """What KeyBERT answers when called by hand with kg's candidates of ``paper``."""
    forms = list(dict.fromkeys(f for f in (keybert_form(c.phrase) for c in paper_candidates(paper)) if f))
    longest = max(len(f.split()) for f in forms)
    return model.extract_keywords(document_text(paper), candidates=forms, keyphrase_ngram_range=(1, longest),
                                  stop_words=None, top_n=top_n, use_mmr=diversity > 0, diversity=diversity,
                                  **embeddings)


@pytest.mark.parametrize("diversity", [0.0, 0.3])
def test_keybert_ranking_is_what_comes_back(hash_embedder, diversity):
    from keybert import KeyBERT

    from kg.extract.keybert_extractor import _backend

    found = extract(PAPERS, hash_embedder, top_n=5, diversity=diversity, extractor="keybert").keyphrases
    direct = KeyBERT(model=_backend(hash_embedder))  # KeyBERT embeds everything itself here
    for paper in PAPERS[:2]:
        want = _keybert_direct(direct, paper, 5, diversity)
        got = found[paper.id]
        assert all(isinstance(k, Keyphrase) for k in got)
        assert [keybert_form(k.phrase) for k in got] == [w for w, _ in want]
        assert [k.score for k in got] == pytest.approx([s for _, s in want], abs=2e-3)  # float16 phrase rows
    assert found["p3"] == []


def test_surface_forms_and_depth(hash_embedder):
    shallow = extract(PAPERS[:1], hash_embedder, top_n=3, extractor="keybert").keyphrases["p1"]
    deep = extract(PAPERS[:1], hash_embedder, top_n=3, depth=8, extractor="keybert").keyphrases["p1"]
    assert deep[:3] == shallow  # KeyBERT's answer for top_n comes first at any depth
    assert len(deep) > 3 and len({k.phrase for k in deep}) == len(deep)
    surfaces = {c.phrase for c in paper_candidates(PAPERS[0])}
    assert {k.phrase for k in deep} <= surfaces  # kg's surface forms ("GNNs"), not KeyBERT's lowercase


def test_unknown_extractor_is_an_option_error(hash_embedder):
    with pytest.raises(OptionError) as info:
        extract(PAPERS, hash_embedder, extractor="yake")
    assert info.value.argument == "extractor"
    with pytest.raises(OptionError):
        kg.build(PAPERS[:2], embedder=hash_embedder, extractor="yake")


def test_api_build_with_keybert(hash_embedder):
    result = kg.build(PAPERS[:2], embedder=hash_embedder, extractor="keybert", top_n=3)
    assert result.graph.graph["extractor"].startswith("keybert ")
    assert json.loads(result.graph.graph["parameters"])["extractor"] == "keybert"


def test_cli_refuses_kg_bonuses_with_keybert(tmp_path):
    corpus = tmp_path / "papers.jsonl"
    corpus.write_text("".join(json.dumps({"id": p.id, "title": p.title, "abstract": p.abstract}) + "\n"
                              for p in PAPERS[:2]))
    result = CliRunner().invoke(app, ["extract", str(corpus), "--out", str(tmp_path / "k.jsonl"),
                                      "--extractor", "keybert", "--position-weight", "0.2"])
    assert result.exit_code == 1
    assert "--position-weight: applies to --extractor kg only" in result.output


@pytest.mark.model
@pytest.mark.slow
def test_real_model_matches_keybert_on_seeds(seeds):
    """The packaged MiniLM at full precision and window, as KeyBERT would run it: same phrases, same scores."""
    from keybert import KeyBERT
    from sentence_transformers import SentenceTransformer

    from kg.extract.embedder import default_model_path, load_embedder
    from kg.ingest import load_corpus

    papers = load_corpus([str(p) for p in seeds[:2]]).papers[:4]
    embedder = load_embedder(precision="fp32", window=None, device="cpu")
    found = extract(papers, embedder, top_n=5, extractor="keybert").keyphrases
    direct = KeyBERT(model=SentenceTransformer(str(default_model_path()), device="cpu"))
    for paper in papers:
        want = _keybert_direct(direct, paper, 5, 0.3)
        assert [keybert_form(k.phrase) for k in found[paper.id]] == [w for w, _ in want]
        assert [k.score for k in found[paper.id]] == pytest.approx([s for _, s in want], abs=2e-3)


@pytest.mark.model
@pytest.mark.slow
def test_cli_extract_keybert_with_a_model_folder(seeds, tmp_path):
    from kg.extract.embedder import default_model_path

    out = tmp_path / "keyphrases.jsonl"
    result = CliRunner().invoke(app, ["extract", str(seeds[0]), "--out", str(out), "--extractor", "keybert",
                                      "--model", str(default_model_path()), "--top-n", "5"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(1 <= len(r["keyphrases"]) <= 5 for r in rows)
    scores = [k["score"] for r in rows for k in r["keyphrases"]]
    assert all(0 < s <= 1 for s in scores)


def test_build_flags_reach_the_build_options(tmp_path, monkeypatch):
    import kg.pipeline

    seen = {}

    def fake_build(inputs, out, options, **kwargs):
        seen["options"] = options
        raise SystemExit(0)

    monkeypatch.setattr(kg.pipeline, "build", fake_build)
    corpus = tmp_path / "papers.jsonl"
    corpus.write_text(json.dumps({"id": "a", "title": "T", "abstract": "Graphs."}) + "\n")
    result = CliRunner().invoke(app, ["build", str(corpus), "--out", str(tmp_path / "o"), "--no-cache",
                                      "--link-depth", "30", "--min-shared", "1", "--min-cooccurrence", "3",
                                      "--related-top-k", "7", "--extractor", "keybert"])
    assert result.exit_code == 0, result.output
    options = seen["options"]
    assert (options.link_depth, options.min_shared, options.min_cooccurrence, options.related_top_k,
            options.extractor) == (30, 1, 3, 7, "keybert")
    assert options.seed == kg.defaults.SEED
