"""Property tests: random and truncated input never crashes a reader, and no valid record is lost.

For every format, a list of valid records is written the way that format's exports
look, cut at a random offset, and read back. Every record wholly before the cut
must be read; every record the cut goes through must be read or reported; nothing
is read twice. Random text and bytes must give a corpus or a located InputError.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import InputError
from kg.ingest import READERS, detect_format, merge_corpora
from kg.models import Corpus, Paper

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéüßABCXYZ0123456789.,;:'\"()-", min_size=1, max_size=10)
_TEXT = st.lists(_WORD, min_size=1, max_size=12).map(" ".join).filter(lambda t: t.strip(" ,.;:") != "")
_RECORDS = st.lists(st.tuples(_TEXT, _TEXT), min_size=1, max_size=6)

_counter = itertools.count()


def _write(tmp_path_factory, text: str | bytes, suffix: str = "") -> str:
    path = tmp_path_factory.getbasetemp() / f"prop-{next(_counter)}{suffix}"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", newline="")
    else:
        path.write_bytes(text)
    return str(path)


# --- one serializer per format: (text, [(record id, start offset, end offset)]) -------------


def _joined(chunks: list[tuple[str, str]], head: str = "", sep: str = "", tail: str = ""):
    text, spans = head, []
    for i, (rid, chunk) in enumerate(chunks):
        if i:
            text += sep
        spans.append((rid, len(text), len(text) + len(chunk)))
        text += chunk
    return text + tail, spans


def _jsonl(records):
    return _joined([(f"r{i}", json.dumps({"id": f"r{i}", "title": t, "abstract": a}))
                    for i, (t, a) in enumerate(records)], sep="\n", tail="\n")


def _bibtex(records):
    esc = lambda s: s.replace("{", "(").replace("}", ")").replace("\\", "/").replace("@", "at")  # noqa: E731
    return _joined([(f"r{i}", f"@article{{r{i},\n  title = {{{esc(t)}}},\n  abstract = {{{esc(a)}}}\n}}")
                    for i, (t, a) in enumerate(records)], head="% export\n", sep="\n\n", tail="\n")


def _ris(records):
    return _joined([(f"r{i}", f"TY  - JOUR\nID  - r{i}\nTI  - {t}\nAB  - {a}\nER  -")
                    for i, (t, a) in enumerate(records)], sep=" \n\n", tail=" \n")


def _csv(records):
    chunks = []
    for i, (t, a) in enumerate(records):
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="").writerow([f"r{i}", t, a])
        chunks.append((f"r{i}", buffer.getvalue()))
    return _joined(chunks, head="id,title,abstract\n", sep="\r\n", tail="\r\n")


def _openalex(records):
    works = []
    for i, (t, a) in enumerate(records):
        index: dict[str, list[int]] = {}
        for pos, word in enumerate(a.split()):
            index.setdefault(word, []).append(pos)
        works.append((f"W{100000 + i}", json.dumps({"id": f"https://openalex.org/W{100000 + i}", "title": t,
                                                    "abstract_inverted_index": index}, indent=1)))
    return _joined(works, head='{"meta": {"count": %d},\n "results": [\n' % len(works), sep=",\n", tail="\n]}\n")


def _s2(records):
    return _joined([(f"{i:040x}", json.dumps({"paperId": f"{i:040x}", "title": t, "abstract": a}))
                    for i, (t, a) in enumerate(records)], sep="\n", tail="\n")


def _arxiv(records):
    return _joined([(f"arXiv:2001.{i:05d}", json.dumps({"id": f"2001.{i:05d}", "title": t, "abstract": a,
                                                         "versions": [], "categories": "cs.IR"}))
                    for i, (t, a) in enumerate(records)], sep="\n", tail="\n")


def _wos(records):
    return _joined([(f"WOS:{i}", f"PT J\nTI {t}\nAB {a[:20]}\n   {a[20:] or 'end'}\nUT WOS:{i}\nER")
                    for i, (t, a) in enumerate(records)], head="FN Clarivate Analytics Web of Science\nVR 1.0\n",
                   sep="\n\n", tail="\n\nEF\n")


FORMATS = {"wos": _wos, "jsonl": _jsonl, "bibtex": _bibtex, "ris": _ris, "csv": _csv, "openalex": _openalex, "s2": _s2,
           "arxiv": _arxiv}


def _check(corpus, path, spans, cut):
    read = [p.id for p in corpus.papers]
    assert len(read) == len(set(read)), "a record was read twice"
    assert all(s.source == path and isinstance(s.location, int) and s.location >= 1 for s in corpus.skipped)
    complete = {rid for rid, _, end in spans if end <= cut}
    started = [rid for rid, start, _ in spans if start < cut]
    assert complete <= set(read), f"complete records not read: {complete - set(read)}"
    assert set(read) <= set(started)
    assert len(read) + len(corpus.skipped) >= len(started), "a cut record was neither read nor reported"


def _make_property(fmt):
    @SETTINGS
    @given(records=_RECORDS, data=st.data())
    def prop(tmp_path_factory, records, data):
        text, spans = FORMATS[fmt](records)
        cut = data.draw(st.integers(min_value=0, max_value=len(text)), label="cut")
        path = _write(tmp_path_factory, text[:cut])
        try:
            corpus = READERS[fmt](path)
        except InputError as exc:  # only an empty or header-less file may fail as a whole
            assert str(exc).startswith(path)
            assert (fmt, cut) in {("csv", c) for c in range(len("id,title,abstract\n") + 1)} | {("wos", 0), ("wos", 1)}, \
                str(exc)
            return
        _check(corpus, path, spans, cut)
        if cut == len(text):
            assert len(corpus.papers) == len(records) and not corpus.skipped

    prop.__name__ = f"test_{fmt}_truncated_records_are_read_or_reported"
    return prop


for _fmt in FORMATS:
    globals()[f"test_{_fmt}_truncated_records_are_read_or_reported"] = _make_property(_fmt)


@SETTINGS
@given(fmt=st.sampled_from(sorted(READERS)), text=st.text(max_size=400))
def test_random_text_gives_corpus_or_located_error(tmp_path_factory, fmt, text):
    path = _write(tmp_path_factory, text)
    try:
        corpus = READERS[fmt](path)
    except InputError as exc:
        assert str(exc).startswith(path)
    else:
        assert all(s.location is None or s.location >= 1 for s in corpus.skipped)
        assert all(p.abstract for p in corpus.papers)


@SETTINGS
@given(fmt=st.sampled_from(sorted(READERS)), blob=st.binary(max_size=300))
def test_random_bytes_give_corpus_or_located_error(tmp_path_factory, fmt, blob):
    path = _write(tmp_path_factory, blob)
    try:
        corpus = READERS[fmt](path)
    except InputError as exc:
        assert str(exc).startswith(path)
        return
    assert isinstance(corpus, Corpus)
    for paper in corpus.papers:  # what was read is a paper: an id, an abstract, clean text, its origin
        assert paper.id and paper.abstract.strip() and paper.title
        assert paper.source.startswith(path)
        text = paper.id + paper.title + paper.abstract
        assert not any(0xD800 <= ord(ch) <= 0xDFFF or ch in _BIDI for ch in text), repr(text)
    for skip in corpus.skipped:  # what was not read says where and why
        assert skip.source == path and skip.reason and (skip.location is None or skip.location >= 1)


_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(
        st.sampled_from(["id", "title", "abstract", "authors", "year", "doi", "references", "ids", "extra",
                         "abstract_inverted_index", "authorships", "primary_location", "referenced_works",
                         "paperId", "externalIds", "venue", "versions", "authors_parsed", "categories",
                         "keyphrases", "publication_year", "topics", "source", "display_name", "author"]),
        inner, max_size=6)),
    max_leaves=25,
)


@SETTINGS
@given(fmt=st.sampled_from(["jsonl", "openalex", "s2", "arxiv"]), values=st.lists(_JSONISH, max_size=4))
def test_json_readers_survive_any_json_shape(tmp_path_factory, fmt, values):
    path = _write(tmp_path_factory, "\n".join(json.dumps(v) for v in values) + "\n")
    corpus = READERS[fmt](path)
    expected = len(values)
    if len(values) == 1 and isinstance(values[0], list):  # one line holding an array of records
        expected = len(values[0])
    elif len(values) == 1 and isinstance(values[0], dict):  # one line holding a page of records
        pages = [values[0][k] for k in ("results", "data") if isinstance(values[0].get(k), list)]
        expected = len(pages[0]) if pages else 1
    assert len(corpus.papers) + len(corpus.skipped) == expected


_FIXTURES = sorted(p for p in (Path(__file__).parent / "fixtures" / "ingest").iterdir() if p.name != "latin1.bib")


@SETTINGS
@given(fixture=st.sampled_from(_FIXTURES), data=st.data())
def test_truncated_fixture_exports_never_crash(tmp_path_factory, fixture, data):
    raw = fixture.read_bytes()
    cut = data.draw(st.integers(min_value=0, max_value=len(raw)), label="cut")
    path = _write(tmp_path_factory, raw[:cut], suffix=fixture.suffix)
    fmt = detect_format(str(fixture))
    try:
        corpus = READERS[fmt](path)
    except InputError as exc:  # a cut inside a UTF-8 sequence or the header row
        assert str(exc).startswith(path)
    else:
        assert all(isinstance(s.location, int) and s.location >= 1 for s in corpus.skipped)


_IDS = st.sampled_from(["a", "b", "c", "d"])
_PAPER = st.builds(
    lambda pid, doi, title, year: Paper(id=pid, abstract=f"abstract {pid}", title=title, year=year,
                                        ids={"doi": doi} if doi else {}),
    _IDS, st.sampled_from([None, "10.1000/x", "10.1000/y"]),
    st.sampled_from(["Graph Neural Networks for Search", "Graph neural networks for search!", "Short"]),
    st.sampled_from([None, 2020, 2021, 2030]),
)


@SETTINGS
@given(parts=st.lists(st.lists(_PAPER, max_size=5), max_size=4))
def test_merging_accounts_for_every_paper(parts):
    corpora = [Corpus([replace(p, source=f"f{i}:{j + 1}") for j, p in enumerate(papers)])
               for i, papers in enumerate(parts)]
    merged = merge_corpora(corpora)
    duplicates = sum(1 for s in merged.skipped if s.reason.startswith("duplicate:"))
    assert len(merged.papers) + merged.merged + duplicates == sum(len(p) for p in parts)
    assert len({p.id for p in merged.papers}) == len(merged.papers)
    assert all(s.location is not None for s in merged.skipped)
