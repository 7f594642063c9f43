"""RIS (``.ris``) exports from reference managers and databases, via rispy.

Each ``TY  -`` … ``ER  -`` record is parsed on its own, so one broken record costs
only itself and every skip names its line. Fields read: ``TI``/``T1`` (title),
``AB``/``N2`` (abstract), ``AU``/``A1`` (authors, ``Last, First`` flipped),
``PY``/``Y1``/``DA`` (year), ``JO``/``JF``/``T2``/``JA``/``J2`` (venue), ``KW``
(keyphrases), ``DO`` (DOI), ``UR`` (an ``arxiv.org`` URL gives the arXiv id) and
``ID``. Tags written with one space (``TI - ``) are accepted too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping

from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, normalize_arxiv, paper_from_record
from kg.ingest.bibtex import flip_name
from kg.models import Corpus, Skip

__all__ = ["load_ris", "ris_record"]

_TAG = re.compile(r"^([A-Z][A-Z0-9])  ?- ?(.*)$")


def _first(record: Mapping[str, object], *keys: str) -> object:
    for key in keys:
        value = record.get(key)
        if value:
            return value
    return None


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value if v] if isinstance(value, list) else []


def ris_record(fields: Mapping[str, object]) -> dict[str, object]:
    """One record as rispy returns it (rispy's field names) as a kg record."""
    authors = _strings(fields.get("authors")) + _strings(fields.get("first_authors"))
    doi = _first(fields, "doi")
    arxiv = None
    for url in _strings(fields.get("urls")):
        if "arxiv.org/" in url:
            arxiv = normalize_arxiv(url.split("arxiv.org/", 1)[1].replace("abs/", "").replace("pdf/", ""))
            break
    rid = _first(fields, "id")
    return {
        "fallback_id": rid,
        "title": _first(fields, "title", "primary_title"),
        "abstract": _first(fields, "abstract", "notes_abstract"),
        "authors": [flip_name(a) for a in dict.fromkeys(authors)],
        "year": _first(fields, "year", "publication_year", "date"),
        "venue": _first(fields, "journal_name", "alternate_title3", "secondary_title",
                        "alternate_title2", "alternate_title1"),
        "keyphrases": _strings(fields.get("keywords")),
        "doi": doi,
        "arxiv_id": arxiv,
        "ids": {"ris": str(rid)} if rid else {},
        "extra": {"type": str(fields["type_of_reference"])} if fields.get("type_of_reference") else {},
    }


def _records(name: str, text: str, corpus: Corpus) -> Iterator[tuple[int, str]]:
    """``(start line, record text)`` for each complete record; broken ones go to ``corpus``."""
    start: int | None = None
    lines: list[str] = []
    stray: int | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        match = _TAG.match(raw)
        line = f"{match.group(1)}  - {match.group(2)}" if match else raw
        tag = match.group(1) if match else None
        if tag == "TY":
            if start is not None:
                corpus.skipped.append(Skip(name, start, "unparsable: record has no 'ER  -' end tag "
                                           f"before the next record at line {number}"))
            start, lines = number, [line]
        elif start is None:
            if raw.strip() and stray is None:
                stray = number
                corpus.skipped.append(Skip(name, number, "unparsable: text outside a 'TY  -' … 'ER  -' "
                                           "record (is this a RIS file?)"))
            continue
        elif tag == "ER":
            lines.append("ER  - ")
            yield start, "\n".join(lines) + "\n"
            start, lines, stray = None, [], None
        else:
            lines.append(line)
    if start is not None:
        corpus.skipped.append(Skip(name, start, "unparsable: the file ends inside this record (no 'ER  -' "
                                   "end tag), so it may be truncated"))


def load_ris(path: str | os.PathLike[str]) -> Corpus:
    """Read a RIS file into a :class:`~kg.models.Corpus`."""
    import rispy  # rispy: only for .ris input

    name = os.fspath(path)
    corpus = Corpus()
    for line, chunk in _records(name, read_text(name), corpus):
        try:
            parsed = rispy.loads(chunk)
            if len(parsed) != 1:
                raise RecordSkipped("unparsable: not a RIS record")
            record = ris_record(parsed[0])
            corpus.papers.append(paper_from_record(record, source=f"{name}:{line}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, line, str(exc)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # rispy on malformed records
            corpus.skipped.append(Skip(name, line, f"unparsable: {type(exc).__name__}: {str(exc)[:80]}"))
    return corpus
