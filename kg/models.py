"""The few plain types passed between pipeline stages.

``Paper`` comes out of ingest, ``Keyphrase`` out of extraction, ``Concept`` and
``Mention`` out of normalization. Everything after that is a NetworkX graph, whose nodes
:func:`node_label` names as pages and listings show them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Paper", "Skip", "Corpus", "Keyphrase", "Concept", "Mention", "concept_label", "node_label"]


@dataclass(frozen=True)
class Paper:
    """One paper as read from a corpus file.

    Attributes
    ----------
    id : str
        Stable id: the record's own id, else its DOI or arXiv id, else
        ``p-`` and a short hash of the normalized abstract.
    abstract : str
        The text kg extracts concepts from (never empty).
    title : str
        The title, or a derived label when the source has none.
    title_derived : bool
        True when ``title`` was derived from the abstract by kg.
    authors, year, venue
        Bibliographic metadata, when the source has it.
    keyphrases : tuple of str
        Keyphrases the source gives (author keywords, gold labels).
    references : tuple of str
        Raw identifiers of cited works (corpus ids, DOIs, arXiv ids, …).
    ids : dict
        External identifiers by scheme (``doi``, ``arxiv``, ``openalex``, ``s2``).
    source : str
        Where the record came from, as ``file:line``.
    extra : dict
        Any other JSON-safe metadata a reader keeps (categories, topics, …).
    """

    id: str
    abstract: str
    title: str
    title_derived: bool = False
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    keyphrases: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    ids: dict[str, str] = field(default_factory=dict, compare=False)
    source: str = ""
    extra: dict[str, object] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Skip:
    """A record that was not read, with where it was and why."""

    source: str
    location: int | None
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.location}" if self.location is not None else self.source
        return f"{where}: {self.reason}"


@dataclass
class Corpus:
    """Papers read from one or more files, with everything that was skipped."""

    papers: list[Paper] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    merged: int = 0
    repaired: int = 0  # records read with lone surrogates or bidirectional overrides cleaned from their text
    # records whose title or abstract was repaired, by kind (kg.ingest.repair.KINDS: markup, latex, …)
    text_repairs: dict[str, int] = field(default_factory=dict)

    def skip_counts(self) -> dict[str, int]:
        """Number of skipped records by reason category (text before the first ':')."""
        counts: dict[str, int] = {}
        for skip in self.skipped:
            key = skip.reason.split(":", 1)[0]
            counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items()))


@dataclass(frozen=True)
class Keyphrase:
    """One extracted phrase with its relevance score (higher is better)."""

    phrase: str
    score: float


def concept_label(name: str, acronym: str | None = None) -> str:
    """How a concept is shown to a reader: its name, then its acronym in brackets.

    The acronym is left out when there is none, when it is the name itself (any case),
    or when the name already ends with it in brackets.

    Examples
    --------
    >>> concept_label("collaborative filtering", "CF")
    'collaborative filtering (CF)'
    >>> concept_label("BERT", "bert"), concept_label("graph", None)
    ('BERT', 'graph')
    """
    if not acronym or acronym.casefold() == name.casefold() or name.endswith(f"({acronym})"):
        return name
    return f"{name} ({acronym})"


@dataclass(frozen=True)
class Concept:
    """A normalized concept: one canonical key, a name, its surface forms and its acronym.

    Attributes
    ----------
    id : str
        ``c:`` + the canonical key.
    name : str
        The plain phrase a user types ("collaborative filtering"), never with its acronym.
    aliases : tuple of str
        The surface forms the corpus uses, the acronym among them.
    acronym : str or None
        The acronym the corpus defines for it ("CF"), None when there is none.
    """

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    acronym: str | None = None

    @property
    def label(self) -> str:
        """The name with its acronym, as pages and reports show it (:func:`concept_label`)."""
        return concept_label(self.name, self.acronym)


@dataclass(frozen=True)
class Mention:
    """A paper mentions a concept, at a rank, with the extractor's score."""

    paper_id: str
    concept_id: str
    score: float
    rank: int
    surface: str


def node_label(data: Mapping, default: str = "") -> str:
    """How pages, reports and listings show a node, from its attributes ``data``: a concept's
    name with its acronym (:func:`concept_label`), else the node's name, title or label.

    Examples
    --------
    >>> node_label({"kind": "concept", "name": "collaborative filtering", "acronym": "CF"})
    'collaborative filtering (CF)'
    >>> node_label({"kind": "paper", "title": "A study"}), node_label({}, "c:x")
    ('A study', 'c:x')
    """
    name = data.get("name")
    if data.get("kind") == "concept" and isinstance(name, str) and name:
        acronym = data.get("acronym")
        return concept_label(name, acronym if isinstance(acronym, str) else None)
    return str(name or data.get("title") or data.get("label") or default)
