"""Near-synonyms: concepts whose names embed close enough (and pass the word guards) merge
into the more frequent one."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

import numpy as np

from kg.normalize.keys import concept_key, cuts_a_name

__all__ = ["near_synonyms", "MERGE_THRESHOLD"]

# Cosine at or above which two concepts are near-synonyms (see near_synonyms).
# all-MiniLM-L6-v2 puts real variants at 0.89-0.97 ("recommender system" / "recommendation
# system" 0.89) but unrelated pairs can reach 0.92, so the guards in _needed matter more.
MERGE_THRESHOLD = 0.85


def _probe(key: str, surfaces: Counter[str]) -> str:
    """The text embedded for a concept: its most used surface form that has its key (else the key).

    Extraction already embedded every surface form, so a cached embedder answers without the model.
    """
    for surface, _ in sorted(surfaces.items(), key=lambda kv: (-kv[1], kv[0])):
        if concept_key(surface) == key:
            return surface
    return key


def _apply_merges(merged: Mapping[str, str], surfaces, best):
    new_surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for key, counts in surfaces.items():
        new_surfaces[merged.get(key, key)].update(counts)
    new_best: dict[tuple[str, str], tuple[float, str]] = {}
    for (pid, key), value in sorted(best.items()):
        target = (pid, merged.get(key, key))
        if target not in new_best or value[0] > new_best[target][0]:
            new_best[target] = value
    return new_surfaces, new_best


_AFFIXES = ("non", "un", "semi", "self", "multi", "single", "in", "dis", "sub", "super", "anti")
_DIGITS = re.compile(r"\d+")
# Roman numerals and the type letters after them: "type II superstring" is no "type IIB superstring" (cosine 0.97)
_ROMAN_WORD = re.compile(r"(?:x|ix|iv|v?i{1,3}|v)[ab]?")


# Words of opposite meaning that embed close: "weakly coupled heterotic string" merged into "strongly coupled
# heterotic string" (hep-th), as would "massive" and "massless" fields, "online" and "offline" evaluation.
_OPPOSITES = {frozenset(pair.split("/")) for pair in """weak/strong weakly/strongly small/large low/high lower/upper
    massive/massless finite/infinite positive/negative even/odd open/closed left/right minimal/maximal
    minimum/maximum higher/lower highest/lowest light/heavy short/long local/global static/dynamic explicit/implicit
    direct/indirect inner/outer
    early/late hard/soft dense/sparse online/offline forward/backward increasing/decreasing attractive/repulsive
    electric/magnetic classical/quantum bosonic/fermionic timelike/spacelike ultraviolet/infrared internal/external
    primary/secondary manual/automatic male/female fast/slow hot/cold before/after input/output
    horizontal/vertical""".split()}


def _opposed(only_a: set[str], only_b: set[str]) -> bool:
    """Whether a word one key alone has is the opposite of one the other alone has.

    Examples
    --------
    >>> _opposed({"weakly"}, {"strongly"}), _opposed({"convolutional"}, {"convolution"})
    (True, False)
    """
    return any(frozenset((x, y)) in _OPPOSITES for x in only_a for y in only_b)


_AGENT = ("tor", "tors")  # "commutator", "generators": a thing that does
_QUALITY = ("tive",)  # "commutative", "generative": a property


def _agent_and_quality(only_a: set[str], only_b: set[str]) -> bool:
    """Whether one key alone has an agent noun and the other alone the adjective of its stem: "commutator algebra"
    is no "commutative algebra" (hep-th merged them, cosine above the threshold; judged wrong).

    Examples
    --------
    >>> _agent_and_quality({"commutator"}, {"commutative"}), _agent_and_quality({"recommender"}, {"recommendation"})
    (True, False)
    """
    return any((x.endswith(_AGENT) and y.endswith(_QUALITY)) or (y.endswith(_AGENT) and x.endswith(_QUALITY))
               for x in only_a for y in only_b)


def _variants(x: str, y: str) -> bool:
    """Two words of one family: equal, or sharing a 5-letter stem ("recommender", "recommendation")."""
    return x == y or (len(x) >= 5 and len(y) >= 5 and x[:5] == y[:5])


def _needed(a: str, b: str, threshold: float) -> float:
    """The cosine two concept keys need to merge; above 1 means never.

    Guards against pairs that embed close but name different concepts:

    * one adds words to the other ("graph neural network" vs "neural network");
    * they differ in a number ("gpt 3" vs "gpt 4") or a Roman numeral ("type ii superstring" vs "type iib
      superstring");
    * they differ by a negating or scoping prefix ("supervised" vs "unsupervised") or in words of opposite
      meaning ("weakly" vs "strongly", "massive" vs "massless": :data:`_OPPOSITES`);
    * either is one short token (acronyms embed unreliably);
    * their head (last) words are not of one family ("latent causal variable" vs
      "latent causal model", cosine 0.92 with MiniLM).

    Otherwise ``threshold`` is enough when every differing word has a variant on the
    other side ("convolutional neural network" vs "convolution neural network"), and
    ``threshold + 0.1`` is needed when a modifier is really different.
    """
    wa, wb = a.split(), b.split()
    sa, sb = set(wa), set(wb)
    if sa <= sb or sb <= sa or _DIGITS.findall(a) != _DIGITS.findall(b):
        return 2.0
    if [w for w in wa if _ROMAN_WORD.fullmatch(w)] != [w for w in wb if _ROMAN_WORD.fullmatch(w)]:
        return 2.0
    if (len(wa) == 1 and len(a) <= 5) or (len(wb) == 1 and len(b) <= 5):
        return 2.0
    if any(x != y and x.replace(" ", "") == p + y for x in sa ^ sb for y in sa ^ sb for p in _AFFIXES):
        return 2.0
    if not _variants(wa[-1], wb[-1]):
        return 2.0
    only_a, only_b = sa - sb, sb - sa
    if _opposed(only_a, only_b) or _agent_and_quality(only_a, only_b):
        return 2.0
    if all(any(_variants(x, y) for y in only_b) for x in only_a) and \
            all(any(_variants(y, x) for x in only_a) for y in only_b):
        return threshold
    return threshold + 0.1


def _block(key: str) -> str:
    """The head-word family of a concept key: keys in different blocks never merge.

    :func:`_variants` holds for two head words exactly when they are equal or both have
    five or more letters and share the first five, so the head word itself (when
    shorter) or its first five letters names the family.

    Examples
    --------
    >>> [_block(k) for k in ["recommender system", "recommendation systems", "graph", "user"]]
    ['syste', 'syste', 'graph', 'user']
    """
    head = key.rsplit(" ", 1)[-1]
    return head if len(head) < 5 else head[:5]


def _never_merges(key: str) -> bool:
    """One short token (an acronym, most often): :func:`_needed` refuses every pair with it."""
    return " " not in key and len(key) <= 5


def near_synonyms(probes: Mapping[str, str], df: Mapping[str, int], embedder=None, *,
                  threshold: float = MERGE_THRESHOLD, pinned: Iterable[str] = (),
                  vectors: Mapping[str, np.ndarray] | None = None,
                  max_cells: int = 1 << 24) -> dict[str, str]:
    """Concept keys to merge: ``{key: representative key}``.

    Concepts are visited from the most to the least frequent (ties by key; a name's misspelling, "chern simon",
    after its own spelling, :func:`kg.normalize.keys.cuts_a_name`); each one
    not yet merged becomes a representative and absorbs every later concept whose
    embedding is close enough to it (:func:`_needed`: ``threshold`` for word variants,
    ``threshold + 0.1`` for different modifiers, never across guarded pairs). Merging
    into a representative (never through a chain) keeps clusters tight.

    Only concepts that could merge are compared: :func:`_needed` requires head words of
    one family, so the keys are split into blocks by head word (:func:`_block`) and
    compared within their block, a chunk of rows at a time; a concept alone in its
    block, or one short token, is not even embedded. The result is the one comparing
    every pair would give.

    Parameters
    ----------
    probes : dict
        Concept key -> the text to embed for it.
    df : dict
        Concept key -> number of papers (the more frequent key represents a merge).
    embedder : Embedder, optional
        Embeds the probes that ``vectors`` lacks (needed only then).
    threshold : float
    pinned : iterable of str
        Keys a thesaurus chose: never merged into another key.
    vectors : dict, optional
        Probe text -> unit vector already computed (extraction embedded every surface
        form): those probes are not embedded again.
    max_cells : int
        At most this many similarities are held at once (bounded memory in a block as
        large as the one of "model").

    Examples
    --------
    >>> v = {"recommender systems": np.array([1.0, 0.0]), "recommendation system": np.array([0.9, 0.436]),
    ...      "operating system": np.array([0.9, 0.436])}
    >>> probes = {"recommender system": "recommender systems", "operating system": "operating system",
    ...           "recommendation system": "recommendation system"}
    >>> near_synonyms(probes, {"recommender system": 5}, vectors=v)  # "operating" is no variant: needs 0.95
    {'recommendation system': 'recommender system'}
    """
    pinned = set(pinned)
    blocks: dict[str, list[str]] = defaultdict(list)
    for key in probes:
        if not _never_merges(key):
            blocks[_block(key)].append(key)
    groups = [sorted(keys, key=lambda k: (cuts_a_name(k), -df.get(k, 0), k)) for _, keys in sorted(blocks.items())
              if len(keys) > 1]  # a name's own spelling absorbs its misspelling: "chern simon" goes to "chern simons"
    if not groups:
        return {}
    found = _probe_vectors(sorted({probes[k] for keys in groups for k in keys}), embedder, vectors)
    merged: dict[str, str] = {}
    for keys in groups:
        matrix = np.vstack([found[probes[k]] for k in keys]).astype(np.float32)
        rows = max(1, max_cells // len(keys))
        for start in range(0, len(keys), rows):
            sims = matrix[start : start + rows] @ matrix[start:].T
            close = np.triu(sims >= threshold, k=1)  # each pair once: a row's later keys only
            for row, j in zip(*np.nonzero(close)):  # row by row, each row's columns in order
                i, other = start + row, keys[start + j]
                if keys[i] in merged or other in merged or other in pinned or sims[row, j] < _needed(
                        keys[i], other, threshold):
                    continue
                merged[other] = keys[i]
    return merged


def _probe_vectors(texts: list[str], embedder, vectors: Mapping[str, np.ndarray] | None) -> dict[str, np.ndarray]:
    """Unit vectors of ``texts``: from ``vectors`` where given (as they are: no copy), the rest embedded."""
    vectors = vectors or {}
    missing = [t for t in texts if t not in vectors]
    found = {t: vectors[t] for t in texts if t in vectors}
    if missing:
        if embedder is None:
            raise ValueError(f"{len(missing)} probe texts have no vector and no embedder was given")
        found.update(zip(missing, np.asarray(embedder.embed(missing), dtype=np.float32)))
    return found
