"""Score the concepts ``kg build`` links each ACM paper to against the paper's author keywords.

Runs the build's extraction and normalization stages (real model, the build's defaults) on
the first ``--n`` ACM-CR papers that have an abstract, then scores, per paper, the concepts
it is linked to (best mention first) against its author keywords with the standard protocol
of ``kg eval`` (:func:`kg.evaluate.score_keyphrases`: lowercased, Porter-stemmed, micro
F1). Two predictions per concept are scored: its display name (without the ``(ACR)``
suffix) and the surface form the paper used. Only papers with keywords count. Author
keywords are often absent from the text, so compare runs with each other, not with Inspec.

Usage::

    .venv/bin/python bench/eval_acm_keywords.py                # first 2,000 papers
    .venv/bin/python bench/eval_acm_keywords.py --n 500 --cache /tmp/acm.sqlite
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACM = ROOT.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"


def linked_concepts(papers, embedder, *, top_n: int = 10, depth: int = 20):
    """Paper id -> (names, surfaces) of the concepts it is linked to, best first."""
    from kg.extract import DIVERSITY, POSITION_WEIGHT, TITLE_WEIGHT, extract
    from kg.normalize import normalize_concepts

    found = extract(papers, embedder, top_n=top_n, depth=depth, diversity=DIVERSITY,
                    position_weight=POSITION_WEIGHT, title_weight=TITLE_WEIGHT, n_jobs=2)
    concepts, mentions = normalize_concepts(papers, found.keyphrases, embedder=embedder, top_n=top_n,
                                            vectors=found.phrase_vectors, doc_vectors=found.doc_vectors)
    names: dict[str, list[str]] = defaultdict(list)
    surfaces: dict[str, list[str]] = defaultdict(list)
    for m in sorted(mentions, key=lambda m: (m.paper_id, m.rank)):
        names[m.paper_id].append(re.sub(r" \([^()]*\)$", "", concepts[m.concept_id].name))
        surfaces[m.paper_id].append(m.surface)
    return names, surfaces, concepts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(ACM))
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=20, help="extraction depth (the build's shortlist: 2 x top_n)")
    parser.add_argument("--cache", default=None, help="embedding cache file (reruns skip the model)")
    parser.add_argument("--json", default=None, help="also write the scores here")
    args = parser.parse_args()

    from kg.evaluate import score_keyphrases
    from kg.extract import CachedEmbedder, load_embedder
    from kg.ingest import load_corpus

    papers = [p for p in load_corpus([args.data], format="jsonl").papers][: args.n]
    embedder = load_embedder()
    if args.cache:
        embedder = CachedEmbedder(embedder, args.cache)
    started = time.perf_counter()
    names, surfaces, concepts = linked_concepts(papers, embedder, depth=args.depth)
    seconds = time.perf_counter() - started
    gold = {p.id: list(p.keyphrases) for p in papers if p.keyphrases}
    result = {"papers": len(papers), "scored": len(gold), "concepts": len(concepts), "seconds": round(seconds, 1)}
    for label, predictions in (("name", names), ("surface", surfaces)):
        scores = score_keyphrases(predictions, gold, ks=(5, 10))
        result[label] = {f"F1@{k}": s["f1"] for k, s in scores.items()}
    print(json.dumps(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
