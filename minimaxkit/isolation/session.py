"""A submission's cells in a sandboxed child (:mod:`.child`), seen from the trusted side: a
:class:`Session` runs the cells one by one and opens a :class:`Worker` per test. It is made of
named parts, each readable alone:

- the launcher (:mod:`.launcher`) starts the child under its limits and stops it;
- the channel (:class:`~.protocol.ParentChannel`) writes requests and reads checked replies;
- the watch (:class:`~.watch.ChildWatch`) holds the child to its bounds between messages;
- the cell policy (:class:`~.cells.CellPolicy`) decides which cells run, and replays them in a
  new child when one was left out, in the student's words.

A malformed message, a child that ends or does not answer in time is the submission's failure
(a :class:`~.failures.ChildFailed` of the kind that happened): the child is stopped, and a
fresh one runs the cells again.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any, TypedDict, Unpack

from . import bwrap
from .cells import (
    CELL_GRACE,
    EXEC_TIMEOUT,
    MAX_RESTARTS,
    NOTEBOOK_TIME,
    Cell,
    CellPolicy,
    cell_label,
    function_problem,
)
from .failures import (
    INTERFERED,
    ChannelBroken,
    ChildEnded,
    ChildFailed,
    ChildTimedOut,
    SandboxStopped,
)
from .launcher import ChildSpec, RunningChild, launch
from .protocol import FINAL, Begin, Done, End, Ended, Exec, ProtocolError, Reply
from .rules import Rules
from .watch import BUSY, IDLE_CPU, SANDBOX_MEMORY, TOO_BIG, TOO_MANY, WATCH, ChildWatch

__all__ = ["Session", "SessionOptions", "Worker", "ChildFailed", "cell_label",
           "function_problem", "EXEC_TIMEOUT", "CELL_GRACE", "INTERFERED", "SANDBOX_MEMORY",
           "IDLE_CPU", "BUSY", "TOO_BIG", "NOTEBOOK_TIME", "READY", "TOO_MANY", "MAX_RESTARTS",
           "WATCH"]

READY = 10.0  # seconds a test's worker may take to start (it computes nothing yet)


class SessionOptions(TypedDict, total=False):
    """A session's options beside its folder and worker module."""

    #: the course's folder, hidden from the child (an empty, read-only folder in its place)
    course_root: Path | None
    #: files hidden from the child (the course's secret)
    hidden_files: Iterable[Path]
    #: seconds a cell may run (:data:`~.cells.EXEC_TIMEOUT`)
    cell_timeout: float
    #: what the child's tests may not do (:class:`~.rules.Rules`)
    rules: Rules | None
    #: bytes resident in all the sandbox's processes together (:data:`~.watch.SANDBOX_MEMORY`)
    memory: int
    #: seconds for all the cells, replays included (:data:`~.cells.NOTEBOOK_TIME`)
    notebook_time: float


