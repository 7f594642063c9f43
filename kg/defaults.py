"""Default settings shared by several stages and views (a leaf: imports nothing from kg).

The analysis (:mod:`kg.analyze`), the graph page (:mod:`kg.export.html`), the saved-graph
check (:mod:`kg.graphcheck`) and the CLI all default to these, so one number lives in
one place.
"""

__all__ = ["SEED", "RESOLUTION", "MAX_RESOLUTION", "DETAIL", "METHODS", "SCORINGS", "RELATED_BY"]

SEED = 42  # the default seed of every seeded step: communities, layouts, sampled betweenness
RESOLUTION = 1.0  # the default community resolution
DETAIL = 12  # distinctive concepts kept per community (the report shows 5, the page's details 12)
# The largest resolution accepted: far past the point where every paper is its own community, and small
# enough that modularity (which subtracts resolution x expected edges) stays a finite number.
MAX_RESOLUTION = 1e6
METHODS = ("louvain", "leiden")  # how communities are found (kg.analyze.communities)
SCORINGS = ("ctfidf", "loglik")  # how communities are labeled (kg.analyze.communities)
#: How kg related ranks (kg.analyze.related): the related link weight, co-citation, coupling, cosine.
RELATED_BY = ("concepts", "cocitation", "coupling", "embedding")
