"""Concept trends per year and Kleinberg burst detection, when papers have years.

Burst detection follows Kleinberg (2002, "Bursty and hierarchical structure in
streams", §4, the enumerating model for batches): in year *t*, *r_t* of the *d_t*
papers mention the concept. A two-state automaton emits each paper as relevant with
probability ``p0 = Σr / Σd`` in the base state and ``p1 = s · p0`` in the burst state;
the cost of year *t* in state *i* is ``−ln(p_i^r_t (1 − p_i)^(d_t − r_t))`` (the binomial
coefficient is the same in both states and left out), entering the burst state costs
``γ · ln n`` for *n* years, leaving it is free. The cheapest state sequence (Viterbi)
marks the bursts; a burst's weight is the cost it saves, ``Σ_t cost₀(t) − cost₁(t)``
over its years. Only years in which at least one paper appeared count as steps.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import networkx as nx

__all__ = ["MIN_TREND_PAPERS", "papers_per_year", "concept_trends", "sparse_years", "kleinberg_bursts", "concept_bursts"]


def papers_per_year(graph: nx.MultiDiGraph) -> dict[int, int]:
    """Number of papers per year, sorted by year; papers without a year are left out."""
    counts = Counter(d["year"] for _, d in graph.nodes(data=True)
                     if d.get("kind") == "paper" and isinstance(d.get("year"), int))
    return dict(sorted(counts.items()))


def _yearly_mentions(graph: nx.MultiDiGraph, concept: str) -> Counter:
    counts: Counter = Counter()
    for paper, _, key in graph.in_edges(concept, keys=True):
        year = graph.nodes[paper].get("year")
        if key == "mentions" and isinstance(year, int):
            counts[year] += 1
    return counts


def concept_trends(graph: nx.MultiDiGraph, concepts: Sequence[str]) -> dict:
    """Papers per year mentioning each of ``concepts``.

    Returns
    -------
    dict
        ``{"years": [...], "papers": [...], "concepts": [{"id", "counts"}]}`` with one
        count per year in ``years`` (every year with at least one paper).
    """
    totals = papers_per_year(graph)
    years = list(totals)
    rows = []
    for concept in concepts:
        counts = _yearly_mentions(graph, concept)
        rows.append({"id": concept, "counts": [counts.get(y, 0) for y in years]})
    return {"years": years, "papers": [totals[y] for y in years], "concepts": rows}


def _cost(r: int, d: int, p: float) -> float:
    return -(r * math.log(p) + (d - r) * math.log(1 - p))


def kleinberg_bursts(counts: Sequence[int], totals: Sequence[int], *, s: float = 2.0,
                     gamma: float = 1.0) -> list[dict]:
    """Bursts of a two-state Kleinberg automaton over batches of documents.

    Parameters
    ----------
    counts : sequence of int
        Relevant documents per step (papers mentioning the concept in each year).
    totals : sequence of int
        All documents per step; every value positive and at least ``counts``.
    s : float
        Burst rate multiplier (``p1 = s · p0``, capped just below 1).
    gamma : float
        Cost of entering the burst state, in units of ``ln n``.

    Returns
    -------
    list of dict
        ``{"start", "end", "weight"}`` with ``start``/``end`` the first and last step
        index of each burst (inclusive), in order.

    Examples
    --------
    >>> kleinberg_bursts([1, 1, 8, 9, 1], [10, 10, 10, 10, 10])
    [{'start': 2, 'end': 3, 'weight': 8.4877}]
    """
    n = len(totals)
    if n != len(counts):
        raise ValueError("counts and totals must have the same length")
    if n == 0 or sum(counts) == 0:
        return []
    p0 = sum(counts) / sum(totals)
    p1 = min(s * p0, 1 - 1e-9)
    if p1 <= p0:
        return []
    enter = gamma * math.log(n) if n > 1 else gamma
    cost = [(_cost(r, d, p0), _cost(r, d, p1)) for r, d in zip(counts, totals)]
    # Viterbi from the base state: best[i] = cheapest total ending in state i
    best = [cost[0][0], enter + cost[0][1]]
    back: list[tuple[int, int]] = []
    for c0, c1 in cost[1:]:
        from0 = (best[0], best[1])  # into state 0 from state 0 or 1 (leaving is free)
        from1 = (best[0] + enter, best[1])
        prev0 = 0 if from0[0] <= from0[1] else 1
        prev1 = 0 if from1[0] < from1[1] else 1
        back.append((prev0, prev1))
        best = [from0[prev0] + c0, from1[prev1] + c1]
    state = 0 if best[0] <= best[1] else 1
    states = [state]
    for prev in reversed(back):
        state = prev[state]
        states.append(state)
    states.reverse()
    bursts = []
    t = 0
    while t < n:
        if states[t] == 1:
            start = t
            while t + 1 < n and states[t + 1] == 1:
                t += 1
            weight = sum(cost[i][0] - cost[i][1] for i in range(start, t + 1))
            bursts.append({"start": start, "end": t, "weight": round(weight, 4)})
        t += 1
    return bursts


def concept_bursts(graph: nx.MultiDiGraph, *, min_papers: int = 5, s: float = 2.0, gamma: float = 1.0,
                   top: int | None = None) -> list[dict]:
    """Bursts of every concept mentioned by at least ``min_papers`` dated papers.

    Returns
    -------
    list of dict
        ``{"id", "start", "end", "weight", "papers"}`` with years as ``start``/``end``
        and ``papers`` the concept's dated papers inside the burst; strongest first
        (ties by id, then start).
    """
    totals = papers_per_year(graph)
    years = list(totals)
    if len(years) < 2:
        return []
    rows = []
    for concept, data in graph.nodes(data=True):
        if data.get("kind") != "concept" or data.get("papers", 0) < min_papers:
            continue
        per_year = _yearly_mentions(graph, concept)
        if sum(per_year.values()) < min_papers:
            continue
        counts = [per_year.get(y, 0) for y in years]
        for burst in kleinberg_bursts(counts, [totals[y] for y in years], s=s, gamma=gamma):
            rows.append({"id": concept, "start": years[burst["start"]], "end": years[burst["end"]],
                         "weight": burst["weight"],
                         "papers": sum(counts[burst["start"]:burst["end"] + 1])})
    rows.sort(key=lambda r: (-r["weight"], r["id"], r["start"]))
    return rows[:top] if top is not None else rows


#: Years with fewer papers are left out of trend charts: a share of a handful of papers is noise.
MIN_TREND_PAPERS = 10


def sparse_years(trends: dict, min_papers: int = MIN_TREND_PAPERS) -> list[int]:
    """The years of ``trends`` (:func:`concept_trends`) with fewer than ``min_papers`` papers.

    Examples
    --------
    >>> sparse_years({"years": [2001, 2002, 2003], "papers": [2, 40, 9]}, 10)
    [2001, 2003]
    """
    return [year for year, n in zip(trends["years"], trends["papers"]) if n < min_papers]
