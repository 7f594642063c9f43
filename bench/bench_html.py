"""Time the graph page from opening to stable in headless Chromium, at 500, 2,000 and 5,000 nodes.

    .venv/bin/python bench/bench_html.py [--sizes 500 2000 5000] [--repeat 3]

For each size: a synthetic kg graph (tests/_html_graphs.py, bipartite view, all nodes),
the Python side (``render_html``: view, layout, page), then the page opened in Debian's
Chromium with the network blocked: *open→stable* is the time from navigation start to
the page's ready signal (first full drawing with physics off; nothing moves after it),
and *select* the time for one search hit to be selected, highlighted and zoomed to.
The median of ``--repeat`` openings is printed, with the ratio to the smallest size
measured in the same run (so the numbers compare across machines).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _browser import chromium, open_page, why_unavailable  # noqa: E402
from _html_graphs import synthetic_graph  # noqa: E402

from kg.export.html import render_html  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    reason = why_unavailable()
    if reason:
        print(f"skipped: {reason}")
        return 0
    rows = []
    render_html(synthetic_graph(60, seed=1))  # imports (igraph, pyvis files) out of the timings
    with tempfile.TemporaryDirectory(prefix="kg-bench-html-") as tmp, chromium() as browser:
        for size in args.sizes:
            graph = synthetic_graph(size, seed=1)
            started = time.perf_counter()
            page_text = render_html(graph, top=None)
            render_s = time.perf_counter() - started
            path = Path(tmp) / f"graph-{size}.html"
            path.write_text(page_text, encoding="utf-8")
            opens, selects, edges = [], [], 0
            for _ in range(args.repeat):
                page, log, seconds = open_page(browser, path)
                if log.errors or len(log.requests) != 1:
                    raise SystemExit(f"{size} nodes: errors {log.errors} requests {log.requests}")
                edges = page.evaluate("kg.data.edges.length")
                hit = page.evaluate("kg.search('paper 1')[0]")
                selects.append(page.evaluate("""k => { const t = performance.now(); kg.select(k, true);
                    kg.network.redraw(); return new Promise(done => requestAnimationFrame(
                        () => done((performance.now() - t) / 1000))); }""", hit))
                opens.append(seconds)
                page.close()
            rows.append((size, edges, len(page_text) / 2**20, render_s, statistics.median(opens),
                         statistics.median(selects)))
    base = rows[0][4]
    print(f"{'nodes':>6} {'edges':>7} {'MiB':>5} {'render s':>9} {'open→stable s':>14} {'ratio':>6} {'select s':>9}")
    for size, edges, mib, render_s, open_s, select_s in rows:
        print(f"{size:>6} {edges:>7} {mib:>5.1f} {render_s:>9.2f} {open_s:>14.2f} {open_s / base:>6.1f} {select_s:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
