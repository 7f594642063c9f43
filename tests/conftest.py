"""Shared fixtures: a deterministic embedder for fast unit tests, small corpora, the real model, the browser."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from _browser import chromium

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SEEDS = sorted((SHARED / "seeds").glob("*.txt"))
EXAMPLE = ROOT / "examples" / "papers.jsonl"


def bench_script(name: str):
    """A script of ``bench/`` loaded as a module (bench/ is no package; its scripts import each other by name)."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class HashEmbedder:
    """Bag of words hashed into 256 signed dimensions, L2-normalized.

    Deterministic and cheap; texts that share words get similar vectors, which is
    enough for testing ranking and graph logic without the real model.
    """

    name = "hash-256"

    def __init__(self, dim: int = 256, common: float = 0.0, grams: int = 0):
        self.dim = dim
        self.common = common  # weight of one direction every vector shares (see test_neo4j_server)
        self.grams = grams  # also hash each word's character n-grams of this length (words that share letters meet)
        self.calls: list[int] = []

    def _tokens(self, text: str) -> list[str]:
        words = re.findall(r"[a-z0-9]+", text.lower())
        if not self.grams:
            return words
        padded = [f"#{w}#" for w in words]
        return words + [w[i:i + self.grams] for w in padded for i in range(len(w) - self.grams + 1)]

    def embed(self, texts):
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in self._tokens(text):
                digest = hashlib.md5(token.encode()).digest()
                index = int.from_bytes(digest[:4], "little") % self.dim
                out[row, index] += 1.0 if digest[4] & 1 else -1.0
            if self.common and out[row].any():
                out[row] /= np.linalg.norm(out[row])
                out[row, self.dim - 1] += self.common
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
        return out


@pytest.fixture
def hash_embedder():
    return HashEmbedder()


@pytest.fixture(scope="session", autouse=True)
def model_cache_dir(tmp_path_factory):
    """kg's cache folder (the int8 ONNX model is exported there) lives in pytest's temp dir."""
    import os

    folder = tmp_path_factory.mktemp("kg-cache")
    previous = os.environ.get("KG_CACHE_DIR")
    os.environ["KG_CACHE_DIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("KG_CACHE_DIR", None)
    else:
        os.environ["KG_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def real_embedder():
    """The packaged all-MiniLM-L6-v2, loaded once per test session."""
    from kg.extract.embedder import load_embedder

    return load_embedder()


@pytest.fixture(scope="module")
def browser():
    """A fresh headless Chromium context (tests/_browser.py) for the tests of one module; the
    browser tests skip themselves first when Chromium or Playwright is missing."""
    with chromium() as context:
        yield context


@pytest.fixture(scope="module")
def loopback_browser():
    """:func:`browser` that reaches 127.0.0.1 (a ``kg serve`` the test started), and nothing else."""
    with chromium(loopback=True) as context:
        yield context


@pytest.fixture(scope="session")
def served_build(tmp_path_factory):
    """The example corpus plus hostile papers (tests/_served.py), built once with the hash embedder."""
    from _served import build_folder  # the pipeline loads only for the tests that serve a build

    return build_folder(tmp_path_factory.mktemp("served"))


@pytest.fixture(scope="session")
def server(served_build):
    """``kg serve`` running on :func:`served_build` (a real subprocess on a free loopback port)."""
    from _served import Served

    running = Served(served_build)
    yield running
    running.stop()


@pytest.fixture
def seeds():
    if not SEEDS:
        pytest.skip("../shared/seeds is not present")
    return SEEDS
