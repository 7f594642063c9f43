"""kg.export.html and kg.export.html_view without a browser: views, filters, embedding, escaping."""

from __future__ import annotations

import base64
import hashlib
import html as htmlmod
import json
import re

import networkx as nx
import numpy as np
import pytest
from typer.testing import CliRunner

from _html_graphs import synthetic_graph
from kg.cli import app
from kg.errors import ViewError
from kg.export.forcelayout import EXACT_NODES, fruchterman_reingold
from kg.export.html import layout_positions, render_html
from kg.export.html_view import find_node, graph_view
from kg.graphfile import graph_to_json

EVIL = ('Bad <script>window.__kgPwned=1</script> and </script><script>window.__kgPwned=2</script> '
        'and <img src=x onerror="window.__kgPwned=3"> & "quotes" \u2028 end')


@pytest.fixture(scope="module")
def graph():
    return synthetic_graph(300, seed=3, abstract=EVIL)


def _scripts(page: str) -> list[tuple[str, str]]:
    return re.findall(r"<script([^>]*)>(.*?)</script>", page, flags=re.S)


def _data(page: str) -> dict:
    (body,) = [b for attrs, b in _scripts(page) if 'id="kg-data"' in attrs]
    return json.loads(body)


def test_bipartite_view_has_papers_and_concepts_only(graph):
    view = graph_view(graph, top=None)
    kinds = {d["kind"] for _, d in view.nodes(data=True)}
    assert kinds == {"paper", "concept"}
    assert {d["kind"] for _, _, d in view.edges(data=True)} <= {"mentions", "cites"}
    assert view.number_of_nodes() == 300
    assert all("community" in d and "centrality" in d for _, d in view.nodes(data=True))


def test_papers_and_concepts_views(graph):
    papers = graph_view(graph, view="papers", top=None)
    assert {d["kind"] for _, d in papers.nodes(data=True)} == {"paper"}
    assert {d["kind"] for _, _, d in papers.edges(data=True)} <= {"related", "cites"}
    concepts = graph_view(graph, view="concepts", top=None)
    assert {d["kind"] for _, d in concepts.nodes(data=True)} == {"concept"}
    assert {d["kind"] for _, _, d in concepts.edges(data=True)} == {"co_occurs"}


def test_papers_view_keeps_citations_on_related_pairs():
    g = nx.MultiDiGraph()
    for p in ("a", "b"):
        g.add_node(p, kind="paper", label=p)
    g.add_edge("a", "b", key="related", kind="related", weight=2.5)
    g.add_edge("b", "a", key="cites", kind="cites", weight=1)
    view = graph_view(g, view="papers")
    assert view.edges["a", "b"] == {"kind": "related", "weight": 2.5, "cites": True}


def test_top_keeps_the_most_central(graph):
    # the bipartite view's weighted degrees, counted here from the graph's own edges: a link drawn once
    # per pair of nodes (two papers that cite each other are one link)
    links = {frozenset((u, v)): float(data.get("weight", 1.0))
             for u, v, key, data in graph.edges(keys=True, data=True) if key in ("mentions", "cites")}
    degree: dict[str, float] = {}
    for pair, weight in links.items():
        for node in pair:
            degree[node] = degree.get(node, 0.0) + weight
    best = sorted(degree, key=lambda n: (-degree[n], n))[:40]
    top = graph_view(graph, top=40, size_by="degree")
    assert sorted(top.nodes) == sorted(best)
    assert {n: top.nodes[n]["centrality"] for n in top} == pytest.approx({n: degree[n] for n in best})


def test_min_weight_drops_light_edges_and_lonely_nodes(graph):
    view = graph_view(graph, top=None, min_weight=0.5)
    assert min(w for _, _, w in view.edges(data="weight")) >= 0.5
    assert all(view.degree(n) > 0 for n in view)
    assert view.number_of_edges() < graph_view(graph, top=None).number_of_edges()


def test_community_filter_and_concept_membership(graph):
    view = graph_view(graph, top=None, community=0)
    assert view.number_of_nodes() > 0
    assert {d["community"] for _, d in view.nodes(data=True)} == {0}
    with pytest.raises(ViewError, match="does not exist"):
        graph_view(graph, community=10_000)


def test_focus_is_an_ego_network(graph):
    view = graph_view(graph, top=None, focus="P00001", depth=1)
    assert view.graph["focus"] == "P00001"
    full = graph_view(graph, top=None)
    assert set(view) == {"P00001", *full.neighbors("P00001")}
    deeper = graph_view(graph, top=None, focus="P00001", depth=2)
    assert set(view) < set(deeper)


