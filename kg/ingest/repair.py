"""Text repair at ingest: the damage sources leave in titles and abstracts, undone once for every reader.

Eight kinds, in the order they run (:data:`KINDS`):

``markup``
    HTML, JATS and MathML tags dropped, their text kept (``E<span class="smallcaps">xtra</span>``
    → ``Extra``); entities unescaped (``Q&amp;A`` → ``Q&A``); INSPEC's scripts written as
    ``_`` and ``^`` (``H/sub infinity/`` → ``H_infinity``). Only real tags go: a known
    tag name or a namespaced one (``<jats:p>``), and a bare opening tag only where its
    closing tag follows, so ``a < b`` and ``<S>`` (an expectation value) stay.
``quote marks``
    Quote marks a source's conversion turned into ``»`` glued to a word, put back: ``user»s`` →
    ``user’s``, ``participants» impressions`` → ``participants’ impressions``, ``»near future»`` →
    ``‘near future’``, ``"on the go»»`` → ``"on the go”`` (107 records of ACM-CR). Guillemets set
    apart by spaces, as French writes them (``« France Télévisions »``), stay.
``latex``
    TeX to plain Unicode text (:func:`kg.ingest._latex.decode_latex`): ``$AdS_5\\times S^5$`` →
    ``AdS_5×S^5``, ``Nordstr\\"om`` → ``Nordström``; commands that lost their backslash and braces go,
    their text kept (``emphCoresets`` → ``Coresets``, ``framework~citebystrom1995`` → ``framework``); ``---``
    between words is an em dash, ``--`` after a number a hyphen (``1--loop`` → ``1-loop``).
``stray marks``
    Marks that belong to no word: a footnote mark or comma closing a title (``… Graphs*``,
    ``… Marketplaces✱``, ``… Algebras ^*``, ``… Facebook Data,``; ``A*``, ``N=1*`` and
    ``α^′`` are names and stay), and a closing brace that nothing opened, left by broken TeX
    (``Theories} in 2+1 Dimensions}``).
``hyphenation``
    Words split at a line break joined again: ``doc-ument`` → ``document``, ``un- labeled`` →
    ``unlabeled``; only where the joined word is an English word and the hyphenated form
    is no compound (``real-time``, ``multi-task`` and ``e-commerce`` stay); a compound name split after its
    hyphen closed again (``Yang- Mills`` → ``Yang-Mills``, ``Korteweg- de Vries`` → ``Korteweg-de Vries``), and
    a compound whose hyphen the source set between spaces (``eight - vertex`` → ``eight-vertex``, ``Yang - Mills``).
``sentence space``
    The space lost after a full stop put back: ``graphs.DeepWalk is`` → ``graphs. DeepWalk is``;
    ``e.g.``, ``3.5``, ``Node.js``, ``U.S.``, ``Amazon.Com`` and web addresses stay.
``glued words``
    The space lost between a word and a small word put back: ``frameworkwhereby`` → ``framework
    whereby``, ``thismodel`` → ``this model``, ``tofind`` → ``to find``, a title's ``Conceptsto`` → ``Concepts
    to``; compounds, names and forms of words the lexicon knows stay (``clickthrough``, ``formatting``,
    ``intonation``, ``annotation``, ``Pareto``).
``split words``
    A word that a stray space split joined again: ``prob lem`` → ``problem``, ``f ramework`` →
    ``framework``, ``man ifold`` → ``manifold``; only where a piece is no word, so ``a node``,
    ``in accuracies`` and ``node s`` (a variable) stay.

:func:`repair_text` applies them all and says which changed the text; repairing repaired
text changes nothing, so a build's ``corpus.jsonl`` reads back as written.
"""

from __future__ import annotations

import functools
import html
import re

from kg.english import form_of_word, is_part, is_word, zipf
from kg.ingest._latex import decode_latex

__all__ = ["KINDS", "repair_text", "decode_entities", "strip_markup", "restore_quotes", "drop_stray_marks",
           "join_hyphenation", "space_sentences", "split_glued_words", "join_split_words", "decode_latex"]

#: The kinds of repair, in the order :func:`repair_text` applies them.
KINDS = ("markup", "quote marks", "latex", "stray marks", "hyphenation", "sentence space", "glued words",
         "split words")


# --- markup ---------------------------------------------------------------------------

_INLINE_TAGS = frozenset(
    "a abbr b bdi bdo big bi cite code dfn em font i inf ins kbd mark q s samp sc scp small smallcaps span strike ul "
    "strong sub sup tt u var italic bold roman sans-serif monospace underline overline named-content "
    "styled-content inline-formula tex-math alternatives math mi mo mn ms mtext msub msup msubsup mrow mfrac "
    "msqrt mroot mstyle mspace munder mover munderover mfenced menclose mtable mtr mtd semantics".split())
_BLOCK_TAGS = frozenset(
    "p br div li ol dl dt dd h1 h2 h3 h4 h5 h6 hr table tbody thead tfoot tr td th blockquote section sec "
    "title abstract label caption list list-item pre article body disp-formula def-list def-item".split())
_VOID_TAGS = frozenset("br hr wbr img".split())
_TAG = re.compile(r"<(/?)((?:[A-Za-z][\w.-]*:)?[A-Za-z][\w.-]*)"
                  r"((?:\s+[\w:.-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>]+))*)\s*(/?)>")
