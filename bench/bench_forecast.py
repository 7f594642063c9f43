"""The forecast protocol: which concepts meet next, checked against what happened, kg against the baselines.

Protocol (issue 26; Science4Cast's, on kg's concept co-occurrence network). Cut-off year T, horizon H:

* concepts: those mentioned by 5 or more papers published up to T;
* candidate pairs: two such concepts that no paper up to T mentions together;
* a pair is positive when a paper published in T+1 … T+H mentions both;
* everything a forecast uses comes from the papers up to T (counts, co-occurrence, growth, clusters);
  concept vectors are allowed (they come from the model, not from later papers), and so are the document
  vectors of the papers up to T (each concept's papers: their centroid, spread, closest paper), and what the titles
  and abstracts of the papers up to T name (kg.analyze.textnames: the concepts each text names, linked or not; a
  concept's written forms are its name, aliases and the words its mentions were found as). kg's models learn
  from three earlier windows (features at T−H, T−H−1 and T−H−2, each with the links of its next H years,
  never after T), then are applied at T;
* reported: AUC over every candidate pair up to 2,000,000 (above, a seeded random sample of 2,000,000; the
  protocol's floor is 100,000, but at a base rate of 0.1% that many pairs hold about 120 new links and the AUC
  moved by 0.03 with the sample) and
  precision at 100 and at 1,000 among **all** candidate pairs (exact; ties broken by pair order),
  for kg's forecast and each baseline (preferential attachment: product of paper counts;
  Adamic–Adar; common neighbours; cosine of concept vectors), all in the same run;
* near-synonyms (two wordings of one idea: every word of one name in the other, or concept vectors
  with cosine 0.85 or more; kg.analyze.cooccurrence.synonym_pairs) stay among the candidates of the
  protocol's columns; the columns "without near-synonyms" set them aside for every method alike (kg's
  forecast does not list them);
* kg's model scores a shortlist for its ranking when there are over a million candidates (pairs with a
  common neighbour, and the 100,000 closest in meaning); the AUC sample is scored in full, and the
  sampled pairs off the shortlist that the model ranks above its 1,000th pair are counted ("missed");
* the gaps (kg gaps) found at T, graded the same way: the share of their unlinked concept pairs
  that papers of T+1 … T+H linked, against the cluster pairs most alike in size (5 per gap); the
  top 100 concept gaps (those some abstract up to T names together first, then the closest in meaning) against
  every unlinked pair inside a cluster.

Run on a build folder (read only; nothing is written into it)::

    .venv/bin/python bench/bench_forecast.py /work/builds/acm-v2 --until 2014 --horizon 3
    .venv/bin/python bench/bench_forecast.py /work/builds/acm-v2 --until 2011 2014 2016 --horizon 3
    .venv/bin/python bench/bench_forecast.py /work/builds/hep-full --until 2000 --horizon 2 --json out.json
    .venv/bin/python bench/bench_forecast.py /work/builds/acm-v2 --until 2014 --seed 42 1 2 3 --no-gaps

The seed (the training sample, the trees, and above 2 million candidates the AUC's sample of pairs) moves kg's
precision at 1,000 by about 0.01, as much as most changes measured, and its AUC over every pair by under 0.002 on
ACM-CR (on 100,000 sampled pairs it moved by 0.03): with several ``--seed``, each is run and kg's mean and range are
printed, and a change should be judged on them.

Times are wall-clock on a possibly shared CPU; "forecast s" is kg's forecast (training included),
"total s" adds the grading and the baselines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.analyze.cooccurrence import concept_names, dated_mentions  # noqa: E402
from kg.analyze.forecast import SAMPLE, backtest  # noqa: E402
from kg.analyze.gaps import gap_backtest  # noqa: E402
from kg.analyze.textnames import text_names  # noqa: E402
from kg.graphfile import load_graph  # noqa: E402
from kg.report import md_table  # noqa: E402
from kg.vectors import load_concept_vectors, load_paper_vectors  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, help="a kg build folder (graph.json, concept_vectors.*)")
    parser.add_argument("--until", type=int, nargs="+", required=True, help="cut-off years T")
    parser.add_argument("--horizon", type=int, default=3)
    parser.add_argument("--seed", type=int, nargs="+", default=[42],
                        help="the forecast's seeds (several: each is run, then kg's mean and range are printed; "
                             "at one cut-off the AUC moves by 0.03 between seeds)")
    parser.add_argument("--sample", type=int, default=SAMPLE,
                        help=f"candidate pairs in the AUC sample (default {SAMPLE:,}: all of them on ACM-CR)")
    parser.add_argument("--no-gaps", action="store_true", help="skip the gap backtest")
    parser.add_argument("--json", type=Path, help="also write every result here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    graph = load_graph(args.build)
    papers = dated_mentions(graph)
    names = concept_names(graph)
    vectors = load_concept_vectors(args.build)
    paper_vectors = load_paper_vectors(args.build)
    named = text_names(graph, min_papers=5)
    print(f"{args.build}: {len(papers)} dated papers with concepts, {years(papers)}; concept vectors: "
          f"{'yes' if vectors else 'no'}; paper vectors: {'yes' if paper_vectors else 'no'}; read in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    results = {}
    for until in args.until:
        runs = {}
        for seed in args.seed:
            runs[seed] = _report(backtest(papers, until=until, horizon=args.horizon, seed=seed, sample=args.sample,
                                          vectors=vectors, names=names, paper_vectors=paper_vectors,
                                          named=named),
                                 until, args.horizon, seed)
        results[str(until)] = {"forecast": runs[args.seed[0]]}
        if len(runs) > 1:
            results[str(until)]["seeds"] = {str(seed): result for seed, result in runs.items()}
            print(f"\nkg forecast at T = {until} over seeds {', '.join(map(str, runs))}: "
                  + "; ".join(f"{label} {_spread([_kg_row(r)[key] for r in runs.values()])}"
                              for label, key in (("AUC", "auc"), ("precision@100", "precision_at_100"),
                                                 ("precision@1000", "precision_at_1000"))))
        if not args.no_gaps:
            gaps = gap_backtest(papers, until=until, horizon=args.horizon, seed=args.seed[0], vectors=vectors,
                                names=names, named=named)
            r = gaps["rows"]
            print(f"\ngaps at T (closeness by {gaps['parameters']['closeness']}, {gaps['seconds']} s): bridged share "
                  f"of the top {gaps['parameters']['top']} cluster gaps {r['gaps']} vs the cluster pairs alike in "
                  f"size {r['cluster_pairs_same_sizes']} (ratio {r['gap_ratio']}); every cluster pair "
                  f"{r['all_cluster_pairs']}; random concept sets of the same sizes {r['random_same_sizes']}; the "
                  f"{gaps['parameters']['concept_gaps_graded']} top concept gaps {r['concept_gaps']} vs every "
                  f"unlinked pair inside clusters {r['pairs_inside_clusters']} (ratio {r['concept_gap_ratio']})")
            results[str(until)]["gaps"] = gaps
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    return results


def _kg_row(result: dict) -> dict:
    return next(r for r in result["rows"] if r["method"] == "kg forecast")


def _spread(values: list[float]) -> str:
    """Mean and range: "0.885 (0.867–0.903)"."""
    return f"{sum(values) / len(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def _report(result: dict, until: int, horizon: int, seed: int) -> dict:
    """Prints one backtest: its counts, the methods' table and kg's 10 best pairs; returns it."""
    c = result["counts"]
    print(f"\n## T = {until}, H = {horizon}, seed {seed}: {c['concepts']} concepts, {c['candidates']:,} candidate "
          f"pairs, {c['positives']:,} positive (base rate {c['base_rate']:.4%}); trained on {c['training']['pairs']:,} "
          f"pairs of {c['training']['window'][0]} ({c['training']['new_links']:,} new links by "
          f"{c['training']['window'][1]}; windows {c['training']['windows']}); scored {c['training']['scored']:,} "
          f"pairs, missed by the shortlist {c['missed_by_shortlist']} of {c['off_shortlist_sampled']:,} sampled; "
          f"{c['near_synonyms']:,} near-synonym pairs; forecast {result['seconds']} s (CPU "
          f"{result['cpu_seconds']} s), total {result['total_seconds']} s\n")
    best = max(r["precision_at_1000"] for r in result["rows"] if r["method"] != "kg forecast")
    plain = max(r["precision_at_1000_without_near_synonyms"] for r in result["rows"] if r["method"] != "kg forecast")
    rows = [[r["method"], r["auc"], r["precision_at_100"], r["precision_at_1000"],
             f"{r['precision_at_1000'] / best:.2f}×" if best else "-",
             r["precision_at_100_without_near_synonyms"], r["precision_at_1000_without_near_synonyms"],
             f"{r['precision_at_1000_without_near_synonyms'] / plain:.2f}×" if plain else "-"]
            for r in result["rows"]]
    print(md_table(["method", "AUC", "precision@100", "precision@1000", "p@1000 / best baseline",
                    "p@100 w/o near-synonyms", "p@1000 w/o near-synonyms", "ratio w/o near-synonyms"], rows))
    print("\nkg's 10 best pairs at T (met: a paper of the horizon mentions both):")
    print(md_table(["source", "target", "score", "met", "shared neighbours"],
                   [[p["source_name"], p["target_name"], p["score"], "yes" if p["met"] else "no",
                     ", ".join(s["name"] for s in p["evidence"]["shared_neighbours"][:3])]
                    for p in result["top"]]))
    sys.stdout.flush()
    return result


def years(papers) -> str:
    values = [y for _, y, _ in papers]
    return f"{min(values)}–{max(values)}" if values else "no years"


if __name__ == "__main__":
    main()