def test_focus_resolves_labels_and_explains_misses(graph):
    view = graph_view(graph, top=None)
    title = graph.nodes["P00002"]["label"]
    assert find_node(view, graph, title.upper()) == "P00002"
    with pytest.raises(ViewError, match="matches no node"):
        find_node(view, graph, "no such thing anywhere")
    with pytest.raises(ViewError, match="matches .* nodes"):
        find_node(view, graph, "Paper 1")
    concept = next(n for n, d in graph.nodes(data=True) if d["kind"] == "concept")
    with pytest.raises(ViewError, match="is a concept"):
        graph_view(graph, view="papers", focus=concept)


@pytest.mark.parametrize("kwargs", [{"view": "authors"}, {"size_by": "closeness"}, {"depth": -1}])
def test_bad_options_raise_view_error(graph, kwargs):
    with pytest.raises(ViewError):
        graph_view(graph, **kwargs)


def test_layout_is_seeded_and_spread():
    g = nx.barabasi_albert_graph(200, 2, seed=1)
    g = nx.relabel_nodes(g, str)
    first, again = layout_positions(g, seed=7), layout_positions(g, seed=7)
    assert first == again
    assert first != layout_positions(g, seed=8)
    xs = [x for x, _ in first.values()]
    assert max(xs) - min(xs) > 500  # pixels: nodes are not piled on one spot


@pytest.mark.parametrize("size", [60, 900])  # every pair repels / a sample of others repels (EXACT_NODES)
def test_force_layout_puts_linked_nodes_together_and_is_seeded(size):
    # two groups, each a ring with chords, joined by one edge; the nodes start mixed at random
    half = size // 2
    edges = [(g * half + i, g * half + (i + k) % half) for g in (0, 1) for i in range(half) for k in (1, 7)]
    edges.append((0, half))
    start = np.random.default_rng(3).uniform(-1, 1, size=(size, 2)) * np.sqrt(size)
    pos = fruchterman_reingold(start, np.array(edges), seed=5)
    assert np.array_equal(pos, fruchterman_reingold(start, np.array(edges), seed=5))
    assert size <= EXACT_NODES or not np.array_equal(pos, fruchterman_reingold(start, np.array(edges), seed=6))
    pick = np.random.default_rng(0).integers(0, size, size=(20_000, 2))
    apart = np.hypot(*(pos[pick[:, 0]] - pos[pick[:, 1]]).T)
    same = (pick[:, 0] < half) == (pick[:, 1] < half)
    assert apart[~same].mean() > 1.15 * apart[same].mean()  # the two groups stand apart (igraph: 1.43 at 900)
    linked = np.mean([np.hypot(*(pos[u] - pos[v])) for u, v in edges])
    assert linked < 0.25 * apart.mean()  # linked nodes are near each other (igraph: 0.18, 0.04; at the start: 1)
    assert np.isfinite(pos).all() and len({tuple(np.round(p, 3)) for p in pos}) == size


def test_page_is_self_contained_and_deterministic(graph):
    page = render_html(graph, top=None)
    assert page == render_html(graph, top=None)
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page, flags=re.I)
    assert "<link" not in page
    assert not re.search(r"@import|url\((?!data:)", page.split("<script")[0])
    scripts = _scripts(page)
    assert all("src=" not in attrs for attrs, _ in scripts)
    assert len(scripts) == 3  # data, vis-network, kg


def test_csp_allows_exactly_the_inline_scripts(graph):
    page = render_html(graph, top=50)
    csp = htmlmod.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1))
    assert "default-src 'none'" in csp
    allowed = set(re.findall(r"'sha256-([^']+)'", csp))
    code = [body for attrs, body in _scripts(page) if "application/json" not in attrs]
    digests = {base64.b64encode(hashlib.sha256(b.encode()).digest()).decode() for b in code}
    assert digests == allowed


def test_corpus_text_cannot_break_out(graph):
    page = render_html(graph, top=None)
    assert "__kgPwned" in page  # the text is there …
    assert "<script>window.__kgPwned" not in page  # … but never as markup
    assert "<img src=x" not in page
    assert page.count("</script>") == 3
    data = _data(page)
    paper = next(n for n in data["nodes"] if n["id"] == "P00000")
    assert paper["info"]["abstract"].startswith("Bad <script>window.__kgPwned=1</script> and </script>")
    assert '<img src=x onerror="window.__kgPwned=3"> & "quotes"' in paper["info"]["abstract"]


