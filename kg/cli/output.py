"""What a command prints: data to stdout, diagnostics to stderr (terminal-safe), library errors as
one ``Error:`` line with exit code 1, progress bars and per-stage lines."""

from __future__ import annotations

import errno
import functools
import os
import sys
import threading
import time
from typing import Optional

import typer

from kg.errors import KgError, OptionError
from kg.escape import terminal_text
from kg.export.cypher import format_rows


def show(message: str, *, nl: bool = True) -> None:
    """Print to stdout; corpus text in ``message`` cannot reach the terminal as escape sequences."""
    typer.echo(terminal_text(message), nl=nl)


def warn(message: str) -> None:
    """Print a diagnostic to stderr, as safely as :func:`_out`."""
    typer.echo(terminal_text(message), err=True)


_ERROR_CHARS = 2000  # an error line longer than this (an argument of 130 KB echoed) is cut in the middle


def short_error(message: str, limit: int = _ERROR_CHARS) -> str:
    """``message`` cut to about ``limit`` characters, its start and end kept.

    Examples
    --------
    >>> short_error("no paper matches '" + "x" * 5000 + "'", limit=60)
    "no paper matches 'xxxxxxxxxxxxxxxxxxxxxx … (4,969 characters cut) … xxxxxxxxx'"
    """
    if len(message) <= limit:
        return message
    head, tail = (2 * limit) // 3, limit // 6
    return f"{message[:head]} … ({len(message) - head - tail:,} characters cut) … {message[-tail:]}"


def reports_errors(func):
    """Turn library errors into ``Error: …`` on stderr and exit code 1 (one line, cut when huge)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except OptionError as exc:  # library argument names -> the flags of this command
            flag = _FLAGS.get(exc.argument, "--" + exc.argument.replace("_", "-"))
            warn(short_error(f"Error: {flag}: {exc.reason}"))
            raise typer.Exit(code=1) from None
        except KgError as exc:
            warn(short_error(f"Error: {exc}"))
            raise typer.Exit(code=1) from None
        except OSError as exc:
            if exc.errno not in _ENVIRONMENT_ERRNOS:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            warn(short_error(f"Error: {where}{exc.strerror or exc}"))
            raise typer.Exit(code=1) from None

    return wrapper


_FLAGS = {"mapping": "--map"}
# Errors of the machine, not of kg: a full disk, a read-only or vanished folder, no permission.
_ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT,
                       errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENAMETOOLONG, errno.EFBIG, errno.EIO}


_STAGE_NAMES = {"documents": "embedding abstracts", "phrases": "embedding phrases", "candidates": "candidate phrases",
                "ranking": "ranking keyphrases"}


class ProgressBar:
    """What a long command says on stderr while it works, by ``verbosity`` (-1 quiet, 0, 1 verbose).

    On a terminal (or with ``KG_PROGRESS=1``): a live tqdm bar with ETA per long stage and a
    status line naming the stages done, then one summary line (:meth:`finish`). Without a
    terminal (a log, a pipe): one line per build stage with its seconds, and a line at every
    quarter of a long stage. Verbose adds the wall/CPU/memory of every stage and step, in
    both modes; quiet says nothing (warnings and errors still reach stderr).
    """

    def __init__(self, verbosity: int = 0, *, terminal: bool | None = None) -> None:
        self.verbosity = verbosity
        self.terminal = (sys.stderr.isatty() or os.environ.get("KG_PROGRESS") == "1") if terminal is None \
            else terminal
        self.bars_enabled = self.terminal and verbosity >= 0
        self.bars: dict = {}
        self.quarters: dict[str, int] = {}
        self.stages: list = []
        self.status = None
        self.started = time.perf_counter()
        self._ticking = None

    def _tick(self) -> None:
        """Once a second while bars are open: redraw them and the status line (elapsed times stay live
        through a long chunk of work)."""
        if self._ticking is not None:
            return
        self._ticking = threading.Event()

        def run(stop=self._ticking):
            while not stop.wait(1.0):
                for bar in list(self.bars.values()):
                    if not bar.disable:
                        bar.refresh()
                if self.status is not None and not self.status.disable:
                    self._status()

        threading.Thread(target=run, name="kg-progress", daemon=True).start()

    def _status(self) -> None:
        if not self.bars_enabled:
            return
        from tqdm import tqdm  # only on a terminal (or with KG_PROGRESS=1)

        if self.status is None:
            self.status = tqdm(total=None, file=sys.stderr, leave=False, bar_format="{desc}", **self._width())
            self._tick()
        done = [s for s in self.stages if s.cpu == s.cpu]
        what = f"{len(done)} stages done, last {done[-1].name} ({done[-1].wall:.1f} s)" if done else "starting"
        self.status.set_description_str(terminal_text(f"kg: {what}; {time.perf_counter() - self.started:.0f} s so far"))

    @staticmethod
    def _width() -> dict:
        """tqdm's width: the terminal's as it changes, or 100 columns where it reports none (0x0)."""
        try:
            if os.get_terminal_size(sys.stderr.fileno()).columns > 0:
                return {"dynamic_ncols": True}
        except (OSError, ValueError):
            pass
        return {"ncols": 100}

    def _write(self, message: str) -> None:
        if self.bars_enabled:
            from tqdm import tqdm  # only on a terminal (or with KG_PROGRESS=1)

            tqdm.write(terminal_text(message), file=sys.stderr)
        else:
            warn(message)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.verbosity < 0:
            return
        if not self.bars_enabled:
            quarter = 4 * done // max(total, 1)
            if total >= 2000 and 0 < quarter < 4 and self.quarters.get(stage, 0) < quarter:
                self.quarters[stage] = quarter
                warn(f"kg: {stage}: {done:,}/{total:,}")
            return
        from tqdm import tqdm  # only on a terminal (or with KG_PROGRESS=1)

        if self.status is None:
            self._status()
        bar = self.bars.get(stage)
        if bar is None:
            if done >= total:  # done at once: no bar to show
                return
            bar = self.bars[stage] = tqdm(total=total, desc=f"kg: {_STAGE_NAMES.get(stage, stage)}", unit="text",
                                          file=sys.stderr, leave=False, **self._width())
            self._tick()
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def stage(self, stage) -> None:
        """A build stage ended: a line (a log), the status line (a terminal), its full timing (verbose)."""
        self.stages.append(stage)
        step = stage.cpu != stage.cpu  # NaN: a step inside a stage
        if self.verbosity < 0 or (step and self.verbosity < 1):
            return
        if self.verbosity > 0:
            self._write(f"kg: {stage.line()}")
        elif not self.terminal:
            self._write(f"kg: {stage.name}: {stage.wall:.1f} s")
        self._status()

    def finish(self) -> None:
        """Close the bars; on a terminal, one summary line: the time taken and the slowest stages."""
        if self._ticking is not None:
            self._ticking.set()
        for bar in self.bars.values():
            bar.close()
        if self.status is not None:
            self.status.close()
        if not self.bars_enabled or self.verbosity > 0:
            return
        stages = sorted((s for s in self.stages if s.cpu == s.cpu), key=lambda s: -s.wall)
        slowest = ", ".join(f"{s.name} {s.wall:.1f} s" for s in stages[:3])
        warn(f"kg: done in {time.perf_counter() - self.started:.1f} s" + (f" (slowest: {slowest})" if slowest else ""))


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
