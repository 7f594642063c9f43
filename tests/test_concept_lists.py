"""bench/concept_lists.py: two builds' changed lists, and labels read against a build (no model)."""

from __future__ import annotations

import json

from conftest import bench_script

lists = bench_script("concept_lists")


def test_changed_lists_count_what_left_and_what_came():
    old = {"p1": ("T1", "A1", ["graph", "user preference"]), "p2": ("T2", "A2", ["brane"]),
           "p3": ("T3", "A3", ["holography"])}
    new = {"p1": ("T1", "A1", ["graph", "user satisfaction"]), "p2": ("T2", "A2", ["brane world"]),
           "p3": ("T3", "A3", ["holography"])}
    papers, lost, gained = lists.changed(old, new)
    assert papers == ["p1", "p2"]
    assert lost == {"user preference": 1, "brane": 1} and gained == {"user satisfaction": 1, "brane world": 1}


def test_labels_are_read_where_the_build_still_lists_their_concept(tmp_path):
    texts, labels = tmp_path / "texts.jsonl", tmp_path / "labels.jsonl"
    texts.write_text("\n".join(json.dumps(row) for row in [
        {"sample": "r9/s-hep-rand", "paper": 1, "title": "Branes  Wrapped", "abstract": "On  branes."},
        {"sample": "r9/s-hep-rand", "paper": 2, "title": "Gone", "abstract": "Not in the build."},
        {"sample": "r8/s-acm-rand", "paper": 1, "title": "Branes Wrapped", "abstract": "On branes."}]), encoding="utf-8")
    labels.write_text("\n".join(json.dumps(row) for row in [
        {"sample": "r9/s-hep-rand", "paper": 1, "name": "brane", "labels": ["generic", "generic"]},
        {"sample": "r9/s-hep-rand", "paper": 1, "name": "cycle", "labels": ["good", "good"]},
        {"sample": "r9/s-hep-rand", "paper": 2, "name": "brane", "labels": ["good", "good"]},
        {"sample": "r8/s-acm-rand", "paper": 1, "name": "brane", "labels": ["good", "wrong"]}]), encoding="utf-8")
    build = {"x": ("Branes wrapped", "On branes.", ["wrapped brane", "brane"])}
    found = lists.still_listed(build, r"r9/.*-hep-", labels=labels, texts=texts)
    # the title and abstract find the paper whatever their spaces and case; "cycle" is no longer listed
    assert [(row["name"], row["now_rank"], row["labels"]) for row in found] == [("brane", 2, ["generic", "generic"])]


def test_a_fields_labels_weigh_on_a_builds_slots_in_their_proportions(tmp_path):
    labels = tmp_path / "labels.jsonl"
    labels.write_text("\n".join(json.dumps(row) for row in [
        {"field": "acm", "sample": "r1/s-acm-rand", "paper": 1, "name": "search engine", "labels": ["generic", "generic"]},
        {"field": "acm", "sample": "r2/s-acm-rand", "paper": 4, "name": "Search engine", "labels": ["good", "generic"]},
        {"field": "acm", "sample": "r2/s-acm-rand", "paper": 4, "name": "topic model", "labels": ["good", "good"]},
        {"field": "hep", "sample": "r2/s-hep-rand", "paper": 1, "name": "topic model", "labels": ["wrong", "wrong"]}]),
        encoding="utf-8")
    build = {"a": ("A", "", ["search engine", "topic model"]), "b": ("B", "", ["search engine", "unlabelled"]),
             "c": ("C", "", ["topic model"])}
    shares, by_label = lists.labelled_slots(build, "acm", labels=labels)
    # two slots of "search engine", its two labels generic; two of "topic model", all good; no hep label, and no label
    # of the name another build showed ("Search engine")
    assert shares == {"generic": 2, "good": 2}
    assert by_label["generic"] == {"search engine": 2} and by_label["good"] == {"topic model": 2}
