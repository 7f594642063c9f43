"""``related`` links with and without document vectors, kg related's agreement with them, paper vectors."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import sparse

from kg.analyze.related import related_papers
from kg.graph import build_graph
from kg.graphfile import graph_to_json
from kg.links import AUTHOR_WEIGHT, SIMILARITY_WEIGHT, link_weight, related_edges
from kg.models import Concept, Mention, Paper
from kg.errors import GraphFileError
from kg.vectors import load_paper_vectors, nearest_neighbours, save_paper_vectors


def _unit(rows) -> np.ndarray:
    v = np.asarray(rows, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _incidence(rows: list[list[int]], n_cols: int) -> sparse.csr_matrix:
    r = [i for i, row in enumerate(rows) for _ in row]
    c = [j for row in rows for j in row]
    return sparse.csr_matrix((np.ones(len(r)), (r, c)), shape=(len(rows), n_cols))


# p0 and p1 share the rare concept 0; p0 and p3 share only the frequent concept 1, but their
# documents say the same thing (cosine 0.99); p2, p4 and p5 are elsewhere.
IDS = ["p0", "p1", "p2", "p3", "p4", "p5"]
CONCEPTS = ["c:rare", "c:frequent", "c:x", "c:y"]
X = _incidence([[0, 1], [0, 1], [1, 2], [1], [1, 3], [1, 2, 3]], 4)
VECTORS = _unit([[1, 0, 0, 0], [0.3, 1, 0, 0], [0, 0, 1, 0], [1, 0.14, 0, 0], [0, 0, 0, 1], [0, 0.5, 1, 1]])


def _links(**kw) -> dict[tuple[str, str], tuple[float, list[str]]]:
    return {(p, q): (w, s) for p, q, w, s in related_edges(IDS, CONCEPTS, X, **kw)}


def test_without_vectors_links_rest_on_shared_concepts():
    links = _links(top_k=1, candidate_df=3)
    n = 6
    assert links[("p0", "p1")] == (round(math.log(7 / 2) + math.log(7 / 6), 4), ["c:rare", "c:frequent"])
    assert ("p0", "p3") not in links  # only the frequent concept: not even a candidate


def test_vectors_find_a_paper_that_shares_no_rare_concept():
    links = _links(top_k=1, candidate_df=3, doc_vectors=VECTORS)
    assert ("p0", "p3") in links  # found by document similarity, explained by what they share
    weight, shared = links[("p0", "p3")]
    cosine = float(VECTORS[0].astype(np.float16).astype(np.float64) @ VECTORS[3].astype(np.float16).astype(np.float64))
    assert shared == ["c:frequent"]
    assert weight == link_weight([math.log(7 / 6)], 6, cosine=cosine)
    assert weight == pytest.approx(math.log(7 / 6) + SIMILARITY_WEIGHT * math.log(7) * cosine, abs=1e-4)


def test_links_need_min_shared_concepts_unless_cited():
    x = _incidence([[0], [1], [2]], 3)
    vectors = _unit([[1, 0], [1, 0.01], [0, 1]])
    ids, concepts = ["a", "b", "c"], ["c:0", "c:1", "c:2"]
    assert list(related_edges(ids, concepts, x, doc_vectors=vectors, min_shared=1)) == []
    loose = list(related_edges(ids, concepts, x, doc_vectors=vectors))
    assert [(p, q, s) for p, q, _, s in loose][0] == ("a", "b", [])
    cited = list(related_edges(ids, concepts, x, doc_vectors=vectors, min_shared=1, cited=[("c", "a")]))
    assert [(p, q) for p, q, _, _ in cited] == [("a", "c")]
    assert cited[0][2] == link_weight([], 3, cosine=0.0, cited=True)


def test_shared_authors_count_only_with_vectors():
    authors = _incidence([[0], [1], [2], [0], [1], [2]], 3)  # p0 and p3 share an author
    with_authors = _links(doc_vectors=VECTORS, authors=authors)
    without = _links(doc_vectors=VECTORS)
    idf = math.log(7 / 2)
    assert with_authors[("p0", "p3")][0] == pytest.approx(without[("p0", "p3")][0] + AUTHOR_WEIGHT * idf, abs=2e-4)
    assert _links(authors=authors)[("p0", "p1")] == _links()[("p0", "p1")]


def _corpus(n: int = 40, seed: int = 7):
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(25)]
    papers, mentions = [], []
    for i in range(n):
        pid = f"p{i:02d}"
        papers.append(Paper(pid, f"abstract {pid}", f"Title {pid}", authors=(f"Author {i % 9}", f"Other {i % 5}"),
                            references=(f"p{(i + 3) % n:02d}",) if i % 7 == 0 else ()))
        for rank, w in enumerate(rng.sample(words, 4), start=1):
            mentions.append(Mention(pid, f"c:{w}", 1.0 / rank, rank, w))
    concepts = {f"c:{w}": Concept(f"c:{w}", w, (w,)) for w in words}
    vectors = _unit(np.random.default_rng(seed).standard_normal((n, 8)) + 0.5)
    return papers, concepts, mentions, vectors


def test_same_input_gives_the_same_links_in_any_order():
    papers, concepts, mentions, vectors = _corpus()
    one = graph_to_json(build_graph(papers, concepts, mentions, doc_vectors=vectors, related_top_k=3))
    order = list(range(len(papers)))
    random.Random(1).shuffle(order)
    shuffled = build_graph([papers[i] for i in order], concepts, list(reversed(mentions)),
                           doc_vectors=vectors[order], related_top_k=3)
    assert graph_to_json(shuffled) == one
    assert one != graph_to_json(build_graph(papers, concepts, mentions, related_top_k=3))


def test_doc_vectors_must_match_the_papers():
    papers, concepts, mentions, vectors = _corpus()
    with pytest.raises(ValueError, match="one row per paper"):
        build_graph(papers, concepts, mentions, doc_vectors=vectors[:-1])


@pytest.mark.parametrize("with_vectors", [False, True])
def test_kg_related_ranks_like_the_kept_links(tmp_path, with_vectors):
    papers, concepts, mentions, vectors = _corpus()
    graph = build_graph(papers, concepts, mentions, doc_vectors=vectors if with_vectors else None, related_top_k=3)
    save_paper_vectors(tmp_path, [p.id for p in papers], vectors)
    loaded = load_paper_vectors(tmp_path) if with_vectors else None
    for paper in sorted(p.id for p in papers):
        rows = related_papers(graph, paper, top=len(papers), vectors=loaded)
        score = {r["id"]: r["score"] for r in rows}
        kept = sorted(((d["weight"], v) for _, v, k, d in graph.out_edges(paper, keys=True, data=True)
                       if k == "related"), key=lambda wv: (-wv[0], wv[1]))
        kept += sorted(((d["weight"], u) for u, _, k, d in graph.in_edges(paper, keys=True, data=True)
                        if k == "related"), key=lambda wv: (-wv[0], wv[1]))
        kept.sort(key=lambda wv: (-wv[0], wv[1]))
        assert all(score[other] == weight for weight, other in kept), paper
        order = [r["id"] for r in rows if r["id"] in {o for _, o in kept}]
        assert order == [o for _, o in kept]


def test_paper_vectors_round_trip_as_float16(tmp_path):
    vectors = _unit(np.random.default_rng(0).standard_normal((3, 5)))
    written = save_paper_vectors(tmp_path, ["a", "b", "c"], vectors)
    assert sorted(p.rsplit("/", 1)[-1] for p in written) == ["paper_vectors.json", "paper_vectors.npy"]
    ids, matrix = load_paper_vectors(tmp_path)
    assert ids == ["a", "b", "c"] and matrix.dtype == np.float32
    assert np.array_equal(matrix, vectors.astype(np.float16).astype(np.float32))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["paper_vectors.json", "paper_vectors.npy"]  # no temp files
    save_paper_vectors(tmp_path / "other.npy", ["a", "b"], vectors[:2])
    (tmp_path / "paper_vectors.json").write_text('{"ids": ["a"]}')
    with pytest.raises(GraphFileError, match=r"paper_vectors.npy .* is damaged \(3 vectors for 1 ids\)"):
        load_paper_vectors(tmp_path)  # out of step: said, never an empty result
    assert load_paper_vectors(tmp_path / "missing") is None
    with pytest.raises(ValueError):
        save_paper_vectors(tmp_path, ["a"], vectors)


def test_nearest_neighbours_exact_ties_by_index_and_hnsw_agrees():
    tied = _unit([[1, 0], [1, 0], [1, 0], [0, 1]])
    assert nearest_neighbours(tied, 2).tolist() == [[1, 2], [0, 2], [0, 1], [0, 1]]
    rng = np.random.default_rng(3)
    centres = rng.standard_normal((20, 16))
    points = _unit(np.repeat(centres, 30, axis=0) + 0.3 * rng.standard_normal((600, 16)))
    exact = nearest_neighbours(points, 10)
    approx = nearest_neighbours(points, 10, exact_up_to=0)
    assert np.array_equal(approx, nearest_neighbours(points, 10, exact_up_to=0))  # deterministic
    assert np.mean([len(set(a) & set(b)) / 10 for a, b in zip(exact, approx)]) > 0.9
    assert not (approx == np.arange(600)[:, None]).any()
    assert nearest_neighbours(points[:1], 5).shape == (1, 0)


REAL = {  # title + abstract; the concepts each paper gets (as kg's extraction might pick them)
    "recsys": ("Collaborative filtering for movie recommendation",
               "We recommend movies to users from the ratings of similar users, factorizing the sparse "
               "user-item rating matrix.", ["collaborative filtering", "rating", "user"]),
    "films": ("Guessing which films a viewer will enjoy",
              "Latent factors learned from the scores other viewers gave predict the next film a person "
              "will like to watch.", ["latent factor", "film", "user"]),
    "search": ("Query expansion from ratings of result pages",
               "Search engines expand a user's query with terms from pages that earlier users rated as "
               "relevant, improving retrieval effectiveness.", ["query expansion", "rating", "user"]),
    "index": ("Compressing inverted indexes",
              "Variable-byte codes shrink posting lists so that a search engine answers each user faster.",
              ["inverted index", "posting list", "user"]),
}


@pytest.mark.model
def test_real_documents_link_where_shared_concepts_miss(real_embedder):
    from kg.extract import document_text

    papers = [Paper(pid, abstract, title) for pid, (title, abstract, _) in REAL.items()]
    concepts = {f"c:{c}": Concept(f"c:{c}", c, (c,)) for *_, cs in REAL.values() for c in cs}
    mentions = [Mention(pid, f"c:{c}", 1.0 / r, r, c) for pid, (*_, cs) in REAL.items()
                for r, c in enumerate(cs, start=1)]
    vectors = real_embedder.embed([document_text(p) for p in papers])

    def strongest(graph, paper):
        links = [(d["weight"], v if u == paper else u) for u, v, k, d in graph.edges(keys=True, data=True)
                 if k == "related" and paper in (u, v)]
        return max(links)[1]

    # concepts alone: "search" shares two concepts with "recsys", "films" only the ubiquitous "user"
    assert strongest(build_graph(papers, concepts, mentions, related_top_k=1), "recsys") == "search"
    with_vectors = build_graph(papers, concepts, mentions, related_top_k=1, doc_vectors=vectors)
    assert strongest(with_vectors, "recsys") == "films"
    assert with_vectors.edges["films", "recsys", "related"]["shared"] == ["c:user"]


def test_kg_related_weighs_as_the_build_did(tmp_path):
    papers, concepts, mentions, vectors = _corpus()
    save_paper_vectors(tmp_path, [p.id for p in papers], vectors)
    loaded = load_paper_vectors(tmp_path)
    plain = build_graph(papers, concepts, mentions, related_top_k=3)
    assert related_papers(plain, "p00", vectors=loaded) == related_papers(plain, "p00")  # built without them
    tuned = build_graph(papers, concepts, mentions, related_top_k=3, doc_vectors=vectors, similarity_weight=3.0)
    for u, v, k, d in tuned.edges(keys=True, data=True):
        if k == "related" and "p00" in (u, v):
            other = v if u == "p00" else u
            row = next(r for r in related_papers(tuned, "p00", top=40, vectors=loaded) if r["id"] == other)
            assert row["score"] == d["weight"]
