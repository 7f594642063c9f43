"""The descriptive part of a bibliometric report, as bibliometrix's ``biblioAnalysis`` gives it.

* **annual production**: papers per year, and the compound annual growth rate between the
  first and the last year, ``((last / first) ** (1 / (years - 1)) - 1) · 100`` (bibliometrix's
  "Annual Growth Rate");
* **authors** and **venues**: paper counts, local citations (times their papers are cited by
  papers of the corpus) and the local h-index (the largest *h* such that *h* of their papers
  are each cited *h* times or more inside the corpus);
* **collaboration**: authors per paper, the share of single-authored papers, co-authors per paper.

Everything is counted on the graph's ``paper``, ``author`` and ``venue`` nodes and their
``wrote``, ``published_in`` and ``cites`` edges; no I/O, the input is not changed.
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx

__all__ = ["h_index", "growth_rate", "descriptive"]


def _r(value: float) -> float:
    return float(f"{value:.6g}")


def h_index(citations) -> int:
    """The largest *h* such that *h* of the counts are *h* or more.

    Examples
    --------
    >>> h_index([10, 8, 5, 4, 3]), h_index([25, 8, 5, 3, 3]), h_index([0, 0]), h_index([])
    (4, 3, 0, 0)
    """
    ranked = sorted(citations, reverse=True)
    return sum(1 for i, c in enumerate(ranked, start=1) if c >= i)


def growth_rate(per_year: dict[int, int]) -> float | None:
    """Compound annual growth rate in percent between the first and the last year (None for one year).

    Examples
    --------
    >>> growth_rate({2000: 10, 2002: 40})
    100.0
    >>> growth_rate({2000: 10}) is None
    True
    """
    if len(per_year) < 2:
        return None
    first, last = min(per_year), max(per_year)
    if last == first or per_year[first] <= 0:
        return None
    return _r(((per_year[last] / per_year[first]) ** (1 / (last - first)) - 1) * 100)


def _group_rows(graph: nx.MultiDiGraph, papers_of: dict[str, list[str]], cited: dict[str, int],
                top: int) -> list[dict]:
    rows = []
    for node, papers in papers_of.items():
        counts = [cited.get(p, 0) for p in papers]
        rows.append({"id": node, "name": graph.nodes[node].get("name") or node, "papers": len(papers),
                     "citations": sum(counts), "h_index": h_index(counts)})
    rows.sort(key=lambda r: (-r["papers"], -r["citations"], r["id"]))
    return rows[:top]


def descriptive(graph: nx.MultiDiGraph, *, top: int = 15) -> dict:
    """Annual production, top authors and venues, collaboration: plain data.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph.
    top : int
        Rows of the authors and venues tables.

    Returns
    -------
    dict
        ``annual_production`` (``[[year, papers], ...]``, every year from the first to the last,
        empty years included), ``growth_rate`` (percent, or None), ``undated`` (papers without
        a year), ``authors`` and ``venues`` (rows ``id``, ``name``, ``papers``, ``citations``,
        ``h_index``: most papers first), ``collaboration`` (``papers_with_authors``,
        ``authors``, ``authors_per_paper``, ``papers_per_author``, ``single_authored``,
        ``single_authored_share``, ``coauthors_per_paper``).
    """
    per_year: dict[int, int] = defaultdict(int)
    undated = 0
    papers = []
    for node, data in graph.nodes(data=True):
        if data.get("kind") != "paper":
            continue
        papers.append(node)
        if isinstance(data.get("year"), int):
            per_year[data["year"]] += 1
        else:
            undated += 1
    cited: dict[str, int] = defaultdict(int)
    by_author: dict[str, list[str]] = defaultdict(list)
    by_venue: dict[str, list[str]] = defaultdict(list)
    for u, v, key in graph.edges(keys=True):
        if key == "cites":
            cited[v] += 1
        elif key == "wrote":
            by_author[u].append(v)
        elif key == "published_in":
            by_venue[v].append(u)
    team = defaultdict(int)
    for papers_list in by_author.values():
        for paper in papers_list:
            team[paper] += 1
    authored = len(team)
    single = sum(1 for n in team.values() if n == 1)
    years = sorted(per_year)
    production = [[y, per_year.get(y, 0)] for y in range(years[0], years[-1] + 1)] if years else []
    return {
        "annual_production": production,
        "growth_rate": growth_rate(dict(per_year)),
        "undated": undated,
        "authors": _group_rows(graph, by_author, cited, top),
        "venues": _group_rows(graph, by_venue, cited, top),
        "collaboration": {
            "papers_with_authors": authored,
            "authors": len(by_author),
            "authors_per_paper": _r(sum(team.values()) / authored) if authored else 0.0,
            "papers_per_author": _r(sum(team.values()) / len(by_author)) if by_author else 0.0,
            "single_authored": single,
            "single_authored_share": _r(single / authored) if authored else 0.0,
            "coauthors_per_paper": _r(sum(n - 1 for n in team.values()) / authored) if authored else 0.0,
        },
    }
