"""What a command prints: data to stdout, diagnostics to stderr (terminal-safe), library errors as
one ``Error:`` line with exit code 1, progress bars and per-stage lines."""

from __future__ import annotations

import errno
import functools
import os
import sys
from typing import Optional

import typer

from kg.errors import KgError, OptionError
from kg.escape import terminal_text
from kg.export.cypher import format_rows


def show(message: str, *, nl: bool = True) -> None:
    """Print to stdout; corpus text in ``message`` cannot reach the terminal as escape sequences."""
    typer.echo(terminal_text(message), nl=nl)


def warn(message: str) -> None:
    """Print a diagnostic to stderr, as safely as :func:`show`."""
    typer.echo(terminal_text(message), err=True)


def reports_errors(func):
    """Turn library errors into ``Error: …`` on stderr and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except OptionError as exc:  # library argument names -> the flags of this command
            warn(f"Error: {_FLAGS.get(exc.argument, '--' + exc.argument.replace('_', '-'))}: {exc.reason}")
            raise typer.Exit(code=1) from None
        except KgError as exc:
            warn(f"Error: {exc}")
            raise typer.Exit(code=1) from None
        except OSError as exc:
            if exc.errno not in _ENVIRONMENT_ERRNOS:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            warn(f"Error: {where}{exc.strerror or exc}")
            raise typer.Exit(code=1) from None

    return wrapper
_FLAGS = {"mapping": "--map"}
# Errors of the machine, not of kg: a full disk, a read-only or vanished folder, no permission.
_ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT,
                       errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENAMETOOLONG, errno.EFBIG, errno.EIO}


class ProgressBar:
    """Progress on stderr: a tqdm bar per stage on a terminal (or with KG_PROGRESS=1), else a
    line at every quarter of a long stage; and one line as each build stage ends."""

    def __init__(self) -> None:
        self.bars_enabled = sys.stderr.isatty() or os.environ.get("KG_PROGRESS") == "1"
        self.bars: dict = {}
        self.quarters: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.bars_enabled:
            quarter = 4 * done // max(total, 1)
            if total >= 2000 and 0 < quarter < 4 and self.quarters.get(stage, 0) < quarter:
                self.quarters[stage] = quarter
                warn(f"kg: {stage}: {done:,}/{total:,}")
            return
        from tqdm import tqdm  # only on a terminal (or with KG_PROGRESS=1)

        bar = self.bars.get(stage)
        if bar is None:
            bar = self.bars[stage] = tqdm(total=total, desc=f"embedding {stage}", unit="text",
                                          file=sys.stderr, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def stage(self, stage) -> None:
        """A build stage ended: one line with its wall and CPU time and memory."""
        warn(f"kg: {stage.line()}")


def show_backend_use(backend: Optional[str], counts) -> None:
    """One line: which NetworkX calls ran on ``backend`` and which NetworkX ran itself."""
    if backend is None:
        return
    def listed(where: str) -> str:
        return ", ".join(f"{name} ×{n}" for (name, ran), n in sorted(counts.items()) if ran == where) or "none"
    warn(f"NetworkX backend {backend}: ran {listed(backend)}; NetworkX ran (not implemented there): "
         f"{listed('networkx')}")


def print_rows(keys: list[str], rows: list[dict], as_json: bool) -> None:
    show(format_rows(keys, rows, "json" if as_json else "table"), nl=False)
