"""Rank one document's candidates: embedding similarity, position, title, diversity.

The base score is KeyBERT's: cosine between the phrase and the document. Three
knobs from the keyphrase literature adjust it, each measured on Inspec validation
(see README, "Extraction"):

* ``position_weight`` (PositionRank, SIFRank+): phrases that appear early are
  more often keyphrases; adds ``w / (1 + first_token_offset) ** 0.5``.
* ``title_weight``: adds ``w`` when the title contains the phrase.
* ``diversity`` (EmbedRank's MMR): penalizes similarity to phrases already picked.

Near-duplicate candidates (same words up to case and a plural ``s``) keep only the
best one, so the top-``n`` is not spent on variants.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kg.extract.candidates import Candidate, word_class

__all__ = ["rank_candidates", "prior_scores", "variant_key", "ordinary_word", "GENERIC_WEIGHT"]

# What a one-word candidate that is an ordinary English word loses ("selection",
# "scenario", "understanding" lose to "causal sensitivity analysis"); see README, "Concepts".
# Off by default: 0.15 raised Inspec validation F1@5/10/15 from 33.55/38.77/38.50 to
# 33.97/39.83/39.71 but lowered F1@5/10 against ACM author keywords (first 2,000 papers,
# linked concepts) from 15.08/13.58 to 14.47/13.00; authors use one-word keywords.
GENERIC_WEIGHT = 0.0
# What a candidate gains per natural-log unit of its occurrences in the text, times the share of the
# text the model does not read (the document vector is of its opening, READ tokens): a phrase a long
# abstract repeats is what it is about (term frequency, the oldest keyphrase feature), and the
# longer the text, the less of it the document vector saw. See docs/EXTRACTION.md, round eight.
FREQUENCY_WEIGHT = 0.15
READ = 80  # tagger tokens in the model's window of 96 word pieces (title and opening)


def variant_key(phrase: str) -> str:
    """Lowercase words, trailing plural ``s`` dropped from each: one key per variant family.

    Examples
    --------
    >>> variant_key("Neural Networks") == variant_key("neural network")
    True
    """
    words = phrase.lower().replace("-", " ").split()
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in words)


def rank_candidates(
    doc: np.ndarray,
    vectors: np.ndarray,
    cands: Sequence[Candidate],
    *,
    top_n: int = 10,
    position_weight: float = 0.0,
    title_weight: float = 0.0,
    diversity: float = 0.0,
) -> list[tuple[int, float]]:
    """The best ``top_n`` candidates as ``(index, score)`` pairs, best first.

    Parameters
    ----------
    doc : ndarray, shape (d,)
        The document's unit vector.
    vectors : ndarray, shape (n, d)
        The candidates' unit vectors, in the order of ``cands``.
    cands : sequence of Candidate
    top_n : int
    position_weight, title_weight, diversity : float
        See the module docstring; 0 turns a knob off.

    Examples
    --------
    >>> v = np.eye(3, dtype=np.float32)
    >>> c = [Candidate("a", 0, 1, False), Candidate("b", 5, 1, True), Candidate("c", 9, 1, False)]
    >>> rank_candidates(v[0], v, c, top_n=2, title_weight=0.5)
    [(0, 1.0), (1, 0.5)]
    """
    if not cands:
        return []
    scores = (vectors @ doc).astype(np.float64) + prior_scores(cands, position_weight, title_weight)
    order = sorted(range(len(cands)), key=lambda i: (-scores[i], cands[i].phrase))
    best: dict[str, int] = {}
    for i in order:
        best.setdefault(variant_key(cands[i].phrase), i)
    keep = sorted(best.values(), key=lambda i: (-scores[i], cands[i].phrase))
    if diversity <= 0 or len(keep) <= 1:
        picked = keep[:top_n]
    else:
        picked = _mmr(scores[keep], vectors[keep], top_n, diversity)
        picked = [keep[i] for i in picked]
    return [(i, round(float(scores[i]), 4)) for i in picked]


def ordinary_word(phrase: str) -> bool:
    """A one-word phrase that is an ordinary English word: lower or sentence case, known to the
    tagger's lexicon, not as a proper noun ("selection", "Scenario"; not "BERT", "Twitter", "GNNs").

    Examples
    --------
    >>> [ordinary_word(p) for p in ["selection", "Data", "BERT", "Twitter", "word2vec", "neural network"]]
    [True, True, False, False, False, False]
    """
    if " " in phrase or "-" in phrase or not phrase[1:].islower():
        return False
    low = phrase.lower()
    found = word_class(low) or (word_class(low[:-1]) if low.endswith("s") else None)
    return bool(found) and not found.startswith("NNP")


def prior_scores(cands: Sequence[Candidate], position_weight: float, title_weight: float,
                 generic_weight: float = GENERIC_WEIGHT, frequency_weight: float | None = None) -> np.ndarray:
    """What is added to each candidate's cosine: the position and title bonuses, ``frequency_weight``
    times the log of its occurrences (default :data:`FREQUENCY_WEIGHT`), less ``generic_weight`` for
    a one-word candidate that is an ordinary word (:func:`ordinary_word`).

    Examples
    --------
    >>> prior_scores([Candidate("a", 0, 1, True), Candidate("b", 3, 1, False)], 0.1, 0.05).round(3)
    array([0.15, 0.05])
    >>> prior_scores([Candidate("a", 0, 1, False), Candidate("b", 159, 3, False)], 0.0, 0.0, frequency_weight=0.1).round(3)
    array([0.   , 0.055])
    >>> prior_scores([Candidate("scenario", 0, 1, False)], 0.0, 0.0, 0.05).round(3)
    array([-0.05])
    """
    scores = np.zeros(len(cands), dtype=np.float64)
    frequency_weight = FREQUENCY_WEIGHT if frequency_weight is None else frequency_weight
    unread = 1.0 - READ / max(READ, 1 + max((c.first for c in cands), default=0))
    if frequency_weight and unread > 0:
        scores += frequency_weight * unread * np.log(np.array([max(c.count, 1) for c in cands], dtype=np.float64))
    if generic_weight:
        scores -= generic_weight * np.array([ordinary_word(c.phrase) for c in cands], dtype=np.float64)
    if position_weight:
        scores += position_weight / np.sqrt(1.0 + np.array([c.first for c in cands], dtype=np.float64))
    if title_weight:
        scores += title_weight * np.array([c.in_title for c in cands], dtype=np.float64)
    return scores


def _mmr(relevance: np.ndarray, vectors: np.ndarray, top_n: int, diversity: float) -> list[int]:
    """Maximal marginal relevance; ``relevance`` is sorted best first. Returns indices in pick order.

    The redundancy of each candidate (its highest similarity to a picked one) is kept up
    to date with one vector operation per pick.
    """
    n = len(relevance)
    top_n = min(top_n, n)
    base = (1 - diversity) * np.asarray(relevance, dtype=np.float64)
    pairwise = (vectors @ vectors.T).astype(np.float64)
    redundancy = pairwise[0].copy()
    taken = np.zeros(n, dtype=bool)
    taken[0] = True
    picked = [0]
    while len(picked) < top_n:
        mmr = np.where(taken, -np.inf, base - diversity * redundancy)
        best = int(np.argmax(mmr))  # the first of equals, as the list order breaks ties
        picked.append(best)
        taken[best] = True
        np.maximum(redundancy, pairwise[best], out=redundancy)
    return picked
