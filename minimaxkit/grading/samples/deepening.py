"""Progressive deepening with one mistake (assignment 4), written as the assignment's solution
is: alpha-beta to each depth, one dict of best children for all iterations. Without a mistake
it searches exactly what the kit's ``iter_deepen`` searches (a test checks it in every
convention), which is what makes a sample's leaves the signature of its bug.

>>> from minimaxkit import GameTree
>>> from minimaxkit.student import Recorder
>>> tree = GameTree.from_dict({"value": 1, "children": [   # B looks best, C is
...     {"value": 9, "children": [{"value": 1}, {"value": 2}]},
...     {"value": 1, "children": [{"value": 5}, {"value": 6}]}]})
>>> [(v, c.name) for v, c in DeepeningSample()(Recorder(tree).root(), 2)]
[(9, 'B'), (5, 'C')]
>>> [(v, c.name) for v, c in DeepeningSample("first_move")(Recorder(tree).root(), 2)]
[(9, 'B'), (5, 'B')]
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...student import SearchNode
from . import grading_sample

__all__ = ["DEEPENING_BUGS", "DeepeningSample"]

INF = math.inf
Path = tuple[int, ...]

#: the mistakes :class:`DeepeningSample` can make, each to the bug (in ``BUGS``) it is a form
#: of; "" makes none
DEEPENING_BUGS: dict[str, str] = {
    "no_reordering": "no_reordering", "previous_only": "previous_only",
    "first_move": "first_move", "tie_last": "tie_last", "tie_last_root": "tie_last",
    "cut_best_not_kept": "cut_best_not_kept", "fail_low_best": "fail_low_best",
    "depth_deeper": "depth_deeper", "depth_shallower": "depth_shallower",
    "start_at_zero": "start_at_zero", "parity": "parity",
    "static_for_order": "static_for_order", "previous_not_first": "previous_not_first",
    "root_values": "root_values",
}


@dataclass
class _Memory:
    """One iteration's depth and reordering, the best children it orders by (``known``) and
    the ones it finds (``found``): the same dict, except for a deepening that remembers one
    iteration only."""

    depth: int = 0
    reorder: bool = True
    known: dict[SearchNode, SearchNode] = field(default_factory=dict)
    found: dict[SearchNode, SearchNode] = field(default_factory=dict)
    #: the root's children's values in the last iteration (bounds included)
    previous: dict[SearchNode, float] = field(default_factory=dict)


@dataclass(frozen=True)
class DeepeningSample:
    """``deepen(node, max_depth, reorder=True)`` making ``bug`` (a key of
    :data:`DEEPENING_BUGS`, or "" for none), cutting on equality or not, failing ``"soft"``,
    ``"hard"`` (clamped) or ``"one-sided"``."""

    bug: str = ""
    equal: bool = True
    fail: str = "soft"
    #: when given, every (depth, node's path, earlier best child's path) where an iteration
    #: to that depth moves an earlier iteration's best child ahead of the static order
    moved_first: list[tuple[int, Path, Path]] | None = field(default=None, compare=False)

    def __call__(self, node: SearchNode, max_depth: int, reorder: bool = True
                 ) -> Iterator[tuple[float, Any]]:
        memory = _Memory()
        memory.found = memory.known
        first = None
        for depth in range(1, max_depth + 1):
            if self.bug == "previous_only":
                memory.known, memory.found = memory.found, {}
            reach = depth + {"depth_deeper": 1, "depth_shallower": -1}.get(self.bug, 0)
            memory.depth = max(reach, 0)
            memory.reorder = reorder and self.bug != "no_reordering"
            value = self.search(node, -INF, INF, memory)
            move = memory.found.get(node)
            first = move if first is None else first
            yield value, first if self.bug == "first_move" else move

    # ----- the node's decisions ----------------------------------------------------------
    def is_max(self, node: SearchNode) -> bool:
        grading_sample()  # refused while work is graded (the package's docstring)
        return node.depth % 2 == 0 if self.bug == "parity" else node.is_max()

    def ordered(self, node: SearchNode, at_max: bool, memory: _Memory) -> list[SearchNode]:
        children = node.children()
        if not memory.reorder:
            return children
        read = (lambda c: c.static()) if self.bug == "static_for_order" else \
            (lambda c: c.estimate())
        children = sorted(children, key=read, reverse=at_max)
        if self.bug == "root_values" and node.depth == 0 and memory.previous:
            return sorted(children, key=lambda c: memory.previous[c], reverse=at_max)
        if node in memory.known and self.moved_first is not None and \
                children[0] != memory.known[node]:
            self.moved_first.append((memory.depth, node.path, memory.known[node].path))
        if node in memory.known and self.bug != "previous_not_first":
            children.remove(memory.known[node])
            children.insert(0, memory.known[node])
        return children

    def raises(self, v: float, cv: float, a: float, node: SearchNode) -> bool:
        """Whether a child's value ``cv`` (in the node's own view; ``v`` the node's value
        before it, ``a`` its α) makes it the best child: it raised α. With ``v >= alpha``
        written for ``v > alpha`` every later child does; at the root's own loop written with
        ``value >= best``, a tie does."""
        if self.bug == "tie_last":
            return max(v, cv) >= a
        if self.bug == "tie_last_root" and node.depth == 0:
            return cv >= a
        return cv > a

    def cuts(self, v: float, b: float) -> bool:
        return v >= b if self.equal else v > b

    def start(self, a: float, at_max: bool) -> float:
        if self.fail != "soft":
            return a
        return 0 if self.bug == "start_at_zero" and at_max else -INF

    # ----- the search, each node in its own view (it maximises s * value in (a, b)) -------
    def search(self, node: SearchNode, alpha: float, beta: float, memory: _Memory) -> float:
        if node.depth == memory.depth or node.is_leaf():
            return node.static()
        at_max = self.is_max(node)
        s = 1 if at_max else -1
        a, b = (alpha, beta) if at_max else (-beta, -alpha)
        v = self.start(a, at_max)
        top: tuple[float, SearchNode | None] = (-INF, None)  # the best-scoring child
        for child in self.ordered(node, at_max, memory):
            lo, hi = (a, b) if at_max else (-b, -a)
            cv = s * self.search(child, lo, hi, memory)
            if node.depth == 0:
                memory.previous[child] = s * cv
            top = (cv, child) if cv > top[0] or top[1] is None else top
            raised = self.raises(v, cv, a, node)
            v = max(v, cv)
            if self.bug == "cut_best_not_kept" and self.cuts(v, b):
                break
            if raised:
                memory.found[node] = child
            if self.cuts(v, b):
                break
            a = max(a, v)
        if self.bug == "fail_low_best" and top[1] is not None:
            memory.found[node] = top[1]
        if self.fail == "hard":
            v = min(v, b)
        return s * v
