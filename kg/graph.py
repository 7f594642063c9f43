"""The paper–concept graph, its citation-style projections, and saving/loading it.

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
the top list of either end).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
from scipy import sparse

from kg.identity import author_id, cited_pairs, paper_ids, venue_id
from kg.models import Concept, Mention, Paper, concept_label

__all__ = [
    "build_graph",
    "related_edges",
    "link_weight",
    "projection",
    "graph_to_json",
    "write_graph_json",
    "graph_from_json",
    "load_graph",
    "papers_of",
    "concepts_of",
    "node_label",
    "cited_pairs",
    "author_id",
    "venue_id",
    "EDGE_KINDS",
]

EDGE_KINDS = ("mentions", "related", "co_occurs", "cites", "wrote", "published_in")
_ENDS = {"related": ("paper",), "cites": ("paper",), "co_occurs": ("concept",),  # the node kinds each kind joins
         "mentions": ("paper", "concept"), "wrote": ("author", "paper"), "published_in": ("paper", "venue")}
_UNDIRECTED = {"related", "co_occurs"}
SIMILARITY_WEIGHT = 10.0  # ln(N+1) times this: what a document cosine of 1 adds (README, bench_related)
CANDIDATE_DF = 100  # concepts in more papers add weight but find no link candidates
_DENSE_BYTES = 1 << 27
RELATED_PARAMETERS = "related_parameters"  # graph attribute: how the related links were weighed
AUTHOR_WEIGHT = 2.0  # with document vectors: a shared author counts this many times its idf


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


def _author_incidence(paper_ids: Sequence[str], by_id: Mapping[str, Paper]) -> sparse.csr_matrix:
    """Papers × authors (by :func:`author_id`, as the ``wrote`` edges) 0/1 matrix."""
    columns: dict[str, int] = {}
    rows, cols = [], []
    for i, pid in enumerate(paper_ids):
        for aid in sorted({a for a in map(author_id, by_id[pid].authors) if a is not None}):
            rows.append(i)
            cols.append(columns.setdefault(aid, len(columns)))
    return sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(paper_ids), len(columns)))


def related_edges(paper_ids: Sequence[str], concept_ids: Sequence[str], x: sparse.csr_matrix, *,
                  top_k: int = 20, min_shared: int = 0, chunk: int = 2048,
                  doc_vectors: np.ndarray | None = None, similarity_weight: float = SIMILARITY_WEIGHT,
                  authors: sparse.csr_matrix | None = None, author_weight: float = AUTHOR_WEIGHT,
                  cited: Iterable[tuple[str, str]] = (), candidates: int = 100,
                  candidate_df: int = CANDIDATE_DF):
    """Yield ``(p, q, weight, shared_concept_ids)`` for the kept paper–paper links, sorted by id (p < q).

    The weight is :func:`link_weight`: shared concepts' idf, plus, when ``doc_vectors`` are
    given, the document cosine and shared authors (``authors``: a papers × authors 0/1
    matrix), plus a citation either way. Each paper's candidates are its ``candidates``
    best by shared concepts (concepts in more than ``candidate_df`` papers only add to the
    weight of candidates found otherwise: they would pair a large share of the corpus),
    its ``candidates`` nearest by document vector (:func:`kg.vectors.nearest_neighbours`),
    the papers of its authors (of at most ``candidate_df`` papers) and the papers it cites
    or is cited by; of these it keeps its ``top_k`` best with at least ``min_shared`` shared
    concepts or a citation (ties by id). A link stays if either end keeps it.
    ``doc_vectors``: unit rows aligned with ``paper_ids``; they are rounded to float16 as
    :func:`kg.vectors.save_paper_vectors` stores them, so ``kg related`` finds the same weights.
    """
    n = x.shape[0]
    idf = _idf(x, n)
    vectors = None if doc_vectors is None else _unit_rows(doc_vectors, n)
    if vectors is None:
        similarity_weight, authors = 0.0, None
    index = {p: i for i, p in enumerate(paper_ids)}
    cites: dict[int, set[int]] = defaultdict(set)
    for a, b in cited:
        if a in index and b in index and a != b:
            cites[index[a]].add(index[b])
            cites[index[b]].add(index[a])
    concept_part = _Overlap(x, idf, candidate_df, counts=min_shared > 1)
    author_part = None
    if authors is not None and author_weight > 0 and authors.shape[1]:
        author_idf = _idf(authors, n)
        author_part = _Overlap(authors, author_weight * author_idf, candidate_df, frequent=False)
    neighbours = None
    if vectors is not None and similarity_weight > 0:
        from kg.vectors import nearest_neighbours

        neighbours = nearest_neighbours(vectors, candidates)
    bonus = math.log(n + 1)
    keep: set[tuple[int, int]] = set()
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        concept_part.block(start, stop)
        if author_part is not None:
            author_part.block(start, stop)
        for i in range(start, stop):
            found = [concept_part.best(i, candidates)]
            if author_part is not None:
                found.append(author_part.best(i, candidates))
            if neighbours is not None:
                found.append(neighbours[i][neighbours[i] >= 0])
            mine = cites.get(i, set())
            if mine:
                found.append(np.fromiter(sorted(mine), dtype=np.int64, count=len(mine)))
            cand = np.unique(np.concatenate(found).astype(np.int64))
            cand = cand[cand != i]
            if not len(cand):
                continue
            score, shared_n = concept_part.score(i, cand)
            cited_i = np.isin(cand, np.fromiter(mine, dtype=np.int64, count=len(mine)))
            score += bonus * cited_i
            if author_part is not None:
                score += author_part.score(i, cand)[0]
            if neighbours is not None:
                score += bonus * similarity_weight * (vectors[cand] @ vectors[i])
            ok = ((shared_n >= min_shared) | cited_i) & (score > 0)
            cand, score = cand[ok], score[ok]
            for j in cand[np.lexsort((cand, -score))[:top_k]].tolist():
                keep.add((min(i, j), max(i, j)))
    pairs = sorted(keep, key=lambda ij: (paper_ids[ij[0]], paper_ids[ij[1]]))
    left = np.fromiter((i for i, _ in pairs), dtype=np.int64, count=len(pairs))
    right = np.fromiter((j for _, j in pairs), dtype=np.int64, count=len(pairs))
    # Every pair's shared concepts at once, each pair's rarest first (ties by id: concept_ids are sorted)
    rank = np.empty(len(concept_ids), dtype=np.int64)
    rank[np.lexsort((np.arange(len(concept_ids)), -idf))] = np.arange(len(concept_ids))
    shared_ptr, shared_idx = _common_columns(x, left, right, rank)
    if author_part is not None:
        author_ptr, author_idx = _common_columns(authors, left, right)
        counted = np.array([author_part.counts_for(a) for a in range(authors.shape[1])], dtype=bool)
    for k, (i, j) in enumerate(pairs):
        columns = shared_idx[shared_ptr[k]:shared_ptr[k + 1]].tolist()
        cosine = 0.0
        if vectors is not None:
            cosine = float(np.dot(vectors[i].astype(np.float64), vectors[j].astype(np.float64)))
        author_idf_sum: list[float] = []
        if author_part is not None and author_ptr[k + 1] > author_ptr[k]:
            common = author_idx[author_ptr[k]:author_ptr[k + 1]]
            author_idf_sum = author_idf[common[counted[common]]].tolist()
        weight = link_weight(idf[columns].tolist(), n, cosine=cosine, cited=j in cites.get(i, ()),
                             shared_authors_idf=author_idf_sum, similarity_weight=similarity_weight,
                             author_weight=author_weight)
        p, q = sorted((paper_ids[i], paper_ids[j]))
        yield p, q, weight, [concept_ids[c] for c in columns]


def _common_columns(x: sparse.csr_matrix, left: np.ndarray, right: np.ndarray,
                    rank: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The columns rows ``left[k]`` and ``right[k]`` of a 0/1 matrix share, for every k, as
    ``(indptr, indices)``: pair k's columns are ``indices[indptr[k]:indptr[k + 1]]``, in
    ascending ``rank`` (default: column) order."""
    both = x[left].multiply(x[right]).tocsr()
    both.eliminate_zeros()
    indices, indptr = both.indices.astype(np.int64), both.indptr.astype(np.int64)
    rows = np.repeat(np.arange(len(left)), np.diff(indptr))
    indices = indices[np.lexsort((rank[indices] if rank is not None else indices, rows))]
    return indptr, indices


