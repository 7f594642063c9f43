"""The learned concept filter's chances over a whole build, with the reviewers' labels laid over them.

The filter (:mod:`kg.normalize.quality`) gives each mention of a paper a chance of being a concept an expert would
list, and its policy keeps a mention by its place and that chance. Which chances the kept mentions have, and how good
reviewers judged the concepts at each chance, say where a policy gains or loses: round forty-eight read from such a
log that fills under 0.5 were judged good 12–52% of the time, that kept mentions of 0.6–0.7 were as good as the
lists' average, and that 2,606 ACM-CR mentions had no chance at all (no vector: they always stayed).

    .venv/bin/python bench/filter_chances.py build LOG -- ../shared/data/acm_cr/papers.jsonl --out OUT --cache C
    .venv/bin/python bench/filter_chances.py bands LOG OUT --field acm
    .venv/bin/python bench/filter_chances.py policy LOG OUT --field acm --protected 0.5 --floor 0.5

``build`` runs ``kg build`` with the given arguments and writes one JSON line per paper, in the filter's order:
``[concept id, place, chance or null, kept]`` for each of its mentions before the filter. ``bands`` prints, for the
kept mentions, the mean of their concepts' label shares (each mention counted once; labels of the field matched to
the build's names as shown, case and acronym included) by kind (``protected``: the first places, ``above``: at or
over the threshold, ``filled``: kept to fill a short list, ``unjudged``: no chance) and by tenth of chance.
``policy`` replays another policy on the logged chances and prints the mentions kept, their labels' share and,
where the build's corpus has author keywords, their F1@5 / F1@10 (:func:`kg.evaluate.score_keyphrases`; names
without acronyms, as ``bench/eval_acm_keywords.py`` matches them).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from dataclasses import replace
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from concept_lists import LABELS_FILE, field_votes  # noqa: E402
from kg.cli import main as kg_main  # noqa: E402
from kg.evaluate import score_keyphrases  # noqa: E402
from kg.extract.embedder import DEFAULT_MODEL  # noqa: E402
from kg.models import concept_label  # noqa: E402
from kg.normalize import quality  # noqa: E402

Row = tuple[str, int, "float | None", bool]  # concept id, place in the paper's list, chance, kept


def read_log(path: str | Path) -> list[list[Row]]:
    """The papers of a log ``build`` wrote, each a list of ``(concept id, place, chance, kept)``."""
    with open(path, encoding="utf-8") as lines:
        return [[(cid, int(place), chance, bool(kept)) for cid, place, chance, kept in json.loads(line)]
                for line in lines]


def kind(place: int, chance: float | None, model: quality.QualityModel) -> str:
    """What kept a mention: ``unjudged`` (no chance), ``protected`` (one of the first places), ``above`` (at or over
    the threshold) or ``filled`` (kept to fill a short list, or as a paper's only one).

    Examples
    --------
    >>> m = quality.QualityModel(*[[0.0]] * 3, 0.0, 0.6, 2, "m")
    >>> [kind(0, 0.3, m), kind(2, 0.7, m), kind(3, 0.55, m), kind(4, None, m)]
    ['protected', 'above', 'filled', 'unjudged']
    """
    if chance is None:
        return "unjudged"
    if place < model.protect:
        return "protected"
    return "above" if chance >= model.threshold else "filled"


def bands(papers: Iterable[Sequence[Row]], good: Callable[[str], float | None],
          model: quality.QualityModel) -> dict[tuple[str, str], tuple[int, int, float]]:
    """Per (kind, tenth of chance) of the kept mentions: how many, how many of them reviewers labelled, and the mean
    of those labelled mentions' good shares (``good(concept id)``: None where unlabelled).

    Examples
    --------
    >>> m = quality.QualityModel(*[[0.0]] * 3, 0.0, 0.6, 1, "m")
    >>> papers = [[("c:a", 0, 0.9, True), ("c:b", 1, 0.45, True), ("c:c", 2, 0.3, False)], [("c:b", 0, 0.42, True)]]
    >>> bands(papers, {"c:a": 1.0, "c:b": 0.25}.get, m)
    {('protected', '0.9'): (1, 1, 1.0), ('filled', '0.4'): (1, 1, 0.25), ('protected', '0.4'): (1, 1, 0.25)}
    """
    found: dict[tuple[str, str], list[float]] = {}
    for rows in papers:
        for cid, place, chance, kept in rows:
            if not kept:
                continue
            key = (kind(place, chance, model), "none" if chance is None else f"{int(chance * 10) / 10:.1f}")
            n, labelled, total = found.get(key, [0, 0, 0.0])
            share = good(cid)
            found[key] = [n + 1, labelled + (share is not None), total + (share or 0.0)]
    return {key: (n, labelled, total / labelled if labelled else 0.0) for key, (n, labelled, total) in found.items()}


def replay(rows: Sequence[Row], model: quality.QualityModel, *, corpus: bool = True) -> list[str]:
    """The concept ids a paper keeps, in their order, under ``model``'s policy
    (:func:`kg.normalize.quality.apply_policy` on the logged chances; a mention logged without one stays); ``corpus``:
    whether the build's corpus said something of its concepts (200 papers or more).

    Examples
    --------
    >>> from dataclasses import replace
    >>> m = quality.QualityModel(*[[0.0]] * 3, 0.0, 0.6, 2, "m", min_kept=3, protected_threshold=0.4, fill_floor=0.2)
    >>> rows = [("c:a", 0, 0.45, True), ("c:b", 1, 0.7, True), ("c:c", 2, 0.55, True), ("c:d", 3, 0.3, False)]
    >>> replay(rows, m)
    ['c:a', 'c:b', 'c:c']
    >>> replay(rows, replace(m, protected_threshold=0.5, fill_floor=0.6))
    ['c:b']
    """
    judged = [(0, place) for _, place, chance, _ in rows if chance is not None]
    chance = np.array([chance for _, _, chance, _ in rows if chance is not None])
    flags = quality.apply_policy([[("", cid) for cid, _, _, _ in rows]], judged, chance, model,
                                 {"": ()} if corpus else {})[0]
    return [cid for (cid, _, _, _), kept in zip(rows, flags) if kept]


def label_shares(field: str, labels: Path = LABELS_FILE) -> dict[str, float]:
    """Name as shown -> the share of its labels of ``field`` that say good."""
    return {name: counts["good"] / sum(counts.values()) for name, counts in field_votes(field, labels=labels).items()}


def _build_names(build: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Concept id -> name as shown (with its acronym), and -> plain name."""
    shown, plain = {}, {}
    with open(build / "concepts.csv", encoding="utf-8", newline="") as rows:
        for row in csv.DictReader(rows):
            shown[row["id"]] = concept_label(row["name"], row["acronym"] or None)
            plain[row["id"]] = row["name"]
    return shown, plain


def _paper_ids(build: Path, papers: Sequence[Sequence[Row]]) -> list[str | None]:
    """Each logged paper's id, matched by its kept concepts in order to the build's mentions (None where two papers
    keep the same list, or the log is of another build)."""
    ranked: dict[str, list[tuple[int, str]]] = defaultdict(list)
    with open(build / "mentions.csv", encoding="utf-8", newline="") as rows:
        for row in csv.DictReader(rows):
            ranked[row["paper_id"]].append((int(row["rank"]), row["concept_id"]))
    by_list: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for pid, rows in ranked.items():
        by_list[tuple(cid for _, cid in sorted(rows))].append(pid)
    out = []
    for rows in papers:
        ids = by_list.get(tuple(cid for cid, _, _, kept in rows if kept), [])
        out.append(ids[0] if len(ids) == 1 else None)
    return out


def log_build(log: str | Path, argv: list[str]) -> None:
    """``kg build`` with ``argv`` in this process, every paper's judged mentions written to ``log``: the filter's
    part that judges a batch of papers is wrapped while the build runs."""
    judge = quality._keep_part
    argv_before = sys.argv

    with open(log, "w", encoding="utf-8") as out:
        def logged(papers, model, vector_of, keep, corpus):
            rows, chance = quality.mention_chances(papers, model, vector_of, keep, corpus)
            flags = quality.apply_policy(papers, rows, chance, model, corpus)
            given = dict(zip(rows, (float(c) for c in chance)))
            for p, ranked in enumerate(papers):
                out.write(json.dumps([[cid, i, given.get((p, i)), flags[p][i]] for i, (_, cid) in enumerate(ranked)])
                          + "\n")
            return flags

        quality._keep_part = logged
        sys.argv = ["kg", "build", *argv]
        try:
            kg_main()
        except SystemExit as done:
            if done.code:
                raise
        finally:
            quality._keep_part, sys.argv = judge, argv_before


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="kg build, logging the filter's chances")
    build.add_argument("log")
    build.add_argument("args", nargs=argparse.REMAINDER, help="kg build's arguments, after --")
    for name in ("bands", "policy"):
        each = sub.add_parser(name)
        each.add_argument("log")
        each.add_argument("build")
        each.add_argument("--field", required=True, choices=["acm", "hep", "inspec"])
        if name == "policy":
            each.add_argument("--threshold", type=float)
            each.add_argument("--protected", type=float)
            each.add_argument("--floor", type=float)
            each.add_argument("--min-kept", type=int)
    args = parser.parse_args(argv)
    if args.command == "build":
        log_build(args.log, [a for a in args.args if a != "--"])
        return
    model = quality.load_quality_model(DEFAULT_MODEL)
    papers = read_log(args.log)
    shown, plain = _build_names(Path(args.build))
    shares = label_shares(args.field)
    good = lambda cid: shares.get(shown.get(cid, cid))  # noqa: E731
    if args.command == "bands":
        for (what, band), (n, labelled, share) in sorted(bands(papers, good, model).items()):
            print(f"{what:>10} {band:>4}  mentions {n:>7,}  labelled {labelled:>7,}  good {share:.1%}")
        return
    asked = {"threshold": args.threshold, "protected_threshold": args.protected, "fill_floor": args.floor,
             "min_kept": args.min_kept}
    model = replace(model, **{name: value for name, value in asked.items() if value is not None})
    corpus = len(papers) >= quality.CORPUS_MIN_PAPERS
    kept = [replay(rows, model, corpus=corpus) for rows in papers]
    labelled = [s for s in (good(cid) for cids in kept for cid in cids) if s is not None]
    policy = {name: getattr(model, name) for name in asked}
    print(f"{policy}: {sum(map(len, kept)):,} mentions, labelled {len(labelled):,}, "
          f"good {sum(labelled) / max(len(labelled), 1):.2%}")
    gold = {}
    with open(Path(args.build) / "corpus.jsonl", encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            if paper.get("keyphrases"):
                gold[paper["id"]] = paper["keyphrases"]
    if gold:
        ids = _paper_ids(Path(args.build), papers)
        predictions = {pid: [plain.get(cid, cid) for cid in cids] for pid, cids in zip(ids, kept) if pid}
        scores = score_keyphrases(predictions, gold, ks=(5, 10))
        print(f"author keywords of {len(predictions):,} papers: F1@5 {scores[5]['f1']}, F1@10 {scores[10]['f1']}")


if __name__ == "__main__":
    main()
