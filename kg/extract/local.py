"""The in-process extraction engine, and the steps every engine shares.

:func:`extract_local` is kg's own ranking in this process; the Ray engine
(:mod:`kg.extract.ray_engine`) and the KeyBERT extractor (:mod:`kg.extract.keybert_extractor`)
run the same steps elsewhere or rank with another library, so the pieces they share live here:
the text a paper is embedded as (:func:`document_text`), its candidates
(:func:`paper_candidates`), the chunks texts are embedded in (:func:`chunk_rows`,
:func:`embed_in_chunks`), the shortlists a cache keeps (:class:`Shortlists`), and the
:class:`Extraction` every engine returns. :mod:`kg.extract` chooses the engine.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from kg import english, notation
from kg.extract import candidates, multiword, ranking
from kg.extract.candidates import Candidate, find_candidates
from kg.extract.embedder import Embedder
from kg.extract.multiword import joined_words
from kg.extract.ranking import prior_scores, rank_candidates
from kg.models import Keyphrase, Paper

__all__ = ["extract_local", "Extraction", "PhraseRows", "Shortlists", "document_text", "paper_candidates",
           "embed_in_chunks", "chunk_rows", "all_candidates", "rank_paper", "shortlist_candidates",
           "encode_candidates", "decode_candidates", "EXTRACTOR", "EXTRACTORS", "ENGINES", "DIVERSITY",
           "POSITION_WEIGHT", "TITLE_WEIGHT", "Progress", "CHUNK"]

EXTRACTOR = "kg-nprank"
# What ranks each paper's candidates: kg's own ranking, or the KeyBERT package's
# (kg.extract.keybert_extractor).
EXTRACTORS = ("kg", "keybert")
# Where extraction runs: in this process, or on Ray Data (kg.extract.ray_engine; pip install 'kg[ray]').
ENGINES = ("local", "ray")

# Ranking defaults, tuned on Inspec validation (README, "Extraction").
DIVERSITY = 0.3
POSITION_WEIGHT = 0.1
TITLE_WEIGHT = 0.05

Progress = Callable[[str, int, int], None]
CHUNK = 4096  # texts per embed() call (and per task of a distributed engine)


def document_text(paper: Paper) -> str:
    """The text a paper is embedded as: the real title (not a derived one) and the abstract."""
    if paper.title and not paper.title_derived:
        return f"{paper.title}. {paper.abstract}"
    return paper.abstract


def paper_candidates(paper: Paper, max_words: int = 5, terms: frozenset[str] = frozenset()) -> list[Candidate]:
    """Candidates of one paper (its real title first, then the abstract); ``terms``: the corpus's hyphenated
    terms (:mod:`kg.extract.multiword`)."""
    title = paper.title if paper.title and not paper.title_derived else ""
    return find_candidates(paper.abstract, title=title, max_words=max_words, terms=terms)


@dataclass
class Extraction:
    """What extraction computed, for the stages after it.

    Attributes
    ----------
    keyphrases : dict
        Paper id -> list of :class:`~kg.models.Keyphrase`, best first.
    doc_vectors : ndarray, shape (n_papers, d)
        Each paper's document vector, rows in the order of the papers given.
    phrase_vectors : mapping
        Phrase -> its vector, for every phrase the model embedded (later stages,
        such as near-synonym merging, reuse them instead of running the model again).
    """

    keyphrases: dict[str, list[Keyphrase]]
    doc_vectors: np.ndarray
    phrase_vectors: Mapping[str, np.ndarray] = field(default_factory=dict)


class PhraseRows(Mapping):
    """A read-only phrase -> row view of one matrix (no copy per phrase)."""

    def __init__(self, index: dict[str, int], matrix: np.ndarray):
        self._index, self._matrix = index, matrix

    def __getitem__(self, phrase: str) -> np.ndarray:
        return self._matrix[self._index[phrase]]

    def __iter__(self):
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def extract_local(
    papers: Sequence[Paper],
    embedder: Embedder,
    *,
    top_n: int = 10,
    depth: int | None = None,
    diversity: float = DIVERSITY,
    position_weight: float = POSITION_WEIGHT,
    title_weight: float = TITLE_WEIGHT,
    max_words: int = 5,
    n_jobs: int = 1,
    shortlist: bool = True,
    terms: frozenset[str] = frozenset(),
    on_progress: Progress | None = None,
) -> Extraction:
    """kg's own ranking in this process: what :func:`kg.extract.extract` runs for
    ``extractor="kg"``, ``engine="local"`` (see it for the parameters)."""
    depth = max(depth or top_n, 1)
    keep = max(2 * top_n, depth)
    texts = [document_text(p) for p in papers]
    approximate = getattr(embedder, "approximate", None) if shortlist else None
    memo = Shortlists(papers, embedder, approximate, max_words, keep, position_weight, title_weight, terms)
    todo = [papers[i] for i in memo.rows]
    if n_jobs > 1 and len(todo) >= 200:
        with ThreadPoolExecutor(max_workers=1) as pool:
            pending = pool.submit(all_candidates, todo, max_words, terms)
            doc_vectors = embed_in_chunks(embedder, texts, "documents", on_progress)
            found_now = pending.result()
    else:
        found_now = all_candidates(todo, max_words, terms)
        doc_vectors = embed_in_chunks(embedder, texts, "documents", on_progress)
    if on_progress:
        on_progress("candidates", len(papers), len(papers))
    if approximate is not None:
        found_now = shortlist_candidates(found_now, doc_vectors[memo.rows], approximate, keep, position_weight, title_weight)
        memo.store(found_now)
    cands = memo.every(found_now)
    vocabulary = sorted({c.phrase for doc in cands for c in doc})
    index = {phrase: i for i, phrase in enumerate(vocabulary)}
    # float16 holds the ~200,000 phrase vectors of a 25k-paper corpus in half the memory
    # (the cache stores them so: cached and fresh runs rank alike)
    phrase_vectors = embed_in_chunks(embedder, vocabulary, "phrases", on_progress, dtype=np.float16)
    result: dict[str, list[Keyphrase]] = {}
    for paper, doc, found in zip(papers, doc_vectors, cands):
        rows = phrase_vectors[[index[c.phrase] for c in found]] if found else phrase_vectors[:0]
        result[paper.id] = rank_paper(doc, rows, found, depth, diversity, position_weight, title_weight)
    if on_progress:
        on_progress("ranking", len(papers), len(papers))
    return Extraction(result, doc_vectors, PhraseRows(index, phrase_vectors))




class Shortlists:
    """The shortlists a cache (:class:`CachedEmbedder`) keeps for papers it has seen, so that a
    rebuild runs neither the model nor the tagger; one per engine run.

    ``rows``: the indices of the papers whose shortlist is still to be found (all of them
    without a cache or without ``approximate``).
    """

    def __init__(self, papers: Sequence[Paper], embedder, approximate, max_words: int, keep: int,
                 position_weight: float, title_weight: float, terms: frozenset[str] = frozenset()):
        self.embedder = embedder
        self.on = getattr(embedder, "lookup", None) is not None and approximate is not None
        self.keys = ([_shortlist_key(p, max_words, keep, position_weight, title_weight, terms) for p in papers]
                     if self.on else [None] * len(papers))
        self.known = embedder.lookup("shortlist", self.keys) if self.on else {}
        self.rows = [i for i, key in enumerate(self.keys) if key not in self.known]

    def store(self, found: list[list[Candidate]]) -> None:
        """Keep the shortlists found for ``rows`` (in their order)."""
        if self.on and self.rows:
            self.embedder.store("shortlist", {self.keys[i]: encode_candidates(c) for i, c in zip(self.rows, found)})

    def every(self, found: list[list[Candidate]]) -> list[list[Candidate]]:
        """Every paper's shortlist: the kept ones, and ``found`` (for ``rows``, in their order)."""
        fresh = iter(found)
        return [decode_candidates(self.known[key]) if key in self.known else next(fresh) for key in self.keys]


