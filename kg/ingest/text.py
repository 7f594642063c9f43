"""Plain-text corpora: an optional collection header, then abstracts separated by blank lines.

The form of ``ICLR 2024 Papers`` exports::

    ICLR 2024 Papers

    First abstract, possibly wrapped
    over several lines.

    Second abstract.

A first block that is one short line without sentence punctuation names the
collection: it becomes ``venue`` (``ICLR``) and ``year`` (``2024``) of every paper
and is never read as a paper.
"""

from __future__ import annotations

import os
import re

from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, paper_from_record
from kg.models import Corpus, Skip

__all__ = ["load_text", "parse_header"]

_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_COLLECTION_WORDS = re.compile(r"\b(papers?|proceedings|abstracts?|accepted|collection)\b", re.I)


def parse_header(line: str) -> tuple[str | None, int | None] | None:
    """Return ``(venue, year)`` if ``line`` is a collection header, else ``None``.

    Examples
    --------
    >>> parse_header("ICLR 2024 Papers")
    ('ICLR', 2024)
    >>> parse_header("We study graphs.") is None
    True
    """
    line = line.strip()
    words = line.split()
    if not words or len(words) > 10 or len(line) > 100 or line[-1] in ".!?;:,":
        return None
    year_match = _YEAR.search(line)
    venue = _COLLECTION_WORDS.sub("", _YEAR.sub("", line))
    venue = re.sub(r"\s+", " ", venue).strip(" -–—:,") or None
    return venue, int(year_match.group(1)) if year_match else None


def _blocks(text: str) -> list[tuple[int, str]]:
    """Blank-line separated blocks with the 1-based line number where each starts."""
    blocks: list[tuple[int, str]] = []
    start, lines = 0, []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            if not lines:
                start = number
            lines.append(line.strip())
        elif lines:
            blocks.append((start, " ".join(lines)))
            lines = []
    if lines:
        blocks.append((start, " ".join(lines)))
    return blocks


def load_text(path: str | os.PathLike[str]) -> Corpus:
    """Read a plain-text corpus file into a :class:`~kg.models.Corpus`."""
    name = os.fspath(path)
    blocks = _blocks(read_text(name))
    venue = year = None
    if len(blocks) > 1 and "\n" not in blocks[0][1]:
        header = parse_header(blocks[0][1])
        if header is not None:
            venue, year = header
            blocks = blocks[1:]
    corpus = Corpus()
    for line, block in blocks:
        record = {"abstract": block, "venue": venue, "year": year}
        try:
            corpus.papers.append(paper_from_record(record, source=f"{name}:{line}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, line, str(exc)))
    return corpus
