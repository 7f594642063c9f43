"""Shared record handling for every reader: ids, derived titles, field coercion.

Readers turn their format into plain dicts with kg's field names and hand them to
:func:`paper_from_record`, which either returns a :class:`~kg.models.Paper` or raises
:class:`RecordSkipped` with the reason the record cannot be used.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

from kg.escape import clean_text as safe_text
from kg.ingest._titles import derive_title
from kg.identifiers import UNSAFE_CHARS, one_line, normalize_arxiv, normalize_doi, normalize_openalex
from kg.identifiers import normalize_title, reference_key  # noqa: F401 - for the readers that import them here
from kg.ingest.repair import KINDS, decode_entities, repair_text
from kg.models import Paper

__all__ = [
    "RecordSkipped",
    "paper_from_record",
    "derive_title",
    "text_id",
    "one_line",
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

#: Key of :attr:`Paper.extra` that marks a record whose text was repaired (see :func:`one_line`).
REPAIRED = "_repaired"
#: Key of :attr:`Paper.extra` with the kinds of :func:`~kg.ingest.repair.repair_text` that changed its
#: title or abstract (popped and counted as :attr:`~kg.models.Corpus.text_repairs` by :mod:`kg.ingest`).
TEXT_REPAIRED = "_text_repaired"
# Fields kept in another form than the record's, counted with the text repairs (FIELD_KINDS, in this order).
YEAR_UNKNOWN = "year not a year (kept as unknown)"
VENUE_LIST = "venue a list (first kept)"
ID_RENAMED = "id like a kg node id (prefixed paper:)"
FIELD_KINDS = (YEAR_UNKNOWN, VENUE_LIST, ID_RENAMED)


class RecordSkipped(Exception):
    """A record that cannot become a paper; the message is the reason."""


def _needs_repair(record: Mapping[str, object]) -> bool:
    """Whether any text in ``record`` holds a lone surrogate or a bidirectional override."""
    def walk(value: object) -> bool:
        if isinstance(value, str):
            return UNSAFE_CHARS.search(value) is not None
        if isinstance(value, Mapping):
            return any(walk(k) or walk(v) for k, v in value.items())
        if isinstance(value, (list, tuple)):
            return any(walk(v) for v in value)
        return False

    return walk(record)


def text_id(text: str) -> str:
    """A short stable id from the normalized text: ``p-`` and 10 hex digits."""
    norm = one_line(text).casefold()
    return "p-" + hashlib.sha1(norm.encode("utf-8")).hexdigest()[:10]


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
        text = decode_entities(one_line(part))
        if text:
            out.append(text)
    return tuple(out)


def _as_year(value: object) -> int | None:
    """The year in ``value`` (``2020``, ``"2020a"``, ``"Spring 2019"``); None when there is none
    (``"in press"``, ``"n.d."``: the paper is kept with its year unknown, and counted)."""
    if value is None or value == "":
        return None
    match = re.search(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)", str(value))
    return int(match.group(1)) if match else None


def _as_authors(value: object) -> tuple[str, ...]:
    """Authors from a list, or a string separated by ``;`` or, in BibTeX's way, by ``and``."""
    if isinstance(value, str) and ";" not in value and re.search(r"\s+and\s+", value):
        return _as_list(re.split(r"\s+and\s+", value))
    return _as_list(value, split=";")


def _as_venue(value: object) -> tuple[str | None, list[str]]:
    """The venue, and the other venues when a record lists several (the first is the paper's)."""
    if isinstance(value, Mapping):
        value = value.get("name") or value.get("display_name")
    if isinstance(value, (list, tuple)):
        names = list(_as_list(value))
        return (names[0] if names else None), names[1:]
    return decode_entities(one_line(value)) or None, []


#: Paper ids beginning like kg's own node ids (concepts ``c:``, authors ``a:``, venues ``v:``) get this
#: prefix, as do ids that already begin with it, so a paper never shares an id with another node.
PAPER_PREFIX = "paper:"
_RESERVED = re.compile(r"^(?:[acv]:|paper:)")


def safe_paper_id(paper_id: str) -> str:
    """``paper_id``, prefixed when it looks like the id of another kind of node.

    Examples
    --------
    >>> safe_paper_id("c:user"), safe_paper_id("a:alex beutel"), safe_paper_id("p1"), safe_paper_id("paper:x")
    ('paper:c:user', 'paper:a:alex beutel', 'p1', 'paper:paper:x')
    """
    return PAPER_PREFIX + paper_id if _RESERVED.match(paper_id) else paper_id


