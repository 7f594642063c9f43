"""Time near-synonym merging (kg.normalize.near_synonyms) on ACM-sized concept key sets.

Keys come from the candidates of the first N ACM-CR papers (kg.extract.candidates, no
model); vectors are a hashed bag of words (no model either), so only the comparison is
timed. Prints per N: keys, seconds of the blocked comparison, and the growth exponent
between consecutive sizes.

Usage::

    .venv/bin/python bench/bench_near_synonyms.py --n 5000 25000
"""

from __future__ import annotations

import argparse
import hashlib
import math
import re
import time
from collections import Counter
from pathlib import Path

import numpy as np

ACM = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"


def _hashed(texts, dim=256):
    out = np.zeros((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        for token in re.findall(r"[a-z0-9]+", text.lower()):
            digest = hashlib.md5(token.encode()).digest()
            out[row, int.from_bytes(digest[:4], "little") % dim] += 1.0 if digest[4] & 1 else -1.0
        out[row] /= max(np.linalg.norm(out[row]), 1e-9)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[5000, 25000])
    args = parser.parse_args()
    from kg.extract import paper_candidates
    from kg.ingest import load_corpus
    from kg.normalize import concept_key, near_synonyms

    papers = load_corpus([str(ACM)], format="jsonl").papers
    probes: dict[str, str] = {}
    df: Counter[str] = Counter()
    done, previous = 0, None
    for n in sorted(args.n):
        for paper in papers[done:n]:
            for cand in paper_candidates(paper):
                key = concept_key(cand.phrase)
                probes.setdefault(key, cand.phrase)
                df[key] += 1
        done = n
        texts = sorted(set(probes.values()))
        vectors = dict(zip(texts, _hashed(texts)))
        started = time.perf_counter()
        merged = near_synonyms(probes, df, vectors=vectors)
        seconds = time.perf_counter() - started
        growth = (f", growth exponent {math.log(seconds / previous[1]) / math.log(len(probes) / previous[0]):.2f}"
                  if previous else "")
        print(f"{min(n, len(papers))} papers: {len(probes)} keys, {len(merged)} merges, {seconds:.1f} s{growth}",
              flush=True)
        previous = (len(probes), seconds)


if __name__ == "__main__":
    main()
