"""kg export: a build in other tools' formats (VOSviewer maps, neo4j-admin bulk import)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Optional

import typer

from kg.cli.root import app
from kg.cli.flags import output_folder
from kg.cli.coauthors import warn_coauthor_cap
from kg.cli.output import reports_errors, show
from kg.analyze.result import load_analysis
from kg.api import load
from kg.export.neo4j_admin import AFTER_IMPORT, IMPORT_SCRIPT, write_bulk_import
from kg.export.neo4j_vectors import load_embeddings
from kg.graphfile import load_graph
from kg.export.vosviewer import save_vosviewer, vosviewer_network

export_app = typer.Typer(help="Write a build in other tools' formats (VOSviewer, neo4j-admin).", no_args_is_help=True)
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
    target = output_folder(out) if out is not None else directory
    graph = load_graph(directory)
    network = vosviewer_network(graph, top=top or None, analysis=load_analysis(directory))
    paths = save_vosviewer(network, target)
    show(f"{len(network['items'])} concepts, {len(network['links'])} links, {len(network['clusters'])} clusters")
    show(f"wrote {', '.join(paths)}")


@export_app.command("neo4j-admin")
@reports_errors
def neo4j_admin(
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its graph.json is read).")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", show_default=False,
                                                help="Folder to write into (default: DIRECTORY/neo4j-import).")] = None,
    database: Annotated[str, typer.Option("--database", "-d", help="Database the command imports into.")] = "neo4j",
    embeddings: Annotated[bool, typer.Option(
        "--embeddings/--no-embeddings",
        help="Give Paper and Concept nodes the build's vectors (embedding) and a vector index each, as kg push does.")
    ] = True,
) -> None:
    """Write CSV files for neo4j-admin database import full (an empty database), the command (import.sh) and after-import.cypher.

    The imported database holds what kg push writes. Stop the server, run import.sh (NEO4J_ADMIN: the tool, when not neo4j-admin on the PATH), start the server, then cypher-shell -f after-import.cypher (constraints, indexes, empty lists); kg push DIRECTORY afterwards writes nothing.
    """
    target = output_folder(out if out is not None else directory / "neo4j-import")
    built = load(directory)
    warn_coauthor_cap(built.graph)
    result = write_bulk_import(built.graph, target, analysis=built.analysis, database=database,
                               embeddings=load_embeddings(directory) if embeddings else None)
    nodes, rels = result.totals()
    show(f"{nodes} nodes, {rels} relationships in {len(result.files) - 2} CSV files in {target}")
    show(f"import (server stopped): cd {shlex.quote(str(target))} && {result.shell_command()}")
    show(f"  (the same: {target / IMPORT_SCRIPT}); then, server started: cypher-shell -f {target / AFTER_IMPORT}")
