"""Keys that abbreviate another key of the same paper: "RG flow" beside "renormalization group
flow", "CY manifold" beside "Calabi-Yau manifold", "interactive IR" beside "interactive
information retrieval", in papers that never define the abbreviation."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence

from kg.extract.candidates import word_class

__all__ = ["abbreviated_keys"]

# a written token that can be an initialism: letters only, two capitals at least or a capital after the first
# letter ("RG", "AdS", "KdV", "ccTLD", "pB")
_INITIALISM = re.compile(r"(?<![\w-])(?:[A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z]*|[a-z]+[A-Z][A-Za-z]*)(?![\w])")
# shortenings no initials spell, as physicists write them: "SUSY gauge theory", "SUSY breaking", "SUGRA"
_SHORTENINGS = {"susy": ("supersymmetric", "supersymmetry"), "sugra": ("supergravity",)}
_MAX_LETTERS = 6


def _initialisms(surface: str) -> set[str]:
    """The tokens of a keyphrase as written that may abbreviate a run of words, lower-cased.

    >>> sorted(_initialisms("holographic RG-flows of AdS space")), sorted(_initialisms("Neural Networks"))
    (['ads', 'rg'], [])
    >>> sorted(_initialisms("deformed pB operators")), sorted(_initialisms("iPhone apps"))
    (['pb'], ['iphone'])
    """
    return {t.lower() for t in _INITIALISM.findall(surface) if len(t) <= _MAX_LETTERS}


def _spelled(key: Sequence[str], token: str, other: Sequence[str]) -> list[tuple[str, ...]]:
    """``key``'s words with ``token`` replaced by each run of ``other``'s words it is the initials of."""
    n, out = len(token), []
    for i, word in enumerate(key):
        if word != token:
            continue
        for j in range(len(other) - n + 1):
            run = other[j:j + n]
            if "".join(w[0] for w in run) == token and token not in run:
                out.append((*key[:i], *run, *key[i + 1:]))
    return out


def _plain_word(token: str, head: bool) -> bool:
    """Whether ``token`` is an English word in the place it holds ("display ad": "ad" is the head)."""
    return head and word_class(token) is not None


def _spelled_out(words: list[str], initialisms: set[str], others: list[tuple[list[str], str]],
                 keys: Collection[str]) -> str | None:
    """The key ``words`` name with one of their ``initialisms`` spelled out by a run of the words of one of
    ``others`` (a key's words and their initials): that key, or another of the corpus's ``keys``."""
    for token in sorted(initialisms):
        if token not in words or _plain_word(token, words[-1] == token):
            continue
        for other, initials in others:
            if token in initials and other != words:
                for form in _spelled(words, token, other):
                    if list(form) == other or " ".join(form) in keys:
                        return " ".join(form)
    return None


def abbreviated_keys(rows: Mapping[str, Sequence[tuple[str, str]]], keys: Collection[str],
                     defined: Mapping[str, str] | None = None) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Keys that abbreviate a run of words of another key of the same paper -> the spelled-out key.

    ``rows`` maps each paper to its (key, keyphrase as written) pairs; ``keys`` is every key of the
    corpus. A key abbreviates when a token written as an initialism ("RG", "AdS") is the initials
    of a run of another key's words of that paper and, spelled out, the key is that other key
    ("RG flow" / "renormalization group flow") or another key of the corpus ("WZW model" beside
    "SU(2) Wess-Zumino-Witten model" is the "Wess-Zumino-Witten model" other papers have). An
    initialism that is an English word where it stands is none ("display ad" / "ad delivery").
    ``defined`` (acronym in lower case -> key of its long form: those the corpus defines
    consistently) spells out a key of two words or more, written in any case, where the corpus
    has the spelled-out key ("tf normalization" / "term frequency normalization"), and so do the
    shortenings of :data:`_SHORTENINGS` ("N=1 SUSY gauge theory" / "N=1 supersymmetric gauge theory").

    Returns
    -------
    everywhere : dict
        Keys of two words or more -> the key they spell out in the papers that hold both, by most
        papers: the same words in every paper ("RG flow" is the renormalization group flow even
        where a paper has only "RG flow").
    per_paper : dict
        Paper id -> key -> spelled-out key, for the single-token keys ("DFS" is the "dataset file
        system" only in the paper that writes both).

    Examples
    --------
    >>> rows = {"p1": [("renormalization group flow", "renormalization group flows"), ("rg flow", "RG flow")],
    ...         "p2": [("rg flow", "RG flow"), ("ads space", "AdS space")],
    ...         "p3": [("dfs", "DFS"), ("dataset file system", "dataset file system")],
    ...         "p4": [("display ad", "display AD"), ("ad delivery", "ad delivery")]}
    >>> keys = {"renormalization group flow", "rg flow", "ads space", "dfs", "dataset file system", "display ad",
    ...         "ad delivery", "tf normalization", "term frequency normalization", "owl el"}
    >>> abbreviated_keys(rows, keys)
    ({'rg flow': 'renormalization group flow'}, {'p3': {'dfs': 'dataset file system'}})
    >>> abbreviated_keys({}, keys | {"susy breaking", "supersymmetry breaking"},
    ...                  defined={"tf": "term frequency", "el": "entity linking"})[0]
    {'susy breaking': 'supersymmetry breaking', 'tf normalization': 'term frequency normalization'}
    """
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    per_paper: dict[str, dict[str, str]] = {}
    for pid, found in rows.items():
        tokens: dict[str, set[str]] = {}
        for key, surface in found:
            initialisms = _initialisms(surface)
            if initialisms:
                tokens.setdefault(key, set()).update(initialisms)
        if not tokens:
            continue
        others = [(words, "".join(w[0] for w in words)) for words in map(str.split, dict.fromkeys(k for k, _ in found))]
        for key, initialisms in tokens.items():
            spelled = _spelled_out(key.split(), initialisms, others, keys)
            if spelled is None:
                continue
            if " " in key:
                votes[key][spelled] += 1
            else:
                per_paper.setdefault(pid, {})[key] = spelled
    everywhere = {key: min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0] for key, forms in votes.items()}
    defined = defined or {}
    for key in sorted(keys):
        words = key.split()
        if len(words) < 2 or key in everywhere:
            continue
        for i, word in enumerate(words):
            long_forms = (defined[word],) if word in defined else _SHORTENINGS.get(word, ())
            if not long_forms or _plain_word(word, i == len(words) - 1):
                continue
            forms = (" ".join([*words[:i], long_form, *words[i + 1:]]) for long_form in long_forms)
            spelled = next((form for form in forms if form in keys), None)
            if spelled:
                everywhere[key] = spelled
                break
    return everywhere, per_paper
