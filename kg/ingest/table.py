"""Delimited corpora (CSV, TSV): kg's own columns, Scopus CSV and Web of Science tab-delimited.

The header decides how columns are read:

* **Scopus** CSV exports (``Title``, ``Abstract``, ``Source title``, ``EID`` …):
  authors from ``Author full names`` (else ``Authors``), keyphrases from ``Author
  Keywords``, references from ``References``; ``[No abstract available]`` counts as
  no abstract and the trailing ``© … publisher`` line is dropped.
* **Web of Science** tab-delimited exports (two-letter tags ``PT``, ``TI``, ``AB``, ``PY``
  …): ``AF``/``AU`` authors, ``SO`` venue, ``DE`` keyphrases, ``DI`` DOI, ``CR`` cited
  references, ``UT`` accession number.
* **anything else**: columns named like kg's fields (``id``, ``title``, ``abstract``,
  ``authors``, ``year``, ``venue``, ``keyphrases``, ``references``, ``doi``,
  ``arxiv_id``), case-insensitively; lists ``;``-separated.

``mapping`` (``--map field=column``) overrides any of these per field.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Mapping

from kg.errors import InputError
from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, paper_from_record
from kg.models import Corpus, Skip
from kg.ingest.bibtex import flip_name

__all__ = ["load_csv", "load_scopus", "load_wos_table", "detect_dialect", "export_record", "FIELDS", "WOS_TAGS"]

csv.field_size_limit(64 * 1024 * 1024)

#: kg's field names, as a CSV header or ``--map`` may name them.
FIELDS = ("id", "title", "abstract", "authors", "year", "venue", "keyphrases", "references",
          "doi", "arxiv_id")

_SCOPUS = {
    "title": ("title",), "abstract": ("abstract",), "authors": ("author full names", "authors"),
    "year": ("year",), "venue": ("source title",), "keyphrases": ("author keywords",),
    "references": ("references",), "doi": ("doi",), "id": ("eid",),
}
_WOS = WOS_TAGS = {
    "title": ("ti",), "abstract": ("ab",), "authors": ("af", "au"), "year": ("py",),
    "venue": ("so",), "keyphrases": ("de",), "references": ("cr",), "doi": ("di",), "id": ("ut",),
}
_NO_ABSTRACT = re.compile(r"^\[?no abstract available\]?\.?$", re.I)
_COPYRIGHT = re.compile(r"\s*(?:©|\(c\)|copyright)\s*(?:19|20)\d\d\b[^.]*(?:\.[^.]*)?$", re.I)
_PAREN_ID = re.compile(r"\s*\(\d+\)\s*$")


def detect_dialect(header: list[str]) -> str:
    """``scopus``, ``wos`` or ``kg`` from a header row.

    Examples
    --------
    >>> detect_dialect(["Authors", "Title", "Year", "Source title", "Abstract", "EID"])
    'scopus'
    >>> detect_dialect(["PT", "AU", "TI", "SO", "AB", "PY", "UT"])
    'wos'
    """
    names = {col.strip().lower() for col in header}
    if {"title", "abstract", "source title"} <= names or ("eid" in names and "abstract" in names):
        return "scopus"
    if {"ti", "ab"} <= names and len(names & {"pt", "au", "af", "so", "py", "ut", "di", "de"}) >= 2:
        return "wos"
    return "kg"


def _split_names(value: str, dialect: str) -> list[str]:
    parts = [p.strip() for p in value.split(";") if p.strip()]
    if dialect == "scopus":  # "Smith, John (57190000000)" -> "John Smith"
        return [flip_name(_PAREN_ID.sub("", p)) for p in parts]
    if dialect == "wos":
        return [flip_name(p) for p in parts]
    return parts


def export_record(values: Mapping[str, str], dialect: str) -> dict[str, object]:
    """kg field -> raw cell text of a ``scopus``/``wos``/``kg`` export, as a record for kg."""
    record: dict[str, object] = dict(values)
    if dialect == "kg":
        return record
    abstract = str(record.get("abstract") or "").strip()
    if _NO_ABSTRACT.match(abstract):
        abstract = ""
    record["abstract"] = _COPYRIGHT.sub("", abstract) or abstract
    if record.get("authors"):
        record["authors"] = _split_names(str(record["authors"]), dialect)
    if record.get("references"):
        record["references"] = [r.strip() for r in str(record["references"]).split(";") if r.strip()]
    if record.get("keyphrases"):
        record["keyphrases"] = [k.strip() for k in str(record["keyphrases"]).split(";") if k.strip()]
    raw_id = str(record.pop("id", None) or "").strip()  # EID / UT: the id when there is no DOI
    if raw_id:
        record["fallback_id"] = raw_id
        record["ids"] = {dialect: raw_id}
    record["extra"] = {"export": dialect}
    return record


def _cells(row: list[str], index: Mapping[str, int]) -> dict[str, str]:
    return {field: row[i] for field, i in index.items() if i < len(row)}


def load_csv(
    path: str | os.PathLike[str],
    *,
    delimiter: str | None = None,
    mapping: Mapping[str, str] | None = None,
    dialect: str | None = None,
) -> Corpus:
    """Read a delimited corpus file into a :class:`~kg.models.Corpus`.

    Parameters
    ----------
    path : path
        The file.
    delimiter : str, optional
        Field separator; by default a tab when the header has tabs, else a comma.
    mapping : dict, optional
        kg field name -> column name in this file (case-insensitive); overrides the
        columns the dialect would use.
    dialect : {'kg', 'scopus', 'wos'}, optional
        Which export the columns come from; by default detected from the header.

    Raises
    ------
    InputError
        When the file has no header, no abstract column, or ``mapping`` names a
        field or column that does not exist.
    """
    name = os.fspath(path)
    text = read_text(name)
    header_line = text.split("\n", 1)[0]
    if delimiter is None:
        delimiter = "\t" if "\t" in header_line else ","
    try:
        header = next(csv.reader([header_line], delimiter=delimiter))
    except (StopIteration, csv.Error) as exc:
        raise InputError(f"unreadable header row ({exc or 'empty'})", path=name, line=1) from None
    if not any(col.strip() for col in header):
        raise InputError("empty file: expected a header row", path=name, line=1)
    columns: dict[str, int] = {}
    for i, col in enumerate(header):
        columns.setdefault(col.strip().lower(), i)
    dialect = dialect or detect_dialect(header)
    candidates = {"scopus": _SCOPUS, "wos": _WOS}.get(dialect, {f: (f,) for f in FIELDS})
    index: dict[str, int] = {}
    for field, names in candidates.items():
        found = [columns[c] for c in names if c in columns]
        if found:
            index[field] = found[0]
    if dialect == "kg" and "arxiv_id" not in index and "arxiv" in columns:
        index["arxiv_id"] = columns["arxiv"]
    for field, column in (mapping or {}).items():
        if field not in FIELDS:
            raise InputError(f"mapping {field}={column}: unknown field {field!r}; fields are {', '.join(FIELDS)}",
                             path=name)
        if column.strip().lower() not in columns:
            raise InputError(f"mapping {field}={column}: no column {column!r} in header {header[:12]}",
                             path=name, line=1)
        index[field] = columns[column.strip().lower()]
    if "abstract" not in index:
        raise InputError(
            f"no 'abstract' column in header {header[:8]}; name it 'abstract' or map it "
            "(mapping abstract=COLUMN)",
            path=name,
            line=1,
        )
    corpus = Corpus()
    for number, row in _rows(text, delimiter, dialect, name, corpus.skipped):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(header) and len(row) <= index["abstract"]:
            corpus.skipped.append(Skip(name, number, f"unparsable: {len(row)} fields, header has {len(header)}"))
            continue
        try:
            corpus.papers.append(paper_from_record(export_record(_cells(row, index), dialect), source=f"{name}:{number}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, number, str(exc)))
    return corpus


def _rows(text: str, delimiter: str, dialect: str, name: str, skipped: list[Skip]):
    """``(line, row)`` for each record after the header; broken records become skips.

    Quotes are read strictly, so a field whose quote is never closed cannot swallow the
    records after it: the parser stops at the first quote that does not close a field (or
    at the end of the file), the record where the quote opened is skipped with its line,
    and reading starts again on the next line.
    """
    # Web of Science writes quotes inside fields without escaping them.
    quoting = csv.QUOTE_NONE if dialect == "wos" else csv.QUOTE_MINIMAL
    lines = text.split("\n")
    offset = 1  # lines before the text being read: the header
    while True:
        reader = csv.reader(io.StringIO("\n".join(lines[offset:]), newline=""), delimiter=delimiter,
                            quoting=quoting, strict=True)
        restart = None
        while True:
            number = offset + reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                end = offset + reader.line_num
                if end > number:
                    skipped.append(Skip(name, number, f"unparsable: a quoted field opened on this line is not closed "
                                                      f"before line {end} ({exc}); the next lines were read again"))
                    restart = number  # read again from the line after this record's first line
                    break
                skipped.append(Skip(name, number, f"unparsable: {exc}"))
                continue
            yield number, row
        if restart is None:
            return
        offset = restart


def load_scopus(path: str | os.PathLike[str], *, mapping: Mapping[str, str] | None = None) -> Corpus:
    """Read a Scopus CSV export (columns as Scopus names them)."""
    return load_csv(path, delimiter=",", mapping=mapping, dialect="scopus")


def load_wos_table(path: str | os.PathLike[str], *, mapping: Mapping[str, str] | None = None) -> Corpus:
    """Read a Web of Science tab-delimited export (two-letter column tags)."""
    return load_csv(path, delimiter="\t", mapping=mapping, dialect="wos")
