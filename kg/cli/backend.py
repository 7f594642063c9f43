"""The ``--nx-backend`` option of kg build and kg report (apart from :mod:`kg.cli.flags`: checking a
backend imports NetworkX, which the read commands never need)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from kg.errors import OptionError
from kg.nxbackend import check_backend

__all__ = ["NxBackendOpt", "nx_backend"]

NxBackendOpt = Annotated[Optional[str], typer.Option(
    "--nx-backend", metavar="NAME", show_default=False,
    help="Run the analysis's NetworkX calls (PageRank, Louvain, modularity) on this installed NetworkX "
         "backend where it implements them, e.g. parallel (pip install 'kg[parallel]') or rustworkx.")]


def nx_backend(name: Optional[str]) -> Optional[str]:
    """``--nx-backend``, checked before any work (one error for an unknown or broken backend)."""
    try:
        return check_backend(name)
    except OptionError as exc:
        raise OptionError("nx_backend", exc.reason) from None
