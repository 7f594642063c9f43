"""Train the concept-quality filter (:mod:`kg.normalize.quality`) from reviewers' labels.

``bench/data/concept_labels.jsonl`` holds 12,799 concepts of random papers of ACM-CR, hep-th and Inspec
(the packaged weights were fitted on the first 11,009; samples r23–r24, judged on builds of those weights, came after),
each labelled by two independent reviewers with the rubric (good / generic / near-duplicate /
ungrammatical / broken-name / wrong), with the concept's rank and its paper's concept count in
the build judged. A concept is "good" when both reviewers said so. The names are embedded with the
packaged model, the features are :func:`kg.normalize.quality.name_features`,
:func:`~kg.normalize.quality.rank_features` and :func:`~kg.normalize.quality.context_features`, and
gradient-boosted trees are fitted (LightGBM, deterministic; kg evaluates the dumped trees with numpy,
:class:`kg.normalize.quality.Trees`). Held out by sample (the same papers judged on two builds are one
sample), the trees' AUC is 0.77 (ACM-CR 0.76, hep-th 0.79, Inspec 0.76; on an earlier, smaller label set 0.80
against 0.76 for the logistic regression kg used before, which ``--linear`` fits instead). Before the final fit, every sample is held out in turn (trained on
the others): the held-out AUC and, at the chosen threshold, the share of mentions kept and the share
of good among them are printed and stored with the weights, per field and cross-field.

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
from kg.normalize.quality import HAND_FEATURES, Trees, context_features, name_features, rank_features

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "bench" / "data" / "concept_labels.jsonl"
OUT = ROOT / "kg" / "resources" / "concept_quality.json"
C = 0.3
THRESHOLD = 0.50
PROTECT = 2
MIN_KEPT = 4


def read_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def features(rows: list[dict], embedder) -> tuple[np.ndarray, np.ndarray]:
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
                                  rank_features(r["rank"], r["concepts"]) + context[i]]) for i, r in enumerate(rows)])
    y = np.array([all(label == "good" for label in r["labels"]) for r in rows])
    return x, y


TREES = dict(n_estimators=300, learning_rate=0.03, num_leaves=15, subsample=0.8, subsample_freq=1,
             colsample_bytree=0.3, n_jobs=1, deterministic=True, force_row_wise=True, random_state=0, verbose=-1)


def fit(x: np.ndarray, y: np.ndarray, linear: bool = False):
    """A fitted model: the boosted trees, or the standardized logistic regression (``linear``)."""
    if not linear:
        return lightgbm.LGBMClassifier(**TREES).fit(x, y)
    mean, scale = x.mean(0), x.std(0) + 1e-6
    return mean, scale, LogisticRegression(C=C, max_iter=5000).fit((x - mean) / scale, y)


def predict(model, x: np.ndarray) -> np.ndarray:
    if isinstance(model, tuple):
        mean, scale, linear = model
        return linear.predict_proba((x - mean) / scale)[:, 1]
    return model.predict_proba(x)[:, 1]


def kept(chance: np.ndarray, rows: list[dict], y: np.ndarray) -> dict:
    """The filter's policy on held-out chances: the first PROTECT of a paper stay, the rest under
    THRESHOLD go, and a paper keeps MIN_KEPT (the likeliest fill the place)."""
    keep = np.zeros(len(rows), dtype=bool)
    papers: dict[tuple[str, int], list[int]] = {}
    for i, r in enumerate(rows):
        papers.setdefault((r["sample"], r["paper"]), []).append(i)
    for members in papers.values():
        members.sort(key=lambda i: rows[i]["rank"])
        flags = [k < PROTECT or chance[i] >= THRESHOLD for k, i in enumerate(members)]
        short = max(PROTECT + 1, MIN_KEPT) - sum(flags)
        for _, k in sorted((-chance[i], k) for k, i in enumerate(members) if not flags[k])[:max(short, 0)]:
            flags[k] = True
        keep[members] = flags
    return {"mentions": len(rows), "good": round(float(y.mean()), 3), "kept": round(float(keep.mean()), 3),
            "good_in_kept": round(float(y[keep].mean()), 3),
            "good_lost": round(float(1 - (y & keep).sum() / max(y.sum(), 1)), 3)}


def group(sample: str) -> str:
    """The papers a sample judged: "r16/acm-base" and "r16/acm-c8" are the same papers on two builds."""
    return re.sub(r"-[a-z0-9]+$", "", sample)


def cross_validate(x: np.ndarray, y: np.ndarray, rows: list[dict], linear: bool = False) -> dict:
    samples = np.array([group(r["sample"]) for r in rows])
    fields = np.array([r["field"] for r in rows])
    held = np.zeros(len(rows))
    for sample in sorted(set(samples)):
        test = samples == sample
        held[test] = predict(fit(x[~test], y[~test], linear), x[test])
    report = {"held_out_sample": {"auc": round(float(roc_auc_score(y, held)), 3), **kept(held, rows, y)}}
    for field in sorted(set(fields)):
        s = fields == field
        part = [r for r, t in zip(rows, s) if t]
        report[f"held_out_sample {field}"] = {"auc": round(float(roc_auc_score(y[s], held[s])), 3),
                                              **kept(held[s], part, y[s])}
        other = predict(fit(x[~s], y[~s], linear), x[s])  # trained on the other fields only
        report[f"other_field_only {field}"] = {"auc": round(float(roc_auc_score(y[s], other)), 3),
                                               **kept(other, part, y[s])}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", default=str(LABELS))
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--linear", action="store_true", help="fit the logistic regression instead of the trees")
    args = parser.parse_args()
    rows = read_rows(Path(args.labels))
    x, y = features(rows, load_embedder())
    report = cross_validate(x, y, rows, args.linear)
    for key, value in report.items():
        print(f"{key:28s} {json.dumps(value)}")
    if args.dry_run:
        return
    model = fit(x, y, args.linear)
    data = {"model": DEFAULT_MODEL, "features": ["vector"] * (x.shape[1] - len(HAND_FEATURES)) + list(HAND_FEATURES),
            "labels": len(rows), "threshold": THRESHOLD, "protect": PROTECT, "min_kept": MIN_KEPT,
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
