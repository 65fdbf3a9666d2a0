"""Run untrusted student code on a recorded tree, contained.

:func:`run_contained` forks the (kernel) process and runs the student function in the child,
so that nothing the function does reaches the grader: an endless loop is killed at the time
limit, a crash (a segfault from too deep a recursion) or a memory hog ends only the child,
a mutated tree is the child's copy, printed megabytes stop at a cap, and the kit's own
searches refuse to run. The child sends back a small JSON report through a pipe: the
recorded calls, a description of the returned value, what was printed and, on failure, why.

Where ``os.fork`` is missing (Windows) the function runs in-process with the same output
cap and checks, but without a hard time limit.

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[3, 12], [2, 4]])
>>> def smallest_leaf(node):
...     return node.static() if node.is_leaf() else min(smallest_leaf(c) for c in node.children())
>>> out = run_contained(lambda rec: describe(smallest_leaf(rec.root())), tree)
>>> out.status, out.result, len(out.calls)
('ok', {'number': 2}, 7)
>>> def loop(node):
...     while True:
...         pass
>>> run_contained(lambda rec: describe(loop(rec.root())), tree, timeout=0.2).status
'timeout'
"""

from __future__ import annotations

import faulthandler
import gc
import io
import json
import math
import numbers
import os
import select
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..student import Recorder, SearchNode, TooManyCalls, refuse_kit_searches
from ..tree import GameTree

__all__ = ["Outcome", "run_contained", "describe", "OUTPUT_LIMIT", "TIME_LIMIT", "set_remote",
           "refuse_kit_searches"]

Path = tuple[int, ...]
TIME_LIMIT = 1.0  # seconds per test tree; a correct search of a test tree takes milliseconds
OUTPUT_LIMIT = 200_000  # characters a student function may print during one test
_KEEP_PRINTED = 2_000  # characters of it shown in the report
_GRADER_DIR = os.path.dirname(os.path.abspath(__file__))
_KIT_DIR = os.path.dirname(_GRADER_DIR)
_REMOTE_MODULE = __name__.rsplit(".", 1)[0] + ".remote"


@dataclass(frozen=True)
class Outcome:
    """What happened when student code ran on one tree.

    ``status`` is ``"ok"`` or why it failed: ``"raised"``, ``"timeout"``, ``"recursion"``,
    ``"crashed"``, ``"memory"``, ``"output"`` (printed too much), ``"looping"`` (asked the
    tree far too often), ``"mutated"`` (changed the tree), ``"reference"`` (called the kit's
    own search, or read the test data). ``message`` says it in words for the student."""

    status: str
    message: str = ""
    result: Any = None
    calls: list[tuple[str, Path]] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)
    printed: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the function returned normally and broke no rule."""
        return self.status == "ok"


def describe(value: Any, *, _depth: int = 0) -> Any:
    """A plain-data description of a returned value, safe to send between processes.

    >>> describe(3), describe(2.5), describe(None), describe(True)
    ({'number': 3}, {'number': 2.5}, {'none': True}, {'other': 'bool', 'repr': 'True'})
    >>> describe((1, "x"))
    {'seq': [{'number': 1}, {'other': 'str', 'repr': "'x'"}]}
    """
    if type(value).__name__ == "Described" and type(value).__module__ == _REMOTE_MODULE:
        return value.data  # described in the remote child already (see .remote)
    if value is None:
        return {"none": True}
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            v = float(value)
        except Exception:  # a numbers.Real whose float() fails
            return {"other": type(value).__name__, "repr": _safe_repr(value)}
        if math.isnan(v):
            return {"other": "nan", "repr": "nan"}
        return {"number": int(v) if v.is_integer() and abs(v) < 2**53 else v}
    if isinstance(value, SearchNode) or (type(value).__name__ == "RemoteNode" and
                                         type(value).__module__ == _REMOTE_MODULE + "_child"):
        return {"node": list(value.path), "name": value.name}
    if isinstance(value, (tuple, list)) and _depth < 3:
        return {"seq": [describe(v, _depth=_depth + 1) for v in value[:1000]]}
    return {"other": type(value).__name__, "repr": _safe_repr(value)}


def _safe_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as err:  # a student object whose repr fails
        text = f"<{type(value).__name__} whose repr raised {type(err).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


# ----- rules enforced in the child -------------------------------------------------------
class _ReferenceCalled(BaseException):
    """The kit's own search was called (a BaseException so ``except Exception`` misses it)."""


class _TooMuchOutput(BaseException):
    """The function printed more than :data:`OUTPUT_LIMIT` characters."""


