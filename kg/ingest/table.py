"""CSV (and tab-separated) corpora with a header row naming kg's fields.

List fields (``authors``, ``keyphrases``, ``references``) are ``;``-separated.
Header names are matched case-insensitively; ``mapping`` renames columns
(``{"abstract": "AB"}`` reads the abstract from column ``AB``).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping

from kg.errors import InputError
from kg.ingest._io import read_text
from kg.ingest._records import RecordSkipped, paper_from_record
from kg.models import Corpus, Skip

__all__ = ["load_csv"]

csv.field_size_limit(64 * 1024 * 1024)


def load_csv(
    path: str | os.PathLike[str],
    *,
    delimiter: str | None = None,
    mapping: Mapping[str, str] | None = None,
) -> Corpus:
    """Read a delimited corpus file into a :class:`~kg.models.Corpus`.

    Parameters
    ----------
    path : path
        The file.
    delimiter : str, optional
        Field separator; by default a tab for ``.tsv``/``.txt`` files whose header
        has tabs, else a comma.
    mapping : dict, optional
        kg field name -> column name in this file.
    """
    name = os.fspath(path)
    text = read_text(name)
    header_line = text.split("\n", 1)[0]
    if delimiter is None:
        delimiter = "\t" if "\t" in header_line else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise InputError("empty file: expected a header row", path=name) from None
    columns = {col.strip().lower(): index for index, col in enumerate(header)}
    wanted = {field: field for field in ("id", "title", "abstract", "authors", "year", "venue",
                                         "keyphrases", "references", "doi", "arxiv_id")}
    wanted.update({k: v.lower() for k, v in (mapping or {}).items()})
    index = {field: columns[col] for field, col in wanted.items() if col in columns}
    if "abstract" not in index:
        raise InputError(
            f"no 'abstract' column in header {header[:8]}; name it 'abstract' or pass "
            "--map abstract=COLUMN",
            path=name,
            line=1,
        )
    corpus = Corpus()
    for row in reader:
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(header) and len(row) <= index["abstract"]:
            corpus.skipped.append(Skip(name, number, f"unparsable: {len(row)} fields, header has {len(header)}"))
            continue
        record = {field: row[i] for field, i in index.items() if i < len(row)}
        try:
            corpus.papers.append(paper_from_record(record, source=f"{name}:{number}"))
        except RecordSkipped as exc:
            corpus.skipped.append(Skip(name, number, str(exc)))
    return corpus
