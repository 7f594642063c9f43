"""The build folder a read command opens (:mod:`kg.opened`): its index, else its graph, with a note."""

from __future__ import annotations

from pathlib import Path

from kg.cli.output import warn
from kg.opened import OpenedBuild, load

__all__ = ["opened", "note"]


def opened(directory: Path) -> OpenedBuild:
    """The build in ``directory`` opened for reading (:func:`note` says, once it has answered, when it had
    no usable index)."""
    return load(directory)


def note(build: OpenedBuild) -> None:
    """One line after the answer when the build had no usable index (why, and how to write one); nothing
    when the command failed: its one ``Error:`` line says what matters then."""
    if build.hint:
        warn(f"Note: {build.hint}")
