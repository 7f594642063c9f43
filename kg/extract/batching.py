"""Token-id batches for a sentence-transformers model: spans of length-sorted rows under a token
budget, and a span's rows padded into the two arrays the model reads. Shared by the embedder
(:mod:`kg.extract.embedder`) and the int8 export's calibration (:mod:`kg.extract.onnx_model`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["token_batches", "padded"]


def token_batches(widths: Sequence[int], budget: int, slack: float = 0.1):
    """``(start, stop)`` spans of ascending ``widths``: each span's rows padded to its last
    width cost at most ``budget`` tokens (one row at least), and no row is padded by more
    than ``slack`` of its own width, so short phrases never pay for a longer neighbour.

    Examples
    --------
    >>> list(token_batches([4, 4, 4, 5, 9, 9], budget=12))
    [(0, 3), (3, 4), (4, 5), (5, 6)]
    """
    start = 0
    while start < len(widths):
        limit = widths[start] * (1 + slack)
        stop = start + 1
        while (stop < len(widths) and widths[stop] <= limit
               and widths[stop] * (stop - start + 1) <= budget):
            stop += 1
        yield start, stop
        start = stop


def padded(rows: Sequence[Sequence[int]], pad: int) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` of token ids as ``(input_ids, attention_mask)``, int64, padded with ``pad`` to the longest.

    Examples
    --------
    >>> ids, mask = padded([[5, 6, 7], [8]], pad=0)
    >>> ids.tolist(), mask.tolist()
    ([[5, 6, 7], [8, 0, 0]], [[1, 1, 1], [1, 0, 0]])
    """
    longest = max(len(row) for row in rows)
    input_ids = np.full((len(rows), longest), pad, dtype=np.int64)
    mask = np.zeros((len(rows), longest), dtype=np.int64)
    for i, row in enumerate(rows):
        input_ids[i, : len(row)] = row
        mask[i, : len(row)] = 1
    return input_ids, mask
