"""The learned concept filter (kg.normalize.quality): what it drops, what it never drops, where it applies."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources

import numpy as np
import pytest

from kg.extract.embedder import DEFAULT_MODEL
from kg.models import Keyphrase, Paper
from kg.normalize import normalize_concepts
from kg.normalize.quality import (HAND_FEATURES, NO_CORPUS, QualityModel, Trees, context_features, corpus_features,
                                  keep_each, keep_mentions, load_quality_model, name_features, rank_features)


def test_the_packaged_weights_fit_the_model_they_were_trained_for():
    data = json.loads(resources.files("kg.resources").joinpath("concept_quality.json").read_text("utf-8"))
    model = load_quality_model(DEFAULT_MODEL)
    assert model is not None and model.model == DEFAULT_MODEL
    assert model.trees is not None and len(data["features"]) == 384 + len(HAND_FEATURES)
    assert 0 <= model.trees.feature.min() and model.trees.feature.max() < len(data["features"])
    assert data["features"][-len(HAND_FEATURES):] == list(HAND_FEATURES)
    assert data["labels"] >= 3000 and 0 < model.threshold < 1 and model.protect >= 1
    # the record of the held-out check travels with the weights
    assert data["cross_validation"]["held_out_sample"]["auc"] > 0.65
    assert load_quality_model("some-other-model") is None  # weights belong to one embedding space


def test_a_bare_field_word_scores_below_a_specific_term(real_embedder):
    model = load_quality_model(DEFAULT_MODEL)
    names = ["information processing", "major problem", "Calabi-Yau manifold", "collaborative filtering"]
    vectors = np.asarray(real_embedder.embed(names))
    hand = np.array([name_features(n) + rank_features(5, 8) + [0.5] + list(NO_CORPUS) for n in names])
    vague, vague2, specific, specific2 = model.chance(vectors, hand)
    assert max(vague, vague2) < min(specific, specific2)
    assert vague < model.threshold < specific


def test_the_first_mentions_and_thesaurus_terms_always_stay_and_a_paper_keeps_one_more():
    q = QualityModel(np.zeros(2 + len(HAND_FEATURES)), np.ones(2 + len(HAND_FEATURES)),
                     np.r_[-5.0, 0.0, np.zeros(len(HAND_FEATURES))], 0.0, 0.5, 2, "m")
    bad = np.array([1.0, 0.0])  # the model's chance for it is ~0.007
    worse = np.array([2.0, 0.0])
    ranked = [(f"n{i}", f"c:{i}") for i in range(5)]
    # two protected, and the likeliest of the rest so that three stay
    assert keep_mentions(ranked, q, lambda n, c: worse if c != "c:4" else bad) == [True, True, False, False, True]
    assert keep_mentions(ranked, q, lambda n, c: bad, keep=lambda c: c == "c:3") == [True, True, False, True, False]
    assert keep_mentions(ranked, q, lambda n, c: None) == [True] * 5  # no vector: nothing to judge by


def _papers(n):
    return [Paper(id=f"p{i}", title=f"Paper {i}", abstract="graph neural network for road traffic") for i in range(n)]


def test_normalize_drops_judged_mentions_renumbers_ranks_and_forgets_orphans():
    papers = _papers(3)
    phrases = ["graph neural network", "road traffic", "traffic forecasting", "major problem", "data set size"]
    keyphrases = {p.id: [Keyphrase(x, round(0.9 - j / 20, 3)) for j, x in enumerate(phrases)] for p in papers}
    vectors = {x: np.eye(8)[j] for j, x in enumerate(phrases)}
    d = 8 + len(HAND_FEATURES)
    coef = np.zeros(d)
    coef[3] = -10.0  # "major problem" only
    q = QualityModel(np.zeros(d), np.ones(d), coef, 3.0, 0.5, 1, "m")
    concepts, mentions = normalize_concepts(papers, keyphrases, vectors=vectors, quality=q, stoplist=(),
                                            contain=False)
    without, all_mentions = normalize_concepts(papers, keyphrases, vectors=vectors, stoplist=(), contain=False)
    assert "c:major problem" in without and "c:major problem" not in concepts
    assert len(all_mentions) - len(mentions) == 3
    for p in papers:
        ranks = [m.rank for m in mentions if m.paper_id == p.id]
        assert ranks == list(range(1, len(ranks) + 1))
    # the thesaurus keeps what its user asked for
    asked, _ = normalize_concepts(papers, keyphrases, vectors=vectors, quality=q, stoplist=(), contain=False,
                                  thesaurus={"major problem": "major problem"})
    assert "c:major problem" in asked


@pytest.mark.parametrize("name, words, digit, upper", [("SU(2) gauge theory", 3, 1.0, 1.0), ("entropy", 1, 0.0, 0.0)])
def test_name_features_read_the_shape(name, words, digit, upper):
    f = dict(zip(HAND_FEATURES, name_features(name)))
    assert (f["words"], f["has_digit"], f["upper_word"]) == (words, digit, upper)


def test_a_mention_close_to_a_higher_one_reads_as_a_restatement():
    d = 2 + len(HAND_FEATURES)
    coef = np.zeros(d)
    coef[2 + HAND_FEATURES.index("higher_cosine")] = -20.0  # the highest cosine to a higher-ranked mention only
    q = QualityModel(np.zeros(d), np.ones(d), coef, 10.0, 0.5, 1, "m")
    vectors = {"c:0": np.array([1.0, 0.0]), "c:1": np.array([0.0, 1.0]), "c:2": np.array([0.99, 0.14]),
               "c:3": np.array([-1.0, 0.0])}
    ranked = [(f"n{i}", f"c:{i}") for i in range(4)]
    # c:2 restates c:0 (cosine 0.99): dropped; c:1 and c:3 are far from everything above them
    assert keep_mentions(ranked, q, lambda n, c: vectors[c]) == [True, True, False, True]
    assert context_features([vectors[c] for _, c in ranked])[2][0] > 0.98


def test_a_paper_keeps_min_kept_mentions():
    d = 2 + len(HAND_FEATURES)
    q = QualityModel(np.zeros(d), np.ones(d), np.r_[-5.0, 0.0, np.zeros(len(HAND_FEATURES))], 0.0, 0.5, 1, "m", 3)
    ranked = [(f"n{i}", f"c:{i}") for i in range(5)]
    scores = {"c:1": 2.0, "c:2": 1.0, "c:3": 3.0, "c:4": 4.0}  # chance falls as the score rises
    flags = keep_mentions(ranked, q, lambda n, c: np.array([scores.get(c, 0.0), 0.0]))
    assert flags == [True, True, True, False, False]  # the protected one and the two likeliest of the rest


def test_numpy_reads_lightgbms_trees_as_lightgbm_does():
    lightgbm = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2000, 12))
    y = (x[:, 0] + x[:, 1] * x[:, 2] + rng.normal(scale=0.5, size=2000) > 0).astype(int)
    booster = lightgbm.LGBMClassifier(n_estimators=40, num_leaves=7, verbose=-1, n_jobs=1).fit(x, y).booster_
    trees = Trees.from_dict(Trees.from_dump(booster.dump_model()).to_dict())  # as the weights file keeps them
    test = rng.normal(size=(500, 12))
    assert np.allclose(trees.raw(test), booster.predict(test, raw_score=True))
    model = QualityModel(np.zeros(0), np.zeros(0), np.zeros(0), 0.0, 0.5, 1, "m", 0, trees)
    assert np.allclose(model.chance(test[:, :10], test[:, 10:]), booster.predict(test))


def test_many_papers_are_judged_as_each_alone():
    model = load_quality_model(DEFAULT_MODEL)
    rng = np.random.default_rng(5)
    vectors = {f"c:{i}": rng.normal(size=384) for i in range(40)}
    papers = [[(f"name {i}", f"c:{i}") for i in rng.choice(40, size=rng.integers(1, 9), replace=False)]
              for _ in range(30)]
    together = keep_each(papers, model, lambda n, c: vectors[c])
    assert together == [keep_mentions(ranked, model, lambda n, c: vectors[c]) for ranked in papers]
    assert any(not all(flags) for flags in together)  # the filter did drop some


def _cohesion_model(intercept: float, dim: int = 2, **kwargs) -> QualityModel:
    """A model of ``dim``-dimensional vectors that reads only the cohesion of a concept's papers:
    chance = logistic(10 cohesion + intercept)."""
    d = dim + len(HAND_FEATURES)
    coef = np.zeros(d)
    coef[dim + HAND_FEATURES.index("cohesion")] = 10.0
    return QualityModel(np.zeros(d), np.ones(d), coef, intercept, 0.5, 1, "m", **kwargs)


def test_what_the_corpus_says_of_a_concept_reaches_the_filter():
    q = _cohesion_model(0.0)
    ranked = [(f"n{i}", f"c:{i}") for i in range(4)]
    corpus = {"c:1": [-1.0, 0.8], "c:2": [-1.0, -0.3]}  # c:3 has none (NO_CORPUS: cohesion -2)
    vector = np.array([1.0, 0.0])
    assert keep_mentions(ranked, q, lambda n, c: vector, corpus=corpus) == [True, True, False, False]
    assert keep_each([ranked], q, lambda n, c: vector, corpus=corpus) == [[True, True, False, False]]
    # without the corpus every concept reads as NO_CORPUS: the protected one and the likeliest of the rest
    assert keep_mentions(ranked, q, lambda n, c: vector) == [True, True, False, False]
    assert corpus_features({"c:1": [0, 1, 2]}, np.eye(3), 3) == {}  # too small a corpus to say anything


def test_a_protected_mention_goes_under_the_protected_threshold():
    q = _cohesion_model(0.0, min_kept=1, protected_threshold=0.2)
    ranked = [(f"n{i}", f"c:{i}") for i in range(4)]
    vector = np.array([1.0, 0.0])
    corpus = {"c:0": [-1.0, -0.5], "c:1": [-1.0, 0.5], "c:2": [-1.0, 0.4], "c:3": [-1.0, -0.1]}
    # c:0 is protected, but its chance (0.007) is under 0.2; c:3 (0.27) is under the threshold 0.5
    assert keep_mentions(ranked, q, lambda n, c: vector, corpus=corpus) == [False, True, True, False]
    never = _cohesion_model(0.0, min_kept=1)  # protected_threshold 0: the protected always stay
    assert keep_mentions(ranked, never, lambda n, c: vector, corpus=corpus) == [True, True, True, False]


def test_normalize_judges_a_concept_by_how_much_its_papers_have_in_common():
    # 240 papers of four topics; "recent study" is written by papers of all four, each topic's terms by its own
    topics = [("graph neural network", "message passing"), ("string theory", "D-brane"),
              ("protein folding", "molecular dynamics"), ("sponsored search", "ad auction")]
    papers = [Paper(id=f"p{i:03d}", title=f"Paper {i}", abstract=f"{topics[i % 4][0]} and {topics[i % 4][1]}")
              for i in range(240)]
    keyphrases = {p.id: [Keyphrase(topics[i % 4][0], 0.9), Keyphrase("recent study", 0.8),
                         Keyphrase(topics[i % 4][1], 0.7)] for i, p in enumerate(papers)}
    names = [n for pair in topics for n in pair] + ["recent study"]
    vectors = {n: np.eye(len(names))[j] for j, n in enumerate(names)}
    doc_vectors = np.eye(4)[[i % 4 for i in range(240)]]
    q = _cohesion_model(-2.0, dim=len(names))
    concepts, mentions = normalize_concepts(papers, keyphrases, vectors=vectors, quality=q, stoplist=(),
                                            contain=False, doc_vectors=doc_vectors)
    assert "c:recent study" not in concepts and "c:d brane" in concepts
    assert {m.concept_id for m in mentions if m.paper_id == "p001"} == {"c:string theory", "c:d brane"}
    # too few papers for the corpus to say anything: every concept reads as NO_CORPUS alike
    few, _ = normalize_concepts(papers[:40], keyphrases, vectors=vectors, quality=q, stoplist=(), contain=False,
                                doc_vectors=doc_vectors[:40])
    assert "c:recent study" in few or "c:d brane" not in few


def test_the_filter_is_stricter_where_the_corpus_says_something():
    base = _cohesion_model(19.0)  # every concept here reads NO_CORPUS (cohesion -2): chance logistic(-1) = 0.27
    q = QualityModel(base.mean, base.scale, base.coef, 19.0, 0.9, 1, "m", threshold_without_corpus=0.1)
    ranked = [(f"n{i}", f"c:{i}") for i in range(3)]
    vector = np.array([1.0, 0.0])
    assert keep_mentions(ranked, q, lambda n, c: vector) == [True, True, True]  # 0.27 >= 0.1
    # a corpus that says something (of another concept): 0.9 holds; the paper keeps protect + 1
    assert keep_mentions(ranked, q, lambda n, c: vector, corpus={"c:9": [-1.0, 0.5]}) == [True, True, False]
    same = QualityModel(base.mean, base.scale, base.coef, 19.0, 0.9, 1, "m")  # no threshold of its own
    assert keep_mentions(ranked, same, lambda n, c: vector) == [True, True, False]


def test_a_paper_keeps_more_where_the_corpus_says_nothing():
    base = _cohesion_model(19.0)  # every concept reads NO_CORPUS here: chance 0.27, under the threshold 0.9
    q = QualityModel(base.mean, base.scale, base.coef, 19.0, 0.9, 1, "m", min_kept=2, min_kept_without_corpus=4)
    ranked = [(f"n{i}", f"c:{i}") for i in range(6)]
    vector = np.array([1.0, 0.0])
    assert sum(keep_mentions(ranked, q, lambda n, c: vector)) == 4  # a small corpus: its papers keep 4
    assert sum(keep_mentions(ranked, q, lambda n, c: vector, corpus={"c:9": [-1.0, 0.5]})) == 2
    data = {"threshold": 0.9, "protect": 1, "model": "m", "min_kept": 2, "min_kept_without_corpus": "4",
            "coef": base.coef.tolist(), "mean": base.mean.tolist(), "scale": base.scale.tolist(), "intercept": 19.0}
    assert QualityModel.from_dict(data).min_kept_without_corpus == 4
    assert QualityModel.from_dict({k: v for k, v in data.items() if k != "min_kept_without_corpus"}).min_kept_without_corpus is None


def test_a_mention_the_model_gives_little_chance_never_fills_a_short_list():
    quality = QualityModel(np.zeros(21), np.ones(21), np.r_[1.0, 0.0, np.zeros(19)], 0.0, 0.5, 1, "m", min_kept=3)
    vectors = {"a": np.array([2.0, 0.0]), "b": np.array([-1.0, 0.0]), "d": np.array([-3.0, 0.0])}
    ranked = [("x", "a"), ("y", "b"), ("z", "d")]  # chances 0.88, 0.27, 0.05
    corpus = {"a": [-2.0, 0.5], "b": [-1.5, 0.1], "d": [-1.0, 0.0]}
    assert keep_mentions(ranked, quality, lambda n, c: vectors[c], corpus=corpus) == [True, True, True]
    floored = replace(quality, fill_floor=0.2)
    # "string theory" in a hep-th paper of three concepts: the list stays short rather than hold the umbrella term
    assert keep_mentions(ranked, floored, lambda n, c: vectors[c], corpus=corpus) == [True, True, False]
    assert keep_mentions(ranked, floored, lambda n, c: vectors[c]) == [True, True, True]  # a small corpus: no floor


def test_a_paper_keeps_its_likeliest_mention_whatever_the_floor():
    quality = QualityModel(np.zeros(21), np.ones(21), np.r_[1.0, 0.0, np.zeros(19)], 0.0, 0.5, 1, "m", min_kept=3,
                           protected_threshold=0.5, fill_floor=0.5)
    vectors = {"b": np.array([-1.0, 0.0]), "d": np.array([-3.0, 0.0]), "a": np.array([2.0, 0.0])}
    corpus = {"a": [-2.0, 0.5], "b": [-1.5, 0.1], "d": [-1.0, 0.0]}
    # chances 0.05 and 0.27: neither is more likely good than not, and the paper keeps the likelier alone
    assert keep_mentions([("y", "d"), ("x", "b")], quality, lambda n, c: vectors[c], corpus=corpus) == [False, True]
    # a likely one fills the place, an unlikely one does not
    assert keep_mentions([("y", "d"), ("x", "b"), ("z", "a")], quality, lambda n, c: vectors[c],
                         corpus=corpus) == [False, False, True]


def test_a_concept_no_extracted_phrase_names_is_judged_by_its_names_vector(real_embedder):
    # a head trimmed off ("cancer therapy literature") or a link by containment leaves a concept whose name extraction
    # never embedded: it went unjudged, and "standard retrieval", "top rank" stayed in the lists
    phrases = ["graph neural network", "traffic forecasting", "road sensor network", "spatio-temporal dependency",
               "recurrent neural network", "major problem"]
    papers = [Paper(id=f"p{i}", title=f"Traffic {i}", abstract="Graph neural networks for traffic forecasting.")
              for i in range(3)]
    keyphrases = {p.id: [Keyphrase(x, round(0.9 - j / 20, 3)) for j, x in enumerate(phrases)] for p in papers}
    vectors = dict(zip(phrases[:-1], np.asarray(real_embedder.embed(phrases[:-1]))))  # none for "major problem"
    quality = load_quality_model(DEFAULT_MODEL)
    judged, _ = normalize_concepts(papers, keyphrases, vectors=vectors, quality=quality, stoplist=(), contain=False,
                                   embedder=real_embedder)
    assert "c:major problem" not in judged and "c:road sensor network" in judged
    unjudged, _ = normalize_concepts(papers, keyphrases, vectors=vectors, quality=quality, stoplist=(), contain=False)
    assert "c:major problem" in unjudged  # no embedder, nothing to judge it by
