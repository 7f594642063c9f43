"""Keyphrase extraction: noun-phrase candidates ranked KeyBERT-style by embedding similarity.

Corpus-wide: candidates are found for every paper (in a thread beside the document
embedding when ``n_jobs > 1``), deduplicated across the corpus, and each distinct phrase is embedded
once (terms the corpus hyphenates, "learning-to-rank", are one candidate where a text writes them with
spaces: :mod:`kg.extract.multiword`); documents and phrases go to the embedder in large batches (which sorts them by
token length). Wrap the embedder in :class:`~kg.extract.cache.CachedEmbedder` to
skip the model for texts seen before.

:func:`extract` chooses who ranks and where: kg's ranking in this process
(:mod:`kg.extract.local`), the KeyBERT package (:mod:`kg.extract.keybert_extractor`) or
Ray Data (:mod:`kg.extract.ray_engine`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from kg.errors import OptionError
from kg.extract.cache import CachedEmbedder
from kg.extract.embedder import Embedder, load_embedder
from kg.extract.keybert_extractor import extract_keybert, keybert_version
from kg.extract.local import (DIVERSITY, ENGINES, EXTRACTOR, EXTRACTORS, POSITION_WEIGHT, TITLE_WEIGHT, Extraction,
                              Progress, document_text, extract_local, paper_candidates)
from kg.extract.multiword import joinable_terms
from kg.extract.ray_engine import check_engine, extract_on_ray
from kg.models import Keyphrase, Paper

__all__ = ["extract", "Extraction", "extract_keyphrases", "DIVERSITY", "POSITION_WEIGHT", "TITLE_WEIGHT", "document_text", "paper_candidates", "keyphrases_jsonl",
           "load_embedder", "Embedder", "CachedEmbedder", "EXTRACTOR", "EXTRACTORS", "ENGINES", "extractor_name"]


def extractor_name(extractor: str = "kg") -> str:
    """What a build records as its extractor: ``kg-nprank`` or ``keybert <version>``."""
    if extractor == "keybert":
        return f"keybert {keybert_version()}"
    return EXTRACTOR


def extract_keyphrases(papers: Sequence[Paper], embedder: Embedder, **options) -> dict[str, list[Keyphrase]]:
    """Top-``top_n`` keyphrases per paper, in rank order: :func:`extract` without the vectors.

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
    return extract(papers, embedder, **options).keyphrases


def extract(
    papers: Sequence[Paper],
    embedder: Embedder,
    *,
    top_n: int = 10,
    depth: int | None = None,
    diversity: float = DIVERSITY,
    position_weight: float = POSITION_WEIGHT,
    title_weight: float = TITLE_WEIGHT,
    max_words: int = 5,
    joined: bool = True,
    n_jobs: int = 1,
    shortlist: bool = True,
    extractor: str = "kg",
    engine: str = "local",
    on_progress: Progress | None = None,
) -> Extraction:
    """Rank every paper's candidate phrases by embedding similarity to the paper.

    Parameters
    ----------
    papers : sequence of Paper
    embedder : Embedder
        Returns unit-length rows; see :mod:`kg.extract.embedder`.
    top_n : int
        Keyphrases a paper is described by; sets the shortlist (``2 * top_n``).
    depth : int, optional
        How many ranked phrases to return per paper (default ``top_n``). Ranks past
        ``top_n`` come from the same shortlist, so a deeper list costs no model work
        while ``depth <= 2 * top_n``, and the first ``top_n`` are the same at any depth
        (MMR picks greedily).
    diversity : float
        MMR weight on novelty (0 ranks by score alone).
    position_weight, title_weight : float
        Bonus for phrases that occur early / in the title; see :mod:`kg.extract.ranking`.
    max_words : int
        Longest candidate phrase, in words.
    joined : bool
        Terms with a function word inside that the corpus writes hyphenated in 2 or more papers
        ("learning-to-rank", "equation-of-state") are one candidate where a text writes them with spaces
        too (:mod:`kg.extract.multiword`); ``False`` reads every text alone.
    n_jobs : int
        With 2 or more, candidates are found in a thread while the model embeds the
        documents (the model releases the interpreter lock), so neither waits.
    shortlist : bool
        When the embedder has ``approximate`` (cheap stand-in vectors), a paper with more
        than ``max(2 * top_n, depth)`` candidates keeps only that many, best by approximate
        score, before the model embeds the phrases. On ACM (top 10) this skips 28% of the
        distinct phrases, and the top 10 keeps 96% of its picks (F1 unchanged within
        0.15 point on ACM and Inspec); see README, "Extraction".
    extractor : {"kg", "keybert"}
        ``"keybert"`` ranks the same candidates with the KeyBERT package itself
        (:func:`kg.extract.keybert_extractor.extract_keybert`: cosine, or its MMR with
        ``diversity``); ``position_weight``, ``title_weight``, ``n_jobs`` and ``shortlist``
        are kg's ranking only.
    engine : {"local", "ray"}
        ``"ray"`` runs the same steps on Ray Data (:mod:`kg.extract.ray_engine`): on the
        cluster ``ray.init()`` finds (``RAY_ADDRESS``), else on a local Ray runtime, or on
        the one this process has started already. Same keyphrases, scores and vectors as
        ``"local"``; ``n_jobs`` is then unused. Needs ``pip install 'kg[ray]'``.
    on_progress : callable, optional
        Called as ``on_progress(stage, done, total)``.

    Returns
    -------
    Extraction

    Raises
    ------
    OptionError
        For an unknown ``extractor`` or ``engine``, the ``"ray"`` engine without Ray
        installed, or with the ``"keybert"`` extractor.
    """
    if extractor not in EXTRACTORS:
        raise OptionError("extractor", f"unknown extractor {extractor!r}; choose one of {', '.join(EXTRACTORS)}")
    if engine != "local":
        check_engine(engine, extractor)
    terms = joinable_terms(document_text(p) for p in papers) if joined else frozenset()
    if engine != "local":
        return extract_on_ray(papers, embedder, top_n=top_n, depth=depth, diversity=diversity,
                              position_weight=position_weight, title_weight=title_weight,
                              max_words=max_words, shortlist=shortlist, terms=terms, on_progress=on_progress)
    if extractor == "keybert":
        return extract_keybert(papers, embedder, top_n=top_n, depth=depth, diversity=diversity,
                               max_words=max_words, terms=terms, on_progress=on_progress)
    return extract_local(papers, embedder, top_n=top_n, depth=depth, diversity=diversity,
                         position_weight=position_weight, title_weight=title_weight, max_words=max_words,
                         n_jobs=n_jobs, shortlist=shortlist, terms=terms, on_progress=on_progress)


def keyphrases_jsonl(papers: Sequence[Paper], found: dict[str, list[Keyphrase]]) -> str:
    """``kg extract``'s output: one JSON object per paper, keyphrases in rank order."""
    lines = [json.dumps({"id": p.id, "keyphrases": [{"phrase": k.phrase, "score": k.score}
                                                   for k in found.get(p.id, [])]},
                        ensure_ascii=False) for p in papers]
    return "\n".join(lines) + ("\n" if lines else "")
