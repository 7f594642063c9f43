"""A build to serve and ``kg serve`` running on it: the example corpus plus hostile papers, built with
the hash embedder, and the real command started as a subprocess on a free loopback port."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from conftest import EXAMPLE, ROOT, HashEmbedder
from kg.pipeline import BuildOptions, build

EVIL_TITLE = "Evil </script><script>window.__kgPwned='title'</script> \"quoted\" 'graph' neural networks"
EVIL_ID = "javascript:alert(document.domain)"
IMG_TITLE = "<img src=x onerror=\"window.__kgPwned='img'\"> recommendation with graph neural networks"
HOSTILE = [
    {"id": EVIL_ID, "title": EVIL_TITLE, "year": 2019, "venue": "<b>Venue</b>",
     "authors": ["\"><svg onload=\"window.__kgPwned='author'\">", "Mallory, M."],
     "abstract": "We inject <script>window.__kgPwned='abstract'</script> into an abstract about graph neural "
                 "networks for node classification and link prediction on citation networks. Message passing "
                 "over graph neural networks learns node embeddings for recommendation."},
    {"id": "evil-img", "title": IMG_TITLE, "year": 2021, "doi": "10.1234/evil\"onmouseover=alert(1)",
     "abstract": "Graph neural networks for recommendation: message passing over the user-item graph learns "
                 "node embeddings; link prediction ranks items. Collaborative filtering with graph "
                 "convolutional networks outperforms matrix factorization."},
]


def corpus(folder: Path) -> Path:
    """The example corpus with :data:`HOSTILE` added, as one JSONL file in ``folder``."""
    path = folder / "papers.jsonl"
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines + [json.dumps(p) for p in HOSTILE]) + "\n", encoding="utf-8")
    return path


def build_folder(folder: Path) -> Path:
    """``folder/out``: the build of :func:`corpus` (its index included), made with the hash embedder."""
    out = folder / "out"
    build([corpus(folder)], out, BuildOptions(html=False), embedder=HashEmbedder())
    return out


def environment(**extra: str) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            "PYTHONUNBUFFERED": "1", **extra}


class Served:
    """``kg serve FOLDER --port 0 ARGS…`` as a subprocess; :attr:`url` once it listens."""

    def __init__(self, folder: Path, *args: str, env: dict | None = None, timeout: float = 60.0) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "kg.cli", "serve", str(folder), "--port", "0", *args],
                                        cwd=ROOT, env=env or environment(), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.url = None
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline and self.process.poll() is None:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                line = self.process.stdout.readline()
                if line.startswith("kg serve: http://"):
                    self.url = line.split()[2]
                    break
        if self.url is None:
            raise AssertionError(f"kg serve did not start: {line!r} {self.stop()[-2000:]}")
        self.origin = self.url.rstrip("/")

    def get(self, path: str, *, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, bytes]:
        """``(status, headers, body)`` of one request to the server."""
        request = urllib.request.Request(self.origin + path, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, path: str) -> dict:
        status, _, body = self.get(path)
        assert status == 200, (path, status, body[:500])
        return json.loads(body)

    def stop(self) -> str:
        """Stop the server (SIGTERM, as Ctrl-C would); its stderr."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        err = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        return err
