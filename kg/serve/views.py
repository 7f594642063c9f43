"""The explorer's answers: plain JSON-safe data from the build's index, one function per view.

Each function takes the index (:class:`kg.index.read.BuildIndex`, opened once by the server,
read-only) and the request's arguments, and returns what the page draws; none writes anything.
A paper's neighbourhood is Connected-Papers-style: the paper, its strongest related papers with
their years, the related and citation links among all of them, and the concepts the paper shares
with at least two of them. A year range (``year_from``, ``year_to``, inclusive) leaves out the
papers outside it (the index's rule: papers without a year too, once a bound is given).
"""

from __future__ import annotations

from collections import Counter

from kg.identifiers import paper_link

__all__ = ["meta", "search", "paper", "concept", "communities", "community",
           "RELATED", "SHARED", "COMMUNITY_GRAPH", "LIST", "MIN_QUERY"]

RELATED = 24  # related papers drawn around a paper
SHARED = 12  # concepts drawn among them
COMMUNITY_GRAPH = 60  # papers drawn for a community
LIST = 50  # papers listed for a concept or a community
MIN_QUERY = 3  # characters a search needs: fewer match most of a corpus (and cost over 200 ms on ACM-CR)


def _years(counts) -> list[list[int]]:
    """``{year: papers}`` as ``[[year, papers], …]`` in year order (JSON keys would be strings)."""
    return [[int(y), int(n)] for y, n in sorted((counts or {}).items()) if y is not None]


def _in_range(years: list[list[int]], year_from: int | None, year_to: int | None) -> int:
    return sum(n for y, n in years if (year_from is None or y >= year_from) and (year_to is None or y <= year_to))


def _community(number, label) -> dict | None:
    return None if number is None else {"id": int(number), "label": str(label or "")}


def meta(index, *, build: str) -> dict:
    """The build's name, its sizes and its papers per year (the year filter's bounds)."""
    years = _years(index.years())
    return {"build": build, "min_query": MIN_QUERY, "papers": index.meta.get("papers", 0), "concepts": index.meta.get("concepts", 0),
            "communities": index.meta.get("communities", 0),
            "years": {"min": years[0][0] if years else None, "max": years[-1][0] if years else None,
                      "counts": years}}


def search(index, text: str, *, limit: int = 8, year_from: int | None = None, year_to: int | None = None) -> dict:
    """Papers and concepts whose title, id, name or alias holds the words of ``text``, the last one as a
    prefix (results as one types): ``{query, papers: [{id, title, year, community}], concepts: [{id, name,
    papers, community}]}``; the papers of the year range, the concepts of any year; none, with a
    ``hint``, for a text shorter than :data:`MIN_QUERY`."""
    text = " ".join(str(text or "").split())[:200]
    if len(text) < MIN_QUERY:  # one letter matches most of a corpus and says nothing
        return {"query": text, "papers": [], "concepts": [], "hint": f"type {MIN_QUERY} characters or more"}
    papers = index.search(text, kind="paper", top=limit, year_from=year_from, year_to=year_to)["papers"]
    # Concepts are found in every year (their page counts their papers in the range): the index's year
    # test for concepts costs more than the rest of the search on ACM-CR.
    concepts = index.search(text, kind="concept", top=limit)["concepts"]
    return {"query": text, "papers": papers, "concepts": concepts}


