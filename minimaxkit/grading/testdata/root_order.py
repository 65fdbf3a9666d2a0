"""Whether a tree tells a progressive deepening that orders the root's children by their values
in the previous iteration (fail-soft bounds included) from one that searches the previous best
child first and the others in static order (issue #35): the leaves each evaluates, iteration by
iteration, in every cut rule and fail mode.

Below the root both search as the assignment's solution does: alpha-beta with the previous
best child first, the others in static order (``estimate`` is the static value), a child the
best when it raises the node's α (a cut counts), one dict of best children for all iterations.

>>> from minimaxkit import GameTree
>>> def n(value, *children):
...     return {"value": value, "children": list(children)} if children else {"value": value}
>>> tree = GameTree.from_dict(n(7,
...     n(8, n(5, n(-1), n(7)), n(9, n(6), n(7), n(-2))),
...     n(5, n(6, n(2), n(7)), n(8, n(-6), n(7))),
...     n(6, n(8, n(4), n(7)), n(9, n(-5), n(8)))))

At depth 3 D (the best at depth 2) comes first either way; then the static order is B (8), C
(5), but at depth 2 B was worth 5 and C, cut off after its first child, returned the bound 6:

>>> [leaves[3:] for leaves in _Deepening(True, "soft", False).iterations(tree, 3)][2]
[(0, 0, 1), (0, 0, 0), (1, 0, 1), (1, 0, 0)]
>>> [leaves[3:] for leaves in _Deepening(True, "soft", True).iterations(tree, 3)][2]
[(1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 0, 0)]
>>> root_values_shows(tree, 3), root_values_shows(tree, 2)
(True, False)
>>> root_values_shows(GameTree.from_nested([[1, 2], [3, 4]]).with_static(), 2)
False
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...tree import GameTree, Node

__all__ = ["root_values_shows"]

INF = math.inf
Path = tuple[int, ...]
CONVENTIONS = [(equal, fail) for equal in (True, False) for fail in ("soft", "hard", "one-sided")]


@dataclass
class _Deepening:
    """One deepening's state: its conventions, whether it orders the root by the previous
    iteration's values, the best children found so far, the root's children's last values and
    the leaves (static evaluations) of the iteration under way."""

    equal: bool
    fail: str
    by_values: bool
    depth: int = 0
    best: dict[Path, Path] = field(default_factory=dict)
    previous: dict[Path, float] = field(default_factory=dict)
    leaves: list[Path] = field(default_factory=list)

    def ordered(self, node: Node) -> list[Node]:
        children = sorted(node.children, key=_static, reverse=node.is_max)
        if node.path == () and self.by_values and self.previous:
            return sorted(children, key=lambda c: self.previous[c.path], reverse=node.is_max)
        first = next((c for c in children if c.path == self.best.get(node.path)), None)
        if first is not None:
            children.remove(first)
            children.insert(0, first)
        return children

    def search(self, node: Node, alpha: float, beta: float) -> float:
        """``node``'s value in the MAX view, searched in ``(alpha, beta)``."""
        if len(node.path) == self.depth or not node.children:
            self.leaves.append(node.path)
            return _static(node)
        s = 1 if node.is_max else -1
        a, b = (alpha, beta) if node.is_max else (-beta, -alpha)
        v = -INF if self.fail == "soft" else a
        for child in self.ordered(node):
            lo, hi = (a, b) if node.is_max else (-b, -a)
            cv = s * self.search(child, lo, hi)
            if node.path == ():
                self.previous[child.path] = s * cv
            if cv > a:
                self.best[node.path] = child.path
            v = max(v, cv)
            if v >= b if self.equal else v > b:
                break
            a = max(a, v)
        if self.fail == "hard":
            v = min(v, b)
        return s * v

    def iterations(self, tree: GameTree, max_depth: int) -> Iterator[list[Path]]:
        """The leaves each iteration evaluates, depth 1 to ``max_depth``."""
        for depth in range(1, max_depth + 1):
            self.depth, self.leaves = depth, []
            self.search(tree.root, -INF, INF)
            yield self.leaves


def _static(node: Node) -> float:
    assert node.value is not None
    return node.value


def root_values_shows(tree: GameTree, max_depth: int) -> bool:
    """Whether, in every cut rule and fail mode, ordering the root's children by their
    previous values changes the leaves some iteration up to ``max_depth`` evaluates."""
    return all(list(_Deepening(equal, fail, True).iterations(tree, max_depth))
               != list(_Deepening(equal, fail, False).iterations(tree, max_depth))
               for equal, fail in CONVENTIONS)
