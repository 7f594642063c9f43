"""kg related, kg concepts: answers from a build's index (from its graph when it has none)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.cli.flags import analysis_options, check_resolution, JsonOpt, LabelsOpt, MethodOpt, ResolutionOpt, SeedOpt
from kg.cli.opening import note, opened
from kg.cli.output import print_rows, reports_errors, warn
from kg.cli.root import app
from kg.defaults import RELATED_BY
from kg.errors import OptionError


@app.command()
@reports_errors
def related(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its index, else its graph.json).")],
    paper: Annotated[str, typer.Argument(help="A paper id, its title, or a unique part of its title.")],
    by: Annotated[str, typer.Option(
        "--by", help="concepts (shared concepts, similarity, authors, citations: the related links' weight), "
                     "cocitation (papers citing both), coupling (references both cite) or embedding "
                     "(cosine of the document vectors).")] = "concepts",
    top: Annotated[int, typer.Option("--top", min=1, help="Papers to list.")] = 10,
    as_json: JsonOpt = False,
) -> None:
    """List the papers nearest to PAPER, with what they share: concepts (rarest first), citing papers or references."""
    if by not in RELATED_BY:
        raise OptionError("by", f"unknown relation {by!r}; choose from {', '.join(RELATED_BY)}")
    build = opened(directory)
    paper_id = build.find_paper(paper)
    rows = build.related(paper_id, by=by, top=top)
    names = build.labels([paper_id, *(key for row in rows for key in row["shared"])])
    if not as_json:
        rows = [{**row, "shared": ", ".join(names.get(key, key) for key in row["shared"])} for row in rows]
    warn(f"papers related to {paper_id} ({names.get(paper_id, '')}) by {by}:")
    if not rows and by in ("cocitation", "coupling"):
        warn("none: no corpus paper cites it together with another" if by == "cocitation"
             else "none: it shares no reference with another paper")
    keys = ["id", "score"] + (["salton"] if by in ("cocitation", "coupling") else []) + ["citation", "shared", "title"]
    print_rows(keys, rows, as_json)
    note(build)


@app.command()
@reports_errors
def concepts(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its index, else its graph.json).")],
    community: Annotated[Optional[int], typer.Option(
        "--community", "-c", help="List the distinctive concepts of this paper community (numbered as in the report).",
        show_default=False)] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Concepts to list.")] = 20,
    seed: SeedOpt = None,
    resolution: ResolutionOpt = None,
    method: MethodOpt = "louvain",
    labels: LabelsOpt = "ctfidf",
    as_json: JsonOpt = False,
) -> None:
    """List the most frequent concepts, or with --community N the concepts that set community N apart."""
    check_resolution(resolution)
    build = opened(directory)
    options = analysis_options(build, seed, resolution, method, labels)  # refuses an unknown method or labels
    if community is None:
        print_rows(["id", "name", "papers", "co_occurs", "pagerank"], build.concept_rows(top=top), as_json)
        note(build)
        return
    row = build.community_concepts(community, top=top, **options)
    warn(f"community {community}: {row['size']} papers, label: {row['label'] or '(no shared concept)'}")
    print_rows(["id", "name", "score", "papers"], row["concepts"], as_json)
    note(build)
