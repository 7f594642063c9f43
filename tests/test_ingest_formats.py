"""Each reader on a small export of its format (tests/fixtures/ingest), broken records included."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.ingest import (
    detect_format,
    load_arxiv,
    load_bibtex,
    load_csv,
    load_jsonl,
    load_openalex,
    load_ris,
    load_semantic_scholar,
    load_wos,
)
from kg.ingest.openalex import rebuild_abstract

FIX = Path(__file__).parent / "fixtures" / "ingest"


def _skips(corpus):
    return [(s.location, s.reason) for s in corpus.skipped]


def _by_id(corpus):
    return {p.id: p for p in corpus.papers}


def test_openalex_page_rebuilds_abstract_and_keeps_references():
    path = FIX / "openalex_page.json"
    corpus = load_openalex(path)
    papers = _by_id(corpus)
    assert list(papers) == ["10.1145/3000001.0001", "10.1145/3000004.0004"]
    gnn = papers["10.1145/3000001.0001"]
    assert gnn.abstract == ("We recommend citations with graph neural networks over the citation graph.")
    assert gnn.title == "Graph Neural Networks for Citation Recommendation" and not gnn.title_derived
    assert gnn.authors == ("Anna Müller", "John Smith")
    assert (gnn.year, gnn.venue) == (2020, "SIGIR '20")
    assert gnn.ids == {"openalex": "W3000000001", "doi": "10.1145/3000001.0001"}
    assert gnn.keyphrases == ("citation recommendation",)
    assert gnn.extra["topics"] == ["Citation Analysis"] and gnn.extra["concepts"] == ["Computer science"]
    assert gnn.source == f"{path}:4"
    assert papers["10.1145/3000004.0004"].references == ("W3000000001", "W2999999999")
    assert _skips(corpus) == [(33, "empty: no abstract")]


def test_openalex_single_work_and_jsonl(tmp_path):
    single = load_openalex(FIX / "openalex_work.json")
    assert [p.id for p in single.papers] == ["10.1145/3000002.0002"]
    assert single.papers[0].references == ("W3000000001",)
    lines = tmp_path / "works.jsonl"
    work = (FIX / "openalex_work.json").read_text(encoding="utf-8").replace("\n", " ")
    lines.write_text(work + "\n" + work.replace("W3000000002", "W3000000003").replace("10.1145/3000002.0002", "")
                     + "\n", encoding="utf-8")
    corpus = load_openalex(lines)
    assert [p.id for p in corpus.papers] == ["10.1145/3000002.0002", "W3000000003"]
    assert corpus.papers[1].source == f"{lines}:2"


def test_openalex_inverted_index_positions_are_ordered_and_checked():
    assert rebuild_abstract({"b": [1], "a": [0, 2]}) == "a b a"
    assert rebuild_abstract(None) == ""
    corpus_skip = pytest.raises(Exception)
    with corpus_skip:
        rebuild_abstract({"a": "0"})


def test_truncated_openalex_page_keeps_complete_works():
    corpus = load_openalex(FIX / "openalex_truncated.json")
    assert [p.id for p in corpus.papers] == ["10.1145/3000001.0001"]
    [(line, reason)] = _skips(corpus)
    assert line == 23
    assert reason.startswith("unparsable: invalid JSON") and "truncated" in reason and "record 2" in reason


def test_semantic_scholar_references_resolve_by_best_id():
    path = FIX / "s2_papers.jsonl"
    corpus = load_semantic_scholar(path)
    papers = _by_id(corpus)
    assert list(papers) == ["arXiv:2105.01234", "ffffffffffffffffffffffffffffffffffffffff"]
    topic = papers["arXiv:2105.01234"]
    assert topic.references == ("10.1145/3000001.0001", "10.1145/3000002.0002")  # untitled ref has no id
    assert topic.ids["s2"] == "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3" and topic.ids["s2_corpus"] == "333"
    assert topic.venue == "ECIR" and topic.year == 2021 and topic.authors == ("John Smith",)
    assert topic.extra["fields_of_study"] == ["Computer Science"]
    assert papers["ffffffffffffffffffffffffffffffffffffffff"].references == (
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3", "10.1145/3000004.0004")
    assert [s[0] for s in _skips(corpus)] == [2, 3]
    assert _skips(corpus)[0][1] == "empty: no abstract"
    assert _skips(corpus)[1][1].startswith("unparsable: invalid JSON (Unterminated string")


def test_semantic_scholar_data_page(tmp_path):
    page = tmp_path / "search.json"
    page.write_text('{"total": 1, "offset": 0, "data": [\n {"paperId": "' + "9" * 40 + '", "title": "T",'
                    ' "abstract": "An abstract.", "externalIds": {"DOI": "10.5555/xyz"}}\n]}', encoding="utf-8")
    assert detect_format(str(page)) == "s2"
    corpus = load_semantic_scholar(page)
    assert [(p.id, p.source) for p in corpus.papers] == [("10.5555/xyz", f"{page}:2")]


def test_arxiv_snapshot_years_authors_and_truncation():
    path = FIX / "arxiv_snapshot.jsonl"
    corpus = load_arxiv(path)
    gnn, strings = corpus.papers
    assert gnn.id == "10.1145/3000001.0001" and gnn.ids["arxiv"] == "2001.00001"
    assert gnn.title == "Graph Neural Networks for Citation Recommendation"
    assert gnn.authors == ("Anna Müller", "John Smith")  # TeX accent decoded
    assert gnn.year == 2020 and gnn.extra["categories"] == ["cs.IR", "cs.LG"]
    assert (strings.id, strings.year) == ("arXiv:hep-th/9901001", 1999)
    [(line, reason)] = _skips(corpus)
    assert line == 3 and "may be truncated" in reason


def test_bibtex_fields_latex_and_broken_entries():
    path = FIX / "sample.bib"
    corpus = load_bibtex(path)
    papers = _by_id(corpus)
    assert list(papers) == ["10.1145/3000002.0002", "garcia2019caf", "arXiv:2203.04567"]
    kdd = papers["10.1145/3000002.0002"]
    assert kdd.authors == ("Wei Zhang", "Anna Müller")
    assert kdd.venue == "Proceedings of the 27th ACM SIGKDD Conference" and kdd.year == 2021
    assert kdd.keyphrases == ("contrastive learning", "sentence embeddings", "dense retrieval")
    assert kdd.abstract.startswith("Contrastive learning gives sentence embeddings for dense retrieval, and we")
    assert kdd.ids["bibtex"] == "zhang2021contrastive" and kdd.source == f"{path}:4"
    cafe = papers["garcia2019caf"]
    assert cafe.title == "Café Recommendation with Bayesian Networks"
    assert cafe.authors == ("José García", "Pieter van der Berg")
    assert papers["arXiv:2203.04567"].ids["arxiv"] == "2203.04567"
    skips = _skips(corpus)
    assert [line for line, _ in skips] == [25, 29, 35]
    assert skips[0][1].startswith("unparsable: Unexpected block start")
    assert skips[1][1] == "empty: no abstract"
    assert skips[2][1] == "duplicate: entry key 'garcia2019caf' already used at line 17"


def test_bibtex_truncated_file(tmp_path):
    cut = tmp_path / "cut.bib"
    text = (FIX / "sample.bib").read_text(encoding="utf-8")
    cut.write_text(text[: text.index("We measure scaling")], encoding="utf-8")
    corpus = load_bibtex(cut)
    assert len(corpus.papers) == 2
    assert corpus.skipped[-1].location == 40
    assert "may be truncated" in corpus.skipped[-1].reason


def test_ris_records_line_endings_and_missing_end_tag():
    path = FIX / "sample.ris"  # CRLF, LF and bare CR records in one file
    corpus = load_ris(path)
    kg_rec, kp = corpus.papers
    assert kg_rec.id == "10.1007/s10791-022-0001"
    assert kg_rec.authors == ("Maria Rossi", "John Smith") and kg_rec.year == 2022
    assert kg_rec.venue == "Information Retrieval Journal"
    assert kg_rec.abstract.endswith("researchers from their reading histories.")
    assert kg_rec.keyphrases == ("knowledge graph embeddings", "scholarly recommendation")
    assert (kp.id, kp.year, kp.venue, kp.source) == ("arXiv:1801.04470", 2018, "Proceedings of CoNLL 2018",
                                                     f"{path}:14")
    assert _skips(corpus) == [
        (23, "empty: no abstract"),
        (28, "unparsable: the file ends inside this record (no 'ER  -' end tag), so it may be truncated"),
    ]


def test_ris_text_outside_records_is_reported(tmp_path):
    path = tmp_path / "odd.ris"
    path.write_text("Some preamble line\nTY - JOUR\nTI - One space tags\nAB - Still read.\nER -\n", encoding="utf-8")
    corpus = load_ris(path)
    assert [p.title for p in corpus.papers] == ["One space tags"]
    assert _skips(corpus) == [(1, "unparsable: text outside a 'TY  -' … 'ER  -' record (is this a RIS file?)")]


def test_scopus_csv_is_recognised():
    path = FIX / "scopus.csv"
    corpus = load_csv(path)
    papers = _by_id(corpus)
    assert list(papers) == ["10.1007/s11192-022-0002", "2-s2.0-85000000004"]
    intent = papers["10.1007/s11192-022-0002"]
    assert intent.authors == ("Hiro Tanaka", "John Smith")
    assert intent.abstract.endswith("annotated citation contexts.")  # © line dropped
    assert intent.venue == "Scientometrics" and intent.keyphrases == ("citation intent", "language models")
    assert len(intent.references) == 2 and "10.1145/3000001.0001" in intent.references[0]
    assert intent.ids["scopus"] == "2-s2.0-85000000002"
    assert papers["2-s2.0-85000000004"].title == 'Measuring Interdisciplinarity, with "Quotes" and, Commas'
    assert _skips(corpus) == [(3, "empty: no abstract")]  # "[No abstract available]"
    assert papers["2-s2.0-85000000004"].source == f"{path}:4"


def test_web_of_science_tab_delimited():
    path = FIX / "wos_savedrecs.txt"
    assert detect_format(str(path)) == "wos"
    corpus = load_wos(path)
    [paper] = corpus.papers
    assert paper.id == "10.1371/journal.pone.0000005"
    assert paper.title == 'Citation Networks of "Open Science" Papers'  # unescaped quotes kept
    assert paper.authors == ("Chidi Okafor", "John Smith")
    assert (paper.year, paper.venue, paper.ids["wos"]) == (2021, "PLOS ONE", "WOS:000000000000005")
    assert paper.references[0] == "Zhang W, 2021, KDD, DOI 10.1145/3000002.0002"
    assert _skips(corpus) == [(3, "empty: no abstract")]


def test_web_of_science_plain_text():
    path = FIX / "wos_plain.txt"
    assert detect_format(str(path)) == "wos"
    corpus = load_wos(path)
    [paper] = corpus.papers
    table = load_wos(FIX / "wos_savedrecs.txt").papers[0]
    for field in ("id", "title", "abstract", "authors", "year", "venue", "keyphrases", "references", "ids"):
        assert getattr(paper, field) == getattr(table, field), field  # same record, both export forms
    assert paper.source == f"{path}:3"
    assert _skips(corpus) == [
        (21, "empty: no abstract"),
        (28, "unparsable: the file ends inside this record (no 'ER' end line), so it may be truncated"),
    ]


def test_csv_map_overrides_columns():
    corpus = load_csv(FIX / "custom.csv", mapping={"title": "Paper Title", "abstract": "summary",
                                                    "year": "Published", "keyphrases": "Tags"})
    [paper] = corpus.papers
    assert paper.title == "Mapping Columns of Any Spreadsheet" and paper.year == 2024
    assert paper.keyphrases == ("mapping", "csv")
    assert _skips(corpus) == [(3, "empty: no abstract")]


@pytest.mark.parametrize("mapping, message", [
    ({"abstrct": "Summary"}, "unknown field 'abstrct'"),
    ({"abstract": "Nope"}, "no column 'Nope'"),
    ({}, "no 'abstract' column"),
])
def test_csv_map_errors_name_the_problem(mapping, message):
    from kg.errors import InputError

    with pytest.raises(InputError, match=message):
        load_csv(FIX / "custom.csv", mapping=mapping)


def test_jsonl_reads_json_arrays(tmp_path):
    path = tmp_path / "papers.json"
    path.write_text('[\n {"id": "a", "abstract": "First."},\n 3,\n {"id": "b", "abstract": "Second."}\n]\n',
                    encoding="utf-8")
    corpus = load_jsonl(path)
    assert [(p.id, p.source) for p in corpus.papers] == [("a", f"{path}:2"), ("b", f"{path}:4")]
    assert _skips(corpus) == [(3, "unparsable: expected a JSON object, got int")]


@pytest.mark.parametrize("name, expected", [
    ("openalex_page.json", "openalex"), ("openalex_work.json", "openalex"), ("s2_papers.jsonl", "s2"),
    ("arxiv_snapshot.jsonl", "arxiv"), ("sample.bib", "bibtex"), ("sample.ris", "ris"),
    ("scopus.csv", "csv"), ("wos_savedrecs.txt", "wos"), ("wos_plain.txt", "wos"), ("custom.csv", "csv"),
])
def test_detect_format(name, expected):
    assert detect_format(str(FIX / name)) == expected


def test_detect_format_by_content_without_extension(tmp_path):
    for name, fmt in [("sample.bib", "bibtex"), ("sample.ris", "ris"), ("openalex_work.json", "openalex"),
                      ("s2_papers.jsonl", "s2")]:
        bare = tmp_path / name.split(".")[0]
        bare.write_bytes((FIX / name).read_bytes())
        assert detect_format(str(bare)) == fmt, name
    plain = tmp_path / "kg.jsonl"
    plain.write_text('{"id": "x", "abstract": "A."}\n', encoding="utf-8")
    assert detect_format(str(plain)) == "jsonl"
