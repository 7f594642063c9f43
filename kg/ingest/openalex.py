"""OpenAlex works: one work, a ``{"meta": …, "results": [...]}`` API page, or JSON Lines.

What kg keeps from each work:

* ``title`` (or ``display_name``), ``publication_year``, ``doi``, ``ids.arxiv`` / ``ids.pmid``;
* the abstract, rebuilt from ``abstract_inverted_index`` (word -> positions);
* ``authorships[].author.display_name`` as authors, ``primary_location.source.display_name``
  as venue;
* ``referenced_works`` as references (resolved against the corpus by OpenAlex id);
* ``keywords`` as keyphrases; ``topics``/``concepts`` names and ``type`` in ``extra``.

The paper id is the DOI when there is one, else the short OpenAlex id (``W2741809807``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from kg.ingest._records import RecordSkipped, normalize_arxiv, normalize_openalex
from kg.ingest.jsonl import read_json_corpus
from kg.models import Corpus

__all__ = ["load_openalex", "openalex_record", "rebuild_abstract"]


def rebuild_abstract(index: Mapping[str, object] | None) -> str:
    """The abstract text from OpenAlex's ``abstract_inverted_index``.

    Examples
    --------
    >>> rebuild_abstract({"Graphs": [0], "are": [1, 3], "what": [2]})
    'Graphs are what are'
    """
    if not index:
        return ""
    if not isinstance(index, Mapping):
        raise RecordSkipped("unparsable: abstract_inverted_index is not an object")
    slots: dict[int, str] = {}
    for word, positions in index.items():
        if not isinstance(positions, list):
            raise RecordSkipped(f"unparsable: abstract_inverted_index[{str(word)[:20]!r}] is not a list")
        for position in positions:
            if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < 1_000_000:
                raise RecordSkipped(f"unparsable: abstract_inverted_index position {str(position)[:20]!r}")
            slots[position] = str(word)
    return " ".join(slots[i] for i in sorted(slots))


def _get(obj: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def _names(items: object, *path: str) -> list[str]:
    out = []
    for item in _list(items):
        name = _get(item, *path)
        if isinstance(name, str) and name.strip():
            out.append(name.strip())
    return out


def openalex_record(work: Mapping[str, object]) -> dict[str, object]:
    """One OpenAlex work as a record with kg's field names."""
    openalex = normalize_openalex(str(work.get("id") or ""))
    if openalex is None and not work.get("abstract_inverted_index") and not work.get("title"):
        raise RecordSkipped("unparsable: not an OpenAlex work (no id, title or abstract_inverted_index)")
    ids: dict[str, str] = {}
    if openalex:
        ids["openalex"] = openalex
    arxiv = None
    for key, value in (work.get("ids") or {}).items() if isinstance(work.get("ids"), Mapping) else ():
        if key == "pmid" and value:
            ids["pmid"] = str(value).rsplit("/", 1)[-1]
        if key == "arxiv" and value:
            arxiv = normalize_arxiv(str(value))
    doi = work.get("doi") or _get(work, "ids", "doi")
    references = [normalize_openalex(str(r)) or str(r) for r in _list(work.get("referenced_works"))]
    extra: dict[str, object] = {}
    topics = _names(work.get("topics"), "display_name")
    if topics:
        extra["topics"] = topics
    concepts = _names(work.get("concepts"), "display_name")
    if concepts:
        extra["concepts"] = concepts
    if isinstance(work.get("type"), str):
        extra["type"] = work["type"]
    return {
        "fallback_id": openalex,
        "title": work.get("title") or work.get("display_name"),
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),  # type: ignore[arg-type]
        "authors": _names(work.get("authorships"), "author", "display_name"),
        "year": work.get("publication_year"),
        "venue": _get(work, "primary_location", "source", "display_name"),
        "keyphrases": _names(work.get("keywords"), "display_name"),
        "references": references,
        "doi": doi,
        "arxiv_id": arxiv,
        "ids": ids,
        "extra": extra,
    }


def load_openalex(path: str | os.PathLike[str]) -> Corpus:
    """Read OpenAlex works (one, a results page, a JSON array, or JSONL) into a corpus."""
    return read_json_corpus(path, openalex_record)
