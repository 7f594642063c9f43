"""Links by containment: a paper whose text holds a corpus concept inside a longer noun phrase
("denoising diffusion model", "video diffusion model") links to it; linear in the corpus."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import lru_cache

from kg.extract.candidates import GENERIC_MODIFIERS, PARTICLES, STOP_WORDS, manner_adverb, word_class
from kg.extract.multiword import join_terms, joinable_terms
from kg.models import Keyphrase, Paper
from kg.normalize.keys import _COUNTED, _DROP, _SEPARATORS, fold_accents, singularize

__all__ = []

_MIN_CONTAIN_DF = 4  # in small corpora, a concept in this many papers may still link by containment
_CHUNK_BREAK = re.compile(r"[.,;:!?()\[\]{}\"“”‘’$|]+|\s[-‐‑‒–—]+\s|\s'|'\s")
_CLOSED = re.compile(r"[)\]}$]\s*$")  # a break that ends a symbol: "SL(2,R)", "$Z_2$"
# Adjectives of a relation that take the word before them: "Lorentz covariant gauge", "$SL(2,R)$ invariant effective
# action" hold no "covariant gauge", no "invariant effective action" (a title's "Invariant Effective Actions" linked 5
# more hep-th papers that way); "the covariant gauge" does
_BOUND_LEFT = frozenset("invariant covariant preserving violating conserving".split())


def _text_keys(text: str, wanted: frozenset[str] | set[str], heads: frozenset[str] | set[str],
               max_modifiers: int = 4) -> dict[str, str]:
    """Concept keys in ``wanted`` that ``text`` contains -> the words that contain them.

    The text is cut into runs at punctuation and stop words (a cheap noun-phrase
    approximation, no tagging); a key is found in a run when its last word ends at a run
    word (singular) and its other words are the words right before it, among the
    ``max_modifiers`` words before it. A key never skips a word: "diffusion probabilistic model"
    holds no "diffusion model" (skipping one, reviewers judged 40% of 98 such links good against
    76% of a paper's own concepts: "Dirac [determinant] bundle", "stochastic [Burgers] equation").

    Examples
    --------
    >>> _text_keys("We train a video diffusion model on crystals.", {"diffusion model"}, {"model"})
    {'diffusion model': 'diffusion model'}
    >>> _text_keys("We train a diffusion probabilistic model on crystals.", {"diffusion model"}, {"model"})
    {}
    >>> _text_keys("We handle out-of-vocabulary words.", {"vocabulary word"}, {"word"})
    {}
    >>> _text_keys("Supergravity in six dimensions.", {"six dimension"}, {"dimension"})
    {}
    >>> _text_keys("A static 1/2-supersymmetric brane.", {"1 2 supersymmetric brane"}, {"brane"})
    {'1 2 supersymmetric brane': '1/2-supersymmetric brane'}
    >>> _text_keys("In the covariant gauge; a Lorentz covariant gauge; an $SL(2,R)$ invariant effective action.",
    ...            {"covariant gauge", "invariant effective action"}, {"gauge", "action"})
    {'covariant gauge': 'covariant gauge'}
    """
    found: dict[str, str] = {}
    pieces = re.split(f"({_CHUNK_BREAK.pattern})", unicodedata.normalize("NFKC", text))
    for at in range(0, len(pieces), 2):
        chunk, after_symbol = pieces[at], at > 0 and _CLOSED.search(pieces[at - 1]) is not None
        run: list[tuple[str, str, str, str]] = []
        joined: list[bool] = []  # whether a run word is glued to the one before it ("gradient-free")
        headed = False  # whether a run word after the first is the head word of a key
        for token in chunk.split() + [""]:
            parts = _parts(token)
            if len(parts) > 1 and any(word in STOP_WORDS for _, word, _, _ in parts):
                parts = (("", "", "", ""),)  # "out-of-vocabulary", "state-of-the-art": one word, no key starts inside
            for k, (raw, word, singular, glue) in enumerate(parts):
                if word and word not in STOP_WORDS:
                    headed = headed or (bool(run) and singular in heads)
                    # a relation's adjective after a word or a symbol is that word's: no key starts on it; nor on
                    # a name after its particle or a word an adverb qualifies
                    joined.append(k > 0 or (word in _BOUND_LEFT and (bool(run) or after_symbol))
                                  or (bool(run) and _binds_next(run[-1][1])))
                    run.append((word, raw, singular, glue))
                    continue
                if headed:
                    _match_run(run, joined, wanted, heads, max_modifiers, found)
                run, joined, headed = [], [], False
    return found


def _binds_next(raw: str) -> bool:
    """Whether a word, as written, belongs with the word after it: a name's particle ("de Sitter space-times" holds
    no "Sitter space-time") or an adverb made from an adjective ("axially symmetric monopoles" no "symmetric
    monopole", a fragment reviewers judged ungrammatical).

    Examples
    --------
    >>> [_binds_next(w) for w in ["de", "axially", "spherically", "family", "early", "Italy", "model"]]
    [True, True, True, False, False, False, False]
    """
    return raw.lower() in PARTICLES or manner_adverb(raw)


_SPLIT = re.compile(f"({_SEPARATORS.pattern})")


@lru_cache(maxsize=1 << 18)
def _parts(token: str) -> tuple[tuple[str, str, str, str], ...]:
    """A token's words (split at hyphens and slashes) as ``(raw, folded, singular, glue)``, ``glue``
    being what joins the word to the next one as written (the separator inside the token, else a
    space): tokens repeat.

    Examples
    --------
    >>> [(raw, glue) for raw, _, _, glue in _parts("1/2-supersymmetric")]
    [('1', '/'), ('2', '-'), ('supersymmetric', ' ')]
    """
    pieces = _SPLIT.split(token)
    parts = [(raw, pieces[i + 1] if i + 2 < len(pieces) and pieces[i + 2] else " ")
             for i, raw in enumerate(pieces) if i % 2 == 0 and raw] or [("", " ")]
    folded = [(raw, fold_accents(_DROP.sub("", raw).casefold()).strip("."), glue) for raw, glue in parts]
    return tuple((raw, word, singularize(word), glue) for raw, word, glue in folded)


def _match_run(run: list[tuple[str, str, str, str]], joined: list[bool], wanted, heads, max_modifiers: int,
               found: dict[str, str]) -> None:
    """Add to ``found`` the keys of ``wanted`` that one stop-word-free run of words contains.

    A key is the words right before its head, and never starts inside a hyphenated word
    ("gradient-free oracle" contains no "gradient oracle"). Its head ends the noun phrase: the run
    word after it is not a noun ("diffusion models outperform", not "open source document viewer"
    for "source document").
    """
    for j in range(1, len(run)):
        if j + 1 < len(run) and _nounish(run[j + 1][0]):
            continue  # a modifier of a longer name: no "source document" in "open source document viewer"
        head = run[j][2]
        starts = heads.get(head) if isinstance(heads, Mapping) else (None if head not in heads else ())
        if starts is None:
            continue
        for start in range(max(0, j - max_modifiers), j):  # the key's words: run[start:j] and the head
            if joined[start] or (starts and run[start][0] not in starts):
                continue
            words = [w for w, _, _, _ in run[start:j]]
            key = " ".join(words + [head])
            if key in wanted and key not in found and not (
                    head != run[j][0] and _COUNTED.search(" ".join(words + [run[j][0]]))):  # "six dimensions" are six
                found[key] = "".join(r + g for _, r, _, g in run[start:j]) + run[j][1]


def _nounish(word: str) -> bool:
    """A word the lexicon knows as a noun, or does not know (technical words, names)."""
    found = word_class(word)
    return found is None or found.startswith("NN")


# A key that starts with one of these names an amount or a quality, no topic ("large amount",
# "high quality", "real time", "experimental results"): it links no paper by containment.
_QUANTIFIERS = frozenset("""large small high low real experimental many few good better best short
    wide broad huge big tiny first second third single multiple several""".split())


def _containable(key: str) -> bool:
    """A multi-word key that may link papers by containment: it ends on a noun (or a nominal
    gerund, or a word the lexicon lacks) and starts with no quantifier or generic modifier.

    Examples
    --------
    >>> [_containable(k) for k in ["diffusion model", "content based", "high quality", "information seeking",
    ...                            "string theory compactified", "kahler manifold"]]
    [True, False, False, True, False, True]
    """
    words = key.split()
    if words[0] in _QUANTIFIERS or words[0] in GENERIC_MODIFIERS:
        return False
    head = word_class(words[-1]) or word_class(singularize(words[-1]))
    if head is None:  # a word the lexicon lacks, unless a participle: "string theory compactified [on K3]"
        return not (len(words[-1]) > 4 and words[-1].endswith("ed"))
    return head.startswith("NN") or head == "VBG"


def _contained_keys(papers: list[Paper], keyed: Mapping[str, list[tuple[str, Keyphrase]]],
                    primary: Mapping[str, set[str]], *, max_df: float,
                    per_paper: int = 5) -> dict[str, dict[str, str]]:
    """Paper id -> multi-word concept keys it links to by containment -> the words it has.

    The keys are the multi-word ones among all papers' keyphrases (at extraction depth).
    A paper's text (title and abstract) that contains such a key (:func:`_text_keys`)
    links the paper to it when another paper has the key among its keyphrases and
    the key is specific: at most ``max_df`` papers hold or contain it. A key nobody has
    in their first ``top_n`` becomes a concept this way when two papers or more meet on it
    (one holds it, another contains it). Work is linear in the corpus: one pass over
    each text, a few set lookups per word. A paper links to at most ``per_paper`` keys it
    does not hold itself, the most specific (in the fewest papers) first. A term the corpus
    hyphenates is one word where a text writes it with spaces too (:mod:`kg.extract.multiword`):
    "learning to rank algorithms" holds no "rank algorithm", "quality of service" no "service".
    """
    holders: dict[str, set[str]] = defaultdict(set)
    for pid, rows in keyed.items():
        for key, _ in rows:
            if " " in key and _containable(key):
                holders[key].add(pid)
    wanted = frozenset(holders)
    heads: dict[str, set[str]] = defaultdict(set)  # head word -> the first words of its keys
    for key in wanted:
        heads[key.rsplit(" ", 1)[1]].add(key.split(" ", 1)[0])
    texts = {paper.id: paper.abstract if paper.title_derived else f"{paper.title}. {paper.abstract}" for paper in papers}
    terms = joinable_terms(texts.values())
    found = {pid: _text_keys(join_terms(text, terms), wanted, heads) for pid, text in texts.items()}
    df: Counter[str] = Counter()
    for pid, keys in found.items():
        df.update(k for k in keys if pid not in holders[k])
    out: dict[str, dict[str, str]] = {}
    for pid, keys in found.items():
        eligible = [k for k in keys if holders[k] - {pid} and len(holders[k]) + df[k] <= max_df]
        others = sorted((k for k in eligible if pid not in holders[k]), key=lambda k: (len(holders[k]) + df[k], k))
        kept = {k: keys[k] for k in [k for k in eligible if pid in holders[k]] + others[:per_paper]}
        if kept:
            out[pid] = kept
    joined = Counter(k for pid, keys in out.items() for k in keys if pid not in holders[k])
    for key, pids in holders.items():  # a holder of a key that now joins papers links to it as well
        if joined[key] and not primary.get(key):
            for pid in pids:
                out.setdefault(pid, {}).setdefault(key, "")
    return out
