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

import numpy as np

from kg.extract.candidates import word_class
from kg.models import Concept, Keyphrase, Mention, Paper

__all__ = [
    "concept_key",
    "singularize",
    "find_acronyms",
    "normalize_concepts",
    "near_synonyms",
    "thesaurus_text",
    "MERGE_THRESHOLD",
    "generic_phrases",
    "CONCEPT_PREFIX",
]

CONCEPT_PREFIX = "c:"
# Cosine at or above which two concepts are near-synonyms (see near_synonyms).
# all-MiniLM-L6-v2 puts real variants at 0.89-0.97 ("recommender system" / "recommendation
# system" 0.89) but unrelated pairs can reach 0.92, so the guards in _needed matter more.
MERGE_THRESHOLD = 0.85

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
_ROMAN = re.compile(r"[IVXL]+")  # "(I) … (II) …" enumerates


def _is_acronym(token: str) -> bool:
    caps = sum(ch.isupper() for ch in token)
    return caps >= 2 and caps >= len(token) // 2 and token[0].isalpha()


def _long_form(acronym: str, before: str) -> str | None:
    """Schwartz–Hearst: the shortest tail of ``before`` whose letters spell ``acronym``."""
    words = _WORD.findall(before)[-min(len(acronym) + 5, 2 * len(acronym)):]
    if not words:
        return None
    candidate = " ".join(words)
    if len(acronym) > 2 and acronym.endswith("s") and acronym[:-1].isupper():
        acronym = acronym[:-1]  # LLMs: spell "LLM" ("large language models")
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
    if n_words < 2 or n_words > len(letters) + 2:  # "information (II)" is no definition
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
        if not _is_acronym(acronym) or _ROMAN.fullmatch(acronym) or acronym in found:
            continue
        sentence_start = max(text.rfind(". ", 0, match.start()), text.rfind("(", 0, match.start() - 1))
        before = text[sentence_start + 1 : match.start()]
        long_form = _long_form(acronym, before)
        if long_form:
            found[acronym] = long_form
    return found


# --- keyphrases -> concepts -----------------------------------------------------------


class _Acronyms:
    """Acronym -> long form lookups, scoped to the paper that defines an acronym.

    In the defining paper (``local``) the definition holds for the acronym, its plural
    and (for acronyms of 3+ letters) a differently cased token that is not all lower
    case ("ROPE" for "RoPE"). Elsewhere (``corpus``, only the acronyms the corpus
    defines consistently, see :func:`_corpus_acronyms`) only the exact token or its
    plural expands: an ordinary lower-case word ("tags", "apps", "ads") never does.
    """

    def __init__(self, corpus: Mapping[str, str], local: Mapping[str, str] | None = None):
        self.corpus = dict(corpus)
        self.local = dict(local or {})
        self._folded = {a.casefold(): f for a, f in self.local.items() if len(a) > 2}

    def for_paper(self, local: Mapping[str, str]) -> "_Acronyms":
        view = _Acronyms.__new__(_Acronyms)
        view.corpus, view.local = self.corpus, dict(local)
        view._folded = {a.casefold(): f for a, f in view.local.items() if len(a) > 2}
        return view

    def lookup(self, token: str, *, folded: bool = False) -> str | None:
        forms = (token, token[:-1]) if token.endswith("s") and len(token) > 2 else (token,)
        for form in forms:
            found = self.local.get(form) or self.corpus.get(form)
            if found:
                return found
        if folded and not token.islower():
            for form in forms:
                found = self._folded.get(form.casefold())
                if found:
                    return found
        return None


def _expand(surface: str, acronyms: _Acronyms) -> str:
    """Replace acronym tokens in ``surface`` by their long forms."""
    tokens = surface.split()
    if len(tokens) == 1:
        return acronyms.lookup(surface, folded=True) or surface
    return " ".join(acronyms.lookup(t) or t for t in tokens)


