"""A sandbox watched from outside while it runs: a thread looks at what a process and all below
it use (:mod:`.usage`) every :data:`~.session.WATCH` seconds and stops them all when their
memory together is over its bound or they hold as many tasks (processes and threads) as
allowed, saying why (:attr:`Watch.stopped`). The autograde kernel is watched so; a
:class:`~.session.Session` looks at its own child between messages.

>>> import subprocess, sys
>>> hog = "b = bytearray(b'x') * (64 << 20); import time; time.sleep(60)"
>>> proc = subprocess.Popen([sys.executable, "-c", hog], start_new_session=True)
>>> with Watch(proc.pid, memory=32 << 20, every=0.05) as watch:
...     proc.wait(60)
-9
>>> watch.stopped.endswith("in all its processes together (32 MB), so it was stopped")
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

from .bwrap import KERNEL_TASKS
from .session import SANDBOX_MEMORY, TOO_BIG, TOO_MANY, WATCH
from .usage import usage

__all__ = ["Watch", "TOO_MANY"]


class Watch:
    """Watch process ``pid`` and everything below it (a sandbox): over ``memory`` bytes
    resident in all, or at ``tasks`` tasks, all of it is killed, and :attr:`stopped` says
    why. Use it in a ``with`` (or :meth:`start`, then :meth:`close`)."""

    def __init__(self, pid: int, *, memory: int = SANDBOX_MEMORY, tasks: int = KERNEL_TASKS,
                 every: float = WATCH) -> None:
        self.pid, self.memory, self.tasks, self.every = pid, memory, tasks, every
        self.stopped = ""
        self._done, self._lock = threading.Event(), threading.Lock()
        self._thread = threading.Thread(target=self._run, name="minimaxkit-watch", daemon=True)
        try:  # a handle on this very process: its pid may be reused once it is reaped
            self._handle: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):  # gone already, or no pidfd (not Linux 5.3+)
            self._handle = None

    def start(self) -> Watch:
        if self._handle is not None:
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop watching (the process is left as it is)."""
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()
        with self._lock:
            if self._handle is not None:
                os.close(self._handle)
                self._handle = None

    def __enter__(self) -> Watch:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self) -> str:
        """Look now (as the thread does every ``every`` seconds), stop the process if it is
        over a bound: why it was stopped, "" if it was not."""
        with self._lock:
            if not self.stopped and self._handle is not None and not self._done.is_set():
                used = usage(self.pid)
                if used.memory > self.memory:
                    self._stop(TOO_BIG.format(self.memory >> 20))
                elif used.tasks >= self.tasks:
                    self._stop(TOO_MANY.format(self.tasks))
            return self.stopped

    def _run(self) -> None:
        while not self._done.wait(self.every) and not self.check():
            pass

    def _stop(self, why: str) -> None:
        """Kill the process (by its handle: never another one given its pid since) and its
        process group; a sandbox's PID namespace ends with it."""
        assert self._handle is not None
        try:
            signal.pidfd_send_signal(self._handle, signal.SIGKILL)
        except ProcessLookupError:  # it ended by itself
            self._done.set()
            return
        self.stopped = why
        # still ours (unreaped at least), so the group it leads, if any, is its own
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
