"""Pieces of longer terms: keys whose last words the corpus almost always writes before another word, or whose
first words it almost always writes after one.

A noun-phrase chunker cut by a conjunction, a tagging slip or a word limit leaves part of a term: the modifiers
without their head ("local gauge" of "local gauge and diffeomorphism invariance", "unitary minimal conformal
field" of "... conformal field theories", "gauged Lie" of "gauged Lie algebras") or the head without the start
of its name ("language processing" of "natural language processing", "vector machine" of "support vector
machine", "filtering" of "collaborative filtering"). A paper's own list cannot tell; the corpus can: across its
papers' keyphrases, "conformal field" is followed by another word in hundreds of papers and ends a phrase in a
handful, while a real head ("gauge field", "Hilbert space", "PageRank") ends phrases in most of the papers that
use it. This is the nestedness that C-value term extraction discounts (Frantzi, Ananiadou and Mima, 2000), read
off the keys of the corpus's keyphrases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

__all__ = ["fragment_keys", "MIN_SEEN", "MAX_SHARE"]

MIN_SEEN = 10  # papers whose keyphrases hold an ending (a beginning) before it says anything of it
MAX_SHARE = 0.05  # an ending that ends under this share of those papers' phrases is a modifier (a start: a tail)
_LONGEST = 3  # words of the longest ending or beginning judged
# Words before a term that leave it whole: bound prefixes ("semi-supervised learning" is no "supervised learning"
# cut short, the prefix makes another term) and adverbs ("weakly supervised")
_PREFIXES = frozenset("semi self non multi cross co pre post sub super anti quasi pseudo inter intra over under "
                      "un re de bi tri uni mono poly hyper meta mid".split())


def fragment_keys(keys_of_papers: Iterable[Iterable[str]], *, min_seen: int = MIN_SEEN,
                  max_share: float = MAX_SHARE) -> set[str]:
    """The concept keys the corpus writes as a part of longer terms.

    Parameters
    ----------
    keys_of_papers : iterable of iterables of str
        Each paper's keyphrase keys (:func:`~kg.normalize.keys.concept_key`: lower case, words separated by
        spaces, the head in the singular).
    min_seen : int
        A key's ending (its last 3, 2 or 1 words, the longest first) is judged when at least this many papers
        have it, at the end of a key or before more words; its beginning likewise, at the start of a key or
        after more words. A key with no such ending or beginning is kept.
    max_share : float
        The judged ending makes the key a fragment when fewer than this share of those papers have it at the
        end of a key; the judged beginning, at the start of one (words after a bound prefix, "semi", "multi",
        or an adverb in -ly count as a start).

    Examples
    --------
    >>> papers = ([["local gauge symmetry", "natural language processing"]] * 24 +
    ...           [["local gauge", "gauge field", "language processing"]] + [["gauge field"]] * 9)
    >>> sorted(fragment_keys(papers))
    ['language processing', 'local gauge']
    >>> fragment_keys(papers, min_seen=40)  # 25 papers of "local gauge", 35 of "gauge": too few
    set()
    >>> fragment_keys([["semi supervised learning"]] * 24 + [["supervised learning"]])
    set()
    >>> fragment_keys([["1 1 dimension"]] * 24 + [["qcd 1 1"]])  # notation says nothing
    set()
    >>> fragment_keys([["bike sharing"], ["information sharing"]] * 12 + [["sharing economy"]])  # nor a gerund
    set()
    """
    ends: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    after: Counter[str] = Counter()
    every: set[str] = set()
    for keys in keys_of_papers:
        ended, before, started, following = set(), set(), set(), set()
        for key in set(keys):
            every.add(key)
            words = key.split()
            for start in range(len(words)):
                lead = start == 0 or words[start - 1] in _PREFIXES or words[start - 1].endswith("ly")
                for stop in range(start + 1, min(start + _LONGEST, len(words)) + 1):
                    part = " ".join(words[start:stop])
                    (ended if stop == len(words) else before).add(part)
                    (started if lead else following).add(part)
        ends.update(ended)
        inside.update(before - ended)
        starts.update(started)
        after.update(following - started)
    return {key for key in every
            if _cut(key.split(), ends, inside, min_seen, max_share)
            or _cut(key.split()[::-1], starts, after, min_seen, max_share, backwards=True)}


def _cut(words: list[str], whole: Mapping[str, int], part: Mapping[str, int], min_seen: int, max_share: float,
         backwards: bool = False) -> bool:
    """Whether the longest of the last 3, 2, 1 ``words`` that ``min_seen`` papers have is ``whole`` (ending or
    starting a key) in under ``max_share`` of them (``backwards``: ``words`` reversed, the beginning judged)."""
    for length in range(min(_LONGEST, len(words)), 0, -1):
        piece = words[-length:]
        if not any(len(word) > 1 and not word.isdigit() for word in piece):
            return False  # numbers and letters are notation, written before and after anything: "QCD(1+1)"
        piece = " ".join(piece[::-1] if backwards else piece)
        seen = whole.get(piece, 0) + part.get(piece, 0)
        if seen >= min_seen:
            if backwards and length == 1 < len(words) and piece.endswith("ing") and len(piece) > 4:
                return False  # a gerund starts the names of things ("sharing economy") and ends those of acts ("bike
                # sharing", "information sharing"): where it stands says nothing of the key it starts
            return whole.get(piece, 0) < max_share * seen
    return False
