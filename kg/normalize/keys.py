"""Canonical concept keys: NFKC, case-folded, accents folded, separators as spaces, the head noun singular;
and the generic stoplist of keys that name no topic."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from functools import lru_cache
from importlib import resources

from kg.english import PREFIXES, form_of_word, zipf
from kg.extract.candidates import word_class
from kg.notation import written_product

__all__ = ["CONCEPT_PREFIX", "PREFIXES", "bases_of_basis", "concept_key", "cuts_a_name", "dimension_form",
           "fold_accents", "singularize", "generic_phrases", "misspellings", "spelled_form", "spelling_variants"]

CONCEPT_PREFIX = "c:"

_SEPARATORS = re.compile(r"[\-‐‑‒–—_/]+")
_DROP = re.compile(r"[^\w\s+#.∞]")  # ∞ is a word of a name: "W_∞ algebra" is no W-algebra
_WS = re.compile(r"\s+")
_PRIMED = re.compile(r"(?<=\s)(I{1,2})['’](?=\s|$)")  # "type I'" is no "type I": the prime is part of the name
# A phrase ending in a name joined from capitalized parts ("Yang-Mills", "Chern–Simons",
# "Navier-Stokes"): its last word is a name, never a plural.
_NAMED_HEAD = re.compile(r"[A-Z][\w'’]*[\-‐‑‒–—]+[A-Z][a-z]+s$")
# The same name written with a space ("Chern Simons"), when neither part is an English word.
_SPACED_NAME = re.compile(r"(?:^|\s)([A-Z][a-z]+) ([A-Z][a-z]+s)$")

# Names that end in "s" and are no plurals, where the corpus writes them capitalized ("naive
# Bayes", "Gibbs", "Navier Stokes"); written in lower case, "mills" and "jones" are plurals.
_NAME_PLURALS = frozenset("""bayes gibbs stokes hastings jones lewis davis williams adams simons mills hopkins burgers
    netherlands philippines maldives bahamas seychelles andes alps athens brussels wales
    vries rogers reynolds collins ellis harris evans hughes""".split())  # Korteweg-de Vries, not "de vry"

_INVARIANT = frozenset(
    """analysis basis bias class corpus data gas gaussian lens less loss mass news process
    series species status success thesis this us virus various bus axis chaos higgs humanities proceedings
    earnings headquarters goods savings sales surroundings belongings clothes outskirts whereabouts odds
    diabetes herpes rabies measles mumps scabies rickets atlas canvas alias pancreas christmas texas kansas arkansas
    vegas thomas douglas nicholas lucas honduras cosmos ethos pathos kudos""".split()  # "Digital Atlas", no "atla"
)
_IRREGULAR = {
    "indices": "index", "matrices": "matrix", "vertices": "vertex", "criteria": "criterion",
    "phenomena": "phenomenon", "analyses": "analysis", "hypotheses": "hypothesis",
    "theses": "thesis", "bases": "base", "axes": "axis", "children": "child", "people": "person",
    "men": "man", "women": "woman", "mice": "mouse", "leaves": "leaf", "halves": "half",
    "lives": "life", "knives": "knife", "shelves": "shelf", "sheaves": "sheaf", "wolves": "wolf", "calves": "calf", "appendices": "appendix",
    "thieves": "thief", "wives": "wife", "selves": "self", "loaves": "loaf", "elves": "elf", "scarves": "scarf",
    "hooves": "hoof", "dwarves": "dwarf", "wharves": "wharf",  # "electricity thieves" (was "electricity thieve")
    "diagnoses": "diagnosis", "syntheses": "synthesis", "taxa": "taxon", "stimuli": "stimulus",
    "radii": "radius", "nuclei": "nucleus", "foci": "focus", "loci": "locus",
    "vortices": "vortex", "tori": "torus", "genera": "genus", "simplices": "simplex", "apices": "apex", "moduli": "modulus",
    # Latin and Greek plurals: ACM-CR's "text corpus" and "text corpora" were two concepts
    "corpora": "corpus", "spectra": "spectrum", "formulae": "formula", "vacua": "vacuum", "automata": "automaton",
    "schemata": "schema", "lemmata": "lemma", "strata": "stratum", "maxima": "maximum", "minima": "minimum",
    "optima": "optimum", "momenta": "momentum", "continua": "continuum", "curricula": "curriculum", "quanta": "quantum",
    "ellipses": "ellipse",  # the curves (the lexicon knows "ellipsis" alone, which the Greek rule below would pick)
}


# Plurals in -ics of nouns in -ic (most -ics words name a field and have no singular: "physics", "analytics")
_IC_PLURALS = frozenset("""topics subtopics metrics characteristics heuristics logics tactics lyrics geodesics
    dielectrics caustics relics epidemics critics clinics quadrics sextics comics mimics""".split())


# Prefixes a learned plural keeps its form after: hep-th's "supermatrices" (a concept "supermatrice", judged broken),
# "submatrices", "supertori"
_LEARNED_PREFIXES = ("super", "sub", "hyper", "multi", "quasi", "semi", "pseudo", "anti", "bi")
_LEARNED_SINGULARS = ("ix", "ex", "us", "um", "on")  # matrix, vertex, torus, vacuum, automaton


def _prefixed_irregular(word: str) -> str | None:
    """The singular of a learned plural after a prefix ("supermatrices": "supermatrix"), None for any other word."""
    for prefix in _LEARNED_PREFIXES:
        rest = word[len(prefix):]
        if word.startswith(prefix) and rest in _IRREGULAR and _IRREGULAR[rest].endswith(_LEARNED_SINGULARS):
            return prefix + _IRREGULAR[rest]
    return None


@lru_cache(maxsize=65536)
def singularize(word: str) -> str:
    """The singular of an English plural noun (lowercase in, lowercase out).

    Examples
    --------
    >>> [singularize(w) for w in ["embeddings", "strategies", "processes", "bias", "gans"]]
    ['embedding', 'strategy', 'process', 'bias', 'gan']
    >>> [singularize(w) for w in ["movies", "biases", "bases", "ads", "cases", "uses", "caches", "gases", "matches"]]
    ['movie', 'bias', 'base', 'ad', 'case', 'use', 'cache', 'gas', 'match']
    >>> [singularize(w) for w in ["atlas", "atlases", "aliases", "lemmas"]]  # no "atla"
    ['atlas', 'atlas', 'alias', 'lemma']
    >>> [singularize(w) for w in ["echoes", "heroes", "shoes", "canoes"]]
    ['echo', 'hero', 'shoe', 'canoe']
    >>> [singularize(w) for w in ["thieves", "wives", "curves", "drives", "archives", "waves", "valves"]]
    ['thief', 'wife', 'curve', 'drive', 'archive', 'wave', 'valve']
    >>> [singularize(w) for w in ["goods", "savings", "odds", "sales"]]  # no singular of their own ("online sales")
    ['goods', 'savings', 'odds', 'sales']
    >>> [singularize(w) for w in ["corpora", "vacua", "spectra", "automata"]]
    ['corpus', 'vacuum', 'spectrum', 'automaton']
    >>> [singularize(w) for w in ["topics", "metrics", "geodesics", "physics", "analytics", "altmetrics"]]
    ['topic', 'metric', 'geodesic', 'physics', 'analytics', 'altmetrics']
    >>> [singularize(w) for w in ["supermatrices", "submatrices", "supertori", "multivacua", "superalgebras", "coaxes"]]
    ['supermatrix', 'submatrix', 'supertorus', 'multivacuum', 'superalgebra', 'coax']
    >>> [singularize(w) for w in ["crises", "synopses", "emphases", "helices", "quizzes", "buzzes", "cosmos",
    ...                           "ellipses"]]
    ['crisis', 'synopsis', 'emphasis', 'helix', 'quiz', 'buzz', 'cosmos', 'ellipse']
    >>> [singularize(w) for w in ["prices", "devices", "services", "phases", "responses", "doses", "houses"]]
    ['price', 'device', 'service', 'phase', 'response', 'dose', 'house']
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    learned = _prefixed_irregular(word)
    if learned:
        return learned
    if len(word) == 3 and word_class(word) == "NNS":
        return word[:-1]  # ads
    if len(word) <= 3 or word in _INVARIANT or not word.isalpha():
        return word
    if word in _IC_PLURALS:
        return word[:-1]  # topics, metrics, geodesics
    if word.endswith("es") and len(word) > 5 and word[:-2] in _INVARIANT:
        return word[:-2]  # atlases, aliases, biases
    if word.endswith(("ss", "us", "is", "ics", "means")):
        return word  # k-means, subkmeans; physics, dynamics, analytics
    if word.endswith("ies") and len(word) > 4:
        return word[:-1] if word_class(word[:-1]) == "NN" else word[:-3] + "y"  # movies, strategies
    if word.endswith("zzes") and _known_noun(word[:-3]) and not _known_noun(word[:-2]):
        return word[:-3]  # quizzes (not buzzes)
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-1] if _known_noun(word[:-1]) and not _known_noun(word[:-2]) else word[:-2]  # caches
    if word.endswith("ses") and _known_noun(word[:-2] + "is") and not _known_noun(word[:-1]):
        return word[:-2] + "is"  # Greek plurals: crises, synopses, emphases (not bases, cases)
    if word.endswith("ices") and word_class(word[:-1]) is None:  # not "suffices" (the verb)
        for singular in (word[:-4] + "ix", word[:-4] + "ex"):
            if _known_noun(singular):
                return singular  # helices, cortices (not prices, devices)
    if word.endswith("ses") and len(word) > 5 and word_class(word[:-2]) == "NN":
        return word[:-2]  # biases, lenses
    if word.endswith("ses") and not _known_noun(word[:-1]) and _known_noun(word[:-2]):
        return word[:-2]  # gases
    if word.endswith("oes") and not _known_noun(word[:-1]) and _known_noun(word[:-2]):
        return word[:-2]  # echoes, heroes (not shoes, canoes)
    if word.endswith("s"):
        return word[:-1]
    return word


