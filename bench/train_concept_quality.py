"""Train the concept-quality filter (:mod:`kg.normalize.quality`) from reviewers' labels.

``bench/data/concept_labels.jsonl`` holds 75,733 concepts of random papers of ACM-CR, hep-th and Inspec
(the packaged weights were fitted on the first 28,883, round twenty-three; earlier weights on the first 12,799; r39 to r71
came after; r28 to r71's "-diff"
samples are drawn among the papers two builds list differently, ``bench/audit_concepts.py --differ``), each
labelled by two independent
reviewers with the rubric (good / generic / near-duplicate / ungrammatical / broken-name / wrong), with the
concept's rank and its paper's concept count in the build judged. A concept is "good" when both reviewers said so. The names are embedded with the
packaged model, the features are :func:`kg.normalize.quality.name_features`,
:func:`~kg.normalize.quality.rank_features`, :func:`~kg.normalize.quality.context_features` and
:func:`~kg.normalize.quality.corpus_features` (``bench/data/concept_corpus_features.json``, written by
``bench/concept_corpus_features.py`` from builds of the whole corpora without the filter: ACM-CR, all of
hep-th, all 2,000 Inspec abstracts; 11,369 of the first 12,799 labels' names were found there; after builds of
round seventeen's code 87% of the 20,976 labels of r1 to r32 have them, 65% before; after builds of round
twenty-six's code 28,725 of the first 32,899; after builds of round twenty-nine's code 34,847 of the first 39,699; the
rest read as
:data:`~kg.normalize.quality.NO_CORPUS`), and gradient-boosted trees are fitted (LightGBM, deterministic;
kg evaluates the dumped trees with numpy, :class:`kg.normalize.quality.Trees`). Every row with corpus
features is also learned with ``NO_CORPUS`` instead (:func:`with_unknown_corpus`), so that a corpus too
small to judge gets the model of names and places alone. Held out by sample (the same papers judged on
two builds are one sample), the trees' AUC is 0.783 (ACM-CR 0.762, hep-th 0.798, Inspec 0.771; on the first
12,799 labels 0.781: 0.756 / 0.805 / 0.775, without the
corpus features 0.775: 0.749 / 0.793 / 0.778; on an earlier, smaller label set 0.80 against 0.76 for the
logistic regression kg used before, which ``--linear`` fits instead). Before the final fit, every sample
is held out in turn (trained on the others): the held-out AUC and, at the chosen thresholds, the share of
mentions kept and the share of good among them are printed and stored with the weights, per field and
cross-field.

Round thirty measured a refit on all 39,699 labels and the paper's own text as evidence, and packaged neither
(docs/EXTRACTION.md, round thirty). Trained on the labels before round 43 and judged on the 6,800 of rounds 43 to 46,
the refit's AUC is the packaged trees' (0.748 against 0.747); with five features of the paper's text (the concept's
cosine with the paper, whether the title writes it, how often the text writes it and its head, and how often a word
comes right before it; from the titles and abstracts of the 77 packets whose texts were kept then, 11,551 labels;
``bench/data/concept_label_texts.jsonl`` keeps them, and the texts of every packet since) 0.759, but not where the filter cuts: dropping the lowest
5%, 10% or 15% of those mentions by either model leaves the same good share (ACM-CR 73.5 / 75.5 / 76.9-77.1%), and
in builds of the whole corpora both refits keep umbrella terms the packaged trees drop ("information retrieval" in
303 and 335 ACM-CR papers against 168, "string theory" in 103 hep-th papers against none): the labels since round
twenty-four judge the mentions the packaged filter kept, so a refit learns little of those it dropped.

A refit on the first 32,899 labels (round twenty-six, with the corpus features read again from that round's builds
without the filter) was measured and not packaged either: held out by sample, its AUC on the 4,016 labels after the
packaged fit rises a little (ACM-CR random 0.705 → 0.711, hep-th 0.755 → 0.771), but two reviewers judged the lists it
changes no better (ACM-CR 69.3% → 68.2% good, hep-th 81.9% → 79.0%; docs/EXTRACTION.md, round twenty-six).

A refit on all 26,215 labels (round twenty, with the batch-independent vectors of round nineteen) was measured and
not packaged: on the 13,416 labels that came after the packaged fit, held out by sample, its AUC is ACM-CR 0.733 →
0.753, hep-th 0.754 → 0.788, Inspec 0.737 → 0.731, and at the packaged policy its kept mentions are as good (ACM-CR
70.4% → 70.5%, hep-th 74.6% → 75.3%); but in a build of all of ACM-CR it keeps more (113,050 mentions against
105,903) and the author keywords fall, F1@5 / F1@10 16.56 / 16.73 → 16.32 / 16.64 (at a threshold of 0.60,
107,592 mentions: 16.48 / 16.70; a fill floor of 0.40: 16.22 / 16.55).

Usage::

    .venv/bin/python bench/train_concept_quality.py            # prints CV, writes kg/resources/concept_quality.json
    .venv/bin/python bench/train_concept_quality.py --dry-run  # prints CV only
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import lightgbm
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from kg.atomic import atomic_write
from kg.extract import load_embedder
from kg.extract.embedder import DEFAULT_MODEL
from kg.normalize.quality import (HAND_FEATURES, NO_CORPUS, Trees, context_features, name_features,
                                  rank_features)

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "bench" / "data" / "concept_labels.jsonl"
CORPUS = ROOT / "bench" / "data" / "concept_corpus_features.json"
OUT = ROOT / "kg" / "resources" / "concept_quality.json"
C = 0.3
# the policy, chosen on the held-out chances of all 12,799 labels: at 0.55 and 0.40 the filter keeps 89.0% of the
# judged mentions, 69.6% of them good, and loses 4.8% of the good ones (at 0.50 and no protected drop: 91.5%, 68.7%,
# 3.4%; the same policy without the corpus features keeps 87.7%, 69.8% good, losing 5.9%). A protected mention
# under 0.40 was good 16% of the time (253 of 5,517 in the first two places). Refitted on all 28,883 labels (round
# twenty-three) the trees give the concepts they never saw judged (those earlier filters dropped) higher chances: at
# 0.55 a build of all of ACM-CR keeps more than before (113,050 mentions against 105,903 in round twenty), at 0.60
# with MIN_KEPT 3 as many as the earlier fit at 0.55 (4.02 a paper against 4.03), and reviewers judged the lists
# that changed better (ACM-CR 72.7% -> 79.9% good; docs/EXTRACTION.md, round twenty-three). Round forty-nine: 0.65
# (docs/EXTRACTION.md, round forty-nine; replayed on round forty-eight's logged builds with bench/filter_chances.py
# policy, ACM-CR's labelled slots 83.8% -> 84.8% good, author keywords 17.21 / 17.12 -> 17.22 / 17.18, mentions
# -7.8%; hep-th 88.1% -> 88.7%, mentions -4.4%)
THRESHOLD = 0.65
# where the corpus says nothing (under 200 papers) the filter keeps round ten's threshold: the 38 seed papers met on
# 12 shared concepts at 0.50 and on 10 at 0.55 ("causal inference", "pre-trained model" lost their second paper)
THRESHOLD_WITHOUT_CORPUS = 0.50
PROTECT = 2
# where the corpus says something a paper keeps its first two and the likeliest third; a fourth only from THRESHOLD up
# (round twenty-three: on the 15,349 labels after the packaged fit, the random samples' held-out chances, the good
# among the kept rise from 70.2% to 72.8% on ACM-CR, 75.7% to 76.9% on hep-th, 68.6% to 69.0% on Inspec; the fourth
# place a fill takes was good 35% of the time. ACM-CR author keywords F1@5/10 16.54/16.71 -> 16.45/16.63, the umbrella
# terms authors list: "recommender system", "social network", "information retrieval"; see docs/EXTRACTION.md)
MIN_KEPT = 3
# where the corpus says nothing papers keep four: a reading list needs its links for a map
MIN_KEPT_WITHOUT_CORPUS = 4
# a protected mention goes under this chance (0: never), and where the corpus says something no mention under it
# fills a paper's MIN_KEPT: the filter dropped a field's umbrella terms ("string theory": 43 labels, none good) from the
# first places and the fill brought them back (round twenty-three: 0.40 and 0.20). Round forty-eight logged every
# judged mention of builds of all of ACM-CR and hep-th and laid the labels of all rounds over them by name: kept
# mentions of chance 0.4-0.5 were good 52% (ACM-CR) and 37-41% (hep-th) of the time, fills under 0.4 12-42%, those of
# 0.5-0.6 54-65%, so a mention less likely good than not is no concept; a paper keeps its likeliest one whatever its
# chance
PROTECTED_THRESHOLD = 0.50
FILL_FLOOR = 0.50


def read_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def features(rows: list[dict], embedder, corpus: dict[str, dict[str, list[float]]]) -> tuple[np.ndarray, np.ndarray]:
    """Each labelled concept's features as a build computes them (the corpus features from ``corpus``,
    field -> lower-case name -> features, :data:`~kg.normalize.quality.NO_CORPUS` where missing) and
    whether both reviewers said "good"."""
    names = sorted({r["name"] for r in rows})
    vectors = dict(zip(names, np.asarray(embedder.embed(names), dtype=np.float64)))
    context = [[0.0]] * len(rows)
    papers: dict[tuple[str, int], list[int]] = {}
    for i, r in enumerate(rows):
        papers.setdefault((r["sample"], r["paper"]), []).append(i)
    for members in papers.values():  # a paper's judged concepts in rank order, as the build ranks them
        members.sort(key=lambda i: rows[i]["rank"])
        for i, value in zip(members, context_features([vectors[rows[i]["name"]] for i in members])):
            context[i] = value
    x = np.array([np.concatenate([vectors[r["name"]], name_features(r["name"]) +
                                  rank_features(r["rank"], r["concepts"]) + context[i] +
                                  list(corpus.get(r["field"], {}).get(r["name"].lower(), NO_CORPUS))])
                  for i, r in enumerate(rows)])
    y = np.array([all(label == "good" for label in r["labels"]) for r in rows])
    return x, y


TREES = dict(n_estimators=300, learning_rate=0.03, num_leaves=15, subsample=0.8, subsample_freq=1,
             colsample_bytree=0.3, n_jobs=1, deterministic=True, force_row_wise=True, random_state=0, verbose=-1)


def with_unknown_corpus(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows, and again each row that has corpus features with :data:`~kg.normalize.quality.NO_CORPUS`
    instead: what the model reads for a concept of a corpus too small to say anything is then what it
    learned from the name and the place alone, not what it learned of the labels no build matched."""
    known = ~np.all(x[:, -len(NO_CORPUS):] == NO_CORPUS, axis=1)
    unknown = x[known].copy()
    unknown[:, -len(NO_CORPUS):] = NO_CORPUS
    return np.vstack([x, unknown]), np.concatenate([y, y[known]])


