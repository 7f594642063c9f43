"""A field's own words: what so many of a corpus's papers write that it names no topic of the field.

Reviewers judge a field's umbrella generic: "brane" in hep-th, "Web" in ACM-CR, "search engine" and "retrieval model"
in an information-retrieval corpus, "gauge field" in a physics one; no word list knows a field's umbrella, but the
corpus does, by the share of its papers that write a word. Three shares decide: the papers whose keyphrases hold a
one-word key (:func:`bare_field_words`), those whose titles and abstracts write a one-word key's word or act
(:func:`everyday_words`), and those that write the first word of a two-word kind (:func:`core_kinds`). In a corpus
of fewer than :data:`_EVERYDAY_MIN_PAPERS` papers the texts' shares say little and count for nothing.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence

from kg.models import Keyphrase, Paper
from kg.normalize.keys import singularize
from kg.normalize.restatements import word_root

__all__ = ["bare_field_words", "everyday_words", "core_kinds", "NAMED_KIND"]

NAMED_KIND = 2  # a broad kind ("superconformal theory") is a name when this many papers define an acronym for it
_FIELD_SHARE = 0.05  # a one-word concept that more of the papers have is the field itself ("Web" in ACM)


def bare_field_words(found_keys: Mapping[str, list[tuple[str, Keyphrase]]]) -> set[str]:
    """One-word keys that more than :data:`_FIELD_SHARE` of the papers (and 10) have among their
    keyphrases, names included: a bare field word labels no part of a map."""
    df = Counter(key for rows in found_keys.values() for key in {key for key, _ in rows} if " " not in key)
    floor = max(10, _FIELD_SHARE * len(found_keys))
    return {key for key, n in df.items() if n > floor}


_EVERYDAY_SHARE = 0.05  # a one-word concept whose word more of the papers' texts write is the field's everyday word
# and an act's ("compactification", "summarization") from this share: of the labelled one-word -ation concepts over it
# reviewers judged 11% good (14 of 126 labels: "compactification" 7 of 48, "annotation" 0 of 10); under it
# "personalization" (1.4% of ACM-CR's papers; 18 of 46, and 31 papers' author keyword), "bosonization" (12 of 12),
# "transliteration", "foliation" are topics
_EVERYDAY_ACT_SHARE = 0.015
_EVERYDAY_ACT_ENDINGS = ("ation", "ition")
_EVERYDAY_MIN_PAPERS = 200  # in fewer papers a share says little of a word
_TEXT_WORDS = re.compile(r"[a-z]+")


def everyday_words(papers: Sequence[Paper], keys: Collection[str], names: Collection[str]) -> set[str]:
    """One-word keys, no names, whose word (or its plural) more than :data:`_EVERYDAY_SHARE` of the papers
    write in their title or abstract: a field's everyday words ("brane" in 16% of hep-th abstracts,
    "supersymmetry" 8%, "spacetime", "fermion", "quantization"; of 212 labelled hep-th concepts of the
    words over 5% both reviewers judged 38 good, of those under it "holography", "graviton", "monopole"
    are topics), and its everyday acts, -ation words more than :data:`_EVERYDAY_ACT_SHARE` write. Below
    :data:`_EVERYDAY_MIN_PAPERS` papers, none.

    Examples
    --------
    >>> papers = [Paper(f"p{i}", "Branes and fermions." if i < 20 else "Holography." if i < 25 else "Gravity.", "T")
    ...           for i in range(200)]
    >>> sorted(everyday_words(papers, {"brane", "fermion", "holography", "d brane"}, names=set()))
    ['brane', 'fermion']
    >>> papers = [Paper(f"p{i}", "Compactifications." if i < 4 else "Bosonization." if i < 5 else "Gravity.", "T")
    ...           for i in range(200)]
    >>> sorted(everyday_words(papers, {"compactification", "bosonization"}, names=set()))
    ['compactification']
    """
    if len(papers) < _EVERYDAY_MIN_PAPERS:
        return set()
    wanted = {key for key in keys if key.isalpha() and key not in names}
    df: Counter[str] = Counter()
    for paper in papers:
        words = set(_TEXT_WORDS.findall(f"{paper.title or ''} {paper.abstract or ''}".lower()))
        df.update({singularize(w) for w in words} & wanted)
    share = {key: _EVERYDAY_ACT_SHARE if key.endswith(_EVERYDAY_ACT_ENDINGS) else _EVERYDAY_SHARE for key in df}
    return {key for key, n in df.items() if n > share[key] * len(papers)}


_CORE_SHARE = 0.10  # a word more of the papers' texts write (as it is) is one of the field's core words
_TEXT_TERMS = re.compile(r"[a-z][a-z\-]+")  # words with their dashes: the "matrix" of "S-matrix" is no core word
# Heads a field's core word makes no kind of: of the labelled two-word concepts of these heads whose first word more
# than a tenth of the corpus writes, reviewers judged 13% good (ACM-CR 57 of 380 labels, hep-th 41 of 456, Inspec 12
# of 40; "search engine" 4 of 30, "recommendation model" 0 of 28, "gauge field" 1 of 34), against 70% of the other
# two-word concepts; under a tenth "topic model" (66 of 68) and "Yang-Mills theory" are kinds. Round forty-eight added
# the heads of a measure, a list, a unit, a state and a correction of the field's core word: their labelled concepts
# were 27% good (96 of 354 labels: "query term" 0 of 24, "evaluation measure" 4 of 16, "Web page" 3 of 26, "quantum
# state" 0 of 12, "quantum correction" 5 of 26, "supersymmetric configuration" 0 of 10, "user preference" 9 of 26)
_KIND_HEADS = frozenset("theory model system algorithm field transformation equation engine analysis collection "
                        "problem process tool solution performance term metric measure score list page document user "
                        "preference state configuration correction fluctuation".split())
_NAMED_SHARE = 0.02  # a field's core kind is a name when this share of its papers (and two) define an acronym for it


def core_kinds(papers: Sequence[Paper], df: Mapping[str, int], names: Collection[str],
               acronyms: Mapping[str, int]) -> set[str]:
    """Two-word keys that are one of the field's core words before a head of :data:`_KIND_HEADS`, the word written
    by more than :data:`_CORE_SHARE` of the papers: "search engine", "retrieval model", "document collection" in
    ACM-CR, "gauge field", "string model" in hep-th (not "translation model", "topic model"). Their variants go with
    them ("recommender model" of "recommendation model": a modifier of the same root, a head's gerund; not
    "superstring model" of "supersymmetric model"), unless a variant is the one more papers have and no core kind
    ("recommendation system" of "recommender system") or the field writes the gerund's act in a third as many papers
    ("user model" of "user modeling": ACM-CR's 33 papers, 44 labels of 44 good). No names, no kind a share of its
    papers give an acronym (``acronyms``: papers that define one per key; "user interface (UI)"; not the 6 of 2,021
    ACM-CR papers that wrote "search engines (SE)"), none of fewer than :data:`_EVERYDAY_MIN_PAPERS` papers. ``df``
    counts each key's papers.

    Examples
    --------
    >>> papers = [Paper(f"p{i}", "Gauge theories of a gauge field." if i < 30 else "Topic models." if i < 35
    ...                 else "Gravity and topics.", "T") for i in range(200)]
    >>> sorted(core_kinds(papers, {"gauge field": 30, "gauge fielding": 1, "gauge coupling": 5, "topic model": 5,
    ...                            "lie algebra": 3, "gauge system": 2, "gauge model": 9, "gauge modeling": 3},
    ...                   names={"lie"}, acronyms={"gauge system": 2}))
    ['gauge field', 'gauge fielding']
    """
    if len(papers) < _EVERYDAY_MIN_PAPERS:
        return set()
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for key in df:
        first, _, head = key.partition(" ")
        root = next((head[:-len(end)] for end in ("ling", "ing") if head.endswith(end)
                     and head[:-len(end)] in _KIND_HEADS), head)  # "modelling", "modeling"
        if first.isalpha() and " " not in head and root in _KIND_HEADS and first not in names:
            groups[(word_root(first), root)].append(key)
    leaders = {max(keys, key=lambda k: (df[k], k)): keys for keys in groups.values()}
    wanted = {leader.partition(" ")[0] for leader in leaders}
    written: Counter[str] = Counter()
    for paper in papers:
        written.update(set(_TEXT_TERMS.findall(f"{paper.title or ''} {paper.abstract or ''}".lower())) & wanted)
    floor = _CORE_SHARE * len(papers)

    def core(leader: str, keys: list[str]) -> bool:
        first, _, head = leader.partition(" ")
        gerunds = max((df[k] for k in keys if k.endswith("ing")), default=0)
        return (head in _KIND_HEADS and written[first] > floor and 3 * gerunds < df[leader]
                and acronyms.get(leader, 0) < max(NAMED_KIND, _NAMED_SHARE * df[leader]))

    return {key for leader, keys in leaders.items() if core(leader, keys) for key in keys}
