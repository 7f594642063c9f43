"""How a concept is shown: its words as the corpus writes them, lower case unless a name."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from kg.extract.candidates import word_class
from kg.normalize.keys import _DROP, _SEPARATORS, _common_word, concept_key

__all__ = []

_NAME_FORM = re.compile(r"(?<=.)[A-Z]")  # an upper-case letter after the first character


def _cased_words(surface: str) -> list[str]:
    """The words of ``surface`` as :func:`concept_key` splits them, case kept."""
    text = _DROP.sub(" ", _SEPARATORS.sub(" ", unicodedata.normalize("NFKC", surface)))
    return [w for w in (w.strip(".") for w in text.split()) if w]


def _word_name(word: str, forms: Counter[str], last: bool) -> str:
    """How one word of a concept is written: lower case unless the corpus writes it as a name."""
    total = sum(forms.values())
    if not total:
        return word
    names = {f: n for f, n in forms.items() if _NAME_FORM.search(f) and sum(ch.isalnum() for ch in f) >= 2}
    n_names = sum(names.values())
    common = _common_word(word)
    best = min(names.items(), key=lambda kv: (-kv[1], kv[0]))[0] if names else ""
    shouted = common and best.isupper()  # "DATA", "PAGE": a word in capitals, or an acronym?
    if names and 2 * n_names > total and not (shouted and (n_names < 2 or n_names < 2 * (total - n_names))):
        if best.casefold() == word:
            return best
        if last and best.endswith("s") and best[:-1].casefold() == word:
            return best[:-1]  # GNNs -> GNN
        return word
    capital = sum(n for f, n in forms.items() if f[:1].isupper() and f[1:] == f[1:].lower())
    proper = not common and word_class(word.capitalize()) in ("NNP", "NNPS")
    if (proper and 2 * capital >= total) or (not common and capital >= 2 and 10 * capital >= 9 * total):
        return word[:1].upper() + word[1:]  # Twitter, Wikipedia, Markov
    return word


def _display_name(key: str, surfaces: Counter[str], acronym: str | None) -> str:
    """A concept's name: its words as the corpus writes them, lower case unless a name.

    Each word is lower case unless most of its occurrences write it as an acronym or a
    mixed-case name ("BERT", "GNN", "LLaMA", "YaRN", "3D"; so "SystEm" or "TweeTs" seen
    once among many "systems" and "tweets" does not count; an ordinary word in capitals,
    "DATA", "PAGE", needs two occurrences and twice as many as all other forms) or
    almost all of them capitalize it (a proper noun: "Wikipedia", "Markov"). Words of multi-word title-case
    surfaces ("Graph Neural Networks") and of all-caps ones are not evidence of a name.

    Examples
    --------
    >>> _display_name("tweet", Counter({"tweets": 4, "TweeTs": 1, "Tweets": 2}), None)
    'tweet'
    >>> _display_name("gnn", Counter({"GNNs": 2, "gnn": 1}), None)
    'GNN'
    >>> _display_name("large language model", Counter({"Large Language Models": 3}), "LLMs")
    'large language model (LLM)'
    """
    words = key.split()
    forms: list[Counter[str]] = [Counter() for _ in words]
    for surface, n in surfaces.items():
        tokens = _cased_words(surface)
        if len(tokens) != len(words) or concept_key(surface) != key:
            continue
        letters = [t for t in tokens if any(ch.isalpha() for ch in t)]
        shouting = len(letters) > 1 and all(t.isupper() for t in letters)
        titled = len(letters) > 1 and all(t[:1].isupper() for t in letters)
        for i, token in enumerate(tokens):
            if (shouting and token.isupper()) or (titled and not _NAME_FORM.search(token)):
                continue
            forms[i][token] += n
    name = " ".join(_word_name(w, f, i == len(words) - 1) for i, (w, f) in enumerate(zip(words, forms)))
    if acronym and len(acronym) > 2 and acronym.endswith("s") and acronym[:-1].isupper():
        acronym = acronym[:-1]  # LLMs -> LLM
    return f"{name} ({acronym})" if acronym and acronym.casefold() != name.casefold() else name
