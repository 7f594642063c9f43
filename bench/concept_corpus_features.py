"""What each labelled concept's corpus says of it, for training the concept filter.

The filter (:mod:`kg.normalize.quality`) reads, besides a concept's name and place, two corpus features
(:func:`kg.normalize.quality.corpus_features`): the share of the papers that mention it and how much
those papers have in common. A build judges them on the mentions as they stand just before the filter;
``kg build --no-concept-filter`` writes exactly those mentions. This script reads such a build, computes
the features the way a build does, and stores them for the labelled concepts of one field
(``bench/data/concept_labels.jsonl``; matched by lower-case name, since a label names a concept of the
build its reviewers judged)::

    kg build CORPUS --out OUT --no-concept-filter
    .venv/bin/python bench/concept_corpus_features.py OUT --field acm

It updates ``bench/data/concept_corpus_features.json`` (field -> lower-case name -> features) and
prints how many of the field's labelled names it found. A name the build lacks keeps the features an
earlier build stored for it (names judged on the builds of earlier code); labels no build has get
:data:`kg.normalize.quality.NO_CORPUS` when training, as concepts of corpora too small to judge do.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from kg.api import load
from kg.atomic import atomic_write
from kg.normalize.quality import corpus_features
from kg.vectors import load_paper_vectors

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "bench" / "data" / "concept_labels.jsonl"
OUT = ROOT / "bench" / "data" / "concept_corpus_features.json"


def build_features(folder: str) -> dict[str, list[float]]:
    """Lower-case concept name -> its corpus features in the build in ``folder``."""
    graph = load(folder).graph
    found = load_paper_vectors(folder)
    if found is None:
        raise SystemExit(f"{folder} has no paper vectors (build it again with this kg)")
    ids, matrix = found
    row = {pid: r for r, pid in enumerate(ids)}
    holders: dict[str, list[int]] = defaultdict(list)
    for paper, concept, key in graph.edges(keys=True):
        if key == "mentions" and paper in row:
            holders[concept].append(row[paper])
    vectors = np.asarray(matrix, dtype=np.float64)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    features = corpus_features(holders, vectors, len(ids))
    out: dict[str, list[float]] = {}
    for cid, value in sorted(features.items()):  # two concepts of one lower-case name: the more frequent
        name = str(graph.nodes[cid].get("name", "")).lower()
        if name not in out or value[0] > out[name][0]:
            out[name] = value
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", help="output folder of kg build --no-concept-filter")
    parser.add_argument("--field", required=True, help="the labels' field this build's corpus is (acm, hep, inspec)")
    parser.add_argument("--labels", default=str(LABELS))
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    with open(args.labels, encoding="utf-8") as lines:
        wanted = {json.loads(line)["name"].lower() for line in lines
                  if line.strip() and json.loads(line)["field"] == args.field}
    if not wanted:
        raise SystemExit(f"no labels of field {args.field!r} in {args.labels}")
    found = build_features(args.build)
    stored = json.loads(Path(args.out).read_text("utf-8")) if Path(args.out).exists() else {}
    earlier = stored.get(args.field, {})
    stored[args.field] = {name: found.get(name, earlier.get(name)) for name in sorted(wanted)
                          if name in found or name in earlier}
    atomic_write(args.out, json.dumps(stored, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{args.field}: {sum(name in found for name in wanted)} of {len(wanted)} labelled names found in "
          f"{args.build}, {len(stored[args.field])} with features (the rest of an earlier build); wrote {args.out}")


if __name__ == "__main__":
    main()
