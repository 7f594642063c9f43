"""Build and run a local Neo4j 5.26 Community server for kg's tests and benchmarks.

The server is the tiny Maven project beside this file (``pom.xml`` + ``Neo4jServer.java``):
Neo4j embedded with its Bolt connector on 127.0.0.1, auth on. :func:`ensure_built` runs
``mvn -q package`` once and caches the launcher and its classpath in ``.tools/neo4j/``
(ignored by git; rebuilt when the pom or the launcher changes). :class:`LocalNeo4j` starts,
stops and kills one server on a free loopback port.

Command line (for trying things by hand)::

    python tools/neo4j/server.py build
    NEO4J_PASSWORD=... python tools/neo4j/server.py run --home /tmp/neo4j --port 7687
    NEO4J_PASSWORD=... python tools/neo4j/server.py run --home /tmp/neo4j --gds   # with Graph Data Science
    NEO4J_HOME=/tmp/neo4j tools/neo4j/neo4j-admin database import full ...   # the same version's neo4j-admin

``neo4j-admin`` beside this file runs Neo4j's own admin tool (``org.neo4j.cli.AdminTool`` from
``neo4j-command-line``, with ``database import full`` from ``neo4j-import-tool``, both on the
launcher's classpath) against the home folder in ``NEO4J_HOME``: a database imported into
``HOME/data`` is the one :class:`LocalNeo4j` with that home serves.

Needs Java 17+ and Maven (``apt-get install openjdk-17-jre-headless maven``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

__all__ = ["ROOT", "TOOLS", "ToolsMissing", "ensure_built", "gds_plugins", "free_port", "LocalNeo4j"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TOOLS = Path(os.environ.get("KG_TOOLS_DIR", ROOT / ".tools")) / "neo4j"
TARGET = TOOLS / "target"
STAMP = TOOLS / "build.sha256"
_SOURCES = [HERE / "pom.xml", *sorted((HERE / "src").rglob("*.java"))]


class ToolsMissing(RuntimeError):
    """Java or Maven is not installed, so no local server can be built."""


def _digest() -> str:
    sha = hashlib.sha256()
    for path in _SOURCES:
        sha.update(path.name.encode())
        sha.update(path.read_bytes())
    return sha.hexdigest()


def gds_plugins() -> Path:
    """The folder of the Graph Data Science jars (built by :func:`ensure_built`)."""
    return TARGET / "gds"


def ensure_built(*, quiet: bool = True) -> str:
    """Build the launcher with Maven unless the cached build matches the sources.

    Returns
    -------
    str
        The Java classpath of the launcher.

    Raises
    ------
    ToolsMissing
        When ``java`` or ``mvn`` is not on PATH.
    subprocess.CalledProcessError
        When Maven fails (its output is in the exception).
    """
    for tool in ("java", "mvn"):
        if shutil.which(tool) is None:
            raise ToolsMissing(f"{tool} not found: install Java 17+ and Maven "
                               "(apt-get install openjdk-17-jre-headless maven), "
                               "or point NEO4J_URI/NEO4J_PASSWORD at a Neo4j 5 server you can wipe")
    digest = _digest()
    jar = TARGET / "kg-neo4j-server-1.0.jar"
    if not (STAMP.exists() and STAMP.read_text().strip() == digest and jar.exists()):
        TOOLS.mkdir(parents=True, exist_ok=True)
        for folder in (TARGET / "lib", TARGET / "gds"):  # no jar of an older pom left on the classpath
            shutil.rmtree(folder, ignore_errors=True)
        cmd = ["mvn", "-B", "-f", str(HERE / "pom.xml"), f"-Dkg.tools.dir={TOOLS}", "package"]
        if quiet:
            cmd.insert(2, "-q")
        subprocess.run(cmd, check=True, capture_output=quiet, text=True)
        STAMP.write_text(digest + "\n")
    return f"{jar}{os.pathsep}{TARGET / 'lib' / '*'}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalNeo4j:
    """One Neo4j server process on ``127.0.0.1:port`` with its data in ``home``.

    Parameters
    ----------
    home : path
        Data and log folder (created; kept across :meth:`stop`/:meth:`start`).
    password : str
        Password of the ``neo4j`` user (passed through the environment).
    port : int, optional
        Default: a free port.
    heap : str
        Java heap size.
    page_cache_mb : int
        Neo4j page cache.
    gds : bool
        Load the Graph Data Science library (the open-source GDS 2.13 jars from Maven Central,
        :func:`gds_plugins`) as a plugin, its ``gds.*`` procedures unrestricted.
    """

    def __init__(self, home: str | os.PathLike[str], password: str, *, port: int | None = None,
                 heap: str = "1g", page_cache_mb: int = 256, gds: bool = False) -> None:
        self.gds = gds
        self.home = Path(home)
        self.password = password
        self.port = port or free_port()
        self.heap = heap
        self.page_cache_mb = page_cache_mb
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def start(self, *, timeout: float = 600.0) -> None:
        """Start the server and wait until Bolt accepts connections."""
        classpath = ensure_built()
        self.home.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, NEO4J_PASSWORD=self.password)
        plugins = []
        if self.gds:  # on the classpath for the GDS extension, as the plugin folder for its procedures
            classpath += f"{os.pathsep}{gds_plugins() / '*'}"
            plugins = [str(gds_plugins())]
        self.output = []
        self.process = subprocess.Popen(
            ["java", f"-Xmx{self.heap}", "-XX:+UseParallelGC", "-cp", classpath, "kg.tools.Neo4jServer",
             str(self.home), str(self.port), str(self.page_cache_mb), *plugins],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=env,
        )
        ready = threading.Event()

        def pump(stream, lines=self.output) -> None:
            for line in stream:
                lines.append(line.rstrip("\n"))
                if line.startswith("kg-neo4j ready"):
                    ready.set()

        threading.Thread(target=pump, args=(self.process.stdout,), daemon=True).start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.5):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                tail = "\n".join(self.output[-30:])
                raise RuntimeError(f"Neo4j did not start on {self.uri} (see {self.home}/logs):\n{tail}")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, *, timeout: float = 120.0) -> None:
        """Shut down cleanly (SIGTERM); kill if it takes longer than ``timeout`` seconds."""
        if not self.running():
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """Stop at once (SIGKILL), as a crash would; the next start recovers the store."""
        if self.running():
            self.process.kill()
        if self.process is not None:
            self.process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="build the launcher (cached in .tools/neo4j)")
    sub.add_parser("classpath", help="build quietly if needed, print the Java classpath (for ./neo4j-admin)")
    run = sub.add_parser("run", help="run a server until Ctrl-C (password from NEO4J_PASSWORD)")
    run.add_argument("--home", required=True)
    run.add_argument("--port", type=int, default=7687)
    run.add_argument("--gds", action="store_true", help="load the Graph Data Science library (kg report --engine gds)")
    args = parser.parse_args(argv)
    if args.command == "build":
        print(ensure_built(quiet=False))
        return 0
    if args.command == "classpath":
        print(ensure_built())
        return 0
    server = LocalNeo4j(args.home, os.environ.get("NEO4J_PASSWORD", ""), port=args.port, gds=args.gds)
    server.start()
    print(f"Neo4j running at {server.uri} (Ctrl-C stops it)", file=sys.stderr)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