_HIDDEN = re.compile(r"<((?:\w+:)?annotation(?:-xml)?)\b[^>]*>.*?</\1>|<!--.*?-->"
                     r"|<((?:\w+:)?title)\b[^>]*>\s*(?:Abstract|ABSTRACT|Summary|SUMMARY)\s*</\2>", re.S)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _unescape(text: str) -> str:
    for _ in range(3):  # an entity escaped twice ("&amp;lt;") is still one character
        done = _ENTITY.sub(lambda m: html.unescape(m.group()), text)
        if done == text:
            break
        text = done
    return text


def decode_entities(text: str) -> str:
    """``text`` with HTML entities decoded, once for every reader (outputs escape for where they land).

    Examples
    --------
    >>> decode_entities("community q&amp;a"), decode_entities("AT&T"), decode_entities("&amp;amp;")
    ('community q&a', 'AT&T', '&')
    """
    return _unescape(text) if "&" in text else text


# INSPEC's sub- and superscripts: "H/sub infinity/", "p/sub c/", "x/sup 2/".
_INSPEC_SCRIPT = re.compile(r"(?<=\S)/(sub|sup) ([^/\s][^/]{0,24}?) ?/")


def strip_markup(text: str) -> str:
    """``text`` without HTML/JATS/MathML tags (their text kept) and with entities unescaped.

    Examples
    --------
    >>> strip_markup('E<span class="smallcaps SmallerCapital">xtra</span>: Top-<i>N</i> for Q&amp;A')
    'Extra: Top-N for Q&A'
    >>> strip_markup('<jats:p>First.</jats:p><jats:p>Second, with <i>k &lt; m</i>.</jats:p>')
    ' First.  Second, with k < m. '
    >>> strip_markup("if a < b and c > d, <S> is finite")
    'if a < b and c > d, <S> is finite'
    >>> strip_markup("an H/sub infinity / PID controller, p/sub c/ and x/sup 2/")
    'an H_infinity PID controller, p_c and x^2'
    """
    if "&" in text:
        text = _unescape(text)
    if "/su" in text:
        text = _INSPEC_SCRIPT.sub(lambda m: ("_" if m.group(1) == "sub" else "^") + m.group(2).replace(" ", ""), text)
    if "<" not in text:
        return text
    text = _HIDDEN.sub(" ", text)
    closing = {m.group(2).lower() for m in _TAG.finditer(text) if m.group(1)}

    def tag(match: re.Match[str]) -> str:
        end, name, attributes, empty = match.groups()
        local = name.lower().rpartition(":")[2]
        if ":" not in name and local not in _INLINE_TAGS and local not in _BLOCK_TAGS:
            return match.group()
        if ":" not in name and not (end or attributes or empty or local in _VOID_TAGS
                                    or name.lower() in closing):
            return match.group()  # "<b>" with no "</b>": not markup
        return " " if local in _BLOCK_TAGS else ""

    return _TAG.sub(tag, text)


# --- hyphenation -------------------------------------------------------------------------

# Left parts that make a compound with whatever follows: "multi-task", "co-author", "re-use".
_PREFIXES = frozenset("a an anti auto bi bio co counter cross de di dis e eco ex extra geo hyper il im in inter "
                      "intra ir macro meta micro mid mini mis mono multi neo neuro non omni out over para poly post "
                      "pre pro proto pseudo psycho quasi re self semi socio sub super supra trans tri ultra un under "
                      "uni".split())
# The hyphen and what follows; the word before is found by hand (a pattern that starts with
# a look-behind is tried at every character: seconds on a corpus).
_SPLIT = re.compile(r"-( ?)([a-z]{2,})(?![\w\-])")
# A compound name whose hyphen a space follows: "Yang- Mills", "Chern- Simons", "Korteweg- de Vries", "Anti- de Sitter"
# (94 places in hep-th); a suspended hyphen has "and"/"or" after it ("Bose- and Fermi-").
_NAME_SPLIT = re.compile(r"(?<!\w)([A-Z][a-z]{2,})- ((?:(?:de|van|von|der|di|da|du|del|la|le|ten|ter) )?[A-Z][a-z])")

# The other way round, a space before the hyphen: "Dirac-Born -Infeld Equations", "Aharonov -Bohm", "Multi -Task"
# (13 places in hep-th and ACM-CR); not a subtitle's dash ("Quantum Fields -Beyond Perturbation-").
_NAME_SPLIT_BEFORE = re.compile(r"(?<![\w])([A-Z][a-z]{2,}) -((?:(?:de|van|von|der|di|da|du|del|la|le|ten|ter) )?"
                                r"[A-Z][a-z]+)(?![\w\-])")


def _join_name(match: re.Match) -> str:
    """The two words of "Aharonov -Bohm" joined where they are names (no words of the lexicon) or a prefix and its
    word, or where the first is a name's part after a hyphen already ("Dirac-Born -Infeld")."""
    left, right = match.groups()
    named = not is_word(right.split()[-1].lower())
    joined = left.lower() in _PREFIXES or (named and (not is_word(left.lower()) or (
        match.start() and match.string[match.start() - 1] == "-")))
    return f"{left}-{right}" if joined else match.group()


# A hyphen with a space on both sides, as some sources write every hyphen ("eight - vertex model", "Yang - Mills",
# "two - dimensional": 575 records of hep-th write " - " between words, dashes too: "parameters - the"). Joined where
# the words make a compound: a number or a prefix first, a compound's tail last, or two names.
_SPACED_HYPHEN = re.compile(r"(?<![\w\-])([A-Za-z][A-Za-z']*) - ([A-Za-z][A-Za-z']*)(?![\w\-])")
_SPACED_FIRST = frozenset("one two three four five six seven eight nine ten twelve non anti quasi semi pseudo self "
                          "multi super".split())
