"""How a concept is shown: its words as the corpus writes them, lower case unless a name."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Collection, Container, Iterable, Mapping, Sequence

from kg.extract.candidates import PARTICLES, STOP_WORDS, word_class
from kg.normalize.keys import (_DROP, _PRIMED, _SEPARATORS, PREFIXES, _common_word, concept_key, fold_accents,
                               singularize)
from kg.notation import NOTATION

__all__ = ["truecase_counts", "word_shapes", "sentence_case", "title_evidence", "named_entities", "entity_name",
           "cut_name", "one_case_per_run", "phrase_cases", "run_phrases", "cases_after_names", "names_inside",
           "proper_plural", "institution_after_name"]

_NAME_FORM = re.compile(r"(?<=.)[A-Z]")  # an upper-case letter after the first character
# A letter's infinite algebra that the key wrote "w ∞" ("W-infinity", "Winf"): shown as notation writes it, "W_∞"
_INFINITY_NAME = re.compile(r"(?<![\w])([A-Za-z])([-‐ ]?)∞")


def _infinity_name(name: str, surfaces: Iterable[str]) -> str:
    """``name`` with a letter's infinite algebra as notation writes it, "W_∞": the key wrote "W-infinity" and
    "Winf" "w ∞", and "w_∞" "w∞"; a sign glued to its letter in every form stays glued ("L∞ error")."""
    if "∞" not in name:
        return name
    written = " ".join(surfaces)
    return _INFINITY_NAME.sub(lambda m: m.group(0) if not m.group(2) and f"{m.group(1)}_∞" not in written
                              else f"{m.group(1)}_∞", name)


# Modifiers that say there are more than one: the noun after them is a plural, named so ("coincident D-branes",
# "identical particles", "multiple text streams"; reviewers judged the singular a broken name)
_PLURAL_MODIFIERS = frozenset("coincident coinciding identical multiple numerous".split())
_PLURAL_NAME_SHARE = 0.5  # of a concept's forms that write the plural, more than this keeps it


def _plural_head(name: str, key: str, surfaces: Mapping[str, int]) -> str:
    """``name`` with its head in the plural where the plural is part of the name and most forms write it: after a
    modifier that says there are more than one (:data:`_PLURAL_MODIFIERS`), and in a system of equations named for
    a person ("Maxwell's equations", "Nahm equations"; "Dirac equation" stays, as its forms write it).

    Examples
    --------
    >>> _plural_head("coincident D3-brane", "coincident d3 brane", {"coincident D3-branes": 5, "D3-brane": 1})
    'coincident D3-branes'
    >>> _plural_head("Maxwell's equation", "maxwell s equation", {"Maxwell's equations": 6, "Maxwell's Equations": 1})
    "Maxwell's equations"
    >>> _plural_head("Dirac equation", "dirac equation", {"Dirac equation": 20, "Dirac equations": 3})
    'Dirac equation'
    >>> _plural_head("multiple instance learning", "multiple instance learning", {"multiple instance learning": 9})
    'multiple instance learning'
    """
    words = key.split()
    if len(words) < 2 or not (words[0] in _PLURAL_MODIFIERS or (
            words[-1] == "equation" and name[:1].isupper() and word_class(words[0]) is None)):
        return name
    head = name.rsplit(" ", 1)[-1]
    plural = sum(n for surface, n in surfaces.items() if surface.casefold().endswith((head + "s").casefold()))
    if plural <= _PLURAL_NAME_SHARE * sum(surfaces.values()) or not head[-1:].isalpha():
        return name
    return name + ("es" if head.endswith(("s", "x", "sh", "ch")) else "s")


def _cased_words(surface: str) -> list[str]:
    """The words of ``surface`` as :func:`concept_key` splits them, case kept."""
    text = _DROP.sub(" ", _SEPARATORS.sub(" ", unicodedata.normalize("NFKC", surface)))
    return [w for w in (w.strip(".") for w in text.split()) if w]


def _word_name(word: str, forms: Counter[str], last: bool, acronym: bool = False) -> str:
    """How one word of a concept is written: lower case unless the corpus writes it as a name.
    ``acronym``: a form wrote it in capitals next to lower-case words ("MEMS applications"), so
    the capitals are an acronym's, not a shouted word's."""
    total = sum(forms.values())
    if not total:
        return word
    names = {f: n for f, n in forms.items() if _NAME_FORM.search(f) and sum(ch.isalnum() for ch in f) >= 2}
    n_names = sum(names.values())
    common = _common_word(word)
    best = min(names.items(), key=lambda kv: (-kv[1], kv[0]))[0] if names else ""
    shouted = common and best.isupper() and len(best) > 3 and not acronym  # "DATA", "PAGE": a word in capitals, or an acronym? ("IP", "ROI" are)
    if names and 2 * n_names > total and not (shouted and (n_names < 2 or n_names < 2 * (total - n_names))):
        if best.casefold() == word:
            return best
        if last and best.endswith("s") and best[:-1].casefold() == word:
            return best[:-1] if _plural_name(best) else best  # GNNs -> GNN, ConvNets -> ConvNet; MovieLens
        return word
    capital = sum(n for f, n in forms.items() if f[:1].isupper() and f[1:] == f[1:].lower())
    proper = not common and word_class(word.capitalize()) in ("NNP", "NNPS")
    if (proper and 2 * capital >= total) or (not common and capital >= 2 and 10 * capital >= 9 * total):
        return word[:1].upper() + word[1:]  # Twitter, Wikipedia, Markov
    return word


_NAME_PARTS = re.compile(r"[A-Z]*[a-z]+|[A-Z]+")
_CAMEL = re.compile(r"(?:[A-Z][a-z]+){2,}|[A-Z]{3,}[a-z].*")  # "WiFi", "PostScript"; "RESTful", not "TExt"


def _odd_capitals(form: str) -> bool:
    """Whether ``form`` is an ordinary word of four letters or more with capitals inside that cut it into
    no words: a source's acronym spelled into a phrase ("TExt", "detectiON", "DiscovERy"), not a compound
    name ("PostScript", "WiFi"), an acronym's start ("RESTful"), "AdS" or a short name ("CoIL", "GuLP").

    >>> [_odd_capitals(f) for f in ["TExt", "detectiON", "PostScript", "WiFi", "RESTful", "AdS", "CoIL", "Text"]]
    [True, True, False, False, False, False, False, False]
    """
    if len(form) < 4 or not form.isalpha() or form.isupper() or not _NAME_FORM.search(form) or _CAMEL.fullmatch(form):
        return False
    if len(form) < 6 and not form[:2].isupper():
        return False  # "CoIL", "GuLP", "aDORe": a short word's capitals spell a name more often
    return _common_word(form.lower())


def _plain_odd_capitals(cased: list[str]) -> None:
    """Lower-case the words of ``cased`` (in place) written with odd capitals (:func:`_odd_capitals`) where another
    word of the name is in lower case: "interactive text management system", not "Online Catalog Taxonomy EnrichmenT",
    whose capitals may be the name's own."""
    if any(word.islower() for word in cased):
        for i, word in enumerate(cased):
            cased[i] = "-".join(part.lower() if _odd_capitals(part) else part for part in word.split("-"))


def _plural_name(name: str) -> bool:
    """Whether a mixed-case name ending in "s" is a plural: of an acronym ("GNNs") or of its last part, an English
    noun ("ConvNets"), not a name whose last part ends so ("MovieLens", "PubMed", "SharedCanvas", "PodRecs").

    Examples
    --------
    >>> [_plural_name(n) for n in ["GNNs", "ConvNets", "MovieLens", "SharedCanvas", "PodRecs", "WikiMirs"]]
    [True, True, False, False, False, False]
    """
    if name[:-1].isupper() or name[-2:-1].isupper():  # "KdVs"
        return True
    parts = _NAME_PARTS.findall(name)
    if not parts:
        return False
    last = parts[-1].lower()
    single = singularize(last)
    return single != last and word_class(last) == "NNS"  # English's plural: "ConvNets"; not "SharedCanvas", "PodRecs"


def cut_name(word: str, truecase: Mapping[str, tuple[int, int]]) -> bool:
    """Whether ``word`` is a name the key's singular rule cut: neither it nor ``word`` + "s" is a word of the
    lexicon, the corpus (``truecase``, :func:`truecase_counts`) never writes ``word`` and writes ``word`` + "s"
    capitalized away from sentence starts, never in lower case ("berkovit" of "Berkovits").

    Examples
    --------
    >>> cut_name("berkovit", {"berkovits": (3, 0)}), cut_name("supersolution", {"supersolutions": (0, 0)})
    (True, False)
    """
    capital, lower = truecase.get(word + "s", (0, 0))
    return word not in truecase and capital > 0 and not lower and not word_class(word) and not word_class(word + "s")


def _plural_surname(word: str, forms: Counter[str], truecase: Mapping[str, tuple[int, int]] | None) -> str | None:
    """A name the key's singular rule cut (:func:`cut_name`), shown whole where the concept's own forms (those not
    in a title's capitals) write it so ("Berkovits", not "Berkovit"; not a title's "Supersolutions")."""
    if truecase is None or not cut_name(word, truecase):
        return None
    if any(f.casefold() != word + "s" for f in forms):
        return None
    return max(forms, key=lambda f: (forms[f], f)) if forms else word[:1].upper() + word[1:] + "s"


