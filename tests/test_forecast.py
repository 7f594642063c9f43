"""kg forecast and kg gaps: a designed corpus whose future is known, no leak from after the cut-off, the CLI,
the report section, the page view, and one real backtest on a slice of ACM-CR."""

from __future__ import annotations

import json
import random
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from kg.analyze import forecast as forecast_module
from kg.analyze.cooccurrence import (aligned_vectors, check_counts, check_until, concept_window, dated_mentions,
                                     name_overlap, synonym_pairs)
from kg.analyze.forecast import backtest, forecast
from kg.analyze.gaps import concept_gaps, gap_backtest
from kg.api import KnowledgeGraph, load
from kg.cli import app
from kg.errors import OptionError, ViewError
from kg.export.files import write_graph_files
from kg.export.html import render_html
from kg.analyze import analysis_for
from kg.report import render_markdown, render_report_html
from kg.vectors import load_paper_vectors, save_paper_vectors

from _example_graphs import keyphrase_graph
from conftest import SHARED

ACM = SHARED / "data" / "acm_cr" / "papers.jsonl"
runner = CliRunner()

_SYLLABLES = ["zor", "vat", "plin", "exo", "quar", "mib", "tul", "dren", "kas", "fow", "yel", "brin", "sop",
              "gath", "lum", "rix", "nob", "ped", "wim", "cal"]


