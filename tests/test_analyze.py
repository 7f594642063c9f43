"""kg.analyze on graphs with known answers: the karate club, hand-built graphs, hand-computed bursts."""

from __future__ import annotations

import math
from pathlib import Path

import networkx as nx
import pytest

from _example_graphs import keyphrase_graph
from kg.analyze import analyze, community_concepts, concept_rows, saved_parameters
from kg.analyze.centrality import (
    betweenness,
    betweenness_method,
    centrality_table,
    citation_table,
    eigenvector,
    pagerank,
    weighted_degree,
)
from kg.analyze.communities import (
    central_members,
    detect_communities,
    distinctive_concepts,
    label_communities,
    modularity,
)
from kg.analyze.related import find_paper, related_papers
from kg.analyze.thematic import association_graph, callon_metrics, place_in_quadrants, thematic_map
from kg.analyze.trends import concept_bursts, concept_trends, kleinberg_bursts, papers_per_year
from kg.errors import NodeNotFoundError
from kg.graph import build_graph
from kg.models import Concept, Mention, Paper

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "papers.jsonl"


def kg_graph(spec: dict[str, tuple[int | None, list[str]]], cites: dict[str, list[str]] | None = None):
    """A kg graph from ``{paper id: (year, [concept keys])}``; each paper cites ``cites[id]``."""
    cites = cites or {}
    papers = [Paper(pid, abstract=f"abstract {pid}", title=f"Title {pid}", year=year,
                    references=tuple(cites.get(pid, ()))) for pid, (year, _) in spec.items()]
    concepts = {f"c:{k}": Concept(f"c:{k}", k) for _, keys in spec.values() for k in keys}
    mentions = [Mention(pid, f"c:{k}", 1.0 - 0.1 * i, i + 1, k) for pid, (_, keys) in spec.items()
                for i, k in enumerate(keys)]
    return build_graph(papers, concepts, mentions)


@pytest.fixture(scope="module")
def _example():
    return keyphrase_graph(EXAMPLE)


@pytest.fixture
def example_graph(_example):
    return _example.copy()


# --- centrality --------------------------------------------------------------------------------


@pytest.fixture
def karate():
    return nx.Graph(nx.karate_club_graph().edges())  # unweighted


def test_betweenness_exact_matches_networkx_on_karate(karate):
    expected = nx.betweenness_centrality(karate)
    for fast in (True, False):
        got = betweenness(karate, weight=None, fast=fast)
        assert got[0] == pytest.approx(0.437635, abs=1e-6)  # Mr. Hi, the classic value
        assert got == pytest.approx(expected, abs=1e-12)


def test_weighted_betweenness_uses_inverse_weight_as_length():
    g = nx.Graph()
    # a-b-d is two strong links (length 0.5 + 0.5), a-c-d two weak ones (1 + 1): only b carries a—d
    g.add_weighted_edges_from([("a", "b", 2.0), ("b", "d", 2.0), ("a", "c", 1.0), ("c", "d", 1.0)])
    for fast in (True, False):
        got = betweenness(g, fast=fast)
        assert got["b"] == pytest.approx(1 / 3)  # one pair (a, d) of the 3 not involving b
        assert got["c"] == 0.0


def test_sampled_betweenness_is_seeded_and_both_paths_agree(karate):
    assert betweenness_method(karate, exact_limit=10, samples=10, seed=7) == "sampled (10 sources, seed 7)"
    a = betweenness(karate, weight=None, exact_limit=10, samples=10, seed=7)
    b = betweenness(karate, weight=None, exact_limit=10, samples=10, seed=7, fast=False)
    assert a == pytest.approx(b, abs=1e-12)
    assert a != betweenness(karate, weight=None, exact_limit=10, samples=10, seed=8)
    exact = nx.betweenness_centrality(karate)
    assert max(a, key=a.get) == max(exact, key=exact.get) == 0


def test_pagerank_eigenvector_degree_match_references(karate):
    assert pagerank(karate) == pytest.approx(nx.pagerank(karate, tol=1e-12), abs=1e-8)
    assert eigenvector(karate) == pytest.approx(nx.eigenvector_centrality_numpy(karate), abs=1e-8)
    big = nx.gnp_random_graph(300, 0.03, seed=2)  # the sparse (ARPACK) path
    assert eigenvector(big, weight=None) == pytest.approx(nx.eigenvector_centrality_numpy(big), abs=1e-8)
    g = nx.Graph([("a", "b", {"weight": 2.0}), ("a", "c", {"weight": 0.5})])
    assert weighted_degree(g) == {"a": 2.5, "b": 2.0, "c": 0.5}


