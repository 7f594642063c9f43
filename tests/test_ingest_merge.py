"""Several inputs in one corpus: the same paper from two sources becomes one, duplicates are skips."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import InputError
from kg.ingest import load_corpus, merge_corpora, merge_papers
from kg.models import Corpus, Paper

FIX = Path(__file__).parent / "fixtures" / "ingest"
ALL = ["openalex_page.json", "openalex_work.json", "s2_papers.jsonl", "arxiv_snapshot.jsonl", "sample.bib",
       "sample.ris", "scopus.csv", "wos_savedrecs.txt"]


def _paper(pid, source, **kw):
    kw.setdefault("abstract", f"Abstract of {pid}.")
    kw.setdefault("title", f"Title of {pid}")
    return Paper(id=pid, source=source, **kw)


def test_every_fixture_merged_into_one_corpus():
    corpus = load_corpus([FIX / name for name in ALL])
    # 16 records read by the readers; the arXiv and BibTeX copies of two OpenAlex works merge.
    assert len(corpus.papers) == 13 and corpus.merged == 2
    assert corpus.skip_counts() == {"duplicate": 1, "empty": 6, "unparsable": 4}
    gnn = next(p for p in corpus.papers if p.id == "10.1145/3000001.0001")
    assert gnn.source.endswith("openalex_page.json:4")
    assert gnn.extra["merged_from"] == [str(FIX / "arxiv_snapshot.jsonl") + ":1"]
    assert gnn.ids["arxiv"] == "2001.00001" and gnn.ids["openalex"] == "W3000000001"  # union of ids
    assert gnn.extra["categories"] == ["cs.IR", "cs.LG"]  # extra from the arXiv copy kept
    # the arXiv abstract is longer, so it wins
    assert gnn.abstract.endswith("three benchmark collections in detail.")
    kdd = next(p for p in corpus.papers if p.id == "10.1145/3000002.0002")
    assert kdd.keyphrases == ("contrastive learning", "sentence embeddings", "dense retrieval")  # from BibTeX
    assert kdd.venue == "KDD 2021"  # first source's venue


def test_same_title_merges_across_inputs_only_when_compatible():
    a = Corpus([_paper("x1", "a.jsonl:1", title="Deep Learning for Graph Matching", year=2020)])
    b = Corpus([
        _paper("x2", "b.jsonl:1", title="Deep learning for graph-matching!", year=2021, authors=("A B", "C D")),
        _paper("x3", "b.jsonl:2", title="Short Title", year=2020),
    ])
    c = Corpus([_paper("x4", "c.jsonl:1", title="Deep Learning for Graph Matching", year=2009)])  # other paper
    merged = merge_corpora([a, b, c])
    assert [p.id for p in merged.papers] == ["x1", "x3", "x4"] and merged.merged == 1
    assert merged.papers[0].authors == ("A B", "C D") and merged.papers[0].extra["aliases"] == ["x2"]


def test_same_title_in_one_input_is_not_merged():
    one = Corpus([_paper("x1", "a.jsonl:1", title="Deep Learning for Graph Matching"),
                  _paper("x2", "a.jsonl:2", title="Deep Learning for Graph Matching")])
    merged = merge_corpora([one])
    assert len(merged.papers) == 2 and merged.merged == 0 and not merged.skipped


def test_same_doi_in_one_input_is_a_located_duplicate():
    one = Corpus([_paper("a", "f.bib:3", ids={"doi": "10.1000/x"}),
                  _paper("b", "f.bib:9", ids={"doi": "10.1000/x"})])
    merged = merge_corpora([one])
    assert [p.id for p in merged.papers] == ["a"]
    [skip] = merged.skipped
    assert (skip.source, skip.location, skip.reason) == ("f.bib", 9, "duplicate: same doi '10.1000/x' as f.bib:3")


def test_merge_papers_prefers_richer_fields():
    a = _paper("a", "a:1", abstract="Short.", title="Derived", title_derived=True, keyphrases=("x",),
               references=("10.1000/r1",), ids={"doi": "10.1000/a"})
    b = _paper("b", "b:1", abstract="A much longer abstract.", title="Real Title", year=2020, venue="V",
               keyphrases=("X", "y"), references=("https://doi.org/10.1000/R1", "10.1000/r2"),
               ids={"openalex": "W1234"})
    m = merge_papers(a, b)
    assert (m.id, m.source, m.title, m.title_derived) == ("a", "a:1", "Real Title", False)
    assert (m.abstract, m.year, m.venue) == ("A much longer abstract.", 2020, "V")
    assert m.keyphrases == ("x", "y") and m.references == ("10.1000/r1", "10.1000/r2")
    assert m.ids == {"doi": "10.1000/a", "openalex": "W1234"}
    assert m.extra == {"aliases": ["b"], "merged_from": ["b:1"]}


def test_strict_turns_the_first_skip_into_a_located_error():
    with pytest.raises(InputError) as info:
        load_corpus([FIX / "sample.ris"], strict=True)
    assert str(info.value) == (f"{FIX / 'sample.ris'}:23: empty: no abstract (strict: stopped at the first of 2 record(s) skipped in all)")


def test_map_needs_a_csv_input_and_format_must_exist():
    with pytest.raises(InputError, match="a column mapping applies to CSV/TSV inputs"):
        load_corpus([FIX / "sample.ris"], mapping={"abstract": "AB"})
    with pytest.raises(InputError, match="unknown format 'endnote'"):
        load_corpus([FIX / "sample.ris"], format="endnote")
    corpus = load_corpus([FIX / "custom.csv"], mapping={"abstract": "Summary", "title": "Paper Title"})
    assert [p.title for p in corpus.papers] == ["Mapping Columns of Any Spreadsheet"]


def test_explicit_format_overrides_detection(tmp_path):
    odd = tmp_path / "export.dat"
    odd.write_bytes((FIX / "s2_papers.jsonl").read_bytes())
    assert len(load_corpus([odd], format="s2").papers) == 2