def test_payload_carries_tooltips_legend_and_sizes(graph):
    data = _data(render_html(graph, top=None, size_by="degree"))
    kinds = {n["kind"] for n in data["nodes"]}
    assert kinds == {"paper", "concept"}
    paper = next(n for n in data["nodes"] if n["kind"] == "paper")
    assert {"title", "year", "venue", "concepts", "abstract"} <= set(paper["info"])
    assert 0 < len(paper["info"]["concepts"]) <= 6 and len(paper["info"]["abstract"]) <= 281
    concept = next(n for n in data["nodes"] if n["kind"] == "concept")
    assert {"title", "aliases", "papers"} <= set(concept["info"])
    by_centrality = sorted(data["nodes"], key=lambda n: n["centrality"])
    assert by_centrality[0]["size"] < by_centrality[-1]["size"]
    papers = sum(1 for n in data["nodes"] if n["kind"] == "paper")
    assert sum(e["count"] for e in data["legend"]) == papers  # the legend counts each community's papers
    assert all(e["label"] for e in data["legend"])
    widths = [e[2] for e in data["edges"]]
    assert min(widths) < max(widths)


def test_empty_view_still_renders():
    g = nx.MultiDiGraph()
    g.add_node("p", kind="paper", label="Only", title="Only", abstract="x")
    data = _data(render_html(g, view="concepts"))
    assert data["nodes"] == [] and data["edges"] == []


