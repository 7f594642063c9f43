"""The small, named exceptions that the library raises and the CLI reports.

Every message says what went wrong, where (file, line or record) and, where it
helps, what to do about it. Real bugs are not wrapped: they keep their tracebacks.
"""

from __future__ import annotations

__all__ = [
    "KgError",
    "InputError",
    "OptionError",
    "ModelNotFoundError",
    "GraphFileError",
    "Neo4jError",
    "NodeNotFoundError",
    "ViewError",
]


class KgError(Exception):
    """Base class of every error that kg reports to users as one line."""


class InputError(KgError):
    """A corpus file cannot be read: missing, malformed, or of an unknown format.

    Parameters
    ----------
    message : str
        What is wrong.
    path : str, optional
        The file.
    line : int, optional
        1-based line (or record) number inside the file.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        self.reason = message
        where = path or ""
        if line is not None:
            where = f"{where}:{line}" if where else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class OptionError(KgError):
    """A parameter value kg cannot use (out of range, not finite, unknown name).

    Parameters
    ----------
    argument : str
        The parameter's name in the library (``resolution``, ``top_n``); the CLI names its flag.
    reason : str
        What is wrong and what is allowed, e.g. ``must be a finite number > 0, not nan``.
    """

    def __init__(self, argument: str, reason: str):
        self.argument = argument
        self.reason = reason
        super().__init__(f"{argument}: {reason}")


class ModelNotFoundError(OptionError):
    """The embedding model is not installed where kg looks for it (``argument`` is ``model``)."""


class GraphFileError(KgError):
    """An output directory does not hold a graph kg can read."""


class Neo4jError(KgError):
    """Neo4j is unreachable, refused the credentials, or failed mid-write."""


class ViewError(OptionError):
    """A graph view cannot be drawn as asked: unknown view, community or focus node.

    ``argument`` names the parameter (``view``, ``community``, ``focus``, ``depth``, ``size_by``).
    """


class NodeNotFoundError(KgError):
    """A paper, concept or community asked for by id or title is not in the graph."""
