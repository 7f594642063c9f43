"""Which one-word concepts are too generic to stand alone, and which trailing words add nothing.

A one-word concept names a topic on a field map only when it is specific: "crowdsourcing",
"supersymmetry", "instanton", "DeepWalk". An ordinary English word is generic when everyday
English uses it a lot ("feature", "context", "theory", "note", "possibility": general-language
frequency, the contrast that termhood measures such as Ahmad et al.'s *weirdness* rest on) or
when it is a bare field word, written by a large share of this corpus's papers ("retrieval" in
an IR corpus, "symmetry" in hep-th). Multi-word concepts are never judged here: "social media"
and "search engine" are made of common words and are specific.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from importlib import resources
from math import log10

from kg.extract.candidates import GENERIC_MODIFIERS, word_class
from kg.normalize.keys import singularize

__all__ = ["generic_words", "generic_phrase", "generic_heads", "trim_filler", "COMMON_ZIPF", "FIELD_SHARE", "FIELD_ZIPF", "FILLER_HEADS"]

#: Zipf frequency (log10 of occurrences per billion words of general English, wordfreq) from
#: which an ordinary word is everyday English: "feature" 4.8, "context" 4.6, "theory" 4.9,
#: "note" 5.0; below it "privacy" 4.4, "inflation" 4.1, "query" 3.6, "entropy" 3.3.
COMMON_ZIPF = 4.5
#: Share of the corpus's papers whose text has the word, from which it is a bare field word.
FIELD_SHARE = 0.04
#: ... when it is also at least this common in general English ("retrieval" 3.3, "symmetry"
#: 3.5; a technical word a whole subfield writes, "brane" 2.1, "supergravity", stays).
FIELD_ZIPF = 2.8
#: Words that end a phrase without adding to it when two or more words precede them
#: ("team recommendation algorithm", "multi-view semi-supervised learning method").
FILLER_HEADS = frozenset(
    """method approach technique algorithm framework scheme strategy methodology procedure
    result task paradigm setting case context scenario perspective""".split()
)

_MIN_FIELD_PAPERS = 10  # a share of a handful of papers says nothing about a field
_TOKEN = re.compile(r"[a-z][a-z\-']+")


@lru_cache(maxsize=1)
def _frequencies() -> Mapping[str, float]:
    from wordfreq import get_frequency_dict  # here, not at the top: it takes 0.4 s to import

    return get_frequency_dict("en", wordlist="best")


def zipf(word: str) -> float:
    """The Zipf frequency of ``word`` in general English (0 for an unknown word).

    Examples
    --------
    >>> zipf("theory") > COMMON_ZIPF > zipf("supersymmetry")
    True
    """
    freq = _frequencies().get(word.lower(), 0.0)
    return round(log10(freq) + 9, 2) if freq > 0 else 0.0


def _ordinary(word: str) -> bool:
    """A word the tagger's lexicon knows as a common word (not a proper noun)."""
    for form in (word, singularize(word)):
        found = word_class(form)
        if found:
            return not found.startswith("NNP")
    return False


@lru_cache(maxsize=1)
def generic_heads() -> frozenset[str]:
    """Nouns that name a kind of statement or activity, from ``kg/resources/generic_heads.txt``."""
    text = resources.files("kg").joinpath("resources/generic_heads.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


_ADJECTIVAL = ("JJ", "JJR", "JJS", "VBN", "RB")


def generic_phrase(key: str) -> bool:
    """A concept key made of ordinary adjectives before a generic head (:func:`generic_heads`),
    or that head alone: "explicit expression", "empirical comparison", "phenomenon".

    Examples
    --------
    >>> [generic_phrase(k) for k in ["explicit expression", "phenomenon", "sentiment analysis",
    ...                             "non perturbative calculation", "bound state"]]
    [True, True, False, False, False]
    """
    words = key.split()
    if not words or singularize(words[-1]) not in generic_heads():
        return False
    return all(word_class(w) in _ADJECTIVAL or w in GENERIC_MODIFIERS for w in words[:-1])


def generic_words(texts: Iterable[str], keys: Collection[str], *, common_zipf: float = COMMON_ZIPF,
                  field_share: float = FIELD_SHARE, field_zipf: float = FIELD_ZIPF) -> set[str]:
    """The concept keys among ``keys`` that are too generic for a map: one-word keys (see the
    module docstring) and the phrases of :func:`generic_phrase`.

    Parameters
    ----------
    texts : iterable of str
        Each paper's text (title and abstract): the corpus the field share is counted in.
    keys : collection of str
        Concept keys; those with more than one word are never generic here.
    common_zipf, field_share, field_zipf : float
        See the module constants.

    Examples
    --------
    >>> texts = ["Retrieval of documents by query."] * 19 + ["Crowdsourcing retrieval."]
    >>> sorted(generic_words(texts, {"retrieval", "crowdsourcing", "theory", "query", "supergravity"}))
    ['query', 'retrieval', 'theory']
    """
    single = {k for k in keys if " " not in k and k.isalpha() and _ordinary(k)}
    generic = {k for k in single if zipf(k) >= common_zipf} | {k for k in keys if generic_phrase(k)}
    field = {k for k in single - generic if zipf(k) >= field_zipf}
    if not field:
        return generic
    counts = dict.fromkeys(field, 0)
    n = 0
    for text in texts:
        n += 1
        seen = {singularize(t) for t in set(_TOKEN.findall(text.lower()))}
        for word in seen & field:
            counts[word] += 1
    return generic | {k for k, c in counts.items() if c >= max(field_share * n, _MIN_FIELD_PAPERS)}


def trim_filler(phrase: str) -> str:
    """``phrase`` without a trailing filler word (:data:`FILLER_HEADS`) after two or more words.

    Examples
    --------
    >>> [trim_filler(p) for p in ["team recommendation algorithm", "Monte Carlo methods",
    ...                           "clustering algorithm", "learning to rank approaches"]]
    ['team recommendation', 'Monte Carlo', 'clustering algorithm', 'learning to rank']
    """
    words = phrase.split()
    if len(words) >= 3 and singularize(words[-1].lower()) in FILLER_HEADS:
        return " ".join(words[:-1])
    return phrase
