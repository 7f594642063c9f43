"""Broken input gets located, one-line messages: encodings, truncation, huge fields, line endings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import InputError
from kg.ingest import READERS, load_corpus, load_jsonl, load_ris, load_wos
from kg.ingest._records import MAX_FIELD_CHARS

FIX = Path(__file__).parent / "fixtures" / "ingest"
runner = CliRunner()


def test_non_utf8_bibtex_names_line_and_byte():
    with pytest.raises(InputError) as info:
        load_corpus([FIX / "latin1.bib"])
    assert str(info.value) == (f"{FIX / 'latin1.bib'}:2: not UTF-8 (byte 0xe9 at offset 30); "
                               "re-save the file as UTF-8")


def test_utf16_web_of_science_export_is_read(tmp_path):
    path = tmp_path / "savedrecs.txt"
    path.write_bytes((FIX / "wos_savedrecs.txt").read_text(encoding="utf-8").encode("utf-16"))
    corpus = load_corpus([path])
    assert [p.id for p in corpus.papers] == ["10.1371/journal.pone.0000005"]
    assert load_wos(path).papers[0].authors == ("Chidi Okafor", "John Smith")


def test_huge_field_is_a_located_skip(tmp_path):
    path = tmp_path / "big.jsonl"
    big = "word " * (MAX_FIELD_CHARS // 5 + 10)
    path.write_text(json.dumps({"id": "ok", "abstract": "Fine."}) + "\n"
                    + json.dumps({"id": "big", "abstract": big}) + "\n", encoding="utf-8")
    corpus = load_jsonl(path)
    assert [p.id for p in corpus.papers] == ["ok"]
    [skip] = corpus.skipped
    assert skip.location == 2
    assert skip.reason == (f"unparsable: abstract is {len(big):,} characters (limit {MAX_FIELD_CHARS:,}); "
                           "is it a full text or a broken export?")


def test_mixed_line_endings_keep_line_numbers(tmp_path):
    path = tmp_path / "mixed.jsonl"
    lines = [json.dumps({"id": f"p{i}", "abstract": f"Abstract {i}."}) for i in range(4)]
    path.write_bytes((lines[0] + "\r\n" + lines[1] + "\n" + lines[2] + "\r" + "{broken\r\n" + lines[3]).encode())
    corpus = load_jsonl(path)
    assert [(p.id, p.source.rsplit(":", 1)[1]) for p in corpus.papers] == [
        ("p0", "1"), ("p1", "2"), ("p2", "3"), ("p3", "5")]
    assert [s.location for s in corpus.skipped] == [4]


def test_ris_with_mixed_line_endings_fixture():
    assert len(load_ris(FIX / "sample.ris").papers) == 2  # CRLF, LF and CR in one file


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_empty_file_never_crashes(tmp_path, fmt):
    path = tmp_path / "empty"
    path.write_bytes(b"")
    try:
        corpus = READERS[fmt](str(path))
    except InputError as exc:
        assert str(exc).startswith(str(path))
    else:
        assert corpus.papers == []
    with pytest.raises(InputError):
        load_corpus([path], format=fmt)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        load_corpus([tmp_path], format="bibtex")
    with pytest.raises(InputError, match="no such file"):
        load_corpus([tmp_path / "nope.bib"])


def test_unclosed_csv_quote_is_read_or_reported(tmp_path):
    path = tmp_path / "cut.csv"
    path.write_text('id,abstract\na,"Complete abstract."\nb,"An abstract that never clo', encoding="utf-8")
    corpus = load_corpus([path])
    assert [p.id for p in corpus.papers][0] == "a"
    assert len(corpus.papers) + len(corpus.skipped) == 2


# --- the CLI turns all of it into one line and exit code 1 (before any model is loaded) -----


def _build(tmp_path, *args):
    return runner.invoke(app, ["build", *map(str, args), "--out", str(tmp_path / "out"), "--no-html"])


def test_cli_non_utf8(tmp_path):
    result = _build(tmp_path, FIX / "latin1.bib")
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: {FIX / 'latin1.bib'}:2: not UTF-8 (byte 0xe9 at offset 30); "
                                     "re-save the file as UTF-8")


def test_cli_strict_bibtex(tmp_path):
    result = _build(tmp_path, FIX / "sample.bib", "--strict")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith(f"Error: {FIX / 'sample.bib'}:25: unparsable: Unexpected block start")
    assert "(strict: stopped at the first of 3 record(s) skipped in all)" in result.output


@pytest.mark.parametrize("args, message", [
    (["--map", "abstract"], "Error: --map 'abstract': expected FIELD=COLUMN, e.g. --map abstract=Summary"),
    (["--map", "summary=Summary"], "unknown field 'summary'"),
    (["--format", "endnote"], "Error: --format: unknown format 'endnote'; choose auto or one of"),
])
def test_cli_option_errors(tmp_path, args, message):
    result = _build(tmp_path, FIX / "custom.csv", *args)
    assert result.exit_code == 1 and message in result.output, result.output


CSV_ROWS = [f'{i},Title {i},"Abstract {i} about graphs, with a comma."' for i in range(1, 6)]


@pytest.mark.parametrize("broken", [
    '2,"Unclosed title,Graph neural networks on citation graphs.',   # a later quote stops it
    '2,Title 2,"Unclosed abstract about graphs',                      # ... and so does the end of the file
])
@pytest.mark.parametrize("last", [True, False])
def test_csv_unclosed_quote_costs_only_its_record(tmp_path, broken, last):
    rows = CSV_ROWS[:1] + [broken] + CSV_ROWS[2:]
    if last:
        rows = [r.replace('"', "") if r is not broken else r for r in rows]  # no quote after the broken one
    path = tmp_path / "c.csv"
    path.write_text("id,title,abstract\n" + "\n".join(rows) + "\n", encoding="utf-8")
    corpus = load_corpus([path])
    assert [p.id for p in corpus.papers] == ["1", "3", "4", "5"]
    assert [(s.location, s.reason.split(":")[0]) for s in corpus.skipped] == [(3, "unparsable")]
    assert "quoted field opened on this line is not closed" in corpus.skipped[0].reason


def test_csv_quoted_fields_over_several_lines_still_read(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text('id,title,abstract\n1,"Two\nline title","An abstract,\nover ""two"" lines."\n'
                    '2,T,"Second abstract."\n', encoding="utf-8")
    corpus = load_corpus([path])
    assert [p.id for p in corpus.papers] == ["1", "2"] and not corpus.skipped
    assert corpus.papers[0].abstract == 'An abstract, over "two" lines.'


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("name, text", [
    ("c.txt", "ICLR 2024 Papers\n\nFirst abstract about graph neural networks.\n\nSecond abstract on rankers.\n"),
    ("c.csv", "id,title,abstract\n1,Graphs,First abstract about graphs.\n2,Ranks,Second abstract.\n"),
    ("c.jsonl", '{"id": "1", "abstract": "First abstract about graphs."}\n{"id": "2", "abstract": "Second."}\n'),
])
def test_utf16_without_bom_is_decoded(tmp_path, encoding, name, text):
    plain, wide = tmp_path / "plain" / name, tmp_path / "wide" / name
    plain.parent.mkdir()
    wide.parent.mkdir()
    plain.write_text(text, encoding="utf-8")
    wide.write_bytes(text.encode(encoding))
    expected, corpus = load_corpus([plain]), load_corpus([wide])
    assert [(p.id, p.title, p.abstract, p.venue) for p in corpus.papers] == \
        [(p.id, p.title, p.abstract, p.venue) for p in expected.papers]
    assert len(corpus.papers) == 2 and not any("\x00" in p.abstract for p in corpus.papers)


def test_binary_file_is_a_located_error(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(b"First line of text.\n" + b"\x89PNG\x1a\x00\x00\x00\x0dIHDR\x00\x00\x01\x00" * 200)
    with pytest.raises(InputError, match=r"c.txt:2: binary data, not text \(NUL bytes from offset 25\)"):
        load_corpus([path])


def test_lone_surrogates_and_bidi_overrides_are_cleaned_and_counted(tmp_path, hash_embedder):
    from kg.pipeline import BuildOptions, build

    path = tmp_path / "c.jsonl"
    records = [{"id": "a", "title": "Graphs \ud800 \u202eevil", "abstract": "Graph neural \udfff networks.",
                "authors": ["Ada \ud83d Lovelace"], "venue": "KDD\u202e"},
               {"id": "b", "title": "Plain", "abstract": "Graph neural networks on citation graphs."}]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")  # \ud800 as JSON escapes
    corpus = load_corpus([path])
    assert corpus.repaired == 1
    first = corpus.papers[0]
    assert first.title == "Graphs \ufffd evil" and first.abstract == "Graph neural \ufffd networks."
    assert first.authors == ("Ada \ufffd Lovelace",) and first.venue == "KDD"
    result = build([path], tmp_path / "out", BuildOptions(), embedder=hash_embedder)
    assert len(result.files) >= 9
    for name in ("graph.json", "report.md", "report.html", "report.json", "papers.csv", "graph.html"):
        (tmp_path / "out" / name).read_text(encoding="utf-8")
