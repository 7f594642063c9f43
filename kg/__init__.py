"""kg — a citation-style knowledge-graph builder for research literature.

The pipeline runs one way: ingest → extract → normalize → build → analyze → export.
From Python (see :mod:`kg.api`)::

    import kg
    result = kg.build(["papers.jsonl"])   # or Paper objects, or dicts; nothing is written
    result.to_pandas()["papers"]          # tables; result.to_pyvis(); result in a notebook draws the page
    result.write("out/")                  # what kg build writes
    kg.load("out/")                       # a build opened: its index now, its graph when touched
    kg.update("out/", "new.bib").write("out/")  # papers added to a build: only new texts embedded
    kg.search.search_build("out/", "graph neural networks")  # papers and concepts nearest a query

``kg.Paper`` and ``kg.KgError`` (the base of every error kg raises) are here too. ``import kg``
stays light: :mod:`kg.api` (and with it the whole pipeline) loads on the first use of
``kg.build``, ``kg.update`` or ``kg.KnowledgeGraph``, :mod:`kg.opened` (the index of a
build, without the pipeline) on the first use of ``kg.load``, and :mod:`kg.search` on
the first use of ``kg.search`` (PEP 562), so that importing one module (``kg.graph``, say)
never loads the others.
"""

import importlib

from kg._version import __version__
from kg.errors import KgError
from kg.models import Paper

__all__ = ["__version__", "build", "load", "update", "KnowledgeGraph", "Paper", "KgError", "search"]

_API = ("build", "update", "KnowledgeGraph")


def __getattr__(name: str):
    """``kg.build``, ``kg.load``, ``kg.update``, ``kg.KnowledgeGraph`` and ``kg.search``, imported on first use."""
    if name in _API:
        return getattr(importlib.import_module("kg.api"), name)
    if name == "load":  # opens a build from its index: never loads the pipeline (kg.opened)
        return importlib.import_module("kg.opened").load
    if name == "search":
        return importlib.import_module("kg.search")
    raise AttributeError(f"module 'kg' has no attribute {name!r}")


def __dir__() -> list[str]:
    """What ``dir(kg)`` (and a notebook's completion) shows: the public names, loaded or not."""
    return sorted(set(globals()) | set(__all__))
