"""Keep two reviewers' labels of a judged packet with the others, and the packet's texts with them.

A packet is a folder ``bench/audit_concepts.py BUILD --sample 35 --seed S --out DIR`` wrote (``sample.json``,
``labels_template.json``); each reviewer, given only ``bench/review_prompt.md`` and the packet, fills a copy of the
template (``labels-a.json``, ``labels-b.json``). This appends one row per concept to
``bench/data/concept_labels.jsonl`` (field, sample, paper, rank, the paper's concept count, name, both labels) and one
row per paper to ``bench/data/concept_label_texts.jsonl`` (title and abstract: what later rounds match builds against).

    .venv/bin/python bench/add_labels.py r56 s56c-acm-rand /work/review/k167 [s56d-acm-rand /work/review/k168 ...]

The sample's name says its field (``-acm-``, ``-hep-``, else ``inspec``); the round prefixes it (``r56/s56c-acm-rand``).
A packet whose label files miss a concept, or label one with a word outside the rubric, is refused before anything is
written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
LABELS = ("good", "generic", "near-duplicate", "ungrammatical", "broken-name", "wrong")


def field_of(sample: str) -> str:
    """The corpus a sample's name says: "acm", "hep" or "inspec"."""
    return "acm" if "-acm-" in sample else "hep" if "-hep-" in sample else "inspec"


def packet_rows(round_name: str, sample: str, folder: Path) -> tuple[list[dict], list[dict]]:
    """The label rows and the text rows of one judged packet; ValueError when a label is missing or unknown."""
    papers = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
    votes = []
    for reviewer in ("a", "b"):
        rows = json.loads((folder / f"labels-{reviewer}.json").read_text(encoding="utf-8"))
        votes.append({(row["paper"], row["concept"]): row.get("label") for row in rows})
    labels, texts = [], []
    for paper in papers:
        for rank, name in enumerate(paper["concepts"], start=1):
            pair = [vote.get((paper["paper"], rank)) for vote in votes]
            if any(label not in LABELS for label in pair):
                raise ValueError(f"{folder}: paper {paper['paper']}, concept {rank} ({name!r}): labels {pair}")
            labels.append({"field": field_of(sample), "sample": f"{round_name}/{sample}", "paper": paper["paper"],
                           "rank": rank, "concepts": len(paper["concepts"]), "name": name, "labels": pair})
        texts.append({"sample": f"{round_name}/{sample}", "paper": paper["paper"], "title": paper["title"],
                      "abstract": paper["abstract"]})
    return labels, texts


def append(path: Path, rows: list[dict]) -> None:
    with open(path, "a", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("round", help="label round, e.g. r56")
    parser.add_argument("packets", nargs="+", help="pairs: SAMPLE_NAME PACKET_FOLDER")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the label files (default bench/data)")
    args = parser.parse_args(argv)
    if len(args.packets) % 2:
        sys.exit("Error: packets come in pairs: SAMPLE_NAME PACKET_FOLDER")
    pairs = list(zip(args.packets[::2], args.packets[1::2]))
    try:
        found = [(sample, *packet_rows(args.round, sample, Path(folder))) for sample, folder in pairs]
    except (OSError, ValueError, KeyError) as exc:
        sys.exit(f"Error: {exc}")
    for sample, labels, texts in found:
        append(args.data / "concept_labels.jsonl", labels)
        append(args.data / "concept_label_texts.jsonl", texts)
        print(f"{args.round}/{sample}: {len(labels)} concepts of {len(texts)} papers")


if __name__ == "__main__":
    main()
