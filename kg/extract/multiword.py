"""Terms with a function word inside, which a corpus writes both hyphenated and with spaces.

"learning to rank", "equation of state", "roots of unity", "quality of service", "bag of words": a noun
phrase never runs across "to" or "of", so written with spaces such a term falls apart into pieces
("rank algorithms", "state", "unity") and the term itself is never a candidate, while the papers that
hyphenate it ("learning-to-rank algorithms", "equation-of-state parameter") get it whole. What the corpus
hyphenates is the evidence: :func:`hyphenated_terms` collects the words of three to six parts with a
function word inside (but "and" or "or": spaced, those are mostly two words coordinated) that at least
``min_papers`` texts write, and :func:`join_terms` writes a text's
spaced occurrences of them hyphenated (in the text's own letter case) for the tagger, so both spellings give one
candidate; :func:`kg.extract.candidates.find_candidates` writes the candidate back as the text does ("string
equations of motion": physicists never hyphenate it, and a name shown as no paper writes it is a broken name).
The texts stored and embedded never change.

Examples
--------
>>> terms = hyphenated_terms(["We study learning-to-rank.", "Learning-to-rank models.", "peer-to-peer"])
>>> sorted(terms)
['learning-to-rank']
>>> join_terms("Learning to Rank for search; learning  to rank algorithms", terms)
'Learning-to-Rank for search; learning-to-rank algorithms'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["hyphenated_terms", "joinable_terms", "join_terms", "joined_words", "FUNCTION_WORDS", "MIN_PAPERS",
           "KNOWN_TERMS"]

# Words that join the parts of a hyphenated term: "learning-to-rank", "state-of-the-art", "trial-and-error",
# "query-by-example", "software-as-a-service", "next-to-leading-order"
FUNCTION_WORDS = frozenset("to of the and by in on for a an at as per or with from over into via vs".split())

MIN_PAPERS = 2  # texts that hyphenate a term before its spaced form is joined

_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z]+(?:-[A-Za-z]+){2,5}(?![\w-])")
_FUNCTION = "|".join(sorted(FUNCTION_WORDS, key=len, reverse=True))
# a word and the function word after it: where a spaced term may start
_START = re.compile(rf"(?<![\w-])([A-Za-z]+)\s+(?:{_FUNCTION})\s+(?=[A-Za-z])", re.IGNORECASE)


# Written with spaces, words joined by "and" or "or" are mostly two words coordinated ("the content and structure of
# documents"), not the term a few papers hyphenate ("content-and-structure queries"): never joined.
_COORDINATORS = frozenset({"and", "or", "vs"})


def _is_term(parts: list[str]) -> bool:
    return (parts[0] not in FUNCTION_WORDS and parts[-1] not in FUNCTION_WORDS
            and any(p in FUNCTION_WORDS for p in parts[1:-1]) and not _COORDINATORS.intersection(parts))


def hyphenated_terms(texts: Iterable[str], min_papers: int = MIN_PAPERS) -> frozenset[str]:
    """The hyphenated words with a function word inside (lower case) that ``min_papers`` or more of ``texts`` write.

    Examples
    --------
    >>> sorted(hyphenated_terms(["an equation-of-state", "the Equation-of-State", "a one-to-one map"]))
    ['equation-of-state']
    """
    papers: Counter[str] = Counter()
    for text in texts:
        found = {word.lower() for word in _HYPHENATED.findall(text)}
        papers.update(word for word in found if _is_term(word.split("-")))
    return frozenset(word for word, n in papers.items() if n >= min_papers)


# Terms of science written with spaces far more often than hyphenated, whatever a corpus hyphenates: a corpus of
# any size joins them ("the bosonic angular degrees of freedom" gave "bosonic angular degree": hep-th writes "degrees
# of freedom" in 925 places and hyphenates it in one paper).
KNOWN_TERMS = frozenset("""degree-of-freedom degrees-of-freedom equation-of-motion equations-of-motion
    equation-of-state equations-of-state quality-of-service point-of-interest points-of-interest bag-of-words
    bags-of-words mixture-of-experts center-of-mass centre-of-mass speed-of-light word-of-mouth
    curse-of-dimensionality proof-of-concept quality-of-experience return-on-investment internet-of-things
    wisdom-of-crowds wisdom-of-the-crowd wisdom-of-the-crowds terms-of-service terms-of-use rule-of-thumb
    rules-of-thumb conflict-of-interest conflicts-of-interest division-of-labor division-of-labour quality-of-life
    theory-of-mind law-of-large-numbers field-of-view line-of-sight time-of-flight depth-of-field speed-of-sound
    separation-of-variables method-of-moments method-of-images angle-of-attack state-of-charge""".split())
# (round forty-four: "curse of dimensionality" in 30 ACM-CR abstracts gave "curse" and "dimensionality", "Twitter's
# terms of service" "Twitter's term", "proof of concept system" "concept system")


def joinable_terms(texts: Iterable[str], min_papers: int = MIN_PAPERS) -> frozenset[str]:
    """The terms :func:`join_terms` joins in ``texts``: those they hyphenate (:func:`hyphenated_terms`) and
    :data:`KNOWN_TERMS`.

    Examples
    --------
    >>> "degrees-of-freedom" in joinable_terms(["no hyphen here"])
    True
    """
    return hyphenated_terms(texts, min_papers) | KNOWN_TERMS


@lru_cache(maxsize=4)
def _by_first_word(terms: frozenset[str]) -> dict[str, list[tuple[str, ...]]]:
    """First word -> the terms' words, longest first ("next to next to leading" before "next to leading")."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for term in terms:
        words = tuple(term.split("-"))
        index.setdefault(words[0], []).append(words)
    for found in index.values():
        found.sort(key=len, reverse=True)
    return index