_SPACED_TAILS = frozenset("dimensional like dependent independent invariant saturated violating deformed extended "
                          "fold loop point vertex body".split())
_NAMES_AS_WORDS = frozenset("mills stokes jones".split())  # "Yang - Mills": a name the lexicon has as a word


def _spaced_compound(left: str, right: str) -> bool:
    """Whether "``left`` - ``right``" is a hyphenated compound written with spaces (see :data:`_SPACED_HYPHEN`)."""
    if left.lower() in _SPACED_FIRST:
        return right in _SPACED_TAILS or zipf(right.lower()) < 6  # not a function word: "one - which" is a dash
    if right in _SPACED_TAILS:
        return zipf(left.lower()) < 6  # "that - like"
    return all(w[:1].isupper() and w[1:].islower() and (not is_word(w.lower()) or w.lower() in _NAMES_AS_WORDS)
               for w in (left, right))


def _join_spaced(match: re.Match) -> str:
    left, right = match.groups()
    return f"{left}-{right}" if _spaced_compound(left, right) else match.group()


def _split_rare_word(left: str, right: str) -> bool:
    """A word the lexicon lacks split in two pieces that are no words, which general English writes more often than
    either: "exten-sible" (ACM-CR's "exten-sible mapping" was judged broken)."""
    joined = zipf(left + right)
    return joined >= 2.0 and joined > max(zipf(left), zipf(right)) and not is_word(left) and not is_part(right)


def join_hyphenation(text: str) -> str:
    """``text`` with words that a line break split at a hyphen joined again.

    ``doc-ument`` is joined where ``document`` is a word and ``ument`` is not; ``X- Y`` (a
    hyphen, then a space) where ``XY`` is a word. Compounds stay: both parts words
    (``real-time``), a prefix first (``multi-task``, ``co-author``), three parts or more
    (``state-of-the-art``), a suspended hyphen (``first- and second-order``). Soft hyphens go.

    Examples
    --------
    >>> join_hyphenation("a doc-ument represen-tation of un- labeled data in real-time, multi-task e-commerce")
    'a document representation of unlabeled data in real-time, multi-task e-commerce'
    >>> join_hyphenation("an exten-sible mapping")
    'an extensible mapping'
    >>> join_hyphenation("state-of-the-art, pre-trained trade-offs and first- and second-order terms")
    'state-of-the-art, pre-trained trade-offs and first- and second-order terms'
    >>> join_hyphenation("the Yang- Mills and Korteweg- de Vries equations, Bose- and Fermi-statistics")
    'the Yang-Mills and Korteweg-de Vries equations, Bose- and Fermi-statistics'
    >>> join_hyphenation("Dirac-Born -Infeld Equations and the Aharonov -Bohm effect in Fields -Beyond Graphs -Hopf")
    'Dirac-Born-Infeld Equations and the Aharonov-Bohm effect in Fields -Beyond Graphs -Hopf'
    >>> join_hyphenation("an eight - vertex model, two - dimensional Yang - Mills theory - the parameters - and N - fold")
    'an eight-vertex model, two-dimensional Yang-Mills theory - the parameters - and N-fold'
    """
    if "\u00ad" in text:
        text = text.replace("\u00ad", "")
    if "-" not in text:
        return text
    if " -" in text:
        text = _NAME_SPLIT_BEFORE.sub(_join_name, text)
    if "- " in text:
        text = _NAME_SPLIT.sub(r"\1-\2", text)
        if " - " in text:
            text = _SPACED_HYPHEN.sub(_join_spaced, text)

    out, done = [], 0
    for match in _SPLIT.finditer(text):
        at = start = match.start()
        while start > 0 and text[start - 1].isascii() and text[start - 1].isalpha():
            start -= 1
        if at - start < 2 or start < done or (start and (text[start - 1].isalnum() or text[start - 1] in "-_")):
            continue
        left, (space, right) = text[start:at], match.groups()
        if not is_word(left + right) and not _split_rare_word(left, right):
            continue
        if not space and (left.lower() in _PREFIXES or (is_word(left) and is_part(right))):
            continue
        out += [text[done:at], right]
        done = match.end()
    return "".join(out) + text[done:] if out else text


# --- sentence space ----------------------------------------------------------------------

# "Amazon.Com", "Last.Fm", "Robots.Txt", "Node.Js": a domain or file name, not two sentences.
_NOT_SENTENCES = frozenset("com org net edu gov mil int info biz io ai fm tv ly co me us uk eu de fr nl pl ch jp cn "
                           "ru ca au es se no dk fi be at cz js ts txt pdf csv xml json html htm php py md doc docx "
                           "xls xlsx ppt jpg png gif zip".split()) - {"in", "it", "is", "as", "at", "no", "us"}
# Journal abbreviations ("Phys.Rev.Lett."): one reference, not sentences.
_ABBREVIATIONS = frozenset("Phys Nucl Math Mod Lett Rev Comm Commun Quant Grav Geom Ann Proc Teor Mat Fiz Theor Sov "
                           "Int Vol Acad Sci Suppl Progr Prog Jour".split())
