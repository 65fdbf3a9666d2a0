"""Whether a tree tells a progressive deepening that orders the root's children by their values
in the previous iteration (fail-soft bounds included) from one that searches the previous best
child first and the others in static order (issue #35): the leaves each evaluates, iteration by
iteration, in every cut rule and fail mode.

Both are the grader's own sample of the assignment's deepening (``grading/samples``): the
correct one, and the one that makes the ``root_values`` mistake. Below the root they search
alike: alpha-beta with the previous best child first, the others in static order, a child the
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

>>> [leaves[3:] for leaves in iteration_leaves(tree, 3, DeepeningSample())][2]
[(0, 0, 1), (0, 0, 0), (1, 0, 1), (1, 0, 0)]
>>> [leaves[3:] for leaves in iteration_leaves(tree, 3, DeepeningSample("root_values"))][2]
[(1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 0, 0)]
>>> root_values_shows(tree, 3), root_values_shows(tree, 2)
(True, False)
>>> root_values_shows(GameTree.from_nested([[1, 2], [3, 4]]).with_static(), 2)
False
"""

from __future__ import annotations

from ...student import STATIC, Recorder
from ...tree import GameTree
from ..samples.deepening import DeepeningSample

__all__ = ["root_values_shows", "iteration_leaves"]

Path = tuple[int, ...]
CONVENTIONS = [(equal, fail) for equal in (True, False) for fail in ("soft", "hard", "one-sided")]
#: calls a recorder allows: more than any deepening of a tree a suite can describe asks
CALLS = 10_000_000


def iteration_leaves(tree: GameTree, max_depth: int, deepen: DeepeningSample
                     ) -> list[list[Path]]:
    """The leaves (static evaluations) ``deepen`` asks for in each iteration, depth 1 to
    ``max_depth``, in the order it asks."""
    recorder = Recorder(tree, limit=CALLS)
    iterations = []
    for _ in deepen(recorder.root(), max_depth):
        iterations.append([path for kind, path in recorder.calls if kind == STATIC])
        recorder.calls.clear()
    return iterations


def root_values_shows(tree: GameTree, max_depth: int) -> bool:
    """Whether, in every cut rule and fail mode, ordering the root's children by their
    previous values changes the leaves some iteration up to ``max_depth`` evaluates."""
    return all(iteration_leaves(tree, max_depth, DeepeningSample("root_values", equal, fail))
               != iteration_leaves(tree, max_depth, DeepeningSample("", equal, fail))
               for equal, fail in CONVENTIONS)
