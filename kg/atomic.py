"""Atomic file writes (a leaf: imports only :mod:`kg.escape`).

Every file kg writes goes to a temporary file in the target's folder, which then replaces the
target in one rename, so a crash never leaves a half-written file behind; the file gets the
permissions a plain ``open`` would give it (``0o666`` less the umask).

Examples
--------
>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> atomic_write(os.path.join(folder, "a.txt"), "one\\n")
>>> open(os.path.join(folder, "a.txt")).read()
'one\\n'
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager

from kg.escape import clean_text

__all__ = ["atomic_write", "atomic_file", "umask"]


def umask() -> int:
    """The process's file-mode creation mask (read without changing it for longer than a call)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _special(path: str) -> bool:
    """Whether ``path`` is (or links to) something other than a regular file or a folder:
    a FIFO, a character or block device, a socket."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def _replacing(path: str | os.PathLike[str], mode: str):
    """A handle (``mode`` "w" or "wb") on a temporary file that replaces ``path`` only once the
    ``with`` block succeeds; on any failure the temporary file is removed and ``path`` untouched.

    A ``path`` that is a FIFO or a device node is opened and written into instead: it is not
    kg's to replace (``--out /dev/null`` must never unlink the machine's /dev/null)."""
    path = os.fspath(path)
    text = {"encoding": "utf-8", "newline": "", "errors": "replace"} if "b" not in mode else {}
    if _special(path):  # a FIFO, a device (/dev/null, /dev/stdout): written into, never replaced
        with open(path, mode, **text) as handle:
            yield handle
        return
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **text) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_file(path: str | os.PathLike[str]):
    """A text handle whose file replaces ``path`` only once the ``with`` block succeeds."""
    return _replacing(path, "w")


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename."""
    with _replacing(path, "wb") as handle:
        handle.write(clean_text(data).encode("utf-8") if isinstance(data, str) else data)
