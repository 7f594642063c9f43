"""Which concepts a paper's title and abstract name, whether or not extraction linked them.

A paper links the few concepts its extraction ranked highest; its text names many more. Two concepts whose
papers already name both, unlinked, are a pair the next papers are likely to link (measured for the forecast in
:mod:`kg.analyze.forecast`). :func:`named_in_text` finds every written form of every concept in each text (a word
sequence match, lower case, on the word boundaries of :data:`WORD`); :func:`text_names` reads the forms and the
texts from a kg graph: a concept's forms are its name, its aliases and the words each mention was found as.

Examples
--------
>>> texts = {"p1": "Matrix factorizations for collaborative filtering.", "p2": "A survey of CF."}
>>> forms = {"c:cf": ["collaborative filtering", "CF"], "c:mf": ["matrix factorization", "matrix factorizations"]}
>>> named_in_text(texts, forms)
{'p1': ('c:cf', 'c:mf'), 'p2': ('c:cf',)}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
from scipy import sparse

__all__ = ["named_in_text", "text_names", "naming_incidence", "WORD"]

WORD = re.compile(r"\w[\w\-/+']*")  # a word: letters or digits, then also the hyphens, slashes, pluses inside names
_LONGEST = 8  # words: longer written forms are never looked for


def _words(text: str) -> tuple[str, ...]:
    return tuple(WORD.findall(text.lower()))


def named_in_text(texts: Mapping[str, str], forms: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]]:
    """Paper id -> the concepts (sorted ids) one of whose ``forms`` its text contains as whole words, case aside.

    Papers whose text names none are left out. A form of more than ``_LONGEST`` words is not looked for.
    """
    by_words: dict[tuple[str, ...], set[str]] = {}
    for concept, written in forms.items():
        for form in written:
            words = _words(form)
            if 0 < len(words) <= _LONGEST:
                by_words.setdefault(words, set()).add(concept)
    lengths: dict[str, list[int]] = {}  # first word -> the lengths of the forms it starts
    for words in by_words:
        lengths.setdefault(words[0], []).append(len(words))
    lengths = {first: sorted(set(n)) for first, n in lengths.items()}
    out = {}
    for paper, text in texts.items():
        words = _words(text)
        found: set[str] = set()
        for start, word in enumerate(words):
            for n in lengths.get(word, ()):
                hit = by_words.get(words[start:start + n])
                if hit:
                    found |= hit
        if found:
            out[paper] = tuple(sorted(found))
    return out


def naming_incidence(papers: Sequence[str], named: Mapping[str, Iterable[str]],
                     index: Mapping[str, int]) -> sparse.csr_matrix:
    """0/1 matrix, a row per paper of ``papers`` (ids, in order), a column per concept of ``index`` (id ->
    column): 1 where the paper's text names the concept (``named``: :func:`text_names`). Its product with
    itself transposed counts the papers naming both of two concepts.

    >>> m = naming_incidence(["p1", "p2", "p3"], {"p1": ["c:a", "c:b"], "p3": ["c:b", "c:x"]}, {"c:a": 0, "c:b": 1})
    >>> m.toarray().tolist(), int((m.T @ m)[0, 1])
    ([[1.0, 1.0], [0.0, 0.0], [0.0, 1.0]], 1)
    """
    rows, cols = [], []
    for row, paper in enumerate(papers):
        at = sorted({index[c] for c in named.get(paper, ()) if c in index})
        rows += [row] * len(at)
        cols += at
    return sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(papers), len(index)))


def text_names(graph: nx.MultiDiGraph, *, min_papers: int = 1) -> dict[str, tuple[str, ...]]:
    """:func:`named_in_text` over a kg graph: each paper's title and abstract, the concepts linked to
    ``min_papers`` papers or more (their name, aliases and the words their mentions were found as)."""
    papers = Counter(v for _, v, key in graph.edges(keys=True) if key == "mentions")
    forms: dict[str, set[str]] = {}
    for concept, count in papers.items():
        if count >= min_papers:
            data = graph.nodes[concept]
            forms[concept] = {data.get("name") or "", *(data.get("aliases") or ())}
    for _, concept, key, data in graph.edges(keys=True, data=True):
        if key == "mentions" and concept in forms and data.get("surface"):
            forms[concept].add(data["surface"])
    texts = {node: f"{data.get('title') or ''}\n{data.get('abstract') or ''}"
             for node, data in graph.nodes(data=True) if data.get("kind") == "paper"}
    return named_in_text(texts, forms)
