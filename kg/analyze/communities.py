"""Paper communities, their modularity, the concepts that label them and their central papers."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import networkx as nx

from kg.defaults import METHODS, SCORINGS, SEED
from kg.extract.ranking import ordinary_word
from kg.fastgraph import seeded_igraph, to_igraph, use_fast_path
from kg.nxbackend import call

__all__ = [
    "METHODS",
    "SCORINGS",
    "detect_communities",
    "ordered_communities",
    "modularity",
    "distinctive_concepts",
    "label_communities",
    "central_members",
    "specificity",
    "ONE_WORD_WEIGHT",
    "MAX_LABEL_SHARE",
]

# A one-word concept that is an ordinary English word ("user", "query", "algorithm")
# weighs this much against a multi-word or named one in labels and the top-concepts table.
ONE_WORD_WEIGHT = 0.5
# Concepts mentioned by more than this share of all papers never label a community.
MAX_LABEL_SHARE = 0.1



def ordered_communities(parts) -> list[set]:
    return sorted((set(p) for p in parts), key=lambda s: (-len(s), min(map(str, s))))


def detect_communities(graph: nx.Graph, *, method: str = "louvain", seed: int = SEED, resolution: float = 1.0,
                       weight: str = "weight", fast: bool | None = None, backend: str | None = None) -> list[set]:
    """Communities of an undirected weighted graph, largest first (ties by smallest member id).

    Parameters
    ----------
    graph : networkx.Graph
    method : {"louvain", "leiden"}
        Louvain (Blondel et al. 2008): NetworkX, or igraph's multilevel on large graphs.
        Leiden (Traag et al. 2019, ``leidenalg``, RB-configuration quality, two
        iterations as leidenalg's default: iterating to convergence took 293 s
        instead of about 15 s on 24.6k papers),
        which guarantees connected communities.
    seed : int
        The same seed on the same graph gives the same communities.
    resolution : float
        Above 1 gives more, smaller communities; below 1 fewer, larger ones.
    fast : bool, optional
        Louvain through igraph; default when the graph has at least
        :data:`kg.fastgraph.FAST_PATH_EDGES` edges.
    backend : str, optional
        NetworkX backend for NetworkX's Louvain (:mod:`kg.nxbackend`).

    Returns
    -------
    list of set
        Every node in exactly one community; isolated nodes are singletons.

    Examples
    --------
    >>> g = nx.barbell_graph(4, 0)
    >>> [sorted(c) for c in detect_communities(g)]
    [[0, 1, 2, 3], [4, 5, 6, 7]]
    """
    if method not in METHODS:
        raise ValueError(f"unknown community method {method!r}; choose from {METHODS}")
    if graph.number_of_nodes() == 0:
        return []
    if method == "louvain" and not use_fast_path(graph, fast):
        return ordered_communities(call(nx.community.louvain_communities, graph, weight=weight, resolution=resolution, seed=seed,
                             backend=backend))
    converted, nodes = to_igraph(graph, weight=weight)
    if method == "leiden":
        import leidenalg  # optional at run time: only --method leiden needs it

        partition = leidenalg.find_partition(converted, leidenalg.RBConfigurationVertexPartition,
                                             weights="weight", resolution_parameter=resolution, seed=seed,
                                             n_iterations=2)
        membership = partition.membership
    else:
        with seeded_igraph(seed):
            membership = converted.community_multilevel(weights="weight", resolution=resolution).membership
    groups: dict[int, set] = {}
    for node, label in zip(nodes, membership):
        groups.setdefault(label, set()).add(node)
    return ordered_communities(groups.values())


def modularity(graph: nx.Graph, communities: Sequence[set], *, weight: str = "weight",
               resolution: float = 1.0, backend: str | None = None) -> float:
    """Newman's weighted modularity of a partition (0 for a graph without edges).

    Examples
    --------
    >>> round(modularity(nx.barbell_graph(4, 0), [set(range(4)), set(range(4, 8))]), 4)
    0.4231
    """
    if graph.number_of_edges() == 0:
        return 0.0
    return float(call(nx.community.modularity, graph, communities, weight=weight, resolution=resolution,
                      backend=backend))


def specificity(concept: str) -> float:
    """How specific a concept id is: ``ONE_WORD_WEIGHT`` for a one-word ordinary English word,
    1 for a multi-word term, an acronym or a name.

    Examples
    --------
    >>> [specificity(c) for c in ["c:user", "c:collaborative filtering", "c:bert", "c:query"]]
    [0.5, 1.0, 1.0, 0.5]
    """
    key = concept.split(":", 1)[-1]
    return ONE_WORD_WEIGHT if ordinary_word(key) else 1.0


def _concept_counts(graph: nx.MultiDiGraph, communities: Sequence[set]) -> list[Counter]:
    counts = []
    for members in communities:
        counter: Counter = Counter()
        for paper in members:
            for _, concept, key in graph.out_edges(paper, keys=True):
                if key == "mentions":
                    counter[concept] += 1
        counts.append(counter)
    return counts


def _loglik(a: int, b: int, c1: int, c2: int) -> float:
    """Dunning's G² of a term seen ``a`` times in ``c1`` and ``b`` times in ``c2``; signed by over-use."""
    total = c1 + c2
    e1, e2 = c1 * (a + b) / total, c2 * (a + b) / total
    g2 = 2 * ((a * math.log(a / e1) if a else 0.0) + (b * math.log(b / e2) if b else 0.0))
    return g2 if a >= e1 else -g2