_PRIME_WORD = re.compile(r"\b(I{1,2}) prime\b")  # back to the prime the key spells out


def _display_name(key: str, surfaces: Counter[str], acronym: str | None = None,
                  truecase: Mapping[str, tuple[int, int]] | None = None, evidence: Counter[str] | None = None,
                  shaped: Mapping[str, str] | None = None) -> str:
    """A concept's name: as the corpus writes it, lower case unless a name.

    The name keeps the punctuation of the concept's most used plain surface form (not a
    title's casing, not all capitals): "Yang–Mills theory", "SU(2) gauge theory", "N=1
    supersymmetry", "AdS/CFT", with the head word singular as in the key. Each word is lower
    case unless most of its occurrences write it as an acronym or a mixed-case name ("BERT",
    "GNN", "LLaMA", "YaRN", "3D"; so "SystEm" or "TweeTs" seen once among many "systems" and
    "tweets" does not count; an ordinary word in capitals, "DATA", "PAGE", needs two occurrences
    and twice as many as all other forms) or the corpus capitalizes it: ``truecase`` gives, per
    word, how often the corpus's sentences write it capitalized and in lower case away from a
    sentence's start (:func:`truecase_counts`; "de Sitter", "Hilbert space", "Lie algebra"),
    and without it almost all of the concept's own forms must capitalize it ("Wikipedia",
    "Markov"). Words of multi-word title-case surfaces ("Graph Neural Networks") and of all-caps
    ones are not evidence of a name. Notation keeps its letters as written ("N=1", "Z_2").
    ``evidence`` holds more forms whose words count for their case but whose punctuation is no
    template (the words a text was found to contain: "RDF data", "Yang Baxter"), unless the concept has
    no surface of its own (a concept only texts that contain it link to): then a form of just the key's
    words is ("multi-graph", not "multi graph"). ``shaped`` (:func:`word_shapes`) writes a word the forms
    give no name's shape as the corpus writes it ("SVM" of a title's "Svms").
    The name never carries the acronym (``acronym`` is ignored): that is the concept's own
    field, :attr:`kg.models.Concept.acronym`, and :func:`kg.models.concept_label` shows both.

    Examples
    --------
    >>> _display_name("tweet", Counter({"tweets": 4, "TweeTs": 1, "Tweets": 2}), None)
    'tweet'
    >>> _display_name("gnn", Counter({"GNNs": 2, "gnn": 1}), None)
    'GNN'
    >>> _display_name("large language model", Counter({"Large Language Models": 3}), "LLMs")
    'large language model'
    >>> _display_name("yang mills theory", Counter({"Yang–Mills theories": 2, "Yang-Mills Theory": 1}))
    'Yang–Mills theory'
    >>> _display_name("de sitter space", Counter({"de Sitter spaces": 1}), truecase={"sitter": (9, 0)})
    'de Sitter space'
    >>> _display_name("n 1 supersymmetry", Counter({"N=1 supersymmetry": 3}))
    'N=1 supersymmetry'
    >>> _display_name("ip geolocation database", Counter({"IP geolocation databases": 1}))
    'IP geolocation database'
    >>> _display_name("mems application", Counter({"MEMS applications": 1})), _display_name("n 2 sym", Counter({"N=2 SYM": 1}))
    ('MEMS application', 'N=2 SYM')
    >>> _display_name("ocelot", Counter({"OCELOT": 1}), truecase={"web": (0, 1)})
    'OCELOT'
    >>> _display_name("d brane probe", Counter({"D-Brane Probes": 2}), truecase={"brane": (0, 30)})
    'D-brane probe'
    >>> _display_name("multi agent system", Counter({"Multi agent systems": 2, "multi-agent system": 2,
    ...                                               "multi-agent systems": 1}))
    'multi-agent system'
    >>> _display_name("top n recommendation", Counter({"top-N recommendations": 10, "top N-recommendation": 1}))
    'top-N recommendation'
    >>> _display_name("large n limit", Counter({"large N limit": 8, "large-N limit": 6, "large N-limit": 1}))
    'large N limit'
    >>> _display_name("su 2 qcd", Counter({"SU(2) QCD": 2}))
    'SU(2) QCD'
    >>> _display_name("semantic web", Counter({"Semantic WEB": 1, "semantic Web": 3, "semantic web": 5}),
    ...               truecase={"semantic": (3, 40), "web": (500, 100)})
    'semantic Web'

    >>> _display_name("yang mills", Counter({"Yang-Mills": 8, "Yang-mills": 2}), truecase={"yang": (90, 0), "mills": (90, 2)})
    'Yang-Mills'
    >>> _display_name("multi graph", Counter(), evidence=Counter({"multi-graph": 2, "multi-graphs": 1}))
    'multi-graph'
    >>> _display_name("wheeler dewitt", Counter({"Wheeler-DeWitt": 1}), truecase={})
    'Wheeler-DeWitt'
    >>> _display_name("web based join", Counter({"Web-Based Join": 1}), truecase={"web": (50, 2)})
    'Web-based join'

    >>> _display_name("linear svm", Counter({"Linear Svms": 1}), truecase={}, shaped={"svms": "SVMs"})
    'linear SVM'
    >>> _display_name("interactive text management system", Counter({"interactive TExt management system": 1}))
    'interactive text management system'
    >>> _display_name("super conformal field theory", Counter({"super CONFORMAL field theory": 1}),
    ...               truecase={"conformal": (0, 40)})
    'super conformal field theory'
    >>> _display_name("type i prime string theory", Counter({"type I' string theories": 2, "Type I' String Theory": 1}))
    "type I' string theory"

    """
    if " prime" not in key:
        return _cased_name(key, surfaces, truecase, evidence, shaped)
    return _PRIME_WORD.sub(r"\1'", _cased_name(key, _primed(surfaces), truecase, _primed(evidence), shaped))


def _primed(forms: Counter[str] | None) -> Counter[str] | None:
    """``forms`` with a numeral's prime written as the word its key has: "type I'" as "type I prime"."""
    if not forms:
        return forms
    out: Counter[str] = Counter()
    for form, n in forms.items():  # "Type I' String Theory": a title's word, "Prime"
        out[_PRIMED.sub(lambda m: m.group(1) + (" Prime" if m.string[m.end() + 1:m.end() + 2].isupper() else " prime"),
                        form)] += n
    return out


