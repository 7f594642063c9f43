"""How likely a paper's concept is one an expert would list: a small learned filter.

Rules catch the classes of bad concepts that have a shape (a filler head, a verb inside, a
broken name); what is left is mostly a matter of meaning: a bare field word ("data mining",
"cosmology"), a vague phrase ("major problem", "information processing"). Two independent
reviewers labelled 12,799 concepts of random papers of three fields (ACM-CR, hep-th, Inspec) with the rubric of
``docs/EXTRACTION.md``; gradient-boosted trees over the concept's vector (the extraction model's
embedding of its name), a few word-frequency and shape features of the name, the mention's rank in
its paper, its closeness to the concepts ranked above it and what the corpus says of the concept
(:func:`corpus_features`) predict "good" (``bench/train_concept_quality.py`` trains them with LightGBM,
cross-validated by held-out sample; ``kg/resources/concept_quality.json`` holds the trees, which
:class:`Trees` evaluates with numpy, and that record). A logistic regression over the same features is
the other kind of weights file.

:func:`keep_mentions` drops a paper's mention when the predicted chance is under the model's
threshold; the paper's first ``protect`` mentions (the first three were judged good 59–85% of the
time; the tenth 27%) only under the lower ``protected_threshold``, and a paper keeps at least
``min_kept``. Besides the name and the rank, the model reads how close a mention is to those ranked
above it in its paper (:func:`context_features`: restatements of a higher concept are) and two
features of the corpus: the share of papers that mention the concept and how much those papers
have in common. Reviewers call a field's umbrella terms generic ("string theory", "gauge theory",
"information retrieval"), and no word list knows a field's umbrella; their papers are about every
topic of the field, so they have little in common (among concepts of 3 papers or more, cohesion
alone tells good from generic at AUC 0.77 on ACM-CR and 0.73 on hep-th). The weights belong to the
model they were trained with (all-MiniLM-L6-v2): :func:`load_quality_model` returns them for that
model only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from kg.english import zipf
from kg.normalize.cohesion import cohesion

__all__ = ["QualityModel", "Trees", "load_quality_model", "name_features", "rank_features", "context_features",
           "corpus_features", "keep_mentions", "keep_each", "HAND_FEATURES", "NO_CORPUS"]

HAND_FEATURES = ("words", "min_zipf", "max_zipf", "mean_zipf", "last_zipf", "first_zipf", "has_digit",
                 "capitalized", "upper_word", "hyphen", "single_word", "single_word_zipf",
                 "rank", "inverse_rank", "concepts", "rank_share", "higher_cosine", "log_share", "cohesion")
CORPUS_MIN_PAPERS = 200  # smaller corpora give no corpus features: a share of 1 in 40 says nothing of a concept
COHESION_MIN_PAPERS = 3  # concepts of fewer papers get the cohesion NO_COHESION
NO_COHESION = -1.0
NO_CORPUS = (0.0, -2.0)  # a concept's corpus features when the corpus gives none (too small, no document vectors)


def name_features(name: str) -> list[float]:
    """Shape and word-frequency features of a concept name (the first 12 of :data:`HAND_FEATURES`).

    Examples
    --------
    >>> f = name_features("Calabi-Yau manifold")
    >>> f[0], f[6], f[7], f[9], f[10]
    (3.0, 0.0, 1.0, 1.0, 0.0)
    """
    words = name.replace("-", " ").split() or [name]
    z = [zipf(w.lower()) for w in words]
    single = len(words) == 1
    return [float(len(words)), min(z), max(z), sum(z) / len(z), z[-1], z[0],
            float(any(c.isdigit() for c in name)), float(any(w[:1].isupper() for w in words)),
            float(any(w.isupper() and len(w) > 1 for w in words)), float("-" in name),
            float(single), z[0] if single else 0.0]


def rank_features(rank: int, concepts: int) -> list[float]:
    """The mention's place in its paper: rank, 1/rank, the paper's concept count, rank / count.

    Examples
    --------
    >>> rank_features(2, 8)
    [2.0, 0.5, 8.0, 0.25]
    """
    return [float(rank), 1.0 / rank, float(concepts), rank / concepts]


def context_features(vectors: Sequence[np.ndarray | None]) -> list[list[float]]:
    """For each of one paper's mentions in rank order (their concepts' vectors; None where a
    concept has none), the highest cosine to a mention ranked above it: a restatement of a higher
    concept is close to it ("bandit policy" under "contextual bandit"). 0 for the first.

    Examples
    --------
    >>> context_features([np.array([1.0, 0.0]), None, np.array([0.6, 0.8]), np.array([0.0, 2.0])])
    [[0.0], [0.0], [0.6], [0.8]]
    """
    out, seen = [], []
    for vector in vectors:
        if vector is None:
            out.append([0.0])
            continue
        unit = np.asarray(vector, dtype=np.float64)
        unit = unit / (np.linalg.norm(unit) or 1.0)
        out.append([round(max((float(unit @ s) for s in seen), default=0.0), 6)])
        seen.append(unit)
    return out


def corpus_features(holders: Mapping[str, Collection[int]], doc_vectors: np.ndarray | None,
                    n_papers: int) -> dict[str, list[float]]:
    """What the corpus says of each concept (the last 2 of :data:`HAND_FEATURES`): the base-10 logarithm of
    the share of the ``n_papers`` papers that mention it, and the :func:`~kg.normalize.cohesion.cohesion` of
    those papers (:data:`NO_COHESION` under :data:`COHESION_MIN_PAPERS` papers). A field's umbrella term
    ("string theory", "information retrieval") is written by papers of every topic of the field, so they
    have little in common; a topic's papers have much. Empty (every concept :data:`NO_CORPUS`) below
    :data:`CORPUS_MIN_PAPERS` papers or without document vectors.

    Parameters
    ----------
    holders : mapping
        Concept id -> the rows (in ``doc_vectors``) of the papers that mention it.
    doc_vectors : ndarray or None
        The papers' unit document vectors.
    n_papers : int
        The corpus's papers.

    Examples
    --------
    >>> v = np.tile(np.eye(4), (60, 1))  # 240 papers of four topics
    >>> found = corpus_features({"topic": [0, 4, 8, 12], "anything": [0, 1, 2, 3], "one": [5]}, v, 240)
    >>> found["topic"][0], found["topic"][1] > 0.9, found["anything"][1] < 0, found["one"][1]
    (-1.7782, True, True, -1.0)
    """
    if doc_vectors is None or n_papers < CORPUS_MIN_PAPERS:
        return {}
    together = cohesion(holders, doc_vectors, min_papers=COHESION_MIN_PAPERS)
    return {key: [round(math.log10(max(len(set(rows)), 1) / n_papers), 4), together.get(key, NO_COHESION)]
            for key, rows in holders.items()}


@dataclass(frozen=True)
class Trees:
    """Gradient-boosted regression trees (LightGBM's binary objective) as flat arrays, evaluated with
    numpy: building needs no LightGBM. Node ``i`` sends a row left when ``x[feature[i]] <= threshold[i]``;
    a child below 0 is the leaf ``~child``. The chance is the logistic of the summed leaf values."""

    feature: np.ndarray  # per tree, per internal node
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf: np.ndarray  # per tree, per leaf
    roots: np.ndarray  # offset of each tree's nodes and leaves (2 columns)

    @classmethod
    def from_dump(cls, dump: Mapping) -> "Trees":
        """From ``Booster.dump_model()`` (numerical splits, no missing values)."""
        feature, threshold, left, right, leaf, roots = [], [], [], [], [], []
        for tree in dump["tree_info"]:
            base_node, base_leaf = len(feature), len(leaf)
            roots.append((base_node, base_leaf))

            def walk(node: Mapping) -> int:
                if "leaf_value" in node:
                    leaf.append(float(node["leaf_value"]))
                    return ~(len(leaf) - 1 - base_leaf)
                if node.get("decision_type", "<=") != "<=":
                    raise ValueError("only numerical '<=' splits are supported")
                at = len(feature)
                feature.append(int(node["split_feature"]))
                threshold.append(float(node["threshold"]))
                left.append(0)
                right.append(0)
                left[at] = walk(node["left_child"])
                right[at] = walk(node["right_child"])
                return at - base_node

            walk(tree["tree_structure"])
        return cls(np.array(feature, dtype=np.int32), np.array(threshold), np.array(left, dtype=np.int32),
                   np.array(right, dtype=np.int32), np.array(leaf), np.array(roots, dtype=np.int64).reshape(-1, 2))

    def to_dict(self) -> dict:
        return {name: getattr(self, name).tolist() for name in ("feature", "threshold", "left", "right", "leaf", "roots")}

    @classmethod
    def from_dict(cls, data: Mapping) -> "Trees":
        return cls(np.asarray(data["feature"], dtype=np.int32), np.asarray(data["threshold"], dtype=np.float64),
                   np.asarray(data["left"], dtype=np.int32), np.asarray(data["right"], dtype=np.int32),
                   np.asarray(data["leaf"], dtype=np.float64), np.asarray(data["roots"], dtype=np.int64).reshape(-1, 2))

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The summed leaf values of rows ``x``."""
        x = np.asarray(x, dtype=np.float64)
        total = np.zeros(len(x))
        rows = np.arange(len(x))
        for base_node, base_leaf in self.roots:
            node = np.zeros(len(x), dtype=np.int64)  # every row at the root
            inside = np.ones(len(x), dtype=bool)
            while inside.any():
                at = node[inside] + base_node
                go_left = x[rows[inside], self.feature[at]] <= self.threshold[at]
                node[inside] = np.where(go_left, self.left[at], self.right[at])
                inside = node >= 0
            total += self.leaf[base_leaf + ~node]
        return total


@dataclass(frozen=True)
class QualityModel:
    """A logistic regression over ``[vector, name_features, rank_features, context_features]``,
    standardized, or boosted ``trees`` over the same features unstandardized (then ``mean``,
    ``scale`` and ``coef`` go unused)."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float
    protect: int
    model: str
    min_kept: int = 0  # a paper keeps at least this many (at least protect + 1)
    trees: Trees | None = None
    protected_threshold: float = 0.0  # a protected mention goes under this chance (0: never)
    threshold_without_corpus: float | None = None  # the threshold when the corpus says nothing (None: threshold)
    min_kept_without_corpus: int | None = None  # min_kept when the corpus says nothing (None: min_kept)
    fill_floor: float = 0.0  # where the corpus says something, no mention under this chance fills a paper's min_kept

    def chance(self, vectors: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """Predicted chance of "good" for rows of (vector, hand features)."""
        x = np.hstack([np.asarray(vectors, dtype=np.float64), np.asarray(hand, dtype=np.float64)])
        raw = self.trees.raw(x) if self.trees is not None else ((x - self.mean) / self.scale) @ self.coef
        return 1.0 / (1.0 + np.exp(-(raw + self.intercept)))

    @classmethod
    def from_dict(cls, data: Mapping) -> "QualityModel":
        trees = Trees.from_dict(data["trees"]) if data.get("trees") else None
        without, kept_without = data.get("threshold_without_corpus"), data.get("min_kept_without_corpus")
        return cls(np.asarray(data.get("mean", [])), np.asarray(data.get("scale", [])), np.asarray(data.get("coef", [])),
                   float(data.get("intercept", 0.0)), float(data["threshold"]), int(data["protect"]), str(data["model"]),
                   int(data.get("min_kept", 0)), trees, float(data.get("protected_threshold", 0.0)),
                   None if without is None else float(without), None if kept_without is None else int(kept_without),
                   float(data.get("fill_floor", 0.0)))


@lru_cache(maxsize=4)
def load_quality_model(model: str) -> QualityModel | None:
    """The packaged weights when they were trained for the extraction model ``model``, else None."""
    data = json.loads(resources.files("kg.resources").joinpath("concept_quality.json").read_text("utf-8"))
    return QualityModel.from_dict(data) if data["model"] == model else None


def keep_mentions(ranked: Sequence[tuple[str, str]], quality: QualityModel,
                  vector_of: Callable[[str, str], np.ndarray | None],
                  keep: Callable[[str], bool] = lambda cid: False,
                  corpus: Mapping[str, Sequence[float]] | None = None) -> list[bool]:
    """Which of one paper's mentions stay, given in rank order as ``(concept name, concept id)``.

    The first ``quality.protect`` stay unless their chance is under ``quality.protected_threshold``;
    a mention ``keep(cid)`` asks for (a thesaurus term) or one without a vector (``vector_of(name,
    cid)`` is None) always stays; the others stay from ``quality.threshold`` up (from
    ``quality.threshold_without_corpus`` when ``corpus`` is empty: a small corpus, whose concepts
    the filter knows less of and whose papers need each shared concept to meet). A paper keeps
    at least ``quality.min_kept`` (``quality.min_kept_without_corpus`` when ``corpus`` is empty) and
    ``quality.protect + 1`` (the likeliest of the others fill the place, none under ``quality.fill_floor`` where
    ``corpus`` says something: a field's umbrella term, "string theory" in hep-th, judged generic 43 times in 43,
    is no better for filling a short list), and one at least: its likeliest, whatever its chance. Besides the name
    and the rank, the model reads :func:`context_features` and what the corpus says of the concept,
    ``corpus[cid]`` (:func:`corpus_features`; :data:`NO_CORPUS` when missing). :func:`keep_each` does the same for many papers with one call of the model.

    Examples
    --------
    >>> q = QualityModel(np.zeros(21), np.ones(21), np.r_[1.0, 0.0, np.zeros(19)], 0.0, 0.5, 1, "m")
    >>> vec = {"a": np.array([1.0, 0.0]), "b": np.array([-1.0, 0.0]), "c": np.array([2.0, 0.0])}
    >>> keep_mentions([("x", "b"), ("y", "b"), ("z", "c"), ("w", "d")], q, lambda n, c: vec.get(c))
    [True, False, True, True]
    >>> keep_mentions([("x", "b"), ("y", "b"), ("z", "b")], q, lambda n, c: vec.get(c))  # two stay
    [True, True, False]
    """
    return keep_each([ranked], quality, vector_of, keep, corpus)[0]


_PAPERS_PER_CALL = 2048  # the model reads this many papers' mentions at once: ~40 MB of features


def keep_each(papers: Sequence[Sequence[tuple[str, str]]], quality: QualityModel,
              vector_of: Callable[[str, str], np.ndarray | None],
              keep: Callable[[str], bool] = lambda cid: False,
              corpus: Mapping[str, Sequence[float]] | None = None) -> list[list[bool]]:
    """:func:`keep_mentions` for each paper's ranked mentions, the model called once per
    :data:`_PAPERS_PER_CALL` papers (one call per paper would cost the trees' loops each time; one for
    all of ACM-CR's 24,602 held 1 GB of features)."""
    flags: list[list[bool]] = []
    for start in range(0, len(papers), _PAPERS_PER_CALL):
        flags.extend(_keep_part(papers[start:start + _PAPERS_PER_CALL], quality, vector_of, keep, corpus or {}))
    return flags


def mention_chances(papers: Sequence[Sequence[tuple[str, str]]], quality: QualityModel,
                    vector_of: Callable[[str, str], np.ndarray | None], keep: Callable[[str], bool],
                    corpus: Mapping[str, Sequence[float]]) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The mentions of ``papers`` (each a ranked list of ``(concept name, concept id)``) the filter judges, as
    ``(paper, place)``, and the model's chance for each: not those ``keep`` asks for, nor those without a vector,
    nor the protected places where they cannot go (``quality.protected_threshold`` 0)."""
    rows: list[tuple[int, int]] = []
    vectors, features = [], []
    for p, ranked in enumerate(papers):
        every = [vector_of(name, cid) for name, cid in ranked]
        context = context_features(every)
        for i, (name, cid) in enumerate(ranked):
            if (i >= quality.protect or quality.protected_threshold > 0) and not keep(cid) and every[i] is not None:
                rows.append((p, i))
                vectors.append(np.asarray(every[i], dtype=np.float64))
                features.append(name_features(name) + rank_features(i + 1, len(ranked)) + context[i] +
                                list(corpus.get(cid, NO_CORPUS)))
    if not rows:
        return rows, np.zeros(0)
    return rows, quality.chance(np.vstack(vectors), np.array(features))


def apply_policy(papers: Sequence[Sequence[tuple[str, str]]], rows: Sequence[tuple[int, int]], chance: np.ndarray,
                 quality: QualityModel, corpus: Mapping[str, Sequence[float]]) -> list[list[bool]]:
    """Which mentions of ``papers`` stay, given the chances :func:`mention_chances` found for ``rows``: the policy of
    :func:`keep_mentions` (a mention not judged stays)."""
    flags = [[True] * len(ranked) for ranked in papers]
    threshold, min_kept = quality.threshold, quality.min_kept
    if not corpus and quality.threshold_without_corpus is not None:
        threshold = quality.threshold_without_corpus
    if not corpus and quality.min_kept_without_corpus is not None:
        min_kept = quality.min_kept_without_corpus
    judged: dict[int, list[tuple[int, float]]] = {}
    for (p, i), value in zip(rows, chance):
        flags[p][i] = bool(value >= (threshold if i >= quality.protect else quality.protected_threshold))
        judged.setdefault(p, []).append((i, float(value)))
    floor = quality.fill_floor if corpus else 0.0  # a field's umbrella term ("string theory") fills no place
    for p, found in judged.items():  # a paper keeps a few more than the protected ones
        short = max(quality.protect + 1, min_kept) - sum(flags[p])
        for _, i in sorted((-value, i) for i, value in found if not flags[p][i] and value >= floor)[:max(short, 0)]:
            flags[p][i] = True
        if not any(flags[p]):  # and one at least, its likeliest, whatever the floor: no paper leaves the map
            flags[p][max(found, key=lambda judged: (judged[1], -judged[0]))[0]] = True
    return flags


def _keep_part(papers: Sequence[Sequence[tuple[str, str]]], quality: QualityModel,
               vector_of: Callable[[str, str], np.ndarray | None],
               keep: Callable[[str], bool], corpus: Mapping[str, Sequence[float]]) -> list[list[bool]]:
    rows, chance = mention_chances(papers, quality, vector_of, keep, corpus)
    return apply_policy(papers, rows, chance, quality, corpus)
