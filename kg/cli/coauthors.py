"""A warning the co-author views share (apart from :mod:`kg.cli.output`: it imports kg.citations, and with
it NetworkX, which the read commands never need)."""

from __future__ import annotations

from kg.cli.output import warn
from kg.citations import MAX_COAUTHORS, coauthor_cap

__all__ = ["warn_coauthor_cap"]


def warn_coauthor_cap(graph) -> None:
    """Say how many papers made no co-author links for having too many authors (kg.citations.coauthorship)."""
    over = coauthor_cap(graph)
    if over:
        warn(f"co-authorship: {over} paper{'s' if over != 1 else ''} with more than {MAX_COAUTHORS} authors "
             "left out of the co-author links (as bibliometric maps do; their authors are still linked to them)")
