"""kg export: a build's maps in other tools' formats (VOSviewer)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.cli._common import app, output_folder, read_graph, reports_errors, show

export_app = typer.Typer(help="Write a build's maps in other tools' formats.", no_args_is_help=True)
app.add_typer(export_app, name="export")


@export_app.command()
@reports_errors
def vosviewer(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    top: Annotated[int, typer.Option("--top", min=0,
                                     help="Most central concepts kept, each linked to another (0: all).")] = 1000,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", show_default=False,
                                                help="Folder to write into (default: DIRECTORY).")] = None,
) -> None:
    """Write the concept map for VOSviewer: vosviewer_map.txt + vosviewer_network.txt, and vosviewer.json for VOSviewer Online.

    In VOSviewer: Create → Create a map based on network data → the map and network files. VOSviewer Online (app.vosviewer.com): Open → vosviewer.json.
    """
    from kg.analysis import load_analysis
    from kg.export.vosviewer import save_vosviewer, vosviewer_network

    target = output_folder(out) if out is not None else directory
    graph = read_graph(directory)
    network = vosviewer_network(graph, top=top or None, analysis=load_analysis(directory))
    paths = save_vosviewer(network, target)
    show(f"{len(network['items'])} concepts, {len(network['links'])} links, {len(network['clusters'])} clusters")
    show(f"wrote {', '.join(paths)}")
