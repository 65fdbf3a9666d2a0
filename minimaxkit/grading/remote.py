"""Grading student code from outside it: the tree stays in the trusted process.

A :class:`Session` starts a fresh child (``python -m minimaxkit.grading.remote``, in the
bubblewrap sandbox of :mod:`.bwrap` when available) that runs the student's cells. For each
test tree the child forks a worker that calls the student function on *proxy* nodes; every
question a proxy cannot answer from what it was told is sent back to the trusted parent
through a pipe, one JSON line each way:

=============================================  ==========================================
child → parent                                 parent → child
=============================================  ==========================================
``{"ask": "children", "path": [0, 1]}``        ``{"nodes": [{"path", "name", "max",
                                               "leaf", "move"}, ...]}``
``{"ask": "static" | "estimate", "path": p}``  ``{"value": 3}``
``{"return": <describe(value)>}``              (``{"op": "call", "fn": name, "args": []}``)
``{"iterator": true}`` / ``{"item": ...}``     (``{"op": "next"}`` for a generator)
``{"raised": {"status", "message"}}``          (``{"op": "end"}`` → ``{"ended": {...}}``)
=============================================  ==========================================

So the :class:`~minimaxkit.grading.node.Recorder` (which nodes were expanded and evaluated,
in order) and the verdict live in the parent: nothing the student's code replaces or fakes
in its own process changes what the parent recorded, and the child never holds the tree,
the reference traces or the hidden test data. While a :class:`Session` is active,
:func:`~minimaxkit.grading.sandbox.run_contained` runs tasks through it, so the same
checks (:mod:`.checks`) grade both ways.
"""

from __future__ import annotations

import json
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import TreeError
from . import bwrap, sandbox
from ._enter import copy_regular
from .node import CHILDREN, ESTIMATE, STATIC, Recorder, SearchNode, TooManyCalls
from .sandbox import Outcome

__all__ = ["Session", "RemoteFunction", "EXEC_TIMEOUT", "cell_label"]

EXEC_TIMEOUT = 60.0  # seconds a cell may run in the child (nbgrader's Execute.timeout)
CELL_GRACE = 5.0  # seconds more before a cell that ignores its interrupt is given up
MAX_RESTARTS = 8  # cells left out (hung or ending the child) before the rest is not run
INTERFERED = "the notebook's code interfered with the grader"


class _Failed(BaseException):
    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class Described:
    """A value already described by the child (:func:`~.sandbox.describe` passes it on)."""

    def __init__(self, data: Any) -> None:
        self.data = data


class RemoteFunction:
    """Stands for the student function ``name`` in the child; calling it runs it there."""

    def __init__(self, session: Session, name: str) -> None:
        self.session, self.name = session, name

    def __call__(self, *args: Any) -> Any:
        return self.session._call({"op": "call", "fn": self.name,
                                   "args": [_arg(a) for a in args]})

    def __repr__(self) -> str:
        return f"<function {self.name} (graded outside the notebook)>"


class _RemoteIterator:
    def __init__(self, session: Session) -> None:
        self.session = session

    def __iter__(self) -> _RemoteIterator:
        return self

    def __next__(self) -> Any:
        return self.session._call({"op": "next"})


def _arg(a: Any) -> Any:
    if isinstance(a, SearchNode):
        return {"node": list(a.path)}
    if isinstance(a, float) and math.isinf(a):
        return {"inf": 1 if a > 0 else -1}
    return a


def _node_info(rec: Recorder, path: tuple[int, ...]) -> dict[str, Any]:
    node = rec.node(path)
    move = node.move
    return {"path": list(path), "name": node.name, "max": node.is_max(),
            "leaf": node.is_leaf(), "move": move if isinstance(move, (int, str)) else repr(move)}