def _cased_name(key: str, surfaces: Counter[str], truecase: Mapping[str, tuple[int, int]] | None,
                evidence: Counter[str] | None, shaped: Mapping[str, str] | None) -> str:
    """The name of :func:`_display_name`, its words aligned with the key's."""
    words = key.split()
    shapes: Counter[str] = Counter()
    for surface, n in surfaces.items():
        shapes[_shape(surface)] += n
    forms: list[Counter[str]] = [Counter() for _ in words]
    acronyms = [False] * len(words)  # written in capitals next to a lower-case word
    templates: list[tuple[bool, int, int, bool, str]] = []
    joined: list[tuple[bool, int, int, bool, str]] = []  # the evidence's forms, as texts write the key's words
    for (surface, n), template in [*((item, True) for item in surfaces.items()),
                                   *((item, False) for item in (evidence or {}).items())]:
        surface = _keyed_tail(surface, key, len(words))
        if surface is None:
            continue
        tokens = _cased_words(surface)
        notation = {t for m in NOTATION.finditer(surface) for t in _cased_words(m.group())}  # not SU of SU(2)
        letters = [t for t in tokens if sum(ch.isalpha() for ch in t) > 1 and t not in notation]  # not the N of N=2
        shouting = len(letters) > 1 and all(t.isupper() for t in letters) \
            and (any(len(t) > 4 for t in letters) or all(_common_word(t.lower()) for t in letters))  # not "OWL DL"
        if any(t.islower() for t in letters):
            for i, token in enumerate(tokens):
                acronyms[i] |= token.isupper() and sum(ch.isalpha() for ch in token) > 1
        titled = len(letters) > 1 and (all(t[:1].isupper() for t in letters) or _titled_compounds(surface))
        if titled and truecase is not None and len(surface.split()) == 1 and all(
                _capitalized_by(truecase, t) for t in letters if t[:1].isupper()):
            titled = False  # one dash-joined word of names the corpus capitalizes: "Yang-Mills", not "AS-Index"
        if template:  # the form most occurrences write, whatever their case and number ("multi-agent system(s)")
            templates.append((shouting or titled, -shapes[_shape(surface)], -n, tokens[-1].casefold() != words[-1], surface))
        elif concept_key(surface) == key:  # a text's words, none skipped: its dashes when no surface is
            joined.append((shouting or titled, 0, -n, False, surface))
        for i, token in enumerate(tokens):
            if (shouting and token.isupper()) or (titled and not _NAME_FORM.search(token)):
                continue
            forms[i][token] += n
    cased = [_true_word(w, f, i == len(words) - 1, truecase, inside=i > 0, acronym=a, shaped=shaped)
             for i, (w, f, a) in enumerate(zip(words, forms, acronyms))]
    if truecase is not None and len(cased) >= 2 and _first_name(words[0], Counter(
            t.split()[0] for t in surfaces if t.split()), truecase) \
            and cased[1][:1].isupper() and cased[1][1:].islower():
        cased[0] = words[0][:1].upper() + words[0][1:]  # a person's first name, written only where a sentence starts
        # ("Lawrie Holmes looks at"): no evidence of a lower case, and the name after it is capitalized
    templates = templates or joined
    if not templates:
        _plain_odd_capitals(cased)
        return _accented(_plural_head(_infinity_name(" ".join(cased), surfaces), key, surfaces or evidence or {}),
                         [*surfaces, *(evidence or ())])
    titled_template, _, _, _, template = min(templates)
    template = unicodedata.normalize("NFKC", template)
    spans = _spans(template)
    _one_case_per_name([template[slice(*span)] for span in spans], cased)
    notation = [m.span() for m in NOTATION.finditer(template)]
    group = [0]  # a name joined by dashes or an apostrophe is written as the template writes it once
    for i in range(1, len(spans) + 1):  # one of its parts is a name: Brans–Dicke, Bogomol'nyi-Prasad
        if i < len(spans) and _JOINS.fullmatch(template[spans[i - 1][1]:spans[i][0]]):
            group.append(i)
            continue
        if len(group) > 1 and any(cased[j][:1].isupper() for j in group):
            for j in group:
                written = template[slice(*spans[j])]
                named = word_class(cased[j]) is None and any(  # not "Web-Based", "Inter-National"
                    cased[k][:1].isupper() and len(cased[k]) > 1 and not cased[k].isupper() for k in group if k != j)
                if written.casefold() == cased[j].casefold() and not (j == group[0] and cased[j] in PREFIXES) \
                        and cased[j].casefold() not in _EPONYMS \
                        and not (titled_template and cased[j].islower() and written[1:].islower() and not named) \
                        and not (_NAME_FORM.search(cased[j]) and not _NAME_FORM.search(written)):  # "TEI", not "Tei"
                    cased[j] = written  # but "non-Abelian", "anti-de Sitter" as a title writes them, "D-brane" a title's
                    # "D-Brane"; beside a name, the title's capital is a name's: "Wheeler-DeWitt", never "wheeler-DeWitt"
        group = [i]
    _plain_odd_capitals(cased)
    joins = _dashes(surfaces)
    out, at = [], 0
    for i, ((start, end), word) in enumerate(zip(spans, cased)):
        kept = template[start:end]
        inside = any(a <= start and end <= b for a, b in notation)
        between = template[at:start]
        if i and at < start and not between.strip() and _name_pair(cased[i - 1], word) and not (
                len(cased[i - 1]) == 1 and i > 1 and (
                    _joined_letter(template[spans[i - 2][1]:spans[i - 1][0]], cased[i - 2])
                    or (cased[i - 2].casefold(), cased[i - 1].casefold()) in joins)):
            between = joins.get((cased[i - 1].casefold(), word.casefold()), between)  # another form joins them
            # (a letter the template or another form joins to the word before stays apart from the next:
            # "top-N recommendation", "A/B testing", "large N limit" beside "large-N limit"; not "string/M-theory",
            # not "large N-limit")
        out.append(between)
        as_written = inside or not kept.isalpha() or len(kept) == 1  # N=1, Z_2, T-duality, p-brane
        out.append(kept if as_written and kept.casefold() == word.casefold() else word)
        at = end
    out.append(template[at:])
    name = _plural_head(_infinity_name(" ".join("".join(out).split()), surfaces), key, surfaces or evidence or {})
    return _accented(name, [*surfaces, *(evidence or ())])


def _capitalized_by(truecase: Mapping[str, tuple[int, int]], word: str) -> bool:
    """Whether the corpus writes ``word`` capitalized more often than not away from a sentence's start."""
    capital, lower = truecase.get(fold_accents(word.lower()), (0, 0))
    return capital > lower


def _keyed_tail(surface: str, key: str, n_words: int) -> str | None:
    """``surface`` if it is written as ``key`` (``n_words`` words); else its end that is, when the key dropped
    its first words ("explicit L^2-representation" for the concept "L^2-representation": an incidental
    modifier), so the name still keeps the notation, dashes and case the paper wrote; else None.

    Examples
    --------
    >>> _keyed_tail("explicit L^2-representation", "l 2 representation", 3)
    'L^2-representation'
    >>> _keyed_tail("classical A_n-Toda theories", "a n toda theory", 4), _keyed_tail("Toda theory", "a n toda theory", 4)
    ('A_n-Toda theories', None)
    >>> _keyed_tail("general 't Hooft gauge", "t hooft gauge", 3)
    "'t Hooft gauge"
    """
    text = surface
    spans = _spans(unicodedata.normalize("NFKC", surface))
    if len(spans) > n_words:
        normal = unicodedata.normalize("NFKC", surface)
        start = spans[len(spans) - n_words][0]
        if start and normal[start - 1] in "'’" and normal[start:start + 2] == "t ":
            start -= 1  # "general 't Hooft gauge fixed Lagrangians": the particle keeps its apostrophe
        text = normal[start:]
    elif len(spans) < n_words:
        return None
    return text if len(_cased_words(text)) == n_words and concept_key(text) == key else None


_LETTERS = re.compile(r"[^\W\d_]+")
# Names arXiv abstracts often type without their accents; the key folds accents, the name restores them.
_KNOWN_ACCENTS = {"kahler": "kähler", "hyperkahler": "hyperkähler", "schrodinger": "schrödinger",
                  "poincare": "poincaré", "nordstrom": "nordström", "godel": "gödel", "mobius": "möbius",
                  "plucker": "plücker", "cech": "čech", "erdos": "erdős"}


def _accented(name: str, forms: Iterable[str]) -> str:
    """``name`` with each word spelled with the accents the concept's forms give it, or a known name's
    ("Kähler", "Schrödinger"), in the name's case.

    Examples
    --------
    >>> _accented("Reissner-Nordstrom black hole", ["Reissner-Nordström black holes"])
    'Reissner-Nordström black hole'
    >>> _accented("Kahler manifold", ["Kahler manifolds"]), _accented("resume parsing", ["resume parsing"])
    ('Kähler manifold', 'resume parsing')
    >>> _accented("W_∞ algebra", ["W_∞ algebra", "Ŵ_∞ Algebra"])
    'W_∞ algebra'
    """
    spelled = dict(_KNOWN_ACCENTS)
    for form in forms:
        for token in _LETTERS.findall(form):
            low = token.lower()
            if not low.isascii() and fold_accents(low) != low and len(low) > 1:  # a letter's mark is notation:
                spelled[fold_accents(low)] = low  # "Ŵ_∞" (W-hat) is no accented "W_∞"

    def restore(match: re.Match) -> str:
        token = match.group(0)
        found = spelled.get(token.lower())
        if found is None or not token.isascii():
            return token
        if token.isupper() and len(token) > 1:
            return found.upper()
        return found[:1].upper() + found[1:] if token[:1].isupper() else found

    return _LETTERS.sub(restore, name)


_DASH = r"[\-‐‑‒–—]"


def _joined_letter(mark: str, before: str) -> bool:
    """Whether a letter written after ``before`` with ``mark`` between belongs to it: after a dash ("top-N"), or after
    a slash and another letter ("A/B"); a letter after a word and a slash starts a name of its own ("string/M")."""
    return bool(re.fullmatch(_DASH, mark)) or (mark == "/" and len(before) == 1)


_DASH_JOIN = re.compile(rf"([^\W_]+)({_DASH})(?=([^\W_]+))")


def _name_pair(left: str, right: str) -> bool:
    """Two words that a dash joins into a name when some form writes it: two capitalized words
    ("Yang Mills", "Hooft Polyakov") or a letter before a word ("p brane", "D brane"); not two
    lower-case words ("data mining" stays, though "data-mining techniques" is written)."""
    return (left[:1].isupper() and right[:1].isupper()) or (len(left) == 1 and left.isalpha())


def _dashes(surfaces: Counter[str]) -> dict[tuple[str, str], str]:
    """Pairs of words some form of a concept joins with a dash, and the dash: the name is written
    joined even where its most used form lost the dash ("Yang Mills theory" beside "Yang-Mills
    Theory", "p brane actions" beside "effective p-brane action").

    Examples
    --------
    >>> _dashes(Counter({"Non-Supersymmetric Yang–Mills Theory": 1, "Yang Mills theory": 3}))
    {('non', 'supersymmetric'): '-', ('yang', 'mills'): '–'}
    """
    out: dict[tuple[str, str], str] = {}
    for surface in surfaces:
        for match in _DASH_JOIN.finditer(unicodedata.normalize("NFKC", surface)):
            pair = (match.group(1).casefold(), match.group(3).casefold())
            if pair not in _SPACED_NAMES:
                out.setdefault(pair, match.group(2))
    return out


# Names of two words that English writes apart, whatever some texts do: "Monte Carlo simulation" (hep-th showed
# "Monte–Carlo simulation", one form's en dash, over 40 forms with a space)
_SPACED_NAMES = frozenset({("monte", "carlo"), ("hong", "kong"), ("new", "york"), ("los", "angeles"),
                           ("san", "francisco"), ("new", "zealand"), ("el", "niño"), ("el", "nino")})


_AFTER_DASH = re.compile(rf"(?<={_DASH})[^\W\d_]+")


