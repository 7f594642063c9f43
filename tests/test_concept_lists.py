"""bench/concept_lists.py: two builds' changed lists, and labels read against a build (no model)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
_spec = importlib.util.spec_from_file_location("concept_lists", ROOT / "bench" / "concept_lists.py")
lists = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lists)


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
