"""Structural gaps: clusters of concepts close in meaning but rarely linked, and concepts that should have met.

The concepts of the papers up to a cut-off year (:func:`kg.analyze.cooccurrence.concept_window`)
fall into clusters (Louvain on their co-occurrence counts). Two clusters make a **gap** when
they are close in meaning (the cosine of their mean concept vectors; without vectors, of their
co-occurrence profiles: linked to the same third concepts) and yet rarely mentioned together:
the papers linking them are fewer than the clusters' sizes lead one to expect (``link ratio``:
observed co-occurrence weight between them over ``s_a s_b / 2m``, as in modularity, below 1).
Gaps are ranked by closeness alone: a lower link ratio does not make a gap likelier to be
bridged; on ACM-CR it makes it less likely (links between clusters persist: the Spearman
correlation of link ratio with the share bridged in the next 3 years is +0.33 to +0.46 at
2011/2014/2016, so the former score ``closeness × (1 − link ratio)`` picked the gaps least bridged).
Each gap lists the concepts that bridge it (co-occurring with both clusters) and the papers that
already do (mentioning concepts of both). Inside one cluster, **concept gaps** are pairs no paper
mentions together that are closest in meaning, two wordings of one idea set aside
(:func:`kg.analyze.cooccurrence.synonym_pairs`); with the texts' names (``named``,
:func:`kg.analyze.textnames.text_names`), the pairs some abstract up to the cut-off already names together, though
no paper links both, come first, closest in meaning first among them. Measured with :func:`gap_backtest` on ACM-CR
(the build bench's cold build of round twenty-one, H = 3, seed 42), the share of the top 100 concept gaps linked in
the horizon: at 2012 / 2013 / 2015, where the rule was chosen, 0% / 1% / 2% → 4% / 3% / 5% (8.3× / 6.2× / 14.1×
the rate of every unlinked pair inside clusters); then at 2014 / 2011 / 2016 2% / 2% / 1% → 4% / 4% / 3% (5.2× →
10.5×, 3.1× → 6.2×, 3.1× → 9.4×); on hep-th (H = 2) at 1999 / 2001 4% / 2% → 8% / 3%, at 2000 3% → 7% (10.8× →
25.1×). Ranking by the count of abstracts naming both instead was as good on average but less steady (9% / 11% / 2%
at 2012 / 2013 / 2015).

:func:`gap_backtest` checks the gaps found at a past cut-off against what happened: the share of
a gap's unlinked concept pairs that papers of the next ``horizon`` years linked, against the
cluster pairs most alike in size (and, for concept gaps, against all unlinked pairs inside
clusters); it reports the ratio.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import numpy as np

from kg.analyze.cooccurrence import (MIN_PAPERS, Window, aligned_vectors, check_counts, check_until,
                                     cluster_labels, concept_window, future_pairs, name_overlap, synonym_pairs)
from kg.analyze.textnames import naming_incidence
from kg.defaults import SEED

__all__ = ["concept_gaps", "gap_backtest", "MIN_CLUSTER"]

MIN_CLUSTER = 5  # concepts a cluster needs to take part in a gap
DRAWS = 20  # random pairs of concept sets per gap in the backtest
LIKE_SIZED = 5  # cluster pairs closest in size to a gap: its baseline in the backtest
CONCEPT_GRADED = 100  # concept gaps the backtest grades (ten are too few to tell a rate)


def _closeness(window: Window, member: np.ndarray, vectors: np.ndarray | None) -> tuple[np.ndarray, str]:
    if vectors is not None and vectors.shape[1] and np.abs(vectors).sum() > 0:
        centroids = member.T @ vectors
        basis = "concept vectors"
    else:
        centroids = np.asarray((window.cooc @ member).T, dtype=np.float64)  # cooc is symmetric
        basis = "co-occurrence profiles"
    norms = np.linalg.norm(centroids, axis=1, keepdims=True)
    centroids = np.divide(centroids, norms, out=np.zeros_like(centroids), where=norms > 0)
    return centroids @ centroids.T, basis


def _found(papers, until: int | None, horizon: int, *, backtest: bool, min_papers: int, seed: int,
           vectors) -> tuple[Window, np.ndarray | None, int]:
    until = check_until(papers, until, horizon, backtest=backtest)
    past = [p for p in papers if p[1] <= until]  # nothing after the cut-off goes further than this line
    window = concept_window(past, until, min_papers=min_papers, seed=seed)
    return window, aligned_vectors(window, vectors), until


def _gaps(window: Window, vectors: np.ndarray | None, *, top: int, min_size: int,
          names: Mapping[str, str], together: np.ndarray | None = None) -> dict:
    n = window.size
    k = int(window.cluster.max()) + 1 if n else 0
    member = np.zeros((n, k))
    member[np.arange(n), window.cluster] = 1.0
    cooc = window.cooc
    between = np.asarray((member.T @ (cooc @ member)), dtype=np.float64)
    strength = between.sum(axis=1)
    total = strength.sum()
    sizes = member.sum(axis=0).astype(int)
    closeness, basis = _closeness(window, member, vectors)
    labels = cluster_labels(window, names)
    to_cluster = np.asarray(cooc @ member)  # each concept's co-occurrence weight with each cluster
    rows = []
    for a in range(k):
        for b in range(a + 1, k):
            if sizes[a] < min_size or sizes[b] < min_size or total == 0:
                continue
            expected = strength[a] * strength[b] / total
            ratio = between[a, b] / expected if expected > 0 else 0.0
            ratio = float(ratio)
            score = float(closeness[a, b])
            if ratio < 1.0 and score > 0:  # under-linked for their sizes: ranked by closeness alone (see the module)
                rows.append((score, a, b, float(ratio)))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    clusters = [{"id": c, "size": int(sizes[c]), "label": labels[c]} for c in range(k)]
    gaps = [_community_gap(window, to_cluster, a, b, score, ratio, float(closeness[a, b]), int(between[a, b]),
                           labels, names) for score, a, b, ratio in rows[:top]]
    return {"clusters": clusters, "community_gaps": gaps, "basis": basis,
            "concept_gaps": _concept_gaps(window, vectors, top=top, min_size=min_size, labels=labels, names=names,
                                          together=together)}


def _community_gap(window: Window, to_cluster: np.ndarray, a: int, b: int, score: float, ratio: float,
                   closeness: float, links: int, labels: Sequence[str], names: Mapping[str, str]) -> dict:
    concepts = window.concepts
    bridge = np.minimum(to_cluster[:, a], to_cluster[:, b])
    order = [int(x) for x in np.lexsort((np.arange(len(bridge)), -bridge))[:5] if bridge[x] > 0]
    papers = []
    for pid, year, at in window.papers:
        in_a = sum(1 for x in at if window.cluster[x] == a)
        in_b = sum(1 for x in at if window.cluster[x] == b)
        if in_a and in_b:
            papers.append((min(in_a, in_b), in_a + in_b, year, pid))
    papers.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
    return {
        "source": {"id": a, "label": labels[a], "size": int((window.cluster == a).sum())},
        "target": {"id": b, "label": labels[b], "size": int((window.cluster == b).sum())},
        "score": round(score, 4), "closeness": round(closeness, 4), "link_ratio": round(ratio, 4),
        "links": links,
        "bridging_concepts": [{"id": concepts[x], "name": names.get(concepts[x], concepts[x]),
                               "with_source": int(to_cluster[x, a]), "with_target": int(to_cluster[x, b])}
                              for x in order],
        "bridging_papers": [{"id": pid, "title": names.get(pid, pid), "year": year} for _, _, year, pid in papers[:3]],
        "bridging_paper_count": len(papers),
    }


def _together(window: Window, named: Mapping[str, Sequence[str]] | None) -> np.ndarray | None:
    """Dense matrix of the window's papers (all up to its cut-off) whose text names both concepts, or None."""
    if named is None:
        return None
    incidence = naming_incidence([pid for pid, _, _ in window.papers], named, window.index)
    return np.asarray((incidence.T @ incidence).todense())


