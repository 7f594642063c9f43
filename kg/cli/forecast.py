"""kg forecast, kg gaps: which concepts will meet next, where the gaps are, and how well that held before."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.analyze.forecast import HORIZON
from kg.api import load
from kg.cli.root import app
from kg.cli.flags import build_folder, JsonOpt, SeedOpt
from kg.cli.output import print_rows, reports_errors, show, warn
from kg.export.staging import check_target, folder_lock
from kg.vectors import load_concept_vectors, load_paper_vectors

DirectoryArg = Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")]
UntilOpt = Annotated[Optional[int], typer.Option(
    "--until", show_default=False,
    help="Cut-off year: use only the papers up to it and check the result against the papers of the next "
         "--horizon years (a backtest). Without it: from the whole build into the future.")]
HorizonOpt = Annotated[int, typer.Option("--horizon", min=1, help="Years ahead.")]


def _build(directory: Path):
    """The build, its concept vectors and its document vectors (None where the folder has none)."""
    built = load(build_folder(directory))
    if not directory.is_dir():
        return built, None, None
    return built, load_concept_vectors(directory), load_paper_vectors(directory)


def _names(rows: list[dict], limit: int = 3) -> str:
    return ", ".join(r["name"] for r in rows[:limit])


def _growth(g: dict) -> str:
    return f"{g['papers']} ({g['before']}→{g['recent']})"


def _named(named: dict) -> str:
    """"3 papers (2 recent), latest: Title" for the papers whose text names both concepts."""
    if not named["papers"]:
        return "none"
    latest = named["latest"][0]
    return f"{named['papers']} papers ({named['recent']} recent), latest: {latest['title']} ({latest['year']})"


def _pair_rows(pairs: list[dict]) -> list[dict]:
    out = []
    for rank, p in enumerate(pairs, start=1):
        e = p["evidence"]
        clusters = e["clusters"]
        out.append({
            "rank": rank, "source": p["source_name"], "target": p["target_name"], "score": p["score"],
            **({"met": "yes" if p["met"] else "no"} if "met" in p else {}),
            "shared": _names(e["shared_neighbours"]),
            "growth": f"{_growth(e['source_growth'])} / {_growth(e['target_growth'])}",
            "bridges": (f"{clusters['source']['label']} ↔ {clusters['target']['label']}" if clusters["bridges"]
                        else "same cluster"),
            "nearest paper": e["papers"][0]["title"] if e["papers"] else "",
            **({"named together": _named(e["named_together"])} if e.get("named_together") else {}),
        })
    return out


@app.command()
@reports_errors
def forecast(
    directory: DirectoryArg,
    until: UntilOpt = None,
    horizon: HorizonOpt = HORIZON,
    top: Annotated[int, typer.Option("--top", min=1, help="Pairs to list.")] = 20,
    seed: SeedOpt = None,
    write: Annotated[bool, typer.Option(
        "--write/--no-write",
        help="Without --until: also store the forecast in analysis.json and the report (section \"Concepts likely "
             "to meet next\"; kg viz DIRECTORY --view forecast draws it).")] = True,
    as_json: JsonOpt = False,
) -> None:
    """Which concepts will be mentioned together for the first time in the next --horizon years, and why.

    A model learned from the build's own history (features at the cut-off minus the horizon, links of the years
    after) ranks every pair of concepts no paper has joined yet; each pair comes with its evidence: shared
    neighbours, both concepts' growth (papers: all, 3 years before → last 3), the concept clusters it would
    bridge, the papers nearest to both. With --until YEAR: a backtest, using only papers up to YEAR and graded by
    the papers of the next --horizon years: AUC and precision at 100 and 1,000 for kg and the baselines.
    """
    if until is not None:
        built, vectors, paper_vectors = _build(directory)
        result = built.backtest(until=until, horizon=horizon, top=top, seed=seed, vectors=vectors,
                                paper_vectors=paper_vectors)
        if as_json:
            show(json.dumps(result, ensure_ascii=True, indent=1))
            return
        c = result["counts"]
        sample = result["parameters"]["sample"]
        graded = "all pairs" if sample == c["candidates"] else f"{sample} sampled pairs"
        warn(f"backtest at {result['parameters']['until']}, horizon {horizon}: {c['concepts']} concepts of "
             f"{result['parameters']['min_papers']}+ papers, {c['candidates']} candidate pairs, {c['positives']} met "
             f"in {until + 1}–{until + horizon} (base rate {c['base_rate']}); AUC on {graded}; forecast made in "
             f"{result['seconds']} s")
        print_rows(["method", "auc", "precision_at_100", "precision_at_1000"], result["rows"], False)
        warn(f"kg's {len(result['top'])} best pairs at {until}, and whether a paper of {until + 1}–{until + horizon} "
             "joined them:")
        print_rows(["rank", "source", "target", "score", "met", "shared", "growth", "bridges", "nearest paper"],
                   _pair_rows(result["top"]), False)
        return
    files = []
    if write:
        check_target(directory)
    with folder_lock(directory) if write else nullcontext():  # no build changes the graph before it is written
        built, vectors, paper_vectors = _build(directory)
        result = built.forecast(horizon=horizon, top=top, seed=seed, vectors=vectors, paper_vectors=paper_vectors)
        if write:
            files = built.with_forecast(result).write_analysis(directory, page=False)
    if as_json:
        show(json.dumps(result["pairs"], ensure_ascii=True, indent=1))
    else:
        print_rows(["rank", "source", "target", "score", "shared", "growth", "bridges", "nearest paper"],
                   _pair_rows(result["pairs"]), False)
    p, c = result["parameters"], result["counts"]
    warn(f"forecast from the papers up to {p['until']} for {p['until'] + 1}–{p['until'] + horizon}: "
         f"{c['concepts']} concepts of {p['min_papers']}+ papers, {c['candidates']} pairs not yet joined "
         f"({c['near_synonyms']} of them two wordings of one idea, not listed); "
         f"{result['seconds']} s ({result['cpu_seconds']} CPU s)" + (f"; wrote {', '.join(files)}" if files else "")
         + f" (kg forecast {directory} --until {p['until'] - horizon} shows how such a forecast did before)")


@app.command()
@reports_errors
def gaps(
    directory: DirectoryArg,
    until: UntilOpt = None,
    horizon: HorizonOpt = HORIZON,
    top: Annotated[int, typer.Option("--top", min=1, help="Gaps of each kind to list.")] = 10,
    min_size: Annotated[int, typer.Option("--min-size", min=1, help="Fewest concepts of a cluster in a gap.")] = 5,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Concept clusters close in meaning but less linked than their sizes lead one to expect (with the concepts and
    papers that bridge them), closest first, and close concepts inside a cluster that no paper has joined (two
    wordings of one idea aside). With --until YEAR: the gaps found then, graded by how many of their pairs the
    papers of the next --horizon years linked, against the cluster pairs most alike in size.
    """
    built, vectors, _ = _build(directory)
    if until is not None:
        result = built.gap_backtest(until=until, horizon=horizon, top=top, min_size=min_size, seed=seed,
                                    vectors=vectors)
        if as_json:
            show(json.dumps(result, ensure_ascii=True, indent=1))
            return
        r = result["rows"]
        rows = [{"pairs": "top cluster gaps", "bridged share": r["gaps"]},
                {"pairs": "cluster pairs alike in size (baseline)", "bridged share": r["cluster_pairs_same_sizes"]},
                {"pairs": "random concept sets, same sizes", "bridged share": r["random_same_sizes"]},
                {"pairs": "every cluster pair", "bridged share": r["all_cluster_pairs"]},
                {"pairs": "top concept gaps", "bridged share": r["concept_gaps"]},
                {"pairs": "every unlinked pair inside clusters", "bridged share": r["pairs_inside_clusters"]}]
        warn(f"gaps found at {until}, graded by the papers of {until + 1}–{until + horizon} (share of their unlinked "
             f"concept pairs a paper joined): ratio to the cluster pairs alike in size {r['gap_ratio']}; the "
             f"{result['parameters']['concept_gaps_graded']} top concept gaps to every unlinked pair inside "
             f"clusters {r['concept_gap_ratio']}")
        print_rows(["pairs", "bridged share"], rows, False)
        return
    result = built.gaps(top=top, min_size=min_size, seed=seed, vectors=vectors)
    if as_json:
        show(json.dumps(result, ensure_ascii=True, indent=1))
        return
    rows = [{"rank": n, "cluster": f"{g['source']['id']}: {g['source']['label']}",
             "other cluster": f"{g['target']['id']}: {g['target']['label']}", "score": g["score"],
             "closeness": g["closeness"], "link ratio": g["link_ratio"],
             "bridging concepts": _names(g["bridging_concepts"]),
             "bridging paper": g["bridging_papers"][0]["title"] if g["bridging_papers"] else ""}
            for n, g in enumerate(result["community_gaps"], start=1)]
    warn(f"gaps between concept clusters (closeness by {result['parameters']['closeness']}), as of "
         f"{result['parameters']['until']}:")
    print_rows(["rank", "cluster", "other cluster", "score", "closeness", "link ratio", "bridging concepts",
                "bridging paper"], rows, False)
    warn("close concepts inside a cluster that no paper has mentioned together (those some abstract already names "
         "together first):")
    print_rows(["source", "target", "closeness", "named together", "cluster", "shared"],
               [{"source": g["source_name"], "target": g["target_name"], "closeness": g["closeness"],
                 "named together": g.get("named_together"),
                 "cluster": g["cluster"]["label"], "shared": _names(g["shared_neighbours"])}
                for g in result["concept_gaps"]], False)
