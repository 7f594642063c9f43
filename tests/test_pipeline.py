"""The whole build on small corpora: every output file, determinism, metadata, atomicity."""

from __future__ import annotations

import csv
import json
import os

import networkx as nx
import pytest

from kg.errors import InputError
from kg.graphfile import graph_from_json
from kg.pipeline import BuildOptions, build

PAPERS = [
    {"id": "p1", "title": "Graph neural networks for citation graphs", "year": 2020, "venue": "KDD",
     "authors": ["Ada Lovelace", "Alan Turing"], "references": [],
     "abstract": "Graph neural networks (GNNs) learn node representations by message passing. "
                 "We apply graph neural networks to citation graphs and node classification."},
    {"id": "p2", "title": "Message passing on citation graphs", "year": 2021, "venue": "KDD",
     "authors": ["Alan Turing"], "references": ["p1"],
     "abstract": "We study message passing in GNNs for node classification on citation graphs, "
                 "and show that deeper graph neural networks oversmooth node representations."},
    {"id": "p3", "title": "Collaborative filtering with implicit feedback", "year": 2019, "venue": "RecSys",
     "authors": ["Grace Hopper"], "references": [],
     "abstract": "Collaborative filtering recommends items from implicit feedback. Matrix factorization "
                 "of implicit feedback gives strong recommender systems for sparse users."},
    {"id": "p4", "title": "Implicit feedback for recommender systems", "year": 2022, "venue": "RecSys",
     "authors": ["Grace Hopper", "Ada Lovelace"], "references": ["p3", "10.9/unknown"],
     "abstract": "Recommender systems trained on implicit feedback suffer from exposure bias. "
                 "We correct collaborative filtering for exposure bias in implicit feedback."},
]


@pytest.fixture
def corpus_file(tmp_path):
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in PAPERS), encoding="utf-8")
    return path


def test_build_writes_every_output_file(corpus_file, tmp_path, hash_embedder):
    out = tmp_path / "out"
    result = build([corpus_file], out, BuildOptions(top_n=8), embedder=hash_embedder)
    names = sorted(os.listdir(out))
    for expected in ("graph.json", "graph.graphml", "graph.gexf", "papers.csv", "concepts.csv",
                     "mentions.csv", "report.md", "graph.html"):
        assert expected in names
    assert not [n for n in names if n.endswith(".tmp")]
    graph = graph_from_json((out / "graph.json").read_text(encoding="utf-8"))
    assert sorted(n for n, d in graph.nodes(data=True) if d["kind"] == "paper") == ["p1", "p2", "p3", "p4"]
    assert graph.nodes["p2"]["authors"] == ["Alan Turing"] and graph.nodes["p2"]["year"] == 2021
    assert graph.has_edge("p2", "p1", key="cites") and graph.has_edge("p4", "p3", key="cites")
    assert graph.graph["unresolved_references"] == 1
    assert result.analysis["summary"]["papers"] == 4
    with open(out / "papers.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["id"] for r in rows] == ["p1", "p2", "p3", "p4"]
    assert rows[0]["authors"] == "Ada Lovelace; Alan Turing"


def test_gephi_files_read_back(corpus_file, tmp_path, hash_embedder):
    build([corpus_file], tmp_path, BuildOptions(html=False), embedder=hash_embedder)
    graphml = nx.read_graphml(tmp_path / "graph.graphml")
    gexf = nx.read_gexf(tmp_path / "graph.gexf")
    for g in (graphml, gexf):
        assert g.nodes["p1"]["kind"] == "paper"
        assert g.nodes["p1"]["authors"] == "Ada Lovelace; Alan Turing"
    assert not (tmp_path / "graph.html").exists()


def test_metadata_records_how_the_graph_was_made(corpus_file, tmp_path, hash_embedder):
    build([corpus_file], tmp_path, BuildOptions(top_n=7, seed=3), embedder=hash_embedder)
    meta = json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))["graph"]
    assert meta["model"] == "hash-256"
    assert meta["kg_version"]
    params = json.loads(meta["parameters"])
    assert params["top_n"] == 7 and params["seed"] == 3
    inputs = json.loads(meta["inputs"])
    assert inputs[0]["path"] == "papers.jsonl" and len(inputs[0]["sha256"]) == 64


def test_same_input_gives_byte_identical_graph(corpus_file, tmp_path, hash_embedder):
    build([corpus_file], tmp_path / "a", BuildOptions(html=False), embedder=hash_embedder)
    build([corpus_file], tmp_path / "b", BuildOptions(html=False), embedder=hash_embedder)
    for name in ("graph.json", "graph.graphml", "papers.csv", "concepts.csv", "mentions.csv", "report.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_rebuild_into_same_folder_replaces_files(corpus_file, tmp_path, hash_embedder):
    build([corpus_file], tmp_path, BuildOptions(html=False), embedder=hash_embedder)
    first = (tmp_path / "graph.json").read_bytes()
    build([corpus_file], tmp_path, BuildOptions(html=False), embedder=hash_embedder)
    assert (tmp_path / "graph.json").read_bytes() == first


def test_build_fails_cleanly_without_papers(tmp_path, hash_embedder):
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"id": "x", "title": "no abstract"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="no papers with an abstract.*1 record"):
        build([empty], tmp_path / "out", embedder=hash_embedder)
    assert not (tmp_path / "out").exists()


@pytest.mark.model
def test_real_model_end_to_end(corpus_file, tmp_path, real_embedder):
    result = build([corpus_file], tmp_path, BuildOptions(top_n=8, html=False), embedder=real_embedder)
    graph = result.graph
    names = {d["name"] for _, d in graph.nodes(data=True) if d["kind"] == "concept"}
    concept_of = {d["name"]: n for n, d in graph.nodes(data=True) if d["kind"] == "concept"}  # no "(ACR)"
    # The two GNN papers meet on a shared concept, and so do the two recommender papers.
    assert graph.has_edge("p1", "p2", key="related")
    assert graph.has_edge("p3", "p4", key="related")
    assert "implicit feedback" in concept_of, names
    assert graph.nodes[concept_of["implicit feedback"]]["papers"] == 2


def test_an_input_the_build_would_overwrite_is_refused_before_any_work(tmp_path, hash_embedder):
    from kg.export.staging import OutputFolderError

    mine = tmp_path / "papers.csv"  # a name the build writes
    mine.write_text("id,title,abstract\n1,Graphs,Graph neural networks learn on graphs.\n", encoding="utf-8")
    with pytest.raises(OutputFolderError, match="papers.csv is in the output folder"):
        build([mine], tmp_path, BuildOptions(html=False), embedder=hash_embedder)
    assert hash_embedder.calls == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["papers.csv"]
