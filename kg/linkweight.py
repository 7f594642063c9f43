"""The weight of a ``related`` link between two papers, and the constants it is made of.

Kept apart from :mod:`kg.links` (which finds the links, with SciPy) so that a reader that
only scores pairs (:mod:`kg.index.read`, ``kg related``) imports nothing heavy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["link_weight", "cosines", "SIMILARITY_WEIGHT", "CANDIDATE_DF", "AUTHOR_WEIGHT"]

SIMILARITY_WEIGHT = 10.0  # ln(N+1) times this: what a document cosine of 1 adds (README, bench_related)
CANDIDATE_DF = 100  # concepts in more papers add weight but find no link candidates
AUTHOR_WEIGHT = 2.0  # with document vectors: a shared author counts this many times its idf


def link_weight(shared_idf: Sequence[float], n_papers: int, *, cosine: float = 0.0, cited: bool = False,
                shared_authors_idf: Sequence[float] = (), similarity_weight: float = SIMILARITY_WEIGHT,
                author_weight: float = AUTHOR_WEIGHT) -> float:
    """A ``related`` link's weight, rounded to 4 decimals.

    ``Σ idf(shared concepts) + author_weight · Σ idf(shared authors)
    + ln(N + 1) · (similarity_weight · cosine + 1 if cited)``, each sum taken largest first,
    with ``idf = ln((N + 1) / papers)``: a concept only the two papers have counts
    ``ln((N + 1) / 2)``, a citation as much as a concept no other paper has.
    """
    weight = float(sum(sorted(shared_idf, reverse=True)))
    weight += author_weight * float(sum(sorted(shared_authors_idf, reverse=True)))
    weight += math.log(n_papers + 1) * (similarity_weight * cosine + (1.0 if cited else 0.0))
    return round(weight, 4)


def cosines(matrix: np.ndarray, row: int, rows: Sequence[int]) -> np.ndarray:
    """Cosine of document vector ``row`` of ``matrix`` (unit rows, any float type, memory-mapped or not)
    with each of ``rows``, in float64: the one computation ``kg related`` and the read index share,
    so that both give the same scores to the last bit."""
    mine = np.asarray(matrix[row]).astype(np.float64)  # float16 or float32 to float64: exact either way
    return np.asarray(matrix[np.asarray(rows, dtype=np.int64)]).astype(np.float64) @ mine
