"""One concept per idea in a paper's ranking: concepts that restate a higher-ranked one of the
same paper ("team recommendation" below "networked team recommendation") move below the rest."""

from __future__ import annotations

from collections.abc import Sequence

from kg.normalize.keys import singularize

__all__ = ["restatements"]


def _lemmas(key: str) -> tuple[str, ...]:
    return tuple(singularize(w) for w in key.split())


def restatements(keys: Sequence[str]) -> dict[str, str]:
    """The keys of one paper's ranking (best first) that restate a higher-ranked key -> that key.

    A key restates another when both end in the same head word and the words of one
    (singular) are all among the other's: a variant wording or a trivial specialisation
    ("black hole" / "extremal black hole", "bi-Hamiltonian structure" / "Hamiltonian structure").
    Keys with different heads are different ideas ("knowledge graph" / "knowledge graph embedding").

    Examples
    --------
    >>> restatements(["networked team recommendation", "team recommendation", "team formation",
    ...               "knowledge graph embedding", "knowledge graph", "graph"])
    {'team recommendation': 'networked team recommendation', 'graph': 'knowledge graph'}
    """
    kept: list[tuple[str, tuple[str, ...], frozenset[str]]] = []
    out: dict[str, str] = {}
    for key in keys:
        words = _lemmas(key)
        if not words:
            continue
        bag = frozenset(words)
        for other, other_words, other_bag in kept:
            if words[-1] == other_words[-1] and (bag <= other_bag or other_bag <= bag):
                out[key] = other
                break
        else:
            kept.append((key, words, bag))
    return out
