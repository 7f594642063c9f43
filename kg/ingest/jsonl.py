"""JSON Lines corpora: one JSON object per line with kg's field names.

Fields: ``id``, ``title``, ``abstract`` (required), and optionally ``authors``,
``year``, ``venue``, ``keyphrases``, ``references``, ``doi``, ``arxiv_id``.
A line that is not a JSON object is skipped with its line number and the reason.
"""

from __future__ import annotations

import json
import os

from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, paper_from_record
from kg.models import Corpus, Skip

__all__ = ["load_jsonl", "iter_json_lines"]


def iter_json_lines(name: str, text: str, corpus: Corpus):
    """Yield ``(line_number, object)`` for each JSON object line; skips go to ``corpus``."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            corpus.skipped.append(Skip(name, number, f"unparsable: invalid JSON ({exc.msg} at column {exc.colno})"))
            continue
        if not isinstance(record, dict):
            corpus.skipped.append(Skip(name, number, f"unparsable: expected a JSON object, got {type(record).__name__}"))
            continue
        yield number, record


def load_jsonl(path: str | os.PathLike[str]) -> Corpus:
    """Read a JSONL corpus file into a :class:`~kg.models.Corpus`."""
    name = os.fspath(path)
    corpus = Corpus()
    for number, record in iter_json_lines(name, read_text(name), corpus):
        try:
            corpus.papers.append(paper_from_record(record, source=f"{name}:{number}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, number, str(exc)))
    return corpus
