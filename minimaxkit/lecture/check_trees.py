"""The trees the lecture checks run a reader's search on: every classic bug must show.

A search that is right on the example trees can still be wrong on others: a bound never
passed down shows only below depth 3, a slip at MIN nodes only under a MIN root, a cut on
``>`` where ``>=`` belongs only where values tie, a test of ``value >= 0`` only where values
are negative, a depth counted wrongly only where some leaves lie above the limit. So the
checks' random trees have all of it: leaf values from -9 to 9 (negative, zero, positive,
many ties), MAX and MIN roots in turn, and leaves at uneven depths (a child above the
deepest level is a leaf now and then), besides the uniform trees of the lectures.

>>> trees = check_trees(12, depth=5)
>>> any(n.value < 0 for t in trees for n in t.leaves()), {t.root.is_max for t in trees}
(True, {False, True})
>>> sorted({len(n.path) for t in trees for n in t.leaves()})
[2, 3, 4, 5]
>>> trees[0] == check_trees(1, depth=5)[0]   # the same trees every time
True
"""

from __future__ import annotations

import random
from typing import Any

from ..tree import GameTree

__all__ = ["check_trees", "uneven_tree", "VALUES", "LEAF_CHANCE"]

#: Leaf values of the checks' random trees: negative, zero and positive, with ties.
VALUES = (-9, 9)
#: How often a node below the root's children, above the deepest level, is a leaf.
LEAF_CHANCE = 0.2


def uneven_tree(seed: int, *, depth: int, branching: tuple[int, int] = (2, 3),
                root: str = "max") -> GameTree:
    """A seeded random tree at most ``depth`` deep: below the root's children, each child
    above the deepest level is a leaf with probability :data:`LEAF_CHANCE`; every node at
    ``depth`` is a leaf. Leaf values are whole numbers drawn from :data:`VALUES`.

    >>> t = uneven_tree(3, depth=4, root="min")
    >>> t.root.is_max, t.height <= 4
    (False, True)
    """
    rng = random.Random(seed)
    lo, hi = VALUES

    def grow(level: int) -> Any:
        if level == depth or (level >= 2 and rng.random() < LEAF_CHANCE):
            return rng.randint(lo, hi)
        return [grow(level + 1) for _ in range(rng.randint(*branching))]

    return GameTree.from_nested(grow(0), root=root)


def check_trees(n: int, *, depth: int, first_seed: int = 0) -> list[GameTree]:
    """``n`` trees for a check: uneven (:func:`uneven_tree`) with values from -9 to 9,
    MAX and MIN roots in turn, the same for the same arguments."""
    return [uneven_tree(first_seed + i, depth=depth,
                        root="max" if (first_seed + i) % 2 == 0 else "min")
            for i in range(n)]