class Session:
    """The cells of the submission in ``folder`` in a sandboxed child whose workers the module
    ``worker`` makes (:class:`SessionOptions` for the rest). A cell that will not stop within
    its time, ends the child or breaks the protocol is left out; a new child runs the cells
    before it."""

    def __init__(self, folder: str | Path, *, worker: str,
                 **options: Unpack[SessionOptions]) -> None:
        self.spec = ChildSpec(Path(folder).resolve(), worker,
                              options.get("rules") or Rules(), options.get("course_root"),
                              tuple(options.get("hidden_files", ())))
        self.policy = CellPolicy(cell_timeout=options.get("cell_timeout", EXEC_TIMEOUT),
                                 notebook_time=options.get("notebook_time", NOTEBOOK_TIME))
        self.memory = options.get("memory", SANDBOX_MEMORY)
        self.names: dict[str, str] = {}  # the notebook's names: "callable" or a type's name
        self.sandboxed = False  # whether the last child started runs in bubblewrap
        self.stopped = ""  # why it was stopped while idle (check_idle), said at its next use
        self.child: RunningChild | None = None
        self.watch: ChildWatch | None = None
        self._quiet = 0.0  # the processor seconds when the last child fell idle

    # ----- what others read ------------------------------------------------------------------
    @property
    def proc(self) -> Any:
        """The running child's process (a ``subprocess.Popen``), or None."""
        return self.child.proc if self.child is not None else None

    @property
    def problems(self) -> list[str]:
        """What went wrong with the cells, in the student's words (a caller may take them
        and put an empty list back)."""
        return self.policy.problems

    @problems.setter
    def problems(self, value: list[str]) -> None:
        self.policy.problems = value

    @property
    def cell_timeout(self) -> float:
        """Seconds a cell may run."""
        return self.policy.cell_timeout

    @property
    def notebook_time(self) -> float:
        """Seconds all the cells may run together."""
        return self.policy.notebook_time

    # ----- the child's life ------------------------------------------------------------------
    def start(self) -> None:
        """Start the child (if it is not running) and replay the cells run so far."""
        if self.child is not None:
            return
        self.child = launch(self.spec)
        self.sandboxed = self.child.sandboxed
        self.watch = ChildWatch(self.child.pid, memory=self.memory, tasks=bwrap.KERNEL_TASKS)
        for cell in self.policy.to_replay():
            if not self.policy.may_replay() or not self._exec(cell, replaying=True):
                break

    def close(self) -> None:
        """End the child and all it started; remove its scratch folder."""
        if self.child is not None:
            self.child.stop()
            self.child = self.watch = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- the channel -----------------------------------------------------------------------
    def send(self, msg: Any) -> None:
        """Write one request to the running child."""
        assert self.child is not None
        self.child.channel.send(msg)

    def recv(self, expected: Collection[str], deadline: float) -> Reply:
        """The next message, checked: one of ``expected`` before ``deadline``, the child
        watched meanwhile (:class:`~.watch.ChildWatch`)."""
        assert self.child is not None and self.watch is not None
        return self.child.channel.recv(expected, deadline, look=self.watch.look, every=WATCH)

    # ----- cells -----------------------------------------------------------------------------
    def run_cell(self, src: str, label: str = "") -> None:
        """Run one cell in the child; ``label`` names it in messages (default: its first line).
        Past the notebook's time, or after too many cells were left out, it is not run (and
        :attr:`problems` says so once)."""
        if not self.policy.refusal():
            self._exec(Cell(label or cell_label(src), src))

    def _exec(self, cell: Cell, *, replaying: bool = False) -> bool:
        """Run ``cell``; False when it was left out (the child is then replaced, unless this
        was a replay or the cells failed it too often)."""
        self.start()
        began = time.monotonic()
        timeout = self.policy.timeout(replaying=replaying)
        self.send(Exec(op="exec", cell=cell.source, label=cell.label, timeout=timeout))
        try:
            done: Done = self.recv(("done",), began + timeout + CELL_GRACE)[1]
        except ChildFailed as err:
            self.close()
            self.names = {}
            self.policy.left_out(cell.label, err, timeout, replaying=replaying)
            if not replaying and self.policy.may_restart():
                self.start()  # the cells before it again: their names are there to grade
            return False
        self.policy.ran_cell(cell, time.monotonic() - began, done, replaying=replaying)
        self.names = dict(done["names"])
        self.idle()
        return True

    # ----- processor time and the look while idle --------------------------------------------
    def idle(self) -> float:
        """Note the sandbox's processor time as it falls idle (a cell or test done: no test's
        processor limit stops it now); that time."""
        if self.watch is not None:
            self._quiet = self.watch.fall_idle()
        return self._quiet

    def cpu(self) -> float:
        """The processor seconds of the running child and all it started (its threads, and
        children it waited for, included); 0 when none runs (:meth:`.ChildWatch.cpu`)."""
        return self.watch.cpu() if self.watch is not None else 0.0

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
            raise SandboxStopped(why)
        self.start()
        assert self.watch is not None
        try:
            now = self.watch.begin_test(timeout, stop=stop)
        except ChildFailed:
            self.close()
            raise
        return Worker(self, time.monotonic() + wall * timeout if wall else float("inf"),
                      timeout, now)

    def check_idle(self) -> str:
        """A look at a sandbox kept between tests (by a keeper's thread, never while it is in
        use): one whose processes hold more memory than allowed, or use the processor, is
        stopped at once (not at its next test), and its next use says why."""
        if self.child is None or self.watch is None or self.stopped:
            return self.stopped
        self.stopped = self.watch.idle_problem()
        if self.stopped:
            self.child.kill()
        return self.stopped


