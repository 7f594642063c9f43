"""How likely a paper's concept is one an expert would list: a small learned filter.

Rules catch the classes of bad concepts that have a shape (a filler head, a verb inside, a
broken name); what is left is mostly a matter of meaning: a bare field word ("data mining",
"cosmology"), a vague phrase ("major problem", "information processing"). Two independent
reviewers labelled 6,113 concepts of random papers of three fields (ACM-CR, hep-th, Inspec) with the rubric of
``docs/EXTRACTION.md``; a logistic regression over the concept's vector (the extraction model's
embedding of its name), a few word-frequency and shape features of the name, and the mention's
rank in its paper predicts "good" (``bench/train_concept_quality.py`` trains it, cross-validated
by held-out sample; ``kg/resources/concept_quality.json`` holds its weights and that record).

:func:`keep_mentions` drops a paper's mention when the predicted chance is under the model's
threshold, except the paper's first ``protect`` mentions (the first three were judged good
59–85% of the time; the tenth 27%), and a paper keeps at least ``min_kept``. Besides the name and
the rank, the model reads how close a mention is to those ranked above it in its paper
(:func:`context_features`: restatements of a higher concept are). The weights belong to the model they were trained with
(all-MiniLM-L6-v2): :func:`load_quality_model` returns them for that model only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from kg.normalize.generic import zipf

__all__ = ["QualityModel", "load_quality_model", "name_features", "rank_features", "context_features",
           "keep_mentions", "HAND_FEATURES"]

HAND_FEATURES = ("words", "min_zipf", "max_zipf", "mean_zipf", "last_zipf", "first_zipf", "has_digit",
                 "capitalized", "upper_word", "hyphen", "single_word", "single_word_zipf",
                 "rank", "inverse_rank", "concepts", "rank_share", "higher_cosine")


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


@dataclass(frozen=True)
class QualityModel:
    """A logistic regression over ``[vector, name_features, rank_features]``, standardized."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float
    protect: int
    model: str
    min_kept: int = 0  # a paper keeps at least this many (at least protect + 1)

    def chance(self, vectors: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """Predicted chance of "good" for rows of (vector, hand features)."""
        x = (np.hstack([np.asarray(vectors, dtype=np.float64), np.asarray(hand, dtype=np.float64)])
             - self.mean) / self.scale
        return 1.0 / (1.0 + np.exp(-(x @ self.coef + self.intercept)))

    @classmethod
    def from_dict(cls, data: Mapping) -> "QualityModel":
        return cls(np.asarray(data["mean"]), np.asarray(data["scale"]), np.asarray(data["coef"]),
                   float(data["intercept"]), float(data["threshold"]), int(data["protect"]), str(data["model"]),
                   int(data.get("min_kept", 0)))


@lru_cache(maxsize=4)
def load_quality_model(model: str) -> QualityModel | None:
    """The packaged weights when they were trained for the extraction model ``model``, else None."""
    data = json.loads(resources.files("kg.resources").joinpath("concept_quality.json").read_text("utf-8"))
    return QualityModel.from_dict(data) if data["model"] == model else None


def keep_mentions(ranked: Sequence[tuple[str, str]], quality: QualityModel,
                  vector_of: Callable[[str, str], np.ndarray | None],
                  keep: Callable[[str], bool] = lambda cid: False) -> list[bool]:
    """Which of one paper's mentions stay, given in rank order as ``(concept name, concept id)``.

    The first ``quality.protect`` always stay, as does a mention ``keep(cid)`` asks for (a
    thesaurus term) or one without a vector (``vector_of(name, cid)`` is None); a paper keeps
    at least ``quality.min_kept`` and ``quality.protect + 1`` (the likeliest of the others fill the
    place). Besides the name and the rank, the model reads :func:`context_features`.

    Examples
    --------
    >>> q = QualityModel(np.zeros(19), np.ones(19), np.r_[1.0, 0.0, np.zeros(17)], 0.0, 0.5, 1, "m")
    >>> vec = {"a": np.array([1.0, 0.0]), "b": np.array([-1.0, 0.0]), "c": np.array([2.0, 0.0])}
    >>> keep_mentions([("x", "b"), ("y", "b"), ("z", "c"), ("w", "d")], q, lambda n, c: vec.get(c))
    [True, False, True, True]
    >>> keep_mentions([("x", "b"), ("y", "b"), ("z", "b")], q, lambda n, c: vec.get(c))  # two stay
    [True, True, False]
    """
    flags = [True] * len(ranked)
    every = [vector_of(name, cid) for name, cid in ranked]
    rows = [i for i, (_, cid) in enumerate(ranked) if i >= quality.protect and not keep(cid) and every[i] is not None]
    if not rows:
        return flags
    context = context_features(every)
    features = np.array([name_features(ranked[i][0]) + rank_features(i + 1, len(ranked)) + context[i] for i in rows])
    chance = quality.chance(np.vstack([np.asarray(every[i], dtype=np.float64) for i in rows]), features)
    for i, p in zip(rows, chance):
        flags[i] = bool(p >= quality.threshold)
    short = max(quality.protect + 1, quality.min_kept) - sum(flags)  # a paper keeps a few more than the protected
    for _, i in sorted((-p, i) for i, p in zip(rows, chance) if not flags[i])[:max(short, 0)]:
        flags[i] = True
    return flags
