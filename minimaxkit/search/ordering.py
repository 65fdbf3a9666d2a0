"""The order in which a search tries a node's children (the ``order=`` option).

``None`` (or ``"natural"``) keeps the game's own order; ``"static"`` sorts the children by
their static values; ``"perfect"`` by their true values (an oracle, for measuring what
ordering can gain); a key function ``f(game, state, move) -> float`` by its keys. MAX nodes
try high keys first, MIN nodes low keys first, and ties keep the natural order.

>>> from minimaxkit.examples import sheet_tree
>>> tree = sheet_tree().with_static()
>>> by_static = make_order(tree, "static", limit=-1, solve=None)
>>> by_static(tree.root, 0, (), tree.moves(tree.root), True)   # values 3, 5, 2
[1, 0, 2]
>>> sorted_indices([3, None, 7, 3], mx=False)
[0, 3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..errors import OptionError
from ..game import Game
from ..trace import Path
from ..tree import GameTree

__all__ = ["OrderKey", "Order", "ORDERS", "ChildOrder", "Solve", "check_order",
           "sorted_indices", "make_order"]

#: A key function: ``f(game, state, move) -> float``; MAX tries high keys first.
OrderKey = Callable[[Any, Any, Any], float]
#: What ``order=`` accepts: one of :data:`ORDERS` or an :data:`OrderKey`.
Order = str | OrderKey | None
ORDERS = (None, "natural", "static", "perfect")
#: A node's children in search order: ``f(state, depth, path, moves, is_max) -> indices``.
ChildOrder = Callable[[Any, int, Path, Sequence[Any], bool], Sequence[int]]
#: The exact value of a state searched ``depth`` moves deep (None: to the end of the game).
Solve = Callable[[Any, "int | None"], float]


def check_order(game: Game, order: Any, depth: int | None, start: Any = None) -> None:
    """Raise :class:`OptionError` unless ``order`` is one the kit has; on a tree with
    ``order="static"``, raise :class:`~minimaxkit.errors.TreeError` naming the first node the
    search would need a static value of and that has none (``start`` is the start node)."""
    if order not in ORDERS and not callable(order):
        raise OptionError("order", f"must be None, 'static', 'perfect' or a key function "
                                   f"f(game, state, move) -> float, got {order!r}")
    if order == "static" and isinstance(game, GameTree):
        # static ordering evaluates the children of every node the search expands: the
        # interior nodes from one move below the start down to the depth limit
        level = list(start.children) if start is not None else []
        while level and (depth is None or len(level[0].path) - len(start.path) <= depth):
            for node in level:
                if node.children:
                    game.evaluate(node)  # raises TreeError naming the node without a value
            level = [c for n in level for c in n.children]


def sorted_indices(keys: Sequence[float | None], mx: bool) -> list[int]:
    """The indices of ``keys``: high to low at MAX (``mx``), low to high at MIN; unknown
    keys (None) last; ties in their natural order."""
    sign = -1 if mx else 1
    return sorted(range(len(keys)), key=lambda i: (keys[i] is None, sign * (keys[i] or 0)))


def make_order(game: Game, order: Order, limit: int, solve: Solve | None
               ) -> ChildOrder | None:
    """The :data:`ChildOrder` of ``order`` in a search whose depth limit is ``limit`` (-1: to
    the end of the game), or None for the natural order. ``"perfect"`` asks ``solve`` for each
    child's exact value (remembered per state and depth)."""
    if order in (None, "natural"):
        return None
    if order == "static":
        return _by_static(game)
    if order == "perfect":
        assert solve is not None, "a perfect order needs a solver"
        return _by_true_value(game, limit, solve)
    assert callable(order)
    return _by_key(game, order)


def _by_static(game: Game) -> ChildOrder:
    play, evaluate = game.play, game.evaluate

    def by_static(state: Any, d: int, path: Path, moves: Sequence[Any], mx: bool) -> list[int]:
        return sorted_indices([evaluate(play(state, m)) for m in moves], mx)
    return by_static


def _by_true_value(game: Game, limit: int, solve: Solve) -> ChildOrder:
    play = game.play
    memo: dict[Hashable, float] = {}

    def exact(state: Any, d: int) -> float:
        key = (state, d)
        if key not in memo:
            memo[key] = solve(state, None if limit < 0 else limit - d)
        return memo[key]

    def by_value(state: Any, d: int, path: Path, moves: Sequence[Any], mx: bool) -> list[int]:
        return sorted_indices([exact(play(state, m), d + 1) for m in moves], mx)
    return by_value


def _by_key(game: Game, key: OrderKey) -> ChildOrder:
    def by_key(state: Any, d: int, path: Path, moves: Sequence[Any], mx: bool) -> list[int]:
        return sorted_indices([key(game, state, m) for m in moves], mx)
    return by_key
