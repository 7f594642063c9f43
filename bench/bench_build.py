"""``kg build`` end to end, as users run it: wall, CPU and peak memory per stage, output sizes.

Each case runs the real command in a fresh output folder (``cold``: no embedding cache),
then again into the same folder (``warm``: the cache holds every text), and reads the
``kg: stage …`` lines the command prints. The model's one-time ONNX export lives in
kg's user cache folder (``$KG_CACHE_DIR``), shared by every case, as on a user's machine.

Cases: the first 2,000 / 5,000 / 10,000 ACM-CR papers, all of ACM-CR (24.6k), and
ACM-CR + hep-th (54k). Printed:

* per case and run: wall, CPU, peak RSS of the whole command, and each stage;
* the growth exponent of each stage between consecutive sizes (``log(t2/t1) / log(n2/n1)``,
  on CPU seconds, the firmer figure on a shared machine): 1 is linear, n log n between 5k
  and 25k is about 1.1, anything above ~1.25 is flagged;
* the size of each output file;
* quality of the same builds: F1@5/@10 of the concepts each ACM paper is linked to
  against its author keywords (kg eval's protocol), the share of papers that share a
  concept with another paper, the number of shared concepts; and, with ``--inspec``,
  ``kg eval`` on Inspec test with the build's defaults;
* the targets as ratios: wall / 600 s, peak RSS / 2 GiB, graph.json / 100 MB, cache / 250 MB
  (a ratio below 1 meets the target); with ``--extract-baseline``, the build's wall and CPU
  over ``kg extract``'s on the same papers, measured in the same run.

Usage::

    .venv/bin/python bench/bench_build.py                       # 2k, 5k, full ACM; cold and warm
    .venv/bin/python bench/bench_build.py --sizes 5000,full,54k --inspec --json out.json
    .venv/bin/python bench/bench_build.py --graph-only OUT      # quality of an existing build
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
ACM = DATA / "acm_cr" / "papers.jsonl"
HEPTH = DATA / "hepth" / "papers.jsonl"
KG = [str(Path(sys.executable).with_name("kg"))]  # the installed command, as users run it
STAGE = re.compile(r"^kg: stage (?P<name>.+?): (?P<wall>[\d.]+) s wall, (?P<cpu>[\d.]+) s CPU, "
                   r"RSS (?P<rss>\d+) MB, peak (?P<peak>\d+) MB")
MB = 1_000_000


def corpus(size: str, folder: Path) -> tuple[Path, int]:
    """The input file of one case and its number of lines, copied line by line: the bench
    process stays small, so the peak memory its children report (which starts from the
    parent's at fork) is the build's own."""
    path = folder / f"papers-{size}.jsonl"
    sources = [ACM, HEPTH] if size == "54k" else [ACM]
    limit = None if size in ("full", "54k") else int(size)
    n = 0
    with open(path, "w", encoding="utf-8") as out:
        for source in sources:
            with open(source, encoding="utf-8") as lines:
                for line in lines:
                    if limit is not None and n >= limit:
                        break
                    out.write(line)
                    n += 1
    return path, n


def timed(command: list[str], log: Path) -> dict:
    """Run ``command``; its wall, CPU and peak RSS (from wait4) and its ``kg: stage`` lines."""
    started = time.perf_counter()
    with open(log, "w", encoding="utf-8") as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    text = log.read_text(encoding="utf-8", errors="replace")
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{text[-3000:]}")
    stages = [dict(name=m["name"], wall=float(m["wall"]), cpu=float(m["cpu"]), rss=int(m["rss"]),
                   peak=int(m["peak"]))
              for m in map(STAGE.match, text.splitlines()) if m]
    return {"wall": round(wall, 1), "cpu": round(usage.ru_utime + usage.ru_stime, 1),
            "peak_mb": round(usage.ru_maxrss / 1024), "stages": stages}


def sizes_of(folder: Path) -> dict[str, int]:
    out = {p.name: p.stat().st_size for p in sorted(folder.iterdir()) if p.is_file()}
    cache = folder / ".kg-cache" / "embeddings.sqlite"
    if cache.exists():
        out[".kg-cache/embeddings.sqlite"] = cache.stat().st_size
    return out


def graph_quality(folder: Path, data: Path | None = None) -> dict:
    """Author-keyword F1 of each paper's linked concepts, and how papers meet on concepts."""
    from kg.evaluate import score_keyphrases
    from kg.graphfile import load_graph

    graph = load_graph(folder)  # graph.json leaves out what it implies: read it as kg does
    names = {n: re.sub(r" \([^()]*\)$", "", d.get("name", "")) for n, d in graph.nodes(data=True)
             if d.get("kind") == "concept"}
    df = {n: d.get("papers", 0) for n, d in graph.nodes(data=True) if d.get("kind") == "concept"}
    gold = {n: d.get("keyphrases") or [] for n, d in graph.nodes(data=True) if d.get("kind") == "paper"}
    linked: dict[str, list[tuple[int, str]]] = defaultdict(list)
    related = 0
    for u, v, key, d in graph.edges(keys=True, data=True):
        if key == "mentions":
            linked[u].append((d.get("rank", 0), v))
        elif key == "related":
            related += 1
    predictions = {p: [names[c] for _, c in sorted(cs)] for p, cs in linked.items()}
    scored = {p: g for p, g in gold.items() if g}
    f1 = score_keyphrases(predictions, scored, ks=(5, 10)) if scored else {}
    meeting = sum(1 for p in gold if any(df[c] >= 2 for _, c in linked.get(p, [])))
    return {
        "papers": len(gold),
        "concepts": len(df),
        "shared_concepts": sum(1 for n in df.values() if n >= 2),
        "papers_meeting": round(meeting / max(len(gold), 1), 4),
        "related_edges": related,
        "keywords_f1@5": f1.get(5, {}).get("f1"),
        "keywords_f1@10": f1.get(10, {}).get("f1"),
    }


def inspec() -> dict:
    test = DATA / "inspec" / "test.jsonl"
    result = subprocess.run(KG + ["eval", str(test)], capture_output=True, text=True, cwd=ROOT, check=True)
    scores = {}
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0].isdigit():
            scores[f"F1@{parts[0]}"] = float(parts[3])
    return scores


