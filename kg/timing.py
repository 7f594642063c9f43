"""Timing a build: wall and CPU seconds and memory of each stage, and handing freed memory back.

:class:`Clock` times consecutive stages (this process and its children) and reports each
:class:`Stage` as it ends; :func:`release_memory` returns freed heap pages to the system
between stages, so that a stage's freed memory lowers the build's footprint;
:func:`collection_paused` keeps the cyclic garbage collector out of a burst of allocations.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["Stage", "Clock", "release_memory", "collection_paused"]


@dataclass(frozen=True)
class Stage:
    """One stage of a build: wall and CPU seconds, resident memory at its end and peak so far."""

    name: str
    wall: float
    cpu: float
    rss_mb: float
    peak_mb: float

    def line(self) -> str:
        if self.cpu != self.cpu:  # NaN: a step inside a stage, timed by wall clock only
            return f"  step {self.name}: {self.wall:.1f} s"
        return (f"stage {self.name}: {self.wall:.1f} s wall, {self.cpu:.1f} s CPU, "
                f"RSS {self.rss_mb:.0f} MB, peak {self.peak_mb:.0f} MB")


class Clock:
    """Times consecutive stages (wall, CPU of this process and its children, memory)."""

    def __init__(self, on_stage: Callable[[Stage], None] | None):
        self.on_stage = on_stage
        self.stages: list[Stage] = []
        self._wall, self._cpu = time.perf_counter(), self._cpu_now()

    @staticmethod
    def _cpu_now() -> float:
        mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime

    @staticmethod
    def _rss_mb() -> float:
        try:
            with open("/proc/self/statm") as handle:
                return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (OSError, ValueError, IndexError):
            return 0.0

    def lap(self, name: str) -> None:
        wall, cpu = time.perf_counter(), self._cpu_now()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        stage = Stage(name, round(wall - self._wall, 3), round(cpu - self._cpu, 3),
                      round(self._rss_mb(), 1), round(peak, 1))
        self.stages.append(stage)
        self._wall, self._cpu = wall, cpu
        if self.on_stage:
            self.on_stage(stage)


def release_memory(*, collect: bool = True) -> None:
    """Collect garbage (unless ``collect`` is false: what was dropped had no cycles) and hand
    freed heap pages back to the system (glibc's malloc_trim), so that a stage's freed memory
    lowers the build's footprint, not only its own."""
    if collect:
        gc.collect()
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the memory is reused, just not returned
        pass


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (afterwards as before).

    Building a graph part of tens of thousands of nodes and edges sets off generation-2
    collections that walk every object made so far: 0.3-0.5 s of the 2,000-node page of an ACM-CR
    community drawn from the index (a third of its work). What the block makes and drops is still
    freed at once by reference counting; only cycles wait for the next collection after it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