def fit(x: np.ndarray, y: np.ndarray, linear: bool = False):
    """A fitted model: the boosted trees, or the standardized logistic regression (``linear``), learned from
    the rows :func:`with_unknown_corpus` gives."""
    x, y = with_unknown_corpus(x, y)
    if not linear:
        return lightgbm.LGBMClassifier(**TREES).fit(x, y)
    mean, scale = x.mean(0), x.std(0) + 1e-6
    return mean, scale, LogisticRegression(C=C, max_iter=5000).fit((x - mean) / scale, y)


def predict(model, x: np.ndarray) -> np.ndarray:
    if isinstance(model, tuple):
        mean, scale, linear = model
        return linear.predict_proba((x - mean) / scale)[:, 1]
    return model.predict_proba(x)[:, 1]


def kept(chance: np.ndarray, rows: list[dict], y: np.ndarray, protected: float = PROTECTED_THRESHOLD) -> dict:
    """The filter's policy on held-out chances: the first PROTECT of a paper stay, the rest under
    THRESHOLD go, and a paper keeps MIN_KEPT (the likeliest fill the place, none under FILL_FLOOR)."""
    keep = np.zeros(len(rows), dtype=bool)
    papers: dict[tuple[str, int], list[int]] = {}
    for i, r in enumerate(rows):
        papers.setdefault((r["sample"], r["paper"]), []).append(i)
    for members in papers.values():
        members.sort(key=lambda i: rows[i]["rank"])
        flags = [(k < PROTECT and chance[i] >= protected) or chance[i] >= THRESHOLD
                 for k, i in enumerate(members)]
        short = max(PROTECT + 1, MIN_KEPT) - sum(flags)
        for _, k in sorted((-chance[i], k) for k, i in enumerate(members)
                           if not flags[k] and chance[i] >= FILL_FLOOR)[:max(short, 0)]:
            flags[k] = True
        if not any(flags):
            flags[max(range(len(members)), key=lambda k: (chance[members[k]], -k))] = True
        keep[members] = flags
    return {"mentions": len(rows), "good": round(float(y.mean()), 3), "kept": round(float(keep.mean()), 3),
            "good_in_kept": round(float(y[keep].mean()), 3),
            "good_lost": round(float(1 - (y & keep).sum() / max(y.sum(), 1)), 3)}