def exponent(n1: int, t1: float, n2: int, t2: float) -> float | None:
    if min(t1, t2) < 0.5 or n1 == n2:  # too short to say
        return None
    return math.log(t2 / t1) / math.log(n2 / n1)


def report(results: dict) -> None:
    print("\n== kg build, end to end ==")
    print(f"{'case':>8} {'run':>5} {'papers':>7} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}  "
          f"{'wall/600s':>9} {'RSS/2GiB':>8}")
    for case, row in results["cases"].items():
        for run in ("cold", "warm"):
            if run in row:
                r = row[run]
                print(f"{case:>8} {run:>5} {row['papers']:>7} {r['wall']:>8.1f} {r['cpu']:>8.1f} {r['peak_mb']:>8} "
                      f" {r['wall'] / 600:>9.2f} {r['peak_mb'] / 2048:>8.2f}")
        if "extract" in row:
            e, c = row["extract"], row["cold"]
            print(f"{case:>8} {'extr':>5} {row['papers']:>7} {e['wall']:>8.1f} {e['cpu']:>8.1f} {e['peak_mb']:>8}"
                  f"  build/extract: wall {c['wall'] / e['wall']:.2f}x, CPU {c['cpu'] / e['cpu']:.2f}x")
    print("\n== stages (cold): CPU s (wall s), peak MB at the end ==")
    cases = list(results["cases"])
    names = []
    for case in cases:
        for s in results["cases"][case]["cold"]["stages"]:
            if s["name"] not in names:
                names.append(s["name"])
    print(f"{'stage':>28} " + " ".join(f"{c:>20}" for c in cases))
    for name in names:
        cells = []
        for case in cases:
            s = next((s for s in results["cases"][case]["cold"]["stages"] if s["name"] == name), None)
            cells.append(f"{s['cpu']:.1f} ({s['wall']:.1f}) {s['peak']}" if s else "-")
        print(f"{name:>28} " + " ".join(f"{c:>20}" for c in cells))
    if len(cases) > 1:
        print("\n== growth exponent of each stage (CPU s; 1 = linear, > 1.25 flagged) ==")
        print(f"{'stage':>28} " + " ".join(f"{a + '->' + b:>14}" for a, b in zip(cases, cases[1:])))
        for name in names:
            cells = []
            for a, b in zip(cases, cases[1:]):
                ra, rb = results["cases"][a], results["cases"][b]
                sa = next((s for s in ra["cold"]["stages"] if s["name"] == name), None)
                sb = next((s for s in rb["cold"]["stages"] if s["name"] == name), None)
                g = exponent(ra["papers"], sa["cpu"], rb["papers"], sb["cpu"]) if sa and sb else None
                cells.append("-" if g is None else f"{g:.2f}" + (" !" if g > 1.25 else ""))
            print(f"{name:>28} " + " ".join(f"{c:>14}" for c in cells))
    print("\n== outputs (MB) ==")
    files = sorted({f for row in results["cases"].values() for f in row["sizes"]})
    print(f"{'file':>28} " + " ".join(f"{c:>10}" for c in cases))
    for f in files:
        print(f"{f:>28} " + " ".join(f"{row['sizes'].get(f, 0) / MB:>10.1f}" for row in results["cases"].values()))
    print("\n== quality of the same builds ==")
    keys = ["papers", "concepts", "shared_concepts", "papers_meeting", "related_edges", "keywords_f1@5",
            "keywords_f1@10"]
    print(f"{'':>28} " + " ".join(f"{c:>10}" for c in cases))
    for k in keys:
        print(f"{k:>28} " + " ".join(f"{str(row['quality'].get(k)):>10}" for row in results["cases"].values()))
    if "inspec" in results:
        print(f"\nInspec test with the build's defaults: {results['inspec']} "
              "(PromptRank F1@5 31.73, SIFRank F1@10 39.12)")
    for case, row in results["cases"].items():
        json_mb = row["sizes"].get("graph.json", 0) / MB
        cache_mb = row["sizes"].get(".kg-cache/embeddings.sqlite", 0) / MB
        print(f"{case}: graph.json {json_mb:.0f} MB ({json_mb / 100:.2f} of 100 MB), "
              f"cache {cache_mb:.0f} MB ({cache_mb / 250:.2f} of 250 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="2000,5000,full",
                        help="comma-separated: paper counts (first N of ACM-CR), full, 54k")
    parser.add_argument("--no-warm", action="store_true", help="skip the rebuild from the cache")
    parser.add_argument("--inspec", action="store_true", help="also run kg eval on Inspec test")
    parser.add_argument("--extract-baseline", action="store_true",
                        help="also time kg extract on each case (the baseline ratio)")
    parser.add_argument("--keep", default=None, help="keep the builds in this folder")
    parser.add_argument("--json", default=None, help="write every figure here")
    parser.add_argument("--graph-only", default=None, help="only score the build in this folder")
    args = parser.parse_args()
    if args.graph_only:
        print(json.dumps(graph_quality(Path(args.graph_only)), indent=1))
        return
    work = Path(args.keep or tempfile.mkdtemp(prefix="kg-bench-build-"))
    work.mkdir(parents=True, exist_ok=True)
    results: dict = {"cases": {}}
    for size in args.sizes.split(","):
        data, n = corpus(size, work)
        out = work / f"out-{size}"
        shutil.rmtree(out, ignore_errors=True)
        row: dict = {"papers": n}
        print(f"{size}: kg build (cold) …", file=sys.stderr, flush=True)
        row["cold"] = timed(KG + ["build", str(data), "--out", str(out), "-v"], work / f"cold-{size}.log")
        row["sizes"] = sizes_of(out)
        row["quality"] = graph_quality(out)
        if not args.no_warm:
            print(f"{size}: kg build (warm) …", file=sys.stderr, flush=True)
            row["warm"] = timed(KG + ["build", str(data), "--out", str(out), "-v"], work / f"warm-{size}.log")
        if args.extract_baseline:
            print(f"{size}: kg extract …", file=sys.stderr, flush=True)
            row["extract"] = timed(KG + ["extract", str(data), "--out", str(work / f"kp-{size}.jsonl")],
                                   work / f"extract-{size}.log")
        results["cases"][size] = row
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)
    if args.inspec:
        results["inspec"] = inspec()
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
