"""Derived titles: a short label for a paper that comes without a title.

Three tries, in order:

1. **The name the paper introduces**: the token after "we propose/present/introduce",
   "called/named/dubbed", "we call", "our approach, …", or the ``(ACRONYM)`` that closes the
   object of such a verb ("we tackle … by developing a unified crystal representation …
   (UniMat)"). Among several, the one the abstract repeats most wins, so a side acronym
   mentioned once ("… Density Function Theory (DFT)") never names the paper. The name is
   followed by what the abstract says it is, when that is short: its long form ("CLEX:
   Continuous Length EXtrapolation") or its apposition ("GRAD: game-theoretic approach").
2. **What the paper does**: the object of "we propose/present/study/analyze/extend …"
   ("Approach to point-cloud pre-training"), unless it is only generic words ("the more
   challenging and practical setting").
3. **What the abstract is about**: the noun phrase that opens its first sentence, after a
   leading subordinate clause ("Due to its empirical success …, meta-learning has …").

The abstract's first words are the last resort.
"""

from __future__ import annotations

import re

__all__ = ["derive_title"]

_EMPHASIS = re.compile(r"\*\*|__|\\text(?:bf|it)\{([^{}]*)\}|\$\\textbf\{([^{}]*)\}\$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
_NAME_TOKEN = r"[A-Za-z][\w\-]*[A-Z0-9][\w\-]*(?:\+\+|\+)?"
# "we propose", "this paper introduces", "we design", "is proposed" ...
_SUBJECT = r"(?:\b[Ww]e|\b[Tt]his (?:paper|work|study|article)|\b[Oo]ur (?:work|paper))(?:\s+\w+ly)?"
_INTRO_VERBS = r"(?:propos|present|introduc|develop|design|build|construct|creat|launch|offer)(?:e|es|ed|ing|s)?"
_STUDY_VERBS = (r"(?:propos|present|introduc|develop|design|stud(?:y|ies)|analy[sz]|investigat|examin|explor"
                r"|extend|focus(?:es)? on|revisit|tak(?:e|es) (?:(?:initial|first|a) )?steps? (?:on|towards?))"
                r"(?:e|es|ed|s)?")
_INTRO = re.compile(_SUBJECT + r"\s+(?:\w+ly\s+)?(?:(?:also|further|then|first)\s+)?" + _INTRO_VERBS + r"\b"
                    r"|\bby (?:developing|proposing|introducing|designing|building)\b"
                    r"|\b(?:called|named|dubbed|termed|coined|namely)\b|\b[Ww]e (?:call|name|dub|term)\b"
                    r"|\b[Oo]ur (?:approach|method|model|framework|algorithm|system|tool|toolkit),")
_STUDY = re.compile(_SUBJECT + r"\s+(?:\w+ly\s+)?" + _STUDY_VERBS + r"\b")
_LEAD = re.compile(r"^(?:(?:an?|the|this|such an?|these)\s+)?(?:(?:new|novel|simple|general|first|"
                   r"straightforward|principled|(?:(?:the|a|an)\s+)?(?:family|class|set|scope|problem|task|notion)"
                   r"\s+of)\s+|,\s*)*")
_PAREN = re.compile(r"\(\s*([^()\s]{2,24})\s*\)")
_CLAUSE_END = re.compile(r"[,;:.(]|\s(?:that|which|where|whose|to|in order|by|using|based on)\s")
# Where the phrase a name abbreviates starts, inside the object of an introducing verb.
_DESCRIBED = re.compile(r"^.*\b(?:called|named|dubbed|termed|by|as|developing|proposing|introducing)\s+")
_STOP_TAIL = frozenset("a an the of for to in on with by and or via that which as from its their".split())
_GENERIC = frozenset(
    """a an the more most less challenging practical setting settings problem problems method methods approach
    approaches framework model models solution question task tasks case cases way new novel simple
    general this that these such important different various partial explanation analysis
    study work paper step steps initial first and or of for in""".split()
)
_SUBORDINATE = re.compile(r"^(?:While|Although|Though|Despite|Due to|With|Since|Because|As|Given|"
                          r"In (?:recent|the past)|Recently|Over|Unlike)\b[^,]{0,200},\s*")
_NP_STOP = re.compile(
    r"[,;:.(]|\s(?:is|are|was|were|has|have|had|can|could|may|might|will|would|should|must|aims?|"
    r"seeks?|remains?|plays?|offers?|provides?|enables?|allows?|achieves?|shows?|requires?|suffers?|"
    r"faces?|becomes?|emerged?|attracts?|receives?|that|which|who|where|to|in|on|for|with|by)\s",
)


def _is_name(token: str) -> bool:
    """A method name has a capital or digit inside a word: YaRN, ByzSGDnm, DOS, LUM-ViT, CH3;
    not a compound of capitalized words ("Excitation-Inhibition", "Burer-Monteiro").

    Examples
    --------
    >>> [_is_name(t) for t in ["YaRN", "H-CAT", "USB-NeRF", "Burer-Monteiro", "Mowst", "GPT-4"]]
    [True, True, True, False, False, True]
    """
    return any(any(ch.isupper() or ch.isdigit() for ch in part[1:]) or part.isdigit()
               for part in re.split(r"[\-+]", token) if part) and any(ch.isalpha() for ch in token)


def _count(name: str, text: str) -> int:
    return len(re.findall(r"(?<![\w\-])" + re.escape(name) + r"(?![\w\-])", text))


def _words(text: str) -> list[str]:
    return text.split()


def _trim(phrase: str, max_words: int) -> str:
    """``phrase`` without a leading article or generic modifier and without dangling function
    words; cut at ``max_words`` (marked with "…")."""
    phrase = _LEAD.sub("", phrase.strip(" ,;:\"“”'‘’")).strip(" ,;:\"“”'‘’")
    words = _words(phrase)
    cut = len(words) > max_words
    words = words[:max_words]
    while words and words[-1].lower() in _STOP_TAIL:
        words.pop()
    if not words:
        return ""
    text = " ".join(words)
    text = text[:1].upper() + text[1:]
    return text + "…" if cut else text


def _head(rest: str) -> str:
    """The object phrase at the start of ``rest``: up to the first clause boundary."""
    match = _CLAUSE_END.search(rest)
    return rest[: match.start()] if match else rest


def _generic(phrase: str) -> bool:
    words = [w.strip("\"“”'‘’").lower() for w in _words(phrase)]
    return all(w in _GENERIC or not any(ch.isalpha() for ch in w) for w in words)


def _names(text: str, sentences: list[str]) -> list[tuple[int, int, str, str]]:
    """Names the abstract introduces: (occurrences, -order, name, description)."""
    found: dict[str, tuple[int, str]] = {}

    def add(name: str, description: str) -> None:
        if name not in found:
            found[name] = (len(found), description)

    for sentence in sentences:
        for intro in _INTRO.finditer(sentence):
            after_verb = sentence[intro.end():]
            rest = _LEAD.sub("", after_verb.lstrip(" \"“‘'"))
            quoted = re.match(r"(?:\w+\s+){0,3}[\"“‘']([^\"”’']{2,60})[\"”’']", after_verb.lstrip())
            token = re.match(_NAME_TOKEN + r"(?![\w])", rest)
            paren = _PAREN.search(rest)
            before = rest[: paren.start()] if paren else ""
            if paren and re.fullmatch(r"[^,;:.]*", before) and len(_words(before)) <= 12 and (
                    _is_name(paren.group(1)) or (paren.group(1)[:1].isupper() and _count(paren.group(1), text) >= 2)) \
                    and not (token and _is_name(token.group(0)) and not before[token.end():].strip()):
                add(paren.group(1), _DESCRIBED.sub("", before))  # "a method called … (ByzSGDnm)"
            elif token and _is_name(token.group(0)):
                after = rest[token.end():]
                long_form = re.match(r"\s*\(([^()]{3,80})\)", after)
                appos = re.match(r"\s*,\s+((?:an?|the)\s[^,;.]*)", after)
                add(token.group(0), long_form.group(1) if long_form and len(_words(long_form.group(1))) > 1
                    else appos.group(1) if appos else "")
            elif quoted and len(_words(quoted.group(1))) <= 4 and re.search(r"\b(?:call|name|dub|term)", intro.group(0)):
                add(quoted.group(1), "")
        for appos in re.finditer(r"(?<![\w\-])(" + _NAME_TOKEN + r"), ((?:an?|the)\s[^,;.]*)", sentence):
            if _is_name(appos.group(1)) and _count(appos.group(1), text) >= 2:  # "LUM-ViT, a Vision Transformer variant"
                add(appos.group(1), appos.group(2))
    return [(_count(n, text), -o, n, d) for n, (o, d) in found.items()]


def _named_title(name: str, description: str) -> str:
    description = _trim(_head(description + " "), 8) if description else ""
    if not description or description.endswith("…") or _generic(description):
        return name[:1].upper() + name[1:]
    if description.casefold().replace("-", " ") == name.casefold().replace("-", " "):
        return name
    return f"{name}: {description}"


def _study_phrase(sentences: list[str], max_words: int) -> str:
    """The object of the first "we propose/study/…" sentence, unless it is only generic words."""
    for sentence in sentences:
        match = _STUDY.search(sentence)
        if not match:
            continue
        rest = sentence[match.end():].strip()
        rest = re.sub(r"^(?:to|that)\s+", "", rest)
        stop = re.search(r"[,;:.]|\s(?:which|where|whose|in order)\s", rest)
        phrase = rest[: stop.start()] if stop else rest
        if len(_words(phrase)) > max_words:  # cut at a boundary in the second half
            words = _words(phrase)
            for i in range(max_words, max_words // 2, -1):
                if words[i].lower() in ("that", "to", "in", "by", "with", "using", "for", "via", "from", "on"):
                    phrase = " ".join(words[:i])
                    break
        title = _trim(phrase, max_words)
        if title and not _generic(title.rstrip("…")):
            return title
    return ""


def _opening_phrase(sentence: str, max_words: int) -> str:
    """The noun phrase that opens ``sentence`` (after a leading subordinate clause)."""
    sentence = _SUBORDINATE.sub("", sentence.strip())
    if re.match(r"(?:It|There|This|These|In|We|Our|However|Here)\b", sentence):
        return ""
    stop = _NP_STOP.search(sentence)
    phrase = sentence[: stop.start()] if stop else sentence
    title = _trim(phrase, max_words)
    return "" if not title or title.endswith("…") or _generic(title) else title


def derive_title(abstract: str, *, max_words: int = 8) -> str:
    """A short readable label for a paper without a title.

    See the module docstring for the order of tries.

    Examples
    --------
    >>> derive_title("Long contexts are hard. We present YaRN (Yet another RoPE extensioN method), "
    ...              "a method. YaRN works.")
    'YaRN: Yet another RoPE extensioN method'
    >>> derive_title("We tackle this by developing a unified crystal representation (UniMat). UniMat "
    ...              "scales. We also propose metrics from Density Function Theory (DFT).")
    'UniMat: Unified crystal representation'
    >>> derive_title("Online nonconvex optimization has been an active area of research recently.")
    'Online nonconvex optimization'
    """
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2) or "", abstract)
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    names = _names(text, sentences)
    if names:
        _, _, name, description = max(names)
        return _named_title(name, description)
    title = _study_phrase(sentences, max_words) or (_opening_phrase(sentences[0], max_words) if sentences else "")
    if title:
        return title
    words = abstract.split()
    label = " ".join(words[:max_words]).rstrip(",.;:")
    return label + "…" if len(words) > max_words else label
