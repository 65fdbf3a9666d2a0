"""Tasks run N at a time, in long-lived worker processes on this machine or on a Dask cluster,
behind one small interface: ``submit`` a task, take the next one ``done`` with its result;
and a progress bar for them. A worker process that dies costs only the task it had: its
result is a :class:`WorkerDied`, and a new process takes its place.

>>> with LocalWorkers(abs, 2) as pool:
...     pool.submit(-1)
...     pool.submit(-2)
...     sorted(pool.done()[1] for _ in range(2))
[1, 2]
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import wait
from typing import Any, Protocol, TextIO

__all__ = ["Workers", "LocalWorkers", "DaskWorkers", "WorkerDied", "Progress"]


class WorkerDied(ChildProcessError):
    """The worker process running a task ended before it answered."""


class Workers(Protocol):
    """Where tasks run: ``capacity`` of them at once."""

    capacity: int

    def submit(self, task: Any) -> None:
        """Start ``task`` (at most ``capacity`` at once)."""

    def done(self) -> tuple[Any, Any]:
        """The next task finished and its result (or the exception that ended its worker)."""

    def close(self) -> None:
        """Stop the workers (those still busy too)."""


def _serve(fn: Callable[[Any], Any], conn: Any, parent: int, others: list[Any]) -> None:
    """A worker process: ``fn`` of each task sent, until ``None`` (Ctrl-C is the parent's).
    Stopped (SIGTERM), or when the parent ends however it ends, it kills every process it
    started (kernels, sandboxes) and ends. The parent's ends of the other workers' pipes,
    inherited by the fork, are closed: they would keep those workers waiting."""
    from ..isolation.bwrap import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _end)
    die_with_parent(parent, signal.SIGTERM)
    for other in others:
        other.close()
    while (task := conn.recv()) is not None:
        conn.send(fn(task))


def _end(signum: int, frame: Any) -> None:
    """A worker asked to stop: what it started goes first (a kernel in a session of its
    own would not get the signal), then the worker."""
    from ..isolation.rules import kill_others
    from ..isolation.usage import below

    kill_others(lambda: below(os.getpid())[1:])
    os._exit(128 + signum)


class LocalWorkers:
    """``n`` worker processes forked from this one (what it imported is loaded once), each
    running ``fn`` on one task at a time."""

    def __init__(self, fn: Callable[[Any], Any], n: int) -> None:
        if n < 1:
            raise ValueError(f"LocalWorkers: n must be at least 1, not {n}")
        self.fn, self.capacity = fn, n
        self.context = multiprocessing.get_context("fork")
        self.idle: list[tuple[Any, Any]] = []
        self.busy: dict[Any, tuple[Any, Any]] = {}  # connection -> (process, task)
        for _ in range(n):
            self.idle.append(self._start())

    def _start(self) -> tuple[Any, Any]:
        mine, theirs = self.context.Pipe()
        others = [c for _, c in self.idle] + list(self.busy)
        process = self.context.Process(target=_serve, daemon=True,
                                       args=(self.fn, theirs, os.getpid(), [mine, *others]))
        process.start()
        theirs.close()
        return process, mine

    def submit(self, task: Any) -> None:
        """Give ``task`` to an idle worker (at most ``capacity`` tasks at once)."""
        if not self.idle:
            raise RuntimeError(f"all {self.capacity} workers are busy: take a result first")
        process, conn = self.idle.pop()
        conn.send(task)
        self.busy[conn] = (process, task)

    def done(self) -> tuple[Any, Any]:
        """The next task finished and its result (a :class:`WorkerDied` if its worker died)."""
        conn: Any = wait(list(self.busy))[0]
        process, task = self.busy.pop(conn)
        try:
            result = conn.recv()
        except (EOFError, OSError):
            process.join(5)
            self.idle.append(self._start())
            return task, WorkerDied(f"the worker process running it died (exit code "
                                    f"{process.exitcode})")
        self.idle.append((process, conn))
        return task, result

    def close(self) -> None:
        """Idle workers are told to stop; busy ones (an interrupted run) are stopped."""
        for process, conn in self.idle:
            try:
                conn.send(None)
            except OSError:  # it died while idle (killed): nothing of a task is lost
                pass
            process.join(10)
        for process, _ in [*self.idle, *self.busy.values()]:
            if process.is_alive():
                process.terminate()
                process.join(30)
            if process.is_alive():  # its handler did not run: stuck in C code
                process.kill()
                process.join()

    def __enter__(self) -> LocalWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class DaskWorkers:
    """``fn`` of each task on the Dask cluster at ``address`` (``fn`` must be importable
    there); a task whose worker died comes back as the exception Dask gives it. With
    ``one_thread``, every worker must run one task at a time (``dask worker --nthreads 1``)."""

    def __init__(self, fn: Callable[[Any], Any], address: str, *,
                 one_thread: bool = False) -> None:
        from distributed import Client, as_completed  # the "tournament" extra

        self.fn = fn
        self.client = Client(address)
        threads = self.client.nthreads()
        if one_thread and (more := sorted(w for w, n in threads.items() if n != 1)):
            self.client.close()
            raise ValueError(f"Dask workers {', '.join(more)} run more than one thread: start "
                             "them with dask worker --nthreads 1")
        self.capacity = sum(threads.values()) + 1
        self.finished = as_completed()
        self.tasks: dict[Any, Any] = {}

    def submit(self, task: Any) -> None:
        """Send ``task`` to the cluster."""
        future = self.client.submit(self.fn, task, pure=False)
        self.tasks[future.key] = task
        self.finished.add(future)

    def done(self) -> tuple[Any, Any]:
        """The next task finished and its result, or the exception Dask gives it."""
        future = next(self.finished)
        task = self.tasks.pop(future.key)
        return task, future.result() if future.status == "finished" else future.exception()

    def close(self) -> None:
        """Close the client (the cluster's workers stay)."""
        self.client.close()


class Progress(logging.Handler):
    """A bar on ``out`` with the counts and the slowest task so far (plain lines when ``out``
    is not a terminal); :meth:`say` writes a line above it, and so does a log record of a
    logger it is a handler of."""

    def __init__(self, total: int, out: TextIO, *, noun: str = "done") -> None:
        super().__init__(logging.WARNING)
        self.total, self.out, self.noun, self.tty = total, out, noun, out.isatty()
        self.ok = self.failed = 0
        self.slowest: tuple[float, str] = (0.0, "")
        self.start = time.perf_counter()

    def line(self) -> str:
        """The counts, the seconds so far and the slowest task, in one line."""
        seconds, who = self.slowest
        return (f"{self.ok + self.failed}/{self.total} done"
                + (f": {self.ok} {self.noun}, {self.failed} failed" if self.failed else
                   f", {self.noun}")
                + f", {time.perf_counter() - self.start:.0f} s"
                + (f"; slowest so far: {who} {seconds:.1f} s" if who else ""))

    def draw(self) -> None:
        """Redraw the bar (on a terminal; elsewhere only flush)."""
        if self.tty:
            filled = 24 * (self.ok + self.failed) // max(self.total, 1)
            self.out.write(f"\r[{'#' * filled}{'.' * (24 - filled)}] {self.line()}\x1b[K")
        self.out.flush()

    def emit(self, record: logging.LogRecord) -> None:
        """A log record as a line above the bar."""
        self.say(f"[{record.levelname}] {record.getMessage()}")

    def say(self, text: str) -> None:
        """Write ``text`` as a line above the bar."""
        self.out.write(("\r\x1b[K" if self.tty else "") + text + "\n")
        self.draw()

    def done(self, name: str, seconds: float, ok: bool) -> None:
        """``name`` took ``seconds``, and succeeded or not."""
        self.ok += ok
        self.failed += not ok
        if ok:
            self.slowest = max(self.slowest, (seconds, name))
        if not self.tty:
            self.out.write(f"{name} ({seconds:.1f} s): {self.line()}\n")
        self.draw()

    def end(self) -> None:
        """End the bar's line (on a terminal)."""
        if self.tty:
            self.out.write("\n")