def test_eigenvector_on_bipartite_star():
    star = nx.star_graph(4)  # bipartite: power iteration would oscillate
    got = eigenvector(star, weight=None)
    assert got[0] == pytest.approx(1 / math.sqrt(2))
    assert got[1] == pytest.approx(1 / math.sqrt(8))


@pytest.mark.parametrize("size", [3, 40])  # dense and ARPACK paths
def test_eigenvector_shares_the_mass_among_tied_components_whatever_the_node_order(size):
    pieces = [nx.relabel_nodes(nx.path_graph(size), lambda n, p=p: f"{p}{n}") for p in "abc"]
    pieces.append(nx.relabel_nodes(nx.path_graph(2), lambda n: f"z{n}"))  # a smaller eigenvalue: no mass
    forward = nx.compose_all(pieces)
    backward = nx.Graph()
    backward.add_nodes_from(reversed(list(forward.nodes)))
    backward.add_edges_from(reversed(list(forward.edges)))
    got, again = eigenvector(forward, weight=None), eigenvector(backward, weight=None)
    assert got == pytest.approx(again, abs=1e-9)
    assert sum(got[f"{p}0"] for p in "abc") == pytest.approx(3 * got["a0"]) and got["z0"] == 0.0


def test_centrality_table_rows_have_ids_and_every_measure(karate):
    rows = centrality_table(karate, weight="weight")
    assert [r["id"] for r in rows[:2]] == [33, 0]
    assert set(rows[0]) == {"id", "degree", "weighted_degree", "pagerank", "betweenness", "eigenvector"}
    assert rows[0]["degree"] == 17


def test_centrality_table_reads_the_graph_once_and_gives_each_measures_own_numbers():
    """The one-matrix path equals the separate functions; ``hops`` counts links in betweenness."""
    g = nx.gnp_random_graph(400, 0.02, seed=5)
    g.add_edge(0, 0)  # a loop counts twice in a weighted degree
    for i, (u, v, d) in enumerate(g.edges(data=True)):
        d["weight"] = 0.5 + (i * 7919 % 13) / 4
    rows = {r["id"]: r for r in centrality_table(g, exact_limit=100, samples=50, seed=3)}
    ranks, eigen, strength = pagerank(g), eigenvector(g), weighted_degree(g)
    weighted = betweenness(g, exact_limit=100, samples=50, seed=3)
    hops = betweenness(g, weight=None, exact_limit=100, samples=50, seed=3)
    assert {n: r["pagerank"] for n, r in rows.items()} == ranks  # the same power iteration, bit for bit
    assert {n: r["eigenvector"] for n, r in rows.items()} == pytest.approx(eigen, abs=1e-12)
    assert {n: r["weighted_degree"] for n, r in rows.items()} == pytest.approx(strength, abs=1e-9)
    assert {n: r["betweenness"] for n, r in rows.items()} == pytest.approx(weighted, abs=1e-12)
    by_hops = {r["id"]: r["betweenness"] for r in centrality_table(g, exact_limit=100, samples=50, seed=3, hops=True)}
    assert by_hops == pytest.approx(hops, abs=1e-12) and by_hops != pytest.approx(weighted, abs=1e-6)


@pytest.mark.parametrize("kind", ["related", "co_occurs", "mentions"])
def test_a_table_read_from_the_edges_equals_the_projections(kind, hash_embedder):
    from kg.analyze.centrality import edge_centrality_table
    from kg.graph import projection
    from kg.pipeline import BuildOptions, run

    graph = run([EXAMPLE], BuildOptions(html=False, min_cooccurrence=1), embedder=hash_embedder).graph
    options = {"exact_limit": 20, "samples": 12, "seed": 1, "hops": kind == "mentions"}  # sampled betweenness too
    mine = edge_centrality_table(graph, kind, **options)
    theirs = centrality_table(projection(graph, kind), **options)
    assert len(mine) > 30 and [r["id"] for r in mine] == [r["id"] for r in theirs]
    for a, b in zip(mine, theirs):
        assert a == pytest.approx(b, abs=1e-12)


def test_citation_table_counts_in_degree():
    g = kg_graph({"a": (2000, ["x"]), "b": (2001, ["x"]), "c": (2002, ["y"])}, cites={"b": ["a"], "c": ["a", "b"]})
    rows = citation_table(g)
    assert [(r["id"], r["cited_by"], r["cites"]) for r in rows] == [("a", 2, 0), ("b", 1, 1), ("c", 0, 2)]
    assert citation_table(kg_graph({"a": (None, ["x"])})) == []