def paper_from_record(record: Mapping[str, object], *, source: str) -> Paper:
    """Build a :class:`Paper` from a dict with kg's field names.

    Recognised fields: ``id``, ``title``, ``abstract``, ``authors`` (list or
    ``;``-separated string), ``year``, ``venue``, ``keyphrases`` (list or
    ``;``-separated), ``references`` (list or ``;``-separated), ``doi``, ``arxiv_id``
    (or ``arxiv``), ``ids`` (dict), ``extra`` (dict) and ``fallback_id`` (the
    id to use when there is no ``id``, DOI or arXiv id, e.g. a BibTeX key).

    Title and abstract are repaired (:func:`~kg.ingest.repair.repair_text`: markup, TeX, words
    split at line breaks, missing spaces after full stops); an id made from the abstract is
    made from it as read, so it stays what it was.

    Raises
    ------
    RecordSkipped
        When the record has no abstract or a field cannot be parsed.
    """
    read = one_line(record.get("abstract"))
    if not read:
        raise RecordSkipped("empty: no abstract")
    for name in ("abstract", "title"):
        size = len(str(record.get(name) or ""))
        if size > MAX_FIELD_CHARS:
            raise RecordSkipped(f"unparsable: {name} is {size:,} characters (limit {MAX_FIELD_CHARS:,}); "
                                "is it a full text or a broken export?")
    abstract, repairs = repair_text(read)
    if not abstract:  # markup and nothing else
        raise RecordSkipped("empty: no abstract")
    ids: dict[str, str] = {}
    for scheme, value in dict(record.get("ids") or {}).items():  # type: ignore[arg-type]
        if value:
            ids[one_line(scheme)] = one_line(value)
    doi = normalize_doi(one_line(record.get("doi"))) or ids.get("doi")
    arxiv = normalize_arxiv(one_line(record.get("arxiv_id") or record.get("arxiv"))) or ids.get(
        "arxiv"
    )
    raw_id = one_line(record.get("id"))
    if raw_id and not doi:
        doi = normalize_doi(raw_id) if raw_id.lower().startswith(("10.", "doi:", "https://doi")) else None
    if doi:
        ids["doi"] = doi
    if arxiv:
        ids["arxiv"] = arxiv
    paper_id = (raw_id or doi or (f"arXiv:{arxiv}" if arxiv else "") or one_line(record.get("fallback_id"))
                or text_id(read))
    fields: list[str] = []  # fields kept in another form than the record's: counted like text repairs
    if safe_paper_id(paper_id) != paper_id:
        ids["alias"] = paper_id  # references to the id as written still find the paper
        paper_id = safe_paper_id(paper_id)
        fields.append(ID_RENAMED)
    year = _as_year(record.get("year"))
    if year is None and str(record.get("year") or "").strip():
        fields.append(YEAR_UNKNOWN)
    venue, other_venues = _as_venue(record.get("venue"))
    if other_venues:
        fields.append(VENUE_LIST)
    title, title_repairs = repair_text(one_line(record.get("title")), title=True)
    derived = not title
    if derived:
        title = derive_title(abstract)
    extra = _clean_json(dict(record.get("extra") or {}))  # type: ignore[arg-type]
    if _needs_repair(record):
        extra[REPAIRED] = True
    if other_venues:
        extra["other_venues"] = other_venues
    if repairs or title_repairs or fields:
        extra[TEXT_REPAIRED] = [kind for kind in KINDS if kind in repairs or kind in title_repairs] + fields
    return Paper(
        id=paper_id,
        abstract=abstract,
        title=title,
        title_derived=derived,
        authors=_as_authors(record.get("authors")),
        year=year,
        venue=venue,
        keyphrases=_as_list(record.get("keyphrases"), split=";"),
        references=_as_list(record.get("references"), split=";"),
        ids=ids,
        source=source,
        extra=extra,
    )


def _clean_json(value):
    """``value`` (JSON-like) with lone surrogates and bidirectional overrides cleaned from every string."""
    if isinstance(value, str):
        return safe_text(value) if UNSAFE_CHARS.search(value) else value
    if isinstance(value, Mapping):
        return {_clean_json(k): _clean_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean_json(v) for v in value]
    return value
