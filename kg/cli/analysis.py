"""kg report, kg evolution: the analysis of a built graph, written again."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer


from kg.cli.root import app
from kg.cli.backend import nx_backend, NxBackendOpt
from kg.cli.flags import (analysis_options, build_folder, check_resolution, JsonOpt, LabelsOpt, output_folder,
                          ResolutionOpt, SeedOpt)
from kg.cli.output import print_rows, reports_errors, show, show_backend_use, warn
from kg.cli.neo4j import Neo4jConnection, DatabaseOpt, PasswordOpt, TimeoutOpt, UriOpt, UserOpt
from kg.analyze.evolution import EQUAL_SLICES
from kg.analyze.gds import ENGINES, GdsEngine
from kg.api import load
from kg.errors import OptionError
from kg.export.push_record import read_push_record
from kg.export.staging import check_target, folder_lock
from kg.nxbackend import tally


@app.command()
@reports_errors
def report(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Where to write (default: DIRECTORY).",
                                                show_default=False)] = None,
    seed: SeedOpt = None,
    resolution: ResolutionOpt = None,
    method: Annotated[Optional[str], typer.Option(
        "--method", show_default=False,
        help="Community detection: louvain or leiden (default: louvain; leiden with --engine gds).")] = None,
    labels: LabelsOpt = "ctfidf",
    top: Annotated[int, typer.Option("--top", min=1, help="Rows per table.")] = 15,
    engine: Annotated[str, typer.Option(
        "--engine", help="Where the graph algorithms run: networkx (here) or gds (in Neo4j, on the graph kg push "
                         "wrote, with the Graph Data Science library; pip install 'kg[gds]').")] = "networkx",
    backend: NxBackendOpt = None,
    uri: UriOpt = "bolt://localhost:7687",
    user: UserOpt = "neo4j",
    password: PasswordOpt = None,
    database: DatabaseOpt = None,
    timeout: TimeoutOpt = 30.0,
    gds_concurrency: Annotated[int, typer.Option(
        "--gds-concurrency", min=1,
        help="With --engine gds: threads of Leiden and sampled betweenness (1: the same seed gives the same "
             "communities; more: faster, not reproducible).")] = 1,
) -> None:
    """Analyze the graph in DIRECTORY again; rewrite analysis.json, report.md, report.html, report.json and graph.html.

    Centralities, labeled communities with modularity, the thematic map, trends and bursts; every table lists node ids. The page shows the new communities too; a Neo4j copy does after kg push. With --engine gds the centralities and Leiden communities are computed in Neo4j (the graph of DIRECTORY, pushed there; connection as for kg push).
    """
    started = time.perf_counter()
    check_resolution(resolution)
    if engine not in ENGINES:
        raise OptionError("engine", f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if method is None:
        method = "leiden" if engine == "gds" else "louvain"
    elif engine == "gds" and method != "leiden":
        raise OptionError("method", f"--engine gds finds communities with Leiden, not {method!r}")
    backend = nx_backend(backend)
    if engine == "gds":
        try:
            import graphdatascience  # noqa: F401
        except ImportError:
            raise OptionError("engine", "gds needs the graphdatascience client: pip install 'kg[gds]'") from None
    build_folder(directory)
    target = output_folder(out) if out is not None else directory
    check_target(target)
    with folder_lock(target), folder_lock(directory):  # no build changes the graph while it is analyzed
        built = load(directory, damaged_analysis="ignore")
        if "damaged" in built.analysis:
            warn(f"Warning: {built.analysis['damaged']}: analyzing the graph anew")
        options = analysis_options(built, seed, resolution, method, labels)
        with tally() as counts:
            if engine == "gds":
                with Neo4jConnection(uri, user, password, timeout) as driver:
                    gds = GdsEngine(driver, database=database, concurrency=gds_concurrency)
                    result = built.reanalyze(top=top, backend=backend, engine=gds, **options)
                show(f"computed in Neo4j: {gds.description}")
            else:
                result = built.reanalyze(top=top, backend=backend, **options)
        show_backend_use(backend, counts)
        page = (target / "graph.html").exists()
        files = result.write_analysis(target, page=page)
    analysis = result.analysis
    show(f"communities: {len(analysis['communities'])} (modularity {analysis['modularity']:.4f}), "
         f"themes: {len(analysis['thematic_map'])}, bursts: {len(analysis['bursts'])}")
    show(f"wrote {', '.join(files)} in {time.perf_counter() - started:.1f}s")
    if not page:
        warn(f"no graph.html in {target} to update (kg viz {directory} writes one with these communities)")

    pushed = read_push_record(directory)
    if pushed is not None:
        warn(f"the Neo4j copy of this graph ({pushed.get('uri')}, pushed {pushed.get('pushed_at')}) shows the old "
             f"communities until kg push {directory if target == directory else target} is run again")


@app.command()
@reports_errors
def evolution(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    slices: Annotated[Optional[str], typer.Option(
        "--slices", show_default=False,
        help="Years that start a time slice, comma-separated: 2000,2010 gives …–1999, 2000–2009, 2010–….")] = None,
    equal: Annotated[Optional[int], typer.Option(
        "--equal", min=1, show_default=False,
        help="Instead of --slices: N slices of about equal paper counts (without either: 3).")] = None,
    min_inclusion: Annotated[float, typer.Option(
        "--min-inclusion", min=0.0, max=1.0, help="Lowest inclusion index that links themes of adjacent slices.")] = 0.18,
    min_size: Annotated[int, typer.Option("--min-size", min=1, help="Fewest papers of a theme.")] = 3,
    as_json: JsonOpt = False,
) -> None:
    """Themes per time slice and how they continue, split, merge, emerge and disappear; rewrite analysis.json and report.*.

    The report gets a timeline table per theme, the links between slices and an alluvial figure (report.html); report.json and analysis.json hold the same under "evolution".
    """
    if slices is not None and equal is not None:
        raise OptionError("slices", "give either --slices YEAR,YEAR,… or --equal N, not both")
    chosen = slices is None and equal is None
    if chosen:
        equal = EQUAL_SLICES
    cuts = None
    if slices is not None:
        try:
            cuts = [int(part) for part in slices.split(",") if part.strip()]
        except ValueError:
            raise OptionError("slices", f"years separated by commas, e.g. 2000,2010, not {slices!r}") from None
        if not cuts:
            raise OptionError("slices", "give at least one year")
    check_target(directory)
    with folder_lock(directory):
        built = load(directory)
        result = built.evolution(cuts=cuts, equal=equal, min_inclusion=min_inclusion, min_size=min_size)
        files = result.write_analysis(directory, page=False)
    found = result.analysis["evolution"]
    if chosen:
        spans = ", ".join(f"{s['start']}–{s['end']} ({s['papers']} papers)" for s in found["slices"])
        warn(f"no --slices or --equal given: {len(found['slices'])} slices of about equal paper counts: {spans} "
             "(--slices 2000,2010 or --equal N chooses others)")
    rows = [{"theme": t["id"], "slice": f"{s['start']}-{s['end']}", "papers": t["size"], "status": t["status"],
             "label": t["label"]} for s in found["slices"] for t in s["themes"]]
    print_rows(["theme", "slice", "papers", "status", "label"], rows, as_json)
    warn(f"{len(rows)} themes in {len(found['slices'])} slices, {len(found['links'])} links; wrote {', '.join(files)}")
