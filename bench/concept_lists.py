"""Compare builds' concept lists, and read the reviewers' labels against a build.

Two questions come before any packet is drawn: which papers' top-10 lists a change changed, and which labelled
concepts a build still lists where the reviewers saw them (what random packets of that build will keep showing).

    .venv/bin/python bench/concept_lists.py diff OLD_BUILD NEW_BUILD [--show 60]
    .venv/bin/python bench/concept_lists.py still BUILD --samples 'r5[0-5]/.*-acm-' [--show 40]
    .venv/bin/python bench/concept_lists.py slots BUILD --field acm [--show 40]

``diff`` prints how many papers' lists differ and the concepts the changed lists lost and gained (mentions);
``still`` matches the labelled papers of ``bench/data/concept_label_texts.jsonl`` to the build's papers by title and
abstract, and prints the label shares of the concepts still in the same paper's top 10, by number of words, and the
ones not judged good by both reviewers. ``slots`` lays all of a field's labels over a whole build, whatever paper they
were given in: each top-10 slot whose concept reviewers ever labelled counts for its labels in their proportions, and
the concepts holding the most slots of each label come first (where a round's rules will move most of the lists:
round forty-seven read "search engine", 119 of ACM-CR's slots and 26 of 30 labels generic, from it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_concepts import ranked_concepts  # noqa: E402

from kg.graphfile import load_graph  # noqa: E402
from kg.models import concept_label  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
LABELS_FILE = DATA / "concept_labels.jsonl"
LABEL_TEXTS = DATA / "concept_label_texts.jsonl"


def top_lists(build: str | Path, top: int = 10) -> dict[str, tuple[str, str, list[str]]]:
    """Paper id -> (title, abstract, its first ``top`` concepts as the packets show them)."""
    graph = load_graph(build)
    ranked = ranked_concepts(graph, top=top)
    out = {}
    for paper, concepts in ranked.items():
        data = graph.nodes[paper]
        out[paper] = (str(data.get("title") or ""), " ".join(str(data.get("abstract") or "").split()),
                      [concept_label(graph.nodes[c]["name"], graph.nodes[c].get("acronym")) for c in concepts])
    return out


def changed(old: dict, new: dict) -> tuple[list[str], Counter, Counter]:
    """The papers whose lists differ, and the concepts those lists lost and gained."""
    papers = [p for p in old if p in new and old[p][2] != new[p][2]]
    lost, gained = Counter(), Counter()
    for p in papers:
        before, after = set(old[p][2]), set(new[p][2])
        lost.update(before - after)
        gained.update(after - before)
    return papers, lost, gained


def _paper_key(title: str, abstract: str) -> tuple[str, str]:
    return " ".join(title.split()).lower()[:60], " ".join(abstract.split()).lower()[:80]


def still_listed(lists: dict, samples: str, *, labels: Path = LABELS_FILE, texts: Path = LABEL_TEXTS) -> list[dict]:
    """The labels of samples matching the regular expression ``samples`` whose concept ``lists`` still holds in the
    same paper's list (each row with ``now_rank``); the labelled papers are found by title and abstract."""
    pattern = re.compile(samples)
    by_text = {_paper_key(title, abstract): paper for paper, (title, abstract, _) in lists.items()}
    where = {}
    with open(texts, encoding="utf-8") as texts:
        for line in texts:
            row = json.loads(line)
            if pattern.search(row["sample"]):
                where[(row["sample"], row["paper"])] = by_text.get(_paper_key(row["title"] or "", row["abstract"] or ""))
    found = []
    with open(labels, encoding="utf-8") as labels:
        for line in labels:
            row = json.loads(line)
            paper = where.get((row["sample"], row["paper"]))
            if paper is not None and row["name"] in lists[paper][2]:
                found.append({**row, "now_rank": lists[paper][2].index(row["name"]) + 1})
    return found


