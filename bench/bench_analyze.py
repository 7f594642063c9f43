"""Time every analysis step on the ACM-CR corpus and score its paper communities against venue.

The graph is built from the records' author keywords (``keyphrases``) as concepts,
through kg.normalize and kg.graph.build_graph, without the embedding model, so the
measurement covers the analysis stage at the corpus's full scale (24,614 papers).

Run::

    .venv/bin/python bench/bench_analyze.py [--limit N] [--seed 42] [--method louvain|leiden]

Prints one line per step (seconds, peak RSS so far), then NMI/ARI of the paper
communities against the venue series (``collection_dir``: sigir, cikm, kdd, …) and
against the raw venue string (``KDD '15``). Times are wall-clock on a shared CPU.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def keyphrase_graph(path: Path, *, limit: int | None = None):
    """The kg graph of ``path`` with each record's author keywords as its concepts.

    Returns the graph and ``{paper id: record}`` for the papers in it.
    """
    from kg.graph import build_graph
    from kg.ingest import load_corpus
    from kg.models import Keyphrase
    from kg.normalize import normalize_concepts

    corpus = load_corpus([str(path)])
    papers = corpus.papers[:limit] if limit else corpus.papers
    keyphrases = {
        p.id: [Keyphrase(k, round(1.0 / (1 + i), 4)) for i, k in enumerate(p.keyphrases)] for p in papers
    }
    concepts, mentions = normalize_concepts(papers, keyphrases)
    graph = build_graph(papers, concepts, mentions, metadata={"extractor": "author keyphrases (bench)"})
    records = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            records[record["id"]] = record
    return graph, {p.id: records.get(p.id, {}) for p in papers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="Use the first N papers only.")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--resolution", type=float, default=1.0)
    parser.add_argument("--method", default="louvain", choices=["louvain", "leiden"])
    parser.add_argument("--report", type=Path, default=None, help="Also write the report files here.")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"skip: {DATA} is not present")
        return

    started = time.perf_counter()
    graph, records = keyphrase_graph(DATA, limit=args.limit)
    print(f"build graph (keyphrases as concepts): {time.perf_counter() - started:7.2f} s  "
          f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges, peak RSS {_rss_mb():.0f} MB")

    from kg.analyze import analyze

    timings: dict[str, float] = {}
    started = time.perf_counter()
    analysis = analyze(graph, seed=args.seed, resolution=args.resolution, method=args.method, timings=timings)
    total = time.perf_counter() - started
    for step, seconds in timings.items():
        print(f"  {step:<34} {seconds:7.2f} s")
    print(f"analyze total: {total:7.2f} s, peak RSS {_rss_mb():.0f} MB")

    if args.report:
        from kg.report import write_report

        started = time.perf_counter()
        write_report(analysis, args.report)
        print(f"write report: {time.perf_counter() - started:7.2f} s -> {args.report}")

    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    member = {p: com["id"] for com in analysis["communities"] for p in com["papers"]}
    ids = sorted(member)
    found = [member[p] for p in ids]
    print(f"communities: {len(analysis['communities'])}, modularity {analysis['modularity']:.4f}, "
          f"method {args.method}, seed {args.seed}, resolution {args.resolution}")
    for field in ("collection_dir", "venue"):
        truth = [str(records[p].get(field)) for p in ids]
        print(f"vs {field:<15} ({len(set(truth))} classes): NMI {normalized_mutual_info_score(truth, found):.4f}  "
              f"ARI {adjusted_rand_score(truth, found):.4f}")


if __name__ == "__main__":
    main()
