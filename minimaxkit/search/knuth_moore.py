"""How few leaves alpha-beta can get away with.

Knuth and Moore (1975): on a uniform tree of branching b and depth d, alpha-beta with
perfect ordering evaluates exactly b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves (with distinct leaf values).

>>> knuth_moore_leaves(3, 3)
11
>>> from minimaxkit.examples import sheet_tree
>>> perfect_order_leaves(sheet_tree())
11
"""

from __future__ import annotations

from typing import Any

from ..errors import OptionError

__all__ = ["knuth_moore_leaves", "perfect_order_leaves"]


def knuth_moore_leaves(branching: int, depth: int) -> int:
    """The minimal leaf count b^⌈d/2⌉ + b^⌊d/2⌋ − 1 of a uniform tree.

    >>> [knuth_moore_leaves(2, d) for d in range(5)]
    [1, 2, 3, 5, 7]
    """
    for name, v, low in (("branching", branching, 1), ("depth", depth, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise OptionError(name, f"must be a whole number >= {low}, got {v!r}")
    return int(branching ** ((depth + 1) // 2) + branching ** (depth // 2) - 1)


def perfect_order_leaves(game: Any, state: Any = None, **options: Any) -> int:
    """Leaves alpha-beta evaluates on this tree when every node's children come in the order
    of their true values (an oracle ordering); ``options`` go to ``alphabeta``.

    >>> from minimaxkit import GameTree
    >>> perfect_order_leaves(GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    5
    """
    from . import alphabeta

    return alphabeta(game, state, order="perfect", trace=False, **options).stats.leaves