# --- communities --------------------------------------------------------------------------------


def test_louvain_on_karate_is_seeded_and_finds_the_two_factions(karate):
    first = detect_communities(karate, seed=42)
    assert first == detect_communities(karate, seed=42)
    assert modularity(karate, first) == pytest.approx(0.4188, abs=1e-4)
    halves = detect_communities(karate, seed=42, resolution=0.5)
    club = nx.karate_club_graph().nodes
    agree = sum(max(sum(club[n]["club"] == c for n in part) for c in ("Mr. Hi", "Officer")) for part in halves)
    assert len(halves) == 2 and agree == 32  # all but one member of each faction


def test_leiden_reaches_the_known_optimum_on_karate(karate):
    parts = detect_communities(karate, method="leiden", seed=42)
    assert modularity(karate, parts) == pytest.approx(0.4198, abs=1e-4)  # the proven maximum (Brandes et al.)
    assert all(nx.is_connected(karate.subgraph(p)) for p in parts)
    assert parts == detect_communities(karate, method="leiden", seed=42)


def test_fast_louvain_is_seeded(karate):
    a = detect_communities(karate, seed=3, fast=True)
    assert a == detect_communities(karate, seed=3, fast=True)
    assert sorted(n for p in a for n in p) == list(range(34))
    assert modularity(karate, a) > 0.41


def test_unknown_method_is_rejected(karate):
    with pytest.raises(ValueError, match="leiden"):
        detect_communities(karate, method="spectral")


def _labels_graph():
    # "method" is in every paper: frequent everywhere, distinctive nowhere
    return kg_graph({
        "p1": (None, ["method", "graph", "node"]), "p2": (None, ["method", "graph", "node"]),
        "p3": (None, ["method", "graph", "edge"]), "p4": (None, ["method", "text", "word"]),
        "p5": (None, ["method", "text", "word"]), "p6": (None, ["method", "text", "graph"]),
    })


def test_ctfidf_labels_hand_computed():
    g = _labels_graph()
    parts = [{"p1", "p2", "p3"}, {"p4", "p5", "p6"}]
    rows = distinctive_concepts(g, parts, top=3)
    # community 0: 9 mentions (graph 3, node 2, method 3, edge 1); A = 18 / 2 = 9 mentions per
    # community; corpus mentions f(graph) = 4, f(node) = 2, f(method) = 6; edge is in one paper only
    # times specificity: 0.5 for the ordinary words graph, method, text, word; 1 for "node",
    # which the tagger's lexicon does not know
    assert [r["id"] for r in rows[0]] == ["c:node", "c:graph", "c:method"]
    assert rows[0][0]["score"] == pytest.approx(2 / 9 * math.log(1 + 9 / 2))  # 0.379
    assert rows[0][1]["score"] == pytest.approx(0.5 * 3 / 9 * math.log(1 + 9 / 4))  # 0.196
    assert rows[0][2]["score"] == pytest.approx(0.5 * 3 / 9 * math.log(1 + 9 / 6))  # 0.153: everywhere, ranks last
    assert rows[0][0]["papers"] == 2
    assert label_communities(g, parts, top=2) == [["c:node", "c:graph"], ["c:text", "c:word"]]


def test_loglik_labels_hand_computed():
    g = _labels_graph()
    rows = distinctive_concepts(g, [{"p1", "p2", "p3"}, {"p4", "p5", "p6"}], scoring="loglik", top=5)
    # node: a=2 in 9, b=0 in 9 -> E1=1, G2 = 2 * 2 ln 2; method (3 vs 3) is not over-represented
    assert rows[0][0] == {"id": "c:node", "score": pytest.approx(4 * math.log(2)), "papers": 2}
    assert "c:method" not in [r["id"] for r in rows[0]]


def test_central_members_rank_by_internal_strength():
    g = nx.Graph([("a", "b", {"weight": 3}), ("b", "c", {"weight": 1}), ("c", "x", {"weight": 9})])
    assert central_members(g, {"a", "b", "c"}) == [("b", 4.0), ("a", 3.0), ("c", 1.0)]


# --- thematic map ------------------------------------------------------------------------------


