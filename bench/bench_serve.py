"""Time every API answer of ``kg serve`` on a build, as a browser gets it (HTTP over loopback).

    .venv/bin/python bench/bench_serve.py BUILD_DIR [--samples 20] [--seed 7] [--json times.json]

Starts the real ``kg serve BUILD_DIR --port 0`` (a subprocess), picks what to ask from the build's
index (as-you-type prefixes; a seeded sample of papers; the concepts of most papers, which cost most;
the largest communities; with and without a year range) and times each request end to end (urllib,
one connection per request). Prints one Markdown row per endpoint: requests, the first answer
(cold), the median, the 95th percentile and the slowest in ms, and the largest answer in KiB; and
the slowest request of all. The issue's target is every answer under 200 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from kg.index import open_index

ROOT = Path(__file__).resolve().parent.parent
# what a person types, letter by letter, and the two-letter starts that match most of a corpus
PREFIXES = ["g", "gr", "gra", "grap", "graph", "graph n", "graph neural", "rec", "recommender sys",
            "information retr", "que", "query expansion", "user", "twitter", "learning to rank", "deep le",
            "co", "in", "se", "th", "pr", "a ", "on", "con", "pro", "dat", "mod", "inf", "com", "int"]


def _start(folder: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "kg.cli", "serve", str(folder), "--port", "0"], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("kg serve: http://"):
        process.kill()
        raise SystemExit(f"kg serve did not start: {line!r}")
    return process, line.split()[2].rstrip("/")


def _paths(folder: Path, samples: int, seed: int) -> dict[str, list[str]]:
    with open_index(folder) as index:
        years = index.year_range() or (2000, 2020)
        middle = (years[0] + years[1]) // 2
        ranges = ["", f"&from={middle - 2}&to={middle + 2}"]
        papers = sorted({p for row in index.community_rows() for p in row["papers"]})
        concepts = [c["id"] for c in index.concept_rows(top=samples)]
        communities = [c["id"] for c in sorted(index.communities(), key=lambda c: (-c["size"], c["id"]))[:samples]]
    chosen = random.Random(seed).sample(papers, min(samples, len(papers)))
    return {
        "/api/meta": ["/api/meta"],
        "/api/search": [f"/api/search?q={quote(p)}{r}" for p in PREFIXES for r in ranges],
        "/api/paper": [f"/api/paper?id={quote(p, safe='')}{r}" for p in chosen for r in ranges],
        "/api/concept": [f"/api/concept?id={quote(c, safe='')}{r}" for c in concepts for r in ranges],
        "/api/communities": [f"/api/communities{('?' + r[1:]) if r else ''}" for r in ranges] * 3,
        "/api/community": [f"/api/community?id={c}{r}" for c in communities for r in ranges],
    }


def _time(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        body = answer.read()
        if answer.status != 200:
            raise SystemExit(f"{url}: HTTP {answer.status}")
    return (time.perf_counter() - started) * 1000, len(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    paths = _paths(args.build, args.samples, args.seed)
    process, origin = _start(args.build)
    rows, slowest = [], (0.0, "")
    try:
        for endpoint, urls in paths.items():
            times, sizes = [], []
            for path in urls:
                ms, size = _time(origin + path)
                times.append(ms)
                sizes.append(size)
                slowest = max(slowest, (ms, path))
            ordered = sorted(times)
            rows.append({"endpoint": endpoint, "requests": len(times), "first_ms": round(times[0], 1),
                         "median_ms": round(statistics.median(times), 1),
                         "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
                         "max_ms": round(ordered[-1], 1), "max_kib": round(max(sizes) / 1024, 1)})
    finally:
        process.terminate()
        process.wait(timeout=20)
    print(f"kg serve on {args.build} ({sum(r['requests'] for r in rows)} requests, seed {args.seed})\n")
    print("| endpoint | requests | first ms | median ms | p95 ms | max ms | largest KiB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| `{r['endpoint']}` | {r['requests']} | {r['first_ms']} | {r['median_ms']} | {r['p95_ms']} | "
              f"{r['max_ms']} | {r['max_kib']} |")
    print(f"\nslowest: {slowest[0]:.1f} ms for {slowest[1]}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "slowest": list(slowest)}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
