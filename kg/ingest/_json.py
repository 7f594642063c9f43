"""JSON records from JSON Lines, a JSON array, one JSON object, or a paged API response.

Every JSON-based reader (kg's own JSONL, OpenAlex, Semantic Scholar, arXiv) goes
through :func:`iter_json_records`, so they all accept the same shapes and report
broken or truncated input the same way: as a :class:`~kg.models.Skip` with the
line where the problem is, never as a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from kg.models import Corpus, Skip

__all__ = ["iter_json_records", "first_json_record"]

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_TRUNCATED = "; the file ends here, so it may be truncated"


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _bad_json(exc: json.JSONDecodeError, text: str) -> str:
    hint = _TRUNCATED if _skip_ws(text, exc.pos) >= len(text) else ""
    return f"unparsable: invalid JSON ({exc.msg}: line {exc.lineno} column {exc.colno}){hint}"


def _json_lines(name: str, text: str, corpus: Corpus) -> Iterator[tuple[int, object]]:
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            hint = _TRUNCATED if index == last and not text.endswith("\n") else ""
            corpus.skipped.append(
                Skip(name, index + 1, f"unparsable: invalid JSON ({exc.msg}: column {exc.colno}){hint}"))
            continue
        except RecursionError:
            corpus.skipped.append(Skip(name, index + 1, "unparsable: JSON nested too deeply"))
            continue
        yield index + 1, value


def _array(name: str, text: str, pos: int, corpus: Corpus) -> Iterator[tuple[int, object]]:
    """Elements of the JSON array whose ``[`` is at ``pos``, each with its line number."""
    pos = _skip_ws(text, pos + 1)
    number = 0
    while pos < len(text) and text[pos] != "]":
        number += 1
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            corpus.skipped.append(Skip(name, _line_of(text, pos), f"{_bad_json(exc, text)} "
                                       f"(record {number}; the rest of the file is not read)"))
            return
        except RecursionError:
            corpus.skipped.append(Skip(name, _line_of(text, pos), "unparsable: JSON nested too deeply "
                                       "(the rest of the file is not read)"))
            return
        yield _line_of(text, pos), value
        pos = _skip_ws(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
        elif pos < len(text) and text[pos] != "]":
            corpus.skipped.append(Skip(name, _line_of(text, pos), "unparsable: expected ',' or ']' "
                                       "between records (the rest of the file is not read)"))
            return
    if pos >= len(text):
        corpus.skipped.append(Skip(name, _line_of(text, len(text)), "unparsable: the list of records "
                                   "is not closed with ']'" + _TRUNCATED))


def iter_json_records(name: str, text: str, corpus: Corpus, *,
                      containers: Sequence[str] = ("results", "data")) -> Iterator[tuple[int, dict]]:
    """Yield ``(line, object)`` for every JSON object record in ``text``.

    Accepted shapes: JSON Lines; a JSON array of records; a single record; a page
    ``{"meta": …, "results": [...]}`` (any key in ``containers`` holding a list).
    Broken lines, records that are not objects, and truncated files are appended
    to ``corpus.skipped`` with their line numbers; records before a truncation are
    still yielded.
    """
    start = _skip_ws(text, 0)
    if start >= len(text):
        return
    try:
        whole, end = _DECODER.raw_decode(text, start)
        rest = _skip_ws(text, end)
        failure = None
    except json.JSONDecodeError as exc:
        whole, rest, failure = None, len(text), exc
    except RecursionError:
        whole, rest, failure = None, len(text), None
    values: Iterator[tuple[int, object]]
    if failure is None and rest < len(text):
        values = _json_lines(name, text, corpus)  # several values: JSON Lines
    elif failure is not None and failure.lineno == 1 and "\n" in text.strip():
        values = _json_lines(name, text, corpus)  # first line broken, more lines follow
    elif text[start] == "[":
        values = _array(name, text, start, corpus)  # one array of records
    else:
        key = _container(text, start, whole, containers)
        if key is not None:
            values = _array(name, text, key, corpus)  # a page: {"meta": ..., "results": [...]}
        elif failure is not None:
            corpus.skipped.append(Skip(name, failure.lineno, _bad_json(failure, text)))
            return
        elif whole is None:
            corpus.skipped.append(Skip(name, 1, "unparsable: JSON nested too deeply"))
            return
        else:
            values = iter([(_line_of(text, start), whole)])
    for line, value in values:
        if isinstance(value, dict):
            yield line, value
        else:
            corpus.skipped.append(Skip(name, line, "unparsable: expected a JSON object, got "
                                       + type(value).__name__))


def _container(text: str, start: int, whole: object, containers: Sequence[str]) -> int | None:
    """Offset of the ``[`` of a top-level paging list (``"results": [``), if there is one."""
    if whole is not None and not (isinstance(whole, dict)
                                  and any(isinstance(whole.get(k), list) for k in containers)):
        return None
    for key in containers:
        match = re.compile(r'"%s"\s*:\s*\[' % re.escape(key)).search(text, start)
        if match:
            return match.end() - 1
    return None


def first_json_record(text: str) -> dict | None:
    """The first JSON object record in ``text`` (for format detection), else ``None``."""
    probe = Corpus()
    for _, record in iter_json_records("", text, probe):
        return record
    return None
