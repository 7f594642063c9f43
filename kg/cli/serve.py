"""kg serve: the local web explorer over one build (the page, its search, neighbourhoods, communities)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.cli.root import app
from kg.cli.output import reports_errors, warn
from kg.serve.address import DEFAULT_HOST, DEFAULT_PORT, is_loopback
from kg.serve.run import serve_build


@app.command()
@reports_errors
def serve(
    ctx: typer.Context,
    directory: Annotated[Path, typer.Argument(help="A kg build output folder (its index is read).")],
    host: Annotated[str, typer.Option(
        "--host", envvar="KG_SERVE_HOST",
        help="Address to listen on. Only loopback addresses (127.0.0.1, ::1, localhost) unless --host is on "
             "the command line: any other address shows the whole build to whoever can reach it.")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option("--port", envvar="KG_SERVE_PORT", min=0, max=65535,
                                      help="Port to listen on (0: any free port).")] = DEFAULT_PORT,
) -> None:
    """Browse the build in DIRECTORY in a web browser: search every paper and concept, open a paper's
    neighbourhood, a concept's years and companions, and the communities, filtered by years.

    Read-only and offline: the page loads nothing from the internet and no request writes anything.
    Stop it with Ctrl-C. Example: kg serve out/ --port 8080, then open http://127.0.0.1:8080/
    """
    explicit = ctx.get_parameter_source("host").name == "COMMANDLINE"  # an enum of Typer's click: by name

    def ready(url: str) -> None:
        if not is_loopback(host):
            warn(f"kg serve: listening on {host}: anyone who can reach this machine can read the build")
        typer.echo(f"kg serve: {url} (Ctrl-C to stop)")

    serve_build(directory, host=host, port=port, allow_remote=explicit, on_ready=ready)
