"""Semantic Scholar papers: API JSON (one paper, a list, ``{"data": [...]}``) or JSON Lines.

Fields read: ``paperId``, ``externalIds`` (``DOI``, ``ArXiv``, ``CorpusId``), ``title``,
``abstract``, ``year``, ``authors[].name``, ``venue`` (else ``publicationVenue.name`` or
``journal.name``), ``references`` (paper objects or ids), and ``fieldsOfStudy`` /
``s2FieldsOfStudy`` as extra metadata. The bulk-dataset spelling in lower case
(``paperid``, ``externalids``, ``corpusid``) is read too.

Each reference is kept as its DOI, else its arXiv id, else its S2 paper id, so it
resolves against papers from any source. The paper id is the DOI, else
``arXiv:<id>``, else the S2 paper id.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from kg.ingest._records import RecordSkipped, normalize_arxiv, normalize_doi
from kg.ingest.jsonl import read_json_corpus
from kg.models import Corpus

__all__ = ["load_semantic_scholar", "s2_record"]


def _field(obj: Mapping[str, object], name: str) -> object:
    """``obj[name]`` under the API spelling or the bulk datasets' lower-case spelling."""
    value = obj.get(name)
    return obj.get(name.lower()) if value is None else value


def _external(obj: Mapping[str, object]) -> dict[str, str]:
    raw = _field(obj, "externalIds")
    if not isinstance(raw, Mapping):
        return {}
    out: dict[str, str] = {}
    for key, value in raw.items():
        if value is None or value == "":
            continue
        key = str(key).lower()
        if key == "doi" and (doi := normalize_doi(str(value))):
            out["doi"] = doi
        elif key == "arxiv" and (arxiv := normalize_arxiv(str(value))):
            out["arxiv"] = arxiv
        elif key in ("corpusid", "pubmed", "mag", "dblp", "acl"):
            out[{"corpusid": "s2_corpus", "pubmed": "pmid"}.get(key, key)] = str(value)
    return out


def _reference(ref: object) -> str | None:
    if isinstance(ref, str):
        return ref.strip() or None
    if not isinstance(ref, Mapping):
        return None
    ref = ref.get("citedPaper", ref) if isinstance(ref.get("citedPaper"), Mapping) else ref
    ids = _external(ref)  # type: ignore[arg-type]
    if "doi" in ids:
        return ids["doi"]
    if "arxiv" in ids:
        return "arXiv:" + ids["arxiv"]
    pid = _field(ref, "paperId")  # type: ignore[arg-type]
    if pid:
        return str(pid)
    return f"CorpusId:{ids['s2_corpus']}" if "s2_corpus" in ids else None


def _names(items: object) -> list[str]:
    if not isinstance(items, list):
        return []
    return [str(a.get("name")) for a in items if isinstance(a, Mapping) and a.get("name")]


def s2_record(paper: Mapping[str, object]) -> dict[str, object]:
    """One Semantic Scholar paper as a record with kg's field names."""
    pid = _field(paper, "paperId")
    ids = _external(paper)
    if not pid and not ids and not paper.get("title"):
        raise RecordSkipped("unparsable: not a Semantic Scholar paper (no paperId, externalIds or title)")
    if pid:
        ids["s2"] = str(pid)
    venue = paper.get("venue") or ""
    for key in ("publicationVenue", "journal"):
        if not venue and isinstance(paper.get(key), Mapping):
            venue = paper[key].get("name") or ""  # type: ignore[index, union-attr]
    refs = paper.get("references")
    references = [r for r in (_reference(x) for x in refs) if r] if isinstance(refs, list) else []
    extra: dict[str, object] = {}
    fields = paper.get("fieldsOfStudy")
    if isinstance(fields, list) and fields:
        extra["fields_of_study"] = [str(f) for f in fields if f]
    s2_fields = paper.get("s2FieldsOfStudy")
    if isinstance(s2_fields, list):
        names = sorted({str(f.get("category")) for f in s2_fields if isinstance(f, Mapping) and f.get("category")})
        if names:
            extra["s2_fields"] = names
    return {
        "fallback_id": pid,
        "title": paper.get("title"),
        "abstract": paper.get("abstract"),
        "authors": _names(paper.get("authors")),
        "year": paper.get("year"),
        "venue": venue,
        "references": references,
        "doi": ids.get("doi"),
        "arxiv_id": ids.get("arxiv"),
        "ids": ids,
        "extra": extra,
    }


def load_semantic_scholar(path: str | os.PathLike[str]) -> Corpus:
    """Read Semantic Scholar paper JSON (one, a list, a ``data`` page, or JSONL) into a corpus."""
    return read_json_corpus(path, s2_record)
