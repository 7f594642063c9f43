"""General English: which strings are words, and how often English writes them.

Two sources, read once and lazily: the lexicon of kg's part-of-speech tagger (TextBlob's
Pattern lexicon, 94,000 words and forms) and ``wordfreq``'s frequencies of general English.
Text repair (:mod:`kg.ingest.repair`) asks whether a piece of text is a word; the concept rules
(:mod:`kg.normalize`) ask how common one is.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Collection, Mapping
from functools import lru_cache
from math import log10

__all__ = ["lexicon", "is_word", "is_part", "form_of_word", "zipf", "PREFIXES"]

#: English prefixes a dash joins to a word ("non-Abelian", "anti-de Sitter", "semi-supervised"): lower case
#: in a name, and an adjective's prefix when the word after them is one ("non-supersymmetric case").
PREFIXES = frozenset("non anti quasi semi pseudo super sub pre post multi self".split())

# Endings of forms of a known word ("formatting", "explainability").
_FORM_ENDINGS = ("ing", "ed", "es", "s", "er", "ers", "ly", "ability", "ibility", "ness", "able", "ably", "ist",
                 "ists", "ism", "isms", "ity", "ities", "ation", "ations")


@lru_cache(maxsize=1)
def lexicon() -> Collection[str]:
    """The words of the TextBlob/Pattern tagger lexicon (kg's part-of-speech tagger).

    Read from TextBlob's file directly: importing TextBlob (NLTK, SciPy) takes longer than
    reading a whole corpus.
    """
    spec = importlib.util.find_spec("textblob")
    if spec is not None and spec.origin:
        path = os.path.join(os.path.dirname(spec.origin), "en", "en-lexicon.txt")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:  # "word TAG" lines, ";;;" comments
                return frozenset(line.split(" ", 1)[0] for line in handle
                                 if line.strip() and not line.startswith(";;;"))
    from textblob.en import lexicon as tagger_lexicon  # the same words, the slow way

    return tagger_lexicon


def is_word(word: str) -> bool:
    """Whether the lexicon knows ``word`` (as written or in lower case)."""
    words = lexicon()
    return word in words or word.lower() in words


def is_part(word: str) -> bool:
    """A word, or the plural of one ("offs" in "trade-offs")."""
    return is_word(word) or (word.endswith("s") and is_word(word[:-1]))


def form_of_word(word: str) -> bool:
    """Whether ``word`` is a word of the lexicon or a form of one ("formatting", "generalises").

    Examples
    --------
    >>> form_of_word("formatting"), form_of_word("generalises"), form_of_word("ument")
    (True, True, False)
    """
    if is_part(word):
        return True
    words = lexicon()
    for ending in _FORM_ENDINGS:
        stem = word[:-len(ending)]
        if word.endswith(ending) and len(stem) >= 3:
            for form in (stem, stem.replace("is", "iz")):
                if form in words or form + "e" in words or (form[-1] == form[-2] and form[:-1] in words):
                    return True
    return False


@lru_cache(maxsize=1)
def _frequencies() -> Mapping[str, float]:
    from wordfreq import get_frequency_dict  # here, not at the top: it takes 0.4 s to import

    return get_frequency_dict("en", wordlist="best")


def zipf(word: str) -> float:
    """The Zipf frequency of ``word`` in general English (0 for an unknown word).

    Zipf is the base-10 logarithm of occurrences per billion words: "theory" 4.9, "query" 3.6,
    "supersymmetry" 2.2.

    Examples
    --------
    >>> zipf("theory") > 3.0 > zipf("supersymmetry") > 0 == zipf("uxiliary")
    True
    """
    freq = _frequencies().get(word.lower(), 0.0)
    return round(log10(freq) + 9, 2) if freq > 0 else 0.0
