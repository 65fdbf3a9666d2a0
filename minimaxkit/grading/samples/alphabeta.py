"""Alpha-beta with one mistake (assignments 2 and 3): :func:`buggy_alphabeta`.

>>> from minimaxkit.examples import aima_5_2
>>> from minimaxkit.student import Recorder
>>> rec = Recorder(aima_5_2())
>>> buggy_alphabeta("returns_alpha")(rec.root(), -math.inf, math.inf)
-inf
>>> len(rec.evaluated)
9
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ...student import SearchNode
from . import grading_sample

__all__ = ["SAMPLE_BUGS", "buggy_alphabeta", "AlphaBetaSample"]

INF = math.inf
Path = tuple[int, ...]

#: the mistakes :func:`buggy_alphabeta` can make, each to the bug (in ``BUGS``) it is a form of
SAMPLE_BUGS: dict[str, str] = {
    "not_passed_max": "not_passed_max", "not_passed_min": "not_passed_min",
    "alpha_not_updated": "alpha_not_updated", "beta_not_updated": "beta_not_updated",
    "root_forgets_alpha": "root_forgets_alpha", "cut_before_update": "cut_before_update",
    "wrong_bound": "over_pruning", "both_bounds": "over_pruning",
    "window_swapped": "wrong_window", "window_inverted": "wrong_window",
    "window_low": "wrong_window",
    "window_high": "wrong_window", "window_ignored": "window_ignored",
    "cut_returns_infinity": "cut_returns_infinity", "wrong_comparison": "wrong_comparison",
    "beta_max": "beta_max", "alpha_min": "alpha_min",
    "returns_alpha": "returns_bound", "returns_beta": "returns_bound",
    "start_at_zero": "start_at_zero", "min_at_zero": "start_at_zero",
    "parity": "parity", "shared_bounds": "shared_bounds",
    "static_for_order": "static_for_order", "root_only_ordering": "root_only_ordering",
    "reversed_list": "reversed_ordering", "ties_reversed": "ties_reversed",
    "ties_reversed_max": "ties_reversed", "ties_reversed_min": "ties_reversed",
}
#: mistakes of the ordering only, made only by a sample that orders
ORDERING_ONLY = ("static_for_order", "root_only_ordering", "reversed_list", "ties_reversed",
                 "ties_reversed_max", "ties_reversed_min")
#: the window a sample searches in place of the one it is given (``window_swapped`` takes the
#: given one the wrong way round: ``(β, α)``; ``window_inverted`` starts every search at
#: ``(∞, -∞)``, whatever it is given)
_WINDOWS = {"window_low": (-INF, -INF), "window_high": (INF, INF),
            "window_inverted": (INF, -INF),
            "window_ignored": (-INF, INF)}


@dataclass(frozen=True)
class AlphaBetaSample:
    """Alpha-beta making ``bug`` (a key of :data:`SAMPLE_BUGS`), cutting on equality or not,
    failing ``"soft"``, ``"hard"`` (clamped) or ``"one-sided"``, searching the children in
    the tree's order or (``ordered``) by their estimates."""

    bug: str
    equal: bool = True
    fail: str = "soft"
    ordered: bool = False
    #: when a list, each node's (path, MAX?, v, what it returned) is added as it returns
    log: list[tuple[Path, bool, float, float]] | None = field(default=None, compare=False)

    def __call__(self, node: SearchNode, alpha: float, beta: float) -> float:
        window = (beta, alpha) if self.bug == "window_swapped" else \
            _WINDOWS.get(self.bug, (alpha, beta))
        shared = [window[0], window[1]] if self.bug == "shared_bounds" else None
        return self.search(node, window[0], window[1], shared)

    # ----- the node's decisions ----------------------------------------------------------
    def is_max(self, node: SearchNode) -> bool:
        grading_sample()  # refused while work is graded (the package's docstring)
        return node.depth % 2 == 0 if self.bug == "parity" else node.is_max()

    def beyond(self, v: float, bound: float, at_max: bool) -> bool:
        """v at or past ``bound`` on the side a node at MAX (or MIN) cuts."""
        if at_max:
            return v >= bound if self.equal else v > bound
        return v <= bound if self.equal else v < bound

    def cuts(self, v: float, alpha: float, beta: float, at_max: bool) -> bool:
        if self.bug == "wrong_comparison":  # the MIN test at MAX nodes and vice versa
            return self.beyond(v, alpha, False) if at_max else self.beyond(v, beta, True)
        if self.bug == "wrong_bound":  # the node's own bound
            return self.beyond(v, alpha, True) if at_max else self.beyond(v, beta, False)
        if self.bug == "both_bounds":
            return self.beyond(v, beta, True) or self.beyond(v, alpha, False)
        if self.bug == "cut_before_update":  # the window before this child's value
            return self.beyond(alpha, beta, True)
        return self.beyond(v, beta, True) if at_max else self.beyond(v, alpha, False)

    def start(self, alpha: float, beta: float, at_max: bool) -> float:
        if self.fail != "soft":
            return alpha if at_max else beta
        if self.bug == "start_at_zero" and at_max or self.bug == "min_at_zero" and not at_max:
            return 0
        return -INF if at_max else INF

    def updated(self, alpha: float, beta: float, v: float, at_max: bool
                ) -> tuple[float, float]:
        if at_max and self.bug != "alpha_not_updated":
            alpha = min(alpha, v) if self.bug == "alpha_min" else max(alpha, v)
        elif not at_max and self.bug != "beta_not_updated":
            beta = max(beta, v) if self.bug == "beta_max" else min(beta, v)
        return alpha, beta

    def returned(self, v: float, alpha: float, beta: float, at_max: bool) -> float:
        if self.bug == "returns_alpha" and not at_max:
            return alpha
        if self.bug == "returns_beta" and at_max:
            return beta
        if self.fail == "hard":
            return max(alpha, min(v, beta))
        return v

    def cut_returned(self, v: float, alpha: float, beta: float, at_max: bool) -> float:
        """What a node returns where it cuts (``alpha``, ``beta``: its window on entry)."""
        if self.bug == "cut_returns_infinity":
            return INF if at_max else -INF
        return self.returned(v, alpha, beta, at_max)

    def children(self, node: SearchNode, at_max: bool) -> list[SearchNode]:
        kids = node.children()
        if not self.ordered or (self.bug == "root_only_ordering" and node.depth > 0):
            return kids
        if self.bug == "static_for_order":
            return sorted(kids, key=lambda c: c.static(), reverse=at_max)
        if self.bug in ("ties_reversed", "ties_reversed_" + ("max" if at_max else "min")):
            # sorted the other way, then reversed: equal estimates come out backwards
            return sorted(kids, key=lambda c: c.estimate(), reverse=not at_max)[::-1]
        best_first = sorted(kids, key=lambda c: c.estimate(), reverse=at_max)
        return best_first[::-1] if self.bug == "reversed_list" else best_first

    def child_window(self, alpha: float, beta: float, at_max: bool) -> tuple[float, float]:
        fresh = self.bug == ("not_passed_max" if at_max else "not_passed_min")
        return (-INF, INF) if fresh else (alpha, beta)

    # ----- the search --------------------------------------------------------------------
    def search(self, node: SearchNode, alpha: float, beta: float,
               shared: list[float] | None) -> float:
        if node.is_leaf():
            return node.static()
        if shared is not None:  # a window every call shares: children change their parent's
            alpha, beta = shared
        at_max = self.is_max(node)
        entry = (alpha, beta)
        v = self.start(alpha, beta, at_max)
        for child in self.children(node, at_max):
            w = self.search(child, *self.child_window(alpha, beta, at_max), shared)
            if shared is not None:
                alpha, beta = shared
            v = max(v, w) if at_max else min(v, w)
            if node.depth == 0 and self.bug == "root_forgets_alpha":
                continue
            if self.cuts(v, alpha, beta, at_max):
                return self._returns(node, v, self.cut_returned(v, *entry, at_max), at_max)
            alpha, beta = self.updated(alpha, beta, v, at_max)
            if shared is not None:
                shared[:] = [alpha, beta]
        return self._returns(node, v, self.returned(v, *entry, at_max), at_max)

    def _returns(self, node: SearchNode, v: float, value: float, at_max: bool) -> float:
        if self.log is not None:
            self.log.append((node.path, at_max, v, value))
        return value


def buggy_alphabeta(bug: str, *, equal: bool = True, hard: bool = False, fail: str | None = None,
                    ordered: bool = False) -> Callable[[SearchNode, float, float], float]:
    """A sample alpha-beta with one ``bug`` of :data:`SAMPLE_BUGS`, in a convention (``fail``
    ``"soft"``, ``"hard"`` or ``"one-sided"``; ``hard=True`` is the one-sided form, as it was
    named before), searching the children (``ordered``) by their estimates, best first."""
    if bug not in SAMPLE_BUGS:
        raise ValueError(f"unknown sample bug {bug!r}; the samples are {sorted(SAMPLE_BUGS)}")
    mode = fail or ("one-sided" if hard else "soft")
    return AlphaBetaSample(bug, equal, mode, ordered)
