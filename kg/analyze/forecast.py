"""Which concepts will meet next: link prediction on the concept co-occurrence network, checked on history.

The question (Science4Cast, Krenn et al. 2023): of the concepts no paper has mentioned
together yet, which will a paper of the next ``horizon`` years mention together? kg answers
with a gradient-boosted classifier (scikit-learn's ``HistGradientBoostingClassifier``) over
features of each pair, all computed from the papers published up to the cut-off year ``T``:

* each concept's papers (in all, in the last 3 years, growth against the 3 years before), its
  age, its co-occurrence degree and the partners it gained in the last 3 years;
* the pair's preferential attachment (product of paper counts, in all and recent), common
  neighbours, Adamic–Adar, Jaccard, whether both are in one concept cluster and how densely
  their two clusters are linked, and the cosine of the concept vectors (when given);
* the chance of a two-step random walk on the co-occurrence counts from one concept to the other
  (each way; over all years and over the last 3 only): shared neighbours weighed by how much both
  concepts are written about with them (measured on ACM-CR: precision@1000 +0.02 at 2014);
* two views past the shared neighbours: the paths of length 3 between the two concepts (each through two
  linked middle concepts, weighed by their degrees) and the co-occurrence network rebuilt from its 32 leading
  eigenvectors (two concepts in one dense region score high whether or not they share a neighbour);
* what the papers' texts name together (``named``: :func:`kg.analyze.textnames.text_names`, paper id -> the
  concepts its title and abstract name, linked or not; papers up to the cut-off only): the papers naming both (in
  all and in the last 3 years, and as a cosine of the two concepts' counts), each concept's papers naming it, and
  Adamic–Adar and the two-step walk on the network of concepts named together. A paper links only the few
  concepts its extraction ranked highest; its text names many more, and two concepts written about in one
  abstract, unlinked, are what the next papers link. Measured on ACM-CR (the build bench's cold build of round
  twenty-one) at the cut-offs the README does not report, seed 42: AUC 0.892 / 0.898 / 0.909 → 0.901 / 0.907 /
  0.918 at 2012 / 2013 / 2015, precision@1000 0.121 / 0.110 / 0.095 → 0.127 / 0.127 / 0.105 (seed 1 alike);
  hep-th at 1999 / 2001 (H = 2): AUC 0.889 / 0.894 → 0.900 / 0.908, precision@1000 0.165 / 0.118 → 0.173 /
  0.141. The first three alone (read by the ranker too): AUC 0.896 / 0.902 / 0.913; with the counts and
  Adamic–Adar 0.898 / 0.903 / 0.916; the walk added the rest. The ranker reads them all (read by the classifier
  alone, the same AUC and precision@1000 0.124 / 0.114 / 0.097 against 0.123 / 0.123 / 0.102);
* with concept vectors, how close in meaning each concept is to the other's neighbours: the cosine of one concept's
  vector with the mean vector of the other's co-occurring concepts (each way), and of the two mean vectors, with
  each neighbour counted once and weighed by papers together (measured on ACM-CR, acm-final12, at the cut-offs the
  README does not report: AUC over every candidate pair 0.878 → 0.878 at 2012, 0.884 → 0.891 at 2013, sampled
  AUC 0.927 → 0.928 at 2015, precision@1000 unchanged; the ranker does not read them);
* with the papers' document vectors (papers up to the cut-off only), what each concept's papers are about: the cosine
  of the two concepts' paper centroids (the mean unit vector of the papers mentioning each) and, each way, the
  highest cosine of one concept's paper with the other's centroid. Measured on ACM-CR (acm-base) at the cut-offs the
  README does not report, 2012 / 2013 / 2015, seeds 42 and 1: AUC 0.891 / 0.906 / 0.897 → 0.897 / 0.910 / 0.899 and
  0.867 / 0.868 / 0.878 → 0.880 / 0.869 / 0.887; precision@1000 0.112 / 0.117 / 0.098 → 0.116 / 0.126 / 0.096 and
  0.109 / 0.115 / 0.092 → 0.113 / 0.117 / 0.101. The centroids alone: AUC 0.896 / 0.909 / 0.900, precision@1000
  0.122 / 0.125 / 0.095 at seed 42, AUC lower at 2013 at seed 1; the closest papers alone 0.111 / 0.123 / 0.098;
  adding each concept's spread (the length of its mean paper vector) or the cosine of one concept's name vector with
  the other's centroid did not help (0.114 / 0.125 / 0.100 with all of them), nor the share of one concept's papers
  as close to the other's centroid as the other's own papers are on average (0.110 / 0.125 / 0.093 and 0.109 /
  0.117 / 0.097 at the two seeds, AUC unchanged); the ranker does not read them. At 2014 (README's main case) over
  seeds 42, 1, 2, 3: precision@1000 0.104 → 0.109 on average, higher at each seed; AUC 0.885 → 0.885 on average
  (0.891 → 0.884 at seed 42). On hep-th at 2000: precision@1000 0.163 → 0.157 at seed 42, 0.161 → 0.168 at
  seed 1 (AUC up at both).

The model (trees of 7 leaves) learns on three earlier windows, features at ``T - horizon``, ``T - horizon - 1`` and
``T - horizon - 2`` and as labels the pairs the papers of the ``horizon`` years after each mention
together (never a paper after ``T``), non-links drawn half with a common neighbour, half without,
and weighted back to their share; it is then applied to the features at ``T``. Above
``SHORTLIST_FROM`` candidate pairs it scores, for the ranking, a shortlist (pairs with a common
neighbour, at most ``SHORTLIST_MOST`` of the highest Adamic–Adar, and the ``CLOSEST`` closest in
meaning); the backtest scores its AUC sample in full and counts the sampled pairs the shortlist
missed. With ``RERANK_FROM`` scored pairs or more, a listwise ranker (LightGBM's ``rank_xendcg``, learned from
the same training windows) reorders the classifier's best ``RERANK`` pairs, which stay above all others: it
learns what puts a new link at the very top, where precision at 1,000 is measured (measured on ACM-CR:
precision@1000 +0.014 to +0.018 at 2011, 2014 and 2016, AUC unchanged). Each window gives it one query, the
window's ``QUERY`` pairs of highest Adamic–Adar among those sharing a neighbour, where the pool it reorders lies
at ``T`` (measured on ACM-CR, acm-base, against random queries of the classifier's training pairs: precision@1000
0.097 → 0.106 at 2014, 0.090 → 0.086 at 2011, 0.098 → 0.097 at 2016, hep-th 2000 0.153 → 0.152; precision@100
up at all but 2011; the ranker learns in 4 CPU s instead of 19 at 2014). The pool's order blends the ranker's
rank with half the pair's Adamic–Adar rank (``ADAMIC_ADAR_WEIGHT``): the models learn from years whose growth
patterns need not hold at ``T``; Adamic–Adar reads only the pair's shared neighbours (measured on ACM-CR,
acm-final10: precision@1000 at 2014 0.069 → 0.087, 2011 unchanged, 2016 0.091 → 0.097; hep-th 2000 0.175 →
0.178); and with a quarter of the classifier's rank (``CLASSIFIER_WEIGHT``), which brings back what the ranker
does not read (the neighbourhoods in meaning, the pairs outside its queries). Each pair's ``score`` stays the
classifier's chance. Pairs that are two wordings of one idea
(:func:`kg.analyze.cooccurrence.synonym_pairs`) are not listed. Nothing published after ``T`` is read (:func:`forecast` drops those papers first), so
a forecast made at a past ``T`` can be checked against what happened: :func:`backtest` does so
with the protocol of ``bench/bench_forecast.py`` (AUC on a seeded sample of candidate pairs,
precision at 100 and 1,000 among all candidate pairs), for kg and the baselines
(preferential attachment, Adamic–Adar, common neighbours, concept-vector cosine) in the same run.

Each predicted pair comes with its evidence: shared neighbours, both concepts' growth, the
clusters the link would bridge, and the papers nearest to both (papers mentioning one
concept and most of the other's neighbours).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import linalg, sparse
from scipy.stats import rankdata

from kg.analyze.cooccurrence import (MIN_PAPERS, SPAN, Window, aligned_vectors, check_counts, check_until,
                                     cluster_labels, concept_window, future_pairs, name_overlap, synonym_pairs)
from kg.analyze.textnames import naming_incidence
from kg.defaults import SEED
from kg.errors import OptionError

__all__ = ["forecast", "backtest", "near_synonyms", "FEATURES", "HORIZON", "METHODS", "SAMPLE"]

HORIZON = 3  # years ahead (Science4Cast's horizon)
# candidate pairs in the AUC sample: all of them up to 2 million (ACM-CR at every cut-off), a seeded sample above
# (hep-th at 2000: 2 of 7 million). The protocol asks for 100,000 or more; at a base rate of 0.1% that many hold
# about 120 new links, and the AUC moved with the sample: on ACM-CR (acm-base of 2026-12-03) at 2014, seeds 42, 1,
# 2 and 3 gave 0.903 / 0.912 / 0.886 / 0.909 on 100,000 pairs and 0.903 / 0.902 / 0.902 / 0.902 on all 1.1 million
SAMPLE = 2_000_000
TRAIN_ROWS = 150_000  # most pairs the model learns from per window (every new link, then non-links at random)
WINDOWS = 3  # earlier years the model learns from: T-H, T-H-1, T-H-2 (each with its next H years, all up to T)
# What the features can tell at all: on ACM-CR at 2011 (the build bench's cold build of round thirty-one), the same
# classifier cross-validated on the test window's own pairs and labels (two folds; it learns from what happened after
# T, which no forecast may) reaches AUC 0.893 / 0.907, 0.900 on average, where the forecast, learning from the earlier
# windows, gets 0.890-0.891: at 2011 the features, not the training, hold the AUC under 0.90. Four features of who
# wrote on the concepts (authors who wrote on both, Adamic-Adar over those authors, the recent ones among them, the
# rarer concept's authors: the "human-aware" signal of Sourati and Evans, Nature Human Behaviour 2023) moved neither
# (cross-validated 0.896 / 0.909; the forecast 0.890-0.891 at 2011, 0.904 at 2014, 0.914 at 2016): not kept. Nor the
# venue series the concepts were published in (round thirty-three: the cosine of their paper counts per series, the
# series carrying both; 2011 0.892-0.894 against 0.893, 2014 0.906-0.907 against 0.907), nor (round thirty-four,
# bench37's build, seeds 42 and 1) where each concept's papers moved in meaning: the cosine of the two concepts' centroids
# of the last 3 years' papers, and each way how much closer one concept's recent papers are to the other's centroid than
# its earlier papers were (AUC 0.891 / 0.906 against 0.891 / 0.906 at 2011 / 2014, precision@1000 0.102 / 0.110
# against 0.104 / 0.111); nor learning from five windows instead of three (0.892 / 0.907; precision@1000 at 2011 0.098);
# nor (round forty-nine, bench63's build, seed 42) each feature read as its percentile among 20,000 random candidate
# pairs of its own window, so that counts of a smaller, earlier corpus and of T's mean alike to the classifier: AUC
# 0.890 / 0.908 against 0.891 / 0.907 at 2011 / 2014, precision@1000 0.098 / 0.118 against 0.100 / 0.115
SHORTLIST_FROM = 1_000_000  # candidate pairs above which only the shortlist is scored for the ranking
SHORTLIST_MOST = 2_000_000  # most pairs sharing a neighbour on the shortlist (hep-th at 2000: 27 of 43 million)
CLOSEST = 100_000  # pairs closest in meaning always on the shortlist
KS = (100, 1000)
METHODS = ("kg forecast", "preferential attachment", "Adamic–Adar", "common neighbours", "concept-vector cosine")
FEATURES = ("papers_lo", "papers_hi", "recent_lo", "recent_hi", "growth_lo", "growth_hi", "age_lo", "age_hi",
            "degree_lo", "degree_hi", "new_partners_lo", "new_partners_hi", "last_year_lo", "last_year_hi",
            "preferential", "recent_preferential", "common", "adamic_adar", "jaccard", "same_cluster",
            "cluster_density", "cosine", "shared_words", "walk_hi", "walk_lo", "recent_walk_hi", "recent_walk_lo",
            "paths3", "spectral", "text_together", "text_recent", "text_cosine", "text_papers_lo",
            "text_papers_hi", "text_adamic_adar", "text_walk_hi", "text_walk_lo", "toward_lo", "toward_hi",
            "neighbourhoods", "toward_weighted_lo", "toward_weighted_hi", "neighbourhoods_weighted", "paper_centroids",
            "closest_paper_lo", "closest_paper_hi")
_CHUNK = 1_000_000  # candidate pairs scored at once
_PAPER_BLOCK = 2048  # papers whose cosines with every concept's paper centroid are held at once
_FLOOR = 1e-6  # added to a walk probability before its logarithm (pairs no two steps join)
# the co-occurrence network's leading eigenvectors kept in the spectral feature. Measured on ACM-CR (acm-base, with
# the paths of length 3): precision@1000 0.098 → 0.102 at 2014, 0.113 → 0.110 at 2011, 0.115 → 0.128 at 2016,
# hep-th 2000 0.169 → 0.175; AUC 0.906 → 0.904, 0.876 → 0.880, 0.884 → 0.891, 0.897 → 0.908 (runs differing only
# in the eigensolver's last digits gave 0.110 / 0.119 / 0.121: the top 1,000 moves by about 0.01). The paths of
# length 3 alone: 0.096 / 0.108 / 0.114 (not kept alone)
SPECTRAL_RANK = 32
# 200 trees at a slow learning rate: measured on ACM-CR (acm-final, 3 cut-offs) precision@1000 0.147 → 0.166 at 2014,
# 0.135 → 0.160 at 2016, 0.168 → 0.205 at 2011 against 60 trees at 0.15; the shortlist keeps the scoring affordable
# 7 leaves a tree (31 before): measured on ACM-CR (acm-final12) at cut-offs the README does not report (2012, 2013,
# 2015), AUC over every candidate pair 0.873 → 0.878 at 2012 and 0.880 → 0.884 at 2013, sampled 0.927 → 0.927 at
# 2015, precision@1000 0.114 → 0.117, 0.103 → 0.104, 0.086 → 0.086: smaller trees learn less of what held only in
# the training years (400 trees of 31 leaves: AUC 0.867 and 0.875)
MODEL = {"max_iter": 200, "learning_rate": 0.05, "max_leaf_nodes": 7, "l2_regularization": 1.0,
         "early_stopping": False}
MIN_LEAF = 20
# the ranker: LightGBM's listwise rank_xendcg (a softmax cross-entropy over each query: it learns what puts a new link
# at the very top) reorders the classifier's best RERANK pairs. Measured on ACM-CR (acm-r6, 3 cut-offs, pairs cached,
# then with random queries of the training pairs): precision@1000 0.107 → 0.121 at 2014, 0.113 → 0.131 at 2016,
# 0.106 → 0.123 at 2011; the AUC is the classifier's. 250 rounds at 0.08: as good as 400 at 0.05 (0.122 / 0.129 /
# 0.120) in 15 CPU s per cut-off instead of 24
RANKER = {"objective": "rank_xendcg", "learning_rate": 0.08, "num_leaves": 31, "lambda_l2": 1.0, "num_threads": 1,
          "deterministic": True, "verbose": -1}
RANKER_ROUNDS = 250
# the ranker reads the features up to "spectral" and what the texts name together, not the neighbourhoods in meaning
# after them: with them the classifier's AUC rose (module notes) and the ranker's precision@1000 fell at 2012
# (0.116 → 0.110, acm-final12);
# nor the paper-vector features: with them, measured on ACM-CR (acm-base) at 2012 / 2013 / 2015, precision@1000
# 0.116 / 0.126 / 0.096 → 0.108 / 0.123 / 0.102 and precision@100 0.22 / 0.23 / 0.17 → 0.20 / 0.18 / 0.17
RANKED = FEATURES.index("text_walk_lo") + 1
RERANK = 5000
# the pool's order: the ranker's rank plus half the pair's Adamic–Adar rank within the pool. Both models learn from
# the years before T - H, and what made concepts grow then need not hold at T: on ACM-CR's build of 2026-12
# (acm-final10) the ranker alone filled the top 1,000 at 2014 with young concepts of one workshop venue (WWW
# companion, from 2012: "social machine" in 66 pairs, none met). Measured there (pairs cached, one fit per cut-off):
# precision@1000 0.069 → 0.087 at 2014, 0.089 → 0.089 at 2011, 0.091 → 0.097 at 2016 (weight 1: 0.091 / 0.084 /
# 0.095; a ranker over the pair features alone: 0.086 / 0.080 / 0.089); hep-th 2000: 0.175 → 0.178
ADAMIC_ADAR_WEIGHT = 0.5
# and a quarter of the classifier's own rank within the pool: the ranker learns from each window's Adamic–Adar top
# alone and reads neither the neighbourhoods in meaning nor what the classifier learned from the other pairs.
# Measured on ACM-CR (acm-base) at the cut-offs the README does not report, classifier and ranker unchanged:
# precision@1000 0.101 → 0.112 at 2012, 0.117 → 0.117 at 2013, 0.095 → 0.098 at 2015; precision@100 0.21 → 0.26,
# 0.24 → 0.25, 0.19 → 0.17; weights 0.15, 0.35 and 0.5 gave 0.108 / 0.114 / 0.098, 0.111 / 0.119 / 0.100 and
# 0.107 / 0.119 / 0.095 (higher on average than none at each). At the README's cut-offs (bench_forecast.py, acm-base
# and hep-base): 0.106 → 0.105 at 2014, 0.086 → 0.085 at 2011, 0.097 → 0.099 at 2016, hep-th 2000 0.152 → 0.163
# (1.20× → 1.28× Adamic–Adar); AUC unchanged. On ACM-CR within the 0.01 that near-identical runs move
CLASSIFIER_WEIGHT = 0.25
RERANK_FROM = 100_000  # scored pairs below which the classifier's order stands (the pool would be over 5% of them)
# the ranker's query per training window: its QUERY pairs of highest Adamic–Adar among those sharing a neighbour (at T
# the pool it reorders, the classifier's best, all share neighbours), labelled by the window's next H years; at most
# LightGBM's 10,000. Against random queries of at most 10,000 of the classifier's training pairs, measured on ACM-CR
# (acm-base, bench_forecast.py): precision@1000 0.097 → 0.106 at 2014 (1.28× → 1.39× Adamic–Adar), 0.090 → 0.086 at
# 2011, 0.098 → 0.097 at 2016; at 2012 / 2013 / 2015 0.110 → 0.101, 0.112 → 0.117, 0.093 → 0.095; hep-th (hep-base)
# 2000: 0.153 → 0.152; precision@100 0.15 → 0.20 at 2014, up at 6 of the 7 cut-offs (0.16 → 0.14 at 2011); AUC
# unchanged. At 2014 over five seeds of the whole forecast (42, 1–4): 0.093 → 0.106 on average, higher at each. The
# ranker learns in 4 CPU s instead of 19 at 2014, 3 instead of 9 at 2011. Three rankers of seeds 42, 43, 44 averaged
# by rank: 0.104 / 0.084 / 0.100, 0.106 / 0.115 / 0.093, hep-th 0.155, and no narrower spread over ranker seeds at
# 2014 (0.103–0.109 against 0.103–0.106 for one): not kept. With the texts' names read, queries of the pairs sharing
# a neighbour or named together, by Adamic–Adar plus that of the network of concepts named together (build bench's
# cold build of round twenty-one, 2012 / 2013 / 2015): precision@1000 0.127 / 0.127 / 0.105 → 0.135 / 0.125 / 0.108
# at seed 42, 0.128 / 0.123 / 0.102 → 0.133 / 0.132 / 0.110 at seed 1, but hep-th 1999 / 2001 0.173 / 0.141 →
# 0.162 / 0.120 (its abstracts name many more concepts together): not kept
QUERY = 10_000
_ONE_THREAD_BELOW = 10**12  # rows: always one thread (OpenMP threads stalled the fit 6× on a busy 2-core machine)


def _threads(rows: int):
    """One OpenMP thread for small inputs (scikit-learn's gradient boosting), the default for large ones."""
    from threadpoolctl import threadpool_limits  # comes with scikit-learn

    return threadpool_limits(limits=1 if rows < _ONE_THREAD_BELOW else None, user_api="openmp")


class _Pairs:
    """Every pair feature of one window, computed once as dense matrices (rows and columns: concepts)."""

    def __init__(self, window: Window, vectors: np.ndarray | None, paper_vectors: np.ndarray | None = None,
                 named: Mapping[str, Sequence[str]] | None = None):
        self.window = window
        adjacency = window.adjacency()
        self.adjacency = adjacency
        degree = adjacency.sum(axis=1)
        self.degree = degree
        linked = window.cooc.astype(np.float32)
        linked.data[:] = 1.0  # sparse times dense: the co-occurrence graph is sparse (5.7% on ACM-CR at 2014)
        self.common = np.asarray(linked @ adjacency)
        weights = (1.0 / np.log(np.maximum(degree, 2.0))).astype(np.float32)
        self.adamic_adar = np.asarray(linked.multiply(weights[None, :]).tocsr() @ adjacency)
        self.cosine = vectors @ vectors.T if vectors is not None and vectors.shape[1] else None
        k = int(window.cluster.max()) + 1 if window.size else 0
        member = np.zeros((window.size, k), dtype=np.float32)
        member[np.arange(window.size), window.cluster] = 1.0
        between = member.T @ (adjacency @ member)
        sizes = member.sum(axis=0)
        pairs = np.outer(sizes, sizes) - np.diag(sizes)
        self.cluster_density = np.divide(between, pairs, out=np.zeros_like(between), where=pairs > 0)
        self.shared_words = name_overlap(window.concepts)
        self.walk = _two_steps(window.cooc)
        self.recent_walk = _two_steps(window.recent_cooc())
        self.paths3 = _three_paths(adjacency, degree)
        self.spectral = _spectral(window.cooc, SPECTRAL_RANK)
        self.meaning = _neighbourhood_meaning(window, adjacency, vectors)
        self.papers = _paper_meaning(window, paper_vectors)
        self.text = _Named(window, named) if named is not None else None
        counts = window.counts
        self.node = {
            "papers": np.log1p(counts), "recent": np.log1p(window.recent),
            "growth": np.log((window.recent + 1) / (window.before + 1)),
            "age": window.until - window.first + 1, "degree": np.log1p(degree),
            "new_partners": np.log1p(np.maximum(degree - window.earlier_degree, 0)),
            "last": np.log1p(window.last),
        }

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """Pairs ``i < j`` that no paper up to the cut-off mentions together, in row order."""
        upper = np.triu(self.adjacency == 0, k=1)
        i, j = np.nonzero(upper)
        return i.astype(np.int32), j.astype(np.int32)

    def features(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        columns = []
        for name in ("papers", "recent", "growth", "age", "degree", "new_partners", "last"):
            a, b = self.node[name][i], self.node[name][j]
            columns += [np.minimum(a, b), np.maximum(a, b)]
        counts, recent = self.window.counts, self.window.recent
        common = self.common[i, j]
        union = self.degree[i] + self.degree[j] - common
        cluster = self.window.cluster
        columns += [np.log1p(counts[i] * counts[j]), np.log1p(recent[i] * recent[j]), common,
                    self.adamic_adar[i, j], np.divide(common, union, out=np.zeros_like(common), where=union > 0),
                    (cluster[i] == cluster[j]).astype(np.float32), self.cluster_density[cluster[i], cluster[j]],
                    self.cosine[i, j] if self.cosine is not None else np.zeros(len(i), dtype=np.float32),
                    self.shared_words[i, j]]
        for walk in (self.walk, self.recent_walk):
            a, b = walk[i, j], walk[j, i]
            columns += [np.log(np.maximum(a, b) + _FLOOR), np.log(np.minimum(a, b) + _FLOOR)]
        columns += [self.paths3[i, j], self.spectral[i, j]]
        columns += self.text.features(i, j) if self.text is not None else [np.zeros(len(i), dtype=np.float32)] * 8
        for toward, between in self.meaning:
            if toward is None:
                columns += [np.zeros(len(i), dtype=np.float32)] * 3
                continue
            a, b = toward[i, j], toward[j, i]
            columns += [np.minimum(a, b), np.maximum(a, b), between[i, j]]
        if self.papers is None:
            columns += [np.zeros(len(i), dtype=np.float32)] * 3
        else:
            between, closest = self.papers
            a, b = closest[i, j], closest[j, i]
            columns += [between[i, j], np.minimum(a, b), np.maximum(a, b)]
        return np.column_stack([np.asarray(c, dtype=np.float32) for c in columns])


class _Named:
    """What the papers' texts name together: from :func:`kg.analyze.textnames.text_names` (paper id -> the concepts
    its title and abstract name, linked or not), over the window's papers (all up to its cut-off), dense matrices of
    the papers naming both concepts (in all, and in the last ``span`` years), and on the network of concepts named
    together, Adamic–Adar and the two-step walk of :func:`_two_steps`. A paper links only the concepts its
    extraction ranked highest; two concepts its text already names together, unlinked, are what the next papers
    link."""

    def __init__(self, window: Window, named: Mapping[str, Sequence[str]]):
        incidence = naming_incidence([pid for pid, _, _ in window.papers], named, window.index)
        self.by_concept = incidence.tocsc()  # for the evidence: the papers naming a concept
        self.together = np.asarray((incidence.T @ incidence).todense())
        recent = np.array([year > window.until - window.span for _, year, _ in window.papers], dtype=bool)
        latest = incidence[recent]
        self.recent = np.asarray((latest.T @ latest).todense())
        self.papers = np.diag(self.together).copy()
        linked = (self.together > 0).astype(np.float32)
        np.fill_diagonal(linked, 0.0)
        weights = (1.0 / np.log(np.maximum(linked.sum(axis=1), 2.0))).astype(np.float32)
        self.adamic_adar = (linked * weights[None, :]) @ linked
        self.walk = _two_steps(sparse.csr_matrix(self.together - np.diag(self.papers)))

    def both(self, i: int, j: int) -> np.ndarray:
        """Rows (in ``window.papers``) of the papers whose text names both concepts."""
        column = self.by_concept
        return np.intersect1d(column.indices[column.indptr[i]:column.indptr[i + 1]],
                              column.indices[column.indptr[j]:column.indptr[j + 1]])

    def features(self, i: np.ndarray, j: np.ndarray) -> list[np.ndarray]:
        together, a, b = self.together[i, j], self.papers[i], self.papers[j]
        return [np.log1p(together), np.log1p(self.recent[i, j]), together / np.sqrt(np.maximum(a * b, 1.0)),
                np.log1p(np.minimum(a, b)), np.log1p(np.maximum(a, b)), self.adamic_adar[i, j],
                np.log(np.maximum(self.walk[i, j], self.walk[j, i]) + _FLOOR),
                np.log(np.minimum(self.walk[i, j], self.walk[j, i]) + _FLOOR)]


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def _neighbourhood_meaning(window: Window, adjacency: np.ndarray, vectors: np.ndarray | None) -> list:
    """Two views of the concepts' neighbourhoods in meaning, each ``(toward, between)`` of dense matrices: row ``i``,
    column ``j`` of ``toward`` is the cosine of ``i``'s vector with the mean vector of ``j``'s co-occurring concepts,
    ``between`` the cosine of the two mean vectors; first with each neighbour counted once, then weighed by the
    papers it shares with the concept. Two concepts no neighbour joins yet can still be written about next to
    concepts that mean nearly the same; ``(None, None)`` twice without vectors."""
    if vectors is None or not vectors.shape[1]:
        return [(None, None), (None, None)]
    out = []
    for weights in (adjacency, window.cooc.astype(np.float32)):
        mean = _unit_rows(np.asarray(weights @ vectors, dtype=np.float32))
        out.append((vectors @ mean.T, mean @ mean.T))
    return out


def _aligned_paper_vectors(window: Window, paper_vectors: tuple[Sequence[str], np.ndarray] | None):
    """Unit document vectors of the window's papers (all up to its cut-off), in ``window.papers`` order (a paper
    without one: zeros), or None."""
    if paper_vectors is None:
        return None
    ids, matrix = paper_vectors
    where = {p: k for k, p in enumerate(ids)}
    rows = np.array([where.get(pid, -1) for pid, _, _ in window.papers], dtype=np.int64)
    out = np.zeros((len(rows), matrix.shape[1] if matrix.ndim == 2 else 0), dtype=np.float32)
    found = rows >= 0
    out[found] = matrix[rows[found]]
    return _unit_rows(out)


def _paper_meaning(window: Window, paper_vectors: np.ndarray | None):
    """What the concepts' papers say, from their document vectors (rows in ``window.papers`` order), as dense
    matrices ``(between, closest)``: the cosine of the two concepts' paper centroids (the mean unit vector of the
    papers mentioning each, papers without a vector left out), and in row ``i``, column ``j`` of ``closest`` the
    highest cosine of a paper of ``i`` with ``j``'s centroid (one paper of ``i`` already about what ``j``'s papers
    are about). None without paper vectors."""
    if paper_vectors is None or not paper_vectors.shape[1]:
        return None
    n = window.size
    rows = [k for k, (_, _, at) in enumerate(window.papers) for _ in at]
    cols = [c for _, _, at in window.papers for c in at]
    incidence = sparse.csc_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                                  shape=(len(window.papers), n))
    centroid = _unit_rows(np.asarray(incidence.T @ paper_vectors, dtype=np.float32))  # unit: the mean's direction
    closest = np.full((n, n), -np.inf, dtype=np.float32)
    by_paper = incidence.tocsr()
    for start in range(0, by_paper.shape[0], _PAPER_BLOCK):  # papers × concepts a block at a time: not all at once
        toward = paper_vectors[start:start + _PAPER_BLOCK] @ centroid.T
        block = by_paper[start:start + _PAPER_BLOCK].tocoo()
        order = np.argsort(block.col, kind="stable")
        cols, rows = block.col[order], block.row[order]
        if len(cols):
            starts = np.flatnonzero(np.r_[True, cols[1:] != cols[:-1]])
            best = np.maximum.reduceat(toward[rows], starts, axis=0)
            closest[cols[starts]] = np.maximum(closest[cols[starts]], best)
    closest[~np.isfinite(closest)] = 0.0  # a concept without a paper vector
    return centroid @ centroid.T, closest


def _two_steps(cooc: sparse.csr_matrix) -> np.ndarray:
    """Dense matrix of two-step random-walk probabilities on the co-occurrence counts: row ``i``, column ``j``:
    the chance that a paper partner of ``i``'s (drawn by papers in common) has ``j`` as a partner (drawn the same
    way). Unlike common neighbours or Adamic–Adar it weighs each shared neighbour by how much both concepts are
    written about with it, not just whether they ever were."""
    counts = cooc.astype(np.float32).tocsr()
    totals = np.asarray(counts.sum(axis=1)).ravel()
    step = (sparse.diags(np.divide(1.0, totals, out=np.zeros_like(totals), where=totals > 0)) @ counts).tocsr()
    return np.asarray(step @ step.toarray(), dtype=np.float32)


def _three_paths(adjacency: np.ndarray, degree: np.ndarray) -> np.ndarray:
    """Dense matrix of the paths of length 3 between two concepts, each through two middle concepts ``k, l``
    weighed by ``1 / sqrt(degree_k * degree_l)``, as ``log(1 + count)`` (Kovács et al., Nature Communications 2019:
    two concepts written about with concepts that are linked to each other, not only with the same ones)."""
    scale = (1.0 / np.sqrt(np.maximum(degree, 1.0))).astype(np.float32)
    step = adjacency * scale[None, :]
    return np.log1p((step @ step) @ adjacency).astype(np.float32)


def _spectral(cooc: sparse.csr_matrix, rank: int) -> np.ndarray:
    """Dense matrix of the co-occurrence network rebuilt from its ``rank`` leading eigenvectors (weights
    ``log(1 + papers together)``, normalized by the square root of each concept's total): high for two concepts
    that sit in the same dense region of the network, whether or not they share a neighbour; zero below 3
    concepts."""
    n = cooc.shape[0]
    if n < 3:
        return np.zeros((n, n), dtype=np.float32)
    weights = cooc.astype(np.float64)
    weights.data = np.log1p(weights.data)
    totals = np.asarray(weights.sum(axis=1)).ravel()
    scale = sparse.diags(1.0 / np.sqrt(np.maximum(totals, 1e-9)))
    # LAPACK's eigenvalues of a dense matrix, the k largest only: the same answer every call (ARPACK's eigsh
    # changed from one call to the next where eigenvalues repeat)
    k = min(rank, n - 2)
    values, vectors = linalg.eigh((scale @ weights @ scale).toarray(), subset_by_index=[n - k, n - 1], driver="evr")
    return ((vectors * values[None, :]) @ vectors.T).astype(np.float32)


def _training_window(papers, start: int, until: int, horizon: int, *, min_papers: int, span: int, seed: int,
                     vectors, paper_vectors, named, rows: int, rng: np.random.Generator):
    """Features at ``start`` and labels (pairs first joined in ``start + 1 … start + horizon``, never after
    ``until``) of a sample of ``rows`` candidate pairs: every new link (at most half), then non-links at random,
    and each pair's weight; and the ranker's query of that window (:func:`_ranker_query`): its features (those the
    ranker reads) and labels."""
    window = concept_window([p for p in papers if p[1] <= start], start, min_papers=min_papers, span=span,
                            seed=seed)
    pairs = _Pairs(window, aligned_vectors(window, vectors), _aligned_paper_vectors(window, paper_vectors), named)
    i, j = pairs.candidates()
    later = [p for p in papers if p[1] <= min(start + horizon, until)]  # the labels: never a paper after the cut-off
    found = future_pairs(later, window, horizon)
    labels = (found.toarray() > 0)[i, j]
    positive = np.flatnonzero(labels)
    if len(positive) > rows // 2:
        positive = np.sort(rng.choice(positive, rows // 2, replace=False))
    # non-links in two strata drawn half and half, weighted back to their share: those with a common neighbour
    # (where the top of the ranking lies: more of them to learn from) and those without
    negative = np.flatnonzero(~labels)
    near = pairs.common[i[negative], j[negative]] > 0
    budget = min(len(negative), rows - len(positive))
    strata = (negative[near], negative[~near])
    takes = [min(len(strata[0]), budget // 2)]
    takes.append(min(len(strata[1]), budget - takes[0]))
    takes[0] = min(len(strata[0]), budget - takes[1])  # what one stratum cannot fill, the other does
    drawn, weights = [], []
    for stratum, take in zip(strata, takes):
        if take:
            drawn.append(np.sort(rng.choice(stratum, take, replace=False)))
            weights.append(np.full(take, len(stratum) / take))
    negative = np.concatenate(drawn) if drawn else np.zeros(0, dtype=np.int64)
    weight = np.concatenate(weights) if weights else np.zeros(0)
    weight *= len(negative) / weight.sum() if weight.sum() else 1.0  # as many in all as the pairs drawn
    chosen = np.concatenate([positive, negative])
    query = _ranker_query(pairs, i, j)
    return (window, pairs.features(i[chosen], j[chosen]), labels[chosen],
            np.concatenate([np.ones(len(positive)), weight]), int(labels.sum()), int(len(i)),
            (pairs.features(i[query], j[query])[:, :RANKED], labels[query]))


def _ranker_query(pairs: _Pairs, i: np.ndarray, j: np.ndarray, size: int | None = None) -> np.ndarray:
    """Positions of the ranker's query among the candidate pairs ``i, j`` of a training window: the ``size``
    (default ``QUERY``) highest by Adamic–Adar among the pairs sharing a neighbour, best first (ties by position).
    That is where the pool the ranker reorders at ``T`` lies: the classifier's best pairs share neighbours."""
    near = np.flatnonzero(pairs.common[i, j] > 0)
    return near[_top(pairs.adamic_adar[i[near], j[near]], QUERY if size is None else size)]


def _train(papers, until: int, horizon: int, *, min_papers: int, span: int, seed: int, vectors, paper_vectors,
           named, rows: int, rank: bool):
    """The classifier, learned from the features of up to ``WINDOWS`` earlier years (``until - horizon``,
    ``until - horizon - 1``, …) and the links each made in the ``horizon`` years after it, never after ``until``."""
    from sklearn.ensemble import HistGradientBoostingClassifier  # scikit-learn: only the forecast needs it

    start = until - horizon
    first = min(p[1] for p in papers)
    rng = np.random.default_rng(seed)
    features, labels, weights, windows, queries = [], [], [], [], []
    latest = None
    for offset in range(WINDOWS):
        at = start - offset
        if offset and at <= first:  # an earlier window needs papers before it to describe its concepts
            break
        window, x, y, w, new_links, candidates, query = _training_window(
            papers, at, until, horizon, min_papers=min_papers, span=span, seed=seed, vectors=vectors,
            paper_vectors=paper_vectors, named=named, rows=rows, rng=rng)
        if offset == 0:
            latest = {"concepts": window.size, "new_links": new_links, "candidates": candidates}
        if y.any() and not y.all():
            features.append(x)
            labels.append(y)
            weights.append(w)
            windows.append([at, at + horizon])
            queries.append(query)
    if not windows or windows[0][0] != start:
        raise OptionError("until", f"no concept pair met for the first time in {start + 1}–{until} among the "
                                   f"concepts of {min_papers}+ papers by {start}: too few papers to learn from "
                                   "(choose a later cut-off or a shorter horizon)")
    x, y = np.vstack(features), np.concatenate(labels)
    leaf = int(np.clip(len(y) // 1000, MIN_LEAF, 50))  # small corpora: leaves small enough to learn from
    model = HistGradientBoostingClassifier(**{**MODEL, "min_samples_leaf": leaf, "random_state": seed})
    with _threads(len(y)):
        model.fit(x, y, sample_weight=np.concatenate(weights))
    ranker = _ranker(queries, leaf=leaf, seed=seed) if rank else None
    return model, ranker, {"window": [start, until], **latest, "pairs": int(len(y)), "windows": windows,
                           "ranker": {"objective": RANKER["objective"], "rounds": RANKER_ROUNDS,
                                      "queries": [int(len(q[1])) for q in queries],
                                      "reorders": RERANK} if rank else None}


def _ranker(queries: Sequence[tuple[np.ndarray, np.ndarray]], *, leaf: int, seed: int):
    """LightGBM's ``rank_xendcg`` learned from one query per training window (:func:`_ranker_query`: its features
    and labels): a model of which pairs of a query come first, not of each pair's chance."""
    import lightgbm  # only the forecast needs it

    x, y = np.vstack([q[0] for q in queries]), np.concatenate([q[1] for q in queries]).astype(np.int32)
    data = lightgbm.Dataset(x, y, group=[len(q[1]) for q in queries])
    return lightgbm.train({**RANKER, "min_data_in_leaf": leaf, "seed": seed}, data, num_boost_round=RANKER_ROUNDS)


def _score(model, pairs: _Pairs, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    out = np.empty(len(i), dtype=np.float64)
    with _threads(len(i)):
        for at in range(0, len(i), _CHUNK):
            part = slice(at, at + _CHUNK)
            out[part] = model.predict_proba(pairs.features(i[part], j[part]))[:, 1]
    return out


def _shortlist(pairs: _Pairs, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Positions of the candidate pairs the model scores for the ranking: all of them up to ``SHORTLIST_FROM``;
    above, those with a common neighbour or named together by an abstract (at most ``SHORTLIST_MOST``: those with
    the highest Adamic–Adar) and the ``CLOSEST`` closest in meaning. On ACM-CR the model's top 1,000 pairs all share 2 neighbours or more: the
    pairs sharing none cannot reach the top; the backtest counts the sampled pairs it would have missed."""
    if len(i) <= SHORTLIST_FROM:
        return np.arange(len(i))
    keep = pairs.common[i, j] > 0
    if pairs.text is not None:
        keep |= pairs.text.together[i, j] > 0
    if keep.sum() > SHORTLIST_MOST:
        keep[:] = False
        keep[_top(pairs.adamic_adar[i, j], SHORTLIST_MOST)] = True
    if pairs.cosine is not None:
        keep[_top(pairs.cosine[i, j], CLOSEST)] = True
    return np.flatnonzero(keep)


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` highest scores, best first, ties by position (exact, no full sort)."""
    k = min(k, len(scores))
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    threshold = np.partition(scores, len(scores) - k)[len(scores) - k]
    above = np.flatnonzero(scores > threshold)
    tied = np.flatnonzero(scores == threshold)[: k - len(above)]
    chosen = np.concatenate([above, tied])
    return chosen[np.lexsort((chosen, -scores[chosen]))]


def near_synonyms(pairs: _Pairs, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """:func:`kg.analyze.cooccurrence.synonym_pairs` of the candidate pairs ``i, j``: the forecast does not list
    them; the backtest grades every method with and without them."""
    return synonym_pairs(pairs.shared_words[i, j], pairs.cosine[i, j] if pairs.cosine is not None else None)


def _run(papers, until: int, horizon: int, *, min_papers: int, span: int, seed: int, vectors, paper_vectors,
         named, rows: int):
    """The window at ``until``, its candidate pairs ``i, j``, the model's scores (``-inf`` off the shortlist: those
    rank last), the shortlist and the model."""
    past = [p for p in papers if p[1] <= until]  # nothing after the cut-off goes further than this line
    window = concept_window(past, until, min_papers=min_papers, span=span, seed=seed)
    pairs = _Pairs(window, aligned_vectors(window, vectors), _aligned_paper_vectors(window, paper_vectors), named)
    i, j = pairs.candidates()
    shortlist = _shortlist(pairs, i, j)
    model, ranker, training = _train(past, until, horizon, min_papers=min_papers, span=span, seed=seed,
                                     vectors=vectors, paper_vectors=paper_vectors, named=named, rows=rows,
                                     rank=len(shortlist) >= RERANK_FROM)
    scores = np.full(len(i), -np.inf)
    scores[shortlist] = _score(model, pairs, i[shortlist], j[shortlist])
    training["scored"] = int(len(shortlist))
    return window, pairs, i, j, scores, _reorder(ranker, pairs, i, j, scores), training, model


def _reorder(ranker, pairs: _Pairs, i: np.ndarray, j: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The ranking: the classifier's best ``RERANK`` pairs in the order of :func:`_blend` (the ranker's rank plus
    ``ADAMIC_ADAR_WEIGHT`` times their Adamic–Adar rank and ``CLASSIFIER_WEIGHT`` times the classifier's), above
    every other pair (which keep the classifier's order). Returned as keys: 1 + that blend as a share of its largest
    value above (in ``(1, 2]``), the chance below. Without a ranker (fewer than ``RERANK_FROM`` pairs scored), the
    classifier's chance alone."""
    ranking = scores.copy()
    if ranker is None:
        return ranking
    pool = _top(scores, RERANK)
    pool = pool[np.isfinite(scores[pool])]
    if len(pool):
        with _threads(len(pool)):
            order = ranker.predict(pairs.features(i[pool], j[pool])[:, :RANKED])
        ranking[pool] = 1.0 + _blend(order, pairs.adamic_adar[i[pool], j[pool]], scores[pool])
    return ranking


def _blend(order: np.ndarray, adamic_adar: np.ndarray, chance: np.ndarray) -> np.ndarray:
    """The pool's order as a share in ``(0, 1]``: the ranker's rank, plus ``ADAMIC_ADAR_WEIGHT`` times the pair's
    Adamic–Adar rank and ``CLASSIFIER_WEIGHT`` times the classifier's rank (ties share their ranks). Each reads what
    the others miss: the ranker the top of the training windows, Adamic–Adar the shared neighbours at ``T`` alone,
    the classifier every pair and the neighbourhoods in meaning."""
    total = 1.0 + ADAMIC_ADAR_WEIGHT + CLASSIFIER_WEIGHT
    blend = rankdata(order) + ADAMIC_ADAR_WEIGHT * rankdata(adamic_adar) + CLASSIFIER_WEIGHT * rankdata(chance)
    return blend / (total * len(order))


def _check(top: int, min_papers: int, seed: int) -> None:
    check_counts(top=top, min_papers=min_papers)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError("seed", f"must be a whole number, not {seed!r}")


def forecast(papers: Sequence[tuple[str, int, Sequence[str]]], *, until: int | None = None, horizon: int = HORIZON,
             top: int = 20, min_papers: int = MIN_PAPERS, span: int = SPAN, seed: int = SEED,
             vectors: tuple[Sequence[str], np.ndarray] | None = None, names: Mapping[str, str] | None = None,
             train_rows: int = TRAIN_ROWS, paper_vectors: tuple[Sequence[str], np.ndarray] | None = None,
             named: Mapping[str, Sequence[str]] | None = None) -> dict:
    """The concept pairs most likely to be mentioned together for the first time within ``horizon`` years of ``until``.

    Parameters
    ----------
    papers : sequence of (paper id, year, concept ids)
        :func:`kg.analyze.cooccurrence.dated_mentions` of a graph. Papers after ``until`` are ignored.
    until : int, optional
        The cut-off year (default: the last year of ``papers``: a forecast into the future).
    horizon : int
        Years ahead; the model also learns from the ``horizon`` years before ``until``.
    top : int
        Pairs returned.
    min_papers : int
        Papers up to ``until`` a concept needs to take part.
    span : int
        Years of "recent" papers in the growth features.
    seed : int
        Seed of the clusters, the training sample and the model.
    vectors : (ids, matrix), optional
        Concept vectors (``kg.vectors.load_concept_vectors``); their cosine is a feature.
    names : mapping, optional
        Node id -> name, for the evidence (concepts and papers).
    train_rows : int
        Most pairs the model learns from per training window.
    paper_vectors : (ids, matrix), optional
        Document vectors (``kg.vectors.load_paper_vectors``); those of the papers up to ``until`` give the
        features of what each concept's papers are about (their centroid, the paper closest to the other's).
    named : mapping, optional
        Paper id -> the concepts its title and abstract name, linked or not
        (:func:`kg.analyze.textnames.text_names`); those of the papers up to ``until`` give the features of what
        the texts name together.

    Returns
    -------
    dict
        ``parameters``, ``counts`` (papers, concepts, candidate pairs, the training window),
        ``pairs``: ``{"source", "target", "source_name", "target_name", "score", "evidence"}``
        best first (``source`` the smaller id), and ``seconds``.

    Examples
    --------
    >>> rows = forecast(dated_papers, until=2014, horizon=3)["pairs"]  # doctest: +SKIP
    >>> rows[0]["source"], rows[0]["target"], rows[0]["evidence"]["shared_neighbours"][:2]  # doctest: +SKIP
    """
    started, cpu = time.perf_counter(), time.process_time()
    _check(top, min_papers, seed)
    until = check_until(papers, until, horizon, backtest=False)
    window, pairs, i, j, scores, ranking, training, _ = _run(papers, until, horizon, min_papers=min_papers,
                                                             span=span, seed=seed, vectors=vectors,
                                                             paper_vectors=paper_vectors, named=named,
                                                             rows=train_rows)
    synonyms = near_synonyms(pairs, i, j)
    best = _top(np.where(synonyms, -np.inf, ranking), top)
    best = best[np.isfinite(scores[best]) & ~synonyms[best]]
    labels = cluster_labels(window, names)
    rows = [_pair_row(window, pairs, int(i[b]), int(j[b]), float(scores[b]), names or {}, labels) for b in best]
    return {
        "parameters": {"until": until, "horizon": horizon, "min_papers": min_papers, "span": span, "seed": seed,
                       "vectors": vectors is not None, "paper_vectors": paper_vectors is not None,
                       "named": named is not None,
                       "model": "HistGradientBoostingClassifier, its best pairs reordered by LightGBM rank_xendcg "
                                "blended with Adamic–Adar and the classifier's rank",
                       "features": list(FEATURES)},
        "counts": {"papers": sum(1 for p in papers if p[1] <= until), "concepts": window.size,
                   "candidates": int(len(i)), "near_synonyms": int(synonyms.sum()), "training": training},
        "pairs": rows,
        "seconds": round(time.perf_counter() - started, 2), "cpu_seconds": round(time.process_time() - cpu, 2),
    }


def _auc(scores: np.ndarray, labels: np.ndarray) -> float | None:
    """Area under the ROC curve (ties count half), None without both classes."""
    positives = int(labels.sum())
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        return None
    ranks = rankdata(scores)
    return float((ranks[labels].sum() - positives * (positives + 1) / 2) / (positives * negatives))


def backtest(papers: Sequence[tuple[str, int, Sequence[str]]], *, until: int, horizon: int = HORIZON,
             sample: int = SAMPLE, ks: Sequence[int] = KS, top: int = 10, min_papers: int = MIN_PAPERS,
             span: int = SPAN, seed: int = SEED, vectors: tuple[Sequence[str], np.ndarray] | None = None,
             names: Mapping[str, str] | None = None, train_rows: int = TRAIN_ROWS,
             paper_vectors: tuple[Sequence[str], np.ndarray] | None = None,
             named: Mapping[str, Sequence[str]] | None = None) -> dict:
    """The forecast made at ``until`` checked against the papers of ``until + 1 … until + horizon``.

    Candidate pairs: two concepts of ``min_papers``+ papers up to ``until`` that no paper up to
    ``until`` mentions together; a pair is positive when a paper of the next ``horizon`` years
    mentions both. The forecast itself reads only the papers up to ``until``; the later ones
    only grade it. kg's model and the baselines are scored in the same run on the same pairs.

    Returns
    -------
    dict
        ``parameters``; ``counts`` (concepts, candidates, positives, base rate, AUC sample);
        ``rows``: per method ``{"method", "auc", "precision_at_100", "precision_at_1000"}``
        (the ``ks`` asked for); ``top``: kg's ``top`` best pairs with their evidence and
        ``"met"`` (whether a paper of the horizon mentions both); ``seconds`` (kg's forecast) and
        ``total_seconds``.
    """
    started, cpu = time.perf_counter(), time.process_time()
    _check(top, min_papers, seed)
    check_counts(sample=sample)
    until = check_until(papers, until, horizon, backtest=True)
    window, pairs, i, j, scores, ranking, training, model = _run(papers, until, horizon, min_papers=min_papers,
                                                                 span=span, seed=seed, vectors=vectors,
                                                                 paper_vectors=paper_vectors, named=named,
                                                                 rows=train_rows)
    made, made_cpu = time.perf_counter() - started, time.process_time() - cpu
    truth = (future_pairs(papers, window, horizon).toarray() > 0)[i, j]  # grading only
    rng = np.random.default_rng(seed)
    drawn = np.sort(rng.choice(len(i), min(sample, len(i)), replace=False)) if len(i) else np.zeros(0, dtype=int)
    # the AUC sample: the model scores every drawn pair, on the shortlist or not
    sampled = ranking[drawn].copy()  # the pool the ranker reorders lies on the shortlist: off it, the chance
    off = ~np.isfinite(sampled)
    sampled[off] = _score(model, pairs, i[drawn[off]], j[drawn[off]])
    k_best = _top(scores, max(ks))
    cut = scores[k_best[-1]] if len(k_best) else np.inf  # the classifier's chance of its max(ks)-th pair
    counts = window.counts
    methods = {"kg forecast": ranking, "preferential attachment": counts[i] * counts[j],
               "Adamic–Adar": pairs.adamic_adar[i, j], "common neighbours": pairs.common[i, j]}
    if pairs.cosine is not None:
        methods["concept-vector cosine"] = pairs.cosine[i, j]
    synonyms = near_synonyms(pairs, i, j)
    rows = []
    for method, values in methods.items():
        values = np.asarray(values, dtype=np.float64)
        auc = _auc(sampled if method == "kg forecast" else values[drawn], truth[drawn])
        row = {"method": method, "auc": None if auc is None else round(auc, 4)}
        for k in ks:
            best = _top(values, k)
            row[f"precision_at_{k}"] = round(float(truth[best].mean()), 4) if len(best) else None
        for k in ks:  # the same, near-synonym pairs set aside for every method alike
            best = _top(np.where(synonyms, -np.inf, values), k)
            best = best[~synonyms[best]]
            row[f"precision_at_{k}_without_near_synonyms"] = round(float(truth[best].mean()), 4) if len(best) else None
        rows.append(row)
    labels = cluster_labels(window, names)
    best = _top(np.where(synonyms, -np.inf, ranking), top)
    best = best[np.isfinite(scores[best]) & ~synonyms[best]]
    shown = [{**_pair_row(window, pairs, int(i[b]), int(j[b]), float(scores[b]), names or {}, labels),
              "met": bool(truth[b])} for b in best]
    return {
        "parameters": {"until": until, "horizon": horizon, "min_papers": min_papers, "span": span, "seed": seed,
                       "sample": int(len(drawn)), "vectors": vectors is not None,
                       "paper_vectors": paper_vectors is not None, "named": named is not None},
        "counts": {"papers": sum(1 for p in papers if p[1] <= until), "concepts": window.size,
                   "candidates": int(len(i)), "positives": int(truth.sum()),
                   "base_rate": round(float(truth.mean()), 6) if len(truth) else None,
                   "near_synonyms": int(synonyms.sum()),
                   # sampled pairs off the shortlist the model ranks above its 1,000th: the shortlist's misses
                   "missed_by_shortlist": int((sampled[off] > cut).sum()), "off_shortlist_sampled": int(off.sum()),
                   "training": training},
        "rows": rows,
        "top": shown,
        "seconds": round(made, 2), "cpu_seconds": round(made_cpu, 2),
        "total_seconds": round(time.perf_counter() - started, 2),
    }


def _growth(window: Window, i: int) -> dict:
    return {"papers": int(window.counts[i]), "recent": int(window.recent[i]), "before": int(window.before[i]),
            "first_year": int(window.first[i])}


def _pair_row(window: Window, pairs: _Pairs, i: int, j: int, score: float, names: Mapping[str, str],
              labels: Sequence[str]) -> dict:
    """A predicted pair with the evidence a reader can check."""
    concepts = window.concepts
    a, b = concepts[i], concepts[j]
    both = np.flatnonzero((pairs.adjacency[i] > 0) & (pairs.adjacency[j] > 0))
    cooc = window.cooc
    with_a = np.asarray(cooc[i, both].todense()).ravel() if len(both) else np.zeros(0)
    with_b = np.asarray(cooc[j, both].todense()).ravel() if len(both) else np.zeros(0)
    order = sorted(range(len(both)), key=lambda k: (-min(with_a[k], with_b[k]), -(with_a[k] + with_b[k]),
                                                    concepts[both[k]]))[:5]
    shared = [{"id": concepts[both[k]], "name": names.get(concepts[both[k]], concepts[both[k]]),
               "with_source": int(with_a[k]), "with_target": int(with_b[k])} for k in order]
    ca, cb = int(window.cluster[i]), int(window.cluster[j])
    return {
        "source": a, "target": b, "source_name": names.get(a, a), "target_name": names.get(b, b),
        "score": round(score, 4),
        "evidence": {
            "shared_neighbours": shared,
            "common_neighbours": int(len(both)),
            "source_growth": _growth(window, i), "target_growth": _growth(window, j),
            "clusters": {"source": {"id": ca, "label": labels[ca] if ca < len(labels) else ""},
                         "target": {"id": cb, "label": labels[cb] if cb < len(labels) else ""},
                         "bridges": ca != cb},
            "cosine": round(float(pairs.cosine[i, j]), 4) if pairs.cosine is not None else None,
            "papers": _nearest_papers(window, pairs, i, j, names),
            "named_together": _named_together(window, pairs, i, j, names),
        },
    }


def _named_together(window: Window, pairs: _Pairs, i: int, j: int, names: Mapping[str, str],
                    top: int = 3) -> dict | None:
    """The papers up to the cut-off whose title or abstract names both concepts (linking them or not, though a
    candidate pair's papers link at most one): how many, how many of the last ``span`` years, and the latest
    ``top``. None without the texts' names."""
    if pairs.text is None:
        return None
    rows = pairs.text.both(i, j)
    found = sorted(((window.papers[r][1], window.papers[r][0]) for r in rows), key=lambda r: (-r[0], r[1]))
    return {"papers": len(found), "recent": sum(1 for year, _ in found if year > window.until - window.span),
            "latest": [{"id": pid, "title": names.get(pid, pid), "year": year} for year, pid in found[:top]]}


def _nearest_papers(window: Window, pairs: _Pairs, i: int, j: int, names: Mapping[str, str], top: int = 3) -> list:
    """Papers up to the cut-off that mention one concept and most of the other's co-occurring concepts."""
    found = []
    for pid, year, at in window.papers:
        for own, other in ((i, j), (j, i)):
            if own in at:
                near = int(sum(pairs.adjacency[other, k] for k in at if k != own))
                if near:
                    found.append((near, year, pid, window.concepts[own], window.concepts[other]))
    found.sort(key=lambda r: (-r[0], -r[1], r[2]))
    return [{"id": pid, "title": names.get(pid, pid), "year": year, "mentions": own, "near_other": near}
            for near, year, pid, own, _ in found[:top]]