def rank_paper(doc: np.ndarray, rows: np.ndarray, found: list[Candidate], depth: int, diversity: float,
                position_weight: float, title_weight: float) -> list[Keyphrase]:
    """One paper's keyphrases: its candidates ranked by their vectors ``rows`` (in candidate order)."""
    ranked = rank_candidates(doc, rows.astype(np.float32), found, top_n=depth, diversity=diversity,
                             position_weight=position_weight, title_weight=title_weight)
    return [Keyphrase(found[i].phrase, score) for i, score in ranked]


def all_candidates(papers: Sequence[Paper], max_words: int, terms: frozenset[str] = frozenset()) -> list[list[Candidate]]:
    return [paper_candidates(p, max_words, terms) for p in papers]


# The code a shortlist depends on: the tagger, the notation and word frequencies it reads, the ranking, this module (a
# change to kg.notation alone, round forty-seven's groups of 2N, once left every cached shortlist as it was)
SHORTLIST_CODE = (candidates, multiword, ranking, notation, english, sys.modules[__name__])


@lru_cache(maxsize=1)
def _code_version() -> str:
    """A digest of the code a shortlist depends on (:data:`SHORTLIST_CODE`): changed code misses the cache."""
    digest = hashlib.sha256()
    for module in SHORTLIST_CODE:
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


