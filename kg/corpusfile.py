"""``corpus.jsonl``: every paper of a build as kg read it, one JSON object per line, and read back.

The papers' long texts (:data:`TEXTS`) live here rather than in ``graph.json``
(:mod:`kg.graphfile` puts them back on load, :func:`attach_texts`), and ``kg build
--update`` reads the build's papers from here (:func:`read_corpus_jsonl`). The file is kg's
own ``jsonl`` input format, so a build builds again from it.
"""

from __future__ import annotations

import json
import os

import networkx as nx

from kg.errors import GraphFileError
from kg.escape import clean_text
from kg.models import Paper

__all__ = ["write_corpus_jsonl", "paper_from_node", "read_corpus_jsonl", "attach_texts", "TEXTS", "PAPERS_FILE"]

TEXTS = ("abstract", "references", "ids", "source")  # the long paper attributes corpus.jsonl holds
PAPERS_FILE = "corpus.jsonl"


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def write_corpus_jsonl(graph: nx.MultiDiGraph, handle) -> None:
    """Stream every paper of ``graph`` as one JSON object per line (kg's own ``jsonl`` input format).

    ``id``, ``title``, ``title_derived``, ``abstract``, ``authors``, ``year``, ``venue``,
    ``keyphrases``, ``references``, ``doi``, ``ids``, ``source``: the corpus as kg read it
    (duplicates merged), readable again by ``kg build``.
    """
    fields = ("title", "title_derived", "abstract", "authors", "year", "venue", "keyphrases", "references",
              "doi", "ids", "source")
    for node, data in graph.nodes(data=True):
        if data.get("kind") == "paper":
            handle.write(_dumps({"id": node, **{f: data.get(f) for f in fields}}) + "\n")


def paper_from_node(pid: str, data: dict, *, source: str = PAPERS_FILE) -> Paper:
    """The :class:`~kg.models.Paper` a build read, from its ``corpus.jsonl`` line or paper node.

    The inverse of what :func:`write_corpus_jsonl` writes: ``ids`` (``scheme:value``
    strings) back to a dict, ``alias:`` entries back to ``extra["aliases"]`` (the ids of
    duplicates merged into it), lists back to tuples. Equal to the paper as ingested in
    every field a build uses (``extra`` keeps only the aliases).

    Raises
    ------
    GraphFileError
        When a field has the wrong type (``source`` names the file and line).
    """
    def text(name: str, *, optional: bool = False) -> str | None:
        value = data.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise GraphFileError(f"{source}: paper {pid!r}: {name!r} must be a string, not {value!r}"[:300])
        return value

    def strings(name: str) -> tuple[str, ...]:
        value = data.get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise GraphFileError(f"{source}: paper {pid!r}: {name!r} must be a list of strings"[:300])
        return tuple(value)

    year = data.get("year")
    if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
        raise GraphFileError(f"{source}: paper {pid!r}: 'year' must be a whole number, not {year!r}"[:300])
    ids: dict[str, str] = {}
    aliases: list[str] = []
    for item in strings("ids"):
        scheme, sep, value = item.partition(":")
        if not sep:
            raise GraphFileError(f"{source}: paper {pid!r}: id {item!r} is not scheme:value"[:300])
        if scheme == "alias":
            aliases.append(value)
        else:
            ids[scheme] = value
    return Paper(id=pid, abstract=text("abstract") or "", title=text("title") or "",
                 title_derived=bool(data.get("title_derived", False)), authors=strings("authors"), year=year,
                 venue=text("venue", optional=True), keyphrases=strings("keyphrases"),
                 references=strings("references"), ids=ids, source=text("source", optional=True) or "",
                 extra={"aliases": aliases} if aliases else {})


def read_corpus_jsonl(path: str | os.PathLike[str]) -> list[Paper]:
    """The papers of a build's ``corpus.jsonl``, as the build read them (:func:`paper_from_node`).

    Raises
    ------
    GraphFileError
        When the file cannot be read or a line is not one of kg's paper records.
    """
    name = os.fspath(path)
    papers = []
    try:
        with open(name, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                record = json.loads(line)
                if not isinstance(record, dict) or not isinstance(record.get("id"), str):
                    raise GraphFileError(f"{name}:{number}: not a paper record of kg's (an object with an id)")
                papers.append(paper_from_node(record["id"], record, source=f"{name}:{number}"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise GraphFileError(f"{name}: cannot read the papers ({exc}); rebuild with kg build") from None
    return papers


def attach_texts(graph: nx.MultiDiGraph, path: str) -> None:
    """Put the :data:`TEXTS` attributes from a ``corpus.jsonl`` back on the paper nodes."""
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                record = json.loads(line)
                node = graph.nodes.get(record.get("id")) if isinstance(record, dict) else None
                if node is None or node.get("kind") != "paper":
                    continue
                for name in TEXTS:
                    value = record.get(name)
                    if isinstance(value, str):
                        value = clean_text(value)
                    elif isinstance(value, list):
                        value = [clean_text(v) for v in value if isinstance(v, str)]
                    elif value is not None:
                        raise GraphFileError(f"{path}:{number}: {name!r} must be a string or a list of strings")
                    node.setdefault(name, value)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise GraphFileError(f"{path}: cannot read the papers' texts ({exc}); rebuild with kg build") from None
