"""The child side of :mod:`.remote`: runs the student's cells, and per test tree a forked
worker that calls the student function on proxy nodes (:class:`RemoteNode`) whose
``children()`` and ``static()`` are answered by the trusted parent.

It runs in the sandbox, as ``python -m minimaxkit.grading.remote``; nothing here is
trusted: the parent records the calls and judges. The protocol channel is a copy of
stdin/stdout made before any student code runs; fds 0, 1 and 2 then point at /dev/null.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import sys
from typing import Any

from ..errors import TreeError
from .node import TooManyCalls, _question
from .sandbox import (
    _CappedStream,
    _guard_reference_searches,
    _guard_test_data,
    _limit_resources,
    _ReferenceCalled,
    _safe_repr,
    _safe_str,
    _stack_depth,
    _student_frames,
    _TooMuchOutput,
    describe,
)

__all__ = ["serve", "RemoteNode"]


class _Channel:
    def __init__(self, rfd: int, wfd: int) -> None:
        self.rfd, self.wfd, self.buf = rfd, wfd, b""

    def send(self, msg: dict[str, Any]) -> None:
        data = memoryview(json.dumps(msg).encode() + b"\n")
        while data:
            data = data[os.write(self.wfd, data):]

    def recv(self) -> dict[str, Any]:
        while b"\n" not in self.buf:
            chunk = os.read(self.rfd, 1 << 16)
            if not chunk:
                os._exit(0)  # the parent is gone
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return dict(json.loads(line))


_CHANNEL: _Channel | None = None


def _ask(kind: str, path: tuple[int, ...]) -> dict[str, Any]:
    assert _CHANNEL is not None
    _CHANNEL.send({"ask": kind, "path": list(path)})
    reply = _CHANNEL.recv()
    if "error" in reply:
        if reply.get("kind") == "tree":  # the tree's own answer, e.g. no static value here
            raise TreeError(tuple(path), str(reply["problem"]))
        raise LookupError(reply["error"])
    return reply


class RemoteNode:
    """The worker's view of a tree node: identity is known, ``children()``, ``static()``
    and ``estimate()`` are asked of the parent (which records them)."""

    __slots__ = ("_info",)
    _info: dict[str, Any]
    violations: list[str] = []

    @classmethod
    def _make(cls, info: dict[str, Any]) -> RemoteNode:
        self = object.__new__(cls)
        object.__setattr__(self, "_info", info)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        msg = (f"nodes are read-only: cannot set {name!r} on node {self.name}; keep your "
               "own dict (e.g. values[node] = ...) instead")
        RemoteNode.violations.append(msg)
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    @property
    def name(self) -> str:
        return str(self._info["name"])

    @property
    def path(self) -> tuple[int, ...]:
        return tuple(self._info["path"])

    @property
    def depth(self) -> int:
        return len(self._info["path"])

    @property
    def move(self) -> Any:
        return self._info["move"] if self._info["path"] else None

    def __repr__(self) -> str:
        player = "max" if self._info["max"] else "min"
        return f"SearchNode({self.name!r}, {player}, path={self.path})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RemoteNode) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)

    def __lt__(self, other: RemoteNode) -> bool:
        return self.path < other.path

    # The questions are methods; used without parentheses (``if node.is_leaf:``) they raise
    # MissingCall naming the fix, exactly as the in-notebook nodes do.
    @_question
    def is_leaf(self) -> bool:
        return bool(self._info["leaf"])

    @_question
    def is_max(self) -> bool:
        return bool(self._info["max"])

    @_question
    def children(self) -> list[RemoteNode]:
        return [RemoteNode._make(i) for i in _ask("children", self.path)["nodes"]]

    @_question
    def static(self) -> float:
        return _ask("static", self.path)["value"]  # type: ignore[no-any-return]

    @_question
    def estimate(self) -> float:
        return _ask("estimate", self.path)["value"]  # type: ignore[no-any-return]


def _value(a: Any) -> Any:
    if isinstance(a, dict) and "node" in a:
        return RemoteNode._make(_ask("node", tuple(a["node"]))["node"])
    if isinstance(a, dict) and "inf" in a:
        return float("inf") * a["inf"]
    return a


def _failure(err: BaseException) -> dict[str, Any]:
    if isinstance(err, (_ReferenceCalled, _TooMuchOutput)):
        return {"status": "flagged", "message": ""}
    if isinstance(err, TooManyCalls):
        return {"status": "looping", "message": str(err)}
    if isinstance(err, RecursionError):
        return {"status": "recursion", "message": (
            "recursion too deep (RecursionError): the function kept calling itself without "
            "reaching a leaf. Does it stop at leaves (node.is_leaf()) and at the depth limit?")}
    if isinstance(err, MemoryError):
        return {"status": "memory", "message": "ran out of memory (MemoryError)"}
    return {"status": "raised", "message": (
        f"raised {type(err).__name__}: {_safe_str(err)}\n"
        f"{_student_frames(err.__traceback__)}").rstrip()}


def _boards(fn: Any, msg: dict[str, Any]) -> list[Any]:
    """``fn(board)`` for each state of a ``boards`` request: a number (as a float), or
    ``{"bad": ...}`` for a value that is not one, ``{"raised": ...}`` for an exception."""
    from ..games.connect4_board import Board

    columns, rows = (int(v) for v in msg.get("size", (7, 6)))
    out: list[Any] = []
    for state in msg.get("states", []):
        try:
            value = fn(Board.from_state(state, columns=columns, rows=rows))
            if isinstance(value, bool) or not isinstance(value, int | float):
                out.append({"bad": f"{_safe_repr(value)} (a {type(value).__name__})"})
            else:
                out.append(float(value))
        except Exception as err:
            out.append({"raised": f"{type(err).__name__}: {_safe_str(err)}",
                        "where": _student_frames(err.__traceback__)})
    return out


def _other_processes() -> list[int]:
    """Processes in this sandbox's PID namespace other than its init, the server and this
    one: what student code started and left running. Empty outside a PID namespace."""
    if os.environ.get("MINIMAXKIT_PIDNS") != "1":
        return []
    mine = {1, os.getpid(), os.getppid()}
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) not in mine:
            try:
                with open(f"/proc/{p}/stat", "rb") as f:
                    state = f.read().rsplit(b")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue  # ended meanwhile
            if state not in (b"Z", b"X"):  # an ended process not yet reaped is no process
                out.append(int(p))
    return out


def _kill_others() -> int:
    """Kill the processes of :func:`_other_processes` (again while a fork loop goes on
    making more); how many there were."""
    import signal
    import time

    found: set[int] = set()
    for _ in range(50):
        pids = _other_processes()
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        found.update(pids)
        time.sleep(0.002)
    for _ in range(100):
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    return len(found)


def _worker(ns: dict[str, Any], timeout: float, done_fd: int) -> None:  # pragma: no cover
    assert _CHANNEL is not None
    code = 0
    try:
        flags: dict[str, Any] = {}
        stream = _CappedStream(200_000, flags)
        sys.stdout = sys.stderr = stream  # type: ignore[assignment]
        _limit_resources(timeout)
        sys.setrecursionlimit(_stack_depth() + 1000)
        _guard_reference_searches(flags)
        _guard_test_data(flags)
        RemoteNode.violations = []
        import random  # every test starts from the same random state: a function that
        random.seed(0)  # uses random numbers gives the same results on every run
        _CHANNEL.send({"ready": True})
        live: Any = None
        while True:
            msg = _CHANNEL.recv()
            op = msg.get("op")
            if op == "end":
                if _other_processes():
                    flags["processes"] = _kill_others()
                _CHANNEL.send({"ended": {"flags": flags, "printed": stream.text(),
                                         "violations": RemoteNode.violations[:1]}})
                os.write(done_fd, b"1")
                break
            try:
                if op == "call":
                    fn = ns[msg["fn"]]
                    got = fn(*[_value(a) for a in msg.get("args", [])])
                    if hasattr(got, "__next__") and not isinstance(got, (list, tuple)):
                        live = got
                        _CHANNEL.send({"iterator": True})
                    else:
                        _CHANNEL.send({"return": describe(got)})
                elif op == "boards":  # assignment 5: a batch of boards for evaluate(board)
                    _CHANNEL.send({"return": _boards(ns[msg["fn"]], msg)})
                elif op == "next":
                    try:
                        item = next(live)
                    except StopIteration:
                        _CHANNEL.send({"stop": True})
                    else:
                        _CHANNEL.send({"item": describe(item)})
            except BaseException as err:  # the student's code failed: say how
                _CHANNEL.send({"raised": _failure(err)})
    except BaseException:
        code = 3
    finally:
        os._exit(code)


_INTERRUPTED = [False]  # the last cell ran past its time (it is not run again on a restart)


class _CellTimeout(BaseException):
    """Raised in a cell that runs past its time (a timer signal), as an interrupt would."""


def _make_shell() -> Any:
    """A real IPython shell, so that cells run as in the student's kernel: magics
    (``%%time``, ``%run``, ``%matplotlib``), ``!`` commands, ``display``, ``get_ipython()``.
    No history file, no colours; ``!`` commands run without a terminal."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    config.InteractiveShell.autocall = 0
    shell = InteractiveShell.instance(config=config)
    shell.system = shell.system_raw  # type: ignore[method-assign] # no pty: output to /dev/null
    shell.enable_gui = lambda gui=None: None  # type: ignore[method-assign] # %matplotlib
    shell.user_ns["__name__"] = "__main__"
    # IPython puts its own open() in the namespace, bound to io.open at import: without it,
    # open resolves to the builtin, which the worker guards (the test data files)
    shell.user_ns.pop("open", None)
    shell.user_ns_hidden.pop("open", None)
    return shell