def _known_noun(word: str) -> bool:
    return (word_class(word) or "").startswith("NN")


# A letter's infinite algebra as sources write it: "W-infinity", "Winf", "W_infty", "A-infinity" are "W_∞", "A_∞"
# (hep-th writes "W-infinity" 49 times, "Winf" 26, beside 102 papers' "W_∞"). The letter's case names the algebra:
# "w_∞" (33 hep-th papers) is the classical limit of "W_∞", its own concept (keyed "w∞", as a sign glued to its
# letter is: "L∞ error").
_INFINITY = re.compile(r"(?<![\w\\])(?:([A-Z]|w)[-_ ]?\{?\\?(?:[Ii]nfinity|infty|INFINITY)\}?|([Ww])inf(?:ty)?"
                       r"|(w)_\{?∞\}?)(?![\w+])")


def _infinity(match: re.Match) -> str:
    letter = match.group(1) or match.group(2) or match.group(3)
    return f"{letter} ∞" if letter.isupper() else f"{letter}∞"


@lru_cache(maxsize=262144)
def concept_key(phrase: str) -> str:
    """The canonical key of a phrase: the identity of the concept it names.

    Examples
    --------
    >>> concept_key("Rotary Position-Embeddings")
    'rotary position embedding'
    >>> concept_key("LLMs")
    'llm'
    >>> concept_key("Yang–Mills"), concept_key("knowledge bases")
    ('yang mills', 'knowledge base')
    >>> concept_key("multinomial Naive Bayes"), concept_key("paper mills"), concept_key("bag of visual words")
    ('multinomial naive bayes', 'paper mill', 'bag of visual words')
    >>> concept_key("bistable MEMS"), concept_key("SUBKMEANS")
    ('bistable mems', 'subkmeans')
    >>> concept_key("Kähler manifolds") == concept_key("Kahler manifold") == "kahler manifold"
    True
    >>> concept_key("Bidirectional Encoder Representations from Transformers")
    'bidirectional encoder representations from transformers'
    >>> concept_key("recursive least squares"), concept_key("the Netherlands")
    ('recursive least squares', 'the netherlands')
    >>> concept_key("four dimensions"), concept_key("2+1 dimensions"), concept_key("1 dimension")
    ('four dimensions', '2+1 dimensions', '1 dimension')
    >>> concept_key("women students"), concept_key("woman student")
    ('women students', 'woman student')
    >>> concept_key("3-manifolds"), concept_key("10 dimensions"), concept_key("D=4 supergravities")
    ('3 manifold', '10 dimensions', 'd 4 supergravity')
    >>> concept_key("end-to-end models"), concept_key("bag-of-words representations"), concept_key("bag-of-words")
    ('end to end model', 'bag of words representation', 'bag of words')
    >>> concept_key("bag-of-word model"), concept_key("bag of visual word")  # some write the bag's words singular
    ('bag of words model', 'bag of visual words')
    >>> concept_key("Yang-mills"), concept_key("chern-simons"), concept_key("Navier-stokes")  # the name's case lost
    ('yang mills', 'chern simons', 'navier stokes')
    >>> concept_key("Kerr-AdS"), concept_key("AdS"), concept_key("dS"), concept_key("Kerr-AdS black holes")
    ('kerr ads', 'ads', 'ds', 'kerr ads black hole')
    >>> concept_key("W_∞ algebras"), concept_key("W-algebra"), concept_key("N=∞")  # the symbol a word, never dropped
    ('w ∞ algebra', 'w algebra', 'n ∞')
    >>> {concept_key(p) for p in ("W-infinity gravity", "Winf gravity", "W_∞ gravity", "W_{\\infty} gravity")}
    {'w ∞ gravity'}
    >>> concept_key("type I' strings"), concept_key("type I strings")
    ('type i prime string', 'type i string')
    """
    text = written = unicodedata.normalize("NFKC", phrase).strip()
    if "nf" in text or "NF" in text or "w_" in text:
        text = _INFINITY.sub(_infinity, text)
    named = _named_head(text)
    text = written_product(text)  # "SU(2) x U(1)" is "SU(2)×U(1)"
    text = _PRIMED.sub(r"\1 prime", text)
    text = _SEPARATORS.sub(" ", text)
    text = _DROP.sub(" ", text)
    words = _WS.sub(" ", text).strip().split(" ")
    if not words or words == [""]:
        return ""
    last = words[-1]
    if len(last) > 2 and last.endswith("s") and last[:-1].isupper():  # GANs, LLMs
        words[-1] = last[:-1]
    acronym = len(last) > 2 and last.isupper() and last.isalpha()  # MEMS, DBMS, GPS: the S is a letter of it
    acronym |= last.endswith("S") and not last.isupper()  # AdS, dS, Kerr-AdS: a capital S after lower case is no plural
    words = [fold_accents(w.casefold()).strip(".") for w in words]
    words = [w for w in words if w]
    if not words:
        return ""
    plural_kept = _COUNTED.search(written) is not None or (len(words) > 1 and words[-2] in _PLURAL_PEOPLE)
    joined = _JOINED_NAME.search(written) if len(words) > 1 and words[-1] in _NAME_PLURALS else None
    plural_kept |= joined is not None and not _common_word(joined.group(1).lower())  # "Yang-mills", not "saw-mills"
    if (not named and not acronym and not plural_kept and not _capitalized_name(last)
            and not _PREPOSITIONS.intersection(_heading_words(written))):
        words[-1] = singularize(words[-1])  # "bag of words" names a bag, "four dimensions" are four
    for i in range(2, len(words)):
        of = i - 1 - (words[i - 1] == "visual")  # "bag of (visual) words"
        if words[i] in _BAGGED and of >= 1 and words[of] == "of" and words[of - 1] == "bag":
            words[i] = _BAGGED[words[i]]  # "bag-of-word model" (as some write it) is the bag-of-words model
    return " ".join(words)