def join_terms(text: str, terms: frozenset[str]) -> str:
    """``text`` with each of ``terms`` it writes with spaces (any letter case, any run of spaces between
    words) written with hyphens instead; words already joined to a hyphen or a letter are left alone.

    Examples
    --------
    >>> join_terms("the equation of state and roots of unity", frozenset({"equation-of-state", "roots-of-unity"}))
    'the equation-of-state and roots-of-unity'
    >>> join_terms("the co-equation of state", frozenset({"equation-of-state"}))
    'the co-equation of state'
    """
    return joined_words(text, terms)[0]


def joined_words(text: str, terms: frozenset[str]) -> tuple[str, frozenset[str]]:
    """:func:`join_terms`, and the words it made ("Learning-to-Rank" for "Learning to Rank").

    Examples
    --------
    >>> joined_words("Learning to Rank and learning-to-rank", frozenset({"learning-to-rank"}))
    ('Learning-to-Rank and learning-to-rank', frozenset({'Learning-to-Rank'}))
    """
    if not terms or not text:
        return text, frozenset()
    index = _by_first_word(terms)
    pieces: list[str] = []
    made: set[str] = set()
    done = 0
    for start in _START.finditer(text):
        at = start.start()
        if at < done:
            continue
        for words in index.get(start.group(1).lower(), ()):
            match = _match(text, at, words)
            if match is not None:
                word = "-".join(text[a:b] for a, b in match)
                pieces += [text[done:at], word]
                made.add(word)
                done = match[-1][1]
                break
    if not pieces:
        return text, frozenset()
    pieces.append(text[done:])
    return "".join(pieces), frozenset(made)


_WORD = re.compile(r"[A-Za-z]+")
_GAP = re.compile(r"\s+")


def _match(text: str, at: int, words: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """The spans of ``words`` written from ``at`` with spaces between them and a word boundary after, or None."""
    spans = []
    pos = at
    for i, word in enumerate(words):
        if i:
            gap = _GAP.match(text, pos)
            if gap is None:
                return None
            pos = gap.end()
        found = _WORD.match(text, pos)
        if found is None or found.group(0).lower() != word:
            return None
        spans.append(found.span())
        pos = found.end()
    if pos < len(text) and (text[pos] == "-" or text[pos].isalnum() or text[pos] == "_"):
        return None
    return spans
