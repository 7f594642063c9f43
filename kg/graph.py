"""The paper–concept graph, its citation-style projections, and saving/loading it.

Schema (one ``nx.MultiDiGraph``; every edge's key is its ``kind``):

============  =====================  ==================================================
node kind     id                     attributes
============  =====================  ==================================================
``paper``     the paper id           label, title, title_derived, abstract, year, venue,
                                     authors, keyphrases, doi, ids, references, source
``concept``   ``c:`` + concept key   label, name, aliases, papers (document frequency)
``author``    ``a:`` + person key    label, name, papers (number of papers)
``venue``     ``v:`` + venue key     label, name, papers (number of papers)
============  =====================  ==================================================

============  ==================  ==================================================
edge kind     direction           attributes
============  ==================  ==================================================
mentions      paper -> concept    score, rank, surface, weight (= score)
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
the top list of either end).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
from scipy import sparse

from kg.errors import GraphFileError
from kg.identity import author_id, cited_pairs, paper_ids, venue_id
from kg.models import Concept, Mention, Paper

__all__ = [
    "build_graph",
    "projection",
    "graph_to_json",
    "graph_from_json",
    "load_graph",
    "papers_of",
    "concepts_of",
    "cited_pairs",
    "author_id",
    "venue_id",
    "EDGE_KINDS",
]

EDGE_KINDS = ("mentions", "related", "co_occurs", "cites", "wrote", "published_in")
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


def _add_people_and_venues(graph: nx.MultiDiGraph, papers: Sequence[Paper]) -> None:
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


def _incidence(paper_ids: Sequence[str], concept_ids: Sequence[str],
               mentions: Iterable[Mention]) -> sparse.csr_matrix:
    prow = {p: i for i, p in enumerate(paper_ids)}
    ccol = {c: j for j, c in enumerate(concept_ids)}
    rows, cols = [], []
    for m in mentions:
        rows.append(prow[m.paper_id])
        cols.append(ccol[m.concept_id])
    data = np.ones(len(rows), dtype=np.float64)
    matrix = sparse.csr_matrix((data, (rows, cols)), shape=(len(paper_ids), len(concept_ids)))
    matrix.sum_duplicates()  # also sorts indices
    matrix.data[:] = 1.0  # duplicates collapse to presence
    return matrix


def related_edges(paper_ids: Sequence[str], concept_ids: Sequence[str], x: sparse.csr_matrix, *,
                  top_k: int = 20, min_shared: int = 1, chunk: int = 2048):
    """Yield ``(p, q, weight, shared_concept_ids)`` for the kept paper–paper links (p < q)."""
    n = x.shape[0]
    df = np.asarray(x.sum(axis=0)).ravel()
    idf = np.log((n + 1) / np.maximum(df, 1))
    weighted = (x @ sparse.diags(idf)).tocsr()
    xt = x.T.tocsr()
    keep: set[tuple[int, int]] = set()
    for start in range(0, n, chunk):
        block_w = (weighted[start : start + chunk] @ xt).tocsr()
        block_n = (x[start : start + chunk] @ xt).tocsr()
        block_w.sort_indices()
        block_n.sort_indices()  # same sparsity pattern as block_w, now in the same order
        for local in range(block_w.shape[0]):
            i = start + local
            lo, hi = block_w.indptr[local], block_w.indptr[local + 1]
            cols, vals = block_w.indices[lo:hi], block_w.data[lo:hi]
            mask = (cols != i) & (vals > 0) & (block_n.data[lo:hi] >= min_shared)
            cols, vals = cols[mask], vals[mask]
            order = np.lexsort((cols, -vals))[:top_k]  # strongest first, ties by position
            for j in cols[order].tolist():
                keep.add((min(i, j), max(i, j)))
    indptr, indices = x.indptr, x.indices
    for i, j in sorted(keep, key=lambda ij: (paper_ids[ij[0]], paper_ids[ij[1]])):
        shared_idx = np.intersect1d(indices[indptr[i]:indptr[i + 1]], indices[indptr[j]:indptr[j + 1]],
                                    assume_unique=True)
        shared = sorted(((-idf[c], concept_ids[c]) for c in shared_idx.tolist()))
        weight = float(sum(-s for s, _ in shared))
        p, q = sorted((paper_ids[i], paper_ids[j]))
        yield p, q, round(weight, 4), [c for _, c in shared]


def build_graph(
    papers: Sequence[Paper],
    concepts: Mapping[str, Concept],
    mentions: Sequence[Mention],
    *,
    related_top_k: int = 20,
    min_shared: int = 1,
    min_cooccurrence: int = 1,
    metadata: Mapping[str, object] | None = None,
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
        Fewest shared concepts for a ``related`` link.
    min_cooccurrence : int
        Fewest papers in which two concepts co-occur for a ``co_occurs`` link.
    metadata : dict, optional
        Stored as graph attributes (kg version, extractor, parameters, …).

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
        graph.add_node(cid, kind="concept", label=concept.name, name=concept.name,
                       aliases=list(concept.aliases), papers=df[cid])

    for m in sorted(mentions, key=lambda m: (m.paper_id, m.rank)):
        graph.add_edge(m.paper_id, m.concept_id, key="mentions", kind="mentions",
                       score=m.score, rank=m.rank, surface=m.surface, weight=m.score)

    x = _incidence(paper_ids, concept_ids, mentions)
    for p, q, weight, shared in related_edges(paper_ids, concept_ids, x,
                                              top_k=related_top_k, min_shared=min_shared):
        graph.add_edge(p, q, key="related", kind="related", weight=weight,
                       shared=shared, n_shared=len(shared))

    co = sparse.triu((x.T @ x).tocsr(), k=1).tocoo()
    pairs = sorted((concept_ids[i], concept_ids[j], int(v)) for i, j, v in zip(co.row, co.col, co.data)
                   if v >= min_cooccurrence)
    for a, b, count in pairs:
        graph.add_edge(a, b, key="co_occurs", kind="co_occurs", count=count, weight=count)

    pairs, unresolved = cited_pairs(papers)
    for citing, cited in pairs:
        graph.add_edge(citing, cited, key="cites", kind="cites", weight=1)
    graph.graph["unresolved_references"] = unresolved
    _add_people_and_venues(graph, papers)
    return graph


def projection(graph: nx.MultiDiGraph, kind: str) -> nx.Graph:
    """One edge kind as a simple graph over the nodes it can join.

    ``related`` and ``co_occurs`` give an undirected ``nx.Graph`` over all papers or
    all concepts (isolated ones included); ``cites`` a ``nx.DiGraph`` over all papers;
    ``mentions``, ``wrote`` and ``published_in`` the undirected bipartite paper–concept,
    author–paper and paper–venue graphs. Edge attributes are
    copied; node attributes are shared by reference.
    """
    if kind not in EDGE_KINDS:
        raise ValueError(f"unknown edge kind {kind!r}; choose from {EDGE_KINDS}")
    node_kind = {"related": ("paper",), "cites": ("paper",), "co_occurs": ("concept",),
                 "mentions": ("paper", "concept"), "wrote": ("author", "paper"),
                 "published_in": ("paper", "venue")}[kind]
    out: nx.Graph = nx.DiGraph() if kind == "cites" else nx.Graph()
    out.graph.update(graph.graph)
    out.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if d.get("kind") in node_kind)
    out.add_edges_from((u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == kind)
    return out


def papers_of(graph: nx.Graph) -> list[str]:
    """Ids of the paper nodes, in graph order."""
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == "paper"]


def concepts_of(graph: nx.Graph) -> list[str]:
    """Ids of the concept nodes, in graph order."""
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == "concept"]


def graph_to_json(graph: nx.MultiDiGraph) -> str:
    """NetworkX node-link JSON (``nodes``/``edges``), deterministic: sorted keys, no timestamps."""
    data = nx.node_link_data(graph, edges="edges")
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def graph_from_json(text: str | bytes, *, source: str = "graph.json") -> nx.MultiDiGraph:
    """Inverse of :func:`graph_to_json`, checking what it reads (the file may have been edited).

    Raises
    ------
    GraphFileError
        When ``text`` is not a kg graph; the message says where: line and column of a
        JSON or UTF-8 error, or the node or edge that lacks a ``kind``, points at a
        missing node, or has an attribute of the wrong type.
    """
    from kg._graph_json import check_node_link

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = text.count(b"\n", 0, exc.start) + 1
            raise GraphFileError(f"{source}:{line}: not UTF-8 (byte 0x{text[exc.start]:02x} at offset {exc.start}); "
                                 "rebuild it with kg build") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GraphFileError(f"{source}:{exc.lineno}:{exc.colno}: not a kg graph, not even JSON ({exc.msg}); "
                             "rebuild it with kg build") from None
    except RecursionError:
        raise GraphFileError(f"{source}: not a kg graph (nested too deeply); rebuild it with kg build") from None
    attrs, nodes, edges = check_node_link(data, source)
    graph = nx.MultiDiGraph()
    graph.graph.update(attrs)
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def load_graph(directory: str | os.PathLike[str]) -> nx.MultiDiGraph:
    """The graph that ``kg build`` wrote into ``directory`` (its ``graph.json``; or that file itself).

    Raises
    ------
    GraphFileError
        When the folder or its ``graph.json`` is missing, unreadable or not a kg graph.
    """
    name = os.fspath(directory)
    path = os.path.join(name, "graph.json") if os.path.isdir(name) else name
    if not os.path.exists(name):
        raise GraphFileError(f"{name}: no such folder; build one with kg build PAPERS --out DIR")
    if not os.path.isfile(path):
        raise GraphFileError(f"{name}: no graph.json in this folder; build one with kg build PAPERS --out DIR")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise GraphFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return graph_from_json(data, source=path)