def _shortlist_key(paper: Paper, max_words: int, keep: int, position_weight: float, title_weight: float,
                   terms: frozenset[str] = frozenset()) -> str:
    """What a paper's shortlist depends on: the code, the settings, its texts and the corpus's terms it writes."""
    title = paper.title if paper.title and not paper.title_derived else ""
    written = sorted({word.lower() for text in (title, paper.abstract) for word in joined_words(text, terms)[1]})
    return json.dumps([_code_version(), max_words, keep, position_weight, title_weight, title, paper.abstract]
                      + ([written] if written else []), ensure_ascii=False)


def encode_candidates(cands: list[Candidate]) -> bytes:
    return json.dumps([[c.phrase, c.first, c.count, c.in_title] for c in cands], ensure_ascii=False).encode()


def decode_candidates(value: bytes) -> list[Candidate]:
    return [Candidate(phrase, first, count, bool(in_title)) for phrase, first, count, in_title in json.loads(value)]


def shortlist_candidates(cands: list[list[Candidate]], doc_vectors: np.ndarray, approximate, keep: int,
               position_weight: float, title_weight: float, chunk: int = 1024) -> list[list[Candidate]]:
    """Each paper's ``keep`` best candidates by approximate score (all of them when it has
    no more), in their original order. Depends on the paper alone, so cached and fresh
    runs, and one paper in corpora of any size, shortlist alike."""
    long = [i for i, doc in enumerate(cands) if len(doc) > keep]
    out = list(cands)
    for start in range(0, len(long), chunk):  # a chunk of papers at a time: bounded memory
        part = long[start : start + chunk]
        phrases = sorted({c.phrase for i in part for c in cands[i]})
        rows = dict(zip(phrases, approximate(phrases)))
        for i in part:
            doc = cands[i]
            scores = np.array([rows[c.phrase] for c in doc]) @ doc_vectors[i]
            scores = scores + prior_scores(doc, position_weight, title_weight)
            best = np.argsort(-scores, kind="stable")[:keep]
            out[i] = [doc[j] for j in sorted(best)]
    return out


def embed_in_chunks(embedder: Embedder, texts: Sequence[str], stage: str,
                     on_progress: Progress | None, chunk: int = CHUNK, dtype=np.float32) -> np.ndarray:
    """``embedder.embed(texts)`` in chunks (for progress), each chunk texts of similar length:
    the embedder pads a batch to its longest text, so a chunk of mixed lengths wastes work
    (23% of the tokens on ACM's phrases in alphabetical chunks)."""
    out: np.ndarray | None = None  # filled in place: no second copy of a corpus' vectors
    done = 0
    if on_progress and texts:
        on_progress(stage, 0, len(texts))  # started: a bar can show before the first chunk is done
    for rows in chunk_rows(texts, chunk):
        part = np.asarray(embedder.embed([texts[i] for i in rows]), dtype=np.float32)
        if out is None:
            out = np.empty((len(texts), part.shape[1]), dtype=dtype)
        out[rows] = part
        done += len(rows)
        if on_progress:
            on_progress(stage, done, len(texts))
    return out if out is not None else np.zeros((0, 1), dtype=dtype)


def chunk_rows(texts: Sequence[str], chunk: int = CHUNK) -> list[list[int]]:
    """The rows of ``texts`` in the chunks they are embedded in: shortest first, ``chunk`` at a time.

    The embedder batches within a chunk, and the int8 model quantizes each batch's
    activations afresh, so a vector depends on its batch: an engine that embeds these
    chunks whole, anywhere, gets the vectors this process gets."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    return [order[start : start + chunk] for start in range(0, len(order), chunk)]