def _corpus_acronyms(votes: Mapping[str, Counter[str]], definers: Mapping[str, int]) -> dict[str, str]:
    """The acronyms that may expand outside the papers that define them -> their long form.

    An acronym qualifies when the corpus defines it consistently: one long form (by
    concept key) has at least two thirds of its definitions. An all-caps acronym that is
    also an ordinary word ("APP", "TAG", "ADS", which other papers write for apps, tags
    and ads) must in addition be defined by two papers or more.

    Examples
    --------
    >>> votes = {"RoPE": Counter({"Rotary Position Embedding": 1}),
    ...          "TAG": Counter({"Temporally-Annotated Graph": 1, "topic-agnostic": 1}),
    ...          "APP": Counter({"Affinity Poisson Process model": 1})}
    >>> _corpus_acronyms(votes, {"RoPE": 1, "TAG": 2, "APP": 1})
    {'RoPE': 'Rotary Position Embedding'}
    """
    out: dict[str, str] = {}
    for acronym, forms in sorted(votes.items()):
        by_key: Counter[str] = Counter()
        for form, n in forms.items():
            by_key[concept_key(form)] += n
        key, n = min(by_key.items(), key=lambda kv: (-kv[1], kv[0]))
        if 3 * n < 2 * sum(by_key.values()):
            continue
        if acronym.isupper() and _common_word(acronym.lower()) and definers.get(acronym, 0) < 2:
            continue
        out[acronym] = min((f for f in forms if concept_key(f) == key), key=lambda f: (-forms[f], f))
    return out


def _common_word(word: str) -> bool:
    """An ordinary English word (the tagger's lexicon knows it, not as a proper noun)."""
    for form in (word, singularize(word)):
        found = word_class(form)
        if found:
            return not found.startswith("NNP")
    return False


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


