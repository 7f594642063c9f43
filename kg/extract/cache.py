"""An on-disk embedding cache that wraps any embedder.

Vectors are stored in one SQLite file, keyed by a hash of the embedder's signature
(model name, precision, long-text policy) and the exact text. A rebuild of an
unchanged corpus finds every text in the cache and never calls (or loads) the
model; an incremental build embeds only the texts it has not seen.

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

__all__ = ["CachedEmbedder", "CacheError"]

_CHUNK = 500


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
        self._db: sqlite3.Connection | None = None
        if hasattr(embedder, "approximate"):  # cheap stand-ins need no cache
            self.approximate = embedder.approximate

    @property
    def signature(self) -> str:
        return getattr(self.embedder, "signature", self.embedder.name)

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
                self._db = sqlite3.connect(self.path)
                self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)")
            except (OSError, sqlite3.Error) as exc:
                raise CacheError(f"cannot open the embedding cache {self.path}: {exc} "
                                 "(pass another --cache path, or --no-cache)") from None
        return self._db

    def _key(self, text: str) -> str:
        return hashlib.sha1(f"{self.signature}\x00{text}".encode("utf-8")).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        db = self._connect()
        unique = list(dict.fromkeys(texts))
        keys = {text: self._key(text) for text in unique}
        found: dict[str, np.ndarray] = {}
        by_key = {k: t for t, k in keys.items()}
        key_list = list(by_key)
        for start in range(0, len(key_list), _CHUNK):
            part = key_list[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            for key, blob in db.execute(f"SELECT key, vec FROM vectors WHERE key IN ({marks})", part):
                found[by_key[key]] = np.frombuffer(blob, dtype=np.float32)
        missing = [t for t in unique if t not in found]
        self.hits += len(unique) - len(missing)
        self.misses += len(missing)
        if missing:
            vectors = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            try:
                with db:
                    db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                                   [(keys[t], v.tobytes()) for t, v in zip(missing, vectors)])
            except sqlite3.Error as exc:
                raise CacheError(f"cannot write the embedding cache {self.path}: {exc}") from None
            found.update(zip(missing, vectors))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([found[t] for t in texts]).astype(np.float32)

    def close(self) -> None:
        """Close the database connection (it reopens on the next :meth:`embed`)."""
        if self._db is not None:
            self._db.close()
            self._db = None
