"""The build folder a read command opens (:mod:`kg.opened`): its index, else its graph, with a note."""

from __future__ import annotations

from pathlib import Path

from kg.cli.output import warn
from kg.opened import OpenedBuild, load

__all__ = ["opened"]


def opened(directory: Path) -> OpenedBuild:
    """The build in ``directory`` opened for reading; says so (one line) when it has no usable index."""
    build = load(directory)
    if build.hint:
        warn(f"Note: {build.hint}")
    return build
