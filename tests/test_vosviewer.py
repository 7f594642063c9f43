"""kg export vosviewer: the concept map as VOSviewer map/network files and VOSviewer Online JSON."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.export.html_view import community_membership
from kg.export.vosviewer import MAP_COLUMNS, save_vosviewer, vosviewer_network
from kg.graphfile import load_graph
from kg.pipeline import BuildOptions, build

from conftest import SHARED, HashEmbedder

ACM = SHARED / "data" / "acm_cr" / "papers.jsonl"


@pytest.fixture(scope="module")
def acm_build(tmp_path_factory):
    """The first 300 ACM-CR papers, built with the cheap stand-in embedder (the model is not the point)."""
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    folder = tmp_path_factory.mktemp("acm-vos")
    part = folder / "acm300.jsonl"
    with open(ACM, encoding="utf-8") as handle:
        part.write_text("".join(line for _, line in zip(range(300), handle)), encoding="utf-8")
    out = folder / "out"
    build([part], out, BuildOptions(html=False), embedder=HashEmbedder())
    return out


def _read(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter="\t"))


def test_cli_writes_map_network_and_json_that_parse_back_to_the_graph(acm_build, tmp_path):
    result = CliRunner().invoke(app, ["export", "vosviewer", str(acm_build), "--top", "200", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    graph = load_graph(acm_build)
    rows = _read(tmp_path / "vosviewer_map.txt")
    assert tuple(rows[0]) == MAP_COLUMNS
    items = [dict(zip(rows[0], row)) for row in rows[1:]]
    # the concepts 300 papers share (99 since links by containment skip no word; 100 to 200 before)
    assert 50 <= len(items) <= 200 and [int(i["id"]) for i in items] == list(range(1, len(items) + 1))
    links = [tuple(map(int, row)) for row in _read(tmp_path / "vosviewer_network.txt")]
    assert links and all(len(link) == 3 and 1 <= link[0] < link[1] <= len(items) for link in links)
    # Each item and link stands for the graph's concept and co-occurrence count.
    network = vosviewer_network(graph, top=200)
    node = {item["id"]: item["node"] for item in network["items"]}
    by_pair = {}
    for u, v, key, data in graph.edges(keys=True, data=True):
        if key == "co_occurs":
            by_pair[frozenset((u, v))] = data["count"]
    for a, b, strength in links:
        assert by_pair[frozenset((node[a], node[b]))] == strength
    chosen = set(node.values())
    assert len(links) == sum(1 for pair in by_pair if pair <= chosen)  # every link among the items, not 4 each
    degree, total = defaultdict(int), defaultdict(int)
    for a, b, strength in links:
        for end in (a, b):
            degree[end] += 1
            total[end] += strength
    membership, _ = community_membership(graph)
    for item in items:
        i, concept = int(item["id"]), node[int(item["id"])]
        assert item["label"] == graph.nodes[concept]["label"]  # the name, with its acronym if any
        assert int(item["weight<Links>"]) == degree[i] and int(item["weight<Total link strength>"]) == total[i]
        assert int(item["weight<Occurrences>"]) == graph.nodes[concept]["papers"]
        assert -1 <= float(item["x"]) <= 1 and -1 <= float(item["y"]) <= 1
        assert int(item["cluster"]) == membership[concept] + 1  # clusters are the report's communities
        years = [graph.nodes[p]["year"] for p, _, k in graph.in_edges(concept, keys=True) if k == "mentions"]
        assert float(item["score<Avg. pub. year>"]) == pytest.approx(sum(years) / len(years), abs=0.01)
    online = json.loads((tmp_path / "vosviewer.json").read_text(encoding="utf-8"))
    assert set(online) == {"network", "config"} and set(online["network"]) == {"items", "links"}
    assert [(x["id"], x["label"], x["cluster"], x["weights"]["Occurrences"]) for x in online["network"]["items"]] == \
        [(int(i["id"]), i["label"], int(i["cluster"]), int(i["weight<Occurrences>"])) for i in items]
    assert [(x["source_id"], x["target_id"], x["strength"]) for x in online["network"]["links"]] == links
    assert online["config"]["terminology"]["item"] == "concept"


def test_same_graph_gives_the_same_files(acm_build, tmp_path):
    graph = load_graph(acm_build)
    first = [Path(p).read_bytes() for p in save_vosviewer(vosviewer_network(graph, top=100), tmp_path / "a")]
    again = [Path(p).read_bytes() for p in save_vosviewer(vosviewer_network(graph, top=100), tmp_path / "b")]
    assert first == again


def test_hostile_labels_stay_one_cell_and_descriptions_are_escaped(tmp_path):
    g = nx.MultiDiGraph()
    names = {"c:a": "=HYPERLINK(\"x\")\tnext", "c:b": "<script>alert(1)</script>\nline", "c:c": "plain \u202ename"}
    for node, name in names.items():
        g.add_node(node, kind="concept", name=name, papers=2, aliases=[name, "<img src=x>"])
    g.add_edge("c:a", "c:b", key="co_occurs", count=2, weight=2)
    g.add_edge("c:b", "c:c", key="co_occurs", count=3, weight=3)
    paths = save_vosviewer(vosviewer_network(g), tmp_path)
    rows = _read(Path(paths[0]))
    assert len(rows) == 4 and all(len(row) == len(MAP_COLUMNS) for row in rows)
    labels = {row[1] for row in rows[1:]}
    assert "'=HYPERLINK(\"x\") next" in labels and "<script>alert(1)</script> line" in labels
    assert "plain name" in labels and all("\u202e" not in x for x in labels)  # bidi override removed
    text = Path(paths[2]).read_text(encoding="utf-8")
    assert "<script>" not in text.replace("\"label\": \"<script>alert(1)</script> line\"", "")
    assert "&lt;img src=x&gt;" in text and "\u202e" not in text
    assert len(_read(Path(paths[1]))) == 2
