"""Several corpora into one: the same paper from two inputs becomes one paper.

Papers match on any strong identifier (id, DOI, arXiv, OpenAlex or Semantic Scholar
id) and, across different inputs only, on a normalized title of at least four
words whose DOI and year (±1) do not disagree. The merged paper keeps the first
record's id and source and the richest of each field (:func:`merge_papers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from kg.ingest._records import normalize_title, reference_key
from kg.models import Corpus, Paper, Skip

__all__ = ["merge_corpora", "merge_papers"]

_MIN_TITLE_WORDS = 4


def _strong_keys(paper: Paper) -> list[str]:
    keys = ["id:" + paper.id, *("id:" + alias for alias in paper.extra.get("aliases", ()))]  # type: ignore[union-attr]
    for scheme in ("doi", "arxiv", "openalex", "s2"):
        value = paper.ids.get(scheme)
        if value:
            keys.append(reference_key(value) if scheme in ("doi", "arxiv") else f"{scheme}:{value.lower()}")
    return keys


def _title_key(paper: Paper) -> str | None:
    if paper.title_derived:
        return None
    title = normalize_title(paper.title)
    return "title:" + title if len(title.split()) >= _MIN_TITLE_WORDS else None


def _compatible(a: Paper, b: Paper) -> bool:
    """Two papers with the same title are one paper unless their DOIs or years disagree."""
    da, db = a.ids.get("doi"), b.ids.get("doi")
    if da and db and da != db:
        return False
    return a.year is None or b.year is None or abs(a.year - b.year) <= 1


def _union(first: Iterable[str], second: Iterable[str], key: Callable[[str], str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for item in (*first, *second):
        seen.setdefault(key(item), item)
    return tuple(seen.values())


def merge_papers(a: Paper, b: Paper) -> Paper:
    """One paper from two records of it: ``a``'s id and source, the richest of each field.

    The longer abstract, a real title over a derived one, the longer author list, the
    first known year and venue, the union of keyphrases, references and ids. ``b``'s
    id (if different) goes to ``extra["aliases"]`` and its source to
    ``extra["merged_from"]``.
    """
    extra = {**b.extra, **a.extra}
    aliases = [*a.extra.get("aliases", []), *([b.id] if b.id != a.id else []), *b.extra.get("aliases", [])]  # type: ignore[misc]
    if aliases:
        extra["aliases"] = list(dict.fromkeys(aliases))
    extra["merged_from"] = [*a.extra.get("merged_from", []), b.source, *b.extra.get("merged_from", [])]  # type: ignore[misc]
    take_b_title = a.title_derived and not b.title_derived
    return replace(
        a,
        abstract=b.abstract if len(b.abstract) > len(a.abstract) else a.abstract,
        title=b.title if take_b_title else a.title,
        title_derived=b.title_derived if take_b_title else a.title_derived,
        authors=b.authors if len(b.authors) > len(a.authors) else a.authors,
        year=a.year if a.year is not None else b.year,
        venue=a.venue or b.venue,
        keyphrases=_union(a.keyphrases, b.keyphrases, str.casefold),
        references=_union(a.references, b.references, reference_key),
        ids={**b.ids, **a.ids},
        extra=extra,
    )


def _location(source: str) -> tuple[str, int | None]:
    where = source.rsplit(":", 1)
    if len(where) == 2 and where[1].isdigit():
        return where[0], int(where[1])
    return source, None


def merge_corpora(parts: Iterable[Corpus]) -> Corpus:
    """One corpus from several files' corpora.

    The same paper in two *different* inputs (same id, DOI, arXiv, OpenAlex or S2
    id, or the same normalized title of four words or more with agreeing DOI and
    year) becomes one paper (:func:`merge_papers`), counted in ``merged``. A second
    record of the same paper inside *one* input is a ``duplicate`` skip.
    """
    merged = Corpus()
    slot: dict[str, int] = {}
    inputs_of: list[set[int]] = []
    for number, part in enumerate(parts):
        merged.skipped.extend(part.skipped)
        merged.merged += part.merged
        for paper in part.papers:
            strong = _strong_keys(paper)
            title = _title_key(paper)
            how = next((k for k in strong if k in slot), None)
            if how is None and title in slot and number not in inputs_of[slot[title]] \
                    and _compatible(merged.papers[slot[title]], paper):
                how = title
            if how is None:
                hit = len(merged.papers)
                merged.papers.append(paper)
                inputs_of.append({number})
            elif number in inputs_of[slot[how]]:  # a second record of it in the same input
                scheme, value = how.split(":", 1)
                source, line = _location(paper.source)
                merged.skipped.append(Skip(source, line, f"duplicate: same {scheme} {value!r} as "
                                           f"{merged.papers[slot[how]].source}"))
                continue
            else:
                hit = slot[how]
                merged.papers[hit] = merge_papers(merged.papers[hit], paper)
                inputs_of[hit].add(number)
                merged.merged += 1
            for key in (*_strong_keys(merged.papers[hit]), *strong, title):
                if key is not None:
                    slot.setdefault(key, hit)
    return merged