def _titled_compounds(surface: str) -> bool:
    """Whether ``surface`` is in title case with compounds whose second word a title keeps in lower case:
    "Cloud-based Virtual Assistant", "Real-time Search Engines"; not "Fact-finders" (one word, a sentence's
    first), not "Japanese-to-English Text Retrieval" (a small word; its capitals are names').

    >>> _titled_compounds("Cloud-based Virtual Assistant"), _titled_compounds("Fact-finders")
    (True, False)
    >>> _titled_compounds("Japanese-to-English Text Retrieval"), _titled_compounds("cloud-based virtual assistant")
    (False, False)
    """
    chunks = [w for w in surface.split() if w[:1].isalpha()]
    lower = [w for w in _AFTER_DASH.findall(surface) if w.islower()]
    return len(chunks) > 1 and all(w[:1].isupper() for w in chunks) and bool(lower) \
        and not any(w in STOP_WORDS for w in lower)


def _shape(surface: str) -> str:
    """How ``surface`` is written, case and a last "s" aside: "Multi-agent systems" and "multi-agent system" alike."""
    folded = surface.casefold()
    return folded[:-1] if folded.endswith("s") else folded


def _one_case_per_name(written: list[str], cased: list[str]) -> None:
    """Give the words of a run the template capitalizes one case (in place): the case most of them
    were given ("Resource Description Framework data" is not "resource Description framework
    data"); an even split stays as it is ("Hilbert space methods").

    Examples
    --------
    >>> cased = ["resource", "Description", "framework", "data"]
    >>> _one_case_per_name(["Resource", "Description", "Framework", "data"], cased); cased
    ['resource', 'description', 'framework', 'data']
    >>> cased = ["ten", "supersymmetric", "Yang", "Mills", "theory"]
    >>> _one_case_per_name(["Ten", "Supersymmetric", "Yang", "Mills", "Theories"], cased); cased
    ['ten', 'supersymmetric', 'Yang', 'Mills', 'theory']
    >>> cased = ["hidden", "Markov", "model", "based", "approach"]
    >>> _one_case_per_name(["Hidden", "Markov", "Model", "based", "approaches"], cased); cased
    ['hidden', 'Markov', 'model', 'based', 'approach']
    >>> cased = ["Markov", "chain", "Monte", "Carlo", "method"]
    >>> _one_case_per_name(["Markov", "Chain", "Monte", "Carlo", "methods"], cased); cased
    ['Markov', 'Chain', 'Monte', 'Carlo', 'method']
    >>> cased = ["de", "Sitter", "quantum", "field", "theory"]
    >>> _one_case_per_name(["de", "Sitter", "Quantum", "Field", "Theory"], cased); cased
    ['de', 'Sitter', 'quantum', 'field', 'theory']
    """
    if len(written) != len(cased):
        return
    run: list[int] = []
    for i in range(len(written) + 1):
        word = written[i] if i < len(written) else ""
        if (word[:1].isupper() and word[1:].islower() and word.isalpha()
                and cased[i].casefold() == word.casefold()):
            run.append(i)
            continue
        votes = sum(cased[j][:1].isupper() for j in run)
        lower = any(w.isalpha() and w.islower() for k, w in enumerate(written) if k not in run)
        if len(run) > 1 and lower and 2 * votes != len(run):  # inside lower-case words, not a title's
            for j in run:
                if 2 * votes > len(run):
                    cased[j] = written[j]
                elif not cased[j][:1].isupper() or (_common_word(cased[j].lower())
                                                     and not (j and cased[j - 1] in PARTICLES)):
                    cased[j] = written[j].lower()  # but a name no lexicon knows keeps its capital: "hidden Markov
                    # model based approach" of a title-case "Hidden Markov Model based approaches"; and one after its
                    # particle, a word or not: "de Sitter quantum field theory"
        run = []


_JOINS = re.compile(rf"{_DASH}+|['’/]")
_WORD_SPAN = re.compile(r"(?:[^\W_]|[+#.∞])+")


def _spans(text: str) -> list[tuple[int, int]]:
    """Where the words of :func:`_cased_words` lie in ``text`` (already NFKC)."""
    out = []
    for match in _WORD_SPAN.finditer(text):
        start, end = match.span()
        while start < end and text[start] == ".":
            start += 1
        while end > start and text[end - 1] == ".":
            end -= 1
        if start < end:
            out.append((start, end))
    return out


# Adjectives made from a person's name that the corpus may write in lower case where reviewers read a broken name
# ("hermitian symmetric space", "non-hermitian quantum field theory": 20 of 42 labels broken); "abelian" is as often
# lower case in print, and was judged so
_EPONYMS = frozenset("hermitian hermitean".split())


def _true_word(word: str, forms: Counter[str], last: bool, truecase: Mapping[str, tuple[int, int]] | None,
               *, inside: bool = False, acronym: bool = False, shaped: Mapping[str, str] | None = None) -> str:
    """One word of a name: :func:`_word_name`, with the corpus's own casing deciding between
    capitalized and lower case when it has seen the word often enough away from sentence starts.
    A word ``inside`` a phrase (not its first) that the concept's own plain forms mostly
    capitalize is a name there, common word or not ("Virginia Tech"). A word the concept's forms
    write in no shape of a name (a title's "Svms", "Pagerank"; "http", "tf") is written as the corpus
    writes it (``shaped``, :func:`word_shapes`: "SVM", "PageRank", "HTTP", "TF")."""
    if last and (surname := _plural_surname(word, forms, truecase)):
        return surname
    if last and shaped and (plural := shaped.get(word, "")).casefold() == word + "s":
        return plural  # a name the texts write only in the plural (:func:`word_shapes`): "AspecTiles"
    if word in _EPONYMS:
        return word[:1].upper() + word[1:]
    chosen = _word_name(word, forms, last, acronym)
    if shaped and not _NAME_FORM.search(chosen) and (shape := _shape_of(word, shaped, last)) and (
            chosen.islower() or not shape.isupper()):
        return shape  # but a name the forms capitalize is no acronym: "Apollo mission" (the corpus's "APOLLO" is a system)
    capital, lower = (truecase or {}).get(word, (0, 0))
    if chosen.isupper() and len(chosen) > 3 and forms.get(chosen, 0) < 2 and lower >= 5 and lower > 10 * capital:
        return word  # a word the corpus writes in lower case, in capitals once: "a super CONFORMAL field theory"
    if not word.isalpha() or _NAME_FORM.search(chosen):
        return chosen
    capital_forms = sum(n for f, n in forms.items() if f[:1].isupper() and f[1:] == f[1:].lower())
    if inside and 2 * capital_forms > sum(forms.values()) and not (capital + lower >= 2 and 5 * capital < capital + lower):
        return word[:1].upper() + word[1:]  # unless the corpus writes it in lower case ("Information Retrieval research")
    if capital + lower >= 2:
        if 2 * capital > capital + lower:
            title = word[:1].upper() + word[1:]
            return word.upper() if forms.get(word.upper(), 0) > forms.get(title, 0) else title  # AI, not Ai; Web, not WEB
        if 5 * capital < capital + lower:
            return word
    if capital and not lower and capital_forms == sum(forms.values()) and not _common_word(word):
        return word[:1].upper() + word[1:]  # a rare word the corpus only capitalizes: "Eisenstein series"
    if truecase is not None and not lower and forms and all(f.isupper() and f.isalpha() for f in forms):
        return word.upper()  # a word the corpus never writes in lower case, its forms in capitals: "OCELOT", a system
    return chosen


def _first_name(word: str, forms: Counter[str], truecase: Mapping[str, tuple[int, int]]) -> bool:
    """Whether ``word``, a name's first word, may be capitalized as a name for want of any evidence: the corpus never
    writes it away from a sentence's start, every form capitalizes it, and it is no English word."""
    return (word.isalpha() and truecase.get(word, (0, 0)) == (0, 0) and bool(forms)
            and all(f[:1].isupper() and f[1:].islower() for f in forms) and not _common_word(word))


def _shape_of(word: str, shapes: Mapping[str, str], last: bool) -> str | None:
    """How the corpus writes ``word`` as a name (:func:`word_shapes`); a phrase's last word also as its plural
    does ("SVMs" for "svm"), but not a plural in capitals ("DES" is no plural of "de")."""
    if word in shapes:
        return shapes[word]
    plural = shapes.get(word + "s", "") if last else ""
    return plural[:-1] if plural.endswith("s") and plural[:-1].casefold() == word else None


_SHAPE_TOKEN = re.compile(r"(?<![\w/@.'’\-])([^\W\d_]*[A-Z][^\W\d_]*)(?![\w/@'’\-]|\.\w|:/)")  # not of a URL
_SHAPE_MIN = 3  # times the corpus writes the shape
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")  # a name of mixed case: "AspecTiles", "superHiggs" (not "GNNs")
_SHAPE_MIN_SHORT = 20  # of a word of two letters ("SU", "IR"), never written otherwise
_SHOUTED_BEFORE = re.compile(r"(?<![\w])[A-Z]{2,}[ \t]+$")  # a word in capitals before ("CD ROM")
_SHOUTED_AFTER = re.compile(r"[ \t]+[A-Z]{2,}\b")


