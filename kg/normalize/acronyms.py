"""Acronyms defined in a text as ``long form (ACRONYM)`` (Schwartz & Hearst 2003), and where
each one may expand: in the paper that defines it, and corpus-wide when the corpus agrees."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping

from kg.normalize.keys import _SEPARATORS, _common_word, concept_key, singularize

__all__ = ["find_acronyms", "spells"]

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
    written = acronym
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
    parts = re.split(r"[\s\-‐‑–—]+", long_form)  # the parts of "Bogomol'nyi-Prasad-Sommerfield" count
    if len(parts) < 2 or len(parts) > len(letters) + 2:  # "information (II)" is no definition
        return None
    if written in parts:  # "maps Type IIA (IIB) to Type IIA (IIB)": alternatives ("IP addresses (IPs)" defines)
        return None
    if long_form.lower().startswith(("the ", "a ", "an ", "and ", "of ", "for ")):
        long_form = long_form.split(" ", 1)[1]
    return long_form


_FUNCTION_WORDS = frozenset("of for and on in the a an to from with by at via based s".split())
# heads an acronym often leaves out at the end: "GAT" (graph attention network), "GN" (Gross-Neveu model)
_UNSPELLED_HEADS = frozenset("model models theory network networks system systems method algorithm".split())


def spells(acronym: str, key: str) -> bool:
    """Whether ``acronym`` spells the words of ``key`` as acronyms do: every word gives its initial, in order, but a
    function word, "based" or a possessive's "s" may not ("ICF": item-based collaborative filtering), nor a last
    head such as "model" or "network" ("GAT", "GN model"); after its initial a word may give letters the acronym
    writes small ("MTurk", "CoNet"), and one capital more in all ("RDBMS": relational database management system;
    "UX"). A plural "s" or "es" is no letter.

    Examples
    --------
    >>> [spells(a, k) for a, k in [("RDBMS", "relational database management system"), ("MTurk", "mechanical turk"),
    ...     ("ADMM", "alternating direction method of multipliers"), ("CNNs", "convolutional neural network"),
    ...     ("GAT", "graph attention network"), ("ICF", "item based collaborative filtering"), ("UX", "user experience"),
    ...     ("CMSes", "content management system"), ("WSFT", "witten s string field theory")]]
    [True, True, True, True, True, True, True, True, True]
    >>> [spells(a, k) for a, k in [("FIRE", "information retrieval evaluation"), ("DEERS", "deep recommender system"),
    ...                              ("SCSS", "search system"), ("FRBR", "bibliographic record")]]
    [False, False, False, False]
    """
    for plural in ("es", "s"):
        if len(acronym) > len(plural) + 1 and acronym.endswith(plural) and acronym[:-len(plural)].isupper():
            acronym = acronym[:-len(plural)]
            break
    letters = [ch for ch in acronym if ch.isalnum()]
    words = key.split()

    def match(at: int, word: int, spare: int) -> bool:
        if word == len(words):
            return at == len(letters)
        text = words[word]
        if (text in _FUNCTION_WORDS or (word == len(words) - 1 and text in _UNSPELLED_HEADS)) \
                and match(at, word + 1, spare):
            return True
        if at == len(letters) or not (letters[at].lower() == text[0] or (letters[at] in "Xx" and text[:2] == "ex")):
            return False  # "X" is the initial of "ex-" words: "UX" (user experience), "XML" (extensible …)
        end, inner = at + 1, 1  # the initial, then letters written small inside the word, and one capital more
        while True:
            if match(end, word + 1, spare):
                return True
            if end == len(letters):
                return False
            found = text.find(letters[end].lower(), inner)
            if found < 0 or (letters[end].isupper() and spare == 0):
                return False
            spare -= letters[end].isupper()
            end, inner = end + 1, found + 1

    return match(0, 0, 1)


_APPOSITIVE = re.compile(r"(?<![\w-])([A-Z][A-Za-z0-9]{1,14}),\s+(?:a|an|the)\s+((?:[\w'-]+\s+){0,12}[\w'-]+)")


def _spelled_after(acronym: str, after: str) -> str | None:
    """The first words of ``after`` whose initials spell ``acronym`` exactly (each part of a
    dashed word has one): "holistic neural network" for HNN in "HNN, a holistic neural network".
    Forward and without parentheses, so no looser match than that."""
    letters = "".join(ch.lower() for ch in (acronym[:-1] if acronym.endswith("s") else acronym) if ch.isalnum())
    words = after.split()
    initials = ""
    for n, word in enumerate(words[: len(letters) + 1], start=1):
        initials += "".join(part[:1].lower() for part in re.split(r"[-‐‑–—]+", word) if part)
        if initials == letters:
            return " ".join(words[:n]) if n > 1 else None
        if not letters.startswith(initials):
            return None
    return None


def _argument(text: str, match: re.Match) -> bool:
    """Whether the parentheses of ``match`` hold notation, not an acronym: an index ("S_BH", "A_N") or the
    argument of a symbol written against them ("U_q(A_N)", "T^(SC)"); a long form written against its acronym
    ("conformal field theory(CFT)") still defines it."""
    if "_" in match.group(1):
        return True
    start = match.start()
    if start == 0 or text[start - 1].isspace():
        return False
    word = text[text.rfind(" ", 0, start) + 1:start]
    return "_" in word or "^" in word


# A title that names a system, then says what it is: "CGMOS: Certainty Guided Minority OverSampling", "EANN: Event
# Adversarial Neural Networks for Multi-Modal Fake News Detection" (222 of ACM-CR's titles)
_TITLED = re.compile(r"([A-Z][A-Za-z0-9]{1,14})\s*(?::|--|—|–)\s+(?:(?:An?|The)\s+)?([^.:;?!()]+)")
# what may follow a system's long form in its title: "PruSM: A Prudent Schema Matching Approach for Web Forms"
_FORM_ENDS = _FUNCTION_WORDS | frozenset("approach method framework model system using via towards".split())


def _titled(text: str) -> tuple[str, str] | None:
    """``(ACRONYM, long form)`` when ``text`` opens with a system's name and a colon, then words that spell it as
    :func:`spells` reads them, the most of them that do and that a function word, a filler head or the end
    follows ("DRN: A Deep Reinforcement Learning Framework" is no "Deep Reinforcement")."""
    match = _TITLED.match(text)
    if not match or not _is_acronym(match.group(1)) or _ROMAN.fullmatch(match.group(1)):
        return None
    acronym, words = match.group(1), match.group(2).split()
    for n in range(min(len(words), sum(ch.isalnum() for ch in acronym) + 2), 1, -1):
        if words[n - 1].lower() in _FUNCTION_WORDS or (n < len(words) and words[n].lower() not in _FORM_ENDS):
            continue
        if spells(acronym, " ".join(re.sub(r"[-‐‑–—]+", " ", " ".join(words[:n])).lower().split())):
            return acronym, " ".join(words[:n])
    return None


def find_acronyms(text: str) -> dict[str, str]:
    """Acronyms defined in ``text`` as ``long form (ACRONYM)``, as ``ACRONYM, a long form``
    when the long form's initials spell it, or by a title that opens with one (:func:`_titled`) -> their long form.

    Examples
    --------
    >>> find_acronyms("We extend Rotary Position Embeddings (RoPE) to long contexts.")
    {'RoPE': 'Rotary Position Embeddings'}
    >>> find_acronyms("This paper proposes HNN, a holistic neural network structure for CTR prediction.")
    {'HNN': 'holistic neural network'}
    >>> find_acronyms("We use BERT, a strong baseline, and CNN, the usual network.")
    {}
    >>> find_acronyms("the quantum affine Lie algebra U_q(A_N) at T^(SC) and the bound (S_BH)")
    {}
    >>> find_acronyms("The second maps Type IIA (IIB) to Type IIA (IIB) on the mirror.")
    {}
    >>> find_acronyms("CGMOS: Certainty Guided Minority OverSampling. We propose an oversampling method.")
    {'CGMOS': 'Certainty Guided Minority OverSampling'}
    >>> find_acronyms("DRN: A Deep Reinforcement Learning Framework for News Recommendation. We use DRN.")
    {}
    """
    found: dict[str, str] = {}
    for match in _DEFINITION.finditer(text):
        acronym = match.group(1)
        if not _is_acronym(acronym) or _ROMAN.fullmatch(acronym) or acronym in found or _argument(text, match):
            continue
        sentence_start = max(text.rfind(". ", 0, match.start()), text.rfind("(", 0, match.start() - 1))
        before = text[sentence_start + 1 : match.start()]
        long_form = _long_form(acronym, before)
        if long_form:
            found[acronym] = long_form
    for match in _APPOSITIVE.finditer(text):
        acronym = match.group(1)
        if _is_acronym(acronym) and not _ROMAN.fullmatch(acronym) and acronym not in found:
            long_form = _spelled_after(acronym, match.group(2))
            if long_form:
                found[acronym] = long_form
    titled = _titled(text)
    if titled and titled[0] not in found:  # the abstract's own definition first: it writes the long form in full
        found[titled[0]] = titled[1]
    return found


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

    def lookup(self, token: str, *, folded: bool = False, corpus: bool = True) -> str | None:
        plural = token.endswith("s") or (token.isupper() and token.endswith("S") and len(token) > 3)  # MOOCs, MOOCS
        forms = (token, token[:-1]) if plural and len(token) > 2 else (token,)
        for form in forms:
            found = self.local.get(form) or (self.corpus.get(form) if corpus else None)
            if found:
                return found
        if folded and self._folded and (not token.islower() or not _common_word(token)):  # "url", "knn": the paper's URL, KNN
            for form in forms:
                found = self._folded.get(form.casefold())
                if found:
                    return found
        return None


# a number or fraction joined by a dash to an acronym: "1/4-BPS", "3-SAT"
_NUMBERED = re.compile(r"^(\d+(?:/\d+)?)-(?=[A-Z]{2,}s?$)")


def _expand(surface: str, acronyms: _Acronyms) -> str:
    """Replace acronym tokens in ``surface`` by their long forms.

    Inside a longer phrase a two-letter acronym expands only where the paper defines it: the
    corpus's "EL" (entity linking) is not the "EL" of "OWL EL".

    Examples
    --------
    >>> table = _Acronyms({"EL": "entity linking", "GNN": "graph neural network"})
    >>> _expand("OWL EL", table), _expand("GNN layers", table), _expand("EL", table)
    ('OWL EL', 'graph neural network layers', 'entity linking')
    >>> paper = table.for_paper({"URL": "uniform resource locator", "MAP": "mean average precision"})
    >>> _expand("url word breaking", paper), _expand("map data", paper)
    ('uniform resource locator word breaking', 'map data')

    A word the long form ends with is not said twice ("QoS service" is quality of service, "TCP
    protocols" transmission control protocols):

    >>> table = _Acronyms({"QoS": "quality of service", "TCP": "transmission control protocol"})
    >>> _expand("QoS service", table), _expand("TCP protocols", table), _expand("QoS routing", table)
    ('quality of service', 'transmission control protocols', 'quality of service routing')

    An acronym joined to a number by a dash is a word of its own: "1/4-BPS states" are "1/4 BPS states".

    >>> _expand("quantum 1/4-BPS state", _Acronyms({"BPS": "Bogomol'nyi-Prasad-Sommerfield"}))
    "quantum 1/4 Bogomol'nyi-Prasad-Sommerfield state"
    """
    tokens = [part for token in surface.split() for part in _NUMBERED.sub(r"\1 ", token).split()]
    if len(tokens) == 1:
        return acronyms.lookup(surface, folded=True) or surface
    words: list[str] = []
    repeated = ""  # the last word of the long form just written
    for token in tokens:
        if repeated and singularize(token.lower()) == repeated:
            head = words[-1].rsplit(" ", 1)[0] if " " in words[-1] else ""
            words[-1] = f"{head} {token}".strip()  # the phrase's own form of the word, plural kept
            repeated = ""
            continue
        long_form = acronyms.lookup(token, folded=True, corpus=len(token.rstrip("s")) > 2)
        words.append(long_form or token)
        repeated = singularize(long_form.split()[-1].lower()) if long_form else ""
    return " ".join(words)


def acronym_spellings(votes: Mapping[str, Mapping[str, int]]) -> dict[str, str]:
    """Words that a long form capitalizes inside to spell its acronym -> the word as written elsewhere.

    "Customer LifeTime Value (CLTV)", "CLinicAl Report Auto-completion (CLARA)": the capitals inside
    "LifeTime" and "CLinicAl" are letters of the acronym, not a name's ("LLaMA", "PageRank"). A word
    counts when all its capitals after the first are letters of the acronym and, lower-cased, it is an
    ordinary English word ("pagerank" is none). ``votes`` is acronym -> long form -> count.

    Examples
    --------
    >>> spell = acronym_spellings({"CLTV": {"Customer LifeTime Value": 1}, "YaRN": {"Yet another RoPE extensioN": 2},
    ...                            "PRA": {"PageRank Algorithm": 1}})
    >>> sorted(spell.items())
    [('LifeTime', 'Lifetime'), ('extensioN', 'extension')]
    """
    out: dict[str, str] = {}
    for acronym, long_forms in votes.items():
        letters = {c for c in acronym if c.isupper()}
        for long_form in long_forms:
            for word in _SEPARATORS.sub(" ", long_form).split():
                inside = {c for c in word[1:] if c.isupper()}
                if (inside and word.isalpha() and not word.isupper() and inside <= letters
                        and _common_word(word.lower())):
                    out[word] = word[0] + word[1:].lower()
    return out


def respell(forms: Counter[str], spellings: Mapping[str, str]) -> Counter[str]:
    """``forms`` with the words of :func:`acronym_spellings` written plainly (counts of equal forms added).

    >>> respell(Counter({"customer LifeTime value": 2, "Customer lifetime value": 1}), {"LifeTime": "Lifetime"})
    Counter({'customer Lifetime value': 2, 'Customer lifetime value': 1})
    """
    if not spellings:
        return forms
    out: Counter[str] = Counter()
    for form, n in forms.items():
        out[" ".join(spellings.get(w, w) for w in form.split(" "))] += n
    return out


_TOKEN = re.compile(r"(?<![\w-])[\w][\w\-]*(?![\w-])")


def acronym_uses(texts: Iterable[str], acronyms: Collection[str]) -> Counter[str]:
    """How many of ``texts`` write each of ``acronyms`` as a word of its own (case as given).

    >>> acronym_uses(["SYM theory and N=4 SYM.", "The SYM-like model", "YMT"], {"SYM", "YMT"})
    Counter({'SYM': 1, 'YMT': 1})
    """
    wanted = set(acronyms)
    found: Counter[str] = Counter()
    for text in texts:
        found.update(wanted.intersection(_TOKEN.findall(text)))
    return found


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
