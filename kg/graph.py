"""The paper–concept graph: building it from papers, concepts and mentions, and its projections.

Schema (one ``nx.MultiDiGraph``; every edge's key is its ``kind``):

============  =====================  ==================================================
node kind     id                     attributes
============  =====================  ==================================================
``paper``     the paper id           label, title, title_derived, abstract, year, venue,
                                     authors, keyphrases, doi, ids, references, source
``concept``   ``c:`` + concept key   label (name and acronym), name, acronym (only when it has
                                     one), aliases, papers (document frequency)
``author``    ``a:`` + person key    label, name, papers (number of papers)
``venue``     ``v:`` + venue key     label, name, papers (number of papers)
============  =====================  ==================================================

============  ==================  ==================================================
edge kind     direction           attributes
============  ==================  ==================================================
mentions      paper -> concept    score, rank, surface, weight (= score, or 0 if negative)
related       paper -- paper      weight, shared (concept ids), n_shared
co_occurs     concept -- concept  count, weight (= count)
cites         paper -> paper      weight (= 1)
wrote         author -> paper     position (1 = first author), weight (= 1)
published_in  paper -> venue      weight (= 1)
============  ==================  ==================================================

Person keys are the name in ``First Last`` order, accents, case and punctuation
removed (``Müller, Anna`` -> ``a:anna muller``); venue keys drop years and
``'15``-style suffixes too (``KDD '15`` and ``KDD 2016`` -> ``v:kdd``). A paper's ``ids``
are its external ids as ``scheme:value`` (``doi:…``, ``arxiv:…``, ``openalex:W…``,
``s2:…``, ``alias:<id of a merged duplicate>``); ``references`` keeps its raw reference
identifiers. References that resolve to a paper in the corpus (by id, DOI, arXiv,
OpenAlex or Semantic Scholar id) are ``cites`` edges; the others are counted in the
graph attribute ``unresolved_references``.
:mod:`kg.identity` resolves references and makes author/venue ids;
:mod:`kg.citations` derives co-citation, bibliographic-coupling and co-authorship
projections from these.

Undirected kinds (``related``, ``co_occurs``) are stored once, from the smaller id
to the larger. :func:`projection` gives each kind as its own simple graph.

``related`` weight: for papers *p*, *q* sharing concepts *S*,
``w(p, q) = Σ_{c ∈ S} ln((N + 1) / df(c))`` where *N* is the number of papers and
*df(c)* the number of papers mentioning *c*: a concept shared by two papers out of
a thousand counts ln(500.5) ≈ 6.2, one shared by half of them ln(2) ≈ 0.7.
Each paper keeps its ``related_top_k`` strongest links (an edge stays if it is in
the top list of either end); :mod:`kg.links` scores them. :mod:`kg.graphfile` saves and
loads the graph.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
from scipy import sparse

from kg.identity import author_id, cited_pairs, paper_ids, venue_id
from kg.links import (AUTHOR_WEIGHT, RELATED_PARAMETERS, SIMILARITY_WEIGHT, author_incidence, incidence,
                      related_edges)
from kg.models import Concept, Mention, Paper, node_label

__all__ = [
    "build_graph",
    "add_people_and_venues",
    "projection",
    "papers_of",
    "concepts_of",
    "node_label",
    "cited_pairs",
    "author_id",
    "venue_id",
    "EDGE_KINDS",
    "EDGE_ENDS",
]

EDGE_KINDS = ("mentions", "related", "co_occurs", "cites", "wrote", "published_in")
EDGE_ENDS = {"related": ("paper",), "cites": ("paper",), "co_occurs": ("concept",),  # the node kinds each kind joins
         "mentions": ("paper", "concept"), "wrote": ("author", "paper"), "published_in": ("paper", "venue")}
_UNDIRECTED = {"related", "co_occurs"}


def _paper_attrs(paper: Paper) -> dict[str, object]:
    return {
        "kind": "paper",
        "label": paper.title,
        "title": paper.title,
        "title_derived": paper.title_derived,
        "abstract": paper.abstract,
        "year": paper.year,
        "venue": paper.venue,
        "authors": list(paper.authors),
        "keyphrases": list(paper.keyphrases),
        "doi": paper.ids.get("doi"),
        "ids": paper_ids(paper),
        "references": list(paper.references),
        "source": paper.source,
    }


def add_people_and_venues(graph: nx.MultiDiGraph, papers: Sequence[Paper]) -> None:
    """``author`` and ``venue`` nodes with ``wrote`` and ``published_in`` edges, in sorted order."""
    names: dict[str, str] = {}
    counts: dict[str, int] = defaultdict(int)
    wrote: dict[tuple[str, str], int] = {}
    published: list[tuple[str, str]] = []
    for paper in sorted(papers, key=lambda p: p.id):
        for position, name in enumerate(paper.authors, start=1):
            aid = author_id(name)
            if aid is None or (aid, paper.id) in wrote:
                continue
            wrote[aid, paper.id] = position
            names.setdefault(aid, name)
            counts[aid] += 1
        vid = venue_id(paper.venue) if paper.venue else None
        if vid is not None:
            published.append((paper.id, vid))
            names.setdefault(vid, paper.venue)  # type: ignore[arg-type]
            counts[vid] += 1
    for node in sorted(names):
        kind = "author" if node.startswith("a:") else "venue"
        graph.add_node(node, kind=kind, label=names[node], name=names[node], papers=counts[node])
    for (aid, pid), position in sorted(wrote.items()):
        graph.add_edge(aid, pid, key="wrote", kind="wrote", position=position, weight=1)
    for pid, vid in sorted(published):
        graph.add_edge(pid, vid, key="published_in", kind="published_in", weight=1)


def build_graph(
    papers: Sequence[Paper],
    concepts: Mapping[str, Concept],
    mentions: Sequence[Mention],
    *,
    related_top_k: int = 20,
    min_shared: int = 0,
    min_cooccurrence: int = 1,
    metadata: Mapping[str, object] | None = None,
    doc_vectors: np.ndarray | None = None,
    similarity_weight: float = SIMILARITY_WEIGHT,
    author_weight: float = AUTHOR_WEIGHT,
) -> nx.MultiDiGraph:
    """Build the paper–concept graph with its ``related``, ``co_occurs`` and ``cites`` edges.

    Parameters
    ----------
    papers : sequence of Paper
    concepts : dict
        Concept id -> Concept, as :func:`kg.normalize.normalize_concepts` returns.
    mentions : sequence of Mention
    related_top_k : int
        Strongest ``related`` links kept per paper.
    min_shared : int
        Fewest shared concepts for a ``related`` link (a citation always links). Without
        ``doc_vectors`` 0 and 1 are the same; with them, 0 also lets document similarity
        and shared authors link papers that share no concept (``shared`` is then empty).
    min_cooccurrence : int
        Fewest papers in which two concepts co-occur for a ``co_occurs`` link.
    metadata : dict, optional
        Stored as graph attributes (kg version, extractor, parameters, …).
    doc_vectors : numpy.ndarray, optional
        Unit document vectors, one float32 row per paper in the order of ``papers``
        (:func:`kg.extract.document_text` embedded); they add document similarity to the
        ``related`` links and find candidates that share no rare concept. Without them,
        links rest on shared concepts (and citations) alone.
    similarity_weight : float
        What a document cosine of 1 adds to a link, in concepts no other paper has.
    author_weight : float
        With ``doc_vectors``: how many times its idf a shared author adds to a link.

    Returns
    -------
    networkx.MultiDiGraph
        Nodes and edges inserted in sorted order, so equal input gives an equal graph.
    """
    graph = nx.MultiDiGraph()
    graph.graph.update(dict(metadata or {}))
    paper_ids = sorted(p.id for p in papers)
    by_id = {p.id: p for p in papers}
    for pid in paper_ids:
        graph.add_node(pid, **_paper_attrs(by_id[pid]))

    df: dict[str, int] = defaultdict(int)
    for m in mentions:
        df[m.concept_id] += 1
    concept_ids = sorted(c for c in concepts if df.get(c))
    for cid in concept_ids:
        concept = concepts[cid]
        acronym = {"acronym": concept.acronym} if concept.acronym else {}
        graph.add_node(cid, kind="concept", label=concept.label, name=concept.name, **acronym,
                       aliases=list(concept.aliases), papers=df[cid])

    # weight: the score, but never negative (ranking bonuses and penalties can take a
    # weak phrase below 0; centralities need weights >= 0)
    _add_edges(graph, ((m.paper_id, m.concept_id, "mentions",
                        {"kind": "mentions", "score": m.score, "rank": m.rank, "surface": m.surface,
                         "weight": max(m.score, 0.0)})
                       for m in sorted(mentions, key=lambda m: (m.paper_id, m.rank))))

    x = incidence(paper_ids, concept_ids, mentions)
    vectors = None
    if doc_vectors is not None:
        given = np.asarray(doc_vectors)
        if given.ndim != 2 or given.shape[0] != len(papers):
            raise ValueError(f"doc_vectors of shape {given.shape} for {len(papers)} papers; "
                             "expected one row per paper, in the order of papers")
        row = {p.id: i for i, p in enumerate(papers)}
        vectors = given[[row[pid] for pid in paper_ids]]
    citations, unresolved = cited_pairs(papers)
    authors = author_incidence(paper_ids, by_id) if vectors is not None else None
    graph.graph[RELATED_PARAMETERS] = json.dumps(  # kg related weighs any pair as these links
        {"vectors": vectors is not None, "similarity_weight": similarity_weight, "author_weight": author_weight,
         "min_shared": min_shared}, sort_keys=True)
    links = related_edges(paper_ids, concept_ids, x, top_k=related_top_k, min_shared=min_shared,
                          doc_vectors=vectors, similarity_weight=similarity_weight, authors=authors,
                          author_weight=author_weight, cited=citations)
    _add_edges(graph, ((p, q, "related", {"kind": "related", "weight": weight, "shared": shared,
                                          "n_shared": len(shared)}) for p, q, weight, shared in links))

    co = sparse.triu((x.T @ x).tocsr(), k=1).tocoo()
    pairs = sorted((concept_ids[i], concept_ids[j], int(v)) for i, j, v in zip(co.row, co.col, co.data)
                   if v >= min_cooccurrence)
    _add_edges(graph, ((a, b, "co_occurs", {"kind": "co_occurs", "count": count, "weight": count})
                       for a, b, count in pairs))

    for citing, cited in citations:
        graph.add_edge(citing, cited, key="cites", kind="cites", weight=1)
    graph.graph["unresolved_references"] = unresolved
    add_people_and_venues(graph, papers)
    return graph


def _add_edges(graph: nx.MultiDiGraph, edges: Iterable[tuple[str, str, str, dict]]) -> None:
    """Add ``(u, v, key, data)`` edges between nodes already in ``graph``, none there yet.

    What ``add_edge`` does for such an edge, without its per-call checks and copies: the
    same adjacency, in the same order (on 25k papers, 1.1 M edges: a third of the stage).
    """
    succ, pred, new_keys = graph._succ, graph._pred, graph.edge_key_dict_factory
    for u, v, key, data in edges:
        if u not in succ or v not in succ:
            raise ValueError(f"edge {u!r} -> {v!r} ({key}) joins a node the graph does not have")
        keys = succ[u].get(v)
        if keys is None:
            keys = succ[u][v] = pred[v][u] = new_keys()
        if key in keys:
            raise ValueError(f"edge {u!r} -> {v!r} ({key}) added twice")
        keys[key] = data
    nx._clear_cache(graph)


def projection(graph: nx.MultiDiGraph, kind: str, *, attrs: Sequence[str] | None = None) -> nx.Graph:
    """One edge kind as a simple graph over the nodes it can join.

    ``related`` and ``co_occurs`` give an undirected ``nx.Graph`` over all papers or
    all concepts (isolated ones included); ``cites`` a ``nx.DiGraph`` over all papers;
    ``mentions``, ``wrote`` and ``published_in`` the undirected bipartite paper–concept,
    author–paper and paper–venue graphs. Edge attributes are
    copied (only those named in ``attrs``, when given); node attributes are shared by
    reference.
    """
    if kind not in EDGE_KINDS:
        raise ValueError(f"unknown edge kind {kind!r}; choose from {EDGE_KINDS}")
    node_kind = EDGE_ENDS[kind]
    out: nx.Graph = nx.DiGraph() if kind == "cites" else nx.Graph()
    out.graph.update(graph.graph)
    ends = [(n, d) for n, d in graph.nodes(data=True) if d.get("kind") in node_kind]
    out.add_nodes_from(ends)
    # Each end's own adjacency, in graph order: the edges graph.edges() would list, without
    # walking the other kinds' edges (on 25k papers, 1.2 M edges for 0.2 M co-occurrences).
    succ, joined = graph._succ, {n for n, _ in ends}  # the plain dicts: no view objects per node
    if attrs is None:
        out.add_edges_from((u, v, keys[kind]) for u, _ in ends for v, keys in succ[u].items()
                           if kind in keys and v in joined)
    else:  # only what the caller reads: a fraction of the memory on large graphs
        out.add_edges_from((u, v, {a: keys[kind][a] for a in attrs if a in keys[kind]})
                           for u, _ in ends for v, keys in succ[u].items() if kind in keys and v in joined)
    return out


def papers_of(graph: nx.Graph) -> list[str]:
    """Ids of the paper nodes, in graph order."""
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == "paper"]


def concepts_of(graph: nx.Graph) -> list[str]:
    """Ids of the concept nodes, in graph order."""
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == "concept"]
