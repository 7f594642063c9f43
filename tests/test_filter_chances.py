"""bench/filter_chances.py: the learned filter's chances logged over a real build, and policies replayed on them."""

from __future__ import annotations

import csv
import json
from dataclasses import replace

from conftest import ROOT, bench_script
from kg.normalize import quality

chances = bench_script("filter_chances")


def test_a_replayed_policy_keeps_what_the_filter_would():
    rows = [("c:a", 0, 0.45, True), ("c:b", 1, 0.7, True), ("c:c", 2, 0.55, True), ("c:d", 3, 0.3, False),
            ("c:e", 4, None, True)]
    loose = quality.QualityModel(*[[0.0]] * 3, 0.0, 0.6, 2, "m", min_kept=3, protected_threshold=0.4, fill_floor=0.2)
    assert chances.replay(rows, loose) == ["c:a", "c:b", "c:e"]  # three kept: no fill needed
    assert chances.replay(rows[:4], loose) == ["c:a", "c:b", "c:c"]  # the likeliest of the rest fills the third
    strict = replace(loose, protected_threshold=0.5, fill_floor=0.6)
    assert chances.replay(rows[:4], strict) == ["c:b"]
    assert chances.replay([("c:d", 0, 0.3, False), ("c:f", 1, 0.1, False)], strict) == ["c:d"]  # one at least


def test_a_logged_build_logs_every_paper_and_what_its_filter_kept(tmp_path):
    corpus = ROOT / "tests" / "fixtures" / "recommender.jsonl"
    log, out = tmp_path / "chances.jsonl", tmp_path / "out"
    judge = quality._keep_part
    chances.log_build(log, [str(corpus), "--out", str(out)])
    assert quality._keep_part is judge  # the filter is as it was after the build
    papers = chances.read_log(log)
    with open(out / "mentions.csv", encoding="utf-8", newline="") as rows:
        mentions = list(csv.DictReader(rows))
    assert len(papers) == sum(1 for _ in open(out / "corpus.jsonl", encoding="utf-8"))
    assert sum(kept for rows in papers for _, _, _, kept in rows) == len(mentions)
    assert all(chance is None or 0.0 <= chance <= 1.0 for rows in papers for _, _, chance, _ in rows)
    assert any(chance is not None for rows in papers for _, _, chance, _ in rows)
    # each paper's kept concepts are its mentions in rank order
    ids = chances._paper_ids(out, papers)
    ranked = {}
    for row in mentions:
        ranked.setdefault(row["paper_id"], []).append((int(row["rank"]), row["concept_id"]))
    for pid, rows in zip(ids, papers):
        if pid is not None:
            assert [cid for cid, _, _, kept in rows if kept] == [cid for _, cid in sorted(ranked[pid])]
    # the bands of the kept mentions count them all
    model = quality.load_quality_model(chances.DEFAULT_MODEL)
    found = chances.bands(papers, lambda cid: None, model)
    assert sum(n for n, _, _ in found.values()) == len(mentions)
    assert all(isinstance(json.loads(line), list) for line in log.read_text("utf-8").splitlines())
