"""Identifiers and titles reduced for matching: one key per work, whatever the spelling.

Readers (:mod:`kg.ingest`) use these to fill a paper's ids; :mod:`kg.identity` and
:mod:`kg.citations` use them to resolve references to corpus papers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from urllib.parse import quote, urlsplit

from kg.escape import clean_text

__all__ = ["one_line", "normalize_doi", "normalize_arxiv", "normalize_openalex", "normalize_title",
           "reference_key", "paper_link"]

_WS = re.compile(r"\s+")
UNSAFE_CHARS = re.compile("[\ud800-\udfff\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_DOI = re.compile(r"10\.\d{4,9}/\S+", re.I)
_ARXIV = re.compile(r"(?:arxiv:)?((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?$", re.I)


def one_line(value: object) -> str:
    """Return ``value`` as one line of text: NFC, whitespace runs collapsed, stripped; lone
    surrogates (which no output can encode) replaced by U+FFFD and bidirectional overrides
    (which make text display as something else) removed, see :func:`kg.escape.clean_text`."""
    if value is None:
        return ""
    text = str(value)
    if UNSAFE_CHARS.search(text):
        text = clean_text(text)
    text = unicodedata.normalize("NFC", text)
    return _WS.sub(" ", text).strip()


def normalize_doi(value: str) -> str | None:
    """The bare, lowercased DOI inside ``value`` (URL or ``doi:`` forms accepted)."""
    match = _DOI.search(value or "")
    return match.group(0).rstrip(".").lower() if match else None


def normalize_arxiv(value: str) -> str | None:
    """The arXiv id without version (``2309.00071``, ``hep-th/9901001``)."""
    value = (value or "").strip()
    value = re.sub(r"^https?://arxiv\.org/(?:abs|pdf)/", "", value, flags=re.I)
    match = _ARXIV.match(value)
    return match.group(1) if match else None


_OPENALEX = re.compile(r"^(?:https?://(?:api\.)?openalex\.org/(?:works/)?)?([Ww]\d{4,})$")
_S2 = re.compile(r"^(?:s2:|https?://(?:www\.)?semanticscholar\.org/paper/(?:[^/]+/)?)?([0-9a-f]{40})$", re.I)


def normalize_openalex(value: str) -> str | None:
    """The short OpenAlex id (``W2741809807``) from a URL or bare id, else ``None``.

    Examples
    --------
    >>> normalize_openalex("https://openalex.org/W2741809807")
    'W2741809807'
    """
    match = _OPENALEX.match((value or "").strip())
    return match.group(1).upper() if match else None


def normalize_title(value: str) -> str:
    """A title reduced for matching: accents, case, punctuation and spacing removed.

    Examples
    --------
    >>> normalize_title("Graph  Neural Networks: A Review!")
    'graph neural networks a review'
    """
    text = unicodedata.normalize("NFKD", one_line(value).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(re.findall(r"\w+", text))


def reference_key(value: str) -> str:
    """One canonical key for a reference or identifier, so equal works compare equal.

    ``doi:`` + bare DOI, ``arxiv:`` + id, ``openalex:`` + W-id, ``s2:`` + 40-hex
    Semantic Scholar id, else the cleaned, casefolded text itself.

    Examples
    --------
    >>> reference_key("https://doi.org/10.1145/3292500.3330919")
    'doi:10.1145/3292500.3330919'
    >>> reference_key("arXiv:2309.00071v2")
    'arxiv:2309.00071'
    """
    text = one_line(value)
    if (doi := normalize_doi(text)) is not None:
        return "doi:" + doi
    if (arxiv := normalize_arxiv(text)) is not None:
        return "arxiv:" + arxiv.lower()
    if (openalex := normalize_openalex(text)) is not None:
        return "openalex:" + openalex.lower()
    if (s2 := _S2.match(text)) is not None:
        return "s2:" + s2.group(1).lower()
    return text.casefold()


def paper_link(node: str, data: Mapping) -> str | None:
    """A web address for a paper: its DOI (``https://doi.org/…``), else its arXiv page, else an
    ``http(s)`` URL among its ids or as its id; None when it has none (no other scheme is ever linked).

    Examples
    --------
    >>> paper_link("p1", {"doi": "10.1145/3015022.3015026"})
    'https://doi.org/10.1145/3015022.3015026'
    >>> paper_link("p2", {"ids": ["arxiv:hep-th/9901001"]}), paper_link("javascript:alert(1)", {})
    ('https://arxiv.org/abs/hep-th/9901001', None)
    """
    ids = [str(i) for i in data.get("ids") or []]
    doi = data.get("doi") or next((i[4:] for i in ids if i.startswith("doi:")), None)
    if doi:
        return "https://doi.org/" + quote(str(doi).strip(), safe="/:;()._-<>[]")
    arxiv = next((i[6:] for i in ids if i.startswith("arxiv:")), None)
    if arxiv:
        return "https://arxiv.org/abs/" + quote(arxiv.strip(), safe="/.-_")
    for candidate in [i.partition(":")[2] for i in ids if i.startswith("url:")] + [node]:
        parts = urlsplit(candidate.strip())
        if parts.scheme.lower() in ("http", "https") and parts.netloc:
            return quote(candidate.strip(), safe=":/?#[]@!$&'()*+,;=%-._~")
    return None
