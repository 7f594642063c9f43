"""BibTeX (``.bib``) exports from reference managers and digital libraries, via bibtexparser 2.

Fields read: ``title``, ``abstract``, ``author`` (``Last, First`` or ``First Last``,
joined by ``and``), ``year`` (else ``date``), ``journal`` / ``booktitle`` / ``series`` as
venue, ``keywords`` (``,`` or ``;`` separated), ``doi``, and an arXiv id from ``eprint``
(with ``archiveprefix = arXiv``) or an ``arxiv.org`` URL. TeX accents and braces are
decoded; ``@string`` macros are expanded. The paper id is the DOI, else ``arXiv:<id>``,
else the citation key.

Entries that bibtexparser cannot parse, and entries whose key repeats an earlier
one, are skipped with their line numbers.
"""

from __future__ import annotations

import logging
import os
import re

from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, decode_tex, normalize_arxiv, paper_from_record
from kg.models import Corpus, Skip

__all__ = ["load_bibtex", "bibtex_record", "flip_name"]

_KEYWORD_SPLIT = re.compile(r"\s*[;,]\s*")
_STRAY_AT = re.compile(r"^[ \t]*@[ \t]*[A-Za-z]*[ \t]*$", re.M)

# bibtexparser logs each broken block; kg reports them as located skips instead.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())


def flip_name(name: str) -> str:
    """``Last, First`` -> ``First Last`` (``von Last, Jr, First`` -> ``First von Last Jr``).

    Examples
    --------
    >>> flip_name("Müller, Anna")
    'Anna Müller'
    >>> flip_name("Anna Müller")
    'Anna Müller'
    """
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and parts[0] and parts[2]:
        return " ".join(p for p in (parts[2], parts[0], parts[1]) if p)
    return " ".join(name.replace("{", "").replace("}", "").split())


def _value(fields: dict[str, object], *names: str) -> str:
    for name in names:
        value = fields.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def bibtex_record(entry_type: str, key: str, fields: dict[str, object]) -> dict[str, object]:
    """One BibTeX entry (fields by lower-case name, already decoded) as a kg record."""
    authors = fields.get("author") or []
    if isinstance(authors, str):
        authors = [authors]
    arxiv = None
    eprint = _value(fields, "eprint")
    if eprint and _value(fields, "archiveprefix", "eprinttype").lower() in ("arxiv", ""):
        arxiv = normalize_arxiv(eprint)
    if arxiv is None:
        url = _value(fields, "url")
        arxiv = normalize_arxiv(url) if "arxiv.org/" in url else None
    doi = _value(fields, "doi")
    keywords = _value(fields, "keywords", "keyword", "author_keywords")
    extra: dict[str, object] = {"entry_type": entry_type}
    return {
        "fallback_id": key,
        "title": _value(fields, "title"),
        "abstract": _value(fields, "abstract"),
        "authors": [flip_name(str(a)) for a in authors if str(a).strip()],
        "year": _value(fields, "year") or _value(fields, "date") or None,
        "venue": _value(fields, "journal", "journaltitle", "booktitle", "series"),
        "keyphrases": [k for k in _KEYWORD_SPLIT.split(keywords) if k] if keywords else [],
        "doi": doi,
        "arxiv_id": arxiv,
        "ids": {"bibtex": key} if key else {},
        "extra": extra,
    }


_TEXT_FIELDS = {"title", "abstract", "author", "journal", "journaltitle", "booktitle", "series", "keywords",
                "keyword", "author_keywords", "year", "date"}


def _decoded(key: str, value: object) -> object:
    """TeX decoded for the fields kg reads (others are left alone: decoding is slow)."""
    if key not in _TEXT_FIELDS:
        return value
    if isinstance(value, list):
        return [decode_tex(str(v)) for v in value]
    return decode_tex(str(value))


def _failure(block) -> str:
    error = block.error
    reason = getattr(error, "abort_reason", None) or getattr(error, "message", None) or str(error)
    reason = " ".join(str(reason).split())[:160] or type(error).__name__
    if "end of file" in reason:
        reason = "the file ends inside this entry, so it may be truncated"
    return f"unparsable: {reason}"


def load_bibtex(path: str | os.PathLike[str]) -> Corpus:
    """Read a BibTeX file into a :class:`~kg.models.Corpus`."""
    import bibtexparser  # bibtexparser: only for .bib input
    from bibtexparser import middlewares as mw  # see above
    from bibtexparser.model import (
        DuplicateBlockKeyBlock,
        Entry,
        ImplicitComment,
        MiddlewareErrorBlock,
        ParsingFailedBlock,
    )

    name = os.fspath(path)
    text = read_text(name)
    library = bibtexparser.parse_string(text, append_middleware=[mw.SeparateCoAuthors()])
    corpus = Corpus()
    first_line: dict[str, int] = {}
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, DuplicateBlockKeyBlock):
            earlier = first_line.get(block.key)
            corpus.skipped.append(Skip(name, line, f"duplicate: entry key {block.key!r} already used"
                                       + (f" at line {earlier}" if earlier else "")))
            continue
        if isinstance(block, MiddlewareErrorBlock) and isinstance(block.ignore_error_block, Entry):
            block = block.ignore_error_block  # a middleware failed: keep the entry as parsed
        elif isinstance(block, ParsingFailedBlock):
            corpus.skipped.append(Skip(name, line, _failure(block)))
            continue
        if isinstance(block, ImplicitComment) and _STRAY_AT.search(block.comment):
            corpus.skipped.append(Skip(name, line, "unparsable: an '@' entry start without '{' "
                                       "(a truncated file, or a stray '@' outside an entry)"))
            continue
        if not isinstance(block, Entry):
            continue
        first_line.setdefault(block.key, line)
        fields = {f.key.lower(): _decoded(f.key.lower(), f.value) for f in block.fields}
        try:
            record = bibtex_record(block.entry_type.lower(), block.key, fields)
            corpus.papers.append(paper_from_record(record, source=f"{name}:{line}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, line, str(exc)))
    return corpus
