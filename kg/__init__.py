"""kg — a citation-style knowledge-graph builder for research literature.

The pipeline runs one way: ingest → extract → normalize → build → analyze → export.
"""

__version__ = "0.1.0"
