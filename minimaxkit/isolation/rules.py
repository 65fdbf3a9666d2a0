"""What student code may not do while it is graded, and what it is told. A worker (a process
forked for one test) starts with :func:`enter`: output captured and capped, no ``input()``,
CPU time and memory capped, randomness fixed, and as the :class:`Rules` say, the kit's
searches and the test data refused (noted in ``flags``). In the sandbox the search modules are
also replaced by :data:`SEARCH_STUB` (:func:`search_masks`), so no reload or copy can search.

>>> failure(ZeroDivisionError("division by zero"))["status"]
'raised'
>>> safe_repr("x" * 100)[-3:]
'...'
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypedDict

from .bwrap import kit_folder

__all__ = ["KIT_SEARCHES", "Rules", "Flags", "Failure", "Refused", "CappedStream", "enter",
           "failure", "safe_repr", "safe_str", "student_frames", "other_processes", "kill_others",
           "kill_group", "search_masks", "SEARCH_STUB"]

#: the modules that hold the kit's searches (every other search of the kit calls them): the
#: search package's front, its old path, the public searches, the plain and the table search,
#: and progressive deepening (the modules ``minimaxkit.student.SEARCH_MODULES`` names), and the
#: grader's sample searches (some are right where their one mistake does not show)
KIT_SEARCHES = ("minimaxkit.search", "minimaxkit.search.core", "minimaxkit.search.fronts",
                "minimaxkit.search.negamax_search", "minimaxkit.search.plain_search",
                "minimaxkit.search.table_search", "minimaxkit.deepening",
                "minimaxkit.grading.samples")
SEARCH_STUB = '''"""Not here: minimaxkit's own searches are refused while work is graded."""


def run_search(*args, **kwargs):
    raise RuntimeError("minimaxkit's own searches are not available while your work is "
                       "graded: write the search yourself")


prepare = run_search


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def refused(*args, **kwargs):
        return run_search(*args, **kwargs)  # the grader's refusal, when set, names the search
    refused.__code__ = refused.__code__.replace(co_name=name)
    refused.__name__ = refused.__qualname__ = name
    return refused
