"""The ``kg`` Typer app (the root command): its name, help and ``--version``; each command module registers on it."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from kg._version import __version__


def _plain_flags(params: list) -> list:
    """Flags show no ``<bool>`` type in help: the flag is the value."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    """A kg command: usage lines as ``kg report [OPTIONS] DIRECTORY``, flags without ``<bool>``."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = (param.metavar or param.name or "").upper()
                name = name if param.required else f"[{name}]"
                pieces.append(name + ("..." if param.nargs != 1 else ""))
        return pieces

    def get_params(self, ctx) -> list:
        return _plain_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx) -> list:
        return _plain_flags(super().get_params(ctx))


class _App(typer.Typer):
    """The ``kg`` Typer app: every command made with :class:`_Command`."""

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", _Command)
        return super().command(*args, **kwargs)


app = _App(
    cls=_Group,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    # plain text: help that says pip install 'kg[gds]' shows the brackets (Rich markup would eat them)
    rich_markup_mode=None,
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

    Extras (pip install 'kg[NAME]'): kg[gds] for kg report --engine gds (Neo4j Graph Data Science),
    kg[ray] for --engine ray (extraction on a Ray cluster), kg[parallel] for --nx-backend parallel,
    kg[notebook] for KnowledgeGraph.to_pandas(). Shell completion: kg --install-completion.
    """