def word_shapes(texts: Iterable[str], words: Iterable[str],
                truecase: Mapping[str, tuple[int, int]]) -> dict[str, str]:
    """For each word of ``words`` (lower case) that is no English word, the form ``texts`` write it in with
    a capital after its first letter ("XML", "SVMs", "PageRank", "RecSys"), where they write that form at
    least three times and more than twice as often as the word capitalized or in lower case (``truecase``,
    :func:`truecase_counts`): how a word is shown that a concept's own forms write only in a title ("Large
    Scale Linear Svms") or in lower case ("tf normalization"). A word in capitals beside another (a
    shouted phrase, "CD ROM") and the parts of addresses ("http://", "www.acm.org") do not count. A word of two
    letters needs twenty and no other case ("SU" of "SU(2)", "IR"; a line element's "ds" is no "dS").

    Examples
    --------
    >>> word_shapes(["We train SVMs and an SVM. Linear SVMs win; see http://x.org.", "SVMs and XML"],
    ...             {"svms", "svm", "http", "xml", "win"}, {"svms": (0, 1)})
    {'svms': 'SVMs'}

    A name of mixed case the texts write only in the plural is shown so, under its singular's key (the key's
    plural rule cut it): "AspecTiles" is a system, "AspecTile" no word; "ConvNets" are ConvNets where a text
    writes "ConvNet".

    >>> word_shapes(["AspecTiles and ConvNets, a ConvNet."], {"aspectiles", "aspectile", "convnets", "convnet"}, {})
    {'aspectile': 'AspecTiles'}
    """
    wanted = {w for w in words if len(w) > 1 and not _common_word(w)}
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for text in texts:
        for match in _SHAPE_TOKEN.finditer(text):
            token = match.group(1)
            low = token.lower()
            if low not in wanted or not _NAME_FORM.search(token):
                continue
            if token.isupper() and (_SHOUTED_BEFORE.search(text, max(0, match.start() - 40), match.start())
                                    or _SHOUTED_AFTER.match(text, match.end())):
                continue
            counts[low][token] += 1
    shapes = {}
    for low, forms in counts.items():
        form, n = min(forms.items(), key=lambda kv: (-kv[1], kv[0]))
        written = sum(truecase.get(low, (0, 0)))
        if len(low) == 2 and (written or n < _SHAPE_MIN_SHORT):
            continue  # two letters are as often a symbol: a line element's "ds" is no "dS", "g_N" no "GN"
        if n >= _SHAPE_MIN and n > 2 * written:
            shapes[low] = form
        single = low[:-1]
        if low.endswith("s") and single in wanted and single not in counts and not sum(truecase.get(single, (0, 0))) \
                and _INNER_CAPITAL.search(form[:-1]):
            shapes[single] = form  # a name only ever written in the plural: "AspecTiles", "HypTrails", "superHiggs"
    return shapes



_TRUECASE_TOKEN = re.compile(r"(?<![\w'’])([^\W\d_]{2,})(?=[^\w'’]|['’](?:s\b|[^\W\d_]{2})|$)")  # Green's, Bogomol'nyi
_SENTENCE_END = frozenset(".!?:")
_ADDRESS_PART = re.compile(r"://|\.[^\W\d_]{2}|@")  # "http://", "www.acm", "name@"


_WORD_BEFORE = re.compile(r"([^\W\d_]+)\s+$")
_EXPANDED = re.compile(r"(?:[\s\-–]+[A-Z][^\W\d_]*)*\s*\(")  # the rest of a capitalized run, then "("


def _after_capitalized_word(text: str, end: int) -> bool:
    """Whether the word that ends at ``text[:end]`` (spaces after it) is an ordinary English word
    written capitalized: the start of a capitalized run such as an acronym's long form ("Quantum
    Chromodynamics", "Latent Dirichlet Allocation"), whose capitals say nothing of the words after
    it. A name before stays evidence ("Monte Carlo", "Yang Mills")."""
    found = _WORD_BEFORE.search(text, max(0, end - 40), end + 1)
    if found is None:
        return False
    word = found.group(1)
    low = word.lower()
    return word[:1].isupper() and word[1:].islower() and low not in STOP_WORDS and _common_word(low)


_OF_NAME = re.compile(r"\s+of\s+(?:the\s+)?[A-Z]")  # "University of Otago", "Library of Congress"


def _capitalized(found: re.Match | None) -> bool:
    """Whether the word found before is capitalized (a name's word before this one; not "The", "In")."""
    return found is not None and found.group(1)[:1].isupper() and found.group(1).lower() not in STOP_WORDS


def truecase_counts(texts: Iterable[str], words: Container[str]) -> dict[str, tuple[int, int]]:
    """For each word of ``words`` (lower case), how often ``texts`` write it capitalized and in
    lower case where a sentence does not start: the evidence that a word is a name.

    Examples
    --------
    >>> truecase_counts(["Spaces are flat. We study de Sitter space and anti-de Sitter space."], {"sitter", "space"})
    {'sitter': (2, 0), 'space': (0, 2)}
    >>> truecase_counts(["We study Quantum Chromodynamics (QCD) and quantum chromodynamics at Monte Carlo."],
    ...                 {"chromodynamics", "carlo"})
    {'chromodynamics': (0, 1), 'carlo': (1, 0)}
    >>> truecase_counts(["It was used at Toronto's Mount Sinai Hospital for years."], {"sinai"})
    {'sinai': (1, 0)}
    >>> truecase_counts(["At Stanford University and the University of Otago, a university archive. The Web."],
    ...                 {"university", "web"})
    {'university': (0, 1), 'web': (1, 0)}
    """
    counts: dict[str, list[int]] = {}
    for text in texts:
        for match in _TRUECASE_TOKEN.finditer(text):
            token = match.group(1)
            low = fold_accents(token.lower())
            if _ADDRESS_PART.match(text, match.end()) or (match.start() and text[match.start() - 1] in "/.@"):
                continue  # "http://", "www.acm.org": no word of a sentence
            if low not in words or not (token[1:].islower() and (token[0].islower() or token[0].isupper())):
                continue  # lower case or capitalized only ("Nöther", "Bogomol'nyi"), not "BERT" or "AdS"
            i = match.start() - 1
            while i >= 0 and text[i].isspace():
                i -= 1
            if i < 0 or text[i] in _SENTENCE_END:
                continue
            if token[0].isupper() and _after_capitalized_word(text, i + 1) and _EXPANDED.match(text, match.end()):
                continue  # an acronym's capitalized long form ("Quantum Chromodynamics (QCD)") names no word in it
            row = counts.setdefault(low, [0, 0, 0])
            if token[0].isupper() and low in _INSTITUTIONS and (
                    _capitalized(_WORD_BEFORE.search(text, max(0, match.start() - 40), match.start()))
                    or _OF_NAME.match(text, match.end())):
                row[2] += 1  # a name's head ("Stanford University", "University of Otago", "TREC Microblog Track")
            else:
                row[0 if token[0].isupper() else 1] += 1
    # is evidence of a name alone only where the corpus never writes the word in lower case
    return {w: (c + (inside if not l else 0), l) for w, (c, l, inside) in counts.items()}


def title_evidence(title: str) -> str:
    """What of a title counts as evidence of names (:func:`truecase_counts`): nothing of a title in title case,
    and of one written as a sentence (:func:`sentence_case`) its words less its runs of capitalized words, which
    authors write for a field's terms ("… in Quantum Chromodynamics") as much as for names.

    Examples
    --------
    >>> title_evidence("The Malaysian model"), title_evidence("Lattice masses of glueballs in Quantum Chromodynamics")
    ('The Malaysian model', 'Lattice masses of glueballs in  ')
    >>> title_evidence("Mining Heterogeneous Information Networks")
    ''
    """
    if not sentence_case(title):
        return ""
    first, _, rest = title.partition(" ")
    if first.lower() in STOP_WORDS:  # "The Malaysian model": the article is no part of a run
        return f"{first} {_CAPITALIZED_RUN.sub(' ', rest)}"
    return _CAPITALIZED_RUN.sub(" ", title)


def sentence_case(title: str) -> bool:
    """Whether a title is written like a sentence, so that its capitals after the first word are names'
    ("The Malaysian model", "On a Diophantine equation"), unlike a title in title case ("Mining Heterogeneous
    Information Networks"), whose capitals say nothing: at least half of its longer words after the first (four
    letters or more, no stop word, no acronym) are in lower case.

    Examples
    --------
    >>> sentence_case("The Malaysian model"), sentence_case("On a Diophantine equation of degree three")
    (True, True)
    >>> sentence_case("Mining Heterogeneous Information Networks"), sentence_case("BERT"), sentence_case("The Malaysian Model")
    (False, False, False)
    """
    words = [w for w in _PHRASE_WORD.findall(title)[1:]
             if len(w) >= 4 and w.isalpha() and not w.isupper() and w.lower() not in STOP_WORDS]
    lower = sum(w[0].islower() for w in words)
    return lower > 0 and 2 * lower >= len(words)


# A name capitalized in this share of all its occurrences, its acronym's definitions counted, is a proper name
_DEFINED_NAME_SHARE = 0.8
_CAPITALIZED_RUN = re.compile(r"\b([A-Z][a-z]+(?:[ \-‐‑–][A-Z][a-z]+)+)\b")
_PHRASE_WORD = re.compile(r"[^\W_]+")


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(_PHRASE_WORD.findall(fold_accents(text.casefold())))