def _concept_gaps(window: Window, vectors: np.ndarray | None, *, top: int, min_size: int,
                  labels: Sequence[str], names: Mapping[str, str], together: np.ndarray | None = None) -> list[dict]:
    """Inside each cluster, unlinked concept pairs closest in meaning (vectors) or in use (shared partners); with
    ``together`` (papers whose text names both), the pairs some abstract already names together come first."""
    concepts = window.concepts
    adjacency = window.adjacency()
    overlap = name_overlap(concepts)
    found = []
    for c in range(len(labels)):
        members = np.flatnonzero(window.cluster == c)
        if len(members) < min_size:
            continue
        sub = adjacency[np.ix_(members, members)]
        if vectors is not None and vectors.shape[1]:
            close = vectors[members] @ vectors[members].T
        else:
            common = sub @ sub
            degree = sub.sum(axis=1)
            union = degree[:, None] + degree[None, :] - common
            close = np.divide(common, union, out=np.zeros_like(common), where=union > 0)
        upper = np.triu(sub == 0, k=1) & ~synonym_pairs(overlap[np.ix_(members, members)],
                                                        close if vectors is not None and vectors.shape[1] else None)
        scores = np.where(upper, close, -np.inf).ravel()
        named = ((together[np.ix_(members, members)] > 0).ravel() & np.isfinite(scores) if together is not None
                 else np.zeros(scores.size, dtype=bool))  # of the unlinked pairs (a linked pair's papers name both)
        best = np.lexsort((-scores, ~named))[:top]  # named together first, then closest
        for at in best.tolist():
            if np.isfinite(scores[at]):
                p, q = divmod(at, len(members))
                found.append((not named[at], -float(scores[at]), concepts[members[p]], concepts[members[q]], c))
    found.sort()
    keep = found[:top]
    index = window.index
    rows = []
    for _, neg, a, b, c in keep:
        i, j = index[a], index[b]
        shared = np.flatnonzero((adjacency[i] > 0) & (adjacency[j] > 0))
        shared = sorted(shared.tolist(), key=lambda s: (-window.counts[s], concepts[s]))[:5]
        rows.append({"source": a, "target": b, "source_name": names.get(a, a), "target_name": names.get(b, b),
                     "cluster": {"id": c, "label": labels[c]}, "closeness": round(-neg, 4),
                     "shared_neighbours": [{"id": concepts[s], "name": names.get(concepts[s], concepts[s])}
                                           for s in shared],
                     "named_together": int(together[i, j]) if together is not None else None})
    return rows