class _CappedStream(io.TextIOBase):
    def __init__(self, limit: int, flags: dict[str, Any]) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.flags = flags

    def writable(self) -> bool:
        return True

    def write(self, s: Any) -> int:
        s = str(s)
        self.size += len(s)
        if self.size > self.limit:
            self.flags["output"] = True
            raise _TooMuchOutput()
        if sum(len(p) for p in self.parts) < _KEEP_PRINTED:
            self.parts.append(s)
        return len(s)

    def text(self) -> str:
        out = "".join(self.parts)
        return out if len(out) <= _KEEP_PRINTED else out[:_KEEP_PRINTED] + "\n[...]"


def _guard_reference_searches(flags: dict[str, Any]) -> Callable[[], None]:
    """Make every reference search of the kit raise, noting which; returns the undo."""

    def error(caller: str) -> BaseException:
        flags["reference"] = caller
        return _ReferenceCalled(caller)
    return refuse_kit_searches(error)


def _guard_test_data(flags: dict[str, Any]) -> Callable[[], None]:
    """Make ``open`` refuse the test data files (whose stored traces would answer the
    tests); returns the undo function."""
    import builtins

    from .suite import HIDDEN_TESTS, TESTS

    original = builtins.open

    def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, bytes, os.PathLike)) and \
                os.path.basename(os.fsdecode(file)) in (TESTS, HIDDEN_TESTS):
            flags["test_data"] = os.path.basename(os.fsdecode(file))
            raise _ReferenceCalled("test data")
        return original(file, *args, **kwargs)

    builtins.open = io.open = guarded_open  # type: ignore[assignment]

    def undo() -> None:
        builtins.open = io.open = original
    return undo


def _student_frames(tb: Any) -> str:
    frames = [f for f in traceback.extract_tb(tb)
              if not f.filename.startswith(_KIT_DIR)]
    lines = []
    for f in frames[-3:]:
        where = f"line {f.lineno}, in {f.name}"
        lines.append(f"    {where}: {f.line.strip()}" if f.line else f"    {where}")
    return "\n".join(lines)


def _fingerprint(rec: Recorder) -> str:
    """The tree as JSON; something else if the tree was changed beyond writing it out."""
    try:
        return rec.tree.to_json()
    except Exception:  # a value replaced by something that is no number
        return "(changed beyond repair)"


def _execute(task: Callable[[Recorder], Any], rec: Recorder, flags: dict[str, Any],
             stream: _CappedStream) -> dict[str, Any]:
    """Run ``task`` under the rules; a JSON-able report. Runs in the child (or in-process)."""
    before = rec.tree.to_json()
    report: dict[str, Any] = {"status": "ok", "message": ""}
    try:
        report["result"] = task(rec)
    except _ReferenceCalled:
        pass
    except _TooMuchOutput:
        pass
    except TooManyCalls as err:
        report.update(status="looping", message=str(err))
    except RecursionError:
        report.update(status="recursion", message=(
            "recursion too deep (RecursionError): the function kept calling itself without "
            "reaching a leaf. Does it stop at leaves (node.is_leaf()) and at the depth limit?"))
    except MemoryError:
        report.update(status="memory", message="ran out of memory (MemoryError)")
    except BaseException as err:  # anything the student code raised, SystemExit included
        report.update(status="raised", message=(
            f"raised {type(err).__name__}: {_safe_str(err)}\n{_student_frames(err.__traceback__)}"
        ).rstrip())
    if flags.get("test_data"):
        report.update(status="reference", message=(
            f"read the test data ({flags['test_data']}) instead of searching"))
    elif flags.get("reference"):
        report.update(status="reference", message=(
            f"called minimaxkit's own search ({flags['reference']}) instead of searching: "
            "write the search yourself with node.children() and node.static()"))
    elif flags.get("output"):
        report.update(status="output", message=(
            f"printed more than {OUTPUT_LIMIT // 1000} kB; remove the debugging prints"))
    elif rec.violations:
        report.update(status="mutated", message="tried to change the tree: " + rec.violations[0])
    elif _fingerprint(rec) != before:
        report.update(status="mutated", message=(
            "changed the tree (a node's value, name or children); a search must leave the "
            "tree as it found it"))
    report["calls"] = rec.calls
    report["marks"] = rec.marks
    report["printed"] = stream.text()
    return report


def _safe_str(err: BaseException) -> str:
    try:
        text = str(err)
    except Exception:
        text = "(message unavailable)"
    return text if len(text) <= 300 else text[:297] + "..."


# ----- the two ways of running -----------------------------------------------------------
_REMOTE: list[Any] = [None]


def set_remote(session: Any) -> None:
    """Run tasks through ``session`` (a :class:`~minimaxkit.grading.remote.Session`), or
    forked here again with None."""
    _REMOTE[0] = session