def proper_names(texts: Iterable[str], names: Mapping[str, str], *, min_count: int = 3, min_texts: int = 3,
                 share: float = 0.6, defined_share: float = _DEFINED_NAME_SHARE) -> set[str]:
    """The ids of ``names`` (id -> name, words in lower case among them) that ``texts`` write as a
    proper name: every word capitalized, away from a sentence's start and from an acronym's
    definition, at least ``min_count`` times in ``min_texts`` texts, and in ``share`` of all their occurrences but
    those definitions ("Semantic Web", "World Wide Web", "Linked Open Data", which half its texts define as "Linked
    Open Data (LOD)"; not "hidden Markov model", which a few write "Hidden Markov Model"). A name the texts write
    capitalized in ``defined_share`` of their occurrences away from a sentence's start, definitions counted, is one too
    (so many times as that and in as many texts): "Resource Description Framework", written almost only to define
    "RDF", and in capitals 17 times of 20 (not "latent Dirichlet allocation", which half as many texts define in
    lower case). A name's plural counts as the name; a name that starts with a particle ("de Sitter space") is left
    as it is written.

    Examples
    --------
    >>> texts = ["We link the Semantic Web to data. The Semantic Web grows.", "On the Semantic Web, the semantic web",
    ...          "We study the Semantic Web.", "A hidden Markov model, a Hidden Markov Model, and Hidden Markov Models.",
    ...          "A new Hidden Markov Model.", "Each Hidden Markov Model and hidden Markov model.",
    ...          "Two hidden Markov models: a hidden Markov model and a hidden Markov model."]
    >>> sorted(proper_names(texts, {"c:sw": "semantic Web", "c:hmm": "hidden Markov model"}))
    ['c:sw']
    >>> texts = ["In the Resource Description Framework (RDF).", "Using the Resource Description Framework (RDF) here",
    ...          "As RDF (Resource Description Framework) data.", "A resource description framework (RDF).",
    ...          "See the Resource Description Framework (RDF)."]
    >>> sorted(proper_names(texts, {"c:rdf": "resource description framework"}))
    ['c:rdf']
    """
    wanted: dict[tuple[str, ...], str] = {}
    for cid, name in names.items():
        words = _phrase(name)
        if 1 < len(words) <= 6 and any(w.isalpha() and w.islower() for w in name.split()) \
                and words[0] not in PARTICLES:
            wanted[words] = cid  # not "de Donder-Weyl": a sentence may start with "De Donder", a name never does
    texts = list(texts)
    capital: Counter[str] = Counter()
    defining: Counter[str] = Counter()  # capitalized before an acronym's parenthesis: neither way
    papers: dict[str, set[int]] = defaultdict(set)
    defined_in: dict[str, set[int]] = defaultdict(set)
    opening: Counter[str] = Counter()  # the first words of a sentence: capitalized whatever they are
    for t, text in enumerate(texts):  # first the capitalized runs: few, and only their names need counting
        for match in _CAPITALIZED_RUN.finditer(text):
            i = match.start() - 1
            while i >= 0 and text[i].isspace():
                i -= 1
            words = _phrase(match.group(1))
            first = 1 if i < 0 or text[i] in _SENTENCE_END else 0  # a sentence's first word may be any word
            defined = text[match.end():match.end() + 3].lstrip().startswith("(")
            for b in range(2, len(words) + 1) if first else ():
                opening[_wanted(wanted, words[:b])] += 1
            for a in range(first, len(words) - 1):  # every part of the run: "Semantic Web" in "Semantic Web Services"
                for b in range(a + 2, len(words) + 1):
                    cid = _wanted(wanted, words[a:b])
                    if cid and defined and b == len(words):
                        defining[cid] += 1
                        defined_in[cid].add(t)
                    elif cid:
                        capital[cid] += 1
                        papers[cid].add(t)
    counted = {words: cid for words, cid in wanted.items()
               if capital[cid] >= min_count and len(papers[cid]) >= min_texts
               or capital[cid] + defining[cid] >= min_count and len(papers[cid] | defined_in[cid]) >= min_texts}
    every = _occurrences(texts, counted)
    return {cid for cid in counted.values() if capital[cid] >= min_count and len(papers[cid]) >= min_texts
            and capital[cid] >= share * (every[cid] - defining[cid])
            or capital[cid] + defining[cid] >= defined_share * (every[cid] - opening[cid])}


def _occurrences(texts: list[str], wanted: Mapping[tuple[str, ...], str]) -> Counter[str]:
    """How often ``texts`` write each phrase of ``wanted`` (words -> id; a plural counts), in any case."""
    firsts: dict[str, set[int]] = defaultdict(set)
    for words in wanted:
        firsts[words[0]].add(len(words))
    every: Counter[str] = Counter()
    for text in texts if wanted else ():
        tokens = _phrase(text)
        for i, token in enumerate(tokens):
            for n in firsts.get(token, ()):
                cid = _wanted(wanted, tuple(tokens[i:i + n])) if i + n <= len(tokens) else None
                if cid:
                    every[cid] += 1  # (near the end, a longer phrase's slice is a shorter one: counted once)
    return every


def _wanted(wanted: Mapping[tuple[str, ...], str], words: tuple[str, ...]) -> str | None:
    """The id ``words`` name, or their singular does ("Hidden Markov Models")."""
    found = wanted.get(words)
    if found is None and words and words[-1].endswith("s"):
        found = wanted.get(words[:-1] + (words[-1][:-1],))
    return found


def names_inside(name: str, proper: Mapping[tuple[str, ...], str]) -> str:
    """``name`` with each run of its words that is one of the corpus's proper names written as that name:
    ``proper`` maps a name's words (split at spaces, case folded; two words or more) to the name as shown.
    The longest name from each word on wins; the other words keep their case. A concept's name reads each
    word's case alone, and so wrote "semantic Web technology" where the corpus's name is "Semantic Web".

    Examples
    --------
    >>> proper = {("semantic", "web"): "Semantic Web", ("world-wide", "web"): "World-Wide Web"}
    >>> names_inside("semantic Web technology", proper), names_inside("emerging semantic web", proper)
    ('Semantic Web technology', 'emerging Semantic Web')
    >>> names_inside("world-wide Web page", proper), names_inside("semantic search", proper)
    ('World-Wide Web page', 'semantic search')
    """
    words = name.split(" ")
    folded = [w.casefold() for w in words]
    longest = max((len(k) for k in proper), default=0)
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + longest), i + 1, -1):
            shown = proper.get(tuple(folded[i:j]))
            if shown is not None and (i, j) != (0, len(words)):
                words[i:j] = shown.split(" ")
                i = j
                break
        else:
            i += 1
    return " ".join(words)


def capitalized(name: str) -> str:
    """``name`` with each lower-case word capitalized, after a dash too: "World-Wide Web".

    >>> capitalized("semantic Web"), capitalized("world-wide Web")
    ('Semantic Web', 'World-Wide Web')
    """
    return re.sub(r"(?<![\w'’])([a-z])(?=[a-z]*\b)", lambda m: m.group(1).upper(), name)


# Heads of the names of things that exist once: an event, a law, an organization, a tool, a collection or a
# shared task ("Text Retrieval Conference", "General Data Protection Regulation", "Digital Public Library of
# America", "Climate Change Collection", "TREC Conversational Assistance Track", "Million Song Dataset").
ENTITY_HEADS = frozenset("""conference workshop symposium regulation act directive toolkit project partnership
    foundation initiative institute agency association society council consortium archive museum university
    laboratory committee organization organisation federation alliance collection track challenge competition
    corpus dataset library forum registry center centre exchange programme""".split())  # "HathiTrust Digital Library",
# "Deep Graph Library", "Cross-Language Evaluation Forum", "Event Registry", "Atmospheric Science Data Center", "Music
# Information Retrieval Evaluation eXchange"
_HEADS_BEFORE_OF = frozenset("library group center centre school department bureau office".split())  # "Library of"
# Heads of names of institutions, events and collections: capitalized in a name ("Stanford University", "TREC Web
# Track"), which says nothing of the word alone ("university archive")
_INSTITUTIONS = ENTITY_HEADS | _HEADS_BEFORE_OF
# Of these, heads of organizations' own names, capitalized after a name's word ("Peking University", "Alan Turing
# Institute"); not a name's data or events ("Twitter dataset", "Netflix challenge", "Wikimedia project")
_ORGANIZATIONS = frozenset("""university college institute academy museum foundation laboratory hospital bureau agency
    council ministry""".split())
# A name some texts write in lower case too: capitalized in two of three places, four at least ("ACM Digital Library"
# 13 times, "ACM digital library" twice; "TREC Robust Track")
_ENTITY_MIN = 4
_ENTITY_JOINS = frozenset("of on for and the in de to".split())
# (a word may start with a small letter before its capital: "Evaluation eXchange")
_ENTITY_RUN = re.compile(r"[A-Z][\w'’]*(?:[ \-–]+(?:(?:of|on|for|and|the|in|de|to)\s+)*[a-z]?[A-Z][\w'’]*)+")


