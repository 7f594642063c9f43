"""Default settings shared by several stages and views (a leaf: imports nothing from kg).

The analysis (:mod:`kg.analyze`), the graph page (:mod:`kg.export.html`), the saved-graph
check (:mod:`kg.graphcheck`) and the CLI all default to these, so one number lives in
one place.
"""

__all__ = ["SEED", "RESOLUTION", "DETAIL"]

SEED = 42  # the default seed of every seeded step: communities, layouts, sampled betweenness
RESOLUTION = 1.0  # the default community resolution
DETAIL = 12  # distinctive concepts kept per community (the report shows 5, the page's details 12)
