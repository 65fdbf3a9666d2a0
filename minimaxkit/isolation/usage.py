"""What a sandbox uses, read from ``/proc``: the tasks (processes and threads), the memory
and the processor time of a process and everything below it. Linux only; elsewhere (no
``/proc``) nothing is found and nothing is counted.

>>> import os
>>> u = usage(os.getpid())
>>> u.tasks >= 1 and u.memory > 0 and u.cpu > 0
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Usage", "usage", "below"]

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Usage:
    """Tasks (threads of every process), resident memory in bytes (shared pages counted in
    each process: an upper figure) and processor seconds (those of ended children waited
    for included)."""

    tasks: int
    memory: int
    cpu: float


def below(pid: int) -> list[int]:
    """``pid`` and every process below it (from each thread's ``children``)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in Path(f"/proc/{p}/task/{task}/children")
                         .read_text().split()]
        except (OSError, ValueError):
            continue  # ended meanwhile
    return out


def usage(pid: int) -> Usage:
    """What ``pid`` and the processes below it use now."""
    tasks = memory = ticks = 0
    for p in below(pid):
        try:
            stat = Path(f"/proc/{p}/stat").read_bytes().rsplit(b")", 1)[1].split()
            rss = int(Path(f"/proc/{p}/statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        # fields after the name: state is 0, so utime (14th of stat) is 11, ...
        ticks += sum(int(v) for v in stat[11:15])
        tasks += int(stat[17])
        memory += rss * _PAGE
    return Usage(tasks, memory, ticks / _TICK)