def distinctive_concepts(graph: nx.MultiDiGraph, communities: Sequence[set], *, scoring: str = "ctfidf",
                         top: int = 5, min_papers: int = 2,
                         max_share: float = MAX_LABEL_SHARE) -> list[list[dict]]:
    """The concepts that set each paper community apart from the rest of the corpus.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph; counts come from its ``mentions`` edges.
    communities : list of set
        Paper ids.
    scoring : {"ctfidf", "loglik"}
        ``ctfidf`` (class-based TF-IDF, as in BERTopic): ``tf(c, k) · ln(1 + A / f(c))``
        with *tf* the share of community *k*'s mentions that name *c*, *A* the mean
        number of mentions per community and *f(c)* the mentions of *c* in the corpus.
        ``loglik``: Dunning's log-likelihood ratio G² of *c* inside *k* against the
        rest of the corpus, over-represented concepts only.
    top : int
    min_papers : int
        A concept must be mentioned by this many of the community's papers (communities
        smaller than that use every concept of theirs).
    max_share : float
        Concepts mentioned by more than this share of all papers are too general to set a
        community apart ("user", "algorithm" on ACM) and are left out, in corpora of at
        least ``10 / max_share`` papers (in 38 papers, 4 would be too many).

    Either score is multiplied by the concept's :func:`specificity`, so a specific
    multi-word term ("collaborative filtering") leads a label over a one-word ordinary
    word ("user") that is about as distinctive.

    Returns
    -------
    list of list of dict
        Per community, rows ``{"id", "score", "papers"}`` best first (ties by id);
        ``papers`` counts the community's papers that mention the concept.
    """
    if scoring not in SCORINGS:
        raise ValueError(f"unknown label scoring {scoring!r}; choose from {SCORINGS}")
    counts = _concept_counts(graph, communities)
    total: Counter = Counter()
    for counter in counts:
        total.update(counter)
    grand = sum(total.values())
    average = grand / max(len(communities), 1)
    n_papers = sum(len(m) for m in communities)
    too_general = max_share * n_papers if n_papers >= 10 / max_share else math.inf
    labels = []
    for members, counter in zip(communities, counts):
        size = sum(counter.values())
        floor = min_papers if len(members) >= min_papers else 1
        scored = []
        for concept, n in counter.items():
            if n < floor or total[concept] > too_general:
                continue
            if scoring == "ctfidf":
                score = (n / size) * math.log(1 + average / total[concept])
            else:
                if grand == size:
                    continue
                score = _loglik(n, total[concept] - n, size, grand - size)
                if score <= 0:
                    continue
            scored.append((-score * specificity(concept), concept, n))
        scored.sort()
        labels.append([{"id": c, "score": -s, "papers": n} for s, c, n in scored[:top]])
    return labels


def label_communities(graph: nx.MultiDiGraph, communities: Sequence[set], *, top: int = 5,
                      scoring: str = "ctfidf") -> list[list[str]]:
    """Ids of the most distinctive concepts of each community (see :func:`distinctive_concepts`)."""
    return [[row["id"] for row in rows]
            for rows in distinctive_concepts(graph, communities, scoring=scoring, top=top)]


def central_members(graph: nx.Graph, members: set, *, weight: str = "weight", top: int | None = None) -> list[tuple]:
    """Members ranked by the weight of their links inside the community (highest first, ties by id).

    Examples
    --------
    >>> g = nx.Graph([("a", "b", {"weight": 3}), ("b", "c", {"weight": 1}), ("c", "x", {"weight": 9})])
    >>> central_members(g, {"a", "b", "c"})
    [('b', 4.0), ('a', 3.0), ('c', 1.0)]
    """
    strength = {m: 0.0 for m in members}
    for node in members:
        for neighbour, data in graph.adj[node].items() if node in graph else ():
            if neighbour in members and neighbour != node:
                strength[node] += float(data.get(weight, 1.0))
    ranked = sorted(strength.items(), key=lambda kv: (-kv[1], str(kv[0])))
    return ranked[:top] if top is not None else ranked