class Worker:
    """One test's worker in the child: :meth:`request` (or :meth:`send`, then
    :meth:`receive`) until done, then :meth:`end`."""

    def __init__(self, session: Session, deadline: float, timeout: float,
                 cpu: float = 0.0) -> None:
        """``cpu``: the sandbox's processor seconds as it begins."""
        self.session, self.deadline, self.cpu = session, deadline, cpu
        self.used = 0.0  # the sandbox's processor seconds from begin to end, once ended
        self.ended: Ended | None = None
        session.send(Begin(op="begin", timeout=timeout))
        try:  # a worker that takes longer to be ready was kept from it by the notebook's code
            self._guard(lambda: session.recv(("ready", "crashed"), self._soon(READY)),
                        expect="ready")
        except ChildTimedOut:
            raise ChildTimedOut(f"its worker did not start within {READY:g} s (did the "
                                "notebook's code make it wait?)") from None

    def _soon(self, seconds: float = EXEC_TIMEOUT) -> float:
        """The deadline of a step that takes no student time (start, end)."""
        return min(self.deadline, time.monotonic() + seconds)

    def _guard(self, step: Callable[[], Reply], expect: str = "") -> Reply:
        """``step()``, the child closed if it fails or the worker ended without a report."""
        try:
            kind, payload = step()
        except BaseException:  # out of step with the child: never reuse it
            self.session.close()
            raise
        if kind == "crashed" or (expect and kind != expect):
            self.session.close()
            raise ChildEnded(str(payload))
        return kind, payload

    def request(self, msg: Any, answer: Callable[[Any], Any] | None = None, *,
                timeout: float | None = None) -> Reply:
        """Send ``msg`` and answer the worker's questions with ``answer`` (which raises
        ``ProtocolError`` for a malformed one) until its reply, within ``timeout`` seconds."""
        self.send(msg)
        return self.receive(answer, timeout=timeout)

    def send(self, msg: Any) -> None:
        """Send a request without waiting for its reply: the worker answers requests in the
        order they were sent, so the caller may compute while it works, and read each reply
        with :meth:`receive`."""
        self.session.send(msg)

    def receive(self, answer: Callable[[Any], Any] | None = None, *,
                timeout: float | None = None) -> Reply:
        """The reply to the oldest request not yet received, within ``timeout`` seconds; the
        worker's questions meanwhile are answered with ``answer`` (see :meth:`request`)."""
        session = self.session
        deadline = self.deadline if timeout is None else \
            min(self.deadline, time.monotonic() + timeout)

        def step() -> Reply:
            while True:
                kind, payload = session.recv(("ask", *FINAL), deadline)
                if kind != "ask":
                    return kind, payload
                if answer is None:
                    raise ChannelBroken(INTERFERED + " (an unexpected question)")
                try:
                    reply = answer(payload)
                except ProtocolError as err:
                    raise ChannelBroken(f"{INTERFERED} ({err})") from None
                session.send(reply)
        return self._guard(step)

    def end(self) -> Ended:
        """End the worker; what it noted (flags, printed, notes). The child's word that it
        outlived the worker comes after the worker's report (:class:`~.failures.ChildEnded`
        without it: the worker's code killed the process that forked it)."""
        if self.ended is None:
            self.session.send(End(op="end"))
            ended = self._guard(lambda: self.session.recv(("ended", "crashed"),
                                                          self._soon() + 1.0),
                                expect="ended")[1]
            self._guard(lambda: self.session.recv(("reaped", "crashed"), self._soon() + 1.0),
                        expect="reaped")
            self.ended = ended
            self.used = self.session.idle() - self.cpu
        return self.ended

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        """End the worker where the ``with`` body did not (and left the child running).
        After a body that finished, a failed end is the test's failure: a worker whose code
        killed the process that forked it can answer everything and report before that
        end reaches it, and only the end tells (the child's ``reaped``). After a body that
        raised, its exception is the one that counts."""
        if self.ended is None and self.session.proc is not None:
            if exc_type is None:
                self.end()
                return
            with contextlib.suppress(ChildFailed):
                self.end()
