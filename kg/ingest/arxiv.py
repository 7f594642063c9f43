"""The arXiv metadata snapshot (Kaggle ``arxiv-metadata-oai-snapshot.json``): JSON Lines.

Fields read: ``id``, ``title``, ``abstract``, ``authors_parsed`` (else ``authors``),
``categories`` (into ``extra``), ``doi``, ``journal-ref`` (into ``extra``), and the year
from the first of ``versions[].created``, else ``update_date``, else the id itself
(``0704.0001`` is April 2007). TeX accents in names and titles (``Bal\\'azs``) are
decoded. The paper id is the DOI, else ``arXiv:<id>``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from kg.ingest._records import RecordSkipped, decode_tex, normalize_arxiv
from kg.ingest.jsonl import read_json_corpus
from kg.models import Corpus

__all__ = ["load_arxiv", "arxiv_record"]

_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_NEW_ID = re.compile(r"^(\d\d)(\d\d)\.")
_OLD_ID = re.compile(r"/(\d\d)(\d\d)\d{3}$")


def _year(entry: Mapping[str, object], arxiv: str) -> int | None:
    versions = entry.get("versions")
    if isinstance(versions, list) and versions and isinstance(versions[0], Mapping):
        match = _YEAR.search(str(versions[0].get("created") or ""))
        if match:
            return int(match.group(1))
    match = _NEW_ID.match(arxiv) or _OLD_ID.search(arxiv)
    if match:
        yy = int(match.group(1))
        return (1900 if yy >= 91 else 2000) + yy
    match = _YEAR.search(str(entry.get("update_date") or ""))
    return int(match.group(1)) if match else None


def _authors(entry: Mapping[str, object]) -> list[str]:
    parsed = entry.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        names = []
        for item in parsed:
            if isinstance(item, list) and item:
                last, first = str(item[0]), str(item[1]) if len(item) > 1 else ""
                suffix = str(item[2]) if len(item) > 2 else ""
                names.append(decode_tex(" ".join(p for p in (first, last, suffix) if p.strip())))
        return names
    raw = entry.get("authors")
    if isinstance(raw, str):
        return [decode_tex(a) for a in re.split(r",\s*|\s+and\s+", raw) if a.strip()]
    return []


def arxiv_record(entry: Mapping[str, object]) -> dict[str, object]:
    """One arXiv snapshot entry as a record with kg's field names."""
    arxiv = normalize_arxiv(str(entry.get("id") or ""))
    if arxiv is None:
        raise RecordSkipped(f"unparsable: {str(entry.get('id'))[:40]!r} is not an arXiv id")
    extra: dict[str, object] = {}
    categories = entry.get("categories")
    if isinstance(categories, str) and categories.strip():
        extra["categories"] = categories.split()
    if isinstance(entry.get("journal-ref"), str):
        extra["journal_ref"] = entry["journal-ref"]
    title = entry.get("title")
    return {
        "title": decode_tex(title) if isinstance(title, str) else None,
        "abstract": entry.get("abstract"),
        "authors": _authors(entry),
        "year": _year(entry, arxiv),
        "doi": entry.get("doi"),
        "arxiv_id": arxiv,
        "extra": extra,
    }


def load_arxiv(path: str | os.PathLike[str]) -> Corpus:
    """Read arXiv metadata snapshot JSON Lines into a corpus."""
    return read_json_corpus(path, arxiv_record)
