"""The ``kg`` command line: parse options, call one library function, print a summary.

One module per group of commands (:mod:`~kg.cli.build`, :mod:`~kg.cli.extraction`,
:mod:`~kg.cli.neo4j`, :mod:`~kg.cli.analysis`, :mod:`~kg.cli.viz`), each registering on
the one Typer :data:`app` of :mod:`~kg.cli.app`. Library errors
(:class:`kg.errors.KgError`) become one ``Error: …`` line on stderr and exit code 1;
anything else is a bug and keeps its traceback.
"""

from kg.cli.app import app
from kg.cli import build, extraction, neo4j, analysis, forecast, viz, search, export  # noqa: F401  (registers the commands)

__all__ = ["app", "main"]


def main() -> None:
    app()
