"""An on-disk embedding cache that wraps any embedder.

Vectors are stored in one SQLite file, keyed by a 16-byte BLAKE2b digest of the
embedder's signature (model name, precision, long-text policy) and the exact text.
A rebuild of an unchanged corpus finds every text in the cache and never calls (or
loads) the model; an incremental build embeds only the texts it has not seen.

The file is compact: vectors as float16 (half of float32; cosines move by about
1e-4), keys as binary digests in a ``WITHOUT ROWID`` table with 64 KiB pages, about
0.9 KB per 384-dimensional vector. Vectors come back as float32, and a vector just
embedded comes back as it will be read later (rounded through float16), so a build
from the cache equals the build that filled it. A table ``kg_meta`` marks the file
as kg's; any other SQLite file is refused untouched, and a cache of an older kg
format is emptied and refilled.

Examples
--------
>>> import tempfile, os, numpy as np
>>> class Ones:
...     name = "ones"
...     def embed(self, texts):
...         return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)
>>> with tempfile.TemporaryDirectory() as tmp:
...     cached = CachedEmbedder(Ones(), os.path.join(tmp, "cache.sqlite"))
...     _ = cached.embed(["a", "b", "a"])
...     _ = cached.embed(["a", "c"])
...     cached.close()
...     cached.hits, cached.misses
(1, 3)
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence

import numpy as np

from kg.errors import KgError

__all__ = ["CachedEmbedder", "CacheError", "check_cache"]

_CHUNK = 500
_FORMAT = "kg-embedding-cache"
# 1: hex SHA-1 text keys, float32 vectors, table "vectors" (no kg_meta); 2: int8 vectors of
# texts embedded in batches, which depended on the batch (kg.extract.onnx_model)
_VERSION = "3"
_PAGE_SIZE = 65536
_OLD_SCHEMA = "CREATE TABLE vectors (key TEXT PRIMARY KEY, vec BLOB)"
_SCHEMA = ("CREATE TABLE kg_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
           "CREATE TABLE kg_vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID")
# Other per-text results worth keeping (each paper's shortlisted candidates), added to
# version 2 files as they are opened.
_MEMO = "CREATE TABLE IF NOT EXISTS kg_memo (key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"
_TABLES = ({"kg_meta", "kg_vectors"}, {"kg_meta", "kg_vectors", "kg_memo"})


class CacheError(KgError):
    """The embedding cache file cannot be opened or written."""


class CachedEmbedder:
    """Look texts up in an SQLite cache; embed and store only the missing ones.

    Parameters
    ----------
    embedder : Embedder
        The model behind the cache. Its ``signature`` (else ``name``) is part of every key.
    path : path
        The cache file, created with its folder on first write.

    Attributes
    ----------
    hits, misses : int
        Distinct texts found in / added to the cache since this object was made.
    """

    def __init__(self, embedder, path: str | os.PathLike[str]):
        self.embedder = embedder
        self.name = embedder.name
        self.path = os.fspath(path)
        self.hits = 0
        self.misses = 0
        self.damaged = 0  # rows whose bytes are not a vector of this embedder's length: embedded again
        self._dim: int | None = None
        self._db: sqlite3.Connection | None = None
        if hasattr(embedder, "approximate"):  # cheap stand-ins need no cache
            self.approximate = embedder.approximate

    @property
    def signature(self) -> str:
        return getattr(self.embedder, "signature", self.embedder.name)

    def _refuse(self, why: str) -> CacheError:
        return CacheError(f"{self.path} is not a kg embedding cache ({why}); it was left as it is: "
                          "give another cache path, or no cache")

    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        db = None
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            db = sqlite3.connect(self.path)
            tables = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                                     "AND name NOT LIKE 'sqlite_%'").fetchall())
            if tables and set(tables) not in _TABLES and tables != {"vectors": _OLD_SCHEMA}:
                raise self._refuse("it holds the tables " + ", ".join(sorted(tables)))
            meta = dict(db.execute("SELECT name, value FROM kg_meta").fetchall()) if "kg_meta" in tables else {}
            if "kg_meta" in tables and meta.get("format") != _FORMAT:
                raise self._refuse(f"its kg_meta format is {meta.get('format')!r}")
            if "vectors" in tables and db.execute(  # kg 1's rows: 40 hex digits -> float32 bytes
                    "SELECT count(*) FROM vectors WHERE typeof(key) != 'text' OR length(key) != 40 "
                    "OR typeof(vec) != 'blob' OR length(vec) % 4 != 0").fetchone()[0]:
                raise self._refuse("its table 'vectors' holds rows kg did not write")
            if meta.get("version") != _VERSION:  # empty, or an older kg cache: start afresh
                with db:
                    for name in tables:
                        db.execute(f'DROP TABLE "{name}"')
                db.execute(f"PRAGMA page_size = {_PAGE_SIZE}")
                if tables:
                    db.execute("VACUUM")  # gives the space back and applies the page size
                with db:
                    for statement in _SCHEMA:
                        db.execute(statement)
                    db.executemany("INSERT INTO kg_meta VALUES (?, ?)", [("format", _FORMAT), ("version", _VERSION)])
            with db:
                db.execute(_MEMO)
        except CacheError:
            if db is not None:
                db.close()
            raise
        except (OSError, sqlite3.Error) as exc:
            if db is not None:
                db.close()
            raise CacheError(f"cannot open the embedding cache {self.path}: {exc} "
                             "(give another cache path, or no cache)") from None
        self._db = db
        return db

    def _key(self, text: str) -> bytes:
        data = f"{self.signature}\x00{text}".encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, digest_size=16).digest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        found, missing = self.lookup_vectors(texts)
        if missing:
            found.update(self.store_vectors(missing, self.embedder.embed(missing)))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([found[t] for t in texts]).astype(np.float32)

    def lookup_vectors(self, texts: Sequence[str]) -> tuple[dict[str, np.ndarray], list[str]]:
        """The vectors the cache holds for ``texts`` (float16, by text), and the distinct texts
        it lacks, in first-seen order; counted in :attr:`hits` and :attr:`misses`.

        :meth:`embed` is this, the model on the missing texts, and :meth:`store_vectors`;
        a caller that runs the model elsewhere (kg.extract.ray_engine) does the same.
        """
        db = self._connect()
        unique = list(dict.fromkeys(texts))
        keys = {text: self._key(text) for text in unique}
        found: dict[str, np.ndarray] = {}
        by_key = {k: t for t, k in keys.items()}
        key_list = sorted(by_key)  # in key order: neighbouring rows share pages
        try:
            for start in range(0, len(key_list), _CHUNK):
                part = key_list[start : start + _CHUNK]
                marks = ",".join("?" * len(part))
                for key, blob in db.execute(f"SELECT key, vec FROM kg_vectors WHERE key IN ({marks})", part):
                    if isinstance(blob, bytes) and blob and len(blob) % 2 == 0:
                        found[by_key[key]] = np.frombuffer(blob, dtype=np.float16)
                    else:
                        self.damaged += 1
            dim = self._dimension(db, found)
        except sqlite3.Error as exc:
            raise CacheError(f"cannot read the embedding cache {self.path}: {exc}") from None
        for text in [t for t, v in found.items() if v.shape[0] != dim or not np.isfinite(v).all()]:
            del found[text]  # damaged: embedded again, and the row rewritten
            self.damaged += 1
        missing = [t for t in unique if t not in found]
        self.hits += len(unique) - len(missing)
        self.misses += len(missing)
        return found, missing

    def _dimension(self, db: sqlite3.Connection, found: dict[str, np.ndarray]) -> int | None:
        """The length of this embedder's vectors: as recorded when they were stored, else the most
        common length among ``found`` (a cache written before lengths were recorded)."""
        if self._dim is None:
            row = db.execute("SELECT value FROM kg_meta WHERE name = ?", (f"dim\x00{self.signature}",)).fetchone()
            if row is not None and str(row[0]).isdigit():
                self._dim = int(row[0])
        if self._dim is not None or not found:
            return self._dim
        lengths = [v.shape[0] for v in found.values()]
        return max(set(lengths), key=lambda n: (lengths.count(n), n))

    def store_vectors(self, texts: Sequence[str], vectors: np.ndarray) -> dict[str, np.ndarray]:
        """Keep the model's ``vectors`` of distinct ``texts``; returns them by text as they will
        be read later (float16), so a build from the cache equals the build that filled it."""
        db = self._connect()
        vectors = np.asarray(vectors, dtype=np.float32).astype(np.float16)
        try:
            if vectors.ndim == 2 and self._dim != vectors.shape[1] and len(vectors):
                self._dim = int(vectors.shape[1])
                with db:
                    db.execute("INSERT OR REPLACE INTO kg_meta VALUES (?, ?)",
                               (f"dim\x00{self.signature}", str(self._dim)))
            with db:
                db.executemany("INSERT OR REPLACE INTO kg_vectors VALUES (?, ?)",
                               sorted((self._key(t), v.tobytes()) for t, v in zip(texts, vectors)))
        except sqlite3.Error as exc:
            raise CacheError(f"cannot write the embedding cache {self.path}: {exc}") from None
        return dict(zip(texts, vectors))

    def _memo_key(self, namespace: str, text: str) -> bytes:
        data = f"{namespace}\x00{self.signature}\x00{text}".encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, digest_size=16).digest()

    def lookup(self, namespace: str, texts: Sequence[str]) -> dict[str, bytes]:
        """Values :meth:`store` kept for ``texts`` under ``namespace`` (and this embedder), by text."""
        db = self._connect()
        by_key = {self._memo_key(namespace, t): t for t in texts}
        found: dict[str, bytes] = {}
        keys = sorted(by_key)
        try:
            for start in range(0, len(keys), _CHUNK):
                part = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(part))
                for key, value in db.execute(f"SELECT key, value FROM kg_memo WHERE key IN ({marks})", part):
                    found[by_key[key]] = value
        except sqlite3.Error as exc:
            raise CacheError(f"cannot read the embedding cache {self.path}: {exc}") from None
        return found

    def store(self, namespace: str, values: dict[str, bytes]) -> None:
        """Keep ``values`` (text -> bytes) under ``namespace`` for later :meth:`lookup`."""
        db = self._connect()
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO kg_memo VALUES (?, ?)",
                               sorted((self._memo_key(namespace, t), v) for t, v in values.items()))
        except sqlite3.Error as exc:
            raise CacheError(f"cannot write the embedding cache {self.path}: {exc}") from None

    def close(self) -> None:
        """Close the database connection (it reopens on the next :meth:`embed`)."""
        if self._db is not None:
            self._db.close()
            self._db = None


def check_cache(path: str | os.PathLike[str]) -> None:
    """Open (or create) the cache file at ``path`` as :class:`CachedEmbedder` would, and close it.

    Lets a caller refuse a bad cache path before any expensive stage runs.

    Raises
    ------
    CacheError
        When ``path`` cannot be opened, or is another application's SQLite file (left as it is).
    """

    class _Unused:
        name = "unused"

    cache = CachedEmbedder(_Unused(), path)
    cache._connect()
    cache.close()

