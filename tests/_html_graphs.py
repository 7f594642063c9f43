"""Synthetic kg graphs of a chosen size for the HTML tests and bench/bench_html.py.

Built through :func:`kg.graph.build_graph` from made-up papers, so they have the
real schema (mentions, related, co_occurs, cites) without running extraction.
"""

from __future__ import annotations

import random

import networkx as nx

from kg.graph import build_graph
from kg.models import Concept, Mention, Paper

WORDS = ("graph neural sparse attention robust learning kernel bayesian causal federated "
         "spectral contrastive diffusion retrieval ranking citation embedding transformer "
         "optimization inference privacy fairness benchmark clustering").split()


def synthetic_graph(n_nodes: int, *, seed: int = 0, topics: int = 12, per_paper: int = 8,
                    abstract: str | None = None) -> nx.MultiDiGraph:
    """A kg graph with about ``n_nodes`` paper and concept nodes (a quarter of them papers).

    Papers mention ``per_paper`` concepts, mostly from their own topic, so communities
    form; a few cite each other. ``abstract`` replaces the first paper's abstract.
    """
    rng = random.Random(seed)
    n_papers = max(2, n_nodes // 4)
    n_concepts = max(2, n_nodes - n_papers)
    concepts = {}
    for j in range(n_concepts):
        name = f"{WORDS[j % len(WORDS)]} {WORDS[(j * 7 + 3) % len(WORDS)]} {j}"
        concepts[f"c:{name}"] = Concept(id=f"c:{name}", name=name, aliases=(name.upper(),))
    concept_ids = sorted(concepts)
    by_topic = [concept_ids[t::topics] for t in range(topics)]
    papers, mentions = [], []
    for i in range(n_papers):
        topic = i % topics
        pid = f"P{i:05d}"
        refs = tuple(f"P{rng.randrange(n_papers):05d}" for _ in range(2)) if i % 5 == 0 else ()
        text = abstract if (i == 0 and abstract is not None) else (
            f"We study {' '.join(rng.sample(WORDS, 6))} for topic {topic}. " * 3)
        papers.append(Paper(id=pid, abstract=text, title=f"Paper {i}: {' '.join(rng.sample(WORDS, 4))}",
                            year=2000 + i % 24, venue=f"Venue {topic}", authors=(f"Author {i % 97}",),
                            references=refs))
        pool = by_topic[topic]
        chosen: list[str] = []
        # half the concepts from the head of the topic (shared), half anywhere in it (rare)
        while len(chosen) < min(per_paper, len(pool)):
            cid = pool[min(int(rng.paretovariate(1.2)) - 1, len(pool) - 1)] if len(chosen) % 2 == 0 \
                else rng.choice(pool if rng.random() < 0.9 else concept_ids)
            if cid not in chosen:
                chosen.append(cid)
        for rank, cid in enumerate(chosen, 1):
            mentions.append(Mention(pid, cid, round(1.0 - rank / (per_paper + 2), 3), rank, concepts[cid].name))
    used = {m.concept_id for m in mentions}
    for j, cid in enumerate(c for c in concept_ids if c not in used):  # every concept gets a paper
        topic = concept_ids.index(cid) % topics
        pid = papers[(topic + topics * rng.randrange(max(1, (n_papers - topic) // topics))) % n_papers].id
        mentions.append(Mention(pid, cid, 0.1, per_paper + 1 + j, concepts[cid].name))
    return build_graph(papers, concepts, mentions, related_top_k=8)


def map_metrics(data: dict, *, k: int = 10, seed: int = 0) -> dict:
    """How well a page's drawing reads as a map, from its data block alone.

    ``isolated``: share of drawn nodes with no drawn edge; ``agreement``: mean share
    of each node's ``k`` nearest on-screen neighbours (by position) that are in its
    community; ``baseline``: the same with the communities shuffled (what a layout
    that ignores communities scores).
    """
    import numpy as np

    nodes = data["nodes"]
    n = len(nodes)
    linked = set()
    for edge in data["edges"]:
        linked.update(edge[:2])
    xy = np.array([[node["x"], node["y"]] for node in nodes], dtype=float).reshape(-1, 2)
    community = np.array([node["community"] for node in nodes])
    k = min(k, n - 1)
    if k < 1:
        return {"nodes": n, "isolated": 0.0, "agreement": 1.0, "baseline": 1.0}
    near = np.empty((n, k), dtype=int)
    for start in range(0, n, 1000):  # blocks keep the distance matrix small
        block = xy[start:start + 1000]
        dist = ((block[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2)
        dist[np.arange(len(block)), np.arange(start, start + len(block))] = np.inf
        near[start:start + len(block)] = np.argsort(dist, axis=1, kind="stable")[:, :k]

    def agree(labels):
        return float((labels[near] == labels[:, None]).mean())

    shuffled = np.random.default_rng(seed).permutation(community)
    return {"nodes": n, "isolated": round(1 - len(linked) / n, 4), "agreement": round(agree(community), 4),
            "baseline": round(agree(shuffled), 4)}
