"""kg search: papers and concepts nearest in meaning to a query, by the build's own vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.flags import ModelOpt
from kg.cli.opening import note, opened
from kg.cli.output import print_rows, reports_errors, show, warn
from kg.cli.root import app


def _community(row: dict) -> str:
    return "" if row["community"] is None else f"{row['community']} ({row['community_label'] or '-'})"


@app.command()
@reports_errors
def search(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (graph.json and the stored vectors).")],
    text: Annotated[str, typer.Argument(help="What to look for, in words.", show_default=False)],
    top: Annotated[int, typer.Option("--top", min=1, help="Papers and concepts to list (each).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as JSON.")] = False,
    model: ModelOpt = None,
) -> None:
    """Find the papers and concepts nearest in meaning to TEXT, with their community and concepts.

    The query is embedded by the model the build used (refused if it differs) and ranked by cosine against the vectors the build stored (paper_vectors.npy, concept_vectors.npy, read through the build's index.sqlite).
    """
    build = opened(directory)
    found = build.search(text, top=top, model=model)
    if as_json:
        show(json.dumps(found, ensure_ascii=False, indent=2))
        note(build)
        return
    warn(f"papers nearest to {found['query']!r}:")
    print_rows(["score", "id", "year", "title", "community", "concepts"],
               [{**r, "community": _community(r), "concepts": ", ".join(r["concepts"])} for r in found["papers"]],
               False)
    warn("concepts:")
    print_rows(["score", "id", "name", "papers", "community", "concepts"],
               [{**r, "community": _community(r), "concepts": ", ".join(r["concepts"])} for r in found["concepts"]],
               False)
    note(build)