def test_callon_metrics_and_quadrants_on_a_hand_built_map():
    g = nx.Graph()
    # four two-concept clusters; internal link weights 0.9, 0.8, 0.1, 0.2
    g.add_weighted_edges_from([("m1", "m2", 0.9), ("n1", "n2", 0.8), ("e1", "e2", 0.1), ("b1", "b2", 0.2)])
    # external links: motor and basic are well tied to the others, niche and emerging barely
    g.add_weighted_edges_from([("m1", "b1", 0.5), ("m2", "e1", 0.05), ("b2", "n1", 0.3), ("b2", "e2", 0.2)])
    clusters = [{"m1", "m2"}, {"n1", "n2"}, {"e1", "e2"}, {"b1", "b2"}]
    rows = callon_metrics(g, clusters)
    assert [r["centrality"] for r in rows] == pytest.approx([0.55, 0.3, 0.25, 1.0])
    assert [r["density"] for r in rows] == pytest.approx([0.45, 0.4, 0.05, 0.1])
    assert [r["internal"] for r in rows] == [1, 1, 1, 1]
    assert place_in_quadrants(rows) == ["motor", "niche", "emerging or declining", "basic"]


def test_association_graph_uses_the_equivalence_index():
    g = kg_graph({"p1": (None, ["a", "b"]), "p2": (None, ["a", "b"]), "p3": (None, ["a", "c"]),
                  "p4": (None, ["b", "c"]), "p5": (None, ["d"])})
    assoc = association_graph(g, min_papers=2)
    assert sorted(assoc.nodes) == ["c:a", "c:b", "c:c"]  # d is in one paper only
    assert assoc["c:a"]["c:b"]["weight"] == pytest.approx(2 * 2 / (3 * 3))
    assert assoc["c:a"]["c:c"]["weight"] == pytest.approx(1 / (3 * 2))


def test_thematic_map_rows(example_graph):
    rows = thematic_map(example_graph)
    assert rows and {r["quadrant"] for r in rows} <= {"motor", "niche", "emerging or declining", "basic"}
    assert all(c.startswith("c:") for r in rows for c in r["concepts"])
    assert rows == thematic_map(example_graph)


# --- trends and bursts ---------------------------------------------------------------------------


def test_kleinberg_burst_hand_computed():
    counts, totals = [1, 1, 8, 9, 1], [10] * 5
    # p0 = 20/50 = 0.4, p1 = 0.8; entering the burst costs ln 5 = 1.609
    def cost(r, p):
        return -(r * math.log(p) + (10 - r) * math.log(1 - p))
    saved = (cost(8, 0.4) - cost(8, 0.8)) + (cost(9, 0.4) - cost(9, 0.8))  # 3.348 + 5.140
    assert saved > math.log(5) and cost(1, 0.8) > cost(1, 0.4)  # years 2-3 burst, 0, 1 and 4 do not
    assert kleinberg_bursts(counts, totals) == [{"start": 2, "end": 3, "weight": round(saved, 4)}]
    assert round(saved, 4) == 8.4877


def test_kleinberg_no_burst_when_flat_or_too_costly():
    assert kleinberg_bursts([2, 2, 2, 2], [10, 10, 10, 10]) == []
    assert kleinberg_bursts([0, 0, 0], [5, 5, 5]) == []
    # one slightly high year does not pay the entry cost with a large gamma
    assert kleinberg_bursts([1, 1, 3, 1], [10, 10, 10, 10], gamma=5.0) == []
    with pytest.raises(ValueError):
        kleinberg_bursts([1], [1, 2])


def test_concept_trends_and_bursts_on_a_dated_graph():
    spec = {f"p{y}{i}": (y, ["base"] + (["hot"] if y in (2003, 2004) or (i == 0 and y == 2000) else []))
            for y in range(2000, 2006) for i in range(5)}
    g = kg_graph(spec)
    assert papers_per_year(g) == {y: 5 for y in range(2000, 2006)}
    trends = concept_trends(g, ["c:hot"])
    assert trends["years"] == list(range(2000, 2006))
    assert trends["concepts"] == [{"id": "c:hot", "counts": [1, 0, 0, 5, 5, 0]}]
    bursts = concept_bursts(g)
    assert [(b["id"], b["start"], b["end"], b["papers"]) for b in bursts] == [("c:hot", 2003, 2004, 10)]


# --- related papers -----------------------------------------------------------------------------


def test_related_papers_are_explained_by_shared_concepts_and_citations():
    g = kg_graph({"a": (None, ["rare", "common"]), "b": (None, ["rare", "common"]), "c": (None, ["common"]),
                  "d": (None, ["common"]), "e": (None, ["other"])}, cites={"e": ["a"]})
    n = 5
    rows = related_papers(g, "a")
    assert [r["id"] for r in rows] == ["e", "b", "c", "d"]
    assert rows[0] == {"id": "e", "title": "Title e", "score": round(math.log(n + 1), 4), "shared": [],
                       "citation": "cited by"}
    assert rows[1]["shared"] == ["c:rare", "c:common"]
    assert rows[1]["score"] == round(math.log(6 / 2) + math.log(6 / 4), 4)
    assert rows[2]["score"] == round(math.log(6 / 4), 4) and rows[2]["citation"] is None


