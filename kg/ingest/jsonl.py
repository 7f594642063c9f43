"""JSON Lines corpora: one JSON object per line with kg's field names.

Fields: ``id``, ``title``, ``abstract`` (required), and optionally ``authors``,
``year``, ``venue``, ``keyphrases``, ``references``, ``doi``, ``arxiv_id``.
A JSON array of such objects (a ``.json`` file) is read the same way. A line that
is not a JSON object is skipped with its line number and the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from kg.ingest._io import read_text
from kg.ingest._json import iter_json_records
from kg.ingest._records import RecordSkipped, paper_from_record
from kg.models import Corpus, Skip

__all__ = ["load_jsonl", "read_json_corpus"]


def read_json_corpus(path: str | os.PathLike[str],
                     to_record: Callable[[Mapping[str, object]], Mapping[str, object]]) -> Corpus:
    """Read every JSON record of ``path``, convert it with ``to_record``, and build papers.

    ``to_record`` maps one source object to kg's field names; it may raise
    :class:`~kg.ingest._records.RecordSkipped` (or ``ValueError``/``TypeError``/
    ``KeyError``/``AttributeError`` for malformed objects, reported as unparsable).
    """
    name = os.fspath(path)
    corpus = Corpus()
    for number, obj in iter_json_records(name, read_text(name), corpus):
        _add(corpus, name, number, lambda: to_record(obj))
    return corpus


def _add(corpus: Corpus, name: str, number: int, make: Callable[[], Mapping[str, object]]) -> None:
    try:
        record = make()
        corpus.papers.append(paper_from_record(record, source=f"{name}:{number}"))
    except RecordSkipped as exc:
        corpus.skipped.append(Skip(name, number, str(exc)))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        corpus.skipped.append(Skip(name, number, f"unparsable: malformed record ({type(exc).__name__}: "
                                   f"{str(exc)[:80]})"))


def _identity(obj: Mapping[str, object]) -> Mapping[str, object]:
    return obj


def load_jsonl(path: str | os.PathLike[str]) -> Corpus:
    """Read a JSONL (or JSON array) corpus file into a :class:`~kg.models.Corpus`."""
    return read_json_corpus(path, _identity)


