"""Score extracted keyphrases against gold keyphrases with the standard unsupervised-KPE protocol.

The protocol is the one SIFRank, MDERank and PromptRank use (see
``shared/data/README.md``): predictions are lowercased and deduplicated, then cut at
``k``; a prediction is correct when its Porter-stemmed, whitespace-tokenized form equals
that of a gold phrase (an exact lowercase match also counts); each prediction counts at
most once, and, as in the published scripts, gold phrases are not consumed by a match and
not deduplicated after stemming; gold includes absent keyphrases.
Precision, recall and F1 are micro-averaged over the whole corpus::

    P@k = Σ correct / Σ min(k, #predictions)    R@k = Σ correct / Σ |gold|
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

__all__ = ["stem_phrase", "score_keyphrases", "DEFAULT_KS"]

DEFAULT_KS = (5, 10, 15)


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer  # the stemmer needs no NLTK data download

    return PorterStemmer()


@lru_cache(maxsize=131072)
def stem_phrase(phrase: str) -> str:
    """Lowercase, split on whitespace and Porter-stem every token.

    Examples
    --------
    >>> stem_phrase("Rotary Position Embeddings")
    'rotari posit embed'
    """
    stem = _stemmer().stem
    return " ".join(stem(token) for token in phrase.lower().split())


def _dedupe_lower(phrases: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for phrase in phrases:
        low = " ".join(phrase.lower().split())
        if low:
            seen.setdefault(low, None)
    return list(seen)


def score_keyphrases(
    predictions: Mapping[str, Sequence[str]],
    gold: Mapping[str, Sequence[str]],
    *,
    ks: Sequence[int] = DEFAULT_KS,
) -> dict[int, dict[str, float]]:
    """Micro-averaged precision, recall and F1 (in %) at each ``k``.

    Parameters
    ----------
    predictions : dict
        Document id -> predicted phrases, best first. A document missing here
        counts as predicting nothing.
    gold : dict
        Document id -> gold phrases. Only these documents are scored.
    ks : sequence of int
        Cut-offs.

    Returns
    -------
    dict
        ``k -> {"precision", "recall", "f1", "correct", "predicted", "gold"}``;
        the three scores are percentages rounded to 2 decimals.

    Examples
    --------
    >>> s = score_keyphrases({"d": ["neural networks", "cats", "dogs"]},
    ...                      {"d": ["neural network", "birds"]}, ks=[2])
    >>> s[2]["precision"], s[2]["recall"], s[2]["f1"]
    (50.0, 50.0, 50.0)
    """
    totals = {k: {"correct": 0, "predicted": 0, "gold": 0} for k in ks}
    for doc_id in sorted(gold):
        gold_lower = [" ".join(g.lower().split()) for g in gold[doc_id]]
        gold_exact = set(gold_lower)
        gold_stems = {stem_phrase(g) for g in gold_lower}
        predicted = _dedupe_lower(predictions.get(doc_id, ()))
        hits = [stem_phrase(p) in gold_stems or p in gold_exact for p in predicted]
        for k in ks:
            cut = predicted[:k]
            totals[k]["correct"] += sum(hits[:k])
            totals[k]["predicted"] += len(cut)
            totals[k]["gold"] += len(gold_lower)
    scores: dict[int, dict[str, float]] = {}
    for k, t in totals.items():
        p = t["correct"] / t["predicted"] if t["predicted"] else 0.0
        r = t["correct"] / t["gold"] if t["gold"] else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        scores[k] = {"precision": round(100 * p, 2), "recall": round(100 * r, 2),
                     "f1": round(100 * f, 2), **t}
    return scores
