"""A build's output folder, replaced as a whole: readers see the old build or the new one.

:class:`StagedFolder` gives the build a staging folder beside the target
(``.NAME.kg-staging-PID-XXXX`` in the same parent, so renames stay on one file
system). Every output is written there; :meth:`StagedFolder.commit` then swaps the
staging folder and the target in one ``renameat2(RENAME_EXCHANGE)`` call (Linux), so
no reader ever sees new ``graph.json`` beside an old report. Entries of the old folder
that are not kg outputs (the embedding cache, the user's own files) move into the new
folder; the old kg outputs are deleted.

A build killed at any point leaves the target as it was (or already swapped, whole),
and at most a staging folder, which the next build of the same target removes after
carrying back any entry of the user's it holds. Where the exchange is not available
(other systems, some file systems), the target is renamed aside and the staging folder
renamed in: the target is then missing for an instant, never mixed.

What the swap cannot do is refused before any work: a target that is a mount point (a
mount point cannot be renamed) or that is, or holds, the working directory (the shell
would be left in a deleted folder). Files a command reads from the folder that are named
like kg outputs (a thesaurus.txt the user edited) are named in ``keep`` and carried into
the new folder like the user's other files.

:func:`folder_lock` serializes the commands that write one folder (a lock file beside it,
held with ``fcntl.flock``): a second ``kg build``/``kg report`` of the folder is refused
with a message naming the first, instead of both reading the same old build.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator

from kg.atomic import umask
from kg.errors import KgError

__all__ = ["StagedFolder", "OutputFolderError", "FolderBusyError", "KG_OUTPUTS", "folder_lock", "check_target"]

# Every file a build may write. Entries of an old output folder with these names are
# replaced (or dropped when the new build does not write them); all others are kept.
KG_OUTPUTS = frozenset({
    "graph.json", "corpus.jsonl", "graph.graphml", "graph.gexf", "papers.csv", "concepts.csv", "mentions.csv",
    "report.md", "report.html", "report.json", "graph.html", "thesaurus.txt", "analysis.json",
    "paper_vectors.npy", "paper_vectors.json", "concept_vectors.npy", "concept_vectors.json",
    "vosviewer_map.txt", "vosviewer_network.txt", "vosviewer.json",  # kg export vosviewer OUT
    "changelog.json", "changelog.md",  # kg build --update OUT
    "index.sqlite",  # the read index (kg.index)
})
_MARK = ".kg-staging-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class OutputFolderError(KgError):
    """The output folder cannot be created, written or replaced."""


class FolderBusyError(OutputFolderError):
    """Another kg command is writing the output folder."""


def _mount_points() -> set[str]:
    """The mount points of this process (``/proc/self/mountinfo``; empty where there is none)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return set()
    points = set()
    for line in lines:
        parts = line.split(" ")
        if len(parts) > 4:  # octal escapes: \040 is a space
            points.add(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[4]))
    return points


def check_target(target: str | os.PathLike[str]) -> str:
    """``target``'s real path, refused when a folder swap cannot replace it.

    Raises
    ------
    OutputFolderError
        When ``target`` is a file, a mount point, or the working directory or a folder
        that holds it.
    """
    shown = os.fspath(target)
    real = os.path.realpath(shown)
    if os.path.exists(real) and not os.path.isdir(real):
        raise OutputFolderError(f"{shown} is a file, not a folder; choose a folder for the outputs")
    if os.path.isdir(real) and (os.path.ismount(real) or real in _mount_points()):
        raise OutputFolderError(f"{shown} is a mount point, which kg cannot replace (kg writes a new folder beside "
                                f"the old one and swaps the two); give a folder inside it, e.g. "
                                f"{os.path.join(shown, 'out')}")
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:
        here = None
    if here is not None and (here == real or here.startswith(real.rstrip(os.sep) + os.sep)):
        raise OutputFolderError(f"{shown} is the working directory or holds it; kg replaces its output folder as "
                                "a whole, which would leave this shell in a deleted folder: give a folder inside "
                                f"it, e.g. {os.path.join(shown, 'out')}, or run kg from another folder")
    return real


def _lock_path(target: str) -> str:
    real = os.path.realpath(target)
    return os.path.join(os.path.dirname(real), f".{os.path.basename(real)}.kg-lock")


def _remove_stale_lock(target: str) -> None:
    """Remove the lock file of ``target`` that a killed command left (no process holds it)."""
    path = _lock_path(target)
    if path in _HELD or not os.path.exists(path):
        return
    try:
        import fcntl

        fd = os.open(path, os.O_RDWR)
    except (ImportError, OSError):
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.unlink(path)
    except OSError:
        pass  # held: a command is running
    finally:
        os.close(fd)


_HELD: dict[str, int] = {}  # lock path -> how many times this process holds it (folder_lock nests)


