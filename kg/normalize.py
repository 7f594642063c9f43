"""Turn extracted keyphrases into shared concepts.

A concept is identified by a canonical key: NFKC, case-folded, hyphens, slashes and
underscores as spaces, other punctuation dropped, the head noun (last word) in the
singular. Acronyms defined in the text as ``long form (ACRONYM)`` are expanded to
their long form, so "Rotary Position Embeddings (RoPE)", "RoPE" and "rotary position
embedding" all become the concept ``c:rotary position embedding`` with those surface
forms as aliases. Phrases whose key is in the generic stoplist
(``kg/resources/generic_phrases.txt``) are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources

from kg.models import Concept, Keyphrase, Mention, Paper

__all__ = [
    "concept_key",
    "singularize",
    "find_acronyms",
    "normalize_concepts",
    "generic_phrases",
    "CONCEPT_PREFIX",
]

CONCEPT_PREFIX = "c:"

_SEPARATORS = re.compile(r"[\-‐‑‒–—_/]+")
_DROP = re.compile(r"[^\w\s+#.]")
_WS = re.compile(r"\s+")

_INVARIANT = frozenset(
    """analysis basis bias class corpus data gas gaussian lens less loss mass news process
    series species status success thesis this us virus various bus axis chaos""".split()
)
_IRREGULAR = {
    "indices": "index", "matrices": "matrix", "vertices": "vertex", "criteria": "criterion",
    "phenomena": "phenomenon", "analyses": "analysis", "hypotheses": "hypothesis",
    "theses": "thesis", "bases": "basis", "axes": "axis", "children": "child", "people": "person",
    "men": "man", "women": "woman", "mice": "mouse", "leaves": "leaf", "halves": "half",
    "lives": "life", "knives": "knife", "shelves": "shelf", "appendices": "appendix",
    "diagnoses": "diagnosis", "syntheses": "synthesis", "taxa": "taxon", "stimuli": "stimulus",
    "radii": "radius", "nuclei": "nucleus", "foci": "focus", "loci": "locus",
}


@lru_cache(maxsize=65536)
def singularize(word: str) -> str:
    """The singular of an English plural noun (lowercase in, lowercase out).

    Examples
    --------
    >>> [singularize(w) for w in ["embeddings", "strategies", "processes", "bias", "gans"]]
    ['embedding', 'strategy', 'process', 'bias', 'gan']
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or word in _INVARIANT or not word.isalpha():
        return word
    if word.endswith(("ss", "us", "is", "ics")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


@lru_cache(maxsize=262144)
def concept_key(phrase: str) -> str:
    """The canonical key of a phrase: the identity of the concept it names.

    Examples
    --------
    >>> concept_key("Rotary Position-Embeddings")
    'rotary position embedding'
    >>> concept_key("LLMs")
    'llm'
    """
    text = unicodedata.normalize("NFKC", phrase)
    text = _SEPARATORS.sub(" ", text)
    text = _DROP.sub(" ", text)
    words = _WS.sub(" ", text).strip().split(" ")
    if not words or words == [""]:
        return ""
    last = words[-1]
    if len(last) > 2 and last.endswith("s") and last[:-1].isupper():  # GANs, LLMs
        words[-1] = last[:-1]
    words = [w.casefold().strip(".") for w in words]
    words = [w for w in words if w]
    if not words:
        return ""
    words[-1] = singularize(words[-1])
    return " ".join(words)


@lru_cache(maxsize=1)
def generic_phrases() -> frozenset[str]:
    """Concept keys that carry no topic, from ``kg/resources/generic_phrases.txt``."""
    text = resources.files("kg").joinpath("resources/generic_phrases.txt").read_text("utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(concept_key(line) for line in lines if line)


# --- acronyms (Schwartz & Hearst 2003) ---------------------------------------------

_DEFINITION = re.compile(r"\(\s*([A-Za-z][\w\-]{1,14})\s*\)")
_WORD = re.compile(r"[\w][\w\-']*")


def _is_acronym(token: str) -> bool:
    caps = sum(ch.isupper() for ch in token)
    return caps >= 2 and caps >= len(token) // 2 and token[0].isalpha()


def _long_form(acronym: str, before: str) -> str | None:
    """Schwartz–Hearst: the shortest tail of ``before`` whose letters spell ``acronym``."""
    words = _WORD.findall(before)[-min(len(acronym) + 5, 2 * len(acronym)):]
    if not words:
        return None
    candidate = " ".join(words)
    letters = [ch.lower() for ch in acronym if ch.isalnum()]
    s, l = len(letters) - 1, len(candidate) - 1
    while s >= 0:
        ch = letters[s]
        while l >= 0 and (
            candidate[l].lower() != ch or (s == 0 and l > 0 and candidate[l - 1].isalnum())
        ):
            l -= 1
        if l < 0:
            return None
        s -= 1
        l -= 1
    start = candidate.rfind(" ", 0, l + 1) + 1
    long_form = candidate[start:].strip()
    n_words = len(long_form.split())
    if n_words < 2 and len(letters) > 2 or n_words > len(letters) + 2:
        return None
    if long_form.lower().startswith(("the ", "a ", "an ", "and ", "of ", "for ")):
        long_form = long_form.split(" ", 1)[1]
    return long_form


def find_acronyms(text: str) -> dict[str, str]:
    """Acronyms defined in ``text`` as ``long form (ACRONYM)`` -> their long form.

    Examples
    --------
    >>> find_acronyms("We extend Rotary Position Embeddings (RoPE) to long contexts.")
    {'RoPE': 'Rotary Position Embeddings'}
    """
    found: dict[str, str] = {}
    for match in _DEFINITION.finditer(text):
        acronym = match.group(1)
        if not _is_acronym(acronym) or acronym in found:
            continue
        sentence_start = max(text.rfind(". ", 0, match.start()), text.rfind("(", 0, match.start() - 1))
        before = text[sentence_start + 1 : match.start()]
        long_form = _long_form(acronym, before)
        if long_form:
            found[acronym] = long_form
    return found


# --- keyphrases -> concepts -----------------------------------------------------------


def _expand(surface: str, acronyms: Mapping[str, str]) -> str:
    """Replace acronym tokens in ``surface`` by their long forms."""
    tokens = surface.split()
    if len(tokens) == 1:
        for acronym, long_form in acronyms.items():
            if surface.casefold() in (acronym.casefold(), acronym.casefold() + "s") and len(acronym) > 2:
                return long_form
            if surface in (acronym, acronym + "s"):
                return long_form
        return surface
    return " ".join(acronyms.get(t, acronyms.get(t[:-1], t) if t.endswith("s") else t) for t in tokens)


def _display_name(key: str, surfaces: Counter[str], acronym: str | None) -> str:
    name = key
    for surface, _ in sorted(surfaces.items(), key=lambda kv: (-kv[1], kv[0])):
        if concept_key(surface) == key and any(ch.isupper() for ch in surface[1:]) and len(surface.split()) == 1:
            name = surface  # keep the casing of names such as LLaMA or BERT
            break
    return f"{name} ({acronym})" if acronym and acronym.casefold() != name.casefold() else name


def normalize_concepts(
    papers: Iterable[Paper],
    keyphrases: Mapping[str, list[Keyphrase]],
    *,
    stoplist: Iterable[str] | None = None,
) -> tuple[dict[str, Concept], list[Mention]]:
    """Merge every paper's keyphrases into shared concepts.

    Parameters
    ----------
    papers : iterable of Paper
        The corpus (abstracts and titles are scanned for acronym definitions).
    keyphrases : dict
        Paper id -> keyphrases in rank order, as extraction returns them.
    stoplist : iterable of str, optional
        Generic phrases to drop; default :func:`generic_phrases`.

    Returns
    -------
    concepts : dict
        Concept id -> :class:`~kg.models.Concept`, sorted by id.
    mentions : list of Mention
        One per (paper, concept), ranked 1.. within each paper by score.
    """
    stop = {concept_key(s) for s in stoplist} if stoplist is not None else generic_phrases()
    papers = list(papers)
    local: dict[str, dict[str, str]] = {}
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for paper in papers:
        found = find_acronyms(f"{paper.title}. {paper.abstract}")
        local[paper.id] = found
        for acronym, long_form in found.items():
            votes[acronym][long_form] += 1
    corpus_acronyms = {a: c.most_common(1)[0][0] for a, c in sorted(votes.items())}
    acronym_of = {concept_key(lf): a for a, lf in sorted(corpus_acronyms.items(), reverse=True)}

    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    best: dict[tuple[str, str], tuple[float, str]] = {}
    for paper in papers:
        acronyms = {**corpus_acronyms, **local[paper.id]}
        for phrase in keyphrases.get(paper.id, []):
            key = concept_key(_expand(phrase.phrase, acronyms))
            if not key or key in stop:
                continue
            cid = CONCEPT_PREFIX + key
            surfaces[cid][phrase.phrase] += 1
            previous = best.get((paper.id, cid))
            if previous is None or phrase.score > previous[0]:
                best[(paper.id, cid)] = (phrase.score, phrase.phrase)

    concepts: dict[str, Concept] = {}
    for cid in sorted(surfaces):
        key = cid[len(CONCEPT_PREFIX):]
        acronym = acronym_of.get(key)
        aliases = set(surfaces[cid])
        if acronym:
            aliases.add(acronym)
        concepts[cid] = Concept(cid, _display_name(key, surfaces[cid], acronym), tuple(sorted(aliases)))

    by_paper: dict[str, list[tuple[float, str, str]]] = defaultdict(list)
    for (pid, cid), (score, surface) in best.items():
        by_paper[pid].append((score, cid, surface))
    mentions: list[Mention] = []
    for paper in papers:
        ranked = sorted(by_paper.get(paper.id, []), key=lambda t: (-t[0], t[1]))
        for rank, (score, cid, surface) in enumerate(ranked, start=1):
            mentions.append(Mention(paper.id, cid, round(score, 4), rank, surface))
    return concepts, mentions
