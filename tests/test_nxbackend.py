"""NetworkX backend dispatch (kg.nxbackend, --nx-backend): checked before work, results equal to NetworkX's.

The real backend in the test extra is nx-rustworkx (rustworkx's Rust kernels), which installs
on this project's Python 3.11 with NetworkX 3.6. nx-parallel, the backend the NetworkX project
keeps, needs Python 3.12 from its 0.4 on (0.3, the last for 3.11, does not import under NetworkX
3.6): its test runs where it is installed and is skipped elsewhere.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg.analyze import analyze
from kg.analyze.centrality import betweenness, pagerank
from kg.cli import app
from kg.errors import OptionError
from kg.graph import projection
from kg.nxbackend import call, check_backend, installed_backends, tally
from kg.pipeline import BuildOptions

from _example_graphs import keyphrase_graph
from conftest import EXAMPLE


def _usable(name: str) -> bool:
    try:
        return check_backend(name) == name
    except OptionError:
        return False


RUSTWORKX = pytest.mark.skipif(not _usable("rustworkx"),
                               reason="nx-rustworkx is not installed (pip install -e '.[test]')")
PARALLEL = pytest.mark.skipif(not _usable("parallel"), reason="nx-parallel (0.4+, Python 3.12+) is not installed")


@pytest.fixture(scope="module")
def graph():
    return keyphrase_graph(EXAMPLE)


def test_no_backend_and_networkx_name_the_default():
    assert check_backend(None) is None and check_backend("networkx") is None


def test_unknown_backend_is_one_clear_error():
    with pytest.raises(OptionError) as caught:
        check_backend("no-such-backend")
    message = str(caught.value)
    assert "unknown NetworkX backend 'no-such-backend'" in message and "pip install" in message
    for name in installed_backends():
        assert name in message
    with pytest.raises(OptionError, match="nx_backend"):
        BuildOptions(nx_backend="no-such-backend")


def test_a_backend_that_does_not_load_is_one_clear_error(monkeypatch):
    import importlib.metadata

    from kg import nxbackend

    class Broken:
        def load(self):
            raise ImportError("cannot import name '_rescale_e' from 'networkx.algorithms.centrality.betweenness'")

    monkeypatch.setattr(nxbackend, "installed_backends", lambda: ["broken"])
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kw: [Broken()])
    with pytest.raises(OptionError, match=r"'broken' is installed but does not load with NetworkX .*_rescale_e"):
        check_backend("broken")


@pytest.mark.parametrize("command", ["build", "report"])
def test_cli_refuses_an_unknown_backend_before_any_work(command, tmp_path):
    out = tmp_path / "never-written"
    args = ([command, str(EXAMPLE), "--out", str(out)] if command == "build"
            else [command, str(tmp_path / "no-build-here"), "--out", str(out)])
    result = CliRunner().invoke(app, [*args, "--nx-backend", "no-such-backend"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: --nx-backend: unknown NetworkX backend 'no-such-backend'")
    assert result.stderr.count("\n") == 1 and not out.exists()


def test_call_falls_back_to_networkx_where_the_backend_has_no_such_algorithm():
    g = nx.karate_club_graph()
    with tally() as counts:
        parts = call(nx.community.louvain_communities, g, seed=1, backend="no-such-backend")
    assert parts == nx.community.louvain_communities(g, seed=1)
    assert counts == {("louvain_communities", "networkx"): 1}


def _comparable(analysis: dict) -> dict:
    """The analysis without the full PageRank maps, its tables by id: nodes whose PageRank ties
    exactly in NetworkX (ranked by id then) can swap places when the last digits differ."""
    out = {k: v for k, v in analysis.items() if k != "pagerank"}
    for key in ("central_papers", "central_concepts", "bipartite", "citations"):
        out[key] = sorted(out[key], key=lambda row: row["id"])
    return json.loads(json.dumps(out))


@RUSTWORKX
def test_rustworkx_analysis_equals_networkx(graph):
    """Everything NetworkX still runs is identical; PageRank, which rustworkx runs, agrees to 1e-8
    (its power iteration stops on its own criterion, so the last digits differ)."""
    default = analyze(graph)
    with tally() as counts:
        dispatched = analyze(graph, backend="rustworkx")
    assert counts[("pagerank", "rustworkx")] >= 3  # papers, concepts, bipartite (and citations)
    assert counts[("louvain_communities", "networkx")] >= 1  # rustworkx has no Louvain
    for name in ("papers", "concepts"):
        a, b = default["pagerank"][name], dispatched["pagerank"][name]
        assert a.keys() == b.keys() and max(abs(a[k] - b[k]) for k in a) < 1e-8
    assert _comparable(dispatched) == _comparable(default)
    assert [c["papers"] for c in dispatched["communities"]] == [c["papers"] for c in default["communities"]]
    assert dispatched["modularity"] == default["modularity"]


@RUSTWORKX
def test_rustworkx_betweenness_on_the_networkx_path(graph):
    related = projection(graph, "related")
    hops = betweenness(related, weight=None, fast=False)
    with tally() as counts:
        dispatched = betweenness(related, weight=None, fast=False, backend="rustworkx")
    assert counts == {("betweenness_centrality", "rustworkx"): 1}
    assert dispatched.keys() == hops.keys() and max(abs(hops[n] - dispatched[n]) for n in hops) < 1e-12
    # Weighted betweenness is not rustworkx's (unweighted Brandes only): NetworkX runs it, exactly.
    with tally() as counts:
        weighted = betweenness(related, fast=False, backend="rustworkx")
    assert counts == {("betweenness_centrality", "networkx"): 1}
    assert weighted == betweenness(related, fast=False)
    assert pagerank(related, backend="rustworkx").keys() == pagerank(related).keys()


@PARALLEL
def test_parallel_betweenness_equals_networkx(graph):
    related = projection(graph, "related")
    with tally() as counts:
        dispatched = betweenness(related, fast=False, backend="parallel")
    assert counts == {("betweenness_centrality", "parallel"): 1}
    exact = betweenness(related, fast=False)
    assert max(abs(exact[n] - dispatched[n]) for n in exact) < 1e-12  # the same sums, added in chunks
    sampled = betweenness(related, fast=False, exact_limit=5, samples=5, backend="parallel")
    assert sampled == betweenness(related, fast=False, exact_limit=5, samples=5)  # no subset version there


@RUSTWORKX
def test_cli_reports_where_the_calls_ran(tmp_path):
    from conftest import HashEmbedder
    from kg.pipeline import build

    build([EXAMPLE], tmp_path / "b", BuildOptions(html=False), embedder=HashEmbedder())
    result = CliRunner().invoke(app, ["report", str(tmp_path / "b"), "--out", str(tmp_path / "r"),
                                      "--nx-backend", "rustworkx"])
    assert result.exit_code == 0, result.output + result.stderr
    assert "NetworkX backend rustworkx: ran pagerank ×" in result.stderr
    plain = CliRunner().invoke(app, ["report", str(tmp_path / "b"), "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0
    a = json.loads((tmp_path / "r" / "report.json").read_text())
    b = json.loads((tmp_path / "plain" / "report.json").read_text())
    assert a["communities"] == b["communities"] and a["modularity"] == b["modularity"]
