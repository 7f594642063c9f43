"""The record a build folder keeps of its pushes to Neo4j (``neo4j-push.json``).

``kg push`` writes it after a verified push; ``kg report`` reads it to say, only when the
build was pushed, that the Neo4j copy shows the old analysis until it is pushed again.
The URI is stored without any ``user:password@`` part.

Examples
--------
>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> read_push_record(folder) is None
True
>>> record_push(folder, uri="bolt://neo4j:secret@db:7687", database=None)["uri"]
'bolt://***@db:7687'
>>> read_push_record(folder)["uri"]
'bolt://***@db:7687'
"""

from __future__ import annotations

import datetime
import json
import os

from kg.atomic import atomic_write
from kg.export.neo4j import redact_uri

__all__ = ["PUSH_RECORD", "record_push", "read_push_record"]

PUSH_RECORD = "neo4j-push.json"


def record_push(directory: str | os.PathLike[str], *, uri: str, database: str | None) -> dict:
    """Write ``directory/neo4j-push.json``: where the build was pushed, and when (UTC); the record."""
    record = {"uri": redact_uri(uri), "database": database,
              "pushed_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    atomic_write(os.path.join(os.fspath(directory), PUSH_RECORD), json.dumps(record, indent=1) + "\n")
    return record


def read_push_record(directory: str | os.PathLike[str]) -> dict | None:
    """The push record of the build in ``directory``, or None when it was never pushed (or the record is unreadable)."""
    try:
        with open(os.path.join(os.fspath(directory), PUSH_RECORD), encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None