def _run_cell(shell: Any, src: str, label: str, timeout: float) -> list[str]:
    """Run one cell as the kernel would (IPython syntax, magics); a failing cell is noted
    and the notebook goes on, as nbgrader runs every cell. A cell still running after
    ``timeout`` seconds is interrupted, as nbgrader interrupts it."""
    import signal

    def expired(signum: int, frame: Any) -> None:
        raise _CellTimeout(f"ran longer than {timeout:g} s")

    stream = _CappedStream(200_000, {})
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = stream  # type: ignore[assignment]
    signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        result = shell.run_cell(src, store_history=False)
    except BaseException as err:  # raised outside the cell's code (e.g. by the timer)
        result = None
        problem = err
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        sys.stdout, sys.stderr = saved
    if result is not None:
        problem = result.error_before_exec or result.error_in_exec
    if problem is None:
        return []
    if isinstance(problem, _CellTimeout):
        _INTERRUPTED[0] = True
        return [f"{label} ran longer than {timeout:g} s and was interrupted; the notebook "
                "went on (as nbgrader's kernel does)"]
    return [f"{label} raised {type(problem).__name__}: {_safe_str(problem)}"]


def _names(shell: Any) -> dict[str, str]:
    """The notebook's own names (not IPython's ``In``, ``Out``, ``exit``...)."""
    hidden = set(shell.user_ns_hidden)
    out = {}
    for k, v in list(shell.user_ns.items()):
        if not k.startswith("_") and k not in hidden:
            out[k] = "callable" if callable(v) else type(v).__name__
    return out


