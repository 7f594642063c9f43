"""How much a concept's papers have in common: the test that tells a topic from a generic word.

A concept that names a topic ("sponsored search", "Calabi-Yau manifold") is mentioned by papers
about that topic, whose texts resemble each other; a generic word ("user", "feature", "experimental
result", "new method") is mentioned by papers about anything. Word lists cannot draw that line in
every field (a word generic in one is a term in another); the papers can. A concept's
**cohesion** is the mean cosine between the document vectors of the papers that mention it, less
the same mean over the whole corpus, scaled so that 1 means identical documents:

    c(k) = (a(k) - a0) / (1 - a0),  a(S) = (|sum of v over S|^2 - |S|) / (|S| (|S| - 1))

for unit vectors ``v`` (``a`` is the mean over all pairs of distinct papers, computed from one
sum per concept, so the whole corpus costs one sparse matrix product). Papers picked at random
have ``c`` near 0 whatever their number; the papers of a topic have ``c`` well above it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from scipy import sparse

__all__ = ["cohesion", "MIN_PAPERS"]

MIN_PAPERS = 6  # fewer papers than this give too noisy a mean to judge a concept by


def cohesion(holders: Mapping[str, Sequence[int]], doc_vectors: np.ndarray, *,
             min_papers: int = MIN_PAPERS) -> dict[str, float]:
    """Each concept's cohesion, for the concepts that at least ``min_papers`` papers mention.

    Parameters
    ----------
    holders : mapping
        Concept key -> the row numbers (in ``doc_vectors``) of the papers that mention it.
    doc_vectors : ndarray, shape (n_papers, d)
        The papers' unit document vectors.
    min_papers : int
        Concepts with fewer distinct papers are left out of the result.

    Returns
    -------
    dict
        Concept key -> cohesion (see the module docstring), rounded to 4 decimals.

    Examples
    --------
    >>> v = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [0.6, 0.8], [0.8, 0.6]], dtype=np.float32)
    >>> c = cohesion({"topic": [0, 1], "anything": [0, 2]}, v, min_papers=2)
    >>> c["topic"] > 0.5 > 0 > c["anything"]
    True
    """
    keys = [key for key, rows in holders.items() if len(set(rows)) >= max(2, min_papers)]
    n = len(doc_vectors)
    if not keys or n < 2:
        return {}
    docs = np.asarray(doc_vectors, dtype=np.float64)
    total = docs.sum(axis=0)
    a0 = (float(total @ total) - n) / (n * (n - 1))
    cols = [sorted(set(holders[key])) for key in keys]
    incidence = sparse.csr_matrix(
        (np.ones(sum(map(len, cols))), np.concatenate([np.asarray(c, dtype=np.int64) for c in cols]),
         np.concatenate([[0], np.cumsum([len(c) for c in cols])])), shape=(len(keys), n))
    sums = np.asarray(incidence @ docs)
    m = np.array([len(c) for c in cols], dtype=np.float64)
    within = (np.einsum("ij,ij->i", sums, sums) - m) / (m * (m - 1))
    scale = max(1.0 - a0, 1e-9)
    return {key: round(float(value), 4) for key, value in zip(keys, (within - a0) / scale)}
