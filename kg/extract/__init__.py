"""Keyphrase extraction: noun-phrase candidates ranked KeyBERT-style by embedding similarity.

Corpus-wide: candidates are found for every paper (in worker processes when
``n_jobs > 1``), deduplicated across the corpus, and each distinct phrase is embedded
once; documents and phrases go to the embedder in large batches (which sorts them by
token length). Wrap the embedder in :class:`~kg.extract.cache.CachedEmbedder` to
skip the model for texts seen before.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from kg.extract.cache import CachedEmbedder
from kg.extract.candidates import Candidate, find_candidates
from kg.extract.embedder import Embedder, load_embedder
from kg.extract.ranking import prior_scores, rank_candidates
from kg.models import Keyphrase, Paper

__all__ = ["extract_keyphrases", "DIVERSITY", "POSITION_WEIGHT", "TITLE_WEIGHT", "document_text", "paper_candidates", "keyphrases_jsonl",
           "load_embedder", "Embedder", "CachedEmbedder", "EXTRACTOR"]

EXTRACTOR = "kg-nprank"

# Ranking defaults, tuned on Inspec validation (README, "Extraction").
DIVERSITY = 0.3
POSITION_WEIGHT = 0.1
TITLE_WEIGHT = 0.05

Progress = Callable[[str, int, int], None]


def document_text(paper: Paper) -> str:
    """The text a paper is embedded as: the real title (not a derived one) and the abstract."""
    if paper.title and not paper.title_derived:
        return f"{paper.title}. {paper.abstract}"
    return paper.abstract


def paper_candidates(paper: Paper, max_words: int = 5) -> list[Candidate]:
    """Candidates of one paper (its real title first, then the abstract)."""
    title = paper.title if paper.title and not paper.title_derived else ""
    return find_candidates(paper.abstract, title=title, max_words=max_words)


def _candidates_of(args: tuple[Paper, int]) -> list[Candidate]:
    return paper_candidates(*args)


def _all_candidates(papers: Sequence[Paper], max_words: int, n_jobs: int) -> list[list[Candidate]]:
    jobs = [(p, max_words) for p in papers]
    if n_jobs > 1 and len(papers) >= 500:
        context = multiprocessing.get_context("spawn")  # no fork of a process that runs torch
        with ProcessPoolExecutor(max_workers=n_jobs, mp_context=context) as pool:
            return list(pool.map(_candidates_of, jobs, chunksize=64))
    return [_candidates_of(job) for job in jobs]


def extract_keyphrases(
    papers: Sequence[Paper],
    embedder: Embedder,
    *,
    top_n: int = 10,
    diversity: float = DIVERSITY,
    position_weight: float = POSITION_WEIGHT,
    title_weight: float = TITLE_WEIGHT,
    max_words: int = 5,
    n_jobs: int = 1,
    shortlist: bool = True,
    on_progress: Progress | None = None,
) -> dict[str, list[Keyphrase]]:
    """Top-``top_n`` keyphrases per paper, in rank order.

    Parameters
    ----------
    papers : sequence of Paper
    embedder : Embedder
        Returns unit-length rows; see :mod:`kg.extract.embedder`.
    top_n : int
        Keyphrases kept per paper.
    diversity : float
        MMR weight on novelty (0 ranks by score alone).
    position_weight, title_weight : float
        Bonus for phrases that occur early / in the title; see :mod:`kg.extract.ranking`.
    max_words : int
        Longest candidate phrase, in words.
    n_jobs : int
        Worker processes for finding candidates (the model uses its own threads).
    shortlist : bool
        When the embedder has ``approximate`` (cheap stand-in vectors), a paper with more
        than ``2 * top_n`` candidates keeps only its ``2 * top_n`` best by approximate
        score before the model embeds the phrases. On ACM (top 10) this skips 28% of the
        distinct phrases, and the top 10 keeps 96% of its picks (F1 unchanged within
        0.15 point on ACM and Inspec); see README, "Extraction".
    on_progress : callable, optional
        Called as ``on_progress(stage, done, total)``.

    Returns
    -------
    dict
        Paper id -> list of :class:`~kg.models.Keyphrase`, best first.

    Examples
    --------
    >>> import numpy as np
    >>> class Letters:
    ...     name = "letters"
    ...     def embed(self, texts):
    ...         v = np.array([[t.lower().count(ch) for ch in "aeiou"] for t in texts], float) + 1e-3
    ...         return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    >>> paper = Paper("p1", "Graph neural networks learn on graphs.", "GNNs")
    >>> [k.phrase for k in extract_keyphrases([paper], Letters(), top_n=2)[paper.id]]
    ['Graph neural networks', 'GNNs']
    """
    cands = _all_candidates(papers, max_words, n_jobs)
    if on_progress:
        on_progress("candidates", len(papers), len(papers))
    doc_vectors = _embed_in_chunks(embedder, [document_text(p) for p in papers], "documents", on_progress)
    approximate = getattr(embedder, "approximate", None)
    if shortlist and approximate is not None:
        cands = _shortlist(cands, doc_vectors, approximate, 2 * top_n, position_weight, title_weight)
    vocabulary = sorted({c.phrase for doc in cands for c in doc})
    index = {phrase: i for i, phrase in enumerate(vocabulary)}
    phrase_vectors = _embed_in_chunks(embedder, vocabulary, "phrases", on_progress)
    result: dict[str, list[Keyphrase]] = {}
    for paper, doc, found in zip(papers, doc_vectors, cands):
        rows = phrase_vectors[[index[c.phrase] for c in found]] if found else phrase_vectors[:0]
        ranked = rank_candidates(doc, rows, found, top_n=top_n, diversity=diversity,
                                 position_weight=position_weight, title_weight=title_weight)
        result[paper.id] = [Keyphrase(found[i].phrase, score) for i, score in ranked]
    return result


def _shortlist(cands: list[list[Candidate]], doc_vectors: np.ndarray, approximate, keep: int,
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


def keyphrases_jsonl(papers: Sequence[Paper], found: dict[str, list[Keyphrase]]) -> str:
    """``kg extract``'s output: one JSON object per paper, keyphrases in rank order."""
    lines = [json.dumps({"id": p.id, "keyphrases": [{"phrase": k.phrase, "score": k.score}
                                                   for k in found.get(p.id, [])]},
                        ensure_ascii=False) for p in papers]
    return "\n".join(lines) + ("\n" if lines else "")


def _embed_in_chunks(embedder: Embedder, texts: Sequence[str], stage: str,
                     on_progress: Progress | None, chunk: int = 4096) -> np.ndarray:
    """``embedder.embed(texts)`` in chunks (for progress), each chunk texts of similar length:
    the embedder pads a batch to its longest text, so a chunk of mixed lengths wastes work
    (23% of the tokens on ACM's phrases in alphabetical chunks)."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out: np.ndarray | None = None  # filled in place: no second copy of a corpus' vectors
    for start in range(0, len(order), chunk):
        rows = order[start : start + chunk]
        part = np.asarray(embedder.embed([texts[i] for i in rows]), dtype=np.float32)
        if out is None:
            out = np.empty((len(texts), part.shape[1]), dtype=np.float32)
        out[rows] = part
        if on_progress:
            on_progress(stage, min(start + chunk, len(texts)), len(texts))
    return out if out is not None else np.zeros((0, 1), dtype=np.float32)
