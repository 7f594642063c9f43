"""Paper communities and the concepts that label them."""

from __future__ import annotations

import math
from collections import Counter

import networkx as nx

__all__ = ["detect_communities", "label_communities"]


def detect_communities(graph: nx.Graph, *, seed: int = 42, resolution: float = 1.0,
                       weight: str = "weight") -> list[set[str]]:
    """Louvain communities of ``graph``, largest first (ties by smallest member id).

    Isolated nodes form singleton communities at the end.
    """
    if graph.number_of_nodes() == 0:
        return []
    parts = nx.community.louvain_communities(graph, weight=weight, resolution=resolution, seed=seed)
    return sorted((set(p) for p in parts), key=lambda s: (-len(s), min(s)))


def label_communities(graph: nx.MultiDiGraph, communities: list[set[str]], *,
                      top: int = 5) -> list[list[str]]:
    """The most distinctive concepts of each paper community (class-based TF-IDF).

    A concept scores ``tf(c, k) * ln(1 + A / f(c))`` in community *k*, where
    *tf* is the share of the community's mentions that name *c*, *A* the average
    number of mentions per community and *f(c)* the mentions of *c* in the corpus.
    """
    counts: list[Counter[str]] = []
    total: Counter[str] = Counter()
    for members in communities:
        counter: Counter[str] = Counter()
        for paper in members:
            for _, concept, key in graph.out_edges(paper, keys=True):
                if key == "mentions":
                    counter[concept] += 1
        counts.append(counter)
        total.update(counter)
    average = sum(total.values()) / max(len(communities), 1)
    labels = []
    for counter in counts:
        size = sum(counter.values()) or 1
        scored = sorted(
            ((-(n / size) * math.log(1 + average / total[c]), c) for c, n in counter.items() if n > 1 or len(counter) <= top),
            key=lambda t: (t[0], t[1]),
        )
        labels.append([c for _, c in scored[:top]])
    return labels