def group(sample: str) -> str:
    """The papers a sample judged: "r16/acm-base" and "r16/acm-c8" are the same papers on two builds."""
    return re.sub(r"-[a-z0-9]+$", "", sample)


def cross_validate(x: np.ndarray, y: np.ndarray, rows: list[dict], linear: bool = False,
                   protected: float = PROTECTED_THRESHOLD, folds: int = 0) -> dict:
    """Held-out chances, every sample held out in turn (``folds`` > 0: in that many groups of samples, a
    fold per group: 5 folds fit in minutes where 250 samples take an hour), scored with :func:`kept`."""
    samples = np.array([group(r["sample"]) for r in rows])
    fields = np.array([r["field"] for r in rows])
    held = np.zeros(len(rows))
    names = sorted(set(samples))
    fold_of = {name: (k % folds if folds else k) for k, name in enumerate(names)}
    parts = np.array([fold_of[name] for name in samples])
    for part in sorted(set(parts)):
        test = parts == part
        held[test] = predict(fit(x[~test], y[~test], linear), x[test])
    report = {"held_out_sample": {"auc": round(float(roc_auc_score(y, held)), 3), **kept(held, rows, y, protected)}}
    for field in sorted(set(fields)):
        s = fields == field
        part = [r for r, t in zip(rows, s) if t]
        report[f"held_out_sample {field}"] = {"auc": round(float(roc_auc_score(y[s], held[s])), 3),
                                              **kept(held[s], part, y[s], protected)}
        other = predict(fit(x[~s], y[~s], linear), x[s])  # trained on the other fields only
        report[f"other_field_only {field}"] = {"auc": round(float(roc_auc_score(y[s], other)), 3),
                                               **kept(other, part, y[s], protected)}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", default=str(LABELS))
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--corpus", default=str(CORPUS),
                        help="corpus features of the labelled concepts (bench/concept_corpus_features.py); '' for none")
    parser.add_argument("--folds", type=int, default=0,
                        help="cross-validate in this many folds of samples (default: each sample held out)")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--linear", action="store_true", help="fit the logistic regression instead of the trees")
    parser.add_argument("--protected-threshold", type=float, default=PROTECTED_THRESHOLD,
                        help="a paper's first PROTECT mentions go under this chance (default: %(default)s)")
    args = parser.parse_args()
    rows = read_rows(Path(args.labels))
    corpus = json.loads(Path(args.corpus).read_text("utf-8")) if args.corpus else {}
    x, y = features(rows, load_embedder(), corpus)
    found = sum(r["name"].lower() in corpus.get(r["field"], {}) for r in rows)
    print(f"{len(rows)} labels, {found} with corpus features")
    report = cross_validate(x, y, rows, args.linear, args.protected_threshold, args.folds)
    for key, value in report.items():
        print(f"{key:28s} {json.dumps(value)}")
    if args.dry_run:
        return
    model = fit(x, y, args.linear)
    data = {"model": DEFAULT_MODEL, "features": ["vector"] * (x.shape[1] - len(HAND_FEATURES)) + list(HAND_FEATURES),
            "labels": len(rows), "threshold": THRESHOLD, "protect": PROTECT, "min_kept": MIN_KEPT,
            "protected_threshold": args.protected_threshold, "threshold_without_corpus": THRESHOLD_WITHOUT_CORPUS,
            "min_kept_without_corpus": MIN_KEPT_WITHOUT_CORPUS, "fill_floor": FILL_FLOOR,
            "cross_validation": report}
    if args.linear:
        mean, scale, linear = model
        data |= {"learner": f"logistic regression, C={C}", "mean": np.round(mean, 6).tolist(),
                 "scale": np.round(scale, 6).tolist(), "coef": np.round(linear.coef_[0], 6).tolist(),
                 "intercept": round(float(linear.intercept_[0]), 6)}
    else:
        trees = Trees.from_dump(model.booster_.dump_model())
        assert np.allclose(trees.raw(x), model.booster_.predict(x, raw_score=True))  # numpy reads them alike
        data |= {"learner": f"LightGBM {TREES}", "trees": trees.to_dict()}
    atomic_write(args.out, json.dumps(data, indent=0) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