# The next sentence starts with a capital and a small letter ("graphs.DeepWalk") or with a name
# written in camel case from a small letter ("queries.visKWQL", "software.useKit").
_MISSING_SPACE = re.compile(r"\.(?=[A-Z][a-z]|[a-z]+[A-Z])")
_CAMEL_AFTER = re.compile(r"[a-z]{3,}")  # the word before a camel-case name: a lower-case word
_LEADING_WORD = re.compile(r"[A-Za-z]+")
_LAST_WORD = re.compile(r"\w*$")
_DOTTED = re.compile(r"\w\.\w")
_ENDS = frozenset(")]\"'”’0123456789")
# A question or exclamation that lost its space ("Business Transactions?What Customer Reviews Disclose", "this?In";
# 116 places in ACM-CR): after a word or a closing bracket or quote, before a capital and a small letter. A name's "!"
# stays ("Yahoo!Answers": the word before it is capitalised), and so does a web address's query ("page.php?Id=").
_MISSING_SPACE_AFTER_MARK = re.compile(r"(?<=[\w)\]\"'”’])([?!])(?=[A-Z][a-z])|(?<=[a-z])(:)(?=[A-Z][a-z]{2})")
# (and a title's colon before its subtitle: "The Front Page:Measuring Third Party Dynamics"; 26 places in ACM-CR and
# hep-th; a web address's "http://" has no capital after it)
# A sentence end lost with its full stop, the next sentence's first word glued to the last word ("training dataWe
# show", "the processThe results", "on the WebThe final afternoon"; 30 places in ACM-CR): a word that opens sentences,
# glued to a word in lower case (after a capitalized one only those no name ends with: "LinkedIn", "SummIt" stay),
# before a word in lower case.
_LOST_STOP = re.compile(r"(?<![\w\-'’./@#&=\\])([a-z]{2,}|[A-Z][a-z]{2,})"
                        r"(The|This|These|We|Our|Here|However|Moreover|Finally|Furthermore|Thus|Therefore|In|It|To|For)"
                        r"(?=\s+[a-z])")
_NAME_ENDINGS = frozenset("In It To For".split())  # "LinkedIn", "SkIt": after a capitalized word, a name's part


def space_sentences(text: str) -> str:
    """``text`` with the space put back between two sentences: ``graphs.DeepWalk`` → ``graphs. DeepWalk``.

    A full stop gets a space after it where it follows a word of two letters or more, a
    closing bracket or quote, or a number, and an upper-case letter followed by a lower-case
    one starts the next word. Abbreviations of single letters (``e.g.``, ``U.S.``), numbers
    (``3.5``, PACS codes ``03.65.Fd``), journal abbreviations (``Phys.Rev.``), dotted names
    (``Node.js``, ``System.Text.RegularExpressions``, ``Win32.Perrun``), domain and file names
    (``Amazon.Com``, ``www.Example.org``, ``a@b.Org``) stay.

    Examples
    --------
    >>> space_sentences("on graphs.DeepWalk is above.An efficient effort.We e.g.Node.js, 3.5, U.S.")
    'on graphs. DeepWalk is above. An efficient effort. We e.g.Node.js, 3.5, U.S.'
    >>> space_sentences("Visit Amazon.Com or www.Foo.Com in System.Text.Json; since 2016.The [1].We")
    'Visit Amazon.Com or www.Foo.Com in System.Text.Json; since 2016. The [1]. We'
    >>> space_sentences("using example queries.visKWQL's editor; software.useKit offers; www.eBay.com; x.getName")
    "using example queries. visKWQL's editor; software. useKit offers; www.eBay.com; x.getName"
    >>> space_sentences("Transactions?What Reviews Disclose; is it?We ask Yahoo!Answers, see index.php?Id=3")
    'Transactions? What Reviews Disclose; is it? We ask Yahoo!Answers, see index.php?Id=3'
    >>> space_sentences("The Front Page:Measuring Dynamics; see http://Example.org and 10:30; Re:Search")
    'The Front Page: Measuring Dynamics; see http://Example.org and 10:30; Re: Search'
    >>> space_sentences("on training dataWe show it; on the WebThe final day; LinkedIn is; SummIt was; sameAs links")
    'on training data. We show it; on the Web. The final day; LinkedIn is; SummIt was; sameAs links'
    """
    if "?" in text or "!" in text or ":" in text:
        text = _MISSING_SPACE_AFTER_MARK.sub(_space_after_mark(text), text)
    text = _LOST_STOP.sub(_lost_stop, text)
    if "." not in text:
        return text

    def space(match: re.Match[str]) -> str:
        at = match.start()
        before = text[max(0, at - 2):at]
        if not (before[-1:] in _ENDS or (len(before) == 2 and before.isascii() and before.isalpha())):
            return "."
        start = text.rfind(" ", 0, at) + 1
        end = text.find(" ", at)
        left, right = text[start:at], text[at + 1:end if end != -1 else len(text)]
        word = _LEADING_WORD.match(right).group()  # type: ignore[union-attr]
        if right[:1].islower() and not _CAMEL_AFTER.fullmatch(left.lstrip("([{<\"'")):
            return "."  # iPhone.eBay, a.getName: no sentence before a camel-case word
        if word.lower() in _NOT_SENTENCES and not right[len(word):len(word) + 1].isalpha():
            return "."  # Amazon.Com, Robots.Txt
        if "@" in left + right or "://" in left or (left.lstrip("([{<\"'") + ".").lower().startswith("www."):
            return "."
        if _DOTTED.search(left) or _DOTTED.search(right):
            return "."  # 03.65.Fd, System.Text.Json: one name, not two sentences
        last = _LAST_WORD.search(left).group()  # type: ignore[union-attr]
        if last in _ABBREVIATIONS or (before[-1].isdigit() and not last.isdigit()):
            return "."  # Phys.Rev, Win32.Perrun
        return ". "

    return _MISSING_SPACE.sub(space, text)


