"""A grading *task*, code that calls the student function on ``recorder.root()`` (for each
kind of check: :data:`TASKS`; each item of ``deepen``'s generator marks the end of an
iteration), run on a recorded tree in a forked copy (:class:`LocalRunner`, the student's own
runs) or through a sandboxed child (:class:`~.remote.SessionRunner`, autograde).

>>> from minimaxkit import GameTree
>>> from minimaxkit.grading.recording.outcome import describe
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

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict

from ...isolation.fork import run_forked
from ...isolation.rules import Rules, failure
from ...student import Recorder, TooManyCalls
from ...tree import GameTree
from ..testdata.places import HIDDEN_TESTS, TESTS
from .outcome import OUTPUT_LIMIT, Outcome, broken_rule, describe, failed_message

__all__ = ["Runner", "LocalRunner", "run_contained", "TIME_LIMIT", "Task", "run_tree", "TASKS",
           "RunLimits"]

TIME_LIMIT = 1.0  # seconds per test tree; a correct search of a test tree takes milliseconds
WALL = 10.0  # a tree's processor time counts; the wall clock stops it at WALL times
Task = Callable[[Recorder], Any]
#: the rules of every run of a search: output capped, the kit's searches and the test data
#: refused
RULES = Rules(output_limit=OUTPUT_LIMIT, refused_files=(TESTS, HIDDEN_TESTS))


class Runner(Protocol):
    """Where a task runs on a recorder, within ``timeout`` seconds."""

    def run(self, task: Task, rec: Recorder, timeout: float) -> Outcome:
        """What ``task`` did on ``rec`` within ``timeout`` seconds."""


def _fingerprint(tree: GameTree) -> str:
    """The tree as JSON; something else if it was changed beyond writing it out."""
    try:
        return tree.to_json()
    except Exception:  # a value replaced by something that is no number
        return "(changed beyond repair)"


class CopyRecord(TypedDict, total=False):
    """What a forked copy of :class:`LocalRunner` sends back about a task: ``status`` and
    ``message`` (as :func:`~minimaxkit.isolation.rules.failure` words a failure), the task's
    ``result``, the recorder's ``calls`` and ``marks``, its first note of an attempt to
    change the tree, and whether the tree was changed behind the interface."""

    status: str
    message: str
    result: Any
    calls: list[tuple[str, tuple[int, ...]]]
    marks: list[int]
    notes: list[str]
    changed: bool


class LocalRunner:
    """Tasks in a forked copy of this process: the tree and the recorder are the copy's."""

    def run(self, task: Task, rec: Recorder, timeout: float) -> Outcome:
        """``task`` in a forked copy, its record sent back: a change to the tree, a rule broken or
        too many calls said as the outcome's status."""
        start = time.monotonic()
        before = _fingerprint(rec.tree)

        def copy() -> CopyRecord:
            out = CopyRecord(status="ok", message="")
            try:
                out["result"] = task(rec)
            except TooManyCalls as err:
                out = CopyRecord(status="looping", message=str(err))
            except BaseException as err:  # anything the student code raised, SystemExit too
                out = CopyRecord(**failure(err))
            if len(rec.calls) >= rec.limit and out["status"] in ("ok", "raised", "flagged"):
                out = CopyRecord(status="looping", message=f"more than {rec.limit} calls to "
                                 "children()/static(): the search seems to loop")
            return CopyRecord(**out, calls=rec.calls, marks=rec.marks,
                              notes=rec.violations[:1],
                              changed=_fingerprint(rec.tree) != before)

        report = run_forked(copy, timeout=timeout, rules=RULES, wall=WALL)
        # the copy's record; where the copy itself failed (crashed, timed out), the report
        value: CopyRecord = report["value"] if "value" in report else \
            CopyRecord(status=report.get("status", "crashed"),
                       message=report.get("message", ""))
        status, message = value.get("status", "crashed"), value.get("message", "")
        broken = broken_rule(report.get("flags", {}), value.get("notes", []))
        if broken is None and value.get("changed"):
            broken = "mutated", ("changed the tree (a node's value, name or children); a "
                                 "search must leave the tree as it found it")
        if broken is not None and status not in ("timeout", "crashed"):
            status, message = broken
        message = failed_message(status, message, timeout)
        return Outcome(status, message, value.get("result"),
                       [(k, tuple(p)) for k, p in value.get("calls", [])],
                       list(value.get("marks", [])), report.get("printed", ""),
                       time.monotonic() - start)


def run_contained(task: Task, tree: GameTree, *, timeout: float = TIME_LIMIT,
                  call_limit: int = 50_000, runner: Runner | None = None) -> Outcome:
    """``task`` (returning :func:`~.outcome.describe` of what it got) on a
    :class:`~minimaxkit.student.Recorder` of ``tree``, with ``runner`` (default: forked)."""
    return (runner or LocalRunner()).run(task, Recorder(tree, limit=call_limit), timeout)


def _call(*args: Any) -> Callable[[Callable[..., Any], dict[str, Any]], Task]:
    def make(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
        extra = [opts[a] if isinstance(a, str) else a for a in args]
        return lambda rec: describe(fn(rec.root(), *extra))
    return make


def _window_task(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
    """``fn(root, α, β)`` with the tree's ``window`` (test data: ``"window": [lo, hi]``),
    else ``(-∞, ∞)``."""
    lo, hi = opts.get("window") or (-math.inf, math.inf)
    return lambda rec: describe(fn(rec.root(), lo, hi))


def _order_task(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
    def task(rec: Recorder) -> Any:
        return {",".join(map(str, n.path)): describe(fn(rec.node(n.path)))
                for n in rec.tree.nodes() if n.children}
    return task


def _deepen_task(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
    def task(rec: Recorder) -> Any:
        got = fn(rec.root(), opts["max_depth"], opts.get("reorder", True))
        if isinstance(got, list | tuple) or not hasattr(got, "__next__"):
            return {"returned": describe(got)}
        yields = []
        for item in got:
            rec.mark()
            yields.append(describe(item))
            if len(yields) > opts["max_depth"] + 3:
                break
        return {"yields": yields}
    return task


TASKS: dict[str, Callable[[Callable[..., Any], dict[str, Any]], Task]] = {
    "minimax": _call(), "minimax_limited": _call("depth"), "best_move": _call("depth"),
    "alphabeta": _window_task, "ordered_alphabeta": _window_task,
    "order": _order_task, "deepen": _deepen_task,
}


@dataclass(frozen=True)
class RunLimits:
    """How a task runs: at most ``timeout`` seconds (of processor time) on a tree, with
    ``runner`` (default: :class:`LocalRunner`)."""

    timeout: float = TIME_LIMIT
    runner: Runner | None = None


def run_tree(check: str, fn: Callable[..., Any], tree: GameTree,
             options: dict[str, Any] | None = None, *,
             limits: RunLimits = RunLimits()) -> Outcome:
    """What ``fn`` did on ``tree`` for ``check`` (its ``options``: a depth...), run within
    ``limits``."""
    return run_contained(TASKS[check](fn, options or {}), tree, timeout=limits.timeout,
                         runner=limits.runner)