def paper(index, paper_id: str, *, year_from: int | None = None, year_to: int | None = None) -> dict:
    """A paper (``paper``), its related papers with the concepts each shares with it (``related``) and both
    as a graph (``graph``: ``nodes`` and ``edges`` as ``[from, to, weight, kind]`` by node position).

    Raises :class:`~kg.errors.NodeNotFoundError` for an id that is not a paper.
    """
    found = index.paper(paper_id)
    around = index.neighbourhood(paper_id, top=RELATED, year_from=year_from, year_to=year_to)
    names = {c["id"]: c["name"] for c in found["concepts"]}
    related = around["papers"]
    counts = Counter(c for r in related for c in r["shared"] if c in names)
    shared = sorted((c for c, n in counts.items() if n >= 2), key=lambda c: (-counts[c], names[c], c))[:SHARED]
    nodes = [{"id": paper_id, "kind": "paper", "label": found["title"], "year": found["year"],
              "community": found["community"], "centre": True, "weight": None}]
    nodes += [{"id": r["id"], "kind": "paper", "label": r["title"], "year": r["year"], "community": r["community"],
               "centre": False, "weight": r["weight"]} for r in related]
    at = {node["id"]: i for i, node in enumerate(nodes)}
    edges = [[at[link["source"]], at[link["target"]], round(float(link["weight"] or 1.0), 3), link["kind"]]
             for link in around["links"] if link["source"] in at and link["target"] in at]
    for concept in shared:
        edges += [[at[r["id"]], len(nodes), 1.0, "mentions"] for r in [{"id": paper_id}, *related]
                  if r["id"] == paper_id or concept in r["shared"]]
        nodes.append({"id": concept, "kind": "concept", "label": names[concept], "year": None, "community": None,
                      "centre": False, "weight": counts[concept]})
    details = {key: found[key] for key in ("id", "title", "year", "venue", "authors", "abstract")}
    details["link"] = paper_link(paper_id, found)
    details["community"] = _community(found["community"], found["community_label"])
    details["concepts"] = [{"id": c["id"], "name": c["name"]} for c in found["concepts"]]
    return {"paper": details,
            "related": [{"id": r["id"], "title": r["title"], "year": r["year"], "weight": r["weight"],
                         "citation": r.get("citation"),
                         "shared": [{"id": c, "name": names[c]} for c in r["shared"] if c in names]}
                        for r in related],
            "graph": {"nodes": nodes, "edges": edges}}


def concept(index, concept_id: str, *, year_from: int | None = None, year_to: int | None = None) -> dict:
    """A concept (``concept``), its papers per year (``years``; ``in_range`` of them in the range), the
    concepts it co-occurs with (``cooccurring``) and its papers in the range (``papers``).

    Raises :class:`~kg.errors.NodeNotFoundError` for an id that is not a concept.
    """
    found = index.concept(concept_id)
    years = _years(found["years"])
    return {"concept": {"id": found["id"], "name": found["name"], "aliases": found["aliases"],
                        "papers": found["papers"], "community": _community(found["community"],
                                                                           found["community_label"])},
            "years": years, "in_range": _in_range(years, year_from, year_to),
            "cooccurring": found["cooccurring"],
            "papers": index.concept_papers(concept_id, top=LIST, year_from=year_from, year_to=year_to)}


def communities(index, *, year_from: int | None = None, year_to: int | None = None) -> dict:
    """Every community (``communities``: ``id``, ``label``, ``size``, ``in_range``, ``concepts``) and the
    weights between them (``links``: ``[a, b, weight]``), for the overview map."""
    rows = index.communities(year_from=year_from, year_to=year_to)
    return {"communities": [{"id": r["id"], "label": r["label"], "size": r["size"], "in_range": r["papers_in_years"],
                             "concepts": r["concepts"]} for r in rows],
            "links": [[int(a), int(b), round(float(w), 3)] for a, b, w in index.community_links()]}


def community(index, number: int, *, year_from: int | None = None, year_to: int | None = None) -> dict:
    """One community (``community``: ``id``, ``label``, ``size``, ``in_range``, ``concepts``, ``years``), its
    most central papers in the range (``papers``) and the first of them as a graph (``graph``).

    Raises :class:`~kg.errors.NodeNotFoundError` for an unknown number.
    """
    found = index.community(number, top=LIST, year_from=year_from, year_to=year_to)
    years = _years(found["years"])
    drawn = found["papers"][:COMMUNITY_GRAPH]
    at = {p["id"]: i for i, p in enumerate(drawn)}
    edges = [[at[link["source"]], at[link["target"]], round(float(link["weight"] or 1.0), 3), link["kind"]]
             for link in index.links_among(list(at))]
    return {"community": {"id": found["id"], "label": found["label"], "size": found["size"],
                          "in_range": _in_range(years, year_from, year_to) if (year_from, year_to) != (None, None)
                          else found["size"],
                          "concepts": [{"id": c["id"], "name": c["name"]} for c in found["concepts"][:15]],
                          "years": years},
            "papers": found["papers"],
            "graph": {"nodes": [{"id": p["id"], "kind": "paper", "label": p["title"], "year": p["year"],
                                 "community": found["id"], "centre": False, "weight": len(drawn) - i}
                                for i, p in enumerate(drawn)],
                      "edges": edges}}