def _lost_stop(match: re.Match[str]) -> str:
    """A lost sentence end put back ("dataWe" → "data. We"), unless the pair is a name ("LinkedIn")."""
    left, opener = match.groups()
    if left[0].isupper() and opener in _NAME_ENDINGS:
        return match.group()
    return f"{left}. {opener}"


def _space_after_mark(text: str):
    """The replacement :func:`space_sentences` makes of a "?" or "!" before a capital: the mark and a space, unless
    the word before it names something ("Yahoo!") or it is part of a web address or file name."""
    def space(match: re.Match[str]) -> str:
        at = match.start()
        mark = match.group(1) or match.group(2)
        left = text[text.rfind(" ", 0, at) + 1:at]
        if any(sign in left for sign in "./=&@") or (mark == "!" and not left.islower()):
            return mark
        return mark + " "
    return space


# --- glued words --------------------------------------------------------------------------

# The small words a conversion glues to their neighbour ("frameworkwhereby", "thismodel", "showedthat").
_GLUE_WORDS = frozenset("and the for with using from into that which whereby where through between within via are "
                        "was were our their these this based such who how must should would could including during "
                        "about".split())  # "servicessuch", "userswho", "dynamicsduring"
_GLUE_BEFORE = _GLUE_WORDS - {"through"}  # "clickthrough", "walkthrough": compounds
# Two-letter words glued to a word of four letters or more ("conceptsto", "tofind", "descriptionsof", "isused",
# "collectionsby"; ACM-CR listed the concept "artificial intelligence conceptsto information retrieval"). Not "in",
# "an", "at", "on", "as": "invariance", "annotation", "attractor", "instanton", "polaron" would split.
_SHORT_GLUE = frozenset("to of is by".split())
# a lower-case run of six letters or more, or a capitalized one (a title's word)
_GLUED_RUN = re.compile(r"(?<![\w\-'’./@#&=\\])(?:[a-z]{6,}|[A-Z][a-z]{5,})(?![\w\-'’@#/]|\.[a-z])")


@functools.lru_cache(maxsize=1 << 16)
def _glued(word: str) -> tuple[str, str] | None:
    """The two words ``word`` is made of, where one is a small word and ``word`` is no word itself."""
    if form_of_word(word):
        return None
    found = []
    for at in range(2, len(word) - 1):
        left, right = word[:at], word[at:]
        if len(word) >= 8 and left in _GLUE_WORDS and len(right) >= 5 and right not in _GLUE_WORDS and is_part(right):
            found.append((left, right))
        elif len(word) >= 8 and right in _GLUE_BEFORE and len(left) >= 5 and left not in _GLUE_WORDS \
                and left not in _PREFIXES and is_part(left):
            found.append((left, right))
        elif left in _SHORT_GLUE and right not in _GLUE_WORDS and _glued_to_short(word, right):
            found.append((left, right))
        elif right in _SHORT_GLUE and left not in _GLUE_WORDS | _PREFIXES and _glued_to_short(word, left):
            found.append((left, right))
    return found[0] if len(found) == 1 else None


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _glued_to_short(word: str, other: str) -> bool:
    """Whether ``word`` is ``other`` and a two-letter word glued together: ``other`` is a word of five letters or more,
    or a common one of four ("tofind", "isused", not "pareto", "primis", "rankby"); ``word`` itself is no word of
    general English ("hereof") nor one letter short of a common one ("offine" is "offline", "therby" "thereby")."""
    if len(other) < 4 or not is_part(other) or (len(other) == 4 and zipf(other) < 4.5) or zipf(word) >= 2.0:
        return False
    return not any(zipf(word[:at] + letter + word[at:]) >= 3.0 for at in range(1, len(word)) for letter in _LETTERS)


def split_glued_words(text: str) -> str:
    """``text`` with the space put back between a word and a small word glued to it.

    A lower-case run of eight letters or more that the lexicon does not know, nor any form of a word it
    knows, is split where one part is one of a few small words ("the", "and", "this", "whereby", …) and
    the other a word of five letters or more, if only one such split exists; a run of six letters or more where
    one part is "to", "of", "is" or "by" and the other a word of five letters or more or a common one of four, unless
    the run is a word of general English or one letter short of a common one (:func:`_glued_to_short`). Names, web
    addresses and compounds stay.

    Examples
    --------
    >>> split_glued_words("a new frameworkwhereby crawlers learn; thismodel and clickthrough formatting")
    'a new framework whereby crawlers learn; this model and clickthrough formatting'
    >>> split_glued_words("web servicessuch as maps; userswho search; cluesabout queries")
    'web services such as maps; users who search; clues about queries'
    >>> split_glued_words("www.thismodel.org, #andrecall, intonation, BERTand")
    'www.thismodel.org, #andrecall, intonation, BERTand'
    >>> split_glued_words("intelligence conceptsto retrieval; tofind descriptionsof; isused collectionsby; offline")
    'intelligence concepts to retrieval; to find descriptions of; is used collections by; offline'
    >>> split_glued_words("invariance, annotation, attractor, instanton, isospin, tomato, bypass, pareto, hereof")
    'invariance, annotation, attractor, instanton, isospin, tomato, bypass, pareto, hereof'
    >>> split_glued_words("an offine copy, therby, in primis, rankby()")
    'an offine copy, therby, in primis, rankby()'

    A title's capitalized word keeps its capital, split only before a small word glued after it ("Artificial
    Intelligence Conceptsto Information Retrieval"; names stay: "Pareto", "Genesis", "Francis").

    >>> split_glued_words("Applying Artificial Intelligence Conceptsto Information Retrieval; Pareto, Toronto")
    'Applying Artificial Intelligence Concepts to Information Retrieval; Pareto, Toronto'
    """
    out, done = [], 0
    for match in _GLUED_RUN.finditer(text):
        word = match.group()
        parts = _glued(word.lower())
        if parts and word[0].isupper():
            parts = (word[:len(parts[0])], parts[1]) if parts[1] in _SHORT_GLUE | _GLUE_BEFORE else None
        if parts:
            out += [text[done:match.start()], " ".join(parts)]
            done = match.end()
    return "".join(out) + text[done:] if out else text


