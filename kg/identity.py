"""Who is who: which corpus paper a reference names, and the node keys of authors and venues.

A reference or identifier reduces to canonical keys (``doi:…``, ``arxiv:…``,
``openalex:w…``, ``s2:…``, see :func:`~kg.identifiers.reference_key`); a paper is
known by every key of its id and external ids, so a reference resolves whichever
scheme or spelling it uses. :func:`cited_pairs` turns that into ``cites`` edges;
:func:`author_id` and :func:`venue_id` give the ``a:`` / ``v:`` node ids.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from kg.identifiers import normalize_title, reference_key
from kg.models import Paper

__all__ = [
    "paper_ids",
    "identity_keys",
    "reference_index",
    "resolve_reference",
    "cited_pairs",
    "author_id",
    "venue_id",
]

_SCHEMES = ("doi", "arxiv", "openalex", "s2")


def paper_ids(paper: Paper) -> list[str]:
    """The paper's external ids as ``scheme:value`` strings (merged-in ids as ``alias:``)."""
    ids = [f"{scheme}:{value}" for scheme, value in sorted(paper.ids.items())]
    ids += [f"alias:{alias}" for alias in paper.extra.get("aliases", ())]  # type: ignore[union-attr]
    return ids


def identity_keys(paper_id: str, ids: Iterable[str]) -> list[str]:
    """Every key a reference to a paper may reduce to (see :func:`~kg.identifiers.reference_key`).

    ``ids`` are ``scheme:value`` strings as :func:`paper_ids` gives (and paper nodes
    store in ``ids``).
    """
    keys = [paper_id.casefold(), reference_key(paper_id)]
    for item in ids:
        scheme, _, value = item.partition(":")
        keys.append(value.casefold())
        if scheme in _SCHEMES:
            keys.append(reference_key(value) if scheme in ("doi", "arxiv") else f"{scheme}:{value.lower()}")
        elif scheme == "s2_corpus":
            keys.append(f"corpusid:{value}")
        elif scheme == "alias":
            keys.append(reference_key(value))
    return keys


def reference_index(items: Iterable[tuple[str, Iterable[str]]]) -> dict[str, str]:
    """Identity key -> paper id, from ``(paper id, ids)`` pairs; the first paper wins a key."""
    known: dict[str, str] = {}
    for pid, ids in items:
        for key in identity_keys(pid, ids):
            known.setdefault(key, pid)
    return known


def resolve_reference(ref: str, known: Mapping[str, str]) -> str | None:
    """The corpus paper id that ``ref`` names, else ``None``."""
    return known.get(reference_key(ref)) or known.get(ref.strip().casefold())


def cited_pairs(papers: Sequence[Paper]) -> tuple[list[tuple[str, str]], int]:
    """``(citing, cited)`` pairs inside the corpus, and the number of unresolved references.

    A reference resolves when it names a corpus paper by its id, DOI (bare, ``doi:`` or
    URL), arXiv id (any version), OpenAlex id or URL, Semantic Scholar paper id, or
    ``CorpusId:<n>``. Self-citations are dropped; a reference listed twice counts once.

    Examples
    --------
    >>> a = Paper("a", "x", "A", ids={"doi": "10.1000/a"})
    >>> b = Paper("b", "y", "B", references=("https://doi.org/10.1000/A", "10.9999/elsewhere"))
    >>> cited_pairs([a, b])
    ([('b', 'a')], 1)
    """
    known = reference_index((p.id, paper_ids(p)) for p in papers)
    pairs: set[tuple[str, str]] = set()
    unresolved = 0
    for paper in papers:
        seen: set[str] = set()
        for ref in paper.references:
            key = reference_key(ref)
            if key in seen:
                continue
            seen.add(key)
            target = resolve_reference(ref, known)
            if target is None:
                unresolved += 1
            elif target != paper.id:
                pairs.add((paper.id, target))
    return sorted(pairs), unresolved


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


@lru_cache(maxsize=1 << 17)  # names repeat across papers (ACM-CR: 87k authorships, 35k people)
def author_id(name: str) -> str | None:
    """The ``a:`` node id of a person, ``First Last`` order, or ``None`` for an empty name.

    Examples
    --------
    >>> author_id("Müller, Anna"), author_id("Anna  Müller")
    ('a:anna muller', 'a:anna muller')
    """
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        name = f"{parts[1]} {parts[0]}"
    key = normalize_title(_plain(name))
    return "a:" + key if key else None


_VENUE_YEAR = re.compile(r"(?:'\d\d\b|\b(?:19|20)\d\d\b)")


def venue_id(venue: str) -> str | None:
    """The ``v:`` node id of a venue: years and ``'15`` suffixes dropped, normalized.

    Examples
    --------
    >>> venue_id("KDD '15"), venue_id("KDD 2016"), venue_id("ICLR")
    ('v:kdd', 'v:kdd', 'v:iclr')
    """
    key = normalize_title(_plain(_VENUE_YEAR.sub(" ", venue)))
    return "v:" + key if key else None