def test_cli_viz_writes_the_page(tmp_path, graph):
    (tmp_path / "graph.json").write_text(graph_to_json(graph), encoding="utf-8")
    out = tmp_path / "papers.html"
    result = CliRunner().invoke(app, ["viz", str(tmp_path), "--view", "papers", "--top", "30", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output
    data = _data(out.read_text(encoding="utf-8"))
    assert data["view"] == "papers" and len(data["nodes"]) == 30


def test_cli_viz_reports_bad_focus(tmp_path, graph):
    (tmp_path / "graph.json").write_text(graph_to_json(graph), encoding="utf-8")
    result = CliRunner().invoke(app, ["viz", str(tmp_path), "--focus", "zzz-none"])
    assert result.exit_code == 1
    assert "Error: --focus: 'zzz-none' matches no node" in result.output
    assert not (tmp_path / "graph.html").exists()


def test_focus_prefers_an_exact_name_or_alias_over_partial_matches():
    g = nx.MultiDiGraph()
    g.add_node("p", kind="paper", label="P", title="P")
    g.add_node("c:gcn", kind="concept", label="graph convolutional network (GCN)",
               name="graph convolutional network", aliases=["GCN", "GCNs"])
    g.add_node("c:deep", kind="concept", label="deep graph convolutional network",
               name="deep graph convolutional network", aliases=[])
    for c in ("c:gcn", "c:deep"):
        g.add_edge("p", c, key="mentions", kind="mentions", weight=0.5)
    view = graph_view(g)
    assert find_node(view, g, "Graph Convolutional Network") == "c:gcn"
    assert find_node(view, g, "gcns") == "c:gcn"
    assert find_node(view, g, "deep graph") == "c:deep"


def test_top_replaces_nodes_whose_links_all_leave_it():
    from kg.export.selection import _linked_top

    g = nx.Graph([("a", "b"), ("b", "c"), ("x", "y"), ("c", "d")])
    scores = {"a": 9, "b": 8, "x": 7, "c": 6, "y": 1, "d": 5}
    # the plain top 4 (a, b, x, c) leaves x alone: it gives way to d, which links to c
    assert _linked_top(g, scores, 4, None) == ["a", "b", "c", "d"]
    assert _linked_top(g, scores, 4, "x") == ["x", "a", "b", "c"]  # a focus stays, even alone
    assert _linked_top(nx.empty_graph(["p", "q", "r"]), {"p": 3, "q": 2, "r": 1}, 2, None) == ["p", "q"]


def test_top_leaves_no_node_alone_on_a_large_graph():
    big = synthetic_graph(3000, seed=5)
    for name in ("bipartite", "papers", "concepts"):
        view = graph_view(big, view=name, top=600)
        assert view.number_of_nodes() == 600
        assert all(view.degree(n) > 0 for n in view), name


def test_precomputed_communities_are_shown_as_given(graph):
    papers = sorted(n for n, d in graph.nodes(data=True) if d["kind"] == "paper")
    given = {p: i % 3 for i, p in enumerate(papers)}
    labels = ["first theme", "second theme", "third theme"]
    view = graph_view(graph, top=None, communities=given, community_labels=labels)
    assert all(view.nodes[p]["community"] == given[p] for p in papers)
    assert view.graph["community_labels"] == labels
    concepts = [n for n, d in view.nodes(data=True) if d["kind"] == "concept"]
    assert {view.nodes[c]["community"] for c in concepts} <= {0, 1, 2}  # concepts follow their papers
    data = _data(render_html(graph, top=None, communities=given, community_labels=labels))
    assert [e["label"] for e in data["legend"]] == labels
    fallback = graph_view(graph, top=None, communities=given)  # labels computed from the given groups
    assert len(fallback.graph["community_labels"]) == 3 and all(fallback.graph["community_labels"])


def test_communities_view_is_one_node_per_community(graph):
    full = graph_view(graph, top=None)
    view = graph_view(graph, view="communities", top=None)
    sizes = {}
    for n, d in full.nodes(data=True):
        if d["kind"] == "paper":
            sizes[d["community"]] = sizes.get(d["community"], 0) + 1
    assert {d["community"]: d["papers"] for _, d in view.nodes(data=True)} == sizes
    assert all(d["kind"] == "community" and d["concepts"] and d["central"] for _, d in view.nodes(data=True))
    assert view.number_of_edges() > 0 and all(w > 0 for _, _, w in view.edges(data="weight"))
    data = _data(render_html(graph, view="communities", top=None))
    node = max(data["nodes"], key=lambda n: n["size"])
    assert node["kind"] == "community" and node["info"]["papers"] == max(sizes.values())
    assert node["info"]["concepts"] and node["info"]["central"][0]["title"]
    assert sum(e["count"] for e in data["legend"]) == sum(sizes.values())  # the legend counts papers


def test_concepts_view_keeps_each_concepts_strongest_links(graph):
    from kg.export.html_view import CONCEPT_LINKS

    view = graph_view(graph, view="concepts", top=None)
    full = nx.Graph()
    full.add_edges_from((u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == "co_occurs")
    assert view.number_of_edges() < full.number_of_edges()
    for u, v, w in view.edges(data="weight"):
        heavier = [sum(1 for _, _, x in full.edges(end, data="weight") if x > w) for end in (u, v)]
        assert min(heavier) < CONCEPT_LINKS
    assert all(view.degree(n) > 0 for n in view)


def test_layout_puts_each_community_in_its_own_region():
    from _html_graphs import map_metrics

    big = synthetic_graph(2000, seed=2)
    data = _data(render_html(big, top=1200))
    metrics = map_metrics(data)
    assert metrics["isolated"] == 0.0
    assert metrics["agreement"] >= 0.9 > 0.3 >= metrics["baseline"]
    assert data == _data(render_html(big, top=1200))  # seeded: the same page again


def test_communities_view_leaves_out_unlinked_communities_and_says_so():
    g = _graph_with_a_loner()
    view = graph_view(g, view="communities", top=None)
    assert all(view.degree(n) > 0 for n in view)
    assert view.graph["left_out"] == {"communities": 1, "papers": 1}
    assert _data(render_html(g, view="communities"))["left_out"] == {"communities": 1, "papers": 1}
    assert graph_view(g, top=None).graph["left_out"] is None


def _graph_with_a_loner() -> nx.MultiDiGraph:
    g = synthetic_graph(300, seed=3)
    g.add_node("loner", kind="paper", label="Alone", title="Alone", abstract="x")
    g.add_node("c:only", kind="concept", label="only here", name="only here", papers=1)
    g.add_edge("loner", "c:only", key="mentions", kind="mentions", weight=0.5)
    return g


def test_a_concept_is_shown_with_its_acronym_and_found_by_it():
    from kg.graph import build_graph
    from kg.models import Concept, Mention, Paper

    concepts = {"c:collaborative filtering": Concept("c:collaborative filtering", "collaborative filtering",
                                                     ("CF", "Collaborative Filtering", "collaborative filtering"),
                                                     "CF"),
                "c:rating": Concept("c:rating", "rating", ("ratings",))}
    mentions = [Mention(p, c, 0.5, rank, c[2:]) for p in ("a", "b")
                for rank, c in enumerate(("c:collaborative filtering", "c:rating"), start=1)]
    g = build_graph([Paper("a", "x", "A"), Paper("b", "y", "B")], concepts, mentions)
    data = _data(render_html(g, top=None))
    nodes = {n["id"]: n for n in data["nodes"]}
    cf = nodes["c:collaborative filtering"]
    assert cf["label"] == cf["info"]["title"] == "collaborative filtering (CF)"
    assert cf["info"]["aliases"] == ["Collaborative Filtering"]  # the title shows the name and the acronym
    assert nodes["a"]["info"]["concepts"] == ["collaborative filtering (CF)", "rating"]
    assert nodes["c:rating"]["label"] == "rating"
    view = graph_view(g)
    for typed in ("CF", "collaborative filtering", "Collaborative Filtering (CF)"):
        assert find_node(view, g, typed) == "c:collaborative filtering"
