"""Ingest speed and round-trip fidelity on real records: ACM-CR written out as every export format.

Writes ``shared/data/acm_cr/papers.jsonl`` (24,614 ACM DL records, 772 in-set citations)
as BibTeX, RIS, Scopus CSV, OpenAlex JSONL and Semantic Scholar JSONL into a
temporary folder, reads each back with kg's reader, and prints per format: papers
read, skips, records/s, the ratio to kg's own JSONL reader measured in the same run,
how many DOIs, titles, first authors and years survived, and the resolved citations.

    .venv/bin/python bench/bench_ingest.py [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.graph import cited_pairs  # noqa: E402
from kg.ingest import READERS  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"


def _bib_escape(text: str) -> str:
    return (text or "").replace("{", "").replace("}", "").replace("\\", "")


def write_bibtex(records, path):
    with open(path, "w", encoding="utf-8") as out:
        for i, r in enumerate(records):
            out.write(f"@inproceedings{{key{i},\n  title = {{{_bib_escape(r.get('title'))}}},\n")
            out.write(f"  author = {{{' and '.join(_bib_escape(a) for a in r.get('authors') or [])}}},\n")
            out.write(f"  year = {{{r.get('year') or ''}}},\n  series = {{{_bib_escape(r.get('venue'))}}},\n")
            out.write(f"  doi = {{{r['id']}}},\n  keywords = {{{', '.join(map(_bib_escape, r.get('keyphrases') or []))}}},\n")
            out.write(f"  abstract = {{{_bib_escape(r.get('abstract'))}}}\n}}\n\n")


def write_ris(records, path):
    with open(path, "w", encoding="utf-8", newline="") as out:
        for r in records:
            out.write("TY  - CONF\r\n")
            out.write(f"TI  - {r.get('title') or ''}\r\n")
            for a in r.get("authors") or []:
                out.write(f"AU  - {a}\r\n")
            out.write(f"PY  - {r.get('year') or ''}\r\nT2  - {r.get('venue') or ''}\r\nDO  - {r['id']}\r\n")
            for k in r.get("keyphrases") or []:
                out.write(f"KW  - {k}\r\n")
            out.write(f"AB  - {(r.get('abstract') or '')}\r\nER  - \r\n\r\n")


def write_scopus(records, path):
    with open(path, "w", encoding="utf-8-sig", newline="") as out:
        w = csv.writer(out)
        w.writerow(["Authors", "Author full names", "Title", "Year", "Source title", "DOI", "Abstract",
                    "Author Keywords", "References", "EID"])
        for i, r in enumerate(records):
            w.writerow(["; ".join(r.get("authors") or []), "; ".join(r.get("authors") or []), r.get("title") or "",
                        r.get("year") or "", r.get("venue") or "", r["id"],
                        r.get("abstract") or "[No abstract available]", "; ".join(r.get("keyphrases") or []),
                        "; ".join(f"Someone, Title, DOI {d}" for d in r.get("references") or []), f"2-s2.0-{i}"])


def write_openalex(records, path):
    with open(path, "w", encoding="utf-8") as out:
        for i, r in enumerate(records):
            index: dict[str, list[int]] = {}
            for pos, word in enumerate((r.get("abstract") or "").split()):
                index.setdefault(word, []).append(pos)
            work = {"id": f"https://openalex.org/W{10**9 + i}", "doi": f"https://doi.org/{r['id']}",
                    "title": r.get("title"), "publication_year": r.get("year"),
                    "authorships": [{"author": {"display_name": a}} for a in r.get("authors") or []],
                    "primary_location": {"source": {"display_name": r.get("venue")}},
                    "abstract_inverted_index": index or None,
                    "referenced_works": [], "keywords": [{"display_name": k} for k in r.get("keyphrases") or []]}
            work["referenced_works"] = r.get("references") or []  # DOIs: resolved like any reference
            out.write(json.dumps(work) + "\n")


def write_s2(records, path):
    with open(path, "w", encoding="utf-8") as out:
        for i, r in enumerate(records):
            out.write(json.dumps({"paperId": f"{i:040x}", "externalIds": {"DOI": r["id"]}, "title": r.get("title"),
                                  "abstract": r.get("abstract"), "year": r.get("year"), "venue": r.get("venue"),
                                  "authors": [{"name": a} for a in r.get("authors") or []],
                                  "references": [{"externalIds": {"DOI": d}} for d in r.get("references") or []]})
                      + "\n")


WRITERS = {"bibtex": (write_bibtex, ".bib"), "ris": (write_ris, ".ris"), "scopus": (write_scopus, ".csv"),
           "openalex": (write_openalex, ".jsonl"), "s2": (write_s2, ".jsonl")}


def _timed(fmt, path):
    start = time.perf_counter()
    corpus = READERS[fmt](str(path))
    return corpus, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N records")
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is not present")
    lines = DATA.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in (lines[: args.limit] if args.limit else lines)]
    truth = {r["id"].lower(): r for r in records if r.get("abstract")}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "papers.jsonl"
        base.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
        baseline, base_s = _timed("jsonl", base)
        print(f"{len(records)} records, {len(truth)} with an abstract; "
              f"jsonl baseline {len(baseline.papers) / base_s:,.0f} records/s")
        print(f"{'format':9} {'read':>6} {'skip':>5} {'rec/s':>8} {'x jsonl':>7} {'doi':>6} {'title':>6} "
              f"{'author':>6} {'year':>6} {'cites':>6} {'unres':>6}")
        for fmt, (write, ext) in [("jsonl", (None, ".jsonl")), *WRITERS.items()]:
            path = base if write is None else Path(tmp) / f"papers{ext}"
            if write is not None:
                write(records, path)
            corpus, secs = (baseline, base_s) if write is None else _timed(fmt, path)
            ok = {"doi": 0, "title": 0, "author": 0, "year": 0}
            for p in corpus.papers:
                r = truth.get(p.ids.get("doi", p.id).lower())
                if r is None:
                    continue
                ok["doi"] += 1
                ok["title"] += p.title == " ".join((r.get("title") or "").split())
                ok["author"] += bool(r.get("authors")) and bool(p.authors) and \
                    p.authors[0].split()[-1] in r["authors"][0]
                ok["year"] += p.year == r.get("year")
            pairs, unresolved = cited_pairs(corpus.papers)
            rate = len(corpus.papers) / secs
            print(f"{fmt:9} {len(corpus.papers):6} {len(corpus.skipped):5} {rate:8,.0f} "
                  f"{rate / (len(baseline.papers) / base_s):7.2f} {ok['doi']:6} {ok['title']:6} {ok['author']:6} "
                  f"{ok['year']:6} {len(pairs):6} {unresolved:6}")


if __name__ == "__main__":
    main()
