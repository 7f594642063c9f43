"""The weight of a ``related`` link between two papers, the constants it is made of, and the scoring of
one paper's candidates that ``kg related`` lists.

Kept apart from :mod:`kg.links` (which finds the links, with SciPy) so that a reader that
only scores pairs (:mod:`kg.index.read`, ``kg related``) imports nothing heavy. The graph
path (:func:`kg.analyze.related.related_papers`) and the index path
(:meth:`kg.index.read.BuildIndex.related_by`) gather the candidates each from its own store
and score them here, with :func:`score_related`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence

import numpy as np

__all__ = ["link_weight", "cosines", "score_related", "citation", "related_parameters", "SIMILARITY_WEIGHT",
           "CANDIDATE_DF", "AUTHOR_WEIGHT", "RELATED_PARAMETERS"]

SIMILARITY_WEIGHT = 10.0  # ln(N+1) times this: what a document cosine of 1 adds (README, bench_related)
CANDIDATE_DF = 100  # concepts in more papers add weight but find no link candidates
AUTHOR_WEIGHT = 2.0  # with document vectors: a shared author counts this many times its idf
RELATED_PARAMETERS = "related_parameters"  # graph attribute: how the related links were weighed


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


def citation(other: str, cites: Collection[str], cited_by: Collection[str]) -> str | None:
    """How a paper and ``other`` cite each other: ``"both"``, ``"cites"`` (it cites ``other``), ``"cited by"``
    or None, from the ids it cites and the ids citing it."""
    return ("both" if other in cites and other in cited_by else "cites" if other in cites
            else "cited by" if other in cited_by else None)


def related_parameters(graph_attributes: Mapping) -> dict:
    """How a build weighed its ``related`` links, from its graph's attributes: :data:`RELATED_PARAMETERS`
    (JSON), else the build's ``parameters`` (older builds), else ``{}``."""
    for key in (RELATED_PARAMETERS, "parameters"):
        try:
            params = json.loads(graph_attributes.get(key) or "null")
        except (TypeError, ValueError):
            continue
        if isinstance(params, dict):
            return params
    return {}


def score_related(candidates: Mapping[str, Sequence[str]], idf: Mapping[str, float], n_papers: int, *,
                  cites: Collection[str] = (), cited_by: Collection[str] = (), cosine: Mapping[str, float] = {},
                  shared_authors: Mapping[str, Sequence[float]] = {}, min_shared: int = 0,
                  similarity_weight: float = SIMILARITY_WEIGHT,
                  author_weight: float = AUTHOR_WEIGHT) -> list[tuple[float, str, list[str], str | None]]:
    """One paper's related candidates as ``kg related`` scores them: ``(score, id, shared, citation)`` for each
    candidate that shares at least ``min_shared`` concepts or a citation and scores above 0, in the order
    of ``candidates``.

    Parameters
    ----------
    candidates : mapping
        Other paper -> the concepts it shares with the paper.
    idf : mapping
        Concept -> ``ln((N + 1) / papers)`` (every shared concept has one).
    n_papers : int
    cites, cited_by : collections
        The papers the paper cites, and those citing it.
    cosine : mapping
        Other paper -> cosine of the two document vectors (none: 0).
    shared_authors : mapping
        Other paper -> the idf of each author the two share.
    min_shared, similarity_weight, author_weight
        The build's related parameters.

    ``shared`` lists the shared concepts rarest first (then by id); ``citation`` is :func:`citation`.
    """
    out = []
    for other, shared in candidates.items():
        link = citation(other, cites, cited_by)
        if len(shared) < min_shared and not link:
            continue
        shared = sorted(shared, key=lambda c: (-idf[c], c))
        score = link_weight([idf[c] for c in shared], n_papers, cosine=cosine.get(other, 0.0), cited=link is not None,
                            shared_authors_idf=shared_authors.get(other, ()), similarity_weight=similarity_weight,
                            author_weight=author_weight)
        if score > 0:
            out.append((score, other, shared, link))
    return out
