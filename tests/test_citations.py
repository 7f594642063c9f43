"""Citations and people: cites edges across id schemes, co-citation, coupling, authors and venues."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.citations import cocitation, coauthorship, coupling, related_projection
from kg.graph import author_id, build_graph, cited_pairs, projection, venue_id
from kg.graphfile import graph_from_json, graph_to_json
from kg.ingest import load_corpus
from kg.models import Paper

FIX = Path(__file__).parent / "fixtures" / "ingest"
ALL = ["openalex_page.json", "openalex_work.json", "s2_papers.jsonl", "arxiv_snapshot.jsonl", "sample.bib",
       "sample.ris", "scopus.csv", "wos_savedrecs.txt"]
ACM = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"


def _p(pid, refs=(), **ids):
    return Paper(pid, f"abstract {pid}", pid.upper(), references=tuple(refs), ids=ids)


def test_references_resolve_by_every_id_scheme():
    s2 = "ab" * 20
    papers = [
        _p("doi-paper", doi="10.1000/abc"),
        _p("oa-paper", openalex="W2741809807"),
        _p("s2-paper", s2=s2, s2_corpus="42"),
        _p("ax-paper", arxiv="2309.00071"),
        _p("citing", refs=["https://doi.org/10.1000/ABC", "https://openalex.org/W2741809807", s2,
                           "CorpusId:42", "arXiv:2309.00071v3", "10.1000/abc", "W1", "citing", "nothing"]),
    ]
    pairs, unresolved = cited_pairs(papers)
    assert pairs == [("citing", "ax-paper"), ("citing", "doi-paper"), ("citing", "oa-paper"),
                     ("citing", "s2-paper")]
    assert unresolved == 2  # "W1" and "nothing"; the repeated DOI and the self-citation are not counted


def test_fixture_exports_cite_each_other_across_formats():
    corpus = load_corpus([FIX / name for name in ALL])
    pairs, unresolved = cited_pairs(corpus.papers)
    assert ("10.1145/3000004.0004", "10.1145/3000001.0001") in pairs  # OpenAlex W-id
    assert ("arXiv:2105.01234", "10.1145/3000002.0002") in pairs  # S2 reference by DOI
    assert ("ffffffffffffffffffffffffffffffffffffffff", "arXiv:2105.01234") in pairs  # S2 paperId
    assert ("10.1007/s11192-022-0002", "10.1145/3000001.0001") in pairs  # DOI inside a Scopus reference
    assert ("10.1371/journal.pone.0000005", "10.1145/3000002.0002") in pairs  # DOI inside a WoS CR entry
    assert len(pairs) == 8 and unresolved == 3


def test_author_and_venue_nodes():
    corpus = load_corpus([FIX / name for name in ALL])
    g = build_graph(corpus.papers, {}, [])
    assert g.nodes["a:anna muller"] == {"kind": "author", "label": "Anna Müller", "name": "Anna Müller", "papers": 2}
    assert g.edges["a:anna muller", "10.1145/3000002.0002", "wrote"] == {"kind": "wrote", "position": 2, "weight": 1}
    assert g.nodes["a:john smith"]["papers"] == 6
    assert g.nodes["v:sigir"]["papers"] == 2  # "SIGIR '20" and "SIGIR"
    assert g.has_edge("10.1145/3000001.0001", "v:sigir", key="published_in")
    assert g.nodes["10.1145/3000001.0001"]["ids"] == ["arxiv:2001.00001", "doi:10.1145/3000001.0001",
                                                      "openalex:W3000000001"]
    wrote = projection(g, "wrote")
    assert {d["kind"] for _, d in wrote.nodes(data=True)} == {"author", "paper"}
    co = coauthorship(g)
    assert co.edges["a:anna muller", "a:john smith"]["count"] == 1
    assert co.edges["a:anna muller", "a:wei zhang"] == {"count": 1, "weight": 1, "salton": pytest.approx(0.4082)}
    assert graph_from_json(graph_to_json(g)).nodes["a:wei zhang"]["kind"] == "author"


@pytest.mark.parametrize("name, expected", [("Müller, Anna", "a:anna muller"), ("J. R. R. Tolkien", "a:j r r tolkien"),
                                            ("  ", None)])
def test_author_ids(name, expected):
    assert author_id(name) == expected


def test_venue_ids_drop_years():
    assert venue_id("Proceedings of KDD 2021") == venue_id("Proceedings of KDD '20") == "v:proceedings of kdd"
    assert venue_id("2021") is None


def test_cocitation_and_coupling_counts():
    papers = [_p("a", refs=["c", "d", "10.9999/outside"]), _p("b", refs=["c", "d", "https://doi.org/10.9999/OUTSIDE"]),
              _p("e", refs=["c"]), _p("c"), _p("d")]
    g = build_graph(papers, {}, [])
    cc = cocitation(g)
    assert sorted(cc.edges(data="count")) == [("c", "d", 2)]
    assert cc.edges["c", "d"]["salton"] == pytest.approx(2 / (3 * 2) ** 0.5, abs=1e-4)
    cp = coupling(g)
    assert cp.edges["a", "b"]["count"] == 3  # c, d and the outside DOI written two ways
    assert cp.edges["a", "e"]["count"] == 1 and cp.edges["a", "e"]["salton"] == pytest.approx(3 ** -0.5, abs=1e-4)
    assert set(cp.nodes) == {"a", "b", "c", "d", "e"}
    assert coupling(g, min_count=2).number_of_edges() == 1
    assert related_projection(g, "cocitation").edges["c", "d"]["weight"] == 2
    with pytest.raises(ValueError, match="unknown projection"):
        related_projection(g, "bogus")


def test_coupling_matches_a_reference_resolved_under_another_id():
    papers = [_p("x", doi="10.1000/x", openalex="W55555"),
              _p("a", refs=["https://openalex.org/W55555"]), _p("b", refs=["10.1000/x"])]
    g = build_graph(papers, {}, [])
    assert coupling(g).edges["a", "b"]["count"] == 1
    assert cocitation(g).number_of_edges() == 0


@pytest.mark.slow
def test_build_with_every_format(tmp_path, hash_embedder):
    from kg.pipeline import BuildOptions, build

    result = build([FIX / name for name in ALL], tmp_path / "out", BuildOptions(html=False),
                   embedder=hash_embedder)
    g = result.graph
    kinds = {}
    for _, d in g.nodes(data=True):
        kinds[d["kind"]] = kinds.get(d["kind"], 0) + 1
    assert kinds["paper"] == 13 and kinds["author"] == 12 and kinds["venue"] == 10
    assert g.graph["records_merged"] == 2 and g.graph["unresolved_references"] == 3
    data = json.loads((tmp_path / "out" / "graph.json").read_text(encoding="utf-8"))
    assert sum(1 for e in data["edges"] if e["kind"] == "cites") == 8
    assert (tmp_path / "out" / "graph.graphml").exists()


@pytest.mark.slow
def test_acm_cr_citations_resolve():
    """The 50 ACM-CR query papers cite 772 DOIs in the set; 12 of those have no abstract."""
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    corpus = load_corpus([ACM])
    pairs, unresolved = cited_pairs(corpus.papers)
    assert corpus.skip_counts() == {"empty": 12}
    assert len(pairs) == 757 and unresolved == 15