def named_entities(texts: Iterable[str], names: Mapping[str, str], *,
                   heads: Collection[str] = ENTITY_HEADS) -> set[str]:
    """The ids of ``names`` (id -> name) that name one thing ("Text Retrieval Conference", "General Data Protection
    Regulation", "Digital Public Library of America"): a name of two words or more whose last is one of ``heads``
    (or one of them, or "library", "group" and a few more, is before "of", "on" or "for"),
    that ``texts`` write with every word but the small ones capitalized away from a sentence's start (an acronym's
    definition counts: :func:`proper_names` sets those aside for terms, but a conference is no term), and never
    otherwise, or in two places of three and four times at least. A name's plural counts as the name.

    Examples
    --------
    >>> texts = ["We follow the General Data Protection Regulation (GDPR).",
    ...          "Under the General Data Protection Regulation", "At the 5th workshop we met.",
    ...          "The Digital Public Library of America holds images.",
    ...          "A text retrieval conference and a Text Retrieval Conference."]
    >>> sorted(named_entities(texts, {"c:g": "general data protection regulation", "c:d": "digital public library",
    ...                               "c:a": "digital public library of america", "c:t": "text retrieval conference"}))
    ['c:a', 'c:g']
    """
    wanted: dict[tuple[str, ...], str] = {}
    for cid, name in names.items():
        words = _phrase(name)
        headed = words[-1] in heads or any(w in heads | _HEADS_BEFORE_OF and v in ("of", "on", "for")
                                           for w, v in zip(words, words[1:]))
        if 1 < len(words) <= 8 and headed and any(w.isalpha() and w.islower() for w in name.split()):
            wanted[words] = cid
    if not wanted:
        return set()
    texts = list(texts)
    capital: Counter[str] = Counter()
    for text in texts:
        for match in _ENTITY_RUN.finditer(text):
            i = match.start() - 1
            while i >= 0 and text[i].isspace():
                i -= 1
            words = _phrase(match.group())
            for a in range(1 if i < 0 or text[i] in _SENTENCE_END else 0, len(words) - 1):
                for b in range(a + 2, len(words) + 1):
                    cid = _wanted(wanted, words[a:b])
                    if cid and (b == len(words) or words[b] not in _ENTITY_JOINS):  # not "Digital Public Library"
                        capital[cid] += 1  # of "Digital Public Library of America"
    every = _occurrences(texts, {words: cid for words, cid in wanted.items() if capital[cid]})
    return {cid for cid, n in capital.items() if n >= every[cid] or (n >= _ENTITY_MIN and 3 * n >= 2 * every[cid])}


# Heads of a kind of method or structure: a title-cased name of one is a term, singular ("Kronecker Graph",
# "Hidden Markov Support Vector Machine", "Odd Sketch"), whatever its title wrote.
_KIND_HEADS = frozenset("""model machine network process system graph sketch transformer algorithm method technique
    framework representation structure type collection embedding filter classifier index tree field theory equation
    operator function matrix space chain architecture""".split())


def institution_after_name(name: str) -> str:
    """``name`` with the head of an organization's name (:data:`_ORGANIZATIONS`) capitalized after a name's word
    ("Peking University library", "Eötvös University"): the corpus's casing of the word alone, which a name's head
    is no evidence of, left it in lower case. After an acronym or an English word it stays ("TREC Web track",
    "SIGIR conference"), and a name's data is no organization ("Twitter dataset", "Wikipedia corpus").

    Examples
    --------
    >>> institution_after_name("Peking university library"), institution_after_name("TREC Web track query")
    ('Peking University library', 'TREC Web track query')
    >>> institution_after_name("Twitter dataset"), institution_after_name("Chinese university ranking")
    ('Twitter dataset', 'Chinese university ranking')
    """
    words = name.split(" ")
    for i in range(1, len(words)):
        before = words[i - 1]
        if words[i] in _ORGANIZATIONS and before[:1].isupper() and before[1:].islower() and before.isalpha() \
                and not _common_word(before.lower()) and word_class(before) != "JJ":  # not "Chinese university"
            words[i] = words[i].capitalize()
    return " ".join(words)


def proper_plural(name: str, surfaces: Mapping[str, int]) -> str:
    """``name`` with its last word in the plural where it is a proper name the corpus writes so: every word of the
    name is capitalized, its last word is an English noun (not "Hamiltonian", "Lagrangian") that names no kind of
    method or structure (:data:`_KIND_HEADS`), and most of the concept's ``surfaces`` (form -> occurrences) end in
    that word's plural, capitalized ("Google Maps", "Medical Subject Headings", "Amazon Web Services", "North
    Carolina State Archives"; the key is singular to group "Google Map" with them).

    Examples
    --------
    >>> proper_plural("Google Map", {"Google Maps": 3, "Google Map": 1}), proper_plural("Google Map", {"Google Map": 2})
    ('Google Maps', 'Google Map')
    >>> proper_plural("Amazon Web Service", {"Amazon Web Services": 1, "Amazon Web services": 1})
    'Amazon Web Services'
    >>> proper_plural("Web Observatory", {"Web Observatory": 2, "Web observatories": 3})
    'Web Observatory'
    >>> proper_plural("effective Lagrangian", {"effective Lagrangians": 3}), proper_plural("Web API", {"Web APIs": 2})
    ('effective Lagrangian', 'Web API')
    >>> proper_plural("Kronecker Graph", {"Kronecker Graphs": 2}), proper_plural("Landau-Ginzburg Lagrangian",
    ...     {"Landau-Ginzburg Lagrangians": 3}), proper_plural("Poisson-commuting Tree", {"Poisson-commuting Trees": 3})
    ('Kronecker Graph', 'Landau-Ginzburg Lagrangian', 'Poisson-commuting Tree')
    """
    words = name.split(" ")
    last = words[-1]
    parts = [part for word in words for part in re.split(r"[-–]", word) if part]
    if len(words) < 2 or not all(part[:1].isupper() for part in parts) or not (
            last.isalpha() and last[1:].islower()) or last.lower() in _KIND_HEADS or not _common_word(last.lower()):
        return name
    plural: Counter[str] = Counter()
    lower = 0  # the plural in lower case: "Amazon Web services such as" writes the name too, where no form is singular
    for surface, n in surfaces.items():
        written = surface.split()[-1] if surface.split() else ""
        if written[1:].islower() and written.casefold() != last.casefold() \
                and singularize(written.lower()) == last.lower():
            if written[:1].isupper():
                plural[written] += n
            else:
                lower += n
    shown = sum(plural.values()) + (lower if sum(plural.values()) + lower == sum(surfaces.values()) else 0)
    if not plural or 2 * shown <= sum(surfaces.values()):
        return name
    return " ".join([*words[:-1], plural.most_common(1)[0][0]])


def entity_name(name: str) -> str:
    """``name`` with every word but the small ones capitalized: "Digital Public Library of America".

    >>> entity_name("digital public library of America"), entity_name("text REtrieval conference")
    ('Digital Public Library of America', 'Text REtrieval Conference')
    """
    def capital(m: re.Match) -> str:
        return m.group() if m.group() in STOP_WORDS and m.start() else m.group(1).upper() + m.group(2)

    return re.sub(r"(?<![\w'’\-])([a-z])([\w'’]*)", capital, name)


_RUN_WORD = re.compile(r"[a-z]{3,}")  # a lower-case word a run may capitalize
_RUN_ANCHOR = re.compile(r"[A-Z][a-z]+|[A-Z][a-z]+[A-Z][A-Za-z]*")  # "Humanities", "LinkedIn"; not "BERT", not "N=1"
_PHRASE_TOKEN = re.compile(r"[^\W\d_]+|[^\w\s\-‐‑–'’]")  # words, and the marks between them (a dash joins)
_LONGEST_RUN = 6  # words
_RUN_SMALL = frozenset("of and for on the".split())  # small words a name's run holds: "National Library of Medicine"


def _plurals(word: str) -> tuple[str, ...]:
    return (word, word + "s", word + "es", word[:-1] + "ies") if word.endswith("y") else (word, word + "s", word + "es")


def _runs(words: Sequence[str]) -> list[tuple[int, int]]:
    """The spans of ``words`` one case could join: each run of a capitalized word and lower-case words next to it
    (no word in capitals; a small word only inside: "Library of medicine"), longest first."""
    ok = [bool(_RUN_ANCHOR.fullmatch(w) or (_RUN_WORD.fullmatch(w) and w not in STOP_WORDS)) for w in words]
    small = [w in _RUN_SMALL for w in words]
    spans = [(a, b) for a in range(len(words)) for b in range(a + 2, min(len(words), a + _LONGEST_RUN) + 1)
             if ok[a] and ok[b - 1] and all(ok[i] or small[i] for i in range(a, b))
             and any(_RUN_ANCHOR.fullmatch(w) for w in words[a:b])
             and any(w.islower() and not s for w, s in zip(words[a:b], small[a:b]))]
    return sorted(spans, key=lambda span: (span[0] - span[1], span[0]))


