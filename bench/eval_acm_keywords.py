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
    .venv/bin/python bench/eval_acm_keywords.py --build out/acm   # score a finished build instead

``--build DIR`` scores what a build of ACM-CR links (``graph.json``'s mentions in rank order,
the author keywords from its ``corpus.jsonl``): the figure for the whole corpus as ``kg build``
made it, without running the model again.
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


def linked_concepts(papers, embedder, *, top_n: int = 10, depth: int = 20, min_relevance: float | None = None):
    """Paper id -> (names, surfaces) of the concepts it is linked to, best first."""
    from kg.extract import DIVERSITY, POSITION_WEIGHT, TITLE_WEIGHT, extract
    from kg.normalize import normalize_concepts
    from kg.normalize.quality import load_quality_model

    found = extract(papers, embedder, top_n=top_n, depth=depth, diversity=DIVERSITY,
                    position_weight=POSITION_WEIGHT, title_weight=TITLE_WEIGHT, n_jobs=2)
    concepts, mentions = normalize_concepts(papers, found.keyphrases, embedder=embedder, top_n=top_n,
                                            vectors=found.phrase_vectors, doc_vectors=found.doc_vectors,
                                            min_relevance=min_relevance, quality=load_quality_model(embedder.name))
    names: dict[str, list[str]] = defaultdict(list)
    surfaces: dict[str, list[str]] = defaultdict(list)
    for m in sorted(mentions, key=lambda m: (m.paper_id, m.rank)):
        names[m.paper_id].append(re.sub(r" \([^()]*\)$", "", concepts[m.concept_id].name))
        surfaces[m.paper_id].append(m.surface)
    return names, surfaces, concepts


def score_build(folder: Path) -> dict:
    """F1@5/10 of a build's linked concept names (mention rank order) against its papers' keywords."""
    from kg.evaluate import score_keyphrases

    graph = json.loads((folder / "graph.json").read_text("utf-8"))
    names = {n["id"]: n.get("name", n["id"][2:]) for n in graph["nodes"] if n.get("kind") == "concept"
             or n["id"].startswith("c:")}
    ranked: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for edge in graph["edges"]:
        if edge.get("kind") == "mentions":
            ranked[edge["source"]].append((edge.get("rank", 0), re.sub(r" \([^()]*\)$", "", names[edge["target"]])))
    gold = {}
    with open(folder / "corpus.jsonl", encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            if paper.get("keyphrases"):
                gold[paper["id"]] = paper["keyphrases"]
    predictions = {pid: [name for _, name in sorted(rows)] for pid, rows in ranked.items()}
    scores = score_keyphrases(predictions, gold, ks=(5, 10))
    return {"build": str(folder), "scored": len(gold), "concepts per paper":
            round(sum(map(len, predictions.values())) / max(len(predictions), 1), 2),
            "name": {f"F1@{k}": s["f1"] for k, s in scores.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(ACM))
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=20, help="extraction depth (the build's shortlist: 2 x top_n)")
    parser.add_argument("--cache", default=None, help="embedding cache file (reruns skip the model)")
    parser.add_argument("--json", default=None, help="also write the scores here")
    parser.add_argument("--build", default=None, help="score this kg build folder's links instead")
    args = parser.parse_args()
    if args.build:
        result = score_build(Path(args.build))
        print(json.dumps(result))
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
        return

    from kg.evaluate import score_keyphrases
    from kg.extract import CachedEmbedder, load_embedder
    from kg.ingest import load_corpus

    papers = [p for p in load_corpus([args.data], format="jsonl").papers][: args.n]
    embedder = load_embedder()
    floor = embedder.relevance_floor  # as kg build uses it
    if args.cache:
        embedder = CachedEmbedder(embedder, args.cache)
    started = time.perf_counter()
    names, surfaces, concepts = linked_concepts(papers, embedder, depth=args.depth, min_relevance=floor)
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
