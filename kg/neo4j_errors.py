"""The Neo4j driver's errors as one-line :class:`~kg.errors.Neo4jError` (a leaf under every Neo4j user).

The exporters (:mod:`kg.export.neo4j`), the query runner (:mod:`kg.export.cypher`) and the
Graph Data Science engine (:mod:`kg.analyze.gds`) all talk to a driver they are handed; each
wraps its calls in :func:`driver_errors`, so an unreachable server or a refused password is
the same clear message everywhere.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from kg.errors import Neo4jError

__all__ = ["driver_errors"]


@contextlib.contextmanager
def driver_errors(*, queries: bool = False) -> Iterator[None]:
    """Turn the driver's connection, auth and database errors into :class:`Neo4jError`.

    With ``queries=True`` errors in the statement itself (syntax, a write in a read-only
    query, a missing parameter) are reported too; otherwise they stay bugs with tracebacks.
    """
    from neo4j import exceptions as ex  # the driver loads only where Neo4j is used

    try:
        yield
    except ex.AuthError:
        raise Neo4jError("Neo4j refused the user name or password "
                         "(give the user and password, e.g. in NEO4J_USERNAME/NEO4J_PASSWORD)") from None
    except (ex.ServiceUnavailable, ex.SessionExpired, ex.IncompleteCommit, ex.TransientError,
            ex.DatabaseUnavailable, OSError) as exc:
        reason = " ".join((str(exc) or type(exc).__name__).split())
        reason = reason if len(reason) <= 160 else reason[:157] + "..."
        raise Neo4jError(f"Neo4j is unreachable or stopped answering ({reason}); what was written "
                         "is consistent: start the server and run the same command again") from None
    except ex.ClientError as exc:
        code = exc.code or ""
        if code.endswith("DatabaseNotFound"):
            raise Neo4jError(f"Neo4j has no such database ({exc.message})") from None
        if queries or code.endswith(("Forbidden", "Unauthorized")):
            raise Neo4jError(f"Neo4j rejected the query: {code}: {(exc.message or '').splitlines()[0]}") from None
        raise
