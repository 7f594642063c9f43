"""The ``kg`` Typer app: its name, help and ``--version``; each command module registers on it."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from kg._version import __version__


app = typer.Typer(
    help="kg — build a citation-style knowledge graph from research papers.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kg {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """kg — build a citation-style knowledge graph from research papers.

    Start with: kg build PAPERS.jsonl --out out/  (then open out/graph.html and out/report.md)
    """
