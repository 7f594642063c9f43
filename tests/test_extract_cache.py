"""The embedding cache: compact, float32 out, other applications' SQLite files refused untouched."""

from __future__ import annotations

import hashlib
import sqlite3

import numpy as np
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.extract.cache import CachedEmbedder, CacheError, check_cache

from conftest import HashEmbedder


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign(path, *statements):
    db = sqlite3.connect(path)
    with db:
        for statement in statements:
            db.execute(statement)
    db.close()
    return path


FOREIGN = {
    "other tables": ("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
                     "INSERT INTO users VALUES (1, 'ada')"),
    "own vectors table": ("CREATE TABLE vectors (id INTEGER PRIMARY KEY, embedding BLOB, label TEXT)",
                          "INSERT INTO vectors VALUES (1, x'00', 'x')"),
    "vectors and more": ("CREATE TABLE vectors (key TEXT PRIMARY KEY, vec BLOB)",
                         "CREATE TABLE notes (t TEXT)"),
    "same schema, other rows": ("CREATE TABLE vectors (key TEXT PRIMARY KEY, vec BLOB)",
                                "INSERT INTO vectors VALUES ('user-1', x'010203')"),
    "foreign kg_meta": ("CREATE TABLE kg_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
                        "CREATE TABLE kg_vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID",
                        "INSERT INTO kg_meta VALUES ('format', 'someone-else')"),
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_another_applications_sqlite_file_is_refused_untouched(tmp_path, kind):
    path = _foreign(tmp_path / "app.db", *FOREIGN[kind])
    before = _digest(path)
    cache = CachedEmbedder(HashEmbedder(), path)
    with pytest.raises(CacheError, match=r"app.db is not a kg embedding cache \(.*\); it was left as it is"):
        cache.embed(["graph"])
    assert _digest(path) == before
    assert not list(tmp_path.glob("app.db-*"))  # no journal left behind


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n" * 100, encoding="utf-8")
    with pytest.raises(CacheError, match="cannot open the embedding cache"):
        check_cache(path)
    assert path.read_text(encoding="utf-8") == "my notes, not a database\n" * 100


def test_kg_build_refuses_a_foreign_cache_before_any_work(tmp_path):
    path = _foreign(tmp_path / "app.db", *FOREIGN["own vectors table"])
    before = _digest(path)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "a", "abstract": "Graph neural networks learn on graphs."}\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["build", str(corpus), "--out", str(tmp_path / "o"), "--cache", str(path)])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {path} is not a kg embedding cache (it holds the tables vectors)")
    assert len(result.output.strip().splitlines()) == 1
    assert _digest(path) == before


def test_a_cache_of_the_older_format_is_emptied_and_refilled(tmp_path):
    path = _foreign(tmp_path / "old.sqlite", "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)",
                    "INSERT INTO vectors VALUES ('" + "a" * 40 + "', x'0000803f')")
    embedder = HashEmbedder()
    cache = CachedEmbedder(embedder, path)
    first = cache.embed(["graph neural network"])
    assert cache.misses == 1 and first.dtype == np.float32
    cache.close()
    db = sqlite3.connect(path)
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    assert tables == {"kg_meta", "kg_vectors", "kg_memo"}
    again = CachedEmbedder(embedder, path)
    assert np.array_equal(again.embed(["graph neural network"]), first) and again.hits == 1


def test_the_cache_is_compact_and_a_hit_equals_the_miss_that_stored_it(tmp_path):
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((3000, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = [f"phrase number {i}" for i in range(len(vectors))]

    class Table:
        name = "table-384"

        def __init__(self):
            self.calls = 0

        def embed(self, batch):
            self.calls += 1
            return vectors[[int(t.rsplit(" ", 1)[1]) for t in batch]]

    path = tmp_path / "c.sqlite"
    model = Table()
    cache = CachedEmbedder(model, path)
    stored = np.vstack([cache.embed(texts[i:i + 500]) for i in range(0, len(texts), 500)])
    cache.close()
    assert stored.dtype == np.float32
    assert np.abs(stored - vectors).max() < 1e-3  # float16 on disk
    assert path.stat().st_size / len(texts) < 1000  # was about 2,100 bytes per vector (float32, hex keys)
    again = CachedEmbedder(model, path)
    calls = model.calls
    assert np.array_equal(again.embed(texts), stored) and model.calls == calls and again.hits == len(texts)


def test_the_shortlist_digest_reads_every_kg_module_the_tagger_and_ranking_use():
    # a change to kg/notation.py alone (round forty-seven's groups of 2N) once left every cached shortlist as it was:
    # the digest read the tagger's module, not the notation it imports
    from kg.extract import candidates, local, multiword, ranking

    covered = {module.__name__ for module in local.SHORTLIST_CODE}
    used = {getattr(value, "__module__", None) or "" for module in (candidates, multiword, ranking, local)
            for value in vars(module).values() if callable(value)}
    needed = {name for name in used if name.startswith("kg.")} - {"kg.models", "kg.extract.embedder"}
    assert needed <= covered, needed - covered
