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
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import shutil
import tempfile

from kg.atomic import umask
from kg.errors import KgError

__all__ = ["StagedFolder", "OutputFolderError", "KG_OUTPUTS"]

# Every file a build may write. Entries of an old output folder with these names are
# replaced (or dropped when the new build does not write them); all others are kept.
KG_OUTPUTS = frozenset({
    "graph.json", "corpus.jsonl", "graph.graphml", "graph.gexf", "papers.csv", "concepts.csv", "mentions.csv",
    "report.md", "report.html", "report.json", "graph.html", "thesaurus.txt", "analysis.json",
    "paper_vectors.npy", "paper_vectors.json", "concept_vectors.npy", "concept_vectors.json",
    "vosviewer_map.txt", "vosviewer_network.txt", "vosviewer.json",  # kg export vosviewer OUT
    "changelog.json", "changelog.md",  # kg build --update OUT
})
_MARK = ".kg-staging-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class OutputFolderError(KgError):
    """The output folder cannot be created, written or replaced."""


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

    Raises
    ------
    OutputFolderError
        From the constructor already when ``target`` is a file or its parent cannot be
        written, so a build fails before any expensive stage.

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

    def __init__(self, target: str | os.PathLike[str]):
        self.target = os.path.realpath(os.fspath(target))
        if os.path.exists(self.target) and not os.path.isdir(self.target):
            raise OutputFolderError(f"{os.fspath(target)} is a file, not a folder; choose a folder for the outputs")
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
        """Remove staging folders that killed builds left, carrying the user's entries back."""
        for stale in self._stale():
            if os.path.isdir(self.target):
                self._carry(stale, self.target)
            shutil.rmtree(stale, ignore_errors=True)

    @staticmethod
    def _carry(old: str, new: str) -> None:
        """Move every entry of ``old`` that is not a kg output and that ``new`` lacks into ``new``."""
        for entry in os.listdir(old):
            if entry in KG_OUTPUTS or (entry.startswith(".") and entry.endswith(".tmp")):
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
                self._carry(self.staging, self.target)  # the staging path now holds the old folder
                shutil.rmtree(self.staging, ignore_errors=True)
            else:
                aside = tempfile.mkdtemp(prefix=f".{self.name}{_MARK}{os.getpid()}-", dir=self.parent)
                os.rmdir(aside)
                os.rename(self.target, aside)
                os.rename(self.staging, self.target)
                self._carry(aside, self.target)
                shutil.rmtree(aside, ignore_errors=True)
        except OSError as exc:
            raise OutputFolderError(f"cannot replace the output folder {self.target}: "
                                    f"{exc.strerror or exc}") from None
        self.committed = True

    def abort(self) -> None:
        """Drop the staged files (the target is untouched)."""
        if not self.committed:
            shutil.rmtree(self.staging, ignore_errors=True)