def link_weight(shared_idf: Sequence[float], n_papers: int, *, cosine: float = 0.0, cited: bool = False,
                shared_authors_idf: Sequence[float] = (), similarity_weight: float = SIMILARITY_WEIGHT,
                author_weight: float = AUTHOR_WEIGHT) -> float:
    """A ``related`` link's weight, rounded to 4 decimals.

    ``Σ idf(shared concepts) + author_weight · Σ idf(shared authors)
    + ln(N + 1) · (similarity_weight · cosine + 1 if cited)``, each sum taken largest first,
    with ``idf = ln((N + 1) / papers)``: a concept only the two papers have counts
    ``ln((N + 1) / 2)``, a citation as much as a concept no other paper has.
    """
    weight = float(sum(sorted(shared_idf, reverse=True)))
    weight += author_weight * float(sum(sorted(shared_authors_idf, reverse=True)))
    weight += math.log(n_papers + 1) * (similarity_weight * cosine + (1.0 if cited else 0.0))
    return round(weight, 4)


def _idf(x: sparse.csr_matrix, n: int) -> np.ndarray:
    return np.log((n + 1) / np.maximum(np.asarray(x.sum(axis=0)).ravel(), 1))


class _Overlap:
    """Weighted overlap of one paper's columns (concepts, authors) with other papers'.

    Columns in at most ``max_df`` papers go through a sparse product, a chunk of papers at a
    time (work per paper about ``Σ df²`` over its columns, bounded by ``max_df``: linear in
    the corpus); the more frequent ones (at most ``nnz / max_df``) through a dense 0/1 table
    (``max_df`` doubles while that table would pass 128 MB), only for given candidates, or not
    at all (``frequent=False``)."""

    def __init__(self, x: sparse.csr_matrix, weights: np.ndarray, max_df: int, *, counts: bool = False,
                 frequent: bool = True):
        df = np.asarray(x.sum(axis=0)).ravel()
        while frequent and x.shape[0] * int((df > max_df).sum()) > _DENSE_BYTES:
            max_df *= 2  # keep the 0/1 table of frequent columns small
        self.rare = df <= max_df
        x_rare = x[:, self.rare].tocsr()
        self.x_rare, self.weighted = x_rare, (x_rare @ sparse.diags(weights[self.rare])).tocsr()
        self.xt = x_rare.T.tocsr()
        cols = np.flatnonzero(~self.rare) if frequent else np.zeros(0, dtype=np.int64)
        self.dense = x[:, cols].toarray().astype(bool)
        self.dense_weights = weights[cols]
        self.counts = counts
        self.start = 0

    def counts_for(self, column: int) -> bool:
        return bool(self.rare[column]) or self.dense.shape[1] > 0

    def block(self, start: int, stop: int) -> None:
        self.start = start
        self.product = (self.weighted[start:stop] @ self.xt).tocsr()
        self.product.sort_indices()
        if self.counts:
            self.count = (self.x_rare[start:stop] @ self.xt).tocsr()
            self.count.sort_indices()  # the same pattern as product, in the same order

    def best(self, i: int, k: int) -> np.ndarray:
        lo, hi = self.product.indptr[i - self.start], self.product.indptr[i - self.start + 1]
        cols, vals = self.product.indices[lo:hi], self.product.data[lo:hi]
        return cols if len(cols) <= k else cols[np.lexsort((cols, -vals))[:k]]

    def score(self, i: int, cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Weighted overlap of paper ``i`` with each of ``cand`` (sorted), and how many columns they share
        (at least 1 where any rare one is shared, unless counted exactly)."""
        lo, hi = self.product.indptr[i - self.start], self.product.indptr[i - self.start + 1]
        cols = self.product.indices[lo:hi]
        pos = np.minimum(np.searchsorted(cols, cand), max(len(cols) - 1, 0))
        hit = (cols[pos] == cand) if len(cols) else np.zeros(len(cand), bool)
        score = np.where(hit, self.product.data[lo:hi][pos] if len(cols) else 0.0, 0.0)
        count = hit.astype(np.float64)
        if self.counts and len(cols):
            count = np.where(hit, self.count.data[lo:hi][pos], 0.0)
        mine = self.dense[i]
        if mine.any():
            common = self.dense[cand][:, mine]
            score = score + common @ self.dense_weights[mine]
            count = count + common.sum(axis=1)
        return score, count


def _unit_rows(doc_vectors: np.ndarray, n: int) -> np.ndarray:
    vectors = np.asarray(doc_vectors)
    if vectors.ndim != 2 or vectors.shape[0] != n:
        raise ValueError(f"doc_vectors of shape {vectors.shape} for {n} papers; expected one row per paper")
    return vectors.astype(np.float16).astype(np.float32)  # as saved beside the graph


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

    x = _incidence(paper_ids, concept_ids, mentions)
    vectors = None
    if doc_vectors is not None:
        given = np.asarray(doc_vectors)
        if given.ndim != 2 or given.shape[0] != len(papers):
            raise ValueError(f"doc_vectors of shape {given.shape} for {len(papers)} papers; "
                             "expected one row per paper, in the order of papers")
        row = {p.id: i for i, p in enumerate(papers)}
        vectors = given[[row[pid] for pid in paper_ids]]
    citations, unresolved = cited_pairs(papers)
    authors = _author_incidence(paper_ids, by_id) if vectors is not None else None
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
    node_kind = _ENDS[kind]
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


def node_label(data: Mapping, default: str = "") -> str:
    """How pages, reports and listings show a node, from its attributes ``data``: a concept's
    name with its acronym (:func:`kg.models.concept_label`), else the node's name, title or label.

    Examples
    --------
    >>> node_label({"kind": "concept", "name": "collaborative filtering", "acronym": "CF"})
    'collaborative filtering (CF)'
    >>> node_label({"kind": "paper", "title": "A study"}), node_label({}, "c:x")
    ('A study', 'c:x')
    """
    name = data.get("name")
    if data.get("kind") == "concept" and isinstance(name, str) and name:
        acronym = data.get("acronym")
        return concept_label(name, acronym if isinstance(acronym, str) else None)
    return str(name or data.get("title") or data.get("label") or default)


def concepts_of(graph: nx.Graph) -> list[str]:
    """Ids of the concept nodes, in graph order."""
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == "concept"]


from kg.graphfile import graph_from_json, graph_to_json, load_graph, write_graph_json  # noqa: E402  (re-exported)