'''


class Flags(TypedDict, total=False):
    """The rules a worker broke, as it noted them (sent back in its ``ended`` report): the
    output's limit passed, the kit's search it called, the test data file it opened, the
    processes it left running."""

    output: int
    reference: str
    refused_file: str
    processes: int


class Failure(TypedDict):
    """Student code's failure in words (:func:`failure`): a status ("raised", "recursion",
    "memory", "flagged") and its message."""

    status: str
    message: str


@dataclass(frozen=True)
class Rules:
    """One child's rules: characters of output per test (past them, stop the test or drop the
    rest), the kit's searches refused or not, the names of files ``open`` refuses (a
    grader's test data, whose stored answers would answer the tests), and whether a test's
    worker must work alone."""

    output_limit: int = 200_000
    stop_output: bool = True
    refuse_searches: bool = True
    refused_files: tuple[str, ...] = ()
    #: a test's worker may start no process and no thread, so that its processor time is all
    #: counted (a child reaped by the kernel itself, ``SIGCHLD`` ignored, leaves no trace)
    alone: bool = False
    #: no limit on processor seconds (``RLIMIT_CPU``): with one set, Linux counts a process's
    #: time by the scheduler's tick, so ``time.process_time()`` moves in 4 ms steps and a
    #: function that budgets its own time by it overshoots; the grader's limits (its clocks,
    #: the sandbox's look while idle) bound the time instead
    exact_clock: bool = False

    def to_json(self) -> str:
        """The rules as JSON, as the child's command line carries them."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """The rules :meth:`to_json` wrote."""
        data = json.loads(text)
        return cls(**{**data, "refused_files": tuple(data.get("refused_files", ()))})


class Refused(BaseException):
    """A rule was broken (noted in the flags); a BaseException, which ``except Exception`` in
    student code does not catch."""


class CappedStream(io.TextIOBase):
    """Output: ``keep`` characters kept to show; past ``limit`` in all, :class:`Refused`
    (``stop``) or nothing more taken."""

    def __init__(self, limit: int, flags: Flags, *, stop: bool = True,
                 keep: int = 2_000) -> None:
        self.parts: list[str] = []
        self.size, self.kept = 0, 0
        self.limit, self.flags, self.stop, self.keep = limit, flags, stop, keep

    def writable(self) -> bool:
        """Always writable (past the limit, writes are refused or dropped)."""
        return True

    def write(self, s: Any) -> int:
        """Take ``s``: kept while under ``keep``, counted; past ``limit`` in all, flagged and
        refused (``stop``) or dropped."""
        s = str(s)
        self.size += len(s)
        if self.size > self.limit:
            self.flags["output"] = self.limit
            if self.stop:
                raise Refused("output")
        elif self.kept < self.keep:
            self.parts.append(s)
            self.kept += len(s)
        return len(s)

    def text(self) -> str:
        """What was kept, marked where it was cut."""
        out = "".join(self.parts)
        return out if len(out) <= self.keep else out[:self.keep] + "\n[...]"


def safe_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` shortened, never raising, without memory addresses (which differ
    from run to run: a verdict must not).

    >>> class Thing: pass
    >>> safe_repr(Thing()).endswith(".Thing object>")
    True
    """
    try:
        text = repr(value)
    except Exception as err:  # a student object whose repr fails
        text = f"<{type(value).__name__} whose repr raised {type(err).__name__}>"
    return _short(re.sub(r" at 0x[0-9a-fA-F]+", "", text), limit)


def safe_str(err: BaseException, limit: int = 300) -> str:
    """``str(err)`` shortened, never raising."""
    try:
        text = str(err)
    except Exception:
        text = "(message unavailable)"
    return _short(text, limit)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def student_frames(tb: Any) -> str:
    """The student's lines: the last three frames of a traceback outside the kit."""
    kit = str(kit_folder())
    frames = [f for f in traceback.extract_tb(tb) if not f.filename.startswith(kit)][-3:]
    return "\n".join(f"    line {f.lineno}, in {_short(f.name, 80)}" +
                     (f": {_short(f.line.strip(), 120)}" if f.line else "") for f in frames)


def failure(err: BaseException) -> Failure:
    """Student code's failure in words: its status and message."""
    if isinstance(err, Refused):
        return Failure(status="flagged", message="")
    if isinstance(err, RecursionError):
        return Failure(status="recursion", message=(
            "recursion too deep (RecursionError): the function kept calling itself"))
    if isinstance(err, MemoryError):
        return Failure(status="memory", message="ran out of memory (MemoryError)")
    return Failure(status="raised", message=(
        f"raised {type(err).__name__}: {safe_str(err)}\n"
        f"{student_frames(err.__traceback__)}").rstrip())


def enter(rules: Rules, flags: Flags, timeout: float, *,
          forked: bool = True) -> tuple[CappedStream, Callable[[], None]]:
    """Put this worker under the rules: output goes to the stream returned, and the function
    returned undoes what it can (``forked`` False, a run in the caller's process, also
    leaves the limits and the random state alone)."""
    import builtins

    stream = CappedStream(rules.output_limit, flags, stop=rules.stop_output)
    saved = sys.stdout, sys.stderr, sys.stdin, builtins.input
    sys.stdout = sys.stderr = stream  # type: ignore[assignment]
    sys.stdin = io.StringIO("")

    def no_input(*args: Any) -> str:
        raise RuntimeError("input() is not available while grading")
    builtins.input = no_input
    undo: list[Callable[[], None]] = []
    if forked:
        _limit(timeout, cpu=not rules.exact_clock)
        depth, frame = 0, sys._getframe()
        while frame is not None:
            depth, frame = depth + 1, frame.f_back  # type: ignore[assignment]
        sys.setrecursionlimit(depth + 1000)
        _fix_randomness()
    if rules.refuse_searches:
        from ..student import refuse_kit_searches

        def refused(name: str) -> BaseException:
            flags["reference"] = name
            return Refused(name)
        undo.append(refuse_kit_searches(refused))
    if rules.refused_files:
        undo.append(_guard_open(flags, rules.refused_files))

    def leave() -> None:
        for step in reversed(undo):
            step()
        sys.stdout, sys.stderr, sys.stdin, builtins.input = saved  # type: ignore[assignment]
    return stream, leave


def _limit(timeout: float, *, cpu: bool = True) -> None:
    with contextlib.suppress(ImportError, OSError, ValueError):
        import resource

        if cpu:
            seconds = int(timeout) + 2
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = vm + (2 << 30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _fix_randomness() -> None:
    """One random state for every test (``PYTHONHASHSEED`` is fixed for the child): a
    function that uses random numbers gives the same results on every run."""
    import random

    random.seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        with contextlib.suppress(Exception):  # a student's replacement of numpy.random
            numpy.random.seed(0)


def _guard_open(flags: Flags, names: tuple[str, ...]) -> Callable[[], None]:
    """``open`` refuses the files called ``names``, noted as ``refused_file``; the undo."""
    import builtins

    original = builtins.open

    def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | bytes | os.PathLike) and \
                os.path.basename(os.fsdecode(file)) in names:
            flags["refused_file"] = os.path.basename(os.fsdecode(file))
            raise Refused("a refused file")
        return original(file, *args, **kwargs)

    builtins.open = io.open = guarded_open  # type: ignore[assignment]

    def undo() -> None:
        builtins.open = io.open = original
    return undo


def search_masks(folder: Path) -> list[tuple[str, str]]:
    """``(stub, module file)`` masks that replace the kit's search modules and their compiled
    copies by :data:`SEARCH_STUB` (written into ``folder``)."""
    stub = folder / "refused.py"
    stub.write_text(SEARCH_STUB)
    out = []
    for name in KIT_SEARCHES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        source = Path(spec.origin)
        out.append((str(stub), str(source)))
        out += [(os.devnull, str(pyc)) for pyc in
                (source.parent / "__pycache__").glob(f"{source.stem}.*.pyc")]
    return out


def other_processes() -> list[int]:
    """What student code started and left running: the processes of this PID namespace other
    than its init, the child and this one (none outside a PID namespace)."""
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


def kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads, and ``pid`` itself."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


def kill_others(found: Callable[[], list[int]] = other_processes) -> int:
    """Kill what :func:`other_processes` finds, again while a fork loop makes more; how many."""
    killed: set[int] = set()
    for _ in range(50):
        pids = found()
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed.update(pids)
        time.sleep(0.002)
    for _ in range(100):
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    return len(killed)
