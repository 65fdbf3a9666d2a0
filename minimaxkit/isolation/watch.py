"""A sandbox watched from outside while it runs: what a process and all below it use
(:mod:`.usage`), held to the sandbox's bounds, and the student's words when it goes over one.

Two watchers share the bounds (:func:`over_bounds`): :class:`Watch`, a thread that looks every
:data:`WATCH` seconds and kills the process group on its own (the autograde kernel is watched
so), and :class:`ChildWatch`, which a :class:`~.session.Session` asks between the messages of
its child, and which also keeps the child's processor time (a test's limit, the time it used
while idle).

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
import math
import os
import signal
import threading
import time

from .bwrap import KERNEL_TASKS
from .failures import ChildTimedOut, SandboxStopped
from .usage import Usage, usage

__all__ = ["Watch", "ChildWatch", "over_bounds", "SANDBOX_MEMORY", "IDLE_CPU", "WATCH",
           "BUSY", "TOO_BIG", "TOO_MANY"]

SANDBOX_MEMORY = 3 << 30  # bytes resident in all of a sandbox's processes together
IDLE_CPU = 2.0  # processor seconds a sandbox may use between two tests (it should use none)
WATCH = 0.5  # seconds between two looks at a working sandbox's memory
BUSY = ("the notebook's code kept the processor busy between tests (a thread or process it "
        "left running), so it was stopped")
TOO_BIG = ("the notebook's code held more memory than allowed in all its processes together "
           "({} MB), so it was stopped")
TOO_MANY = ("the notebook's code started too many processes and threads (at most {} at once "
            "in all), so it was stopped")


def over_bounds(used: Usage, *, memory: int, tasks: int) -> str:
    """Why a sandbox that uses ``used`` must be stopped: over ``memory`` bytes in all, or at
    ``tasks`` tasks (processes and threads); "" when it is within its bounds.

    >>> over_bounds(Usage(tasks=3, memory=5 << 20, cpu=0.1), memory=4 << 20, tasks=64)[:44]
    "the notebook's code held more memory than al"
    >>> over_bounds(Usage(tasks=3, memory=1 << 20, cpu=0.1), memory=4 << 20, tasks=64)
    ''
    """
    if used.memory > memory:
        return TOO_BIG.format(memory >> 20)
    if used.tasks >= tasks:
        return TOO_MANY.format(tasks)
    return ""


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
        """Start the watching thread (none when the process could not be held); this watch."""
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
                why = over_bounds(usage(self.pid), memory=self.memory, tasks=self.tasks)
                if why:
                    self._stop(why)
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


class ChildWatch:
    """The watch on one running child of a session, asked between its messages: its memory
    and tasks held to their bounds, a test's processor limit, and the processor time the
    child used while it should have been idle (a thread left burning between tests)."""

    def __init__(self, pid: int, *, memory: int = SANDBOX_MEMORY,
                 tasks: int = KERNEL_TASKS) -> None:
        self.pid, self.memory, self.tasks = pid, memory, tasks
        self.quiet = math.inf  # processor seconds when it last fell idle (none yet: starting)
        self.cpu_stop = math.inf  # processor seconds at which the working test stops
        self._looked = 0.0  # when it was last looked at

    def look(self, *, every: float = WATCH) -> None:
        """At most every ``every`` seconds, a look at the child while it works:
        :class:`~.failures.SandboxStopped` over its bounds (where no process limit binds,
        root, the tasks' bound is this look's), :class:`~.failures.ChildTimedOut` past the
        test's processor limit."""
        now = time.monotonic()
        if now - self._looked < every:
            return
        self._looked = now
        used = usage(self.pid)
        if why := over_bounds(used, memory=self.memory, tasks=self.tasks):
            raise SandboxStopped(why)
        if used.cpu > self.cpu_stop:
            raise ChildTimedOut()

    def cpu(self) -> float:
        """The processor seconds of the child and all it started (its threads, and children it
        waited for, included). Load does not change it much, as it would a clock on the wall.
        Read until two readings agree: one taken while a worker ends can miss its time (its
        parent not yet credited, its own entry gone)."""
        last = usage(self.pid).cpu
        for _ in range(40):
            time.sleep(0.005)
            now = usage(self.pid).cpu
            if abs(now - last) < 0.001:
                return now
            last = now
        return last

    def fall_idle(self) -> float:
        """Note the child's processor time as it falls idle (a cell or a test done: no test's
        limit binds now); that time."""
        self.cpu_stop = math.inf
        self.quiet = self.cpu()
        return self.quiet

    def begin_test(self, timeout: float, *, stop: bool) -> float:
        """A test begins: :class:`~.failures.SandboxStopped` (:data:`BUSY`) if the child used
        more than :data:`IDLE_CPU` processor seconds while idle; with ``stop``, its
        processor time past ``timeout`` from now stops the test (:meth:`look`). The child's
        processor seconds now."""
        now = self.cpu()
        if now - self.quiet > IDLE_CPU:
            raise SandboxStopped(BUSY)
        self.cpu_stop = now + timeout if stop else math.inf
        return now

    def idle_problem(self) -> str:
        """Why a child kept idle must be stopped now (over its memory, or busy), or ""."""
        used = usage(self.pid)
        if used.memory > self.memory:
            return TOO_BIG.format(self.memory >> 20)
        if used.cpu - self.quiet > IDLE_CPU:
            return BUSY
        return ""
