"""A submission's cells in a sandboxed child (:mod:`.child`), seen from the trusted side: a
:class:`Session` runs the cells one by one and opens a :class:`Worker` per test. A malformed
message, a child that ends or does not answer in time is the submission's failure
(:class:`ChildFailed`): the child is stopped, and a fresh one runs the cells again.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import resource
import select
import shutil
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from . import bwrap
from .enter import copy_regular
from .protocol import ProtocolError, read
from .rules import Rules, kill_group, search_masks
from .usage import usage

__all__ = ["Session", "Worker", "ChildFailed", "cell_label", "function_problem", "EXEC_TIMEOUT",
           "CELL_GRACE", "INTERFERED", "SANDBOX_MEMORY", "IDLE_CPU", "BUSY", "TOO_BIG",
           "NOTEBOOK_TIME", "READY", "TOO_MANY"]

EXEC_TIMEOUT = 60.0  # seconds a cell may run in the child (nbgrader's Execute.timeout)
#: seconds all of a notebook's cells may run together (in the kernel, and in a session's
#: child, restarts included): past them the rest are not run
NOTEBOOK_TIME = 300.0
READY = 10.0  # seconds a test's worker may take to start (it computes nothing yet)
CELL_GRACE = 5.0  # seconds more before a cell that ignores its interrupt is given up
MAX_RESTARTS = 8  # cells left out (hung or ending the child) before the rest is not run
INTERFERED = "the notebook's code interfered with the grader"
SANDBOX_MEMORY = 3 << 30  # bytes resident in all of a sandbox's processes together
IDLE_CPU = 2.0  # processor seconds a sandbox may use between two tests (it should use none)
WATCH = 0.5  # seconds between two looks at a working sandbox's memory
BUSY = ("the notebook's code kept the processor busy between tests (a thread or process it "
        "left running), so it was stopped")
TOO_BIG = ("the notebook's code held more memory than allowed in all its processes together "
           "({} MB), so it was stopped")
TOO_MANY = ("the notebook's code started too many processes and threads (at most {} at once "
            "in all), so it was stopped")
_FINAL = ("return", "iterator", "item", "stop", "raised", "crashed")
_SANDBOXES = itertools.count(1)  # sandboxes started in this process: each its own user


class ChildFailed(Exception):
    """The child broke the protocol: ``status`` is ``"timeout"``, ``"crashed"`` (it ended) or
    ``"protocol"`` (a message broke the schema)."""

    def __init__(self, status: str, message: str = "") -> None:
        super().__init__(message or status)
        self.status, self.message = status, message


def cell_label(src: str) -> str:
    """How messages name a cell: its first line of code, shortened.

    >>> cell_label("\\n%%time\\nfor d in range(9):\\n    pass")
    'the cell that starts "%%time"'
    """
    first = next((ln.strip() for ln in src.splitlines() if ln.strip()), "")
    first = first if len(first) <= 40 else first[:37] + "..."
    return f'the cell that starts "{first}"' if first else "an empty cell"


def function_problem(name: str, kind: str | None) -> str:
    """Why ``name`` (``kind``: "callable", a type's name, None if undefined) cannot be graded
    as a function; "" when it can.

    >>> function_problem("alphabeta", None)
    "no function named 'alphabeta' is defined: did you rename it or skip its cell?"
    >>> function_problem("alphabeta", "int")
    "'alphabeta' is a int, not a function"
    """
    if kind is None:
        return f"no function named {name!r} is defined: did you rename it or skip its cell?"
    return "" if kind == "callable" else f"{name!r} is a {kind}, not a function"


class Session:
    """The cells of the submission in ``folder`` in a sandboxed child whose workers the module
    ``worker`` makes, under ``rules``. A cell that will not stop within ``cell_timeout``, ends
    the child or breaks the protocol is left out; a new child runs the cells before it."""

    def __init__(self, folder: str | os.PathLike[str], *, worker: str,
                 course_root: Path | None = None, hidden_files: Iterable[Path] = (),
                 cell_timeout: float = EXEC_TIMEOUT, rules: Rules | None = None,
                 memory: int = SANDBOX_MEMORY, notebook_time: float = NOTEBOOK_TIME) -> None:
        self.folder = Path(folder).resolve()
        self.notebook_time = notebook_time  # seconds for all the cells (NOTEBOOK_TIME)
        self.memory = memory  # bytes resident in all the sandbox's processes together
        self.worker_module, self.rules = worker, rules or Rules()
        self.course_root, self.hidden_files = course_root, list(hidden_files)
        self.cell_timeout = float(cell_timeout)
        self.cells: list[tuple[str, str]] = []
        self.names: dict[str, str] = {}
        self.problems: list[str] = []
        self.sandboxed = False
        self.proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self._scratch: str | None = None
        self._restarts = 0
        self._quiet = 0.0  # the sandbox's processor seconds when it last fell idle
        self._watched = 0.0  # when its memory was last looked at
        self._cpu_stop = math.inf  # the processor seconds at which the working test stops
        self.stopped = ""  # why it was stopped while idle (check_idle), said at its next use
        self._ran = 0.0  # seconds the cells have run in all (replays after a restart too)

    def start(self) -> None:
        """Start the child (if it is not running) and replay the cells run so far."""
        if self.proc is not None:
            return
        cmd = [sys.executable, "-m", "minimaxkit.isolation.child", self.worker_module,
               self.rules.to_json()]
        self.sandboxed = bwrap.available()
        self._scratch = tempfile.mkdtemp(prefix="minimaxkit-child-")
        # removed by close, or at the latest when this process ends (a session never closed)
        weakref.finalize(self, shutil.rmtree, self._scratch, True)
        self._quiet = math.inf  # starting: nothing to compare until it first falls idle
        self._cpu_stop = math.inf
        # a user of its own among all the sandboxes this process keeps, not this session's
        uid = bwrap.sandbox_uid(next(_SANDBOXES)) if self.sandboxed else None
        if self.sandboxed:
            masks = search_masks(Path(self._scratch)) if self.rules.refuse_searches else []
            env = {**bwrap.sandbox_env(NBGRADER_EXECUTION="autograde", MINIMAXKIT_PIDNS="1",
                                       MPLBACKEND="Agg", PYTHONHASHSEED="0"), **bwrap.ONE_THREAD}
            cmd = bwrap.sandbox_argv(cmd, workdir=self.folder, course_root=self.course_root,
                                     scratch=True, hidden_files=self.hidden_files,
                                     masks=masks, environ=env, uid=uid)
            cwd = self.folder
        else:
            cwd = Path(self._scratch) / "work"
            cwd.mkdir()
            copy_regular(self.folder, cwd)
            env = {**bwrap.plain_env(NBGRADER_EXECUTION="autograde", MINIMAXKIT_SANDBOXED="1",
                                     MPLBACKEND="Agg", PYTHONHASHSEED="0"), **bwrap.ONE_THREAD}
        tasks = bwrap.SANDBOX_TASKS if uid is not None else bwrap.PROCESS_LIMIT
        cpu = resource.RLIM_INFINITY if self.rules.exact_clock else bwrap.CPU_LIMIT
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=cwd, env=env, start_new_session=True,
            preexec_fn=lambda: bwrap.limit_resources(processes=tasks, cpu=cpu))
        self._buf = b""
        replay, self.cells = self.cells, []
        for label, src in replay:
            if self._ran > self.notebook_time or not self._exec(label, src, replaying=True):
                break

    def close(self) -> None:
        """End the child and all it started; remove its scratch folder."""
        if self.proc is not None:
            kill_group(self.proc.pid)
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError, ValueError):  # a child that died
                        stream.close()  # mid-write leaves a broken pipe: nothing to flush
            self.proc = None
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the child is gone: recv says so

    def recv(self, expected: Collection[str], deadline: float) -> tuple[str, Any]:
        """The next message, checked: one of ``expected`` before ``deadline``."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            now = time.monotonic()
            left = deadline - now
            if left <= 0:
                raise ChildFailed("timeout")
            if len(self._buf) > (4 << 20):
                raise ChildFailed("protocol", INTERFERED + " (it sent far too much data)")
            if now - self._watched >= WATCH:
                self._watched = now
                now_used = usage(self.proc.pid)
                if now_used.memory > self.memory:
                    raise ChildFailed("crashed", TOO_BIG.format(self.memory >> 20))
                if now_used.tasks >= bwrap.KERNEL_TASKS:  # where no process limit binds (root)
                    raise ChildFailed("crashed", TOO_MANY.format(bwrap.KERNEL_TASKS))
                if now_used.cpu > self._cpu_stop:
                    raise ChildFailed("timeout")
            ready, _, _ = select.select([fd], [], [], min(left, WATCH))
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise ChildFailed("crashed", "the grading process ended without a report: "
                                      "did the notebook's code end the process (os._exit)?")
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return read(line, expected)
        except ProtocolError as err:
            raise ChildFailed("protocol", f"{INTERFERED} (it wrote {err} to the grader's "
                                          "channel)") from None

    def run_cell(self, src: str, label: str = "") -> None:
        """Run one cell in the child; ``label`` names it in messages (default: its first line)."""
        if self._restarts > MAX_RESTARTS:
            if "too often" not in "".join(self.problems):
                self.problems.append("the notebook's cells stopped the grading process too "
                                     "often: the rest of its cells were not run")
            return
        if self._ran > self.notebook_time:
            said = f"the notebook's cells ran longer than {self.notebook_time:g} s in all"
            if not any(p.startswith(said) for p in self.problems):
                self.problems.append(f"{said}: the rest of its cells were not run")
            return
        self._exec(label or cell_label(src), src)

    def _exec(self, label: str, src: str, *, replaying: bool = False) -> bool:
        self.start()
        began = time.monotonic()
        # no new cell past the notebook's time in all (a second at least); a cell run again
        # after a restart ran before, and its definitions are needed: its own limit
        timeout = self.cell_timeout if replaying else \
            min(self.cell_timeout, max(1.0, self.notebook_time - self._ran))
        deadline = began + timeout + CELL_GRACE
        self.send({"op": "exec", "cell": src, "label": label, "timeout": timeout})
        try:
            _, done = self.recv(("done",), deadline)
        except ChildFailed as err:
            self.close()
            self.names = {}
            if err.status == "timeout":
                problem = (f"{label} ran longer than {round(timeout, 2):g} s and did not stop "
                           "when interrupted: it was left out, and the cells before it were "
                           "run again")
            elif err.status == "protocol":
                problem = f"{label}: {err.message}; it was left out"
            elif err.message in (TOO_BIG.format(self.memory >> 20),
                                 TOO_MANY.format(bwrap.KERNEL_TASKS)):
                problem = (f"{label}: {err.message}; it was left out, and the cells before it "
                           "were run again")
            else:
                problem = (f"{label} ended the grading process (os._exit? out of memory?): it "
                           "was left out, and the cells before it were run again")
            if not replaying:
                self.problems.append(problem)
            self._restarts += 1
            if not replaying and self._restarts <= MAX_RESTARTS:
                self.start()  # the cells before it again: their names are there to grade
            return False
        self._ran += time.monotonic() - began
        if not done["interrupted"]:  # a cell that ran out of time is not run again
            self.cells.append((label, src))
        if not replaying:
            self.problems += done["problems"]
        self.names = dict(done["names"])
        self.idle()
        return True

    def idle(self) -> float:
        """Note the sandbox's processor time as it falls idle (a cell or test done: no test's
        processor limit stops it now); that time."""
        self._cpu_stop = math.inf
        if self.proc is not None:
            self._quiet = self.cpu()
        return self._quiet

    def cpu(self) -> float:
        """The processor seconds of the running child and all it started (its threads, and
        children it waited for, included); 0 when none runs. Load does not change it much, as
        it would a clock on the wall. Read until two readings agree: one taken while a worker
        ends can miss its time (its parent not yet credited, its own entry gone)."""
        if self.proc is None:
            return 0.0
        last = usage(self.proc.pid).cpu
        for _ in range(40):
            time.sleep(0.005)
            now = usage(self.proc.pid).cpu
            if abs(now - last) < 0.001:
                return now
            last = now
        return last

    def worker(self, timeout: float, *, wall: float = 1.0, stop: bool = False) -> Worker:
        """A worker for one test of at most ``timeout`` processor seconds and ``wall`` times
        as many seconds in all (0: each request's own limit counts; use it in a ``with``; its
        processor seconds are :attr:`Worker.used` once ended); with ``stop``, the sandbox's
        processor time past ``timeout`` stops it too (looked at every :data:`WATCH` s). A
        sandbox that used the processor while idle is stopped first (:data:`BUSY`), and one
        stopped while idle says why (:meth:`check_idle`)."""
        if self.stopped:
            why, self.stopped = self.stopped, ""
            self.close()
            raise ChildFailed("crashed", why)
        self.start()
        assert self.proc is not None
        if (now := self.cpu()) - self._quiet > IDLE_CPU:
            self.close()
            raise ChildFailed("crashed", BUSY)
        self._cpu_stop = now + timeout if stop else math.inf
        return Worker(self, time.monotonic() + wall * timeout if wall else math.inf, timeout,
                      now)

    def check_idle(self) -> str:
        """A look at a sandbox kept between tests (by a keeper's thread, never while it is in
        use): one whose processes hold more memory than allowed, or use the processor, is
        stopped at once (not at its next test), and its next use says why."""
        if self.proc is None or self.stopped:
            return self.stopped
        now = usage(self.proc.pid)
        if now.memory > self.memory:
            self.stopped = TOO_BIG.format(self.memory >> 20)
        elif now.cpu - self._quiet > IDLE_CPU:
            self.stopped = BUSY
        if self.stopped:
            kill_group(self.proc.pid)
        return self.stopped


class Worker:
    """One test's worker in the child: :meth:`request` until done, then :meth:`end`."""

    def __init__(self, session: Session, deadline: float, timeout: float,
                 cpu: float = 0.0) -> None:
        """``cpu``: the sandbox's processor seconds as it begins."""
        self.session, self.deadline, self.cpu = session, deadline, cpu
        self.used = 0.0  # the sandbox's processor seconds from begin to end, once ended
        self.ended: dict[str, Any] | None = None
        session.send({"op": "begin", "timeout": timeout})
        try:  # a worker that takes longer to be ready was kept from it by the notebook's code
            self._guard(lambda: session.recv(("ready", "crashed"), self._soon(READY)),
                        expect="ready")
        except ChildFailed as err:
            if err.status != "timeout":
                raise
            raise ChildFailed("timeout", f"its worker did not start within {READY:g} s (did "
                                         "the notebook's code make it wait?)") from None

    def _soon(self, seconds: float = EXEC_TIMEOUT) -> float:
        """The deadline of a step that takes no student time (start, end)."""
        return min(self.deadline, time.monotonic() + seconds)

    def _guard(self, step: Callable[[], tuple[str, Any]], expect: str = "") -> tuple[str, Any]:
        try:
            kind, payload = step()
        except BaseException:  # out of step with the child: never reuse it
            self.session.close()
            raise
        if kind == "crashed" or (expect and kind != expect):
            self.session.close()
            raise ChildFailed("crashed", str(payload))
        return kind, payload

    def request(self, msg: dict[str, Any], answer: Callable[[Any], Any] | None = None, *,
                timeout: float | None = None) -> tuple[str, Any]:
        """Send ``msg`` and answer the worker's questions with ``answer`` (which raises
        ``ProtocolError`` for a malformed one) until its reply, within ``timeout`` seconds."""
        self.send(msg)
        return self.receive(answer, timeout=timeout)

    def send(self, msg: dict[str, Any]) -> None:
        """Send a request without waiting for its reply: the worker answers requests in the
        order they were sent, so the caller may compute while it works, and read each reply
        with :meth:`receive`."""
        self.session.send(msg)

    def receive(self, answer: Callable[[Any], Any] | None = None, *,
                timeout: float | None = None) -> tuple[str, Any]:
        """The reply to the oldest request not yet received, within ``timeout`` seconds; the
        worker's questions meanwhile are answered with ``answer`` (see :meth:`request`)."""
        session = self.session
        deadline = self.deadline if timeout is None else \
            min(self.deadline, time.monotonic() + timeout)

        def step() -> tuple[str, Any]:
            while True:
                kind, payload = session.recv(("ask", *_FINAL), deadline)
                if kind != "ask":
                    return kind, payload
                if answer is None:
                    raise ChildFailed("protocol", INTERFERED + " (an unexpected question)")
                try:
                    reply = answer(payload)
                except ProtocolError as err:
                    raise ChildFailed("protocol", f"{INTERFERED} ({err})") from None
                session.send(reply)
        return self._guard(step)

    def end(self) -> dict[str, Any]:
        """End the worker; what it noted (flags, printed, notes)."""
        if self.ended is None:
            self.session.send({"op": "end"})
            self.ended = self._guard(lambda: self.session.recv(("ended", "crashed"),
                                                               self._soon() + 1.0),
                                     expect="ended")[1]
            self.used = self.session.idle() - self.cpu
        return self.ended

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.ended is None and self.session.proc is not None:
            with contextlib.suppress(ChildFailed):
                self.end()
