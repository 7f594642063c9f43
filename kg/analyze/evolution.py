"""Thematic evolution: themes per time slice, matched across adjacent slices (bibliometrix, CiteSpace).

The papers are cut into time slices (:func:`time_slices`: at given years, or into slices
of about equal paper counts). In each slice, the ``related`` links among its papers are
clustered as the paper communities are (:func:`~kg.analyze.communities.detect_communities`);
each community of at least ``min_size`` papers is a *theme*, described by the concepts at
least two of its papers mention, each weighed by the share of the theme's papers that
mention it times its idf ``ln((N + 1) / df)``. Themes of adjacent slices are linked when
their concepts overlap, by the **inclusion index** ``|A ∩ B| / min(|A|, |B|)`` of
bibliometrix's ``thematicEvolution`` taken on these weights
(``Σ_{c ∈ A ∩ B} min(a_c, b_c) / min(Σ a, Σ b)``: sharing a concept most papers of both
themes mention counts more than one a single paper of each mentions, and sharing "case
study" less than sharing "real time bidding"); a link needs ``min_shared`` shared
concepts and an index of ``min_inclusion`` or more. On a corpus made to change
(recommender systems throughout, digital libraries then advertising, real ACM abstracts),
links between themes of the same topic scored 0.19–0.35 and links across topics at most
0.16, hence the default 0.18.

Each link is a ``continuation`` (one theme to one), ``split`` (its source has several
successors), ``merge`` (its target has several predecessors) or ``split and merge``; a
theme without predecessor in a later slice *emerges*, one without successor before the
last slice *disappears*.

Examples
--------
>>> time_slices([2001, 2003, 2009, 2012, 2016], cuts=[2005, 2010])
[(2001, 2003), (2009, 2009), (2012, 2016)]
>>> time_slices([2001, 2002, 2002, 2003, 2004, 2005], equal=2)
[(2001, 2002), (2003, 2005)]
>>> links = link_themes([[{"a", "b", "c"}], [{"a", "b"}, {"c", "x"}]], min_inclusion=0.5, min_shared=1)
>>> [(l["source"], l["target"], l["inclusion"], l["kind"]) for l in links]
[((0, 0), (1, 0), 1.0, 'split'), ((0, 0), (1, 1), 0.5, 'split')]
"""

from __future__ import annotations

from collections import Counter
import math
from collections.abc import Iterable, Mapping, Sequence

import networkx as nx

from kg.analyze.citation_maps import ordered_subgraph
from kg.analyze.communities import central_members, detect_communities, distinctive_concepts
from kg.analyze.result import analysis_settings
from kg.defaults import SEED
from kg.errors import OptionError
from kg.graph import node_label, projection

__all__ = ["time_slices", "link_themes", "thematic_evolution", "with_evolution", "MIN_INCLUSION", "MIN_SIZE", "MIN_SHARED",
           "EQUAL_SLICES"]

MIN_INCLUSION = 0.18  # inclusion index from which two themes of adjacent slices are linked
MIN_SIZE = 3  # papers a slice's community needs to be a theme
MIN_SHARED = 2  # concepts two linked themes share at least
EQUAL_SLICES = 3  # slices of about equal paper counts when none are asked for (bibliometrix users compare 3 or 4)


def time_slices(years: Iterable[int], *, cuts: Sequence[int] | None = None,
                equal: int | None = None) -> list[tuple[int, int]]:
    """``(first, last)`` year of each non-empty slice of ``years``.

    Parameters
    ----------
    years : iterable of int
        The publication year of each dated paper.
    cuts : sequence of int, optional
        Years that start a new slice: ``[2000, 2010]`` gives ``…–1999``, ``2000–2009``,
        ``2010–…``.
    equal : int, optional
        Instead of ``cuts``: this many slices of about equal paper counts (a year is
        never split, so there may be fewer).
    """
    counts = Counter(int(y) for y in years)
    if not counts:
        return []
    if (cuts is None) == (equal is None):
        raise OptionError("slices", "give either cut years or a number of equal slices")
    ordered = sorted(counts)
    groups: list[list[int]] = []
    if cuts is not None:
        bounds = sorted(set(int(c) for c in cuts))
        for year in ordered:
            k = sum(1 for c in bounds if c <= year)
            while len(groups) <= k:
                groups.append([])
            groups[k].append(year)
    else:
        if equal < 1:
            raise OptionError("equal", f"must be 1 or more, not {equal}")
        total, done = sum(counts.values()), 0
        groups = [[]]
        for year in ordered:
            if groups[-1] and done >= total * len(groups) / equal:
                groups.append([])
            groups[-1].append(year)
            done += counts[year]
    return [(g[0], g[-1]) for g in groups if g]


