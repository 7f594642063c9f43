"""A seeded force-directed layout in NumPy, for the graph page: Fruchterman–Reingold.

The page (:mod:`kg.export.html`) places every node itself, so that physics stays off in the
browser and a large view is interactive at once. :func:`fruchterman_reingold` computes those
places with NumPy alone: igraph's layout needs ``import igraph``, which imports Matplotlib's
pyplot when it is installed (about 1.5 s of every ``kg viz``, longer than the drawing).

The forces are Fruchterman and Reingold's as igraph applies them: every pair repels with
``1 / d``, every edge attracts with ``d² · weight``, each step moves a node at most the
temperature, which cools linearly to zero. Up to :data:`EXACT_NODES` nodes every pair is
computed; a larger graph repels each node from a seeded sample of :data:`SAMPLED` others per
step (scaled up to stand for all of them), so a step costs ``n · SAMPLED`` pairs, not ``n²``,
and a large graph takes fewer steps (:data:`PAIR_STEPS` pairs in all, 100 steps at least):
the page spreads each community over its disk afterwards (:func:`kg.export.html.layout_positions`),
so what the layout must get right is which nodes sit together, not exact distances. On the
2-core machine kg is measured on, 2,000 nodes and 5,000 edges take about 0.2 s.

The same input and seed give the same coordinates.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fruchterman_reingold", "EXACT_NODES", "SAMPLED", "PAIR_STEPS"]

EXACT_NODES = 100  # up to this many nodes every pair repels
SAMPLED = 48  # above it: others each node is repelled by per step
PAIR_STEPS = 6_000_000  # at most this many repelling pairs in all steps together (but 100 steps at least)


def fruchterman_reingold(start: np.ndarray, edges: np.ndarray, weights: np.ndarray | None = None, *,
                         niter: int = 500, seed: int = 0) -> np.ndarray:
    """Node coordinates after ``niter`` Fruchterman–Reingold steps from ``start``.

    Parameters
    ----------
    start : ndarray, shape (n, 2)
        Where the nodes begin.
    edges : ndarray of int, shape (m, 2)
        Node numbers (rows of ``start``) of each edge.
    weights : ndarray, shape (m,), optional
        How strongly each edge pulls (default 1).
    niter : int
        Steps for a small graph (a large one takes fewer, see :data:`PAIR_STEPS`).
    seed : int
        For the repelling samples of a graph of more than :data:`EXACT_NODES` nodes.

    Returns
    -------
    ndarray, shape (n, 2)

    Examples
    --------
    >>> import numpy as np
    >>> pos = fruchterman_reingold(np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]]), np.array([[0, 1]]), niter=50)
    >>> bool(np.hypot(*(pos[0] - pos[1])) < np.hypot(*(pos[0] - pos[2])))
    True
    """
    pos = np.array(start, dtype=np.float64)
    n = len(pos)
    if n < 2 or niter <= 0:
        return pos
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    keep = edges[:, 0] != edges[:, 1]
    a, b = edges[keep, 0], edges[keep, 1]
    pull = np.ones(len(a)) if weights is None else np.asarray(weights, dtype=np.float64)[keep]
    rng = np.random.default_rng(seed)
    exact = n <= EXACT_NODES
    niter = max(min(niter, 100), min(niter, PAIR_STEPS // (n * (n if exact else SAMPLED))))
    temperature = math.sqrt(n) / 10
    cooling = temperature / niter
    every = np.arange(n)
    for _ in range(niter):
        chosen = every if exact else rng.integers(0, n, size=SAMPLED)
        others = pos[chosen]
        # squared distances of every node to every other chosen one: |p|² + |o|² - 2 p·o
        square = (pos * pos).sum(axis=1)[:, None] + (others * others).sum(axis=1)[None, :] - 2.0 * (pos @ others.T)
        np.maximum(square, 1e-6, out=square)
        square[chosen, np.arange(len(chosen))] = np.inf  # a node does not push itself
        inverse = np.reciprocal(square)
        # Σ_j (p_i - o_j) / d_ij² = p_i Σ_j 1/d_ij² - Σ_j o_j / d_ij²
        disp = (pos * inverse.sum(axis=1)[:, None] - inverse @ others) * (1.0 if exact else (n - 1) / SAMPLED)
        if len(a):
            along = pos[a] - pos[b]
            force = along * (np.hypot(along[:, 0], along[:, 1]) * pull)[:, None]
            for k in (0, 1):
                disp[:, k] += np.bincount(b, force[:, k], minlength=n) - np.bincount(a, force[:, k], minlength=n)
        length = np.hypot(disp[:, 0], disp[:, 1])
        step = np.where(length > temperature, temperature / np.where(length > 0, length, 1.0), 1.0)
        pos += disp * step[:, None]
        temperature -= cooling
    return pos