def serve() -> int:  # pragma: no cover - runs in the child
    """The child's loop: run cells, start a worker per test tree."""
    global _CHANNEL
    from .. import deepening, search  # noqa: F401 - loaded once, before any worker forks
    from . import suite  # noqa: F401
    _CHANNEL = _Channel(os.dup(0), os.dup(1))
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.stdin = io.StringIO("")
    builtins.input = lambda *a: (_ for _ in ()).throw(  # type: ignore[assignment]
        RuntimeError("input() is not available while grading"))
    shell = _make_shell()
    ns: dict[str, Any] = shell.user_ns
    while True:
        msg = _CHANNEL.recv()
        op = msg.get("op")
        if op == "exec":
            _INTERRUPTED[0] = False
            problems = _run_cell(shell, str(msg.get("cell", "")), str(msg.get("label", "a cell")),
                                 float(msg.get("timeout", 60.0)))
            left = _kill_others() if _other_processes() else 0
            if left:
                problems.append(f"the notebook's cells started {left} process(es) that were "
                                "still running; they were stopped")
            _CHANNEL.send({"problems": problems, "names": _names(shell),
                           "interrupted": _INTERRUPTED[0]})
        elif op == "begin":
            done_r, done_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(done_r)
                _worker(ns, float(msg.get("timeout", 1.0)), done_w)
            os.close(done_w)
            _, status = os.waitpid(pid, 0)
            os.set_blocking(done_r, False)
            try:
                finished = os.read(done_r, 1) == b"1"
            except BlockingIOError:
                finished = False
            os.close(done_r)
            if not finished:
                from .sandbox import _crash_message
                _CHANNEL.send({"crashed": _crash_message(status)})
        else:
            _CHANNEL.send({"crashed": f"unknown request {op!r}"})
    return 0