def phrase_cases(texts: Iterable[str],
                 phrases: Iterable[tuple[str, ...]]) -> dict[tuple[str, ...], tuple[int, int, int]]:
    """How often ``texts`` write each phrase of ``phrases`` (words in lower case; the last also in the
    plural) away from a sentence's start: with every word capitalized, every word in lower case, and
    otherwise.

    >>> phrase_cases(["Minkowski Space. We study Minkowski space; the Minkowski Spaces are flat in minkowski space."],
    ...              [("minkowski", "space"), ("flat", "space")])
    {('minkowski', 'space'): (1, 1, 1)}
    >>> phrase_cases(["On the Vaidya Spacetimes and a Vaidya spacetime."], [("vaidya", "spacetime"), ("vaidya", "spacetimes")])
    {('vaidya', 'spacetimes'): (1, 0, 0), ('vaidya', 'spacetime'): (0, 0, 1)}
    """
    wanted: dict[str, dict[tuple[str, ...], tuple[str, ...]]] = defaultdict(dict)  # first word -> rest -> phrase
    for phrase in sorted(phrases):  # a form two phrases could be ("spacetimes": "spacetime" in the plural, or itself)
        for last in _plurals(phrase[-1]):  # is the phrase written so, whatever the order of ``phrases``
            rest = (*phrase[1:-1], last)
            if last == phrase[-1] or rest not in wanted[phrase[0]]:
                wanted[phrase[0]][rest] = phrase
    lengths = {first: {len(rest) for rest in rests} for first, rests in wanted.items()}
    counts: dict[tuple[str, ...], list[int]] = {}
    for text in texts if wanted else ():
        tokens = _PHRASE_TOKEN.findall(text)
        for i in range(1, len(tokens) - 1):  # the first token starts a sentence
            rests = wanted.get(tokens[i].lower())
            if rests is None or tokens[i - 1] in _SENTENCE_END:
                continue
            for n in lengths[tokens[i].lower()]:
                phrase = rests.get(tuple(t.lower() for t in tokens[i + 1:i + 1 + n]))
                if phrase is not None:
                    row = counts.setdefault(phrase, [0, 0, 0])
                    written = tokens[i:i + 1 + n]
                    capital = all(t[:1].isupper() or (t in _RUN_SMALL and 0 < k < n) for k, t in enumerate(written))
                    row[0 if capital else 1 if all(t.islower() for t in written) else 2] += 1
    return {phrase: (c, low, mixed) for phrase, (c, low, mixed) in counts.items()}


_AFTER_NAME = re.compile(r"(?<![\w'’\-])([A-Z][a-z]{2,})(?=[ \t]+([A-Za-z][a-z]+)\b)")  # the name, then the word
_NAME_HEAD_SHARE = 0.9  # a noun the corpus writes in lower case after names this often (of ten times or more)
_PERSON_LIKE = re.compile(r"[A-Z][a-z]+")  # "Schur", "Lagrange"; not a product's "GenoMetric", "InfoSphere", "HTRC"


def cases_after_names(texts: Iterable[str], words: Collection[str]) -> dict[str, tuple[int, int]]:
    """For each word of ``words`` (lower case; its plural counted with it), how often ``texts`` write it in
    lower case and capitalized right after a name (a capitalized word that is no English word, away from a
    sentence's start): how the field writes a noun after a person's name ("Dirac operator", "Lagrange
    multipliers"; ACM-CR's "Google Scholar").

    >>> cases_after_names(["The Dirac operator and Lagrange multipliers. A Krein Operator. Operator in"],
    ...                   {"operator", "multiplier"})
    {'operator': (1, 1), 'multiplier': (1, 0)}
    """
    forms: dict[str, str] = {}
    for word in sorted(words):  # a form that is a word of ``words`` counts for itself ("spacetimes"), whatever
        for form in _plurals(word):  # the order of ``words``
            if form == word or form not in forms:
                forms[form] = word
    counts: dict[str, list[int]] = {}
    for text in texts:
        for match in _AFTER_NAME.finditer(text):
            word = forms.get(match.group(2).lower())
            if word is None or _common_word(match.group(1).lower()):
                continue
            i = match.start() - 1
            while i >= 0 and text[i].isspace():
                i -= 1
            if i < 0 or text[i] in _SENTENCE_END:
                continue
            row = counts.setdefault(word, [0, 0])
            row[0 if match.group(2).islower() else 1] += 1
    return {w: (low, capital) for w, (low, capital) in counts.items()}


def _term_after_name(words: Sequence[str], i: int, after_names: Mapping[str, tuple[int, int]]) -> bool:
    """Whether ``words[i]`` follows a name and is a noun the corpus writes in lower case after names
    (:func:`cases_after_names`): "Schur multiplier", not "Linked Data" (no name), "Library of Medicine" or a
    product's "GenoMetric Query Language"."""
    low, capital = after_names.get(words[i].lower(), (0, 0))
    return i > 0 and words[i].islower() and low >= 10 and low >= _NAME_HEAD_SHARE * (low + capital) \
        and _PERSON_LIKE.fullmatch(words[i - 1]) is not None and not _common_word(words[i - 1].lower())


def run_phrases(names: Iterable[str]) -> set[tuple[str, ...]]:
    """The phrases of ``names`` that :func:`one_case_per_run` asks the corpus about (:func:`phrase_cases`)."""
    out = set()
    for name in names:
        words = name.split(" ")
        out.update(tuple(w.casefold() for w in words[a:b]) for a, b in _runs(words))
    return out


def one_case_per_run(name: str, texts: Iterable[str],
                     corpus: Mapping[tuple[str, ...], tuple[int, int, int]] | None = None,
                     truecase: Mapping[str, tuple[int, int]] | None = None,
                     after_names: Mapping[str, tuple[int, int]] | None = None) -> str:
    """``name`` with the words of a run of a capitalized word and lower-case words next to it in one case,
    as ``texts`` (the papers that mention the concept) and the corpus write the run away from a sentence's
    start (``corpus``, :func:`phrase_cases` over all papers; without it, ``texts`` alone).

    The longest run the texts write capitalized every time (once at least), and the corpus in two thirds
    of its occurrences or more, is capitalized: "Digital Humanities community", "Face with Rolling Eyes
    emoji", "LinkedIn Economic Graph", "Chicago Public Library" (per-word casing, which reads each word
    over the whole corpus, gave "LinkedIn economic graph" and "Chicago Public library"). Where no run is,
    a common word capitalized next to a lower-case word the corpus writes the two in lower case with (two
    thirds of three occurrences or more), and writes in lower case more often than capitalized on its own
    (``truecase``, :func:`truecase_counts`), goes to lower case ("digital humanities community" where the
    corpus writes so; "Web page" stays where the corpus capitalizes "Web"). A field's term one paper
    capitalizes stays as the corpus writes it ("Borel transform", "Minkowski space"), and so do "de Sitter
    space" and "hidden Markov model"; a word in capitals is no anchor ("RDF data"). No run capitalizes a noun
    the corpus writes in lower case after names nine times in ten (``after_names``, :func:`cases_after_names`)
    where it follows a name: "Schur multiplier", "Krein operator", though their papers capitalize them; "Linked
    Data" and "National Library of Medicine" follow no name.

    Examples
    --------
    >>> one_case_per_run("digital Humanities community", ["in the Digital Libraries and Digital Humanities communities."])
    'Digital Humanities community'
    >>> one_case_per_run("LinkedIn economic graph", ["leadership in systems design for LinkedIn Economic Graph, Google"])
    'LinkedIn Economic Graph'
    >>> one_case_per_run("Odd sketch", ["we introduce the Odd Sketch, a compact sketch. Odd Sketches are"])
    'Odd Sketch'
    >>> one_case_per_run("National Library of medicine", ["indexed by the National Library of Medicine (NLM)"])
    'National Library of Medicine'
    >>> one_case_per_run("hidden Markov model", ["A Hidden Markov Model here and a hidden Markov model there."])
    'hidden Markov model'
    >>> one_case_per_run("de Sitter space", ["De Sitter space is studied."])
    'de Sitter space'
    >>> one_case_per_run("Borel transform", ["We take the Borel Transform."], {("borel", "transform"): (1, 0, 4)})
    'Borel transform'
    >>> one_case_per_run("digital Humanities community", ["the Digital Humanities community"],
    ...                  {("digital", "humanities", "community"): (1, 0, 0), ("digital", "humanities"): (2, 6, 1)},
    ...                  {"humanities": (10, 30)})
    'digital humanities community'
    >>> one_case_per_run("Web page", [], {("web", "page"): (2, 973, 10)}, {"web": (900, 300)})
    'Web page'
    >>> one_case_per_run("Schur multiplier", ["SU(3)-orbifolds which have non-trivial Schur Multipliers."],
    ...                  after_names={"multiplier": (66, 2)})
    'Schur multiplier'
    >>> one_case_per_run("Haldane Shastry model", ["the Haldane Shastry Model"], after_names={"model": (900, 20)})
    'Haldane Shastry model'
    """
    words = name.split(" ")
    spans = _runs(words)
    if not spans:
        return name
    texts = list(texts)
    keys = {span: tuple(w.casefold() for w in words[slice(*span)]) for span in spans}
    own = phrase_cases(texts, set(keys.values()))
    every = corpus if corpus is not None else own
    done: set[int] = set()
    for span in spans:  # longest first
        if done.intersection(range(*span)):
            continue
        capital, lower, mixed = own.get(keys[span], (0, 0, 0))
        seen = every.get(keys[span], (capital, lower, mixed))
        if capital and not lower + mixed and 3 * seen[0] >= 2 * sum(seen):
            if not any(_term_after_name(words, i, after_names or {}) for i in range(*span)):
                for i in range(*span):
                    if words[i] not in _RUN_SMALL:
                        words[i] = words[i][:1].upper() + words[i][1:]
            done.update(range(*span))  # a field's term stays as it was, its parts too ("Haldane Shastry model")
    for a, b in spans:
        if b - a != 2 or done.intersection((a, b - 1)):
            continue
        seen = every.get(keys[a, b], (0, 0, 0))
        anchor = a if words[a][:1].isupper() else a + 1
        capital, lower = (truecase or {}).get(words[anchor].lower(), (0, 0))
        if seen[1] >= 3 and 3 * seen[1] >= 2 * sum(seen) and lower > capital and words[anchor].isalpha() \
                and not _NAME_FORM.search(words[anchor]) and _common_word(words[anchor].lower()):
            words[anchor] = words[anchor].lower()
    return " ".join(words)