def concept_gaps(papers: Sequence[tuple[str, int, Sequence[str]]], *, until: int | None = None, top: int = 10,
                 min_size: int = MIN_CLUSTER, min_papers: int = MIN_PAPERS, seed: int = SEED,
                 vectors: tuple[Sequence[str], np.ndarray] | None = None,
                 names: Mapping[str, str] | None = None, named: Mapping[str, Sequence[str]] | None = None) -> dict:
    """Gaps between concept clusters, and inside them, as of ``until`` (default: the last year).

    Parameters
    ----------
    papers : sequence of (paper id, year, concept ids)
        :func:`kg.analyze.cooccurrence.dated_mentions` of a graph; papers after ``until`` are ignored.
    top : int
        Gaps of each kind returned.
    min_size : int
        Concepts a cluster needs to take part.
    vectors : (ids, matrix), optional
        Concept vectors: closeness in meaning. Without them, closeness in use.
    named : mapping, optional
        Paper id -> the concepts its title and abstract name, linked or not
        (:func:`kg.analyze.textnames.text_names`): the concept gaps some abstract up to ``until`` already names
        together come first.

    Returns
    -------
    dict
        ``parameters``, ``clusters`` (``{"id", "size", "label"}``), ``community_gaps`` (cluster
        pairs: ``source``, ``target``, ``score``, ``closeness``, ``link_ratio``, ``links``,
        ``bridging_concepts``, ``bridging_papers``), ``concept_gaps`` (pairs inside a cluster).
    """
    started = time.perf_counter()
    check_counts(top=top, min_size=min_size)
    window, aligned, until = _found(papers, until, 1, backtest=False, min_papers=min_papers, seed=seed,
                                    vectors=vectors)
    found = _gaps(window, aligned, top=top, min_size=min_size, names=names or {}, together=_together(window, named))
    return {"parameters": {"until": until, "min_size": min_size, "min_papers": min_papers, "seed": seed,
                           "closeness": found.pop("basis"), "named": named is not None},
            **found, "seconds": round(time.perf_counter() - started, 2)}


