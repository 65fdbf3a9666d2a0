"""Untrusted code in a forked copy of this process under the :class:`~.rules.Rules`, its JSON
report read back through a pipe: an endless loop is killed at the time limit, and a crash, a
memory hog or a change ends with the copy. The student's own runs use it (no sandboxed child
there); without ``os.fork`` (Windows) it runs here, without a hard time limit.

>>> run_forked(lambda: 6 * 7, timeout=5)["value"]
42
>>> run_forked(lambda: 1 / 0, timeout=5)["status"]
'raised'
"""

from __future__ import annotations

import faulthandler
import gc
import json
import os
import select
import signal
import time
import warnings
from collections.abc import Callable
from typing import Any, TypedDict

from .rules import Flags, Rules, enter, failure, kill_group
from .usage import usage

__all__ = ["run_forked", "crash_message", "ForkReport"]


class ForkReport(TypedDict, total=False):
    """What a forked copy reports: ``status`` "ok" with the ``value`` returned, or why not
    ("raised", "timeout", "crashed"...) in ``message``; the rules it broke (``flags``) and
    what it printed (``printed``), where it got that far."""

    status: str
    value: Any
    message: str
    flags: Flags
    printed: str


def run_forked(fn: Callable[[], Any], *, timeout: float, rules: Rules | None = None,
               wall: float = 1.0) -> ForkReport:
    """``fn()`` (returning JSON data) in a forked copy: ``{"status": "ok", "value": ...}`` or
    ``{"status": why, "message": ...}``, with ``flags`` (rules broken) and ``printed``; at
    most ``timeout`` seconds of the copy's processor time, and ``wall`` times as many on the
    clock (so that a busy machine does not make it fail, and a wait ends)."""
    rules = rules or Rules()
    if not hasattr(os, "fork"):  # pragma: no cover - Windows: no hard time limit
        return _run(fn, rules, timeout, forked=False)
    read_fd, write_fd = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 3.12+: "process is multi-threaded, fork() may..."
        pid = os.fork()
    if pid == 0:  # the copy: never returns
        os.close(read_fd)
        _copy(fn, rules, timeout, write_fd)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + wall * timeout
    finished, used = False, 0.0
    try:
        while not finished and (left := deadline - time.monotonic()) > 0:
            if select.select([read_fd], [], [], min(left, 0.1))[0]:
                chunk = os.read(read_fd, 1 << 16)
                chunks.append(chunk)
                finished = not chunk
            elif usage(pid).cpu > timeout:  # looked at ten times a second
                break
    finally:  # also when the kernel is interrupted: never leave the copy running
        os.close(read_fd)
        if not finished:
            kill_group(pid)
        _, status, spent = os.wait4(pid, 0)
        used = spent.ru_utime + spent.ru_stime  # its threads' and waited-for children's too
    if not finished or used > timeout:
        return ForkReport(status="timeout", message=f"did not finish within {timeout:g} s")
    try:
        return ForkReport(**json.loads(b"".join(chunks)))
    except (ValueError, TypeError):
        return ForkReport(status="crashed", message=crash_message(status))


def crash_message(status: int) -> str:
    """Why a process ended without a report, from its wait status."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else sig
        if sig == signal.SIGSEGV:
            return ("crashed (segmentation fault): almost always a recursion far too deep; "
                    "does the search stop at leaves?")
        return f"crashed (killed by signal {name})"
    return f"ended without a report (exit status {os.WEXITSTATUS(status)})"


def _run(fn: Callable[[], Any], rules: Rules, timeout: float, *,
         forked: bool = True) -> ForkReport:
    """``fn()`` under the rules, here: its report."""
    flags: Flags = {}
    stream, leave = enter(rules, flags, timeout, forked=forked)
    try:
        report = ForkReport(status="ok", value=fn())
    except BaseException as err:  # anything the student code raised, SystemExit included
        report = ForkReport(**failure(err))
    finally:
        leave()
    report["flags"], report["printed"] = flags, stream.text()
    return report


def _copy(fn: Callable[[], Any], rules: Rules, timeout: float,
          write_fd: int) -> None:  # pragma: no cover - runs in the forked copy
    code = 0
    try:
        os.setpgid(0, 0)  # a group of its own: killed as one, spared the kernel's interrupts
        faulthandler.disable()  # a crash here is reported by the parent, not dumped
        gc.freeze()  # objects inherited from the kernel are never collected here
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        view = memoryview(json.dumps(_run(fn, rules, timeout)).encode())
        while view:
            view = view[os.write(write_fd, view[:1 << 16]):]
    except BaseException:
        code = 3
    finally:
        os._exit(code)
