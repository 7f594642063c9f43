"""Benchmark ``kg extract`` in process against ``kg extract --engine ray`` on the same papers.

Each run is ``/usr/bin/time -v kg extract PAPERS --out … [--engine ray]`` in a fresh process;
without ``RAY_ADDRESS`` the ray engine starts a local Ray runtime and shuts it down, as a user's
first run on one machine does. Printed per run: wall, the CPU and peak RSS of the ``kg`` process
(``/usr/bin/time``), and, where this process may make cgroup-v1 groups (root), the CPU of every
process of the run (Ray's GCS, raylet and workers included) and the peak of their summed
proportional set sizes (PSS, sampled every 0.2 s: shared pages, such as Ray's object store, count once). The two outputs must be identical.

The int8 model and the token table are made once first (a warm-up run, not timed), so both
engines find them in the same kg cache folder. The CPU may be shared with other work: compare
the runs of one invocation (they alternate), and read the load average printed with them.

Usage::

    .venv/bin/python bench/bench_engines.py                  # the first 2,000 ACM papers, 2 rounds
    .venv/bin/python bench/bench_engines.py --n 5000 --rounds 1
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACM = ROOT.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"
KG = str(Path(sys.executable).with_name("kg"))
CGROUPS = Path("/sys/fs/cgroup")


def _group(name: str) -> dict[str, Path] | None:
    """A fresh cpuacct + memory cgroup (v1), or None where none can be made."""
    made = {}
    for controller in ("cpuacct", "memory"):
        path = CGROUPS / controller / name
        try:
            path.mkdir()
        except OSError:
            for other in made.values():
                other.rmdir()
            return None
        made[controller] = path
    return made


def _sample_pss(tasks: Path, peak: list[float], stop: threading.Event) -> None:
    """Keep in ``peak[0]`` the largest sum, in KiB, of the proportional set sizes of the group's
    processes (shared pages split between them: Ray's object store and libraries count once)."""
    while not stop.wait(0.2):
        total = 0
        try:
            pids = tasks.read_text().split()
        except OSError:
            return
        for pid in pids:
            try:
                with open(f"/proc/{pid}/smaps_rollup") as handle:
                    total += next(int(line.split()[1]) for line in handle if line.startswith("Pss:"))
            except (OSError, StopIteration, ValueError):
                pass
        peak[0] = max(peak[0], total)


def _close(group: dict[str, Path]) -> None:
    """End what is left in the group (processes this run started: Ray's, after its shutdown) and remove it."""
    deadline = time.time() + 30
    while time.time() < deadline:
        pids = [int(p) for p in (group["memory"] / "cgroup.procs").read_text().split()]
        if not pids:
            break
        if time.time() > deadline - 20:
            for pid in pids:
                try:
                    os.kill(pid, 15)
                except ProcessLookupError:
                    pass
        time.sleep(0.5)
    for path in group.values():
        path.rmdir()


def _measured(papers: Path, out: Path, engine: str, cache_dir: str) -> dict[str, float]:
    env = {**os.environ, "KG_CACHE_DIR": cache_dir}
    env.pop("RAY_ADDRESS", None)
    command = ["/usr/bin/time", "-v", KG, "extract", str(papers), "--out", str(out), "--engine", engine]
    group = _group(f"kg-bench-{os.getpid()}-{engine}-{time.time_ns()}")
    if group is not None:
        enter = " ".join(f"echo $$ > {p / 'tasks'};" for p in group.values())
        command = ["sh", "-c", f'{enter} exec "$@"', "sh", *command]
    peak = [0.0]
    stop = threading.Event()
    if group is not None:
        threading.Thread(target=_sample_pss, args=(group["memory"] / "cgroup.procs", peak, stop), daemon=True).start()
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    stop.set()
    if done.returncode != 0:
        sys.exit(f"{engine}: exit {done.returncode}\n{done.stderr[-3000:]}")
    row = {"wall": wall}
    for key, pattern in (("user", r"User time \(seconds\): ([\d.]+)"), ("sys", r"System time \(seconds\): ([\d.]+)"),
                         ("rss_kb", r"Maximum resident set size \(kbytes\): (\d+)")):
        row[key] = float(re.search(pattern, done.stderr).group(1))
    if group is not None:
        deadline = time.time() + 30  # Ray's processes end shortly after its shutdown
        while (group["memory"] / "cgroup.procs").read_text().split() and time.time() < deadline:
            time.sleep(0.5)
        row["group_cpu"] = int((group["cpuacct"] / "cpuacct.usage").read_text()) / 1e9
        row["pss_peak_mb"] = peak[0] / 1024
        _close(group)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ACM))
    parser.add_argument("--n", type=int, default=2000, help="first N lines of --data")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kg-bench-engines-") as tmp:
        tmp = Path(tmp)
        papers = tmp / "papers.jsonl"
        with open(args.data, encoding="utf-8") as source:
            papers.write_text("".join(line for _, line in zip(range(args.n), source)), encoding="utf-8")
        cache_dir = str(tmp / "kg-cache")
        _measured(papers, tmp / "warm.jsonl", "local", cache_dir)  # exports the int8 model, makes the token table
        rows = []
        for round_ in range(args.rounds):
            for engine in ("local", "ray"):
                load = os.getloadavg()[0]
                row = _measured(papers, tmp / f"{engine}.jsonl", engine, cache_dir)
                rows.append((engine, round_, load, row))
                print(f"{engine:>5} round {round_ + 1}: wall {row['wall']:.1f} s, kg process CPU "
                      f"{row['user'] + row['sys']:.1f} s, peak RSS {row['rss_kb'] / 1024:.0f} MB"
                      + (f", all processes: CPU {row['group_cpu']:.1f} s, peak PSS {row['pss_peak_mb']:.0f} MB"
                         if "group_cpu" in row else "") + f" (load average before: {load:.2f})", flush=True)
        same = (tmp / "local.jsonl").read_bytes() == (tmp / "ray.jsonl").read_bytes()
        print(f"outputs identical: {same}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
