"""Web of Science exports: the tagged "Plain text file" and the "Tab-delimited file".

The plain-text export starts with ``FN Clarivate Analytics Web of Science``; each
record runs from ``PT`` to ``ER``, one two-letter tag per field, continuation lines
indented by three spaces (one author or cited reference per line). The
tab-delimited export has the same tags as column names and is read by
:func:`kg.ingest.table.load_wos_table`. Both keep ``TI``, ``AB``, ``AF``/``AU``, ``PY``,
``SO``, ``DE``, ``DI``, ``CR`` (cited references) and ``UT``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping

from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, paper_from_record
from kg.ingest.table import WOS_TAGS, export_record, load_wos_table
from kg.models import Corpus, Skip

__all__ = ["load_wos", "is_tagged"]

_LINE = re.compile(r"^([A-Z][A-Z0-9]) (.*)$|^([A-Z][A-Z0-9])$")
_OUTSIDE = {"FN", "VR", "EF", "PT", "ER"}  # tags that may stand between records
_LIST_TAGS = {"AU", "AF", "CR", "BA", "BF", "CA", "GP", "BE"}


def is_tagged(text: str) -> bool:
    """True when ``text`` is a tagged plain-text export (``FN …`` / ``PT …`` first)."""
    return re.match(r"(?:FN|VR|PT)(?: |\n|$)", text.lstrip("\ufeff \n")) is not None


def _records(name: str, text: str, corpus: Corpus) -> Iterator[tuple[int, dict[str, list[str]]]]:
    start: int | None = None
    fields: dict[str, list[str]] = {}
    tag = None
    stray = False
    for number, line in enumerate(text.split("\n"), start=1):
        match = _LINE.match(line)
        if start is None and line.strip() and not (match and (match.group(1) or match.group(3)) in _OUTSIDE):
            if not stray:
                corpus.skipped.append(Skip(name, number, "unparsable: text outside a 'PT' … 'ER' record"))
            stray = True
            continue
        if match:
            tag, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), "")
            if tag == "PT":
                if start is not None:
                    corpus.skipped.append(Skip(name, start, "unparsable: record has no 'ER' end line before "
                                               f"the next record at line {number}"))
                start, fields, stray = number, {}, False
            elif tag == "ER":
                if start is not None:
                    yield start, fields
                start, fields, tag = None, {}, None
                continue
            if start is not None:
                fields.setdefault(tag, []).append(value.strip())
        elif line.startswith("   ") and start is not None and tag is not None:
            fields[tag].append(line.strip())
    if start is not None:
        corpus.skipped.append(Skip(name, start, "unparsable: the file ends inside this record (no 'ER' end "
                                   "line), so it may be truncated"))


def _values(fields: Mapping[str, list[str]]) -> dict[str, str]:
    values: dict[str, str] = {}
    for field, tags in WOS_TAGS.items():
        for tag in tags:
            lines = [v for v in fields.get(tag.upper(), []) if v]
            if lines:
                values[field] = ("; " if tag.upper() in _LIST_TAGS else " ").join(lines)
                break
    return values


def load_wos(path: str | os.PathLike[str], *, mapping: Mapping[str, str] | None = None) -> Corpus:
    """Read a Web of Science export (tagged plain text or tab-delimited) into a corpus.

    ``mapping`` (kg field -> column) applies to the tab-delimited form only.
    """
    name = os.fspath(path)
    text = read_text(name)
    if not is_tagged(text):
        return load_wos_table(name, mapping=mapping)
    corpus = Corpus()
    for line, fields in _records(name, text, corpus):
        try:
            corpus.papers.append(paper_from_record(export_record(_values(fields), "wos"), source=f"{name}:{line}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, line, str(exc)))
    return corpus