# --- split words -------------------------------------------------------------------------

# A lower-case run of letters between spaces or marks (no part of an address, a name or a number),
# and one that ends a space before the end of the text searched.
_RUN_START = r"(?<![\w\-'’./@#&=\\])[a-z]+"
_LOWER_RUN = re.compile(_RUN_START + r"(?![\w\-'’@#/]|\.[a-z])")
_RUN_BEFORE = re.compile(_RUN_START + r"(?= \Z)")
#: Zipf frequency (:func:`kg.english.zipf`) from which two pieces joined make a word ("manifold" 3.3).
WORD_ZIPF = 3.0
#: Zipf frequency from which a piece is a word of general English and no piece of one: "node" 3.9 and
#: "lib" 3.8 are words; "mani" 3.2 (of "mani folds"), "lem" 2.8 and "uated" 0 are not.
PIECE_ZIPF = 3.5


_WORD = re.compile(r"\b[a-z]+\b")
# Tokens (as ``str.split`` gives them) with no piece of a word in them: a set difference per text
# leaves the few to look at (a regular expression over every text took twice as long).
_WHOLE: set[str] = set()


@functools.lru_cache(maxsize=1 << 17)
def _known(word: str) -> bool:
    """Whether ``word`` is an English word: in the lexicon, a form of one, or common in general English."""
    return (zipf(word) >= PIECE_ZIPF or form_of_word(word)
            or (word.endswith("ies") and form_of_word(word[:-3] + "y")))


@functools.lru_cache(maxsize=1 << 18)
def _pieces(token: str) -> tuple[str, ...]:
    """The lower-case runs of letters in ``token`` that are no word (a single letter is never one)."""
    found = tuple(word for word in _WORD.findall(token) if len(word) > 1 and not _known(word))
    if not found and len(_WHOLE) < 1 << 19:
        _WHOLE.add(token)
    return found


@functools.lru_cache(maxsize=1 << 17)
def _split(left: str, right: str) -> bool:
    """Whether ``left right`` is one word that a space split ("prob lem", "f ramework")."""
    if len(left) > 1 and len(right) > 1 and _known(left) and _known(right):
        return False  # two words: "a node", "in accuracies"
    joined = left + right
    if len(joined) < 5 or not (is_part(joined) or zipf(joined) >= WORD_ZIPF):
        return False
    if len(left) == 1:  # a letter is a word or a variable: what follows must be no word
        return len(right) > 1 and not _known(right)
    if len(right) == 1:  # "node s": a variable after a word
        return not _known(left)
    return True


def join_split_words(text: str) -> str:
    """``text`` with words that a stray space split in two joined again.

    Two lower-case pieces one space apart are joined where together they make an English word
    (:data:`WORD_ZIPF`, or the lexicon) and at least one of them is no word (a single letter counts
    as neither): ``prob lem`` → ``problem``, ``f ramework`` → ``framework``, ``governanc e`` →
    ``governance``. Two words stay (``a node``, ``in accuracies``), and so does a letter beside a
    word (``start node s``), however well they would join.

    Examples
    --------
    >>> join_split_words("a concept learning prob lem over RDF (resource description f ramework) graphs")
    'a concept learning problem over RDF (resource description framework) graphs'
    >>> join_split_words("the value of a node, start node s, gains in accuracies, a priori, in situ")
    'the value of a node, start node s, gains in accuracies, a priori, in situ'
    """
    pieces = {piece for token in set(text.split()) - _WHOLE for piece in _pieces(token)}
    if not pieces:
        return text  # every run of letters a word: a third of the texts
    pairs: set[tuple[int, int, int, int]] = set()  # the spans of two pieces one space apart
    for piece in pieces:  # a few a text: found by hand, not by a loop over every word
        at = text.find(" " + piece)  # the second of two
        while at >= 0:
            run = _LOWER_RUN.match(text, at + 1)
            if run and run.end() == at + 1 + len(piece):
                before = _RUN_BEFORE.search(text, max(0, at - 31), at + 1)
                if before:
                    pairs.add((*before.span(), *run.span()))
            at = text.find(" " + piece, at + 1)
        at = text.find(piece + " ")  # the first of two
        while at >= 0:
            run = _LOWER_RUN.match(text, at)
            if run and run.end() == at + len(piece):
                after = _LOWER_RUN.match(text, at + len(piece) + 1)
                if after:
                    pairs.add((*run.span(), *after.span()))
            at = text.find(piece + " ", at + 1)
    out, done = [], 0
    for start, middle, after, end in sorted(pairs):
        if start >= done and _split(text[start:middle], text[after:end]):
            out += [text[done:start], text[start:middle], text[after:end]]
            done = end
    return "".join(out) + text[done:] if out else text


# --- quote marks -------------------------------------------------------------------------