def _rate(truth: np.ndarray, linked: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """(pairs of ``a`` × ``b`` unlinked at the cut-off, of those linked in the horizon); ``truth`` symmetric."""
    unlinked = linked[np.ix_(a, b)] == 0
    met = truth[np.ix_(a, b)]
    return int(unlinked.sum()), int((met & unlinked).sum())


def gap_backtest(papers: Sequence[tuple[str, int, Sequence[str]]], *, until: int, horizon: int = 3, top: int = 10,
                 min_size: int = MIN_CLUSTER, min_papers: int = MIN_PAPERS, draws: int = DRAWS, seed: int = SEED,
                 vectors: tuple[Sequence[str], np.ndarray] | None = None,
                 names: Mapping[str, str] | None = None, named: Mapping[str, Sequence[str]] | None = None) -> dict:
    """The gaps found at ``until`` checked against the papers of ``until + 1 … until + horizon``.

    Returns
    -------
    dict
        ``parameters``; ``community_gaps``: per gap the unlinked pairs between its clusters and
        how many were linked; ``rows``: bridged share of the gaps, of the cluster pairs most alike in
        size (``LIKE_SIZED`` per gap, the gap left out: the baseline), of random concept sets of the same
        sizes (``draws`` per gap, seeded; they mix pairs from one cluster, which link far more often, so
        they are no fair baseline for pairs of two clusters), of every cluster pair, of the top
        ``CONCEPT_GRADED`` concept gaps and of all unlinked pairs inside clusters, with the ratios
        ``gap_ratio`` (gaps / like-sized cluster pairs) and ``concept_gap_ratio`` (concept gaps / pairs
        inside clusters).
    """
    started = time.perf_counter()
    check_counts(top=top, min_size=min_size)
    window, aligned, until = _found(papers, until, horizon, backtest=True, min_papers=min_papers, seed=seed,
                                    vectors=vectors)
    together = _together(window, named)
    found = _gaps(window, aligned, top=top, min_size=min_size, names=names or {}, together=together)
    upper = future_pairs(papers, window, horizon)  # grading only
    truth = (upper + upper.T).toarray() > 0
    linked = window.adjacency()
    rng = np.random.default_rng(seed)
    everyone = np.arange(window.size)
    k = len(found["clusters"])
    eligible = [(x, y) for x in range(k) for y in range(x + 1, k)
                if found["clusters"][x]["size"] >= min_size and found["clusters"][y]["size"] >= min_size]
    rates = {(x, y): _rate(truth, linked, np.flatnonzero(window.cluster == x), np.flatnonzero(window.cluster == y))
             for x, y in eligible}
    gap_pairs = gap_met = rand_pairs = rand_met = like_pairs = like_met = 0
    graded = []
    for gap in found["community_gaps"]:
        a, b = gap["source"]["id"], gap["target"]["id"]
        pairs, met = rates[(a, b)]
        gap_pairs, gap_met = gap_pairs + pairs, gap_met + met
        graded.append({**gap, "unlinked_pairs": pairs, "bridged_pairs": met})
        # the cluster pairs most alike in size (product of the two sizes), this gap left out
        size = gap["source"]["size"] * gap["target"]["size"]
        sizes = {p: found["clusters"][p[0]]["size"] * found["clusters"][p[1]]["size"] for p in eligible}
        others = sorted((p for p in eligible if p != (a, b)), key=lambda p: (abs(sizes[p] - size), p))
        for pair in others[:LIKE_SIZED]:
            like_pairs, like_met = like_pairs + rates[pair][0], like_met + rates[pair][1]
        ia = np.flatnonzero(window.cluster == a)
        ib = np.flatnonzero(window.cluster == b)
        for _ in range(draws):
            drawn = rng.permutation(everyone)[: len(ia) + len(ib)]
            pairs, met = _rate(truth, linked, np.sort(drawn[: len(ia)]), np.sort(drawn[len(ia):]))
            rand_pairs, rand_met = rand_pairs + pairs, rand_met + met
    all_pairs = sum(r[0] for r in rates.values())
    all_met = sum(r[1] for r in rates.values())
    index = window.index
    concept_graded = _concept_gaps(window, aligned, top=max(top, CONCEPT_GRADED), min_size=min_size,
                                   labels=cluster_labels(window, names), names=names or {}, together=together)
    concept_met = sum(1 for g in concept_graded if truth[index[g["source"]], index[g["target"]]])
    inside_pairs = inside_met = 0
    for c in range(k):
        members = np.flatnonzero(window.cluster == c)
        if len(members) >= min_size:
            pairs, met = _rate(truth, linked, members, members)  # each pair twice, the diagonal once: the share holds
            inside_pairs, inside_met = inside_pairs + pairs - len(members), inside_met + met

    def share(met: int, pairs: int) -> float | None:
        return round(met / pairs, 6) if pairs else None

    gap_share, like_share = share(gap_met, gap_pairs), share(like_met, like_pairs)
    concept_share = share(concept_met, len(concept_graded))
    inside_share = share(inside_met, inside_pairs)
    return {
        "parameters": {"until": until, "horizon": horizon, "top": top, "min_size": min_size, "draws": draws,
                       "like_sized": LIKE_SIZED, "concept_gaps_graded": len(concept_graded), "seed": seed,
                       "closeness": found["basis"], "named": named is not None},
        "community_gaps": graded,
        "concept_gaps": found["concept_gaps"],
        "rows": {"gaps": gap_share, "cluster_pairs_same_sizes": like_share,
                 "random_same_sizes": share(rand_met, rand_pairs), "all_cluster_pairs": share(all_met, all_pairs),
                 "gap_ratio": round(gap_share / like_share, 3) if gap_share is not None and like_share else None,
                 "concept_gaps": concept_share, "pairs_inside_clusters": inside_share,
                 "concept_gap_ratio": (round(concept_share / inside_share, 3)
                                       if concept_share is not None and inside_share else None)},
        "seconds": round(time.perf_counter() - started, 2),
    }
