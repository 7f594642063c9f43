"""Reading corpora: one module per input format, all returning a :class:`~kg.models.Corpus`.

:func:`load_corpus` reads several files (detecting each format), merges them and
reports duplicates as skips, so no record is ever dropped silently.

==========  ==================================  ================================================
format      module                              what
==========  ==================================  ================================================
text        :mod:`kg.ingest.text`               abstracts separated by blank lines
jsonl       :mod:`kg.ingest.jsonl`              kg's own fields, JSON Lines or a JSON array
csv         :mod:`kg.ingest.table`              CSV/TSV; Scopus and Web of Science recognised
scopus      :mod:`kg.ingest.table`              Scopus CSV export
wos         :mod:`kg.ingest.wos`                Web of Science plain-text or tab-delimited
bibtex      :mod:`kg.ingest.bibtex`             ``.bib``
ris         :mod:`kg.ingest.ris`                ``.ris``
openalex    :mod:`kg.ingest.openalex`           OpenAlex works (single, API page, JSONL)
s2          :mod:`kg.ingest.semantic_scholar`   Semantic Scholar paper JSON
arxiv       :mod:`kg.ingest.arxiv`              arXiv metadata snapshot JSONL
==========  ==================================  ================================================
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from collections.abc import Callable, Iterable, Mapping, Sequence

from kg.errors import InputError
from kg.ingest._io import bomless_utf16
from kg.ingest._json import first_json_record
from kg.ingest._records import FIELD_KINDS, REPAIRED, TEXT_REPAIRED, RecordSkipped, paper_from_record, safe_paper_id
from kg.ingest.arxiv import load_arxiv
from kg.ingest.bibtex import load_bibtex
from kg.ingest.jsonl import load_jsonl
from kg.ingest.merge import merge_corpora, merge_papers
from kg.ingest.openalex import load_openalex
from kg.ingest.repair import KINDS as REPAIR_KINDS
from kg.ingest.ris import load_ris
from kg.ingest.semantic_scholar import load_semantic_scholar
from kg.ingest.table import detect_dialect, load_csv, load_scopus
from kg.ingest.text import load_text
from kg.ingest.wos import is_tagged, load_wos
from kg.models import Corpus, Paper, Skip

__all__ = [
    "load_corpus",
    "corpus_from_records",
    "detect_format",
    "merge_corpora",
    "merge_papers",
    "READERS",
    "FORMATS",
    "load_text",
    "load_jsonl",
    "load_csv",
    "load_scopus",
    "load_wos",
    "load_bibtex",
    "load_ris",
    "load_openalex",
    "load_semantic_scholar",
    "load_arxiv",
]

READERS: dict[str, Callable[[str], Corpus]] = {
    "text": load_text,
    "jsonl": load_jsonl,
    "csv": load_csv,
    "scopus": load_scopus,
    "wos": load_wos,
    "bibtex": load_bibtex,
    "ris": load_ris,
    "openalex": load_openalex,
    "s2": load_semantic_scholar,
    "arxiv": load_arxiv,
}

#: What ``--format`` accepts.
FORMATS = ("auto", *READERS)

_TABLES = {"csv", "scopus", "wos"}
_EXTENSIONS = {".csv": "csv", ".tsv": "csv", ".bib": "bibtex", ".bibtex": "bibtex", ".ris": "ris"}
_JSON_EXTENSIONS = {".json", ".jsonl", ".ndjson"}
_HEAD_BYTES = 1 << 16


def _json_kind(head: str) -> str:
    """Which JSON reader fits, from the first record (else from tell-tale keys in the head)."""
    record = first_json_record(head) or {}
    if "abstract_inverted_index" in record or str(record.get("id", "")).startswith("https://openalex.org/"):
        return "openalex"
    if {"paperId", "paperid", "externalIds", "externalids"} & record.keys():
        return "s2"
    if {"submitter", "authors_parsed"} & record.keys() or {"versions", "categories"} <= record.keys():
        return "arxiv"
    if record:
        return "jsonl"
    if '"abstract_inverted_index"' in head:
        return "openalex"
    if '"paperId"' in head:
        return "s2"
    if '"authors_parsed"' in head or '"submitter"' in head:
        return "arxiv"
    return "jsonl"


def detect_format(path: str) -> str:
    """The reader name for ``path``, from its extension and its first bytes.

    ``.bib`` and ``.ris`` by extension; ``.csv``/``.tsv`` are tables (Scopus and Web of
    Science columns are recognised by the table reader); JSON files by their first
    record (OpenAlex, Semantic Scholar, arXiv snapshot, else kg's fields); ``.txt`` is
    plain text unless it is a Web of Science (tagged or tab-delimited) or RIS export.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    try:
        with open(path, "rb") as handle:
            raw = handle.read(_HEAD_BYTES)
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except OSError as exc:
        raise InputError(exc.strerror or "cannot open", path=path) from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = raw.decode("utf-16", errors="replace")
    elif (utf16 := bomless_utf16(raw)) is not None:
        head = raw.decode(utf16, errors="replace")
    else:
        head = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    head = head.replace("\r\n", "\n").replace("\r", "\n")
    stripped = head.lstrip(" \t\n")
    first_line = head.split("\n", 1)[0]
    if ext in _JSON_EXTENSIONS or stripped.startswith(("{", "[")):
        return _json_kind(head)
    if ("\t" in first_line and detect_dialect(first_line.split("\t")) == "wos") or is_tagged(head):
        return "wos"
    if re.match(r"TY  ?- ", stripped):
        return "ris"
    if ext == ".txt":
        return "text"
    if re.search(r"^\s*@\s*\w+\s*[{(]", head, re.M):
        return "bibtex"
    raise InputError(
        f"unknown format (extension {ext or 'none'!r}); name its format, one of {sorted(READERS)}",
        path=path,
    )


def _count_repairs(papers: Iterable[Paper]) -> tuple[int, dict[str, int]]:
    """The records read with unsafe characters cleaned, and those with their text repaired by kind;
    the marks that :func:`~kg.ingest._records.paper_from_record` left in ``extra`` are removed."""
    repaired = 0
    kinds: dict[str, int] = {}
    for paper in papers:
        repaired += bool(paper.extra.pop(REPAIRED, False))
        for kind in paper.extra.pop(TEXT_REPAIRED, ()):
            kinds[kind] = kinds.get(kind, 0) + 1
    return repaired, {kind: kinds[kind] for kind in (*REPAIR_KINDS, *FIELD_KINDS) if kind in kinds}


def load_corpus(paths: Sequence[str | os.PathLike[str]], *, format: str = "auto",
                strict: bool = False, mapping: Mapping[str, str] | None = None,
                prior: Corpus | None = None) -> Corpus:
    """Read every file in ``paths`` and merge them into one corpus.

    Parameters
    ----------
    paths : sequence of paths
        Corpus files, in order; the first occurrence of a paper keeps its id.
    format : str
        ``auto`` (by extension and content) or one of :data:`READERS`.
    strict : bool
        Raise :class:`~kg.errors.InputError` on the first skipped record instead of
        counting it.
    mapping : dict, optional
        kg field -> column name, for CSV-like inputs (``--map abstract=AB``).
    prior : Corpus, optional
        Papers read before (a build's corpus, for ``kg build --update``): merged as the
        first input, so a paper of ``paths`` that is already among them merges into it
        as a paper read from two inputs does. ``strict`` and the error for no papers
        apply to the records of ``paths``; ``merged`` counts the merges this call made.
    """
    if not paths:
        raise InputError("no input files given")
    if format not in FORMATS:
        raise InputError(f"unknown format {format!r}; choose auto or one of {sorted(READERS)}")
    parts = []
    used_mapping = False
    for path in paths:
        name = os.fspath(path)
        kind = detect_format(name) if format == "auto" else format
        if kind in _TABLES and mapping:
            parts.append(READERS[kind](name, mapping=mapping))  # type: ignore[call-arg]
            used_mapping = True
        else:
            parts.append(READERS[kind](name))
    if mapping and not used_mapping:
        raise InputError("a column mapping applies to CSV/TSV inputs, and none was given")
    repaired, text_repairs = _count_repairs(paper for part in parts for paper in part.papers)
    read = sum(len(part.papers) for part in parts)
    corpus = merge_corpora([Corpus(list(prior.papers)), *parts] if prior is not None else parts)
    corpus.repaired, corpus.text_repairs = repaired, text_repairs
    if strict and corpus.skipped:
        first = corpus.skipped[0]
        raise InputError(first.reason + f" (strict: stopped at the first of {len(corpus.skipped)} "
                                        "record(s) skipped in all)",
                         path=first.source, line=first.location)
    if not read:
        _check_format(paths, format)
        raise InputError("no papers with an abstract in the input"
                         + (f"; {len(corpus.skipped)} record(s) skipped" if corpus.skipped else ""),
                         path=", ".join(os.fspath(p) for p in paths))
    return corpus


def _check_format(paths: Sequence[str | os.PathLike[str]], format: str) -> None:
    """No paper read with a format named: say so when a file looks like another format."""
    if format == "auto":
        return
    for path in paths:
        try:
            looks = detect_format(os.fspath(path))
        except InputError:
            continue
        if looks != format:
            raise InputError(f"no paper read as {format} (format={format!r}); the file looks like {looks}: "
                             f"read it as {looks}, or let kg find the format (format='auto')",
                             path=os.fspath(path))


def corpus_from_records(records: Sequence[Paper | Mapping[str, object]], *, strict: bool = False,
                        source: str = "records") -> Corpus:
    """A corpus of papers given in Python: :class:`~kg.models.Paper` objects or dicts with kg's field names.

    A dict is read as a JSONL line is (``id``, ``title``, ``abstract`` required, and
    optionally ``authors``, ``year``, ``venue``, ``keyphrases``, ``references``, ``doi``,
    ``arxiv_id``); one without an abstract is skipped as ``source:N`` (N from 1), or
    refused when ``strict``. Papers that are the same paper merge as in :func:`load_corpus`.

    Raises
    ------
    InputError
        When no record is a paper with an abstract, or on the first skip when ``strict``.
    """
    corpus = Corpus()
    read: list[Paper] = []
    for number, record in enumerate(records, start=1):
        if isinstance(record, Paper):
            if safe_paper_id(record.id) != record.id:  # as paper_from_record renames a record's id
                record = replace(record, id=safe_paper_id(record.id), ids={**record.ids, "alias": record.id})
            corpus.papers.append(record)
            continue
        if not isinstance(record, Mapping):
            corpus.skipped.append(Skip(source, number, f"unparsable: a {type(record).__name__}, "
                                                       "not a Paper or a dict"))
            continue
        try:
            paper = paper_from_record(record, source=f"{source}:{number}")
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(source, number, str(exc)))
            continue
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            corpus.skipped.append(Skip(source, number, f"unparsable: malformed record ({type(exc).__name__}: "
                                                       f"{str(exc)[:80]})"))
            continue
        read.append(paper)
        corpus.papers.append(paper)
    repaired, text_repairs = _count_repairs(read)
    merged = merge_corpora([corpus])
    merged.repaired, merged.text_repairs = repaired, text_repairs
    if strict and merged.skipped:
        first = merged.skipped[0]
        raise InputError(f"{first} (strict; {len(merged.skipped)} record(s) skipped in all)")
    if not merged.papers:
        raise InputError("no papers with an abstract among the records given"
                         + (f"; {len(merged.skipped)} record(s) skipped" if merged.skipped else ""))
    return merged