def run_contained(task: Callable[[Recorder], Any], tree: GameTree, *, timeout: float = TIME_LIMIT,
                  call_limit: int = 50_000) -> Outcome:
    """Run ``task(recorder)`` on a :class:`Recorder` of ``tree`` under the rules above and
    return what happened. ``task`` is grader code that calls the student function on
    ``recorder.root()`` and returns :func:`describe` of its result.

    While a remote session is set (:func:`set_remote`: trusted grading outside the
    notebook), the task runs here and the student function in the session's sandboxed
    child; the recorder stays here."""
    rec = Recorder(tree, limit=call_limit)
    if _REMOTE[0] is not None:
        return _REMOTE[0].run(task, rec, timeout)  # type: ignore[no-any-return]
    start = time.monotonic()
    if hasattr(os, "fork"):
        out = _forked(task, rec, timeout)
    else:  # pragma: no cover - Windows
        out = _in_process(task, rec)
    return Outcome(out["status"], out.get("message", ""), out.get("result"),
                   [(k, tuple(p)) for k, p in out.get("calls", [])], list(out.get("marks", [])),
                   out.get("printed", ""), time.monotonic() - start)


def _forked(task: Callable[[Recorder], Any], rec: Recorder, timeout: float) -> dict[str, Any]:
    read_fd, write_fd = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 3.12+: "process is multi-threaded, fork() may..."
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(task, rec, timeout, write_fd)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    timed_out = finished = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([read_fd], [], [], left)
            if ready:
                chunk = os.read(read_fd, 1 << 16)
                if not chunk:
                    finished = True
                    break
                chunks.append(chunk)
    finally:  # also when the kernel is interrupted: never leave the child running
        os.close(read_fd)
        if not finished:
            _kill(pid)
        _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"status": "timeout", "message": (
            f"did not finish within {timeout:g} s: an endless loop, or a search that never "
            "reaches the leaves?")}
    try:
        return dict(json.loads(b"".join(chunks)))
    except ValueError:
        return {"status": "crashed", "message": _crash_message(status)}


def _kill(pid: int) -> None:
    """Kill the child and anything it started (it leads its own process group)."""
    for kill, target in ((os.killpg, pid), (os.kill, pid)):
        try:
            kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _crash_message(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else sig
        if sig == signal.SIGSEGV:
            return ("crashed (segmentation fault): almost always a recursion far too deep; "
                    "does the search stop at leaves?")
        return f"crashed (killed by signal {name})"
    return f"ended without a report (exit status {os.WEXITSTATUS(status)})"


def _child(task: Callable[[Recorder], Any], rec: Recorder, timeout: float,
           write_fd: int) -> None:  # pragma: no cover - runs in the forked child
    code = 0
    try:
        os.setpgid(0, 0)  # a group of its own: killed as one, spared the kernel's interrupts
        faulthandler.disable()  # a crash here is reported by the parent, not dumped
        gc.freeze()  # objects inherited from the kernel are never collected here
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        flags: dict[str, Any] = {}
        stream = _CappedStream(OUTPUT_LIMIT, flags)
        sys.stdout = sys.stderr = stream  # type: ignore[assignment]
        sys.stdin = io.StringIO("")
        import builtins

        def no_input(*args: Any) -> str:
            raise RuntimeError("input() is not available while grading")
        builtins.input = no_input
        _limit_resources(timeout)
        sys.setrecursionlimit(_stack_depth() + 1000)
        _guard_reference_searches(flags)
        _guard_test_data(flags)
        report = _execute(task, rec, flags, stream)
        data = json.dumps(report).encode()
        view = memoryview(data)
        while view:
            n = os.write(write_fd, view[:1 << 16])
            view = view[n:]
    except BaseException:
        code = 3
    finally:
        os._exit(code)


def _stack_depth() -> int:  # pragma: no cover - runs in the child
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back  # type: ignore[assignment]
    return depth


def _limit_resources(timeout: float) -> None:  # pragma: no cover - runs in the child
    try:
        import resource

        cpu = int(timeout) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = vm + (2 << 30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, OSError, ValueError):
        pass


def _in_process(task: Callable[[Recorder], Any],
                rec: Recorder) -> dict[str, Any]:  # pragma: no cover - Windows
    flags: dict[str, Any] = {}
    stream = _CappedStream(OUTPUT_LIMIT, flags)
    saved = sys.stdout, sys.stderr
    undo = _guard_reference_searches(flags)
    undo_open = _guard_test_data(flags)
    sys.stdout = sys.stderr = stream  # type: ignore[assignment]
    try:
        return _execute(task, rec, flags, stream)
    finally:
        sys.stdout, sys.stderr = saved
        undo()
        undo_open()
