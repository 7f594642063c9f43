"""Benchmark keyphrase extraction: KeyBERT per document, KeyBERT batch, and kg, in one run.

Each method runs in its own child process on the same documents (so peak memory is
its own), with the same model (the packaged all-MiniLM-L6-v2) and the same number of
torch threads. Printed per method: docs/s, the ratio to KeyBERT batch, peak RSS, and
F1@5/10/15 under the standard protocol (kg.evaluate) against the file's gold
keyphrases (Inspec: the uncontrolled gold; ACM: author keywords, many of them absent
from the text, so only the comparison between methods means something).

The CPU may be shared with other work: compare the ratios within one run, not the
absolute docs/s across runs.

Usage::

    .venv/bin/python bench/bench_extract.py                       # 2,000 ACM abstracts + Inspec test
    .venv/bin/python bench/bench_extract.py --data ../shared/data/inspec/test.jsonl --n 500
    .venv/bin/python bench/bench_extract.py --full-acm            # kg alone on all 24,614 ACM records
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
METHODS = ("keybert-doc", "keybert-batch", "kg", "kg-cached")


def _papers(path: str, n: int | None):
    from kg.ingest import load_corpus

    papers = load_corpus([path], format="jsonl").papers
    return papers[:n] if n else papers


def _worker(method: str, path: str, n: int | None, sample: int, threads: int, precision: str,
            cache: str | None, window: int | None = None) -> dict:
    import torch

    torch.set_num_threads(threads)
    papers = _papers(path, n)
    if method.startswith("keybert") and method == "keybert-doc":
        papers = papers[:sample]
    from kg.extract import document_text

    texts = [document_text(p) for p in papers]
    started = time.perf_counter()
    if method.startswith("keybert"):
        from keybert import KeyBERT
        from sentence_transformers import SentenceTransformer

        from kg.extract.embedder import default_model_path

        model = KeyBERT(model=SentenceTransformer(str(default_model_path()), device="cpu"))
        loaded = time.perf_counter()
        kwargs = dict(keyphrase_ngram_range=(1, 3), stop_words="english", top_n=15)
        if method == "keybert-doc":
            found = [model.extract_keywords(t, **kwargs) for t in texts]
        else:
            found = model.extract_keywords(texts, **kwargs)
        predictions = {p.id: [k for k, _ in kps] for p, kps in zip(papers, found)}
    else:
        from kg.extract import CachedEmbedder, extract_keyphrases, load_embedder

        from kg.extract.embedder import DEFAULT_WINDOW

        embedder = load_embedder(precision=precision, window=window or DEFAULT_WINDOW)
        if cache:
            embedder = CachedEmbedder(embedder, cache)
        loaded = started  # the model loads lazily, inside extraction
        found = extract_keyphrases(papers, embedder, top_n=15, n_jobs=2)
        predictions = {pid: [k.phrase for k in kps] for pid, kps in found.items()}
    seconds = time.perf_counter() - loaded
    from kg.evaluate import score_keyphrases

    gold = {p.id: list(p.keyphrases) for p in papers if p.keyphrases}
    scores = score_keyphrases(predictions, gold) if gold else {}
    return {
        "method": method, "docs": len(papers), "seconds": round(seconds, 2),
        "docs_per_s": round(len(papers) / seconds, 2) if seconds else None,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "f1": {k: v["f1"] for k, v in scores.items()},
    }


def _run_child(method: str, args, cache: str | None) -> dict:
    command = [sys.executable, __file__, "--worker", method, "--data", args.data,
               "--sample", str(args.sample), "--threads", str(args.threads), "--precision", args.precision]
    if args.n:
        command += ["--n", str(args.n)]
    if cache:
        command += ["--cache", cache]
    if args.window:
        command += ["--window", str(args.window)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{method} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _table(rows: list[dict], data: str) -> str:
    batch = next((r for r in rows if r["method"] == "keybert-batch"), None)
    doc = next((r for r in rows if r["method"] == "keybert-doc"), None)
    lines = [f"data: {data}",
             f"{'method':<14} {'docs':>6} {'s':>8} {'docs/s':>8} {'x batch':>8} {'x per-doc':>9} "
             f"{'peak MB':>8} {'F1@5':>6} {'F1@10':>6} {'F1@15':>6}"]
    for r in rows:
        ratio = f"{r['docs_per_s'] / batch['docs_per_s']:.1f}" if batch else "-"
        ratio_doc = f"{r['docs_per_s'] / doc['docs_per_s']:.1f}" if doc else "-"
        f1 = [f"{r['f1'].get(k, r['f1'].get(str(k), 0)):.2f}" if r["f1"] else "-" for k in (5, 10, 15)]
        lines.append(f"{r['method']:<14} {r['docs']:>6} {r['seconds']:>8.1f} {r['docs_per_s']:>8.1f} "
                     f"{ratio:>8} {ratio_doc:>9} {r['peak_rss_mb']:>8} {f1[0]:>6} {f1[1]:>6} {f1[2]:>6}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append", help="JSONL corpus (repeatable)")
    parser.add_argument("--n", type=int, default=None, help="first N records (default: 2000 for ACM, all else)")
    parser.add_argument("--sample", type=int, default=200,
                        help="documents KeyBERT per-doc runs on (its docs/s is measured on these)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads for every method")
    parser.add_argument("--precision", default="auto",
                        help="kg's precision: auto (int8 through ONNX Runtime on a CPU), fp32, int8, bf16")
    parser.add_argument("--window", type=int, default=None, help="kg's window in tokens (default: kg's)")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated subset")
    parser.add_argument("--full-acm", action="store_true", help="time kg alone on the whole ACM corpus")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--cache", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        result = _worker(args.worker, args.data[0], args.n, args.sample, args.threads, args.precision, args.cache,
                         args.window)
        print(json.dumps(result))
        return
    sys.path.insert(0, str(ROOT))
    datasets = args.data or [str(DATA / "acm_cr" / "papers.jsonl"), str(DATA / "inspec" / "test.jsonl")]
    methods = ["kg"] if args.full_acm else args.methods.split(",")
    if args.full_acm:
        datasets = [str(DATA / "acm_cr" / "papers.jsonl")]
    for data in datasets:
        if not os.path.exists(data):
            print(f"skipped: {data} is not present", file=sys.stderr)
            continue
        one = argparse.Namespace(**vars(args))
        one.data = data
        if one.n is None and "acm_cr" in data and not args.full_acm:
            one.n = 2000
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "embeddings.sqlite")
            for method in methods:
                if method == "kg-cached":  # a rebuild: every text is in the cache kg just filled
                    if "kg" not in methods:
                        _run_child("kg", one, cache)
                    rows.append(_run_child("kg", one, cache) | {"method": "kg-cached"})
                else:
                    rows.append(_run_child(method, one, cache if method == "kg" else None))
                print(f"  {rows[-1]['method']}: {rows[-1]['docs_per_s']} docs/s", file=sys.stderr, flush=True)
        n = max(r["docs"] for r in rows)
        print(_table(rows, f"{data} (n={n}; keybert-doc on the first {min(n, args.sample)}; "
                           f"precision={args.precision}, threads={args.threads})"))
        print(flush=True)


if __name__ == "__main__":
    main()
