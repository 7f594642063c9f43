"""Candidate phrases from text: stop-word delimited chunks of content words.

A fast, dependency-free candidate generator (as in RAKE): split sentences at
punctuation and function words, keep runs of 1–4 content words that end in a
noun-like token. Acronyms (``RoPE``, ``BRDL``) and hyphenated terms
(``Byzantine-robust``) survive as single tokens.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["candidate_phrases", "STOP_WORDS"]

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*|\d+(?:\.\d+)?|[^\sA-Za-z0-9]")

STOP_WORDS = frozenset(
    """a about above across after again against all almost along already also although always am
    among an and another any anyone anything are around as at be became because become becomes been
    before being below between both but by can cannot could did do does doing done down due during each
    either else enough especially etc even ever every few for from further furthermore had has have
    having he hence her here hers herself him himself his how however i if in into is it its itself
    just least less let like made mainly make makes many may me might more moreover most mostly much
    must my namely neither never nevertheless no nor not now of off often on once one only onto or
    other others otherwise our ours ourselves out over own per perhaps rather same several shall she
    should since so some such than that the their theirs them themselves then there thereby therefore
    these they this those though through throughout thus to together too toward towards under unless
    until up upon us use used uses using very via was we well were what whatever when where whereas
    whether which while who whom whose why will with within without would yet you your yours
    able achieve achieved achieves achieving allow allows apply applied based called compared
    consider considered demonstrate demonstrates describe described design designed develop
    developed existing extensive find first given help helps improve improved improves improving
    include includes including introduce introduced introduces leverage leverages lead leads new
    novel obtain obtained paper present presented presents propose proposed proposes provide
    provided provides recent recently require requires research result results second show showed
    shown shows significantly specifically study studied studies suggest various work works""".split()
)

_VERB_ENDINGS = ("ed", "ly")


@lru_cache(maxsize=65536)
def _is_content(token: str) -> bool:
    low = token.lower()
    if low in STOP_WORDS or not token[0].isalnum():
        return False
    if token.isdigit() or len(token) == 1:
        return False
    return True


def candidate_phrases(text: str, *, max_words: int = 4) -> list[str]:
    """Distinct candidate phrases of ``text`` in order of first appearance.

    Examples
    --------
    >>> candidate_phrases("We propose Rotary Position Embeddings (RoPE) for transformers.")
    ['Rotary Position Embeddings', 'RoPE', 'transformers']
    """
    seen: dict[str, str] = {}
    run: list[str] = []

    def flush() -> None:
        while run and run[-1].endswith(_VERB_ENDINGS):  # "…model trained", "…graphs efficiently"
            run.pop()
        while run and run[0].endswith("ly"):
            run.pop(0)
        if run and len(run) <= max_words:
            phrase = " ".join(run)
            seen.setdefault(phrase.lower(), phrase)
        run.clear()

    for token in _TOKEN.findall(text):
        if _is_content(token):
            run.append(token)
        else:
            flush()
    flush()
    return list(seen.values())
