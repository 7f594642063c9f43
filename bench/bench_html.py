"""Time the graph page from opening to stable in headless Chromium, at 500, 2,000 and 5,000 nodes.

    .venv/bin/python bench/bench_html.py [--sizes 500 2000 5000] [--repeat 3]
    .venv/bin/python bench/bench_html.py --build /tmp/kgbench/acm [--shots /tmp/html] [--sizes]

For each size: a synthetic kg graph (tests/_html_graphs.py, bipartite view, all nodes),
the Python side (``render_html``: view, layout, page), then the page opened in Debian's
Chromium with the network blocked: *open→stable* is the time from navigation start to
the page's ready signal (first full drawing with physics off; nothing moves after it),
and *select* the time for one search hit to be selected, highlighted and zoomed to.
The median of ``--repeat`` openings is printed, with the ratio to the smallest size
measured in the same run (so the numbers compare across machines).

``--build DIR`` adds a real corpus (a ``kg build`` output, e.g. ACM-CR): its default
page (bipartite, top 2,000), the concept map and the community overview, drawn with the
communities of its ``report.json`` when there is one. For each it prints whether it reads
as a map, from the page's own data block: the share of drawn nodes with no drawn edge,
the share of each node's 10 nearest on-screen neighbours in its community (and the same
with the communities shuffled), and the labels readable at the opening zoom of a
1400×900 window (wholly on screen, 10 px or more, none overlapping). ``--shots`` saves
a screenshot of each (``<build>_<view>.png``).
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

from _browser import chromium, open_page, readable_labels, why_unavailable  # noqa: E402
from _html_graphs import map_metrics, synthetic_graph  # noqa: E402

from kg.export.html import render_html  # noqa: E402


def _report_communities(folder: Path) -> tuple[dict | None, list | None]:
    """Community numbers and labels from ``folder/report.json``, as the pipeline hands them on."""
    import json

    try:
        rows = json.loads((folder / "report.json").read_text(encoding="utf-8"))["communities"]
        members = {p: row["id"] for row in rows for p in row["papers"]}
        return members, [row["label"] for row in rows]
    except (OSError, KeyError, TypeError, ValueError):
        return None, None


def bench_build(folder: Path, browser, tmp: Path, *, repeat: int, shots: Path | None) -> None:
    from kg.analyze import saved_parameters
    from kg.graphfile import load_graph

    graph = load_graph(folder)
    params = saved_parameters(graph)
    members, labels = _report_communities(folder)
    print(f"{folder}: {sum(1 for _, d in graph.nodes(data=True) if d.get('kind') == 'paper')} papers, "
          f"communities from {'report.json' if members else 'the page (report.json missing)'}")
    print(f"{'view':>12} {'nodes':>6} {'edges':>6} {'render s':>9} {'open→stable s':>14} {'isolated':>9} "
          f"{'10-NN agree':>12} {'shuffled':>9} {'labels':>7}")
    for view in ("bipartite", "concepts", "communities"):
        started = time.perf_counter()
        text = render_html(graph, view=view, seed=params["seed"], resolution=params["resolution"],
                           communities=members, community_labels=labels, title=f"kg · {folder.name} · {view}")
        render_s = time.perf_counter() - started
        path = tmp / f"{folder.name}-{view}.html"
        path.write_text(text, encoding="utf-8")
        opens, readable, data = [], 0, None
        for _ in range(repeat):
            page, log, seconds = open_page(browser, path)
            if log.errors or len(log.requests) != 1:
                raise SystemExit(f"{view}: errors {log.errors} requests {log.requests}")
            opens.append(seconds)
            readable = len(readable_labels(page))
            if data is None:
                data = page.evaluate("kg.data")
                if shots:
                    page.screenshot(path=str(shots / f"{folder.name}_{view}.png"))
            page.close()
        m = map_metrics(data)
        agree, shuffled = (f"{m['agreement']:.2f}", f"{m['baseline']:.2f}") if view != "communities" else ("—", "—")
        print(f"{view:>12} {m['nodes']:>6} {len(data['edges']):>6} {render_s:>9.2f} {statistics.median(opens):>14.2f} "
              f"{m['isolated']:>9.1%} {agree:>12} {shuffled:>9} {readable:>7}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[500, 2000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--build", type=Path, action="append", default=[],
                        help="also measure the pages of this kg build output (repeatable)")
    parser.add_argument("--shots", type=Path, help="save a screenshot of each --build page here")
    args = parser.parse_args()
    reason = why_unavailable()
    if reason:
        print(f"skipped: {reason}")
        return 0
    rows = []
    render_html(synthetic_graph(60, seed=1))  # imports (igraph, pyvis files) out of the timings
    with tempfile.TemporaryDirectory(prefix="kg-bench-html-") as tmp, chromium() as browser:
        for folder in args.build:
            bench_build(folder, browser, Path(tmp), repeat=args.repeat, shots=args.shots)
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
    if not rows:
        return 0
    base = rows[0][4]
    print(f"{'nodes':>6} {'edges':>7} {'MiB':>5} {'render s':>9} {'open→stable s':>14} {'ratio':>6} {'select s':>9}")
    for size, edges, mib, render_s, open_s, select_s in rows:
        print(f"{size:>6} {edges:>7} {mib:>5.1f} {render_s:>9.2f} {open_s:>14.2f} {open_s / base:>6.1f} {select_s:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
