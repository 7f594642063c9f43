"""The analysis stage of a build with and without a NetworkX backend: wall, CPU, and what dispatched.

Loads a ``kg build`` output folder and runs :func:`kg.analyze.analyze` on its graph ``--repeat``
times per backend (the default, then each one named), alternating, so that a slow spell of a
shared machine hits every backend alike. Prints per backend the median wall and CPU seconds of
this process and of its child processes (nx-parallel's joblib workers), which NetworkX calls ran
on the backend and which NetworkX ran itself, and whether the analysis equals the default one
(which tables differ; PageRank's largest absolute and relative difference).

Usage::

    .venv/bin/kg build acm5k.jsonl --out /tmp/acm5k --no-html
    .venv/bin/python bench/bench_nx_backend.py /tmp/acm5k --backends rustworkx,parallel --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _compare(a: dict, b: dict) -> str:
    """How ``b`` differs from ``a``: the tables that differ, and PageRank's largest differences."""
    differ = [k for k in a if k != "pagerank" and json.dumps(a[k], sort_keys=True) != json.dumps(b[k], sort_keys=True)]
    out = [f"tables that differ: {', '.join(differ) or 'none'}"]
    for name in ("papers", "concepts"):
        x, y = a["pagerank"][name], b["pagerank"][name]
        if x.keys() != y.keys():
            out.append(f"PageRank {name}: other nodes")
            continue
        worst = max((abs(x[k] - y[k]) for k in x), default=0.0)
        rel = max((abs(x[k] - y[k]) / x[k] for k in x if x[k]), default=0.0)
        out.append(f"PageRank {name}: max abs {worst:.1e}, max rel {rel:.1e}")
    return "; ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a kg build output folder")
    parser.add_argument("--backends", default="rustworkx", help="comma-separated NetworkX backends")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import networkx as nx

    from kg.analyze.result import saved_parameters
    from kg.analyze import analyze
    from kg.graphfile import load_graph
    from kg.nxbackend import check_backend, tally

    graph = load_graph(args.folder)
    params = saved_parameters(graph)
    backends = [None] + [check_backend(b) for b in args.backends.split(",") if b]
    papers = sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "paper")
    print(f"{args.folder}: {papers} papers, {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges; "
          f"NetworkX {nx.__version__}, {os.cpu_count()} CPUs")
    results: dict = {b: {"wall": [], "cpu": [], "counts": None, "analysis": None} for b in backends}
    for _ in range(args.repeat):
        for backend in backends:
            wall, cpu = time.perf_counter(), _cpu()
            with tally() as counts:
                analysis = analyze(graph, backend=backend, **params)
            results[backend]["wall"].append(time.perf_counter() - wall)
            results[backend]["cpu"].append(_cpu() - cpu)
            results[backend]["counts"] = dict(counts)
            results[backend]["analysis"] = analysis
    default = results[None]["analysis"]
    for backend, r in results.items():
        ran = r["counts"] or {}
        on = ", ".join(f"{n} x{k}" for (n, where), k in sorted(ran.items()) if where == backend) or "-"
        off = ", ".join(f"{n} x{k}" for (n, where), k in sorted(ran.items()) if where == "networkx") or "-"
        print(f"{backend or 'networkx (default)':<20} wall {statistics.median(r['wall']):6.1f} s  "
              f"CPU {statistics.median(r['cpu']):6.1f} s  (runs: {', '.join(f'{w:.1f}' for w in r['wall'])})"
              + ("" if backend is None else f"\n{'':20} on {backend}: {on}; NetworkX: {off}; "
                                            f"\n{'':20} {_compare(default, r['analysis'])}"))


if __name__ == "__main__":
    main()