_BAGGED = {"word": "words", "concept": "concepts", "entity": "entities"}  # what a bag holds, in the plural


def _heading_words(written: str) -> set[str]:
    """The words before a phrase's last that could head it: those standing alone ("learning with noisy
    labels") and those the last word is dashed to ("bag-of-words"), not the words of a dashed modifier
    ("end-to-end models", "bag-of-words representations": the last word heads them)."""
    tokens = written.replace("/", " ").split()  # "with/without"
    if not tokens:
        return set()
    last = [w for w in _SEPARATORS.split(tokens[-1]) if w]
    return {w.casefold() for w in tokens[:-1]} | {w.casefold() for w in last[:-1]}


# A phrase with one of these before its last word is headed before them: its last word is the
# object ("bag of words", "representations from Transformers", "learning with noisy labels").
_PREPOSITIONS = frozenset("of from for with without in on over to by via between among across into through under within".split())
_PLURAL_PEOPLE = frozenset("women men children people".split())  # plural modifiers: "women students"
# A count before the last word, a space between them ("four dimensions", "2+1 dimensions", not "3-manifolds"),
# or "least squares": the plural is no variant of a singular.
_COUNTED = re.compile(r"(?:^|\s)(?:\d*[02-9]|\d+1\d*|\d+(?:\+\d+)+|two|three|four|five|six|seven|eight|nine|ten|"
                      r"eleven|twelve|least)\s+\S+$", re.IGNORECASE)


