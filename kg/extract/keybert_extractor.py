"""The KeyBERT package's own ranking, over kg's candidates and kg's batched embeddings.

``extract(..., extractor="keybert")`` runs ``keybert.KeyBERT.extract_keywords`` for every
paper, so a user can compare kg's ranking with KeyBERT's on one corpus and one model:

* **candidates**: kg's noun phrases of the paper (:func:`kg.extract.paper_candidates`),
  passed as KeyBERT's ``candidates``. KeyBERT matches them with a scikit-learn
  ``CountVectorizer`` (lowercased, split into ``\\w\\w+`` tokens), so each phrase is given in
  that form ("State-of-the-art GNNs" -> "state of the art gnns") and mapped back to kg's
  surface form afterwards; a phrase with no such token is left out, as KeyBERT would.
* **embeddings**: the documents and every distinct candidate of the corpus are embedded once,
  in large batches, by kg's embedder (cached when it is a
  :class:`~kg.extract.cache.CachedEmbedder`), and handed to KeyBERT as ``doc_embeddings`` and
  ``word_embeddings``. KeyBERT builds one vectorizer vocabulary from ``candidates``, so it is
  called once per paper, with that paper's rows in the vocabulary's order.
* **ranking**: KeyBERT's cosine ranking, or its MMR (``use_mmr``) when ``diversity > 0``,
  with the same ``diversity``; scores are KeyBERT's (cosine, 4 decimals). kg's position and
  title bonuses do not apply.

KeyBERT's model is the embedder itself, behind KeyBERT's one-method backend interface
(``keybert.backend.BaseEmbedder``): the same sentence-transformers folder kg loads
(``load_embedder(path)``, the packaged all-MiniLM-L6-v2 by default), with nothing downloaded
and no second copy of the model in memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from kg.extract.local import Extraction, document_text, paper_candidates
from kg.extract.local import PhraseRows as _Rows, embed_in_chunks as _embed_in_chunks
from kg.models import Keyphrase, Paper

__all__ = ["extract_keybert", "keybert_form", "keybert_version"]

Progress = Callable[[str, int, int], None]

# CountVectorizer's defaults: lowercase, then tokens of two or more word characters
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


def keybert_form(phrase: str) -> str:
    """A phrase as KeyBERT's vectorizer sees it: lowercased ``\\w\\w+`` tokens joined by spaces.

    Examples
    --------
    >>> keybert_form("State-of-the-art GNNs")
    'state of the art gnns'
    >>> keybert_form("k-means")
    'means'
    """
    return " ".join(_TOKEN.findall(phrase.lower()))


def keybert_version() -> str:
    """The installed KeyBERT's version (what a build records as its extractor)."""
    from importlib.metadata import version

    return version("keybert")


def _backend(embedder):
    from keybert.backend import BaseEmbedder

    class KgBackend(BaseEmbedder):
        """KeyBERT's backend interface over a kg embedder (only used if KeyBERT embeds itself)."""

        def embed(self, documents, verbose=False):
            return np.asarray(embedder.embed(list(documents)), dtype=np.float32)

    return KgBackend(embedder)


def extract_keybert(
    papers: Sequence[Paper],
    embedder,
    *,
    top_n: int = 10,
    depth: int | None = None,
    diversity: float = 0.3,
    max_words: int = 5,
    terms: frozenset[str] = frozenset(),
    on_progress: Progress | None = None,
):
    """Rank each paper's kg candidates with ``keybert.KeyBERT.extract_keywords``.

    Parameters
    ----------
    papers : sequence of Paper
    embedder : Embedder
        The model, for KeyBERT and for the batched embeddings handed to it.
    top_n : int
        Keyphrases a paper is described by: the first ``top_n`` returned are KeyBERT's
        answer for ``top_n=top_n``.
    depth : int, optional
        How many to return (default ``top_n``); ranks past ``top_n`` are those of KeyBERT's
        answer for ``top_n=depth`` not among the first (KeyBERT's MMR sorts its picks by
        score, so a deeper answer may order the first ``top_n`` differently).
    diversity : float
        KeyBERT's MMR ``diversity``; 0 ranks by cosine alone (``use_mmr=False``).
    max_words : int
        Longest candidate phrase, in words.
    terms : frozenset of str
        The corpus's hyphenated terms, joined where a text writes them with spaces
        (:mod:`kg.extract.multiword`).
    on_progress : callable, optional
        ``on_progress(stage, done, total)``.

    Returns
    -------
    Extraction
        As :func:`kg.extract.extract`; ``phrase_vectors`` maps kg's surface phrases to the
        vectors KeyBERT ranked them by.
    """
    from keybert import KeyBERT

    depth = max(depth or top_n, top_n, 1)
    texts = [document_text(p) for p in papers]
    doc_vectors = _embed_in_chunks(embedder, texts, "documents", on_progress)
    surfaces: list[dict[str, str]] = []  # per paper: KeyBERT form -> kg's first surface form
    for paper in papers:
        forms: dict[str, str] = {}
        for cand in paper_candidates(paper, max_words, terms):
            form = keybert_form(cand.phrase)
            if form:
                forms.setdefault(form, cand.phrase)
        surfaces.append(forms)
    if on_progress:
        on_progress("candidates", len(papers), len(papers))
    vocabulary = sorted({form for forms in surfaces for form in forms})
    index = {form: i for i, form in enumerate(vocabulary)}
    word_vectors = _embed_in_chunks(embedder, vocabulary, "phrases", on_progress, dtype=np.float16)
    model = KeyBERT(model=_backend(embedder))
    result: dict[str, list[Keyphrase]] = {}
    phrase_rows: dict[str, int] = {}
    for paper, text, doc, forms in zip(papers, texts, doc_vectors, surfaces):
        if not forms:
            result[paper.id] = []
            continue
        candidates = list(forms)  # the vectorizer's vocabulary, in this order
        rows = word_vectors[[index[f] for f in candidates]].astype(np.float32)
        longest = max(len(f.split()) for f in candidates)

        def ask(n: int) -> list[tuple[str, float]]:
            return model.extract_keywords(text, candidates=candidates, keyphrase_ngram_range=(1, longest),
                                          stop_words=None, top_n=n, use_mmr=diversity > 0, diversity=diversity,
                                          doc_embeddings=doc[None, :], word_embeddings=rows)

        ranked = ask(top_n)
        if depth > top_n:
            have = {form for form, _ in ranked}
            ranked += [(form, score) for form, score in ask(depth) if form not in have]
        result[paper.id] = [Keyphrase(forms[form], float(score)) for form, score in ranked]
        for form in forms:
            phrase_rows.setdefault(forms[form], index[form])
    if on_progress:
        on_progress("ranking", len(papers), len(papers))
    return Extraction(result, doc_vectors, _Rows(phrase_rows, word_vectors))
