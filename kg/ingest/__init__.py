"""Reading corpora: one module per input format, all returning a :class:`~kg.models.Corpus`.

:func:`load_corpus` reads several files (detecting each format), merges them and
reports duplicates as skips, so no record is ever dropped silently.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from kg.errors import InputError
from kg.ingest.jsonl import load_jsonl
from kg.ingest.table import load_csv
from kg.ingest.text import load_text
from kg.models import Corpus, Paper, Skip

__all__ = ["load_corpus", "detect_format", "READERS", "load_jsonl", "load_csv", "load_text"]

READERS: dict[str, Callable[[str], Corpus]] = {
    "text": load_text,
    "jsonl": load_jsonl,
    "csv": load_csv,
}

_EXTENSIONS = {".txt": "text", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "csv"}


def detect_format(path: str) -> str:
    """The reader name for ``path``, from its extension, else from its first bytes."""
    ext = os.path.splitext(path)[1].lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError as exc:
        raise InputError(exc.strerror or "cannot open", path=path) from None
    if head.startswith(b"{"):
        return "jsonl"
    raise InputError(
        f"unknown format (extension {ext or 'none'!r}); use one of {sorted(READERS)} with --format",
        path=path,
    )


def merge_corpora(parts: Iterable[Corpus]) -> Corpus:
    """Concatenate corpora; a paper whose id was already seen becomes a duplicate skip."""
    merged = Corpus()
    first_seen: dict[str, Paper] = {}
    for part in parts:
        merged.skipped.extend(part.skipped)
        merged.merged += part.merged
        for paper in part.papers:
            if paper.id in first_seen:
                where = paper.source.rsplit(":", 1)
                merged.skipped.append(
                    Skip(where[0], int(where[1]) if len(where) == 2 and where[1].isdigit() else None,
                         f"duplicate: same id {paper.id!r} as {first_seen[paper.id].source}")
                )
                continue
            first_seen[paper.id] = paper
            merged.papers.append(paper)
    return merged


def load_corpus(paths: Sequence[str | os.PathLike[str]], *, format: str = "auto",
                strict: bool = False) -> Corpus:
    """Read every file in ``paths`` and merge them into one corpus.

    Parameters
    ----------
    paths : sequence of paths
        Corpus files, in order; the first occurrence of a paper wins.
    format : str
        ``auto`` (by extension and content) or one of :data:`READERS`.
    strict : bool
        Raise :class:`~kg.errors.InputError` on the first skipped record instead of
        counting it.
    """
    if not paths:
        raise InputError("no input files given")
    if format != "auto" and format not in READERS:
        raise InputError(f"unknown format {format!r}; choose auto or one of {sorted(READERS)}")
    parts = []
    for path in paths:
        name = os.fspath(path)
        reader = READERS[detect_format(name) if format == "auto" else format]
        parts.append(reader(name))
    corpus = merge_corpora(parts)
    if strict and corpus.skipped:
        first = corpus.skipped[0]
        raise InputError(first.reason + f" (--strict; {len(corpus.skipped)} record(s) skipped in all)",
                         path=first.source, line=first.location)
    if not corpus.papers:
        raise InputError("no papers with an abstract in the input"
                         + (f"; {len(corpus.skipped)} record(s) skipped" if corpus.skipped else ""),
                         path=", ".join(os.fspath(p) for p in paths))
    return corpus