_NUMBER_WORDS = {word: str(n) for n, word in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_DIMENSIONAL = frozenset({"d", "dimensional"})  # "2D", "2-d", "2-dimensional", "two-dimensional"
_SPACE_AND_TIME = re.compile(r"\d{1,2}\+1")  # "2+1" dimensions: space and time, three in all
# Greek letters by name: "σ-model" is the "sigma model", "ζ-function regularization" the "zeta function ...".
_GREEK = dict(zip("αβγδεϵζηθϑικλμνξπρστυφϕχψω", """alpha beta gamma delta epsilon epsilon zeta eta theta theta iota
    kappa lambda mu nu xi pi rho sigma tau upsilon phi phi chi psi omega""".split()))
# British spellings, American: -isation/-ise/-yse ("quantisation", "realised", "analyse"), -our ("behaviour"),
# -re ("centre", "fibre") and a doubled l before an ending ("modelling", "labelled", "tunnelling"). Only a
# grouping form: a key keeps the spelling most of its papers write.
_BRITISH = ((re.compile(r"(?<=[a-z]{2})is(ations?|e|ed|es|ing|ers?)$"), r"iz\1"),
            (re.compile(r"(?<=[a-z])ys(e|ed|es|ing|ers?)$"), r"yz\1"),
            (re.compile(r"^(colo|behavio|flavo|neighbo|favo|labo|hono|humo|vapo|harbo|rumo|tumo|odo|vigo|rigo"
                        r"|endeavo|armo)ur"), r"\1r"),
            (re.compile(r"^(cent|fib|lit|theat|met)re(s?)$"), r"\1er\2"),
            (re.compile(r"(?<=[a-z]{2}[aeo])ll(ed|ing|ers?)$"), r"l\1"))


@lru_cache(maxsize=1 << 17)
def _american(word: str) -> str:
    """``word`` with Greek letters named and British spelling made American (a grouping form).

    >>> [_american(w) for w in ["σ", "quantisation", "behaviour", "centre", "modelling", "analysed", "noise", "tour"]]
    ['sigma', 'quantization', 'behavior', 'center', 'modeling', 'analyzed', 'noize', 'tour']
    """
    if not word.isascii():
        word = "".join(_GREEK.get(ch, ch) for ch in word)
    for pattern, american in _BRITISH:
        word = pattern.sub(american, word)
    return word


_DIMENSION_COUNT = re.compile(r"^(?:\d{1,2}|\d{1,2}\+1|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                              r"twelve)$")


def dimension_form(key: str) -> str:
    """``key`` with each count of dimensions written one way, "3d": "three dimensional", "3 dimensional", "3 d",
    "3d" and "2+1 dimensional" (space and time), and "2+1" alone ("1+1 gravity"). For telling that two keys
    of one paper name one idea, not for grouping keys (a "1+1 gravity" need not be a paper's "2d gravity").

    >>> dimension_form("2+1 dimensional quantum electrodynamics"), dimension_form("hot 3 d quantum electrodynamics")
    ('3d quantum electrodynamics', 'hot 3d quantum electrodynamics')
    >>> dimension_form("ten dimensional iia supergravity"), dimension_form("1+1 gravity theory")
    ('10d iia supergravity', '2d gravity theory')
    >>> dimension_form("two loop amplitude"), dimension_form("4d n 1 theory")
    ('two loop amplitude', '4d n 1 theory')
    """
    words = key.split()
    out: list[str] = []
    for i, word in enumerate(words):
        if word in _DIMENSIONAL and out and out[-1].endswith("d") and out[-1][:-1].isdigit() and \
                i > 0 and _DIMENSION_COUNT.match(words[i - 1]):
            continue  # the count before it was written as a dimension already
        if _DIMENSION_COUNT.match(word) and (_SPACE_AND_TIME.fullmatch(word) or
                                             (i + 1 < len(words) and words[i + 1] in _DIMENSIONAL)):
            count = _NUMBER_WORDS.get(word, word)
            out.append(f"{int(count[:-2]) + 1 if '+' in count else int(count)}d")
            continue
        out.append(word)
    return " ".join(out)


def spelled_form(key: str) -> str:
    """What is left of a concept key when the spelling choices are taken out: the spaces and
    dashes between the parts of a compound ("multi-task", "multitask"; "data set", "dataset"),
    numbers in words ("two-loop", "2-loop"), the ways of writing a dimension ("2D",
    "two-dimensional", "(1+1)-dimensional"), the "e-" of "e-commerce", British spelling ("quantisation", "behaviour",
    "modelling") and Greek letters ("σ-model", "sigma model").

    Examples
    --------
    >>> spelled_form(concept_key("multi-task learning")) == spelled_form(concept_key("multitask learning"))
    True
    >>> {spelled_form(concept_key(p)) for p in ("2D gravity", "two-dimensional gravity", "2-d gravity")}
    {'2dgravity'}
    >>> {spelled_form(concept_key(p)) for p in ("(2+1)-dimensional black holes", "three-dimensional black hole")}
    {'3dblackhole'}
    >>> spelled_form(concept_key("2+1 dimensions")), spelled_form(concept_key("(2+2)-dimensional space"))
    ('2+1dimensions', '2+2dimensionalspace')
    >>> {spelled_form(concept_key(p)) for p in ("e-commerce", "electronic commerce", "ecommerce", "E-Commerce")}
    {'ecommerce'}
    >>> spelled_form(concept_key("four-point function")), spelled_form(concept_key("D=4 supergravities"))
    ('4pointfunction', 'd4supergravity')
    >>> {spelled_form(concept_key(p)) for p in ("σ-models", "sigma model", "Sigma-Model")}
    {'sigmamodel'}
    >>> spelled_form(concept_key("free field realisation")) == spelled_form(concept_key("free field realization"))
    True
    """
    words = [_american(word) for word in key.split()]
    out: list[str] = []
    for i, word in enumerate(words):
        word = _NUMBER_WORDS.get(word, word)
        if _SPACE_AND_TIME.fullmatch(word) and i + 1 < len(words) and words[i + 1] in _DIMENSIONAL:
            word = str(int(word[:-2]) + 1)  # "(2+1)-dimensional" is three-dimensional
        if word in _DIMENSIONAL and out and out[-1].isdigit():
            out[-1] += "d"
            continue
        if word == "electronic" and i == 0 and len(words) > 1:
            word = "e"
        out.append(word)
    return "".join(out)


def spelling_variants(df: Mapping[str, int], *, pinned: Collection[str] = ()) -> dict[str, str]:
    """Keys that differ only in spelling (:func:`spelled_form`), each mapped to the key of its
    group that most papers use (a ``pinned`` key, one the user's thesaurus names, first; ties:
    fewer words, then alphabetical). Keys alone in their group are left out.

    Examples
    --------
    >>> spelling_variants({"multi task learning": 55, "multitask learning": 9, "learning": 3})
    {'multitask learning': 'multi task learning'}
    >>> spelling_variants({"2d gravity": 7, "two dimensional gravity": 7, "time stamp": 2, "timestamp": 2})
    {'two dimensional gravity': '2d gravity', 'time stamp': 'timestamp'}
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for key in df:
        groups[spelled_form(key)].append(key)
    out: dict[str, str] = {}
    for keys in groups.values():
        if len(keys) > 1:
            head = min(keys, key=lambda k: (k not in pinned, -df[k], len(k.split()), k))
            out.update((key, head) for key in keys if key != head and key not in pinned)
    return out


_MIN_TYPO_LETTERS = 7  # shorter words are too often another word one letter away ("quark", "squark")
_TYPO_RATIO = 10  # the right spelling is in this many times as many papers at least
_RARE_TYPO = 2  # a word with a letter left out is a typo in this many papers at most
_TERM_TYPO_LETTERS = 9  # a long term the lexicon lacks, in this many letters at least ("nonperturbative")
_FREQUENT_TERM = 20  # and in this many papers at least, is a right spelling too
_SWAP_LETTERS = 8  # a word this long may be a frequent one with a letter changed or two letters swapped
_ENGLISH_ZIPF = 1.5  # unless general English writes it this often ("notional" 2.6, "intension" 1.9; "dimentional" 1.3)


def _spelling(word: str, n: int) -> bool:
    """Whether ``word`` (in ``n`` papers) is a right spelling others may miss: a word of the lexicon, or a long
    term many papers write ("nonperturbative")."""
    return bool(word_class(word)) or (len(word) >= _TERM_TYPO_LETTERS and n >= _FREQUENT_TERM)


def bases_of_basis(written: Mapping[str, Collection[str]], keys: Collection[str]) -> dict[str, str]:
    """Keys whose "bases" is the plural of "basis", not of "base" -> the key with "basis".

    :func:`singularize` reads "bases" as "base" (ACM-CR's "knowledge bases"); physics writes the plural of "basis"
    ("Spinon Bases", "fusion bases", "Gelfand-Zetlin bases": hep-th listed "fusion base", judged broken). A key
    ending in "base" that ``written`` (key -> the forms texts write) only ever gives in the plural means "basis" where
    another key of the corpus holds the same words with "basis" ("spinon basis", "fusion basis defining inequality").

    Examples
    --------
    >>> bases_of_basis({"spinon base": ["Spinon Bases"], "fusion base": ["fusion bases"],
    ...                 "knowledge base": ["knowledge bases", "knowledge base"], "code base": ["code bases"]},
    ...                {"spinon basis", "fusion basis defining inequality", "knowledge basis", "fusion base"})
    {'spinon base': 'spinon basis', 'fusion base': 'fusion basis'}
    """
    with_basis = [f" {key} " for key in keys if "basis" in key.split()]
    out: dict[str, str] = {}
    for key, forms in written.items():
        if not key.endswith(" base") or not forms or not all(form.lower().endswith("bases") for form in forms):
            continue
        basis = f"{key[:-4]}basis"
        if any(f" {basis} " in other for other in with_basis):
            out[key] = basis
    return out


def misspellings(df: Mapping[str, int], *, pinned: Collection[str] = ()) -> dict[str, str]:
    """Keys with a misspelt word -> the key spelled right, where the corpus has it.

    A word is misspelt when the lexicon does not know it nor a form of a word it knows, it has seven
    letters or more, and the right word is in ten times as many papers, five at least: the same word
    with a letter doubled or undoubled inside it ("Twittter", "symmmetry", "supersymetric"), or, for a
    word of one or two papers inside a phrase, the one word of the lexicon (or long term of twenty papers
    or more) it is with a letter left out or put in inside it ("Hagedorn temperaure", "link plynomials",
    "nonpertubative effects", "magnectic field"; alone, "dilaton" of a corpus that writes "dilation" more
    may be a term), or, in eight letters or more, with one letter inside it changed or two next to each other
    swapped, where that word is in twenty papers at least and general English all but never writes the other
    ("four-dimentional space-time", "Schwarzchild black holes" where a corpus writes "Schwarzschild" in ten times
    as many; not "notional", "intension", "Wikimedia", "Sommerfeld"). Other one-letter changes make other words
    too often ("squark" and "quark"), and a frequent word with a letter left out is a term ("soliton", not
    "solution"). ``df`` is key -> papers.

    Examples
    --------
    >>> misspellings({"twitter": 300, "twittter": 1, "twittter data": 1, "twitter data": 9,
    ...               "wikipedian": 2, "wikipedia": 90, "dilaton": 1, "dilation": 40})
    {'twittter': 'twitter', 'twittter data': 'twitter data'}
    >>> misspellings({"hagedorn temperaure": 1, "hagedorn temperature": 40, "soliton": 300, "solution": 9000,
    ...               "radially": 1, "radically": 30, "radially symmetric": 1, "radically symmetric": 1})
    {'hagedorn temperaure': 'hagedorn temperature'}
    >>> misspellings({"nonperturbative effect": 40, "nonpertubative effect": 1, "nonperturbative": 30,
    ...               "magnetic field": 90, "magnectic field": 1})
    {'nonpertubative effect': 'nonperturbative effect', 'magnectic field': 'magnetic field'}
    >>> misspellings({"four dimentional space time": 1, "four dimensional space time": 90, "schwarzchild black hole": 3,
    ...               "schwarzschild black hole": 250, "notional machine": 1, "national machine": 30})
    {'four dimentional space time': 'four dimensional space time', 'schwarzchild black hole': 'schwarzschild black hole'}
    """
    right, in_phrase = _misspelt_words(df)
    out: dict[str, str] = {}
    for key in df:
        if key in pinned:
            continue
        words_of = key.split()
        spelled = " ".join(right.get(w, in_phrase.get(w, w) if len(words_of) > 1 else w) for w in words_of)
        if spelled != key and spelled in df:
            out[key] = spelled
    return out


def _misspelt_words(df: Mapping[str, int]) -> tuple[dict[str, str], dict[str, str]]:
    """:func:`misspellings`' words: misspelt anywhere, and misspelt inside a phrase."""
    words: Counter[str] = Counter()
    for key, n in df.items():
        for word in set(key.split()):
            words[word] += n
    doubled: dict[str, list[str]] = defaultdict(list)  # a frequent word with one of its doubled letters single
    left_out: dict[str, set[str]] = defaultdict(set)  # a frequent word of the lexicon with a letter left out
    changed: dict[str, set[str]] = defaultdict(set)  # a frequent long word with one inner letter unknown ("?")
    for word, n in words.items():
        if n >= 5 and len(word) >= _MIN_TYPO_LETTERS - 1 and word.isalpha():
            for i in range(1, len(word) - 1):
                if word[i] == word[i - 1]:
                    doubled[word[:i] + word[i + 1:]].append(word)
                elif len(word) > _MIN_TYPO_LETTERS and _spelling(word, n):
                    left_out[word[:i] + word[i + 1:]].add(word)
                if len(word) >= _SWAP_LETTERS and n >= _FREQUENT_TERM and _spelling(word, n):
                    changed[word[:i] + "?" + word[i + 1:]].add(word)
    right: dict[str, str] = {}
    in_phrase: dict[str, str] = {}  # only inside a phrase: not "dilaton" alone
    for word, n in words.items():
        if len(word) < _MIN_TYPO_LETTERS or not word.isalpha() or word_class(word) or word_class(word.capitalize()):
            continue
        found = set(doubled.get(word, ()))  # "supersymetric"
        for i in range(1, len(word) - 1):
            if word[i] == word[i - 1] and words.get(word[:i] + word[i + 1:], 0) >= 5:
                found.add(word[:i] + word[i + 1:])  # "twittter", "symmmetry"
        best = max(found, key=lambda w: (words[w], w), default=None)
        if best and words[best] >= _TYPO_RATIO * n:
            right[word] = best
            continue
        if form_of_word(word):
            continue
        if n <= _RARE_TYPO:  # "temperaure" (a letter left out), "magnectic" (a letter put in)
            close = left_out.get(word, set()) | {w for w in (word[:i] + word[i + 1:] for i in range(1, len(word) - 1))
                                                 if len(w) >= _MIN_TYPO_LETTERS and _spelling(w, words.get(w, 0))}
            if len(close) == 1 and words[best := next(iter(close))] >= _TYPO_RATIO * n:
                in_phrase[word] = best
                continue
        if len(word) >= _SWAP_LETTERS and zipf(word) < _ENGLISH_ZIPF:  # "dimentional"; "schwarzchild" (left out)
            close = {w for i in range(1, len(word) - 1) for w in changed.get(word[:i] + "?" + word[i + 1:], ())}
            swapped = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(1, len(word) - 2)} - {word}
            close |= {w for w in swapped if words.get(w, 0) >= _FREQUENT_TERM and _spelling(w, words[w])}
            close |= {w for w in left_out.get(word, ()) if words[w] >= _FREQUENT_TERM}
            if len(close) == 1 and words[best := next(iter(close))] >= _TYPO_RATIO * n:
                in_phrase[word] = best
    return right, in_phrase


def fold_accents(text: str) -> str:
    """``text`` without its accents: "Kähler" and "Kahler", as arXiv abstracts type it, are one word.

    Examples
    --------
    >>> fold_accents("Kähler"), fold_accents("Poincaré"), fold_accents("Erdős"), fold_accents("ψ-field")
    ('Kahler', 'Poincare', 'Erdos', 'ψ-field')
    """
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)))


