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
    assert "(--strict; 3 record(s) skipped in all)" in result.output


@pytest.mark.parametrize("args, message", [
    (["--map", "abstract"], "Error: --map 'abstract': expected FIELD=COLUMN, e.g. --map abstract=Summary"),
    (["--map", "summary=Summary"], "unknown field 'summary'"),
    (["--format", "endnote"], "Error: unknown format 'endnote'; choose auto or one of"),
])
def test_cli_option_errors(tmp_path, args, message):
    result = _build(tmp_path, FIX / "custom.csv", *args)
    assert result.exit_code == 1 and message in result.output, result.output