_CLOSING_DOUBLE = re.compile(r"(?<=\S)»»")
# "users» values", "user»s", "doesn»t"
_CLOSING_SINGLE = re.compile(r"(?<=\w)»(?!\w)|(?<=\w)»(?=(?:s|t|d|m|re|ve|ll)\b)")
_OPENING_SINGLE = re.compile(r"(?<![\w»])»(?=\w[^»\s]*(?:\s+[^»\s]+){0,5}»)")  # "»near future»"


def restore_quotes(text: str) -> str:
    """``text`` with the quote marks a conversion wrote as ``»`` glued to a word put back.

    Examples
    --------
    >>> restore_quotes('users» perceptions, the user»s query, it doesn»t, a »near future», "on the go»»')
    'users’ perceptions, the user’s query, it doesn’t, a ‘near future’, "on the go”'
    >>> restore_quotes("« France Télévisions » and k«l n")
    '« France Télévisions » and k«l n'
    """
    if "»" not in text:
        return text
    text = _CLOSING_DOUBLE.sub("”", text)
    text = _OPENING_SINGLE.sub("‘", text)
    return _CLOSING_SINGLE.sub("’", text)


# --- stray marks -------------------------------------------------------------------------

# A footnote mark after a word of two letters or more ending in a small letter ("Graphs*"; "A*" and
# "NCR*" may be names), ACM's heavy asterisk after any word, a superscript mark set apart by a space
# ("Superstrings ^*"), or a comma or semicolon ending the title.
_TITLE_END = re.compile(r"(?:(?<=[^\W\d_][a-z])\^?[*†‡]+|(?<=\w)✱+|(?<=[\w)])\^[*†‡]+|\s\^[*†‡]+|\s*[,;]+)+\s*$")


def drop_stray_marks(text: str, *, title: bool = False) -> str:
    """``text`` without closing braces that nothing opened and, in a ``title``, without the
    footnote mark or comma that ends it.

    Examples
    --------
    >>> drop_stray_marks("Listing K-Cliques in Sparse Real-World Graphs*", title=True)
    'Listing K-Cliques in Sparse Real-World Graphs'
    >>> [drop_stray_marks(t, title=True) for t in ("Twistor-like Superstrings ^*", "Moment Maps into Loop Algebras^†",
    ...     "Uber Data in Delhi-NCR✱", "Using Facebook Data,")]
    ['Twistor-like Superstrings', 'Moment Maps into Loop Algebras', 'Uber Data in Delhi-NCR', 'Using Facebook Data']
    >>> drop_stray_marks("Sparse Graphs*, ", title=True)
    'Sparse Graphs'
    >>> [drop_stray_marks(t, title=True) for t in ("Search with A*", "Matrix Models for N=1*", "Map of Witten's *",
    ...     "Matrix Model at Large α^′", "QCD_{3+1}")]
    ['Search with A*', 'Matrix Models for N=1*', "Map of Witten's *", 'Matrix Model at Large α^′', 'QCD_{3+1}']
    >>> drop_stray_marks("Spin 1 Theories} in 2+1 Dimensions} and H_{n}")
    'Spin 1 Theories in 2+1 Dimensions and H_{n}'
    """
    if "}" in text:
        depth, kept = 0, []
        for char in text:
            if char == "{":
                depth += 1
            elif char == "}":
                if not depth:
                    continue
                depth -= 1
            kept.append(char)
        text = "".join(kept)
    return _TITLE_END.sub("", text) if title else text


# --- all ---------------------------------------------------------------------------------


def repair_text(text: str, *, title: bool = False) -> tuple[str, tuple[str, ...]]:
    """``text`` repaired, and the :data:`KINDS` of repair that changed it (in that order).

    ``text`` is one line as :func:`~kg.identifiers.one_line` gives it; the runs of
    spaces that dropped tags or TeX leave are collapsed. Repairing the result changes nothing.
    A ``title`` also loses the footnote mark or comma that ends it.

    Examples
    --------
    >>> repair_text("Line graphs.We study <i>doc-uments</i> on $AdS_5\\\\times S^5$ &amp; more")
    ('Line graphs. We study documents on AdS_5×S^5 & more', ('markup', 'latex', 'hyphenation', 'sentence space'))
    >>> repair_text("Nothing to repair here.")
    ('Nothing to repair here.', ())
    """
    kinds = []
    stray = functools.partial(drop_stray_marks, title=title)
    for kind, step in zip(KINDS, (strip_markup, restore_quotes, _decode_latex, stray, join_hyphenation,
                                  space_sentences, split_glued_words, join_split_words)):
        done = step(text)  # each returns its input at once when there is nothing to do
        if done != text:
            kinds.append(kind)
            text = done
    if "markup" in kinds or "latex" in kinds:  # the two that may leave runs of spaces
        text = " ".join(text.split())
    return text, tuple(kinds)


# "\underline{B}est" that lost its backslash and braces: "underlineB est" (3 records of ACM-CR)
_BARE_UNDERLINE = re.compile(r"\bunderline([A-Z]) (?=[a-z])")
# Font commands, citations and environments that lost their backslash and braces (43 titles and abstracts of ACM-CR):
# "\emph{Coresets}" -> "emphCoresets", "\texttt{MetaPred}" -> "textttMetaPred", "$\mathcal{R}$" -> "mathcalR",
# "~\cite{chu1997tracking}" -> "~citechu1997tracking", "\footnote{Our code" -> "footnoteOur code",
# "\begin{abstract}" -> "beginabstract". A citation key has a year (or a colon and two digits): "citeWords", a
# feature's name, stays.
_BARE_FONT = re.compile(r"\b(?:emph|text(?:it|bf|tt|sc|rm|sf|up|sl)|math(?:cal|bf|rm|it|sf|bb|frak|tt)|footnote)"
                        r"(?=[A-Z])")
