"""The read index of a build: its file, its tables, its version and its errors.

``kg build``, ``kg build --update`` and ``kg report`` write ``index.sqlite`` beside
``graph.json`` (which stays the interchange file), inside the staged folder, so the index
always describes the outputs next to it. It holds what the read paths need, in a form that
opens without parsing everything: every paper, concept and author with its attributes, the
edges a view or a lookup follows (``mentions``, ``related``, ``co_occurs``, ``cites``,
``wrote``), the analysis's communities and the community of every node, the weights between
communities, the concept rankings ``kg concepts`` lists, and a full-text table over titles,
ids, names and aliases. The vectors stay in ``paper_vectors.npy`` and ``concept_vectors.npy``,
memory-mapped by the reader; the index records which row belongs to which node.

Why SQLite: it is in Python's standard library (no new dependency), one file that a reader
opens in milliseconds and queries through B-tree indexes without loading it, FTS5 gives
word and prefix search, and any SQLite tool can inspect the file. DuckDB or Parquet would
add a dependency for column scans that the read paths never do.
"""

from __future__ import annotations

from kg.errors import GraphFileError

__all__ = ["INDEX_FILE", "INDEX_VERSION", "SCHEMA", "INDEXES", "EDGE_KINDS", "RANKED_CONCEPTS", "IndexMissingError",
           "IndexDamagedError", "index_hint"]

INDEX_FILE = "index.sqlite"
INDEX_VERSION = 1  # raised whenever a table changes; a reader refuses another version
EDGE_KINDS = ("mentions", "related", "co_occurs", "cites", "wrote")  # what the read paths follow
RANKED_CONCEPTS = 500  # concept rankings kept per list (kg concepts --top up to this reads the index)

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, attrs TEXT NOT NULL);  -- rowid: the graph's order
CREATE TABLE papers (id TEXT PRIMARY KEY, title TEXT NOT NULL, year INTEGER, community INTEGER,
                     central INTEGER, vector INTEGER) WITHOUT ROWID;
CREATE TABLE concepts (id TEXT PRIMARY KEY, label TEXT NOT NULL, papers INTEGER NOT NULL, community INTEGER,
                       vector INTEGER) WITHOUT ROWID;
CREATE TABLE authors (id TEXT PRIMARY KEY, papers INTEGER NOT NULL, community INTEGER) WITHOUT ROWID;
CREATE TABLE edges (source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL, weight REAL,
                    rank INTEGER, score REAL, count INTEGER, shared TEXT);
-- edges: rowid = the graph's order; rank, score: mentions; count: co_occurs; shared: related (JSON list)
CREATE TABLE communities (id INTEGER PRIMARY KEY, label TEXT NOT NULL, size INTEGER NOT NULL, row TEXT NOT NULL);
CREATE TABLE community_links (a INTEGER NOT NULL, b INTEGER NOT NULL, weight REAL NOT NULL, PRIMARY KEY (a, b));
CREATE TABLE concept_ranking (position INTEGER PRIMARY KEY, concept TEXT NOT NULL, co_occurs INTEGER NOT NULL,
                              pagerank REAL NOT NULL);
CREATE TABLE community_concepts (scoring TEXT NOT NULL, community INTEGER NOT NULL, position INTEGER NOT NULL,
                                 concept TEXT NOT NULL, name TEXT NOT NULL, score REAL NOT NULL,
                                 papers INTEGER NOT NULL, PRIMARY KEY (scoring, community, position));
CREATE VIRTUAL TABLE search_text USING fts5(text, content = '', tokenize = 'unicode61 remove_diacritics 2');
-- search_text: rowid = the node's rowid; contentless (the words are the node's own)
"""


INDEXES = """
CREATE INDEX papers_year ON papers (year);
CREATE INDEX papers_community ON papers (community, central);
CREATE INDEX edges_out ON edges (source, kind);
CREATE INDEX edges_in ON edges (target, kind);
"""  # made after the rows are in: faster than keeping them up to date row by row


class IndexMissingError(GraphFileError):
    """The build folder has no read index (a build by a kg older than the index)."""


class IndexDamagedError(GraphFileError):
    """The read index is unreadable, of another version, or out of step with the files beside it."""


def index_hint(folder: str) -> str:
    """The one line that says how to give an older build its index."""
    return f"{folder} has no {INDEX_FILE} (built by an older kg): answers come slowly; kg report {folder} writes it"
