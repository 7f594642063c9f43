"""Train the concept-quality filter (:mod:`kg.normalize.quality`) from reviewers' labels.

``bench/data/concept_labels.jsonl`` holds 6,113 concepts of random papers of ACM-CR, hep-th and Inspec,
each labelled by two independent reviewers with the rubric (good / generic / near-duplicate /
ungrammatical / broken-name / wrong), with the concept's rank and its paper's concept count in
the build judged. A concept is "good" when both reviewers said so. The names are embedded with the
packaged model, the features are :func:`kg.normalize.quality.name_features` and
:func:`~kg.normalize.quality.rank_features`, and a logistic regression (scikit-learn, C=0.3) is
fitted. Before the final fit, every sample is held out in turn (trained on the others): the
held-out AUC and, at the chosen threshold, the share of mentions kept and the share of good
among them are printed and stored with the weights, per field and cross-field.

Usage::

    .venv/bin/python bench/train_concept_quality.py            # prints CV, writes kg/resources/concept_quality.json
    .venv/bin/python bench/train_concept_quality.py --dry-run  # prints CV only
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from kg.atomic import atomic_write
from kg.extract import load_embedder
from kg.extract.embedder import DEFAULT_MODEL
from kg.normalize.quality import HAND_FEATURES, context_features, name_features, rank_features

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "bench" / "data" / "concept_labels.jsonl"
OUT = ROOT / "kg" / "resources" / "concept_quality.json"
C = 0.3
THRESHOLD = 0.45
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


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, LogisticRegression]:
    mean, scale = x.mean(0), x.std(0) + 1e-6
    return mean, scale, LogisticRegression(C=C, max_iter=5000).fit((x - mean) / scale, y)


def predict(model, mean, scale, x) -> np.ndarray:
    return model.predict_proba((x - mean) / scale)[:, 1]


def kept(chance: np.ndarray, rows: list[dict], y: np.ndarray) -> dict:
    keep = (chance >= THRESHOLD) | (np.array([r["rank"] for r in rows]) <= PROTECT)
    return {"mentions": len(rows), "good": round(float(y.mean()), 3), "kept": round(float(keep.mean()), 3),
            "good_in_kept": round(float(y[keep].mean()), 3),
            "good_lost": round(float(1 - (y & keep).sum() / max(y.sum(), 1)), 3)}


def cross_validate(x: np.ndarray, y: np.ndarray, rows: list[dict]) -> dict:
    samples = np.array([r["sample"] for r in rows])
    fields = np.array([r["field"] for r in rows])
    held = np.zeros(len(rows))
    for sample in sorted(set(samples)):
        test = samples == sample
        mean, scale, model = fit(x[~test], y[~test])
        held[test] = predict(model, mean, scale, x[test])
    report = {"held_out_sample": {"auc": round(float(roc_auc_score(y, held)), 3), **kept(held, rows, y)}}
    for field in sorted(set(fields)):
        s = fields == field
        part = [r for r, t in zip(rows, s) if t]
        report[f"held_out_sample {field}"] = {"auc": round(float(roc_auc_score(y[s], held[s])), 3),
                                              **kept(held[s], part, y[s])}
        mean, scale, model = fit(x[~s], y[~s])  # trained on the other field only
        other = predict(model, mean, scale, x[s])
        report[f"other_field_only {field}"] = {"auc": round(float(roc_auc_score(y[s], other)), 3),
                                               **kept(other, part, y[s])}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", default=str(LABELS))
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    rows = read_rows(Path(args.labels))
    x, y = features(rows, load_embedder())
    report = cross_validate(x, y, rows)
    for key, value in report.items():
        print(f"{key:28s} {json.dumps(value)}")
    if args.dry_run:
        return
    mean, scale, model = fit(x, y)
    data = {"model": DEFAULT_MODEL, "features": ["vector"] * (x.shape[1] - len(HAND_FEATURES)) + list(HAND_FEATURES),
            "labels": len(rows), "C": C, "threshold": THRESHOLD, "protect": PROTECT, "min_kept": MIN_KEPT,
            "cross_validation": report,
            "mean": np.round(mean, 6).tolist(), "scale": np.round(scale, 6).tolist(),
            "coef": np.round(model.coef_[0], 6).tolist(), "intercept": round(float(model.intercept_[0]), 6)}
    atomic_write(args.out, json.dumps(data, indent=0) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
