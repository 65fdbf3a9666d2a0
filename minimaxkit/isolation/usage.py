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
    """Tasks (threads of every process), resident memory in bytes (each page shared by
    processes counted in shares, as ``/proc/PID/smaps_rollup``'s ``Pss``: a forked process
    does not count twice what it shares with its parent) and processor seconds (those of
    ended children waited for included; a live process's to the nanosecond)."""

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
    tasks = memory = 0
    cpu = 0.0
    for p in below(pid):
        try:
            stat = Path(f"/proc/{p}/stat").read_bytes().rsplit(b")", 1)[1].split()
            resident = _proportional(p)
        except (OSError, IndexError, ValueError):
            continue
        # fields after the name: state is 0, so utime (14th of stat) is 11, ...
        cpu += _own_cpu(p, sum(int(v) for v in stat[11:13]) / _TICK) + \
            sum(int(v) for v in stat[13:15]) / _TICK
        tasks += int(stat[17])
        memory += resident
    return Usage(tasks, memory, cpu)


def _own_cpu(pid: int, ticks: float) -> float:
    """``pid``'s processor seconds to the nanosecond (its threads' ``schedstat``) where they
    agree with ``ticks`` (``stat``'s, in 1/100 s: its ended threads too); else ``ticks``. A
    tick is 5% of a check of 200 ms, too coarse for a verdict at 90% of a limit."""
    try:
        exact = sum(int(Path(f"/proc/{pid}/task/{t}/schedstat").read_text().split()[0])
                    for t in os.listdir(f"/proc/{pid}/task")) / 1e9
    except (OSError, IndexError, ValueError):
        return ticks
    return exact if abs(exact - ticks) < 2 / _TICK else ticks


def _proportional(pid: int) -> int:
    """The bytes ``pid`` holds in memory, its shared pages counted in shares (``Pss``);
    where the kernel has no ``smaps_rollup`` (before Linux 4.14), its resident pages."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE
