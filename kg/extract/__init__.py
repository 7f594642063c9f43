"""Keyphrase extraction: candidates from each paper, ranked KeyBERT-style by embedding similarity.

Corpus-wide: candidates are deduplicated across all papers and each distinct phrase
is embedded once; documents and phrases go to the embedder in large batches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from kg.extract.candidates import candidate_phrases
from kg.extract.embedder import Embedder, load_embedder
from kg.models import Keyphrase, Paper

__all__ = ["extract_keyphrases", "document_text", "load_embedder", "Embedder", "EXTRACTOR"]

EXTRACTOR = "kg-keybert"

Progress = Callable[[str, int, int], None]


def document_text(paper: Paper) -> str:
    """The text extraction reads: the real title (not a derived one) and the abstract."""
    if paper.title and not paper.title_derived:
        return f"{paper.title}. {paper.abstract}"
    return paper.abstract


def _mmr(doc: np.ndarray, cands: np.ndarray, top_n: int, diversity: float) -> list[int]:
    """Maximal marginal relevance over unit vectors; returns candidate indices in pick order."""
    relevance = cands @ doc
    picked = [int(np.argmax(relevance))]
    pairwise = cands @ cands.T
    remaining = [i for i in range(len(cands)) if i != picked[0]]
    while remaining and len(picked) < top_n:
        redundancy = pairwise[np.ix_(remaining, picked)].max(axis=1)
        scores = (1 - diversity) * relevance[remaining] - diversity * redundancy
        best = remaining[int(np.argmax(scores))]
        picked.append(best)
        remaining.remove(best)
    return picked


def extract_keyphrases(
    papers: Sequence[Paper],
    embedder: Embedder,
    *,
    top_n: int = 10,
    diversity: float = 0.0,
    on_progress: Progress | None = None,
) -> dict[str, list[Keyphrase]]:
    """Top-``top_n`` keyphrases per paper, in rank order, scored by cosine to the paper.

    Parameters
    ----------
    papers : sequence of Paper
    embedder : Embedder
        Returns unit-length rows; see :mod:`kg.extract.embedder`.
    top_n : int
        Keyphrases kept per paper.
    diversity : float
        0 ranks by similarity alone (KeyBERT's default); above 0 applies maximal
        marginal relevance with this weight on novelty.
    on_progress : callable, optional
        Called as ``on_progress(stage, done, total)``.

    Returns
    -------
    dict
        Paper id -> list of :class:`~kg.models.Keyphrase`, best first.
    """
    texts = [document_text(p) for p in papers]
    candidates = [candidate_phrases(t) for t in texts]
    vocabulary = sorted({c for cands in candidates for c in cands})
    index = {phrase: i for i, phrase in enumerate(vocabulary)}
    doc_vectors = _embed_in_chunks(embedder, texts, "documents", on_progress)
    phrase_vectors = _embed_in_chunks(embedder, vocabulary, "phrases", on_progress)
    result: dict[str, list[Keyphrase]] = {}
    for paper, doc, cands in zip(papers, doc_vectors, candidates):
        if not cands:
            result[paper.id] = []
            continue
        rows = phrase_vectors[[index[c] for c in cands]]
        sims = rows @ doc
        if diversity > 0:
            order = _mmr(doc, rows, top_n, diversity)
        else:
            order = sorted(range(len(cands)), key=lambda i: (-sims[i], cands[i]))[:top_n]
        result[paper.id] = [Keyphrase(cands[i], round(float(sims[i]), 4)) for i in order]
    return result


def _embed_in_chunks(embedder: Embedder, texts: Sequence[str], stage: str,
                     on_progress: Progress | None, chunk: int = 512) -> np.ndarray:
    parts = []
    for start in range(0, len(texts), chunk):
        parts.append(embedder.embed(texts[start : start + chunk]))
        if on_progress:
            on_progress(stage, min(start + chunk, len(texts)), len(texts))
    return np.vstack(parts) if parts else np.zeros((0, 1), dtype=np.float32)