class Session:
    """The student's cells running in a sandboxed child, and the protocol to grade them.

    ``folder`` is the submission's folder: the child works in a scratch copy of it (a
    size-capped tmpfs at the same path, :func:`~.bwrap.sandbox_argv`), so nothing the code
    writes lands in the course; ``course_root`` is hidden. Each cell runs with
    ``cell_timeout`` seconds (nbgrader's ``Execute.timeout``): a cell still running then is
    interrupted and the notebook goes on; one that will not stop, or that ends the child,
    is left out and the child starts again with the cells before it."""

    def __init__(self, folder: str | os.PathLike[str], course_root: Path | None = None,
                 hidden_files: list[Path] | None = None, *,
                 cell_timeout: float = EXEC_TIMEOUT) -> None:
        self.folder = Path(folder).resolve()
        self.course_root = course_root
        self.hidden_files = hidden_files or []
        self.cell_timeout = float(cell_timeout)
        self.cells: list[tuple[str, str]] = []
        self.names: dict[str, str] = {}
        self.problems: list[str] = []
        self.proc: subprocess.Popen[bytes] | None = None
        self.sandboxed = False
        self._buf = b""
        self._rec: Recorder | None = None
        self._deadline = 0.0
        self._scratch: str | None = None
        self._ran = 0

    # ----- the child's life --------------------------------------------------------------
    def start(self) -> None:
        """Start the child now (it loads Python and the kit) rather than at the first
        cells."""
        if self.proc is None:
            self._start()

    def _start(self) -> None:
        cmd = [sys.executable, "-m", "minimaxkit.grading.remote"]
        self.sandboxed = bwrap.available()
        if self.sandboxed:
            env = bwrap.sandbox_env(NBGRADER_EXECUTION="autograde", MINIMAXKIT_PIDNS="1",
                                    MPLBACKEND="Agg")
            cmd = bwrap.sandbox_argv(cmd, workdir=self.folder, course_root=self.course_root,
                                     scratch=True, hidden_files=self.hidden_files,
                                     environ=env)
            cwd = self.folder
        else:
            self._scratch = tempfile.mkdtemp(prefix="minimaxkit-trusted-")
            cwd = Path(self._scratch) / "work"
            cwd.mkdir()
            copy_regular(self.folder, cwd)
            env = {k: v for k, v in os.environ.items() if k not in bwrap.SECRET_ENV}
            env.update(NBGRADER_EXECUTION="autograde", MINIMAXKIT_SANDBOXED="1",
                       PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=cwd, env=env, start_new_session=True, preexec_fn=bwrap.limit_resources)
        self._buf = b""
        replay, self.cells = self.cells, []
        for label, src in replay:
            if not self._exec(label, src, replaying=True):
                break

    def close(self) -> None:
        """End the child and everything it started; remove its scratch copy."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    stream.close()
            self.proc = None
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
        sandbox.set_remote(None)

    # ----- the protocol ------------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the child is gone: _recv says so

    def _recv(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = self._deadline - time.monotonic()
            if left <= 0:
                raise _Failed("timeout", "")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise _Failed("crashed", "the grading process ended without a report: "
                                  "did the notebook's code end the process (os._exit)?")
                self._buf += chunk
                if len(self._buf) > 4 << 20:
                    raise _Failed("crashed", INTERFERED + " (it sent far too much data)")
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            msg = json.loads(line)
        except ValueError:
            raise _Failed("crashed", INTERFERED + " (it wrote to the grader's channel)") \
                from None
        if not isinstance(msg, dict):
            raise _Failed("crashed", INTERFERED)
        return msg

    def _exec(self, label: str, src: str, *, replaying: bool = False) -> bool:
        """Run one cell in the child (``label`` names it in messages); False when the child
        had to be stopped."""
        if self.proc is None:
            self._start()
            if self.proc is None:
                return False
        self._deadline = time.monotonic() + self.cell_timeout + CELL_GRACE
        self._send({"op": "exec", "cell": src, "label": label, "timeout": self.cell_timeout})
        try:
            reply = self._recv()
        except _Failed as err:
            self.close()
            self.names = {}
            if err.status == "timeout":
                problem = (f"{label} ran longer than {self.cell_timeout:g} s and did "
                           "not stop when interrupted: it was left out, and the cells before "
                           "it were run again")
            elif "interfered" in err.message:
                problem = f"{label}: {err.message}; it was left out"
            else:
                problem = (f"{label} ended the grading process (os._exit? out of "
                           "memory?): it was left out, and the cells before it were run again")
            if not replaying:
                self.problems.append(problem)
            self._ran += 1
            return False
        if not reply.get("interrupted"):  # a cell that ran out of time is not run again
            self.cells.append((label, src))
        if not replaying:
            self.problems += [str(p) for p in reply.get("problems", [])]
        self.names = {str(k): str(v) for k, v in dict(reply.get("names", {})).items()}
        return True

    def run_cells(self, cells: list[str]) -> None:
        """Run ``cells`` (code, in order) in the child, after those run before."""
        for src in cells:
            self.run_cell(src)

    def run_cell(self, src: str, label: str = "") -> None:
        """Run one cell in the child, after those run before; ``label`` names it in
        messages (default: its first line)."""
        if self._ran > MAX_RESTARTS:
            if "too often" not in "".join(self.problems):
                self.problems.append("the notebook's cells stopped the grading process too "
                                     "often: the rest of its cells were not run")
            return
        self._exec(label or cell_label(src), src)

    def caller(self) -> dict[str, Any]:
        """The notebook's names as :func:`~.grader.grade_report` looks them up: a
        :class:`RemoteFunction` for each function, a stand-in of the right type otherwise."""
        out: dict[str, Any] = {}
        for name, kind in self.names.items():
            out[name] = RemoteFunction(self, name) if kind == "callable" else \
                type(kind, (), {})()
        return out

    def _call(self, msg: dict[str, Any]) -> Any:
        rec = self._rec
        assert rec is not None
        self._send(msg)
        while True:
            reply = self._recv()
            if "ask" in reply:
                kind, path = reply["ask"], tuple(int(i) for i in reply.get("path", []))
                try:
                    rec.tree.node(path)
                except Exception:
                    self._send({"error": f"no node at path {path}"})
                    continue
                if kind == CHILDREN:
                    rec.log(CHILDREN, path)
                    n = rec.tree.node(path)
                    self._send({"nodes": [_node_info(rec, (*path, i))
                                          for i in range(len(n.children))]})
                elif kind in (STATIC, ESTIMATE):
                    rec.log(kind, path)
                    try:
                        value = rec.tree.evaluate(rec.tree.node(path))
                    except TreeError as err:  # e.g. static() of an interior node without one
                        self._send({"error": str(err), "kind": "tree", "problem": err.problem})
                        continue
                    self._send({"value": value})
                elif kind == "node":
                    self._send({"node": _node_info(rec, path)})
                else:
                    self._send({"error": f"unknown question {kind!r}"})
            elif "return" in reply:
                return Described(reply["return"])
            elif "iterator" in reply:
                return _RemoteIterator(self)
            elif "item" in reply:
                return Described(reply["item"])
            elif "stop" in reply:
                raise StopIteration
            elif "raised" in reply:
                raised = dict(reply["raised"])
                raise _Failed(str(raised.get("status", "raised")), str(raised.get("message")))
            else:
                raise _Failed("crashed", str(reply.get("crashed", "unexpected reply")))

    def call_boards(self, fn: str, states: list[Any], size: tuple[int, int],
                    timeout: float) -> list[Any]:
        """Inside a :meth:`run` task (assignment 5): the student's ``fn(board)`` for each
        Connect Four state, answered by the worker within ``timeout`` seconds: a number, or
        ``{"bad": ...}`` / ``{"raised": ...}`` per board (``remote_child._boards``). Raises
        ``_Failed`` when the worker does not answer in time or at all; after a timeout the
        run ends at once."""
        saved = self._deadline
        self._deadline = min(saved, time.monotonic() + timeout)
        try:
            got = self._call({"op": "boards", "fn": fn, "states": states, "size": list(size)})
        except _Failed:
            self._deadline = time.monotonic()
            raise
        self._deadline = saved
        data = got.data if isinstance(got, Described) else None
        if not isinstance(data, list) or len(data) != len(states):
            raise _Failed("crashed", INTERFERED + " (a wrong answer to a batch of boards)")
        return data

    def run(self, task: Callable[[Recorder], Any], rec: Recorder, timeout: float) -> Outcome:
        """Run a grading ``task`` whose student function is a :class:`RemoteFunction`:
        the task runs here, the function in a worker forked from the child."""
        start = time.monotonic()
        if self.proc is None:
            self._start()
        self._rec, self._deadline = rec, start + timeout
        report: dict[str, Any] = {"status": "ok", "message": ""}
        try:
            self._send({"op": "begin", "timeout": timeout})
            if "ready" not in self._recv():
                raise _Failed("crashed", "the grading process did not start the test")
            report["result"] = task(rec)
            self._send({"op": "end"})
            ended = self._recv().get("ended", {})
            report.update(_verdict(dict(ended)))
        except TooManyCalls as err:
            report.update(status="looping", message=str(err))
            self.close()
        except _Failed as err:
            if err.status == "timeout":
                err.message = (f"did not finish within {timeout:g} s: an endless loop, or a "
                               "search that never reaches the leaves?")
            report.update(status=err.status, message=err.message)
            if err.status in ("timeout", "crashed"):
                self.close()
            else:
                try:
                    self._send({"op": "end"})
                    ended = self._recv().get("ended", {})
                    report["printed"] = str(ended.get("printed", ""))
                    flagged = _verdict(dict(ended))
                    if flagged.get("status", "ok") != "ok":
                        report.update(flagged)
                except _Failed:
                    self.close()
        except Exception:
            # a fault on this side (a grader bug): the child may still be waiting for an
            # answer, so start the next test with a fresh one rather than out of step
            self.close()
            raise
        finally:
            self._rec = None
        return Outcome(report["status"], report.get("message", ""), report.get("result"),
                       list(rec.calls), list(rec.marks), report.get("printed", ""),
                       time.monotonic() - start)


def cell_label(src: str) -> str:
    """How messages name a cell: its first line of code, shortened.

    >>> cell_label("\\n%%time\\nfor d in range(9):\\n    pass")
    'the cell that starts "%%time"'
    """
    first = next((ln.strip() for ln in src.splitlines() if ln.strip()), "")
    first = first if len(first) <= 40 else first[:37] + "..."
    return f'the cell that starts "{first}"' if first else "an empty cell"


def _verdict(ended: dict[str, Any]) -> dict[str, Any]:
    """Status and message from what the worker noticed (kit searches called, test data
    read, too much output, a node changed)."""
    out: dict[str, Any] = {"printed": str(ended.get("printed", ""))}
    flags = dict(ended.get("flags", {}))
    if flags.get("test_data"):
        out.update(status="reference", message=(
            f"read the test data ({flags['test_data']}) instead of searching"))
    elif flags.get("reference"):
        out.update(status="reference", message=(
            f"called minimaxkit's own search ({flags['reference']}) instead of searching: "
            "write the search yourself with node.children() and node.static()"))
    elif flags.get("processes"):
        out.update(status="processes", message=(
            f"started {flags['processes']} process(es) that were still running when it "
            "returned (they were stopped): a search needs no other processes"))
    elif flags.get("output"):
        out.update(status="output", message=(
            f"printed more than {sandbox.OUTPUT_LIMIT // 1000} kB; remove the debugging prints"))
    elif ended.get("violations"):
        out.update(status="mutated",
                   message="tried to change the tree: " + str(ended["violations"][0]))
    return out


if __name__ == "__main__":  # pragma: no cover - the child
    from .remote_child import serve

    sys.exit(serve())