def _word(n: int) -> str:
    """An invented word per number (so no normalisation rule merges two designed concepts)."""
    a, b, c = n % 20, (n // 20) % 20, (n // 400) % 20
    return _SYLLABLES[a] + _SYLLABLES[b] + _SYLLABLES[c]


def designed(first: int = 2000, last: int = 2015, seed: int = 7) -> tuple[list, dict]:
    """Papers ``(id, year, concepts)`` whose future is known, and what is known.

    *Growing twins* (two a year): two concepts that appear in year ``s`` (3 papers each a year,
    each with the pair's 4 own hub concepts) and are first mentioned together in
    ``s + 4``, then once a year. *Quiet twins* (two a year in the first three years): the same for
    two years, then silent, never meeting: as many common neighbours as a growing twin, no recent
    papers. *Filler*: 30 papers a year over 40 concepts at random, whose few unlinked pairs meet by
    chance. At a cut-off T the pairs that will meet in T+1…T+3 for certain, and are eligible (5+
    papers), are the growing twins with ``s`` in T-3 … T-1.
    """
    rng = random.Random(seed)
    papers, n = [], [0]
    fillers = [f"c:f{k}" for k in range(40)]

    def add(year: int, concepts) -> None:
        n[0] += 1
        papers.append((f"p{n[0]:05d}", year, tuple(sorted(set(concepts)))))

    twins = {}
    for start in range(first, last + 1):
        for kind, t in (("grow", 0), ("grow", 1), ("quiet", 0), ("quiet", 1)):
            if kind == "quiet" and start > first + 2:
                continue
            name = f"c:{kind}{start - first}{'ab'[t]}"
            x, y = name + "x", name + "y"
            hubs = [f"{name}h{h}" for h in range(4)]
            twins[(x, y)] = (kind, start)
            for year in range(start, last + 1 if kind == "grow" else start + 2):
                for own in (x, y):
                    for _ in range(3):
                        add(year, [own, *hubs])
                if year >= start + 4:
                    add(year, [x, y])
    for year in range(first, last + 1):
        for _ in range(30):
            add(year, rng.sample(fillers, 3))
    return sorted(papers, key=lambda p: (p[1], p[0])), twins


def pending(twins: dict, until: int, horizon: int = 3) -> set:
    return {pair for pair, (kind, start) in twins.items()
            if kind == "grow" and until - horizon <= start <= until - 1 and start + 4 <= until + horizon}


@pytest.fixture(scope="module")
def corpus():
    return designed()


# --- the designed corpus: the known future is forecast ------------------------------------------------------


def test_the_twins_about_to_meet_are_the_top_pairs(corpus):
    papers, twins = corpus
    result = forecast(papers, until=2010, horizon=3, top=6)
    expected = pending(twins, 2010)
    assert len(expected) == 6
    assert {(p["source"], p["target"]) for p in result["pairs"]} == expected
    best = result["pairs"][0]
    kind, start = twins[(best["source"], best["target"])]
    hubs = {best["source"][:-1] + f"h{h}" for h in range(4)}
    evidence = best["evidence"]
    assert {s["id"] for s in evidence["shared_neighbours"]} == hubs
    assert evidence["common_neighbours"] == 4
    assert evidence["source_growth"]["recent"] > 0 and evidence["source_growth"]["first_year"] == start
    assert evidence["papers"] and all(p["year"] <= 2010 for p in evidence["papers"])
    assert evidence["papers"][0]["near_other"] >= 1
    assert result["parameters"]["until"] == 2010 and result["counts"]["training"]["window"] == [2007, 2010]


def test_the_backtest_grades_kg_and_the_baselines_in_one_run(corpus):
    papers, twins = corpus
    result = backtest(papers, until=2010, horizon=3, ks=(3, 10), top=3)
    rows = {r["method"]: r for r in result["rows"]}
    assert set(rows) == {"kg forecast", "preferential attachment", "Adamic–Adar", "common neighbours"}
    assert rows["kg forecast"]["precision_at_3"] == 1.0
    assert rows["kg forecast"]["auc"] > 0.9
    # common neighbours ranks the dense filler first and cannot tell a growing twin from a quiet one: kg can
    assert rows["common neighbours"]["precision_at_10"] < rows["kg forecast"]["precision_at_10"]
    assert all(p["met"] for p in result["top"])
    c = result["counts"]
    assert c["positives"] >= 3 and c["candidates"] > c["positives"]
    assert result["parameters"]["sample"] == c["candidates"]  # fewer than SAMPLE (2,000,000): all of them


def test_nothing_after_the_cut_off_changes_the_forecast(corpus):
    """The forecast at T reads no paper after T: adding, removing or rewriting later papers changes nothing."""
    papers, _ = corpus
    before = forecast(papers, until=2010, horizon=3, top=10)
    only_past = [p for p in papers if p[1] <= 2010]
    rng = random.Random(3)
    concepts = sorted({c for _, _, cs in papers for c in cs})
    noise = [(f"z{k}", rng.randint(2011, 2030), tuple(rng.sample(concepts, 5)) + (f"c:new{k}",)) for k in range(500)]
    for variant in (only_past, papers + noise, only_past + noise):
        after = forecast(variant, until=2010, horizon=3, top=10)
        timing = {"seconds", "cpu_seconds"}
        assert {k: v for k, v in after.items() if k not in timing} == \
            {k: v for k, v in before.items() if k not in timing}


def spoken(first: int = 2000, last: int = 2015, seed: int = 5) -> tuple[list, dict, dict]:
    """Papers ``(id, year, concepts)``, what each paper's text names, and twins ``(x, y) -> (kind, start)``.

    Seven twin pairs start each year from ``first + 2`` to 2010, two *hush* and five *said* (five a year: enough
    to learn from, 15 in the training windows), alike in every link: each concept 3 papers a year with its own hub
    concept, no neighbour in common, and ``x`` one paper a year alone. That paper's text names ``y`` too for a
    *said* twin (unlinked), and from ``start + 3`` one paper a year links the two; a *hush* twin's texts name only
    what its papers link, and the two never meet. Filler: 30 papers a year over 12 concepts at random (all linked
    early)."""
    rng = random.Random(seed)
    papers, named, twins = [], {}, {}

    def add(year: int, concepts, text=()) -> None:
        pid = f"p{len(papers) + 1:05d}"
        papers.append((pid, year, tuple(sorted(set(concepts)))))
        named[pid] = tuple(sorted(set(concepts) | set(text)))

    for start in range(first + 2, 2011):  # under RERANK_FROM pairs scored at 2010: the classifier's order stands
        for kind, t in [("hush", "a"), ("hush", "b")] + [("said", t) for t in "abcde"]:  # ties go to "hush"
            x, y = f"c:{kind}{start - first:02d}{t}x", f"c:{kind}{start - first:02d}{t}y"
            twins[(x, y)] = (kind, start)
            for year in range(start, last + 1):
                for _ in range(3):
                    add(year, [x, x + "h"])
                    add(year, [y, y + "h"])
                add(year, [x], text=[y] if kind == "said" else [])
                if kind == "said" and year >= start + 3:
                    add(year, [x, y])
    for year in range(first, last + 1):
        for _ in range(30):
            add(year, rng.sample([f"c:f{k}" for k in range(12)], 3))
    return sorted(papers, key=lambda p: (p[1], p[0])), named, twins


def test_pairs_the_texts_already_name_together_come_first():
    """Twins alike in every link, told apart only by what their texts name: with the texts, the ten said twins
    about to meet lead the forecast; without them, each said twin scores as its hush twin does."""
    papers, named, twins = spoken()
    expected = {pair for pair, (kind, start) in twins.items() if kind == "said" and start in (2008, 2009)}
    told = forecast(papers, until=2010, horizon=3, top=10, named=named)
    assert {(p["source"], p["target"]) for p in told["pairs"]} == expected
    assert told["parameters"]["named"] is True
    for pair in told["pairs"]:  # the evidence: x's lone paper of each year since the start names y
        start = twins[(pair["source"], pair["target"])][1]
        named_together = pair["evidence"]["named_together"]
        assert named_together["papers"] == 2011 - start and named_together["recent"] == 2011 - start
        assert [q["year"] for q in named_together["latest"]] == list(range(2010, max(start, 2008) - 1, -1))
    graded = backtest(papers, until=2010, horizon=3, ks=(10,), top=10, named=named)
    assert graded["rows"][0]["method"] == "kg forecast" and graded["rows"][0]["precision_at_10"] == 1.0
    blind = backtest(papers, until=2010, horizon=3, ks=(10,), top=100)
    score = {(p["source"], p["target"]): p["score"] for p in blind["top"]}
    for (x, y), (kind, start) in twins.items():
        if kind == "said" and x[-2] in "ab" and (x, y) in score:
            hush = (x.replace("said", "hush"), y.replace("said", "hush"))
            assert score[(x, y)] == score[hush]
    assert blind["rows"][0]["precision_at_10"] < 1.0
    assert blind["top"][0]["evidence"]["named_together"] is None  # not read: not shown


def test_what_later_texts_name_changes_nothing():
    """Only the texts of papers up to the cut-off are read: naming anything in later papers' texts, or dropping
    their texts, leaves the forecast as it was."""
    papers, named, _ = spoken()
    before = forecast(papers, until=2010, horizon=3, top=10, named=named)
    concepts = sorted({c for _, _, cs in papers for c in cs})
    rng = random.Random(9)
    noisy = {pid: tuple(rng.sample(concepts, 6)) if year > 2010 else named[pid] for pid, year, _ in papers}
    past = {pid: named[pid] for pid, year, _ in papers if year <= 2010}
    timing = {"seconds", "cpu_seconds"}
    for variant in (noisy, past):
        after = forecast(papers, until=2010, horizon=3, top=10, named=variant)
        assert {k: v for k, v in after.items() if k not in timing} == \
            {k: v for k, v in before.items() if k not in timing}
    rows = forecast_module._Pairs(concept_window(papers, 2010, min_papers=5), None, named=named)
    window = rows.window
    a, b = window.index["c:said05ax"], window.index["c:said05ay"]
    values = dict(zip(forecast_module.FEATURES, rows.features(np.array([a]), np.array([b]))[0]))
    # both are named by c:said05ax's lone paper of each year 2005–2010 and by the papers linking the two, one a year
    # from 2008; the last span (3) years are 2008–2010; papers after 2010 name them too, and are not counted
    assert values["text_together"] == pytest.approx(np.log1p(6 + 3))
    assert values["text_recent"] == pytest.approx(np.log1p(3 + 3))


def test_the_training_window_ends_at_the_cut_off(corpus):
    """Labels come from T-H+1 … T: the links made after T are never learned from."""
    papers, _ = corpus
    result = backtest(papers, until=2010, horizon=3, top=1)
    training = result["counts"]["training"]
    assert training["window"] == [2007, 2010]
    # three earlier windows, each graded by the H years after it: none reaches past the cut-off
    assert training["windows"] == [[2007, 2010], [2006, 2009], [2005, 2008]]
    assert max(end for _, end in training["windows"]) == 2010
    window = concept_window([p for p in papers if p[1] <= 2007], 2007)
    assert training["concepts"] == window.size


def test_the_walk_features_count_only_papers_up_to_the_cut_off():
    """The two-step walks (all years, and the last ``span`` years) come from the window's papers alone: a later
    paper changes neither, an older one leaves the recent walk alone, and the values are the walk's chances."""
    papers = [("p1", 2001, ("c:a", "c:b")), ("p2", 2008, ("c:a", "c:b")), ("p3", 2009, ("c:b", "c:c")),
              ("p4", 2010, ("c:b", "c:c")), ("p5", 2010, ("c:a", "c:d")), ("p6", 2011, ("c:a", "c:c"))]
    window = concept_window(papers, until=2010, min_papers=1, span=3)
    a, b, c, d = (window.index[x] for x in ("c:a", "c:b", "c:c", "c:d"))
    recent = window.recent_cooc().toarray()
    assert recent[a, b] == 1 and recent[b, c] == 2 and recent[a, d] == 1 and recent[a, c] == 0  # p1 (2001) and
    assert window.cooc.toarray()[a, b] == 2  # p6 (2011) left out; p1 counted in all years
    walk = forecast_module._two_steps(window.cooc)
    # a → b (2 of a's 3 co-mentions) → c (2 of b's 4): 2/3 · 2/4; c → b (1) → a (2 of 4): 1/2
    assert walk[a, c] == pytest.approx(1 / 3) and walk[c, a] == pytest.approx(1 / 2)
    assert walk[d, b] == pytest.approx(2 / 3)  # d's only partner is a, whose partners are b (2 of 3) and d
    rows = forecast_module._Pairs(window, None).features(np.array([a]), np.array([c]))
    named = dict(zip(forecast_module.FEATURES, rows[0]))
    assert named["walk_hi"] == pytest.approx(np.log(1 / 2 + 1e-6))
    assert named["walk_lo"] == pytest.approx(np.log(1 / 3 + 1e-6))
    later = concept_window(papers + [("p7", 2012, ("c:a", "c:c", "c:d"))], until=2010, min_papers=1, span=3)
    assert (later.recent_cooc() != window.recent_cooc()).nnz == 0
    assert np.array_equal(forecast_module._two_steps(later.cooc), walk)


def test_the_closest_paper_is_found_a_block_of_papers_at_a_time(monkeypatch):
    """Each concept's closest paper to another's centroid, computed a few papers at a time (so that papers times
    concepts never sit in memory at once), is the highest cosine of any of its papers, negative ones included."""
    rng = random.Random(4)
    concepts = [f"c:k{k}" for k in range(9)]
    papers = [(f"p{k:03d}", 2000 + k % 10, tuple(rng.sample(concepts, 3))) for k in range(60)]
    window = concept_window(papers + [("lone", 2005, ("c:lone",))], until=2010, min_papers=1, span=3)
    matrix = np.random.default_rng(1).normal(size=(len(window.papers), 5)).astype(np.float32) + 1.0
    lone = [pid for pid, _, _ in window.papers].index("lone")
    matrix[lone] = -matrix.sum(axis=0)  # the one paper of c:lone points away from every other paper
    vectors = forecast_module._unit_rows(matrix)
    monkeypatch.setattr(forecast_module, "_PAPER_BLOCK", 7)
    between, closest = forecast_module._paper_meaning(window, vectors)
    members = [[r for r, (_, _, at) in enumerate(window.papers) if c in at] for c in range(window.size)]
    centroid = forecast_module._unit_rows(np.stack([vectors[m].sum(axis=0) for m in members]))
    expected = np.stack([(vectors[m] @ centroid.T).max(axis=0) for m in members])
    assert np.allclose(closest, expected, atol=1e-6) and (closest < 0).any()
    assert np.allclose(between, centroid @ centroid.T, atol=1e-6)


def test_paths_of_three_and_the_spectral_feature_see_past_shared_neighbours():
    """Two concepts with no neighbour in common but linked through two that are (a path a–b–c–d) get the
    degree-weighed count of those paths; the spectral rebuild ranks a pair inside a dense group of concepts above
    a pair across two groups, and both come from the papers up to the cut-off alone."""
    chain = [("p1", 2005, ("c:a", "c:b")), ("p2", 2006, ("c:b", "c:c")), ("p3", 2007, ("c:c", "c:d")),
             ("p4", 2007, ("c:b", "c:e"))]
    window = concept_window(chain, until=2010, min_papers=1, span=3)
    a, b, c, d, e = (window.index[x] for x in ("c:a", "c:b", "c:c", "c:d", "c:e"))
    paths = forecast_module._three_paths(window.adjacency(), window.degree())
    # a → b (degree 3) → c (degree 2) → d: one path weighed 1 / sqrt(3 · 2); a and c share b: no path of three
    assert paths[a, d] == pytest.approx(np.log1p(1 / np.sqrt(6)), rel=1e-5)
    assert paths[d, a] == pytest.approx(paths[a, d]) and paths[a, c] == 0 and paths[e, d] == paths[a, d]
    rows = forecast_module._Pairs(window, None).features(np.array([a]), np.array([d]))
    assert dict(zip(forecast_module.FEATURES, rows[0]))["paths3"] == pytest.approx(paths[a, d])
    # two groups of four concepts, each mentioned together in every pair of its group, one paper across
    groups = [[f"c:x{k}" for k in range(4)], [f"c:y{k}" for k in range(4)]]
    papers = [(f"p{g}{k}{m}", 2000 + k, (group[k], group[m])) for g, group in enumerate(groups)
              for k in range(4) for m in range(k + 1, 4)] + [("q", 2003, ("c:x0", "c:y0"))]
    window = concept_window(papers, until=2010, min_papers=1, span=3)
    at = window.index
    spectral = forecast_module._spectral(window.cooc, 2)
    assert spectral[at["c:x1"], at["c:x2"]] > 3 * abs(spectral[at["c:x1"], at["c:y2"]])
    later = concept_window(papers + [("r", 2012, ("c:x1", "c:y2"))], until=2010, min_papers=1, span=3)
    assert np.array_equal(forecast_module._spectral(later.cooc, 2), spectral)
    assert forecast_module._spectral(window.cooc[:2, :2], 32).shape == (2, 2)  # too small: zeros, no error


def test_neighbourhoods_in_meaning_reach_pairs_no_neighbour_joins():
    """Two concepts with no neighbour in common score high when one is written about next to concepts that mean
    nearly what the other means: the cosine of one concept's vector with the mean vector of the other's co-occurring
    concepts (each once, and weighed by papers together) and of the two mean vectors; zeros without vectors, and
    nothing after the cut-off counts."""
    papers = [("p1", 2005, ("c:a", "c:b")), ("p2", 2006, ("c:a", "c:b")), ("p3", 2006, ("c:a", "c:e")),
              ("p4", 2007, ("c:c", "c:d"))]
    window = concept_window(papers, until=2010, min_papers=1, span=3)
    a, b, c, d, e = (window.index[x] for x in ("c:a", "c:b", "c:c", "c:d", "c:e"))
    basis = np.eye(3)
    raw = {"c:a": basis[0], "c:b": basis[1], "c:c": basis[1] + 0.1 * basis[2], "c:d": basis[0], "c:e": basis[2]}
    vectors = (list(raw), np.array(list(raw.values())))
    pairs = forecast_module._Pairs(window, aligned_vectors(window, vectors))
    unit = {k: v / np.linalg.norm(v) for k, v in raw.items()}
    named = {f: v for f, v in zip(forecast_module.FEATURES, pairs.features(np.array([a]), np.array([c]))[0])}
    # c's only neighbour is d (same vector as a): a points straight at c's neighbourhood; a's neighbours b and e
    # average to (b + e) / |b + e|, whose cosine with c's vector is (1 + 0.1) / (sqrt(2) * |c|)
    toward_c = unit["c:c"] @ ((unit["c:b"] + unit["c:e"]) / np.sqrt(2))
    assert named["toward_hi"] == pytest.approx(1.0, abs=1e-6)
    assert named["toward_lo"] == pytest.approx(toward_c, abs=1e-6)
    assert named["neighbourhoods"] == pytest.approx(0.0, abs=1e-6)  # (b + e) against d (= a): orthogonal
    # weighed by papers together: b (2 papers with a) counts twice as much as e
    weighted = (2 * unit["c:b"] + unit["c:e"]) / np.linalg.norm(2 * unit["c:b"] + unit["c:e"])
    assert named["toward_weighted_lo"] == pytest.approx(unit["c:c"] @ weighted, abs=1e-6)
    assert named["toward_weighted_hi"] == pytest.approx(1.0, abs=1e-6)
    assert named["neighbourhoods_weighted"] == pytest.approx(0.0, abs=1e-6)
    plain = dict(zip(forecast_module.FEATURES, forecast_module._Pairs(window, None).features(np.array([a]),
                                                                                              np.array([c]))[0]))
    assert all(plain[f] == 0 for f in forecast_module.FEATURES if f.startswith(("toward", "neighbourhoods")))
    later = concept_window(papers + [("p5", 2012, ("c:a", "c:c", "c:d"))], until=2010, min_papers=1, span=3)
    again = forecast_module._Pairs(later, aligned_vectors(later, vectors)).features(np.array([a]), np.array([c]))
    assert np.array_equal(again, pairs.features(np.array([a]), np.array([c])))


def test_paper_vectors_give_each_pair_its_papers_centroids_and_closest_paper():
    """With the papers' document vectors: the cosine of the two concepts' paper centroids (mean unit vector of
    each concept's papers) and, each way, the highest cosine of one concept's paper with the other's centroid;
    a paper without a vector counts for nothing, zeros without paper vectors, nothing after the cut-off counts."""
    e = np.eye(3)
    papers = [("p1", 2005, ("c:a", "c:x")), ("p2", 2006, ("c:a",)), ("p3", 2006, ("c:c", "c:x")),
              ("p4", 2007, ("c:c",)), ("p5", 2008, ("c:c",)), ("p6", 2008, ("c:a",))]
    raw = {"p1": 3 * e[0], "p2": e[1], "p3": e[0], "p4": e[2], "p5": e[2], "p9": e[1]}  # p6: no vector
    vectors = (list(raw), np.array(list(raw.values())))
    window = concept_window(papers, until=2010, min_papers=1, span=3)
    a, c = np.array([window.index["c:a"]]), np.array([window.index["c:c"]])

    def named(window, vectors) -> dict:
        pairs = forecast_module._Pairs(window, None, forecast_module._aligned_paper_vectors(window, vectors))
        return dict(zip(forecast_module.FEATURES, pairs.features(a, c)[0]))

    found = named(window, vectors)
    # a's centroid (e0 + e1) / sqrt(2), c's (e0 + 2 e2) / sqrt(5): cosine 1 / sqrt(10); a's closest paper to c's
    # centroid is p1 (1 / sqrt(5)), c's closest to a's is p3 (1 / sqrt(2))
    assert found["paper_centroids"] == pytest.approx(1 / np.sqrt(10), abs=1e-6)
    assert found["closest_paper_lo"] == pytest.approx(1 / np.sqrt(5), abs=1e-6)
    assert found["closest_paper_hi"] == pytest.approx(1 / np.sqrt(2), abs=1e-6)
    plain = named(window, None)
    assert all(plain[f] == 0 for f in ("paper_centroids", "closest_paper_lo", "closest_paper_hi"))
    later = concept_window(papers + [("p9", 2012, ("c:a", "c:c"))], until=2010, min_papers=1, span=3)
    assert named(later, vectors) == found


def test_the_ranker_reorders_only_the_classifiers_best_pairs(corpus, monkeypatch):
    """Above RERANK_FROM scored pairs a listwise ranker (LightGBM rank_xendcg, learned from the same training
    windows) reorders the classifier's best RERANK pairs; they stay above every other pair, which keep the
    classifier's order, and each listed pair still shows the classifier's chance as its score."""
    papers, _ = corpus
    plain = backtest(papers, until=2010, horizon=3, ks=(3, 10), top=10)
    assert plain["counts"]["training"]["ranker"] is None  # a few hundred pairs: the classifier's order stands
    monkeypatch.setattr(forecast_module, "RERANK_FROM", 0)
    monkeypatch.setattr(forecast_module, "RERANK", 10)
    ranked = backtest(papers, until=2010, horizon=3, ks=(3, 10), top=10)
    # each window's query: every pair sharing a neighbour (fewer than QUERY)
    assert ranked["counts"]["training"]["ranker"] == {"objective": "rank_xendcg", "rounds": 250,
                                                      "queries": [326, 363, 399], "reorders": 10}
    # the same ten pairs lead, with the same chances: the ranker only changes their order
    assert {(p["source"], p["target"], p["score"]) for p in ranked["top"]} == \
        {(p["source"], p["target"], p["score"]) for p in plain["top"]}
    assert ranked["rows"][0]["precision_at_10"] == plain["rows"][0]["precision_at_10"]
    assert ranked["rows"][1:] == plain["rows"][1:]  # the baselines are untouched
    window, pairs, i, j, scores, ranking, _, _ = forecast_module._run(
        [p for p in papers], 2010, 3, min_papers=5, span=3, seed=42, vectors=None, paper_vectors=None, named=None, rows=150_000)
    pool = forecast_module._top(scores, 10)
    rest = np.setdiff1d(np.arange(len(i)), pool)
    assert ranking[pool].min() > 1.0 >= ranking[rest].max()  # the pool above every other pair
    assert np.array_equal(ranking[rest], scores[rest])  # the others keep the classifier's chance
    # the blended ranks (ties share theirs) as shares of their largest value: summing to 5.5, at most 1
    assert float((ranking[pool] - 1.0).sum()) == pytest.approx(5.5) and ranking[pool].max() <= 2.0


def _adamic_adar_by_hand(window) -> dict:
    """Adamic–Adar of every unlinked pair of the window's concepts sharing a neighbour, from its papers: the sum over
    shared neighbours of 1 / log(max(their degree, 2))."""
    neighbours = {k: set() for k in range(window.size)}
    for _, _, at in window.papers:
        for a in at:
            neighbours[a].update(b for b in at if b != a)
    weight = {k: 1.0 / np.log(max(len(v), 2)) for k, v in neighbours.items()}
    return {(a, b): sum(weight[k] for k in neighbours[a] & neighbours[b])
            for a in range(window.size) for b in range(a + 1, window.size)
            if b not in neighbours[a] and neighbours[a] & neighbours[b]}


def test_the_rankers_query_is_the_adamic_adar_top_of_pairs_sharing_a_neighbour(corpus, monkeypatch):
    """Each training window gives the ranker one query: its QUERY unlinked pairs of highest Adamic–Adar among those
    sharing a neighbour (where the pool it reorders at T lies), labelled by the links of the window's next H years;
    never a random cut of the classifier's training pairs, never a pair without a shared neighbour."""
    papers, _ = corpus
    window = concept_window([p for p in papers if p[1] <= 2007], 2007)
    pairs = forecast_module._Pairs(window, None)
    i, j = pairs.candidates()
    by_hand = _adamic_adar_by_hand(window)
    assert 40 < len(by_hand) < forecast_module.QUERY < len(i)  # 326 of 13,262 candidates share a neighbour
    # QUERY above the pairs sharing a neighbour: all of them and no other, though there is room
    everyone = forecast_module._ranker_query(pairs, i, j)
    assert {(int(i[q]), int(j[q])) for q in everyone} == set(by_hand)
    best = sorted(by_hand, key=lambda pair: -by_hand[pair])[:40]
    assert by_hand[best[39]] > sorted(by_hand.values())[-41] + 1e-4  # no tie at the 40th
    top = forecast_module._ranker_query(pairs, i, j, size=40)
    assert [(int(i[q]), int(j[q])) for q in top] == best  # best first
    # what the ranker learns from: those pairs' features at 2007, labelled by 2008–2010, for each window
    monkeypatch.setattr(forecast_module, "RERANK_FROM", 0)
    monkeypatch.setattr(forecast_module, "RERANK", 10)
    monkeypatch.setattr(forecast_module, "QUERY", 40)
    fitted = forecast_module._ranker
    seen = []
    monkeypatch.setattr(forecast_module, "_ranker", lambda queries, **kw: seen.append(queries) or fitted(queries, **kw))
    result = forecast(papers, until=2010, horizon=3, top=5)
    assert result["counts"]["training"]["ranker"]["queries"] == [40, 40, 40]
    x, y = seen[0][0]
    met = {tuple(sorted(window.index[c] for c in pair)) for _, year, concepts in papers if 2007 < year <= 2010
           for pair in [(a, b) for a in concepts for b in concepts if a < b]
           if all(c in window.index for c in pair)}
    assert y.tolist() == [(a, b) in met for a, b in best] and 0 < y.sum() < 40
    rows = pairs.features(np.array([a for a, _ in best]), np.array([b for _, b in best]))
    assert np.array_equal(x, rows[:, :forecast_module.RANKED])


class _StubRanker:
    """A ranker whose order is given: ``predict`` returns ``values`` of each pair (rows of the pool's features)."""

    def __init__(self, values):
        self.values = values

    def predict(self, x):
        assert len(x) == len(self.values)
        return self.values


def test_the_pool_blends_the_rankers_order_with_adamic_adar_and_the_classifier(corpus, monkeypatch):
    """The pool's order is the ranker's rank plus ADAMIC_ADAR_WEIGHT (0.5) times the pair's Adamic–Adar rank and
    CLASSIFIER_WEIGHT (0.25) times the classifier's rank: a ranker that cannot tell the pairs apart leaves the other
    two to decide, one that reverses Adamic–Adar keeps its own order against it, and the keys stay shares of the
    pool above every other pair."""
    from scipy.stats import rankdata

    papers, _ = corpus
    assert forecast_module.ADAMIC_ADAR_WEIGHT == 0.5 and forecast_module.CLASSIFIER_WEIGHT == 0.25
    monkeypatch.setattr(forecast_module, "RERANK_FROM", 0)
    monkeypatch.setattr(forecast_module, "RERANK", 20)
    _, pairs, i, j, scores, _, _, _ = forecast_module._run(papers, 2010, 3, min_papers=5, span=3, seed=42,
                                                           vectors=None, paper_vectors=None, named=None, rows=150_000)
    pool = forecast_module._top(scores, 20)
    aa, chance = pairs.adamic_adar[i[pool], j[pool]], scores[pool]
    assert len(np.unique(aa)) > 2  # the designed pool has Adamic–Adar values to order by
    flat = forecast_module._reorder(_StubRanker(np.zeros(20)), pairs, i, j, scores)
    # ranker ranks all 10.5; keys 1 + (10.5 + 0.5 * Adamic–Adar rank + 0.25 * classifier rank) / (1.75 * 20)
    assert np.allclose(flat[pool], 1.0 + (10.5 + 0.5 * rankdata(aa) + 0.25 * rankdata(chance)) / 35.0)
    assert float((flat[pool] - 1.0).sum()) == pytest.approx(10.5)  # shares of the pool: they average 0.525
    against = forecast_module._reorder(_StubRanker(-aa), pairs, i, j, scores)
    rest = np.setdiff1d(np.arange(len(i)), pool)
    assert against[pool].min() > 1.0 >= against[rest].max() and against[pool].max() <= 2.0
    monkeypatch.setattr(forecast_module, "CLASSIFIER_WEIGHT", 0.0)  # the ranker against Adamic–Adar alone
    against = forecast_module._reorder(_StubRanker(-aa), pairs, i, j, scores)
    assert np.array_equal(rankdata(against[pool]), rankdata(-aa))  # the ranker outweighs Adamic–Adar
    monkeypatch.setattr(forecast_module, "ADAMIC_ADAR_WEIGHT", 0.0)  # without the blends: the ranker's ranks alone
    alone = forecast_module._reorder(_StubRanker(np.arange(20.0)), pairs, i, j, scores)
    assert np.allclose(alone[pool], 1.0 + np.arange(1, 21) / 20.0)


def test_the_classifiers_rank_breaks_what_the_ranker_and_adamic_adar_leave_tied():
    """Two pairs the ranker and Adamic–Adar cannot tell apart are ordered by the classifier's chance; at a quarter
    weight the classifier overturns a step of the ranker's ranks only when its own ranks differ by more than 4."""
    order = np.array([1.0, 1.0, 2.0, 3.0])
    adamic_adar = np.array([0.5, 0.5, 0.5, 0.5])
    chance = np.array([0.2, 0.9, 0.1, 0.05])
    blend = forecast_module._blend(order, adamic_adar, chance)
    assert blend[1] > blend[0]  # tied by the ranker and Adamic–Adar: the higher chance first
    # ranker ranks 1.5, 1.5, 3, 4; Adamic–Adar all 2.5; classifier ranks 3, 4, 2, 1; total weight 1.75, 4 pairs
    assert np.allclose(blend, (np.array([1.5, 1.5, 3.0, 4.0]) + 1.25 + 0.25 * np.array([3.0, 4.0, 2.0, 1.0])) / 7.0)
    assert blend[3] > blend[2] > blend[1]  # the ranker's order between distinct ranks stands
    assert blend.max() <= 1.0 and blend.min() > 0.0


def test_nothing_after_the_cut_off_changes_the_ranker(corpus, monkeypatch):
    """The ranker learns from the same windows as the classifier: papers after T change neither its order."""
    papers, _ = corpus
    monkeypatch.setattr(forecast_module, "RERANK_FROM", 0)
    monkeypatch.setattr(forecast_module, "RERANK", 20)
    before = forecast(papers, until=2010, horizon=3, top=20)
    assert before["counts"]["training"]["ranker"]["reorders"] == 20
    rng = random.Random(5)
    concepts = sorted({c for _, _, cs in papers for c in cs})
    later = [(f"z{k}", rng.randint(2011, 2030), tuple(rng.sample(concepts, 4))) for k in range(300)]
    after = forecast([p for p in papers if p[1] <= 2010] + later, until=2010, horizon=3, top=20)
    assert after["pairs"] == before["pairs"] and after["counts"] == before["counts"]


def test_the_shortlist_ranks_as_scoring_every_pair_does(corpus, monkeypatch):
    """Above SHORTLIST_FROM candidates the model scores, for the ranking, the pairs with a common neighbour (and the
    closest in meaning); the AUC sample is scored in full, so the table is the same as scoring every pair."""
    papers, _ = corpus
    full = backtest(papers, until=2010, horizon=3, ks=(3, 10), top=6)
    assert full["counts"]["training"]["scored"] == full["counts"]["candidates"]
    monkeypatch.setattr(forecast_module, "SHORTLIST_FROM", 0)
    short = backtest(papers, until=2010, horizon=3, ks=(3, 10), top=6)
    c = short["counts"]
    assert 0 < c["training"]["scored"] < c["candidates"]
    assert c["off_shortlist_sampled"] == c["candidates"] - c["training"]["scored"]
    assert c["missed_by_shortlist"] == 0
    assert short["rows"] == full["rows"]
    assert [(p["source"], p["target"], p["score"]) for p in short["top"]] == \
        [(p["source"], p["target"], p["score"]) for p in full["top"]]
    # capped too tight (30 pairs of the highest Adamic–Adar: the dense filler's, not the twins'): the ranking loses
    # the twins, and the backtest says so (sampled pairs off the shortlist the model ranks above its 10th)
    monkeypatch.setattr(forecast_module, "SHORTLIST_MOST", 30)
    capped = backtest(papers, until=2010, horizon=3, ks=(3, 10), top=6)
    assert capped["counts"]["training"]["scored"] == 30
    assert capped["rows"][0]["auc"] == full["rows"][0]["auc"]  # the AUC sample is scored in full
    assert capped["rows"][0]["precision_at_3"] < 1.0
    assert capped["counts"]["missed_by_shortlist"] >= 6


def test_two_wordings_of_one_idea_are_not_listed_but_graded_both_ways(corpus):
    """A growing twin renamed so that one name holds every word of the other ("c:zorvat", "c:zorvat network") is a
    near-synonym: the forecast leaves it out of its list; the backtest's protocol columns keep it, the columns
    without near-synonyms set it aside for every method."""
    papers, twins = corpus
    expected = pending(twins, 2010)
    x, y = sorted(expected)[0]
    rename = {x: "c:zorvat", y: "c:zorvat network"}
    renamed = [(pid, year, tuple(sorted(rename.get(c, c) for c in concepts))) for pid, year, concepts in papers]
    result = forecast(renamed, until=2010, horizon=3, top=6)
    listed = {(p["source"], p["target"]) for p in result["pairs"]}
    assert ("c:zorvat", "c:zorvat network") not in listed
    assert listed >= expected - {(x, y)} and len(listed) == 6
    assert result["counts"]["near_synonyms"] >= 1
    graded = backtest(renamed, until=2010, horizon=3, ks=(6,), top=6)
    kg_row = graded["rows"][0]
    assert kg_row["method"] == "kg forecast"
    assert kg_row["precision_at_6"] == 1.0  # the protocol: the renamed twin still counts, and it met
    assert kg_row["precision_at_6_without_near_synonyms"] >= 5 / 6  # the other five twins, and a sixth pair
    assert ("c:zorvat", "c:zorvat network") not in {(p["source"], p["target"]) for p in graded["top"]}


def test_near_synonyms_are_names_within_names_or_nearly_equal_vectors():
    overlap = name_overlap(["c:search engine", "c:Web search engine", "c:user interest", "c:users interest",
                            "c:search interest"])
    assert overlap[0, 1] == 1.0 and overlap[2, 3] == 1.0  # every word, a plural s aside
    assert overlap[0, 4] == 0.5 and overlap[0, 2] == 0.0
    cosine = np.array([[1.0, 0.9], [0.9, 1.0]])
    same = synonym_pairs(np.array([[1.0, 0.5], [0.5, 1.0]]), np.array([[1.0, 0.84], [0.84, 1.0]]))
    assert same.tolist() == [[True, False], [False, True]]
    assert synonym_pairs(np.zeros((2, 2)), cosine)[0, 1]
    with pytest.raises(OptionError) as caught:
        check_counts(top=3, min_size=0)
    assert caught.value.argument == "min_size"


def test_cut_offs_the_papers_cannot_support_are_refused_with_the_range(corpus):
    papers, _ = corpus
    with pytest.raises(OptionError, match=r"2030 is outside .* from 2000 to 2015 .* must be 2003–2012"):
        backtest(papers, until=2030, horizon=3)
    with pytest.raises(OptionError, match=r"must be 2003–2012"):
        backtest(papers, until=2013, horizon=3)  # no three years after it to grade
    with pytest.raises(OptionError, match=r"must be 2003–2015"):
        forecast(papers, until=2001, horizon=3)  # nothing before it to learn from
    with pytest.raises(OptionError) as caught:
        forecast(papers, horizon=0)
    assert caught.value.argument == "horizon"
    with pytest.raises(OptionError, match="too few years"):
        check_until([("a", 2000, ("c:x",))], None, 3, backtest=False)
    assert check_until(papers, None, 3, backtest=False) == 2015


def test_gaps_find_the_unlinked_twins_and_the_backtest_beats_random(corpus):
    papers, twins = corpus
    found = concept_gaps(papers, until=2010, top=5, min_size=3)
    assert found["parameters"]["closeness"] == "co-occurrence profiles"
    inside = {(g["source"], g["target"]) for g in found["concept_gaps"]}
    assert inside & set(twins)  # unlinked pairs inside a cluster with the same partners: twins
    graded = gap_backtest(papers, until=2010, horizon=3, top=10, min_size=3)
    rows = graded["rows"]
    assert rows["concept_gaps"] is not None and rows["pairs_inside_clusters"] is not None
    assert rows["concept_gap_ratio"] > 1.0


def test_gaps_between_clusters_close_in_meaning_list_their_bridges():
    """Two topics whose concepts have similar vectors, linked by one bridging concept only."""
    rng = random.Random(1)
    left, right = [f"c:l{k}" for k in range(6)], [f"c:r{k}" for k in range(6)]
    far = [f"c:o{k}" for k in range(6)]
    papers = []
    for year in range(2000, 2011):
        for group in (left, right, far):
            for k in range(8):
                papers.append((f"{group[0]}-{year}-{k}", year, tuple(sorted(rng.sample(group, 3)))))
        papers.append((f"bridge-{year}", year, ("c:bridge", left[0], right[0])))
        papers.append((f"bridge2-{year}", year, ("c:bridge", left[1], right[1])))
    ids = left + right + far + ["c:bridge"]
    vectors = np.zeros((len(ids), 3), dtype=np.float32)
    for k, c in enumerate(ids):
        vectors[k] = [1, 0.1, 0] if c.startswith(("c:l", "c:r", "c:b")) else [0, 0, 1]
    found = concept_gaps(papers, top=3, min_size=3, vectors=(ids, vectors))
    assert found["parameters"]["closeness"] == "concept vectors"
    best = found["community_gaps"][0]
    pair = {best["source"]["label"].split(", ")[0][:3], best["target"]["label"].split(", ")[0][:3]}
    assert pair == {"c:l", "c:r"}
    assert best["closeness"] > 0.9 and best["link_ratio"] < 1
    assert "c:bridge" in [b["id"] for b in best["bridging_concepts"]] or best["bridging_papers"]
    assert best["bridging_papers"] and best["bridging_papers"][0]["id"].startswith("bridge")


def test_concept_gaps_some_abstract_already_names_together_come_first():
    """Inside one cluster two pairs were never linked: a and b are the closest in meaning, c and d less close but
    named together by an abstract. With the texts read, c–d leads (measured on ACM-CR and hep-th: 3–8% of the top
    100 such gaps were linked within the horizon, against 0–4% by closeness alone); without them, a–b. A text after
    the cut-off counts for nothing."""
    group = ["c:a", "c:b", "c:c", "c:d", "c:e", "c:f"]
    never = {("c:a", "c:b"), ("c:c", "c:d")}
    papers = [(f"{x}{y}{year}{k}", year, (x, y)) for year in range(2000, 2011) for k in range(2)
              for n, x in enumerate(group) for y in group[n + 1:] if (x, y) not in never]
    # cosines: a–b 0.82 (close, yet under the 0.85 of two wordings of one idea), c–d 0.64
    vectors = np.array([[1, 0, 0], [1, 0.7, 0], [0, 1, 0], [0, 1, 1.2], [0.5, 0.5, 0.5], [0.3, 0.6, 0.2]],
                       dtype=np.float32)
    named = {pid: concepts for pid, _, concepts in papers}
    first = papers[0][0]
    named[first] = (*named[first], "c:c", "c:d")  # an abstract of 2000 also names c and d, linking neither
    later = [("z", 2012, ("c:e",))]
    named["z"] = ("c:a", "c:b", "c:e")  # after the cut-off
    plain = concept_gaps(papers + later, until=2010, top=2, min_size=3, vectors=(group, vectors))
    told = concept_gaps(papers + later, until=2010, top=2, min_size=3, vectors=(group, vectors), named=named)
    assert [(g["source"], g["target"]) for g in plain["concept_gaps"]] == [("c:a", "c:b"), ("c:c", "c:d")]
    assert [g["named_together"] for g in plain["concept_gaps"]] == [None, None]
    assert [(g["source"], g["target"], g["named_together"]) for g in told["concept_gaps"]] == \
        [("c:c", "c:d", 1), ("c:a", "c:b", 0)]
    assert told["parameters"]["named"] is True


# --- a build folder: the API, the CLI, the report, the page ----------------------------------------------------


def _records(papers) -> list[dict]:
    """The designed papers as kg records whose keyphrases are invented two-word names of their concepts."""
    every = sorted({c for _, _, concepts in papers for c in concepts})
    name = {c: f"{_word(k)} {_word(k + 4000)}" for k, c in enumerate(every)}
    rows = []
    for pid, year, concepts in papers:
        words = [name[c] for c in concepts]
        rows.append({"id": pid, "title": f"On {words[0]}", "abstract": "We study " + " and ".join(words) + ".",
                     "year": year, "keyphrases": words})
    return rows


@pytest.fixture(scope="module")
def folder(tmp_path_factory, corpus):
    papers, _ = corpus
    base = tmp_path_factory.mktemp("forecast")
    path = base / "designed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _records(papers)), encoding="utf-8")
    graph = keyphrase_graph(path)
    out = base / "out"
    out.mkdir()
    write_graph_files(graph, out)
    KnowledgeGraph(graph, dict(analysis_for(graph))).write_analysis(out, page=False)
    return out


def test_the_api_and_the_cli_agree_on_the_forecast(folder):
    built = load(folder)
    result = built.forecast(top=5)
    assert result["parameters"]["until"] == 2015 and len(result["pairs"]) == 5
    done = runner.invoke(app, ["forecast", str(folder), "--top", "5", "--json", "--no-write"])
    assert done.exit_code == 0, done.output
    listed = json.loads(done.stdout)
    assert [(p["source"], p["target"], p["score"]) for p in listed] == \
        [(p["source"], p["target"], p["score"]) for p in result["pairs"]]
    assert set(listed[0]) >= {"source", "target", "score", "evidence"}
    assert set(listed[0]["evidence"]) >= {"shared_neighbours", "source_growth", "target_growth", "clusters", "papers",
                                          "named_together"}
    assert listed[0]["evidence"]["named_together"]["papers"] >= 0  # the build's texts are read


def test_the_cli_backtest_prints_the_protocol_table(folder):
    done = runner.invoke(app, ["forecast", str(folder), "--until", "2010", "--top", "3"])
    assert done.exit_code == 0, done.output
    for method in ("kg forecast", "preferential attachment", "Adamic–Adar", "common neighbours"):
        assert method in done.output
    assert "backtest at 2010, horizon 3" in done.output and "met" in done.output
    as_json = json.loads(runner.invoke(app, ["forecast", str(folder), "--until", "2010", "--json"]).stdout)
    assert {r["method"] for r in as_json["rows"]} >= {"kg forecast", "common neighbours"}
    assert as_json["rows"][0]["auc"] > 0.9


def test_the_cli_backtest_reads_the_builds_paper_vectors(folder, tmp_path):
    """kg forecast reads the build's document vectors (paper_vectors.npy) and grades what the API gives with them."""
    copy = tmp_path / "out"
    shutil.copytree(folder, copy)
    ids = sorted(p[0] for p in dated_mentions(load(copy).graph))
    matrix = np.random.default_rng(0).normal(size=(len(ids), 8))
    save_paper_vectors(copy, ids, matrix / np.linalg.norm(matrix, axis=1, keepdims=True))
    done = runner.invoke(app, ["forecast", str(copy), "--until", "2010", "--json"])
    assert done.exit_code == 0, done.output
    listed = json.loads(done.stdout)
    assert listed["parameters"]["paper_vectors"] is True
    assert load(copy).backtest(until=2010, paper_vectors=load_paper_vectors(copy))["rows"] == listed["rows"]


@pytest.mark.parametrize("args, message", [
    (["--until", "2040"], "Error: --until: 2040 is outside what the papers allow: they run from 2000 to 2015"),
    (["--until", "1990", "--horizon", "2"], "Error: --until: 1990 is outside"),
])
def test_the_cli_refuses_a_cut_off_outside_the_build(folder, args, message):
    done = runner.invoke(app, ["forecast", str(folder), *args])
    assert done.exit_code == 1 and done.output.startswith(message), done.output
    assert "Traceback" not in done.output
    gaps = runner.invoke(app, ["gaps", str(folder), *args])
    assert gaps.exit_code == 1 and gaps.output.startswith(message), gaps.output


def test_forecast_writes_the_report_section_and_the_page_view(tmp_path, folder):
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(folder, out)
    with pytest.raises(ViewError, match="kg forecast"):
        load(out).to_html(view="forecast")
    done = runner.invoke(app, ["forecast", str(out), "--top", "4"])
    assert done.exit_code == 0, done.output
    assert "wrote" in done.output
    built = load(out)
    pairs = built.analysis["forecast"]["pairs"]
    assert len(pairs) == 4
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "## Concepts likely to meet next" in markdown
    assert pairs[0]["source"] in markdown and pairs[0]["target"] in markdown
    assert "Concepts likely to meet next" in (out / "report.html").read_text(encoding="utf-8")
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["forecast"]["pairs"][0]["source"] == \
        pairs[0]["source"]
    page = built.to_html(view="forecast")
    data = json.loads(page.split('id="kg-data">', 1)[1].split("</script>", 1)[0])
    predicted = [e for e in data["edges"] if e[3] == 2]
    assert len(predicted) == 4
    ids = [n["id"] for n in data["nodes"]]
    assert {(min(ids[e[0]], ids[e[1]]), max(ids[e[0]], ids[e[1]])) for e in predicted} == \
        {(p["source"], p["target"]) for p in pairs}
    source = data["nodes"][ids.index(pairs[0]["source"])]
    assert source["info"]["meets"] and "score" in source["info"]["meets"][0]
    assert "named together in" in source["info"]["meets"][0]  # the page shows what the texts name, too
    assert "texts naming both" in markdown
    again = runner.invoke(app, ["viz", str(out), "--view", "forecast", "--out", str(tmp_path / "f.html")])
    assert again.exit_code == 0, again.output


def test_corpus_text_is_escaped_where_the_forecast_lands():
    hostile = "<img src=x onerror=alert(1)> | *x* \x1b[31m"
    pair = {"source": "c:a", "target": "c:b", "source_name": hostile, "target_name": "b", "score": 0.5,
            "evidence": {"shared_neighbours": [{"id": "c:n", "name": hostile, "with_source": 1, "with_target": 2}],
                         "common_neighbours": 1,
                         "source_growth": {"papers": 5, "recent": 3, "before": 1, "first_year": 2001},
                         "target_growth": {"papers": 6, "recent": 3, "before": 1, "first_year": 2001},
                         "clusters": {"source": {"id": 0, "label": hostile}, "target": {"id": 1, "label": "b"},
                                      "bridges": True},
                         "cosine": None, "papers": [{"id": "p1", "title": hostile, "year": 2005, "mentions": "c:a",
                                                     "near_other": 1}],
                         "named_together": {"papers": 2, "recent": 1,
                                            "latest": [{"id": "p2", "title": hostile, "year": 2009}]}}}
    analysis = {"forecast": {"parameters": {"until": 2010, "horizon": 3, "min_papers": 5},
                             "counts": {"training": {"window": [2007, 2010]}}, "pairs": [pair]}}
    from kg.report import _forecast_section, md_table

    section = _forecast_section(analysis["forecast"])
    table = md_table(section["header"], section["rows"])
    assert "<img" not in table and "\\|" in table and "\x1b" not in table
    assert "| 2 (1); " in table  # the texts naming both: their count, the recent ones, the latest (escaped above)
    from kg.cli.forecast import _pair_rows
    from kg.escape import terminal_text

    assert "\x1b" not in terminal_text(str(_pair_rows([pair])))


def test_gaps_cli_lists_both_kinds_and_grades_them(folder):
    done = runner.invoke(app, ["gaps", str(folder), "--top", "3", "--min-size", "3"])
    assert done.exit_code == 0, done.output
    assert "gaps between concept clusters" in done.output and "close concepts inside a cluster" in done.output
    graded = runner.invoke(app, ["gaps", str(folder), "--until", "2010", "--min-size", "3", "--json"])
    assert graded.exit_code == 0, graded.output
    rows = json.loads(graded.stdout)["rows"]
    assert set(rows) >= {"gaps", "cluster_pairs_same_sizes", "random_same_sizes", "gap_ratio", "concept_gaps",
                         "concept_gap_ratio"}
    assert "cluster pairs alike in size (baseline)" in runner.invoke(
        app, ["gaps", str(folder), "--until", "2010", "--min-size", "3"]).output


# --- one real backtest: a slice of ACM-CR ---------------------------------------------------------------------


def _acm_slice(limit_per_year: int = 400) -> list[dict]:
    """ACM-CR papers of 2005–2016 with their author keywords, at most ``limit_per_year`` a year (file order)."""
    kept, per_year = [], {}
    for line in ACM.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        year = r.get("year")
        if (isinstance(year, int) and 2005 <= year <= 2016 and r.get("abstract") and r.get("keyphrases")
                and per_year.get(year, 0) < limit_per_year):
            per_year[year] = per_year.get(year, 0) + 1
            kept.append({"id": r["id"], "title": r.get("title") or "", "abstract": r["abstract"], "year": year,
                         "keyphrases": r["keyphrases"]})
    return kept


@pytest.mark.slow
def test_a_real_backtest_on_a_slice_of_acm_cr(tmp_path):
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    path = tmp_path / "slice.jsonl"
    rows = _acm_slice()
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    graph = keyphrase_graph(path)
    papers = dated_mentions(graph)
    assert len(papers) > 4000
    result = backtest(papers, until=2012, horizon=3)  # its time is bench/bench_forecast.py's to measure
    rows = {r["method"]: r for r in result["rows"]}
    assert result["counts"]["positives"] > 100 and result["parameters"]["sample"] == result["counts"]["candidates"]
    # measured: kg 0.724, preferential attachment 0.740, Adamic-Adar 0.720 (author keywords are sparse; on
    # kg's own concepts of the full build kg leads, see the README): kg keeps up, it does not lead here
    best_auc = max(r["auc"] for m, r in rows.items() if m != "kg forecast")
    assert rows["kg forecast"]["auc"] >= 0.70
    assert rows["kg forecast"]["auc"] >= best_auc - 0.03
    assert all(p["evidence"]["shared_neighbours"] is not None for p in result["top"])


def test_the_forecast_view_in_the_browser(folder, tmp_path):
    """The page's forecast view in headless Chromium: dashed predicted links in the legend, a concept's
    details list whom it is predicted to meet, no error, nothing fetched."""
    from _browser import chromium, open_page, why_unavailable

    if why_unavailable() is not None:
        pytest.skip(str(why_unavailable()))
    built = load(folder)
    path = tmp_path / "forecast.html"
    path.write_text(built.with_forecast(built.forecast(top=4)).to_html(view="forecast"), encoding="utf-8")
    with chromium() as context:
        page, log, _ = open_page(context, path)
        try:
            shown = page.evaluate("""[...document.querySelectorAll('#kg-shapes li')]
                .filter(li => !li.hidden && getComputedStyle(li).display !== 'none').map(li => li.textContent.trim())""")
            assert "predicted link (kg forecast)" in shown and "citation" not in shown
            assert page.evaluate("kg.data.edges.filter(e => e[3] === 2).length") == 4
            index = page.evaluate("kg.data.nodes.findIndex(n => n.info.meets)")
            page.evaluate("k => kg.select(k)", index)
            details = page.locator("#kg-details").inner_text()
            assert "Likely to meet next (kg forecast)" in details and "score" in details
            assert log.errors == [] and all(url.startswith("file:") for url in log.requests)
        finally:
            page.close()