_KEY = r"[A-Za-z][A-Za-z-]*(?::\d{2}|\d{2,4})[A-Za-z]*"
_BARE_CITE = re.compile(rf"(?:~| ?)\bcite[pt]?{_KEY}(?:,{_KEY})*\b")
_BARE_ENVIRONMENT = re.compile(r"\b(?:begin|end)(?:abstract|itemize|enumerate|document)\b ?")
# the same before a word in lower case, where the two glued are no word and the second is one ("emphsemantic full-text
# search", 40 records of ACM-CR; not "emphasis", "emphatic"), and "\url{http://...}" -> "urlhttp://..." (20)
_BARE_FONT_LOWER = re.compile(r"\b(?:emph|text(?:it|bf|tt|sc|rm|sf|up|sl))([a-z][a-z-]*)")
_BARE_URL = re.compile(r"\burl(?=https?:|www\.)")
_BARE_WORDS = ("emph", "text", "math", "cite", "footnote", "begin", "url")  # one is in every text a bare command damaged


# TeX's dashes typed as plain text: "---" between words is an em dash ("style---the way", 348 places in ACM-CR, 73 in
# hep-th), "--" after a number or a group is a hyphen ("1--loop", "SU(2)--monopole", "M(F)--theory"). "--" between
# letters stays: ACM-CR writes it for a dash ("results--that is"), hep-th for a hyphen ("two--dimensional").
_EM_DASH = re.compile(r"(?<=\w)---(?=\w)")
_NUMBER_DASH = re.compile(r"(?<=[0-9)])--(?=[A-Za-z(])")


# "`t Hooft": TeX's opening quote typed for the apostrophe of the Dutch particle (36 hep-th records); the name was cut
# to "Hooft algebra". A quote that opens on "t" before a capital is the particle.
_GRAVE_T = re.compile(r"(?<![\w`'])`t (?=[A-Z])")
# "t'Hooft": the apostrophe put after the particle (19 hep-th records); the name was cut to "Hooft-Polyakov monopole"
_T_APOSTROPHE = re.compile(r"(?<![\w'’])t['’] ?(?=Hooft)")


def _tex_dashes(text: str) -> str:
    """TeX's dashes between words as text writes them.

    Examples
    --------
    >>> _tex_dashes("a conversational style---the way things are said, 1--loop graphs, the SU(2)--monopole")
    'a conversational style — the way things are said, 1-loop graphs, the SU(2)-monopole'
    >>> _tex_dashes("two--dimensional Yang--Mills theory, 1--2 years, results--that is")
    'two--dimensional Yang--Mills theory, 1--2 years, results--that is'
    """
    if "---" in text:
        text = _EM_DASH.sub(" — ", text)
    return _NUMBER_DASH.sub("-", text)


def _bare_commands(text: str) -> str:
    """TeX commands that lost their backslash and braces, gone (their text kept).

    Examples
    --------
    >>> _bare_commands("emphCoresets are compact, as in~citefriedman1976algorithm,Morris2007.footnoteOur code")
    'Coresets are compact, as in.Our code'
    >>> _bare_commands("the average citeWords of an emphasis on mathematics, emphatically")
    'the average citeWords of an emphasis on mathematics, emphatically'
    >>> _bare_commands("what we call emphsemantic full-text search, textitmulti-task learning, at urlhttp://a.org")
    'what we call semantic full-text search, multi-task learning, at http://a.org'
    """
    text = _BARE_FONT.sub("", text)
    text = _BARE_FONT_LOWER.sub(_font_word, text)
    text = _BARE_URL.sub("", text)
    text = _BARE_CITE.sub("", text)
    return _BARE_ENVIRONMENT.sub("", text)


def _font_word(match: re.Match) -> str:
    """The word a bare font command was glued to, where the two are no word ("emphsemantic" -> "semantic")."""
    glued, word = match.group(0), match.group(1)
    return word if not _known(glued) and all(_known(part) for part in word.split("-") if part) else glued


_TIE = re.compile(r"(?<=[^\W_])~(?=[^\W_]|\$)")  # a space TeX keeps from breaking, between two words


def _decode_latex(text: str) -> str:
    """:func:`decode_latex` until nothing changes: a ``$`` left unpaired may pair once its neighbours are gone.
    An underlined capital that lost its backslash and braces loses the command too (``underlineB est`` → ``Best``),
    and so do font commands, citations and environments (:func:`_bare_commands`); TeX's dashes typed between words
    become what they stand for (:func:`_tex_dashes`); "`t Hooft" gets its apostrophe."""
    if "underline" in text:
        text = _BARE_UNDERLINE.sub(r"\1", text)
    if any(word in text for word in _BARE_WORDS):
        text = _bare_commands(text)
    if "--" in text:
        text = _tex_dashes(text)
    if "~" in text:
        text = _TIE.sub(" ", text)  # TeX's tie: "type~II", "de~Sitter", "spin~2" (67 places in hep-th)
    if "`t " in text:
        text = _GRAVE_T.sub("'t ", text)
    if "t'" in text or "t’" in text:
        text = _T_APOSTROPHE.sub("'t ", text)
    for _ in range(3):
        done = decode_latex(text)
        if done == text or ("$" not in done and "\\" not in done):
            return done
        text = done
    return text
