"""The saved analysis (kg.analyze.result): an analysis that does not belong to its graph is refused."""

from __future__ import annotations

import copy

import pytest

from _example_graphs import keyphrase_graph
from conftest import EXAMPLE
from kg.analyze import analyze
from kg.analyze.result import (AnalysisMismatchError, check_analysis, load_analysis, paper_community,
                               save_analysis)
from kg.errors import KgError


@pytest.fixture(scope="module")
def made():
    graph = keyphrase_graph(EXAMPLE)
    return graph, analyze(graph)


def test_the_graphs_own_analysis_passes_and_round_trips(made, tmp_path):
    graph, analysis = made
    assert check_analysis(graph, analysis) is analysis
    save_analysis(analysis, tmp_path)
    assert load_analysis(tmp_path) == analysis
    papers = sorted(n for n, d in graph.nodes(data=True) if d["kind"] == "paper")
    assert sorted(paper_community(analysis)) == papers


@pytest.mark.parametrize("change, message", [
    (lambda a: a["communities"][0]["papers"].pop(), r"leaves out 1 of its papers \(e\.g\. '"),
    (lambda a: a["communities"][0]["papers"].append("no-such-paper"),
     r"names 1 papers the graph does not have \(e\.g\. 'no-such-paper'\)"),
    (lambda a: a["communities"][1]["papers"].append(a["communities"][0]["papers"][0]),
     "puts a paper in two communities"),
    (lambda a: a["communities"][0].update(id=7), r"no numbered community rows"),
    (lambda a: a.pop("communities"), r"no numbered community rows"),
])
def test_an_analysis_of_another_graph_is_refused_saying_how(made, change, message):
    graph, analysis = made
    other = copy.deepcopy(analysis)
    change(other)
    with pytest.raises(AnalysisMismatchError, match=message) as raised:
        check_analysis(graph, other)
    assert isinstance(raised.value, KgError)
    assert str(raised.value).startswith(("the analysis does not belong to this graph", "the analysis has no"))
