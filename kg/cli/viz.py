"""kg viz: the interactive graph page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.cli.root import app
from kg.cli.flags import output_file
from kg.cli.opening import note, opened
from kg.cli.output import reports_errors, show
from kg.atomic import atomic_write
from kg.index.views import render_part, view_part


@app.command()
@reports_errors
def viz(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    view: Annotated[str, typer.Option("--view", help="bipartite (papers + concepts), papers, concepts (term map), "
                                                     "communities (one node per community), cocitation, coupling "
                                                     "(papers, coloured by the report's clusters of that map), "
                                                     "coauthors or forecast (concepts likely to meet next, "
                                                     "after kg forecast DIRECTORY).")] = "bipartite",
    top: Annotated[int, typer.Option("--top", min=0,
                                     help="Keep the N most central nodes, each linked to another (0: all).")] = 2000,
    min_weight: Annotated[float, typer.Option("--min-weight", min=0.0,
                                              help="Drop lighter edges (mentions: score 0-1; related: shared-concept "
                                                   "weight; co_occurs: papers), then unlinked nodes.")] = 0.0,
    community: Annotated[Optional[int], typer.Option("--community", min=0, show_default=False,
                                                     help="Only this community (numbered as in the report).")] = None,
    focus: Annotated[Optional[str], typer.Option("--focus", show_default=False,
                                                 help="Ego network of this node: id, label or a unique part of one.")] = None,
    depth: Annotated[int, typer.Option("--depth", min=0, help="Ego network radius for --focus.")] = 1,
    size_by: Annotated[str, typer.Option("--size-by", help="Node size: pagerank, degree or betweenness.")] = "pagerank",
    seed: Annotated[Optional[int], typer.Option(help="Seed for the layout (default: the analysis's).",
                                                show_default=False)] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", show_default=False,
                                                help="HTML file to write (default: DIRECTORY/graph.html).")] = None,
) -> None:
    """Write an interactive, self-contained HTML view of the graph in DIRECTORY (opens offline).

    Communities, their numbers and labels are those of DIRECTORY/analysis.json, as in the report and Neo4j. --focus, --community and --view communities read only the part they draw from DIRECTORY/index.sqlite.
    """
    if out is not None:
        output_file(out)
    build = opened(directory)
    target = out or (directory / "graph.html" if directory.is_dir() else directory.with_suffix(".html"))
    options = dict(view=view, top=top or None, min_weight=min_weight, community=community, focus=focus, depth=depth,
                   size_by=size_by, title=f"kg · {directory.resolve().name} · {view}")
    part = None if build.index is None else view_part(build.index, view=view, community=community, focus=focus,
                                                      depth=depth, min_weight=min_weight)
    if part is not None:  # the part of the graph this view draws, read from the index
        del options["focus"]  # the part knows the node it names
        page = render_part(build.index, part, seed=build.settings()["seed"] if seed is None else seed, **options)
    else:
        if view == "coauthors":
            # kg.cli.coauthors imports kg.citations (and SciPy): only this whole-graph view needs it, so the
            # index's views start without it
            from kg.cli.coauthors import warn_coauthor_cap

            warn_coauthor_cap(build.graph)
        page = build.to_html(**options, **({} if seed is None else {"seed": seed}))
    atomic_write(target, page)
    show(f"wrote {target} ({len(page.encode()) // 1024} KiB)")
    note(build)
