"""Shared record handling for every reader: ids, derived titles, field coercion.

Readers turn their format into plain dicts with kg's field names and hand them to
:func:`paper_from_record`, which either returns a :class:`~kg.models.Paper` or raises
:class:`RecordSkipped` with the reason the record cannot be used.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping

from kg.escape import clean_text as safe_text
from kg.ingest._titles import derive_title
from kg.models import Paper

__all__ = [
    "RecordSkipped",
    "paper_from_record",
    "derive_title",
    "text_id",
    "clean_text",
    "normalize_doi",
    "normalize_arxiv",
    "normalize_openalex",
    "normalize_title",
    "reference_key",
    "decode_tex",
    "MAX_FIELD_CHARS",
]

#: Longest text field kg accepts (characters); longer ones are full texts or broken exports.
MAX_FIELD_CHARS = 100_000

_WS = re.compile(r"\s+")
_UNSAFE = re.compile("[\ud800-\udfff\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
#: Key of :attr:`Paper.extra` that marks a record whose text was repaired (see :func:`clean_text`).
REPAIRED = "_repaired"
_DOI = re.compile(r"10\.\d{4,9}/\S+", re.I)
_ARXIV = re.compile(r"(?:arxiv:)?((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?$", re.I)


class RecordSkipped(Exception):
    """A record that cannot become a paper; the message is the reason."""


def clean_text(value: object) -> str:
    """Return ``value`` as one line of text: NFC, whitespace runs collapsed, stripped; lone
    surrogates (which no output can encode) replaced by U+FFFD and bidirectional overrides
    (which make text display as something else) removed, see :func:`kg.escape.clean_text`."""
    if value is None:
        return ""
    text = str(value)
    if _UNSAFE.search(text):
        text = safe_text(text)
    text = unicodedata.normalize("NFC", text)
    return _WS.sub(" ", text).strip()


def _needs_repair(record: Mapping[str, object]) -> bool:
    """Whether any text in ``record`` holds a lone surrogate or a bidirectional override."""
    def walk(value: object) -> bool:
        if isinstance(value, str):
            return _UNSAFE.search(value) is not None
        if isinstance(value, Mapping):
            return any(walk(k) or walk(v) for k, v in value.items())
        if isinstance(value, (list, tuple)):
            return any(walk(v) for v in value)
        return False

    return walk(record)


def text_id(text: str) -> str:
    """A short stable id from the normalized text: ``p-`` and 10 hex digits."""
    norm = clean_text(text).casefold()
    return "p-" + hashlib.sha1(norm.encode("utf-8")).hexdigest()[:10]


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
    text = unicodedata.normalize("NFKD", clean_text(value).casefold())
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
    text = clean_text(value)
    if (doi := normalize_doi(text)) is not None:
        return "doi:" + doi
    if (arxiv := normalize_arxiv(text)) is not None:
        return "arxiv:" + arxiv.lower()
    if (openalex := normalize_openalex(text)) is not None:
        return "openalex:" + openalex.lower()
    if (s2 := _S2.match(text)) is not None:
        return "s2:" + s2.group(1).lower()
    return text.casefold()


_TEX_BRACES = re.compile(r"(?<!\\)[{}]")


def decode_tex(text: str) -> str:
    r"""Plain text from TeX-ish text: accents and commands decoded, braces and ``~`` removed.

    Text without a backslash takes a fast path (braces dropped); the rest goes
    through pylatexenc, which is slow, so only fields that need it pay for it.

    Examples
    --------
    >>> decode_tex(r"Caf{\'e} for {GNN}s")
    'Café for GNNs'
    >>> decode_tex("{GNN}s~now")
    'GNNs now'
    """
    if "\\" not in text:
        return _TEX_BRACES.sub("", text).replace("~", " ")
    from pylatexenc.latex2text import LatexNodes2Text  # installed with bibtexparser

    try:
        return LatexNodes2Text(math_mode="verbatim").latex_to_text(text)
    except (ValueError, IndexError, KeyError, TypeError, RecursionError):  # pylatexenc on malformed TeX
        return _TEX_BRACES.sub("", text)


# --- records -> papers ----------------------------------------------------------------


def _as_list(value: object, *, split: str | None = None) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        parts: Iterable[object] = value.split(split) if split else [value]
    elif isinstance(value, Iterable):
        parts = value
    else:
        parts = [value]
    out: list[str] = []
    for part in parts:
        if isinstance(part, Mapping):  # {"name": ...} style authors
            part = part.get("name") or part.get("display_name") or ""
        text = clean_text(part)
        if text:
            out.append(text)
    return tuple(out)


def _as_year(value: object) -> int | None:
    if value is None or value == "":
        return None
    match = re.search(r"\b(1[5-9]\d\d|20\d\d|21\d\d)\b", str(value))
    if not match:
        raise RecordSkipped(f"unparsable: year {str(value)[:40]!r} is not a year")
    return int(match.group(1))


def paper_from_record(record: Mapping[str, object], *, source: str) -> Paper:
    """Build a :class:`Paper` from a dict with kg's field names.

    Recognised fields: ``id``, ``title``, ``abstract``, ``authors`` (list or
    ``;``-separated string), ``year``, ``venue``, ``keyphrases`` (list or
    ``;``-separated), ``references`` (list or ``;``-separated), ``doi``, ``arxiv_id``
    (or ``arxiv``), ``ids`` (dict), ``extra`` (dict) and ``fallback_id`` (the
    id to use when there is no ``id``, DOI or arXiv id, e.g. a BibTeX key).

    Raises
    ------
    RecordSkipped
        When the record has no abstract or a field cannot be parsed.
    """
    abstract = clean_text(record.get("abstract"))
    if not abstract:
        raise RecordSkipped("empty: no abstract")
    for name in ("abstract", "title"):
        size = len(str(record.get(name) or ""))
        if size > MAX_FIELD_CHARS:
            raise RecordSkipped(f"unparsable: {name} is {size:,} characters (limit {MAX_FIELD_CHARS:,}); "
                                "is it a full text or a broken export?")
    ids: dict[str, str] = {}
    for scheme, value in dict(record.get("ids") or {}).items():  # type: ignore[arg-type]
        if value:
            ids[clean_text(scheme)] = clean_text(value)
    doi = normalize_doi(clean_text(record.get("doi"))) or ids.get("doi")
    arxiv = normalize_arxiv(clean_text(record.get("arxiv_id") or record.get("arxiv"))) or ids.get(
        "arxiv"
    )
    raw_id = clean_text(record.get("id"))
    if raw_id and not doi:
        doi = normalize_doi(raw_id) if raw_id.lower().startswith(("10.", "doi:", "https://doi")) else None
    if doi:
        ids["doi"] = doi
    if arxiv:
        ids["arxiv"] = arxiv
    paper_id = (raw_id or doi or (f"arXiv:{arxiv}" if arxiv else "") or clean_text(record.get("fallback_id"))
                or text_id(abstract))
    title = clean_text(record.get("title"))
    derived = not title
    if derived:
        title = derive_title(abstract)
    extra = _clean_json(dict(record.get("extra") or {}))  # type: ignore[arg-type]
    if _needs_repair(record):
        extra[REPAIRED] = True
    return Paper(
        id=paper_id,
        abstract=abstract,
        title=title,
        title_derived=derived,
        authors=_as_list(record.get("authors"), split=";"),
        year=_as_year(record.get("year")),
        venue=clean_text(record.get("venue")) or None,
        keyphrases=_as_list(record.get("keyphrases"), split=";"),
        references=_as_list(record.get("references"), split=";"),
        ids=ids,
        source=source,
        extra=extra,
    )


def _clean_json(value):
    """``value`` (JSON-like) with lone surrogates and bidirectional overrides cleaned from every string."""
    if isinstance(value, str):
        return safe_text(value) if _UNSAFE.search(value) else value
    if isinstance(value, Mapping):
        return {_clean_json(k): _clean_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean_json(v) for v in value]
    return value