def _capitalized_name(word: str) -> bool:
    """A capitalized name that ends in "s" and is no plural (:data:`_NAME_PLURALS`): "Bayes"."""
    return word[:1].isupper() and word.casefold().strip(".") in _NAME_PLURALS


# a name's plural-looking last part joined to the name before it, in any case: "Yang-mills", "chern-simons"
def cuts_a_name(key: str) -> bool:
    """Whether ``key`` writes a name that ends in "s" without it (:data:`_NAME_PLURALS`): "chern simon" of a text's
    "Chern-Simon", a misspelling of Chern–Simons, which a concept of the name's own spelling should absorb.

    >>> cuts_a_name("chern simon term"), cuts_a_name("chern simons term"), cuts_a_name("simon game")
    (True, False, False)
    """
    words = key.split()
    return any(word + "s" in _NAME_PLURALS and i for i, word in enumerate(words))


_JOINED_NAME = re.compile(r"([^\W\d_]+)[\-‐‑‒–—](?:" + "|".join(sorted(_NAME_PLURALS)) + r")$", re.IGNORECASE)


def _named_head(text: str) -> bool:
    """Whether ``text`` ends in a name joined from capitalized parts, the first of them no
    ordinary word: "Yang-Mills", "Chern–Simons" (not "Position-Embeddings" of a title), or
    from two capitalized words neither of them an English word ("Chern Simons", not "Neural
    Networks" or "Amazon Reviews")."""
    found = _NAMED_HEAD.search(text)
    if found is None:
        spaced = _SPACED_NAME.search(text)
        return spaced is not None and not any(_common_word(w.lower()) for w in spaced.groups())
    first = re.split(r"[\-‐‑‒–—]+", found.group(0))[0]
    return not _common_word(first.lower())


@lru_cache(maxsize=1)
def generic_phrases() -> frozenset[str]:
    """Concept keys that carry no topic, from ``kg/resources/generic_phrases.txt``."""
    text = resources.files("kg").joinpath("resources/generic_phrases.txt").read_text("utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(concept_key(line) for line in lines if line)


def _common_word(word: str) -> bool:
    """An ordinary English word (the tagger's lexicon knows it, not as a proper noun)."""
    for form in (word, singularize(word)):
        found = word_class(form)
        if found:
            return not found.startswith("NNP")
    return False
