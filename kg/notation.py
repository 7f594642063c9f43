"""Scientific notation that names things: groups (SU(2), SO(10)), N=1, Z_2, 2+1, 1/N, AdS/CFT,
apostrophe names (Bogomol'nyi). Shared by the tagger (which must not cut them apart) and the
concept keys and names (which must not flatten them).

A leaf module: regular expressions and pure functions, no kg imports.
"""

from __future__ import annotations

import re

__all__ = ["NOTATION", "PROTECTED", "is_notation", "modifier_notation", "written_product"]

# Group and algebra names with their argument: SU(2), SO(10), U(1), SL(2,R), O(N), QED(0+1),
# su(2), SU_q(2), F(R), Sp(2N), osp(4|2N), SO(2k+1). Not "GNN(s)" (a plural in brackets) nor a word glued to an
# acronym.
_GROUP_ARGUMENT = r"(?:\d+[NMKLnmkpql]?|[A-Za-z]{1,2})"  # 2N: hep-th wrote 269 such groups, whose concepts lost them
_GROUP_NAME = (r"(?:[A-Z][A-Za-z]{0,3}|su|so|sl|gl|sp|osp|psu|u|o)(?:_[A-Za-z0-9]{1,2})?"
               rf"\(\s*(?!s\)){_GROUP_ARGUMENT}(?:\s*[,|+]\s*{_GROUP_ARGUMENT})*\s*\)")
_GROUP = rf"{_GROUP_NAME}(?![\w(])"
# Names with an apostrophe inside a word: Bogomol'nyi(-Prasad-Sommerfield), 't Hooft is a particle.
_APOSTROPHE = r"[A-Z][a-z]+['’][a-z]{2,}(?:[-–][A-Z][a-z]+)*"
# A dimension in brackets: (2+1)-dimensional, (3+1)-dimensional.
_DIMENSIONAL = r"\((?:\d+|[A-Za-z])(?:[+\-]\d+)?\)[-‐]?dimensional"
# A fold in brackets: "a Calabi-Yau (n+1)-fold" (hep-th's concept was "Calabi-Yau" of "Calabi-Yau (").
_FOLD = r"\((?:\d+|[A-Za-z])(?:[+\-]\d+)?\)[-‐]folds?"
# The particle of 't Hooft.
_HOOFT = r"['’]t\s[A-Z][a-z]+"
# A product of groups written with spaces: "SU(N) x U(1)", "SU(2) × SU(2)" (322 places in hep-th; the tagger cut
# "U(1) commutative theory" out of "SU(N) x U(1) commutative theory").
_PRODUCT = rf"{_GROUP_NAME}(?:\s*[x×⊗]\s*{_GROUP_NAME})+(?![\w(])"
# The sign between two groups of a product as a text writes it, apart or as a letter: "SU(2) x U(1)", "SU(2) × U(1)".
_PRODUCT_SIGN = re.compile(rf"(?<=\))\s*[x×]\s*(?={_GROUP_NAME})")
#: What the tagger must see as one token (it splits these at brackets and apostrophes).
PROTECTED = re.compile(rf"(?<![\w(])(?:{_PRODUCT}|{_GROUP}|{_APOSTROPHE}|{_DIMENSIONAL}|{_FOLD}|{_HOOFT})")

# An index: Z_2, W_{3}, S^5; braces only in pairs ("AdS_{3" is damage, not notation).
_INDEX = r"[_^](?:\{[0-9A-Za-z]{1,3}\}|[0-9A-Za-z]{1,3})"
# Tokens that are notation by themselves: the group names above, N=1 / c=1 / D=4, N=(2,2),
# Z_2 / AdS_5 / W_3, R^2 / S^5 / CP^1, 2+1 / 3+1, 1/N, 1/2 (of "1/2 BPS", "spin 3/2"), AdS/CFT.
_TOKEN = re.compile(
    rf"{_GROUP}|{_DIMENSIONAL}|{_FOLD}|{_HOOFT}"
    r"|[A-Za-z]=\(?\d+(?:,\d+)?\)?"
    rf"|[A-Za-z]{{1,4}}{_INDEX}(?:{_INDEX})?"
    r"|\d+\+\d+"
    r"|\d+/(?:[A-Za-z]|\d+)"
    r"|[A-Z][A-Za-z]{1,5}/[A-Z][A-Za-z]{1,5}"
)
# Notation that qualifies a noun rather than naming a thing: "N=1 supersymmetry", "2+1 dimensions",
# "1/2 BPS operators".
_MODIFIER = re.compile(rf"[A-Za-z]=\(?\d+(?:,\d+)?\)?|\d+\+\d+|\d+/(?:[A-Za-z]|\d+)|{_DIMENSIONAL}")

#: A notation token anywhere in a phrase (for keys and names).
NOTATION = re.compile(rf"(?<![\w(]){_TOKEN.pattern}(?![\w(])")


def written_product(text: str) -> str:
    """``text`` with each product of groups written with its sign, as the tokenizer keeps it whole and the key
    reads it.

    Examples
    --------
    >>> written_product("the SU(N) x U(1) theory, SL(2,R)xSU(2) and SU(3) × SU(2)"), written_product("SU(2) x 3")
    ('the SU(N)×U(1) theory, SL(2,R)×SU(2) and SU(3)×SU(2)', 'SU(2) x 3')
    """
    return _PRODUCT_SIGN.sub("×", text) if ")" in text else text


def is_notation(token: str) -> bool:
    """Whether ``token`` is one notation token.

    Examples
    --------
    >>> [is_notation(t) for t in ["SU(2)", "N=1", "Z_2", "2+1", "1/N", "1/2", "AdS/CFT", "GNN(s)", "model", "AdS_{3"]]
    [True, True, True, True, True, True, True, False, False, False]
    """
    return _TOKEN.fullmatch(token) is not None


def modifier_notation(token: str) -> bool:
    """Notation that qualifies a noun and is no concept alone ("N=1", "2+1", "1/N").

    Examples
    --------
    >>> [modifier_notation(t) for t in ["N=1", "2+1", "1/N", "3/2", "SU(2)", "AdS/CFT"]]
    [True, True, True, True, False, False]
    """
    return _MODIFIER.fullmatch(token) is not None
