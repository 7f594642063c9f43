"""Community numbers kept across analyses: after ``kg build --update`` and a later ``kg report``.

An analysis numbers communities largest first. After an update the new communities are
matched to the previous ones by the papers they share (a maximum-weight assignment on the
overlap counts, :func:`scipy.optimize.linear_sum_assignment`): a matched community keeps the
previous number, and the others take the free numbers, largest first (:func:`stable_numbers`).
Numbers stay dense (``0 .. k-1``, as :func:`kg.analyze.result.check_analysis` requires), so
when there are fewer communities than before, the assignment keeps as many papers as it can on
their number within that range. The co-citation and coupling clusters are renumbered the same
way (:func:`stable_analysis`); an analysis of the same graph that finds the same groups keeps
the numbers it had (:func:`keep_numbers`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["stable_numbers", "renumber_rows", "stable_analysis", "keep_numbers"]


def stable_numbers(groups: Sequence[Sequence[str]], previous: Mapping[str, int]) -> list[int]:
    """A number for each group (``0 .. len(groups)-1``, each once), kept from ``previous`` where it can be.

    ``groups`` are the new communities (lists of paper ids), in their own order (largest
    first); ``previous`` maps paper id -> previous number. Groups are matched to previous
    numbers by a maximum-weight assignment on the number of papers they share, among the
    numbers ``0 .. len(groups)-1`` (numbers stay dense): the papers that keep their number
    are as many as they can be. A group matched to no number it shares papers with takes
    the lowest number left, in group order.

    Examples
    --------
    >>> stable_numbers([["a", "b", "x"], ["c"], ["y"]], {"a": 1, "b": 1, "c": 0})
    [1, 0, 2]
    >>> stable_numbers([["a", "b", "c"]], {"a": 0, "b": 1, "c": 1})  # two merged: one number left
    [0]
    """
    from scipy.optimize import linear_sum_assignment  # half a second to import: only updates need it

    k = len(groups)
    overlap: dict[tuple[int, int], int] = Counter()
    for i, group in enumerate(groups):
        for paper in group:
            j = previous.get(paper)
            if j is not None and 0 <= j < k:
                overlap[i, j] += 1
    numbers = [-1] * k
    if overlap:
        rows = sorted({i for i, _ in overlap})
        cols = sorted({j for _, j in overlap})
        row_at, col_at = {i: a for a, i in enumerate(rows)}, {j: b for b, j in enumerate(cols)}
        weight = np.zeros((len(rows), len(cols)))
        for (i, j), n in overlap.items():
            weight[row_at[i], col_at[j]] = n
        for a, b in zip(*linear_sum_assignment(weight, maximize=True)):
            if weight[a, b] > 0:
                numbers[rows[a]] = cols[b]
    free = iter(sorted(set(range(k)) - set(numbers)))
    return [n if n >= 0 else next(free) for n in numbers]


def renumber_rows(rows: Sequence[Mapping], previous: Mapping[str, int]) -> list[dict]:
    """``rows`` (each with ``id`` and ``papers``) numbered by :func:`stable_numbers`, in number order."""
    numbers = stable_numbers([row["papers"] for row in rows], previous)
    out = [dict(row, id=number) for row, number in zip(rows, numbers)]
    return sorted(out, key=lambda row: row["id"])


def _numbers_of(rows) -> dict[str, int]:
    return {p: int(row["id"]) for row in rows or () for p in row.get("papers", ())}


def stable_analysis(analysis: Mapping, previous: Mapping | None) -> dict:
    """``analysis`` with its paper communities and citation-map clusters numbered as in ``previous``
    (:func:`renumber_rows`); as it is without a previous analysis."""
    out = dict(analysis)
    if previous is None:
        return out
    out["communities"] = renumber_rows(analysis["communities"], _numbers_of(previous.get("communities")))
    maps = analysis.get("citation_maps")
    if isinstance(maps, Mapping):
        before = previous.get("citation_maps") if isinstance(previous.get("citation_maps"), Mapping) else {}
        out["citation_maps"] = {
            name: ({**result, "clusters": renumber_rows(result["clusters"], _numbers_of(
                (before.get(name) or {}).get("clusters")))} if isinstance(result, Mapping) and result.get("clusters")
                else result)
            for name, result in maps.items()}
    return out


def keep_numbers(analysis: Mapping, previous: Mapping | None) -> dict:
    """``analysis`` with the numbers of ``previous`` for its communities (and citation-map clusters)
    where they are exactly the same groups of papers; as it is otherwise.

    An analysis numbers communities largest first; after an update they keep earlier numbers
    instead, and analyzing the same graph again with the same settings (``kg report`` for other
    labels, say) must not renumber them.
    """
    out = dict(analysis)
    if not isinstance(previous, Mapping):
        return out

    def groups(rows) -> set:
        return {frozenset(row.get("papers", ())) for row in rows or ()}

    if groups(analysis.get("communities")) == groups(previous.get("communities")):
        out["communities"] = renumber_rows(analysis["communities"], _numbers_of(previous["communities"]))
    maps, before = analysis.get("citation_maps"), previous.get("citation_maps")
    if isinstance(maps, Mapping) and isinstance(before, Mapping):
        out["citation_maps"] = dict(maps)
        for name, result in maps.items():
            old = (before.get(name) or {}).get("clusters") if isinstance(before.get(name), Mapping) else None
            if isinstance(result, Mapping) and result.get("clusters") and groups(result["clusters"]) == groups(old):
                out["citation_maps"][name] = {**result, "clusters": renumber_rows(result["clusters"],
                                                                                  _numbers_of(old))}
    return out