def field_votes(field: str, *, labels: Path = LABELS_FILE) -> dict[str, Counter]:
    """Name as shown -> the labels reviewers gave it in ``field``'s packets, counted."""
    votes: dict[str, Counter] = defaultdict(Counter)
    with open(labels, encoding="utf-8") as rows:
        for line in rows:
            row = json.loads(line)
            if row["field"] == field:
                votes[row["name"]].update(row["labels"])
    return votes


def labelled_slots(lists: dict, field: str, *, labels: Path = LABELS_FILE) -> tuple[Counter, dict[str, Counter]]:
    """How the labels of ``field`` weigh on a build's ``lists``: per label, the top-10 slots whose concept reviewers
    gave it (a concept's slots shared out in its labels' proportions), and per label the concepts by those slots.
    Names match as shown, case and all: a label of "semantic Web" (judged broken) says nothing of "Semantic Web". Slots
    of concepts nobody labelled are left out."""
    votes = field_votes(field, labels=labels)
    slots = Counter(name for _, _, names in lists.values() for name in names)
    shares: Counter = Counter()
    by_label: dict[str, Counter] = defaultdict(Counter)
    for name, n in slots.items():
        given = votes.get(name)
        if not given:
            continue
        total = sum(given.values())
        for label, k in given.items():
            shares[label] += n * k / total
            by_label[label][name] += n * k / total
    return shares, by_label


def _shares(rows: list[dict]) -> str:
    votes = Counter(label for row in rows for label in row["labels"])
    total = sum(votes.values()) or 1
    return f"{len(rows)} concepts, " + ", ".join(f"{label} {n / total:.1%}" for label, n in votes.most_common())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    diff = sub.add_parser("diff", help="papers whose top 10 differ, concepts lost and gained")
    diff.add_argument("old")
    diff.add_argument("new")
    diff.add_argument("--show", type=int, default=60)
    still = sub.add_parser("still", help="labelled concepts a build still lists")
    still.add_argument("build")
    still.add_argument("--samples", required=True, help="regular expression over label samples ('r5[0-5]/.*-hep-')")
    still.add_argument("--show", type=int, default=40)
    slots = sub.add_parser("slots", help="a field's labels laid over a whole build's top-10 slots")
    slots.add_argument("build")
    slots.add_argument("--field", required=True, choices=["acm", "hep", "inspec"])
    slots.add_argument("--show", type=int, default=40)
    args = parser.parse_args(argv)
    if args.command == "diff":
        papers, lost, gained = changed(top_lists(args.old), top_lists(args.new))
        print(f"{len(papers)} papers' lists differ")
        for title, counts in (("lost", lost), ("gained", gained)):
            print(f"{title} ({sum(counts.values())} mentions): "
                  + "; ".join(f"{name} {n}" for name, n in counts.most_common(args.show)))
        return
    if args.command == "slots":
        lists = top_lists(args.build)
        shares, by_label = labelled_slots(lists, args.field)
        total, labelled = sum(len(names) for _, _, names in lists.values()), sum(shares.values())
        print(f"{total} top-10 slots, {labelled:.0f} of labelled concepts: "
              + ", ".join(f"{label} {n / (labelled or 1):.1%}" for label, n in shares.most_common()))
        for label, counts in sorted(by_label.items(), key=lambda kv: -shares[kv[0]]):
            print(f"{label}: " + "; ".join(f"{name} {n:.0f}" for name, n in counts.most_common(args.show)))
        return
    rows = still_listed(top_lists(args.build), args.samples)
    print("still listed:", _shares(rows))
    by_length = defaultdict(list)
    for row in rows:
        by_length[len(row["name"].split())].append(row)
    for words in sorted(by_length):
        print(f"  {words} word(s): {_shares(by_length[words])}")
    bad = Counter((row["name"], "/".join(sorted(set(row["labels"])))) for row in rows if row["labels"].count("good") < 2)
    print("not good by both:", "; ".join(f"{name} ({labels})" for (name, labels), _ in bad.most_common(args.show)))


if __name__ == "__main__":
    main()