def link_themes(concepts: Sequence[Sequence[Mapping[str, float] | set]], *, min_inclusion: float = MIN_INCLUSION,
                min_shared: int = MIN_SHARED) -> list[dict]:
    """Links between the themes of adjacent slices, by the (weighted) inclusion index of their concepts.

    ``concepts[t][k]`` holds the concepts of theme ``k`` of slice ``t``: concept -> weight,
    or a set (weight 1 each, the plain inclusion index). Returns
    ``{"source": (t, k), "target": (t + 1, j), "inclusion", "shared", "kind"}`` sorted by
    source then target; ``shared`` is the number of shared concepts.
    """
    def weighed(items) -> Mapping[str, float]:
        return items if isinstance(items, Mapping) else dict.fromkeys(items, 1.0)

    concepts = [[weighed(theme) for theme in themes] for themes in concepts]

    links = []
    for t in range(len(concepts) - 1):
        for k, a in enumerate(concepts[t]):
            for j, b in enumerate(concepts[t + 1]):
                if not a or not b:
                    continue
                common = a.keys() & b.keys()
                shared = len(common)
                inclusion = (sum(min(a[c], b[c]) for c in common) / min(sum(a.values()), sum(b.values()))
                             if shared else 0.0)
                if shared >= max(min_shared, 1) and inclusion >= min_inclusion:
                    links.append({"source": (t, k), "target": (t + 1, j), "inclusion": round(inclusion, 4),
                                  "shared": shared})
    outs = Counter(link["source"] for link in links)
    ins = Counter(link["target"] for link in links)
    for link in links:
        split, merge = outs[link["source"]] > 1, ins[link["target"]] > 1
        link["kind"] = ("split and merge" if split and merge else "split" if split else "merge" if merge
                        else "continuation")
    return links


def _r(value: float) -> float:
    return float(f"{value:.6g}")


def _name(graph: nx.MultiDiGraph, node: str) -> str:
    """How tables and labels show a node: a concept with its acronym (:func:`kg.graph.node_label`)."""
    return node_label(graph.nodes[node], node)


