"""kg search: papers and concepts by the build's own vectors, with their graph context."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.graphfile import load_graph
from kg.pipeline import BuildOptions, build
from kg.search import EmbeddingMismatchError, search, search_build
from kg.vectors import concept_vectors, load_concept_vectors, load_paper_vectors

from conftest import EXAMPLE, SEEDS, HashEmbedder


@pytest.fixture(scope="module")
def seeds_build(tmp_path_factory, real_embedder):
    """The seed corpus (38 ICLR abstracts) built with the real model."""
    if not SEEDS:
        pytest.skip("../shared/seeds is not present")
    out = tmp_path_factory.mktemp("seeds-search")
    result = build(SEEDS, out, BuildOptions(html=False), embedder=real_embedder)
    return out, result


@pytest.fixture(scope="module")
def hash_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("example-search")
    build([EXAMPLE], out, BuildOptions(html=False), embedder=HashEmbedder())
    return out


def test_build_stores_one_phrase_vector_per_concept(seeds_build, real_embedder):
    out, result = seeds_build
    graph = load_graph(out)
    ids, matrix = load_concept_vectors(out)
    concepts = {n for n, d in graph.nodes(data=True) if d.get("kind") == "concept"}
    assert ids == sorted(ids) and set(ids) == concepts
    assert matrix.shape == (len(ids), 384)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=2e-3)  # float16 round trip
    # A concept's vector is its most used surface form embedded by the model.
    row = {c: i for i, c in enumerate(ids)}
    for concept in ids[:25]:
        surfaces = [d["surface"] for _, v, k, d in graph.in_edges(concept, keys=True, data=True) if k == "mentions"]
        surface = min(set(surfaces), key=lambda s: (-surfaces.count(s), s))
        fresh = real_embedder.embed([surface])[0]
        assert float(fresh @ matrix[row[concept]]) > 0.97, (concept, surface)  # int8: batch-dependent


def test_search_finds_the_paper_and_concepts_of_a_topic_described_in_other_words(seeds_build):
    out, _ = seeds_build
    found = search_build(out, "defending distributed training against malicious workers", top=3)
    top = found["papers"][0]
    assert "byzantine" in " ".join(top["concepts"]).lower()
    assert found["concepts"][0]["name"].lower().startswith("byzantine")
    ood = search_build(out, "detecting inputs unlike the training distribution", top=3)
    assert any("outlier" in c for c in ood["papers"][0]["concepts"])
    assert found["embedding"] == load_graph(out).graph["embedding"]
    scores = [r["score"] for r in found["papers"]]
    assert scores == sorted(scores, reverse=True) and all(-1 <= s <= 1 for s in scores)


def test_hits_carry_the_report_community_and_strongest_concepts(seeds_build):
    out, result = seeds_build
    report = json.loads((out / "report.json").read_text())
    member = {p: row["id"] for row in report["communities"] for p in row["papers"]}
    labels = {row["id"]: row["label"] for row in report["communities"]}
    found = search_build(out, "reinforcement learning reward", top=5)
    graph = load_graph(out)
    for row in found["papers"]:
        assert row["community"] == member[row["id"]] and row["community_label"] == labels[row["community"]]
        first = sorted((d["rank"], v) for _, v, k, d in graph.out_edges(row["id"], keys=True, data=True)
                       if k == "mentions")[0][1]
        assert row["concepts"][0] == graph.nodes[first]["label"]  # the name, with its acronym if any
    for row in found["concepts"]:
        papers = [u for u, _, k in graph.in_edges(row["id"], keys=True) if k == "mentions"]
        assert row["community"] in {member[p] for p in papers}


def test_search_ranks_by_cosine_and_breaks_ties_by_id():
    from kg.graph import build_graph
    from kg.models import Paper

    g = build_graph([Paper("b", "x", "B"), Paper("a", "y", "A"), Paper("c", "z", "C")], {}, [])
    vectors = (["a", "b", "c", "gone"], np.array([[0.6, 0.8], [0.6, 0.8], [1.0, 0.0], [1.0, 0.0]], np.float32))
    rows = search(g, np.array([1.0, 0.0]), papers=vectors, top=3)["papers"]
    assert [(r["id"], r["score"]) for r in rows] == [("c", 1.0), ("a", 0.6), ("b", 0.6)]  # "gone" not in graph
    assert rows[0]["community"] is None and rows[0]["concepts"] == []
    with pytest.raises(EmbeddingMismatchError, match="dimensions"):
        search(g, np.ones(3), papers=vectors)


def test_hits_show_a_concept_with_its_acronym():
    from kg.graph import build_graph
    from kg.models import Concept, Mention, Paper

    concepts = {"c:collaborative filtering": Concept("c:collaborative filtering", "collaborative filtering",
                                                     ("CF",), "CF")}
    g = build_graph([Paper("a", "x", "A")], concepts, [Mention("a", "c:collaborative filtering", 0.9, 1, "CF")])
    found = search(g, np.array([1.0, 0.0]), papers=(["a"], np.array([[1.0, 0.0]], np.float32)),
                   concepts=(["c:collaborative filtering"], np.array([[1.0, 0.0]], np.float32)))
    assert found["papers"][0]["concepts"] == ["collaborative filtering (CF)"]
    assert found["concepts"][0]["name"] == "collaborative filtering (CF)"


def test_a_build_of_another_model_is_refused_in_one_line(hash_build, real_embedder):
    with pytest.raises(EmbeddingMismatchError, match="hash-256"):
        search_build(hash_build, "graph neural networks", embedder=real_embedder)
    result = CliRunner().invoke(app, ["search", str(hash_build), "graph neural networks"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1 and "hash-256" in result.stderr
    # The build's own embedder is accepted.
    found = search_build(hash_build, "graph neural networks", embedder=HashEmbedder(), top=2)
    assert len(found["papers"]) == 2 and len(found["concepts"]) == 2


def test_cli_prints_tables_or_json(seeds_build):
    out, _ = seeds_build
    runner = CliRunner()
    table = runner.invoke(app, ["search", str(out), "byzantine robust learning", "--top", "2"])
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[0].split()[:4] == ["score", "id", "year", "title"]
    as_json = runner.invoke(app, ["search", str(out), "byzantine robust learning", "--top", "2", "--json"])
    found = json.loads(as_json.stdout)
    assert len(found["papers"]) == 2 and len(found["concepts"]) == 2
    assert found["papers"][0]["id"] == table.stdout.splitlines()[2].split()[1]
    empty = runner.invoke(app, ["search", str(out), "  "])
    assert empty.exit_code == 1 and "Error:" in empty.stderr


def test_a_folder_without_vectors_says_to_rebuild(hash_build, tmp_path):
    import shutil

    shutil.copy(hash_build / "graph.json", tmp_path / "graph.json")
    result = CliRunner().invoke(app, ["search", str(tmp_path), "graphs"])
    assert result.exit_code == 1 and "rebuild" in result.stderr
    assert load_paper_vectors(tmp_path) is None


def test_a_build_of_a_model_folder_is_searched_with_that_folder():
    """kg build --model PATH records the folder's name; kg search --model PATH loads it with the build's settings."""
    import networkx as nx

    from kg.extract.embedder import default_model_path
    from kg.search import query_embedder

    folder = default_model_path()
    graph = nx.MultiDiGraph(embedding=f"{folder.name}|int8|truncate|96")
    with pytest.raises(EmbeddingMismatchError, match="give that model's folder"):
        query_embedder(graph)
    assert query_embedder(graph, model=folder).signature == graph.graph["embedding"]  # the model is not loaded


def test_every_concept_has_a_vector_even_one_only_a_link_by_containment_reaches(hash_build):
    out = hash_build
    graph = load_graph(out)
    ids, matrix = load_concept_vectors(out)
    assert set(ids) == {n for n, d in graph.nodes(data=True) if d.get("kind") == "concept"}
    assert not np.isnan(matrix.astype(np.float32)).any()


def test_a_concept_without_a_phrase_vector_is_embedded_when_an_embedder_is_given():
    vectors = {"team recommendation algorithm": HashEmbedder().embed(["team recommendation algorithm"])[0]}
    mentions = [("c:team recommendation", "team recommendation algorithm"), ("c:diffusion model", "diffusion model")]
    assert concept_vectors(mentions, vectors)[0] == ["c:team recommendation"]
    ids, matrix = concept_vectors(mentions, vectors, embedder=HashEmbedder())
    assert ids == ["c:diffusion model", "c:team recommendation"] and matrix.shape[0] == 2
