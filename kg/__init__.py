"""kg — a citation-style knowledge-graph builder for research literature.

The pipeline runs one way: ingest → extract → normalize → build → analyze → export.
From Python (see :mod:`kg.api`)::

    import kg
    result = kg.build(["papers.jsonl"])   # or Paper objects, or dicts; nothing is written
    result.to_pandas()["papers"]          # tables; result.to_pyvis(); result in a notebook draws the page
    result.write("out/")                  # what kg build writes
    kg.load("out/")                       # a build read back
    kg.update("out/", "new.bib").write("out/")  # papers added to a build: only new texts embedded
"""

__version__ = "0.1.0"

__all__ = ["__version__", "build", "load", "update", "KnowledgeGraph"]


def __getattr__(name: str):
    """``kg.build``, ``kg.load``, ``kg.update``, ``kg.KnowledgeGraph``, imported on first use (``import kg`` stays light)."""
    if name in ("build", "load", "update", "KnowledgeGraph"):
        from kg import api

        return getattr(api, name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