def normalize_concepts(
    papers: Iterable[Paper],
    keyphrases: Mapping[str, list[Keyphrase]],
    *,
    stoplist: Iterable[str] | None = None,
    thesaurus: Mapping[str, str] | None = None,
    embedder=None,
    vectors: Mapping[str, np.ndarray] | None = None,
    merge_threshold: float = MERGE_THRESHOLD,
    top_n: int | None = None,
    contain: bool = True,
    contain_df: float = 0.05,
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
    thesaurus : dict, optional
        Label -> replacement, as :func:`kg.ingest.thesaurus.load_thesaurus` reads it.
        Labels and replacements are compared by concept key; an empty replacement
        drops the term. The thesaurus wins over every automatic rule.
    embedder : Embedder, optional
        When given, concepts whose names embed within ``merge_threshold`` cosine are
        merged (see :func:`near_synonyms`).
    vectors : mapping, optional
        Phrase -> vector already computed (extraction's); the embedder runs only for
        the concept names it lacks.
    merge_threshold : float
        Cosine similarity at or above which two concepts count as near-synonyms.
    top_n : int, optional
        When given, each paper's first ``top_n`` (non-generic) keyphrases are its
        concepts, and a keyphrase further down its list is kept only when it names a
        concept that another paper has in its first ``top_n``: a paper links to the
        corpus's concepts it really mentions, without adding concepts nobody else has.
    contain : bool
        With ``top_n``, a paper also links to a multi-word concept that its text contains
        inside a longer noun phrase ("denoising diffusion probabilistic model" contains
        "diffusion model"), when another paper has that concept among its keyphrases
        (see :func:`_contained_keys`). Such links rank after the paper's own concepts.
    contain_df : float
        Concepts that the texts of more than this share of the papers (and more than
        ``_MIN_CONTAIN_DF`` papers) contain are too generic to be linked by containment.

    Returns
    -------
    concepts : dict
        Concept id -> :class:`~kg.models.Concept`, sorted by id.
    mentions : list of Mention
        One per (paper, concept), ranked 1.. within each paper by score.
    """
    stop = {concept_key(s) for s in stoplist} if stoplist is not None else generic_phrases()
    replace = {concept_key(label): (concept_key(new) if new.strip() else None, new.strip())
               for label, new in (thesaurus or {}).items() if concept_key(label)}
    papers = list(papers)
    local: dict[str, dict[str, str]] = {}
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    definers: Counter[str] = Counter()
    for paper in papers:
        found = find_acronyms(f"{paper.title}. {paper.abstract}")
        local[paper.id] = found
        for acronym, long_form in found.items():
            votes[acronym][long_form] += 1
            definers[acronym] += 1
    table = _Acronyms(_corpus_acronyms(votes, definers))
    # The acronym shown with a concept: the one defined most often for its long form.
    acronym_votes: dict[str, Counter[str]] = defaultdict(Counter)
    for acronym, long_forms in votes.items():
        for long_form, n in long_forms.items():
            acronym_votes[concept_key(long_form)][acronym] += n
    acronym_of = {key: min(c.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0]
                  for key, c in acronym_votes.items()}

    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    preferred: dict[str, str] = {}  # key -> display name the thesaurus asks for
    best: dict[tuple[str, str], tuple[float, str]] = {}
    keyed: dict[str, list[tuple[str, Keyphrase]]] = {}
    primary: dict[str, set[str]] = defaultdict(set)  # concept key -> papers with it in their top_n
    for paper in papers:
        acronyms = table.for_paper(local[paper.id])
        rows = keyed[paper.id] = []
        for phrase in keyphrases.get(paper.id, []):
            key = _key_of(phrase.phrase, acronyms, replace, preferred)
            if key and key not in stop:
                if top_n is None or len({k for k, _ in rows}) < top_n or key in {k for k, _ in rows}:
                    primary[key].add(paper.id)
                rows.append((key, phrase))
    contained: dict[str, dict[str, str]] = {}  # paper id -> concept key -> the words its text has
    if top_n is not None and contain:
        contained = _contained_keys(papers, keyed, primary, max_df=max(_MIN_CONTAIN_DF, contain_df * len(papers)),
                                    per_paper=max(1, top_n // 2))
    for paper in papers:
        for key, phrase in keyed[paper.id]:
            if not primary[key] - {paper.id} and paper.id not in primary[key] and not (
                    key in contained.get(paper.id, ())):
                continue
            surfaces[key][phrase.phrase] += 1
            previous = best.get((paper.id, key))
            if previous is None or phrase.score > previous[0]:
                best[(paper.id, key)] = (phrase.score, phrase.phrase)
    if contained:  # links by containment rank after the paper's own concepts
        lowest: dict[str, float] = {}
        for (pid, _), (score, _) in best.items():
            lowest[pid] = min(score, lowest.get(pid, score))
        for pid, found in contained.items():
            for key, words in sorted(found.items()):
                if (pid, key) not in best:
                    surfaces[key]  # noqa: B018 - the concept exists even if only containment links it
                    best[(pid, key)] = (round(0.9 * lowest.get(pid, 0.0), 4), words)

    if embedder is not None and surfaces:
        df = Counter(key for _, key in best)
        pinned = set(preferred)
        merged = near_synonyms({k: _probe(k, surfaces[k]) for k in surfaces}, df, embedder, vectors=vectors,
                               threshold=merge_threshold, pinned=pinned)
        if merged:
            surfaces, best = _apply_merges(merged, surfaces, best)

    concepts: dict[str, Concept] = {}
    for key in sorted(surfaces):
        cid = CONCEPT_PREFIX + key
        acronym = acronym_of.get(key)
        aliases = set(surfaces[key])
        if acronym:
            aliases.add(acronym)
        name = preferred.get(key) or _display_name(key, surfaces[key], acronym)
        concepts[cid] = Concept(cid, name, tuple(sorted(aliases)))

    by_paper: dict[str, list[tuple[float, str, str]]] = defaultdict(list)
    for (pid, key), (score, surface) in best.items():
        by_paper[pid].append((score, CONCEPT_PREFIX + key, surface))
    mentions: list[Mention] = []
    for paper in papers:
        ranked = sorted(by_paper.get(paper.id, []), key=lambda t: (-t[0], t[1]))
        for rank, (score, cid, surface) in enumerate(ranked, start=1):
            mentions.append(Mention(paper.id, cid, round(score, 4), rank, surface))
    return concepts, mentions


# --- links by containment -----------------------------------------------------------------

_MIN_CONTAIN_DF = 4  # in small corpora, a concept in this many papers may still link by containment
_CHUNK_BREAK = re.compile(r"[.,;:!?()\[\]{}\"“”‘’$|]+|\s[-‐‑‒–—]+\s|\s'|'\s")


def _text_keys(text: str, wanted: frozenset[str] | set[str], heads: frozenset[str] | set[str],
               max_modifiers: int = 4) -> dict[str, str]:
    """Concept keys in ``wanted`` that ``text`` contains -> the words that contain them.

    The text is cut into runs at punctuation and stop words (a cheap noun-phrase
    approximation, no tagging); a key is found in a run when its last word ends at a run
    word (singular) and its other words precede it in order with at most one gap
    ("diffusion [probabilistic] model"), among the ``max_modifiers`` words before it.

    Examples
    --------
    >>> _text_keys("We train a diffusion probabilistic model on crystals.", {"diffusion model"}, {"model"})
    {'diffusion model': 'diffusion probabilistic model'}
    """
    from kg.extract.candidates import STOP_WORDS

    found: dict[str, str] = {}
    for chunk in _CHUNK_BREAK.split(unicodedata.normalize("NFKC", text)):
        run: list[tuple[str, str]] = []
        joined: list[bool] = []  # whether a run word is glued to the one before it ("gradient-free")
        for token in chunk.split() + [""]:
            parts = _SEPARATORS.sub(" ", token).split() or [""]
            for k, raw in enumerate(parts):
                word = _DROP.sub("", raw).casefold().strip(".")
                if word and word not in STOP_WORDS:
                    run.append((word, raw))
                    joined.append(k > 0)
                    continue
                _match_run(run, joined, wanted, heads, max_modifiers, found)
                run, joined = [], []
    return found


def _match_run(run: list[tuple[str, str]], joined: list[bool], wanted, heads, max_modifiers: int,
               found: dict[str, str]) -> None:
    """Add to ``found`` the keys of ``wanted`` that one stop-word-free run of words contains.

    A key may skip at most two words between its modifiers and never starts inside or skips
    part of a hyphenated word ("gradient-free oracle" contains no "gradient oracle").
    """
    for j in range(1, len(run)):
        head = singularize(run[j][0])
        if head not in heads:
            continue
        first = max(0, j - max_modifiers)
        before = [w for w, _ in run[first:j]]
        n = len(before)
        for start in range(n):  # the key's words: before[start:gap_from] + before[gap_to:] + head
            if joined[first + start]:
                continue
            for gap_from in range(start + 1, n + 1):
                for gap_to in range(gap_from, min(n, gap_from + 2) + 1):
                    if gap_to > gap_from and (joined[first + gap_from] or joined[first + gap_to]):
                        continue
                    key = " ".join(before[start:gap_from] + before[gap_to:] + [head])
                    if key in wanted and key not in found:
                        found[key] = " ".join(r for _, r in run[first + start : j + 1])


# A key that starts with one of these names an amount or a quality, no topic ("large amount",
# "high quality", "real time", "experimental results"): it links no paper by containment.
_QUANTIFIERS = frozenset("""large small high low real experimental many few good better best short
    wide broad huge big tiny first second third single multiple several""".split())


def _containable(key: str) -> bool:
    """A multi-word key that may link papers by containment: it ends on a noun (or a nominal
    gerund, or a word the lexicon lacks) and starts with no quantifier or generic modifier.

    Examples
    --------
    >>> [_containable(k) for k in ["diffusion model", "content based", "high quality", "information seeking"]]
    [True, False, False, True]
    """
    from kg.extract.candidates import GENERIC_MODIFIERS

    words = key.split()
    if words[0] in _QUANTIFIERS or words[0] in GENERIC_MODIFIERS:
        return False
    head = word_class(words[-1]) or word_class(singularize(words[-1]))
    return head is None or head.startswith("NN") or head == "VBG"


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
    does not hold itself, the most specific (in the fewest papers) first.
    """
    holders: dict[str, set[str]] = defaultdict(set)
    for pid, rows in keyed.items():
        for key, _ in rows:
            if " " in key and _containable(key):
                holders[key].add(pid)
    wanted = frozenset(holders)
    heads = frozenset(k.rsplit(" ", 1)[1] for k in wanted)
    found = {}
    for paper in papers:
        text = paper.abstract if paper.title_derived else f"{paper.title}. {paper.abstract}"
        found[paper.id] = _text_keys(text, wanted, heads)
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


def _key_of(surface: str, acronyms: _Acronyms,
            replace: Mapping[str, tuple[str | None, str]], preferred: dict[str, str]) -> str | None:
    """The concept key of one surface form: thesaurus first, then acronym expansion."""
    for key in (concept_key(surface), concept_key(_expand(surface, acronyms))):
        if key in replace:
            new_key, name = replace[key]
            if new_key:
                preferred.setdefault(new_key, name)
            return new_key
    return concept_key(_expand(surface, acronyms))


def _probe(key: str, surfaces: Counter[str]) -> str:
    """The text embedded for a concept: its most used surface form that has its key (else the key).

    Extraction already embedded every surface form, so a cached embedder answers without the model.
    """
    for surface, _ in sorted(surfaces.items(), key=lambda kv: (-kv[1], kv[0])):
        if concept_key(surface) == key:
            return surface
    return key


def _apply_merges(merged: Mapping[str, str], surfaces, best):
    new_surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for key, counts in surfaces.items():
        new_surfaces[merged.get(key, key)].update(counts)
    new_best: dict[tuple[str, str], tuple[float, str]] = {}
    for (pid, key), value in sorted(best.items()):
        target = (pid, merged.get(key, key))
        if target not in new_best or value[0] > new_best[target][0]:
            new_best[target] = value
    return new_surfaces, new_best


# --- near-synonyms by embedding similarity ----------------------------------------------

_AFFIXES = ("non", "un", "semi", "self", "multi", "single", "in", "dis", "sub", "super", "anti")
_DIGITS = re.compile(r"\d+")


def _variants(x: str, y: str) -> bool:
    """Two words of one family: equal, or sharing a 5-letter stem ("recommender", "recommendation")."""
    return x == y or (len(x) >= 5 and len(y) >= 5 and x[:5] == y[:5])


def _needed(a: str, b: str, threshold: float) -> float:
    """The cosine two concept keys need to merge; above 1 means never.

    Guards against pairs that embed close but name different concepts:

    * one adds words to the other ("graph neural network" vs "neural network");
    * they differ in a number ("gpt 3" vs "gpt 4");
    * they differ by a negating or scoping prefix ("supervised" vs "unsupervised");
    * either is one short token (acronyms embed unreliably);
    * their head (last) words are not of one family ("latent causal variable" vs
      "latent causal model", cosine 0.92 with MiniLM).

    Otherwise ``threshold`` is enough when every differing word has a variant on the
    other side ("convolutional neural network" vs "convolution neural network"), and
    ``threshold + 0.1`` is needed when a modifier is really different.
    """
    wa, wb = a.split(), b.split()
    sa, sb = set(wa), set(wb)
    if sa <= sb or sb <= sa or _DIGITS.findall(a) != _DIGITS.findall(b):
        return 2.0
    if (len(wa) == 1 and len(a) <= 5) or (len(wb) == 1 and len(b) <= 5):
        return 2.0
    if any(x != y and x.replace(" ", "") == p + y for x in sa ^ sb for y in sa ^ sb for p in _AFFIXES):
        return 2.0
    if not _variants(wa[-1], wb[-1]):
        return 2.0
    only_a, only_b = sa - sb, sb - sa
    if all(any(_variants(x, y) for y in only_b) for x in only_a) and \
            all(any(_variants(y, x) for x in only_a) for y in only_b):
        return threshold
    return threshold + 0.1


def _block(key: str) -> str:
    """The head-word family of a concept key: keys in different blocks never merge.

    :func:`_variants` holds for two head words exactly when they are equal or both have
    five or more letters and share the first five, so the head word itself (when
    shorter) or its first five letters names the family.

    Examples
    --------
    >>> [_block(k) for k in ["recommender system", "recommendation systems", "graph", "user"]]
    ['syste', 'syste', 'graph', 'user']
    """
    head = key.rsplit(" ", 1)[-1]
    return head if len(head) < 5 else head[:5]


def _never_merges(key: str) -> bool:
    """One short token (an acronym, most often): :func:`_needed` refuses every pair with it."""
    return " " not in key and len(key) <= 5


def near_synonyms(probes: Mapping[str, str], df: Mapping[str, int], embedder=None, *,
                  threshold: float = MERGE_THRESHOLD, pinned: Iterable[str] = (),
                  vectors: Mapping[str, np.ndarray] | None = None,
                  max_cells: int = 1 << 24) -> dict[str, str]:
    """Concept keys to merge: ``{key: representative key}``.

    Concepts are visited from the most to the least frequent (ties by key); each one
    not yet merged becomes a representative and absorbs every later concept whose
    embedding is close enough to it (:func:`_needed`: ``threshold`` for word variants,
    ``threshold + 0.1`` for different modifiers, never across guarded pairs). Merging
    into a representative (never through a chain) keeps clusters tight.

    Only concepts that could merge are compared: :func:`_needed` requires head words of
    one family, so the keys are split into blocks by head word (:func:`_block`) and
    compared within their block, a chunk of rows at a time; a concept alone in its
    block, or one short token, is not even embedded. The result is the one comparing
    every pair would give.

    Parameters
    ----------
    probes : dict
        Concept key -> the text to embed for it.
    df : dict
        Concept key -> number of papers (the more frequent key represents a merge).
    embedder : Embedder, optional
        Embeds the probes that ``vectors`` lacks (needed only then).
    threshold : float
    pinned : iterable of str
        Keys a thesaurus chose: never merged into another key.
    vectors : dict, optional
        Probe text -> unit vector already computed (extraction embedded every surface
        form): those probes are not embedded again.
    max_cells : int
        At most this many similarities are held at once (bounded memory in a block as
        large as the one of "model").

    Examples
    --------
    >>> v = {"recommender systems": np.array([1.0, 0.0]), "recommendation system": np.array([0.9, 0.436]),
    ...      "operating system": np.array([0.9, 0.436])}
    >>> probes = {"recommender system": "recommender systems", "operating system": "operating system",
    ...           "recommendation system": "recommendation system"}
    >>> near_synonyms(probes, {"recommender system": 5}, vectors=v)  # "operating" is no variant: needs 0.95
    {'recommendation system': 'recommender system'}
    """
    pinned = set(pinned)
    blocks: dict[str, list[str]] = defaultdict(list)
    for key in probes:
        if not _never_merges(key):
            blocks[_block(key)].append(key)
    groups = [sorted(keys, key=lambda k: (-df.get(k, 0), k)) for _, keys in sorted(blocks.items())
              if len(keys) > 1]
    if not groups:
        return {}
    found = _probe_vectors(sorted({probes[k] for keys in groups for k in keys}), embedder, vectors)
    merged: dict[str, str] = {}
    for keys in groups:
        matrix = np.vstack([found[probes[k]] for k in keys])
        rows = max(1, max_cells // len(keys))
        for start in range(0, len(keys), rows):
            sims = matrix[start : start + rows] @ matrix[start:].T
            for row in range(sims.shape[0]):
                i = start + row
                if keys[i] in merged:
                    continue
                for j in np.nonzero(sims[row, row + 1 :] >= threshold)[0] + row + 1:
                    other = keys[start + j]
                    if other in merged or other in pinned or sims[row, j] < _needed(keys[i], other, threshold):
                        continue
                    merged[other] = keys[i]
    return merged


def _probe_vectors(texts: list[str], embedder, vectors: Mapping[str, np.ndarray] | None) -> dict[str, np.ndarray]:
    """Unit vectors (float32) of ``texts``: from ``vectors`` where given, the rest embedded."""
    vectors = vectors or {}
    missing = [t for t in texts if t not in vectors]
    found = {t: np.asarray(vectors[t], dtype=np.float32) for t in texts if t in vectors}
    if missing:
        if embedder is None:
            raise ValueError(f"{len(missing)} probe texts have no vector and no embedder was given")
        found.update(zip(missing, np.asarray(embedder.embed(missing), dtype=np.float32)))
    return found


def thesaurus_text(concepts: Mapping[str, Concept]) -> str:
    """The merges kg made, as a VOSviewer thesaurus (``label<TAB>replace by``).

    One line per alias whose own concept key differs from its concept's, so a user
    can see every merge (plural, acronym, synonym) and edit or delete it.

    Examples
    --------
    >>> c = {"c:large language model": Concept("c:large language model", "large language model",
    ...                                         ("LLM", "LLMs", "large language models"))}
    >>> thesaurus_text(c).splitlines()
    ['label\\treplace by', 'LLM\\tlarge language model', 'LLMs\\tlarge language model']
    """
    lines = ["label\treplace by"]
    for cid in sorted(concepts):
        concept = concepts[cid]
        key = cid[len(CONCEPT_PREFIX):]
        for alias in concept.aliases:
            if concept_key(alias) != key and "\t" not in alias:
                lines.append(f"{alias}\t{key}")
    return "\n".join(lines) + "\n"