@contextlib.contextmanager
def folder_lock(target: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the write lock of the output folder ``target`` for the ``with`` block.

    The lock is the file ``.NAME.kg-lock`` beside the folder, held with ``fcntl.flock``
    (released by the system when the process ends, however it ends) and removed on
    release. Nested uses in one process share it.

    Raises
    ------
    FolderBusyError
        At once, when another process holds it (naming that process).
    """
    path = _lock_path(os.fspath(target))
    parent = os.path.dirname(path)
    if path in _HELD:
        _HELD[path] += 1
        try:
            yield
        finally:
            _HELD[path] -= 1
        return
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as exc:
        raise OutputFolderError(f"cannot write the output folder {os.fspath(target)}: {exc.strerror or exc}") from None
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise OutputFolderError(f"cannot write the output folder {os.fspath(target)}: "
                                    f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise FolderBusyError(f"{os.fspath(target)} is being written by another kg command ({holder}); "
                                  "wait for it to finish, then run this again") from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder removed it as we opened it: take the new one
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}".encode())
        _HELD[path] = 1
        yield
    finally:
        _HELD.pop(path, None)
        with contextlib.suppress(OSError):
            os.unlink(path)  # while held, so no one waits on a removed file
        os.close(fd)


def _exchange(a: str, b: str) -> bool:
    """Swap two paths atomically with renameat2; False when the system cannot."""
    libc_name = ctypes.util.find_library("c")
    if not libc_name:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(code, os.strerror(code), a)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class StagedFolder:
    """Stage the files of one build, then put them in place together.

    Parameters
    ----------
    target : path
        The output folder. It may be missing, empty, a previous build, or hold files
        of the user's (kept).
    keep : iterable of str, optional
        Names of kg outputs in ``target`` that are the user's input this time (a
        ``thesaurus.txt`` the build reads and does not write): carried like the user's files.

    Raises
    ------
    OutputFolderError
        From the constructor already when ``target`` is a file, a mount point, the working
        directory (or holds it), or its parent cannot be written, so a build fails before
        any expensive stage.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = os.path.join(tmp, "out")
    ...     staged = StagedFolder(out)
    ...     with open(staged.path("graph.json"), "w") as f:
    ...         _ = f.write("{}")
    ...     staged.commit()
    ...     sorted(os.listdir(out)), sorted(os.listdir(tmp))
    (['graph.json'], ['out'])
    """

    def __init__(self, target: str | os.PathLike[str], *, keep: Iterable[str] = ()):
        self.target = check_target(target)
        self.keep = frozenset(keep)
        self.parent = os.path.dirname(self.target)
        self.name = os.path.basename(self.target)
        try:
            os.makedirs(self.parent, exist_ok=True)
            self.recover()
            self.staging = tempfile.mkdtemp(prefix=f".{self.name}{_MARK}{os.getpid()}-", dir=self.parent)
            os.chmod(self.staging, 0o777 & ~umask())  # mkdtemp makes it private; the outputs are not
            probe = os.path.join(self.staging, ".probe")
            with open(probe, "wb") as handle:
                handle.write(b"kg")
            os.unlink(probe)
        except OSError as exc:
            raise OutputFolderError(f"cannot write the output folder {os.fspath(target)}: "
                                    f"{exc.strerror or exc}") from None
        self.committed = False

    def path(self, name: str) -> str:
        """Where the build writes the output ``name``."""
        return os.path.join(self.staging, name)

    def link_outputs(self, rewritten: Iterable[str]) -> None:
        """Put the target's kg outputs other than ``rewritten`` into the staging folder as they
        are (hard links, else copies): a command that rewrites some outputs (``kg report``) then
        commits a whole folder whose other outputs are the target's own."""
        skip = set(rewritten)
        if not os.path.isdir(self.target):
            return
        for entry in sorted(set(os.listdir(self.target)) & KG_OUTPUTS - skip):
            source, copy = os.path.join(self.target, entry), self.path(entry)
            if not os.path.isfile(source) or os.path.islink(source):
                continue
            try:
                os.link(source, copy)
            except OSError:
                shutil.copy2(source, copy)

    def _stale(self) -> list[str]:
        prefix = f".{self.name}{_MARK}"
        found = []
        for entry in os.listdir(self.parent):
            if not entry.startswith(prefix):
                continue
            pid = entry[len(prefix):].split("-", 1)[0]
            if pid.isdigit() and int(pid) != os.getpid() and _pid_alive(int(pid)):
                continue  # another build of this folder is running
            found.append(os.path.join(self.parent, entry))
        return found

    def recover(self) -> None:
        """Remove staging folders that killed builds left, carrying the user's entries back, and
        the lock file of a killed command (:func:`folder_lock`)."""
        _remove_stale_lock(self.target)
        for stale in self._stale():
            if os.path.isdir(self.target):
                self._carry(stale, self.target, self.keep)
            shutil.rmtree(stale, ignore_errors=True)

    @staticmethod
    def _carry(old: str, new: str, keep: frozenset[str] = frozenset()) -> None:
        """Move every entry of ``old`` that is not a kg output (or is in ``keep``) and that ``new`` lacks into ``new``."""
        for entry in os.listdir(old):
            if (entry in KG_OUTPUTS and entry not in keep) or (entry.startswith(".") and entry.endswith(".tmp")):
                continue
            destination = os.path.join(new, entry)
            if not os.path.lexists(destination):
                os.rename(os.path.join(old, entry), destination)

    def commit(self) -> None:
        """Put the staged files in place of the target's, all at once."""
        try:
            if not os.path.exists(self.target):
                os.rename(self.staging, self.target)
            elif _exchange(self.staging, self.target):
                self._carry(self.staging, self.target, self.keep)  # the staging path now holds the old folder
                shutil.rmtree(self.staging, ignore_errors=True)
            else:
                aside = tempfile.mkdtemp(prefix=f".{self.name}{_MARK}{os.getpid()}-", dir=self.parent)
                os.rmdir(aside)
                os.rename(self.target, aside)
                os.rename(self.staging, self.target)
                self._carry(aside, self.target, self.keep)
                shutil.rmtree(aside, ignore_errors=True)
        except OSError as exc:
            raise OutputFolderError(f"cannot replace the output folder {self.target}: "
                                    f"{exc.strerror or exc}") from None
        self.committed = True

    def abort(self) -> None:
        """Drop the staged files (the target is untouched)."""
        if not self.committed:
            shutil.rmtree(self.staging, ignore_errors=True)
