"""Minimax with one mistake (assignment 1): to the leaves, to a depth limit and the best move.

>>> from minimaxkit import GameTree
>>> from minimaxkit.student import Recorder
>>> tree = GameTree.from_nested([[-3, -5], [-4, 2]])
>>> MinimaxSample("start_at_zero").minimax(Recorder(tree).root())
0
>>> min_root = GameTree.from_nested([[1, 2]], root="min")   # A is MIN, its child B MAX: 2
>>> MinimaxSample("parity").minimax(Recorder(min_root).root())
1
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...student import SearchNode
from . import grading_sample

__all__ = ["MINIMAX_BUGS", "MinimaxSample", "buggy_minimax"]

INF = math.inf

#: the mistakes :class:`MinimaxSample` can make, each to the bug (in ``BUGS``) it is a form of,
#: and the checks it can make them in
MINIMAX_BUGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "start_at_zero": ("start_at_zero", ("minimax", "minimax_limited", "best_move")),
    "min_at_zero": ("start_at_zero", ("minimax", "minimax_limited", "best_move")),
    "parity": ("parity", ("minimax", "minimax_limited", "best_move")),
    "swapped": ("swapped", ("minimax", "minimax_limited", "best_move")),
    "always_max": ("always_max", ("minimax", "minimax_limited")),
    "depth_deeper": ("depth_deeper", ("minimax_limited", "best_move")),
    "depth_shallower": ("depth_shallower", ("minimax_limited", "best_move")),
    "root_always_max": ("move_always_max", ("best_move",)),
    "ignores_depth": ("ignores_depth", ("best_move",)),
    "fixed_depth": ("fixed_depth", ("best_move",)),
    "move_from_zero": ("start_at_zero", ("best_move",)),
}


@dataclass(frozen=True)
class MinimaxSample:
    """Minimax making ``bug`` (a key of :data:`MINIMAX_BUGS`)."""

    bug: str

    def is_max(self, node: SearchNode) -> bool:
        grading_sample()  # refused while work is graded (the package's docstring)
        if self.bug == "parity":
            return node.depth % 2 == 0
        if self.bug == "always_max":
            return True
        return not node.is_max() if self.bug == "swapped" else node.is_max()

    def best(self, values: list[float], at_max: bool) -> float:
        """The largest (MAX) or smallest value, from a running value started wrongly."""
        if at_max:
            return max([0, *values]) if self.bug == "start_at_zero" else max(values)
        return min([0, *values]) if self.bug == "min_at_zero" else min(values)

    def minimax(self, node: SearchNode) -> float:
        if node.is_leaf():
            return node.static()
        values = [self.minimax(c) for c in node.children()]
        return self.best(values, self.is_max(node))

    def limited(self, node: SearchNode, max_depth: int) -> float:
        limit = max_depth + {"depth_deeper": 1, "depth_shallower": -1}.get(self.bug, 0)
        if node.depth == limit or node.is_leaf():
            return node.static()
        values = [self.limited(c, max_depth) for c in node.children()]
        return self.best(values, self.is_max(node))

    def best_move(self, node: SearchNode, max_depth: int) -> tuple[float, Any]:
        depth = 2 if self.bug == "fixed_depth" else max_depth
        at_max = True if self.bug == "root_always_max" else self.is_max(node)
        best_value: float = (0 if self.bug == "move_from_zero" else -INF if at_max else INF)
        best_child = None
        for child in node.children():
            value = self.minimax(child) if self.bug == "ignores_depth" else \
                self.limited(child, depth)
            if (value > best_value) if at_max else (value < best_value):
                best_value, best_child = value, child
        return best_value, best_child

    def for_check(self, check: str) -> Callable[..., Any]:
        """The function a test cell of ``check`` calls."""
        functions: dict[str, Callable[..., Any]] = {
            "minimax": self.minimax, "minimax_limited": self.limited,
            "best_move": self.best_move}
        return functions[check]


def buggy_minimax(bug: str, check: str) -> Callable[..., Any]:
    """A sample for ``check`` with one ``bug`` of :data:`MINIMAX_BUGS`."""
    if bug not in MINIMAX_BUGS or check not in MINIMAX_BUGS[bug][1]:
        raise ValueError(f"no sample {bug!r} for {check!r}; the samples are "
                         f"{sorted(b for b, (_, c) in MINIMAX_BUGS.items() if check in c)}")
    return MinimaxSample(bug).for_check(check)
