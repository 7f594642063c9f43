"""Time the read commands on a build, each from a cold process, with and without its read index.

    .venv/bin/python bench/bench_read.py BUILD [--paper ID] [--community N] [--query TEXT] [--json out.json]

BUILD is a ``kg build`` folder holding ``index.sqlite`` (``kg report BUILD`` writes it into an
older build). The "before" column runs the same commands on a copy of BUILD without the index
(hard links, in a temporary folder beside it): the slow path, which reads the whole
``graph.json``. Every command runs under ``/usr/bin/time -v``; the table gives wall seconds and
peak RSS (MB) and the target of each. ``--quality`` also runs the semantic search of each query
of ``--queries`` both ways in one process and prints the top-10 overlap of papers and concepts.

Each command is timed as an installed kg runs, from a new process with its modules' bytecode
cached: every one runs once untimed first ("after" column), with Python's bytecode cache in a temporary folder
(``PYTHONPYCACHEPREFIX``; ``PYTHONDONTWRITEBYTECODE`` is dropped for the runs), so a checkout
that has never written its ``__pycache__`` is not timed compiling itself. That first run also
leaves the build's files in the page cache, as a build just made or opened leaves them.
``--cold-bytecode`` times them without it (every kg module compiled in every run: about 0.3 s
to 0.8 s more a command on the 2-core machine, measured).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ("graph neural networks for recommendation", "defending distributed training against malicious workers",
           "evaluation of search engines with click logs", "privacy of user data in mobile apps",
           "query expansion with word embeddings", "collaborative filtering with implicit feedback",
           "digital library metadata quality", "online advertising click-through rate prediction",
           "explaining recommendations to users", "learning to rank with deep models")


def _kg() -> str:
    found = shutil.which("kg", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if found is None:
        sys.exit("the kg command is not installed next to this Python")
    return found


def _timed(command: list[str], env: dict | None = None) -> tuple[float, float, float, int]:
    """(wall seconds, peak RSS in MB, CPU seconds (user + system), exit code) of ``command`` under /usr/bin/time -v."""
    done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, env=env)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.+)", done.stderr).group(1)
    parts = [float(p) for p in wall.strip().split(":")]
    seconds = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) / 1024
    cpu = sum(float(re.search(rf"{what} time \(seconds\): ([\d.]+)", done.stderr).group(1)) for what in ("User", "System"))
    if done.returncode != 0:
        print(f"  {' '.join(command)} exited {done.returncode}: {done.stderr.strip().splitlines()[0]}",
              file=sys.stderr)
    return seconds, rss, cpu, done.returncode


def _slow_copy(build: Path, where: Path) -> Path:
    """``build`` without its index: hard links (copies across file systems) of every other file."""
    copy = where / build.name
    copy.mkdir()
    for entry in build.iterdir():
        if entry.is_file() and entry.name != "index.sqlite":
            try:
                os.link(entry, copy / entry.name)
            except OSError:
                shutil.copy2(entry, copy / entry.name)
    return copy


def _pick(build: Path, paper: str | None, community: int | None) -> tuple[str, int]:
    sys.path.insert(0, str(ROOT))
    from kg.index import open_index  # noqa: E402  (the bench, not the package)

    index = open_index(build)
    if paper is None:  # the most central paper of the largest community
        biggest = max(index.communities(), key=lambda c: c["size"])
        paper = biggest["central"][0]["id"]
        community = biggest["id"] if community is None else community
    return paper, 0 if community is None else community


def _commands(kg: str, folder: Path, paper: str, community: int, query: str, page: Path, *, before: bool) -> dict:
    python = sys.executable
    load = "kg.KnowledgeGraph.read" if before else "kg.load"  # what kg.load did before the index: read it all
    return {
        "import kg + Typer (kg --version)": ([kg, "--version"], 0.5, None),
        "kg.load(folder)": ([python, "-c", f"import kg; {load}({str(folder)!r})"], 1.0, None),
        "kg search": ([kg, "search", str(folder), query], 1.0, 400),
        "kg related": ([kg, "related", str(folder), paper], 1.0, 400),
        "kg concepts": ([kg, "concepts", str(folder)], 1.0, 400),
        f"kg concepts --community {community}": ([kg, "concepts", str(folder), "--community", str(community)], 1.0,
                                                 400),
        "kg viz --focus": ([kg, "viz", str(folder), "--focus", paper, "--out", str(page)], 3.0, None),
        f"kg viz --community {community}": ([kg, "viz", str(folder), "--community", str(community), "--out",
                                             str(page)], 3.0, None),
        "kg viz --view communities": ([kg, "viz", str(folder), "--view", "communities", "--out", str(page)], 3.0,
                                      None),
    }


def _quality(build: Path, queries: list[str]) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    import kg  # noqa: E402
    from kg.index import open_index  # noqa: E402
    from kg.index.query import search_index  # noqa: E402

    index = open_index(build)
    graph = kg.KnowledgeGraph.read(build).graph
    rows = []
    for query in queries:
        fast = search_index(index, query, top=10)
        slow = kg.search.search_build(build, query, top=10, graph=graph)
        rows.append({"query": query, **{kind: len({r["id"] for r in fast[kind]} & {r["id"] for r in slow[kind]})
                                        for kind in ("papers", "concepts")},
                     "same": fast == slow})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--paper", help="paper id for related and --focus (default: a central one)")
    parser.add_argument("--community", type=int)
    parser.add_argument("--query", default=QUERIES[0])
    parser.add_argument("--no-before", action="store_true", help="skip the slow path (the copy without index)")
    parser.add_argument("--quality", action="store_true", help="top-10 overlap of the two searches")
    parser.add_argument("--write", action="store_true",
                        help="also time write_index for BUILD's graph and analysis (into a temporary folder)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--cold-bytecode", action="store_true",
                        help="time each command without its bytecode cached and without an untimed first run")
    args = parser.parse_args()
    build = args.build.resolve()
    if not (build / "index.sqlite").exists():
        sys.exit(f"{build} has no index.sqlite: kg report {build} writes it")
    paper, community = _pick(build, args.paper, args.community)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    kg = _kg()
    results = []
    with tempfile.TemporaryDirectory(dir=build.parent, prefix=".bench-read-") as tmp:
        slow = _slow_copy(build, Path(tmp))
        page = Path(tmp) / "page.html"
        after = _commands(kg, build, paper, community, args.query, page, before=False)
        before = _commands(kg, slow, paper, community, args.query, page, before=True)
        env = None
        if not args.cold_bytecode:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        for name, (command, wall_target, rss_target) in after.items():
            row = {"command": name, "wall_target": wall_target, "rss_target": rss_target}
            if not args.no_before:  # tens of seconds: no untimed first run needed (nor affordable)
                row["before"] = _timed(before[name][0], env)[:3]
            if env is not None:
                _timed(command, env)
            row["after"] = _timed(command, env)[:3]
            results.append(row)
            print(f"{name}: {row}", file=sys.stderr)
    print(f"\n{build}: paper {paper}, community {community}, query {args.query!r}\n")
    print(f"load average before the runs: {load}; after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("bytecode: " + ("not cached, no untimed first run\n" if args.cold_bytecode else
                          "cached (each command run once untimed first)\n"))
    print("| command | before: wall s / CPU s / peak MB | after: wall s / CPU s / peak MB | target |")
    print("|---|---|---|---|")
    for row in results:
        before = "—" if "before" not in row else \
            f"{row['before'][0]:.2f} / {row['before'][2]:.2f} / {row['before'][1]:,.0f}"
        target = f"< {row['wall_target']:g} s" + (f", < {row['rss_target']} MB" if row["rss_target"] else "")
        ok = row["after"][0] < row["wall_target"] and (row["rss_target"] is None or row["after"][1] < row["rss_target"])
        print(f"| {row['command']} | {before} | **{row['after'][0]:.2f}** / {row['after'][2]:.2f} / "
              f"**{row['after'][1]:,.0f}** | "
              f"{target} {'✓' if ok else '✗'} |")
    if args.write:
        with tempfile.TemporaryDirectory(dir=build.parent, prefix=".bench-write-") as tmp:
            code = ("import sys, time; from kg.graphfile import load_graph; from kg.analyze.result import load_analysis; "
                    "from kg.index.write import write_index; g = load_graph(sys.argv[1]); a = load_analysis(sys.argv[1]); "
                    "t = time.perf_counter(); write_index(g, a, sys.argv[2]); "
                    "print(f'{time.perf_counter() - t:.1f}', file=sys.stderr)")
            done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-c", code, str(build), tmp],
                                  capture_output=True, text=True)
            size = os.path.getsize(os.path.join(tmp, "index.sqlite")) / 1e6
            peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) / 1024
            print(f"\nwrite_index: {done.stderr.splitlines()[0]} s wall (graph read not counted), "
                  f"index.sqlite {size:,.0f} MB, peak RSS of the process (graph included) {peak:,.0f} MB")
    quality = _quality(build, list(QUERIES)) if args.quality else []
    if quality:
        print("\n| query | papers in both top-10 | concepts in both top-10 | identical rows |\n|---|---|---|---|")
        for row in quality:
            print(f"| {row['query']} | {row['papers']}/10 | {row['concepts']}/10 | {row['same']} |")
    if args.json:
        args.json.write_text(json.dumps({"build": str(build), "paper": paper, "community": community,
                                         "rows": results, "quality": quality}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