def test_find_paper_by_id_title_or_unique_substring():
    g = kg_graph({"a": (None, ["x"]), "b": (None, ["x"])})
    assert find_paper(g, "a") == "a"
    assert find_paper(g, "title B") == "b"
    with pytest.raises(NodeNotFoundError, match="2 papers match"):
        find_paper(g, "Title")
    with pytest.raises(NodeNotFoundError, match="no paper"):
        find_paper(g, "zzz")
    with pytest.raises(NodeNotFoundError):
        related_papers(g, "c:x")


# --- the whole analysis --------------------------------------------------------------------------


def test_analyze_is_deterministic_and_every_table_lists_ids(example_graph):
    timings: dict = {}
    first = analyze(example_graph, timings=timings)
    assert first == analyze(example_graph)
    assert "communities (louvain)" in timings
    assert first["summary"]["papers"] == 32
    for table in ("top_concepts", "central_papers", "central_concepts", "bipartite", "citations", "bursts"):
        assert all("id" in row for row in first[table]), table
    assert first["citations"], "the example corpus has in-corpus citations"
    members = sorted(p for com in first["communities"] for p in com["papers"])
    assert members == sorted(n for n, d in example_graph.nodes(data=True) if d["kind"] == "paper")
    assert 0 < first["modularity"] < 1
    assert first["parameters"]["betweenness"]["papers"] == "exact"


def test_analyze_ignores_extra_node_and_edge_kinds(example_graph):
    g = example_graph.copy()
    g.add_node("x:thing", kind="gadget", label="thing")
    paper = next(n for n, d in g.nodes(data=True) if d["kind"] == "paper")
    g.add_edge("x:thing", paper, key="touches", kind="touches", weight=3.0)
    a, b = analyze(g), analyze(example_graph)
    assert a["communities"] == b["communities"] and a["central_papers"] == b["central_papers"]
    assert a["summary"]["edges"]["touches"] == 1


def test_leiden_analysis_and_community_lookup(example_graph):
    analysis = analyze(example_graph, method="leiden", scoring="loglik")
    first = analysis["communities"][0]
    row = community_concepts(example_graph, 0, method="leiden", scoring="loglik", top=5)
    assert row["papers"] == first["papers"] and row["concepts"] == first["concepts"][:5]
    with pytest.raises(NodeNotFoundError, match="numbered 0 to"):
        community_concepts(example_graph, 999)


def test_concept_rows_and_saved_parameters(example_graph):
    rows = concept_rows(example_graph, top=3)
    assert [r["papers"] for r in rows] == sorted((r["papers"] for r in rows), reverse=True)
    assert rows[0]["id"].startswith("c:")
    assert saved_parameters(example_graph) == {"seed": 42, "resolution": 1.0}
    example_graph.graph["parameters"] = '{"seed": 7, "resolution": 2.0}'
    assert saved_parameters(example_graph) == {"seed": 7, "resolution": 2.0}


def test_specific_multi_word_concepts_lead_labels_and_top_concepts():
    from kg.analyze import concept_rows

    # "user" and "collaborative filtering" are equally distinctive of community 0
    papers = {f"p{i}": (None, ["user", "collaborative filtering", "movie"]) for i in range(3)}
    papers |= {f"q{i}": (None, ["query", "query expansion"]) for i in range(3)}
    g = kg_graph(papers)
    parts = [{"p0", "p1", "p2"}, {"q0", "q1", "q2"}]
    labels = label_communities(g, parts, top=2)
    assert labels == [["c:collaborative filtering", "c:movie"], ["c:query expansion", "c:query"]]
    assert [r["id"] for r in concept_rows(g, top=2)] == ["c:collaborative filtering", "c:query expansion"]


def test_concepts_in_more_than_a_tenth_of_a_large_corpus_label_no_community():
    papers = {f"p{i:03}": (None, ["recommender system", "user"] if i < 50 else ["user", "web search"])
              for i in range(200)}
    g = kg_graph(papers)
    parts = [{f"p{i:03}" for i in range(50)}, {f"p{i:03}" for i in range(50, 200)}]
    rows = distinctive_concepts(g, parts, top=3)
    assert [r["id"] for r in rows[0]] == [] and [r["id"] for r in rows[1]] == []  # each in 25%+ of papers
    assert [r["id"] for r in distinctive_concepts(g, parts, top=3, max_share=0.5)[0]] == ["c:recommender system"]
