"""What each kind of check asks of the student function, as a task for a runner.

=====================  ===================================
check                  the call
=====================  ===================================
``minimax``            ``f(root)``
``minimax_limited``    ``f(root, depth)``
``best_move``          ``f(root, depth)`` -> ``(value, child)``
``alphabeta``          ``f(root, -inf, inf)`` (``ordered_alphabeta`` too)
``order``              ``f(node)`` at every interior node
``deepen``             ``f(root, max_depth, reorder)``, a generator: each item marks the
                       end of an iteration in the recording
=====================  ===================================
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...student import Recorder
from ...tree import GameTree
from .outcome import Outcome, describe
from .runners import TIME_LIMIT, Runner, Task, run_contained

__all__ = ["run_tree", "TASKS"]

INF = math.inf


def _call(*args: Any) -> Callable[[Callable[..., Any], dict[str, Any]], Task]:
    def make(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
        extra = [opts[a] if isinstance(a, str) else a for a in args]
        return lambda rec: describe(fn(rec.root(), *extra))
    return make


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
    "alphabeta": _call(-INF, INF), "ordered_alphabeta": _call(-INF, INF),
    "order": _order_task, "deepen": _deepen_task,
}


def run_tree(check: str, fn: Callable[..., Any], tree: GameTree,
             options: dict[str, Any] | None = None, *, timeout: float = TIME_LIMIT,
             runner: Runner | None = None) -> Outcome:
    """Run ``fn`` on ``tree`` for ``check`` with ``runner`` and return what it did."""
    return run_contained(TASKS[check](fn, options or {}), tree, timeout=timeout, runner=runner)