def thematic_evolution(graph: nx.MultiDiGraph, *, cuts: Sequence[int] | None = None, equal: int | None = None,
                       method: str = "louvain", seed: int = SEED, resolution: float = 1.0, min_size: int = MIN_SIZE,
                       min_inclusion: float = MIN_INCLUSION, min_shared: int = MIN_SHARED, top: int = 5) -> dict:
    """Themes per time slice and how they continue, split, merge, emerge and disappear.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph with paper years.
    cuts, equal
        The slices, as for :func:`time_slices`.
    method, seed, resolution
        Community detection in each slice (as for the paper communities).
    min_size : int
        Fewest papers of a theme.
    min_inclusion : float
        Lowest (idf-weighted) inclusion index of a link.
    min_shared : int
        Fewest concepts two linked themes share.
    top : int
        Distinctive concepts (label) and central papers kept per theme.

    Returns
    -------
    dict
        ``parameters``; ``slices``: ``{"id", "start", "end", "papers", "themes"}``, each
        theme ``{"id" ("slice.k"), "slice", "size", "label", "concepts" (top names),
        "mean_year", "first_year", "last_year", "status" ("emerges", "continues",
        "disappears", …), "central_papers", "papers"}``; ``links``:
        ``{"source", "target", "inclusion", "shared", "kind"}`` with theme ids.
    """
    if min_size < 1:
        raise OptionError("min_size", f"must be 1 or more, not {min_size}")
    if not 0 < min_inclusion <= 1:
        raise OptionError("min_inclusion", f"must be in (0, 1], not {min_inclusion}")
    year_of = {n: int(d["year"]) for n, d in graph.nodes(data=True)
               if d.get("kind") == "paper" and isinstance(d.get("year"), int)}
    spans = time_slices(year_of.values(), cuts=cuts, equal=equal)
    related = projection(graph, "related", attrs=("weight",))
    n_papers = sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "paper")
    idf = {c: math.log((n_papers + 1) / max(int(d.get("papers") or 1), 1)) for c, d in graph.nodes(data=True)
           if d.get("kind") == "concept"}
    slices, theme_concepts = [], []
    for t, (start, end) in enumerate(spans):
        members = sorted(p for p, y in year_of.items() if start <= y <= end)
        sub = ordered_subgraph(related, members)
        groups = [g for g in detect_communities(sub, method=method, seed=seed, resolution=resolution)
                  if len(g) >= min_size]
        labels = distinctive_concepts(graph, groups, top=top) if groups else []
        themes, sets = [], []
        for k, (group, concepts) in enumerate(zip(groups, labels)):
            mentions = Counter(c for p in group for _, c, key in graph.out_edges(p, keys=True) if key == "mentions")
            sets.append({c: n / len(group) * idf[c] for c, n in mentions.items() if n >= 2})
            years = sorted(year_of[p] for p in group)
            ranked = central_members(sub, group)
            themes.append({
                "id": f"{t}.{k}", "slice": t, "size": len(group),
                "label": ", ".join(_name(graph, c["id"]) for c in concepts[:3]),
                "concepts": [_name(graph, c["id"]) for c in concepts[:top]],
                "mean_year": _r(sum(years) / len(years)), "first_year": years[0], "last_year": years[-1],
                "central_papers": [{"id": p, "title": _name(graph, p)} for p, _ in ranked[:top]],
                "papers": [p for p, _ in ranked],
            })
        slices.append({"id": t, "start": start, "end": end, "papers": len(members), "themes": themes})
        theme_concepts.append(sets)
    links = link_themes(theme_concepts, min_inclusion=min_inclusion, min_shared=min_shared)
    for link in links:
        link["source"], link["target"] = "%d.%d" % link["source"], "%d.%d" % link["target"]
    has_in = {link["target"] for link in links}
    has_out = {link["source"] for link in links}
    n_in = Counter(link["target"] for link in links)
    n_out = Counter(link["source"] for link in links)
    for row in slices:
        for theme in row["themes"]:
            tid, t = theme["id"], row["id"]
            before = ("emerges" if t > 0 and tid not in has_in else "merges" if n_in[tid] > 1
                      else "continues" if tid in has_in else "first slice")
            after = ("disappears" if t < len(slices) - 1 and tid not in has_out else "splits" if n_out[tid] > 1
                     else "continues" if tid in has_out else "last slice")
            theme["status"] = f"{before}, {after}" if before != after else before
    return {
        "parameters": {"slices": [[s["start"], s["end"]] for s in slices], "cuts": list(cuts) if cuts else None,
                       "equal": equal, "method": method, "seed": seed, "resolution": resolution,
                       "min_size": min_size, "min_inclusion": min_inclusion, "min_shared": min_shared},
        "slices": slices,
        "links": links,
    }


def with_evolution(graph: nx.MultiDiGraph, analysis: Mapping, *, cuts: Sequence[int] | None = None,
                   equal: int | None = None, min_inclusion: float | None = None, min_size: int | None = None,
                   min_shared: int | None = None) -> dict:
    """``analysis`` with its ``evolution`` section: :func:`thematic_evolution` of ``graph`` with
    the analysis's method, seed and resolution (``None``: the module's defaults)."""
    made = analysis.get("parameters") or {}
    settings = analysis_settings(graph, analysis)
    result = thematic_evolution(
        graph, cuts=cuts, equal=equal, method=made.get("method", "louvain"), seed=settings["seed"],
        resolution=settings["resolution"], min_inclusion=MIN_INCLUSION if min_inclusion is None else min_inclusion,
        min_size=MIN_SIZE if min_size is None else min_size, min_shared=MIN_SHARED if min_shared is None else min_shared)
    return {**analysis, "evolution": result}

