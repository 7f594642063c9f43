"""Time every analysis step on the ACM-CR corpus and score its paper communities against venue.

The graph is built from the records' author keywords (``keyphrases``) as concepts,
through kg.normalize and kg.graph.build_graph, without the embedding model, so the
measurement covers the analysis stage at the corpus's full scale (24,614 papers).

Run::

    .venv/bin/python bench/bench_analyze.py [--limit N] [--seed 42] [--method louvain|leiden]
        [--resolutions 1.0,0.3] [--report DIR] [--cache /tmp/acm_graph.pkl]

Prints one line per step (seconds, peak RSS so far), then, for Louvain and Leiden at
each resolution, NMI/ARI of the paper communities against the venue series (the
record's ``collection_dir`` folder: www, cikm, sigir, kdd, jcdl, …) and
against the raw venue string (``KDD '15``): over all papers, over papers in communities
of two or more (papers without a shared keyword are singletons, which inflate NMI),
and for the same communities shuffled across papers (the chance baseline).
Times are wall-clock; the CPU may be shared.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
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
    parser.add_argument("--resolutions", type=lambda t: [float(x) for x in t.split(",")], default=[1.0],
                        help="Community resolutions to score against venue, comma-separated.")
    parser.add_argument("--scores-only", action="store_true", help="Skip the timed analysis; only score communities.")
    parser.add_argument("--cache", type=Path, default=None,
                        help="Pickle of the built graph: read if present, else written (saves the slow build).")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"skip: {DATA} is not present")
        return

    started = time.perf_counter()
    if args.cache and args.cache.exists():
        with open(args.cache, "rb") as handle:
            graph, records = pickle.load(handle)
    else:
        graph, records = keyphrase_graph(DATA, limit=args.limit)
        if args.cache:
            with open(args.cache, "wb") as handle:
                pickle.dump((graph, records), handle)
    print(f"build graph (keyphrases as concepts): {time.perf_counter() - started:7.2f} s  "
          f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges, peak RSS {_rss_mb():.0f} MB")

    if not args.scores_only:
        _time_analysis(graph, args)
    _score_communities(graph, records, args)


def _time_analysis(graph, args) -> None:
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

    print(f"modularity {analysis['modularity']:.4f} ({args.method}, seed {args.seed}, resolution {args.resolution})")


def _score_communities(graph, records, args) -> None:
    from kg.analyze import paper_communities

    truths = {"venue series": {p: str(r.get("collection_dir") or "").split("/")[0] for p, r in records.items()},
              "venue": {p: str(r.get("venue")) for p, r in records.items()}}
    for method in ("louvain", "leiden"):
        for resolution in args.resolutions:
            started = time.perf_counter()
            _, communities = paper_communities(graph, method=method, seed=args.seed, resolution=resolution)
            seconds = time.perf_counter() - started
            singles = sum(1 for c in communities if len(c) == 1)
            print(f"{method} resolution {resolution}: {len(communities)} communities ({singles} single papers) "
                  f"in {seconds:.2f} s")
            _score(communities, truths, args.seed)
            if method == "louvain" and resolution == args.resolutions[0]:
                _venue_homes(graph, communities, truths["venue series"])


def _score(communities, truths, seed: int) -> None:
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    member = {p: i for i, c in enumerate(communities) for p in c}
    ids = sorted(member)
    subsets = {"all papers": ids, "in communities of 2+": [p for p in ids if len(communities[member[p]]) > 1]}
    for field, truth_of in truths.items():
        for name, chosen in subsets.items():
            truth = [truth_of[p] for p in chosen]
            found = [member[p] for p in chosen]
            shuffled = list(found)
            random.Random(seed).shuffle(shuffled)  # same community sizes, no relation to venue
            print(f"  vs {field:<12} ({len(set(truth)):>3} classes) {name:<21} n={len(chosen):>5}  "
                  f"NMI {normalized_mutual_info_score(truth, found):.4f}  ARI {adjusted_rand_score(truth, found):.4f}"
                  f"  (shuffled: NMI {normalized_mutual_info_score(truth, shuffled):.4f}  "
                  f"ARI {adjusted_rand_score(truth, shuffled):.4f})")


def _venue_homes(graph, communities, series: dict[str, str], *, min_papers: int = 300) -> None:
    """For each large venue series: the community holding most of its papers, and how much."""
    from collections import Counter

    from kg.analyze import label_communities

    member = {p: i for i, c in enumerate(communities) for p in c}
    by_venue: dict[str, Counter] = {}
    for paper, venue in series.items():
        if paper in member:
            by_venue.setdefault(venue, Counter())[member[paper]] += 1
    big = sorted((v for v, c in by_venue.items() if sum(c.values()) >= min_papers), key=lambda v: -sum(by_venue[v].values()))
    labels = label_communities(graph, communities, top=3)
    print("  where each venue series' papers went (its largest community, share of its papers, "
          "that community's share of the venue, label):")
    for venue in big:
        counts = by_venue[venue]
        home, n = counts.most_common(1)[0]
        size = len(communities[home])
        names = ", ".join(graph.nodes[c]["name"] for c in labels[home])
        print(f"    {venue:<7} {sum(counts.values()):>5} papers -> #{home:<3} {n / sum(counts.values()):6.1%} "
              f"of the venue, {n / size:6.1%} of the community ({size}): {names}")


if __name__ == "__main__":
    main()
