"""The ``kg`` command line: parse options, call one library function, print a summary.

One module per group of commands (:mod:`~kg.cli.build`, :mod:`~kg.cli.extraction`,
:mod:`~kg.cli.neo4j`, :mod:`~kg.cli.analysis`, :mod:`~kg.cli.lookup`, :mod:`~kg.cli.viz`,
:mod:`~kg.cli.search`, :mod:`~kg.cli.export`, :mod:`~kg.cli.serve`), each registering on the one Typer :data:`app`
of :mod:`~kg.cli.root`. Library errors (:class:`kg.errors.KgError`) become one ``Error: …``
line on stderr and exit code 1; anything else is a bug and keeps its traceback.

Start-up: ``kg search`` must answer in well under a second, and importing every command's
library (the whole pipeline, NetworkX, SciPy) takes longer than that. So :func:`main` imports
only the module of the command it runs (all of them for ``kg``, ``kg --help`` and shell
completion), and ``kg.cli.app`` (PEP 562, as ``kg/__init__`` does for the API) registers
every command on first use, for tests and tools that drive the app. These two are the only kg
imports made inside a function here (``tests/test_layers.py`` lists them).
"""

import importlib
import os
import sys

from kg.cli.root import app as _root

__all__ = ["app", "main", "COMMANDS"]

# command -> the module that registers it, in the order ``kg --help`` lists them
COMMANDS = {
    "build": "build", "extract": "extraction", "eval": "extraction", "push": "neo4j", "query": "neo4j",
    "report": "analysis", "evolution": "analysis", "related": "lookup", "concepts": "lookup", "viz": "viz",
    "search": "search", "export": "export", "serve": "serve", "forecast": "forecast", "gaps": "forecast",
}


def _load(commands) -> None:
    """Register ``commands`` on the app: import their modules (kg.cli.*), each once."""
    for name in dict.fromkeys(COMMANDS[c] for c in commands):
        importlib.import_module(f"kg.cli.{name}")  # lazily, for start-up time (see the module docstring)


def _wanted(args: list[str]) -> list[str]:
    """The commands ``args`` can run: the one named, none for ``--version``, else every one."""
    if any(key.endswith("_COMPLETE") for key in os.environ):  # shell completion lists every command
        return list(COMMANDS)
    for arg in args:
        if arg in ("--help", "-h"):
            return list(COMMANDS)
        if not arg.startswith("-"):
            return [arg] if arg in COMMANDS else list(COMMANDS)
    return [] if args else list(COMMANDS)


def __getattr__(name: str):
    """``kg.cli.app`` with every command registered (imported on first use)."""
    if name == "app":
        _load(COMMANDS)
        return _root
    raise AttributeError(f"module 'kg.cli' has no attribute {name!r}")


def main() -> None:
    """The ``kg`` command: register the command asked for, then run the app."""
    _load(_wanted(sys.argv[1:]))
    _root()
