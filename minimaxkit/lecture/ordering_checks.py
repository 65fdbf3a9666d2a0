"""The checks of lectures 4 and 5 (move ordering, progressive deepening): orders typed by
hand, a key function for Connect Four, and numbers. Like the others (``checks``), each
answers every input with ``(ok, message)``.

>>> check_km(79)
(True, '4^3 + 4^2 - 1 = 79.')
>>> check_order([[3, 12, 8], [2, 4, 6], [2, 14, 5]], 5, "best")[0]
True
>>> check_order({"B": [3, 12, 8]}, 5, "best")[1]
"expected a list of three lists of leaves, like [[3, 12, 8], ...], got {'B': [3, 12, 8]} (a dict)"
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..deepening import deepen
from ..examples import aima_5_2
from ..games import ConnectFour
from ..search.core import _sorted_indices, alphabeta, minimax
from ..search.knuth_moore import knuth_moore_leaves
from ..search.result import SearchResult
from ..trace import Cutoff
from ..tree import GameTree
from ._reader import (
    QUICK,
    Failed,
    TimeUp,
    call,
    number,
    number_or_note,
    plain,
    short,
    shown,
    time_limit,
)
from .search_checks import Result

__all__ = ["check_order", "check_center_first", "check_km", "check_overhead", "check_budget"]


# ----- lecture 4 -------------------------------------------------------------------------------
def check_order(nested: Any, want: int, what: str) -> Result:
    """Exercise 4.1: AIMA's tree reordered so that alpha-beta evaluates ``want`` leaves (the
    ``what`` case), cutting on equality as the lectures do; an order that would be right
    with strict cuts (the worst case with a tie searched on) is told so, and where the tie
    is cut. Refuses:

    * an order that evaluates another number of leaves;
    * leaves moved between MIN nodes;
    * something that is not three lists of leaves;
    * the order typed as a string.
    """
    groups = sorted(sorted(g) for g in aima_5_2().to_nested())  # type: ignore[union-attr]
    shape = "expected a list of three lists of leaves, like [[3, 12, 8], ...]"
    if isinstance(nested, GameTree):
        nested = nested.to_nested()
    nested = plain(nested)  # numpy arrays and numbers as lists and numbers
    if isinstance(nested, str):
        return False, f"that is a string (it is in quotes): {shape}"
    if not isinstance(nested, (list, tuple)) or not all(
            isinstance(g, (list, tuple)) and all(number(v) is not None for v in g)
            for g in nested):
        return False, f"{shape}, got {shown(nested)}"
    mine = sorted(sorted(g) for g in nested)
    if mine != groups:
        return False, ("keep each MIN node's three leaves together: only reorder them (the "
                       "MIN nodes hold 3, 12, 8; 2, 4, 6; and 14, 5, 2)")
    tree = GameTree.from_nested(nested)
    result = alphabeta(tree)
    leaves = result.stats.leaves
    if leaves != want:
        if alphabeta(tree, prune_on_equal=False, trace=False).stats.leaves == want:
            return False, _strict_only(tree, result, want)
        return False, f"alpha-beta evaluates {leaves} leaves of this order, not {want}"
    return True, f"alpha-beta evaluates {leaves} leaves: the {what} case."


def _strict_only(tree: GameTree, result: SearchResult, want: int) -> str:
    """What to tell an order that evaluates ``want`` leaves with strict cuts but not with the
    lectures' cut on equality (``result``'s): where a tie with the bound was cut."""
    assert result.trace is not None
    ties = [f"{_which_min_node(e.path)}, {tree.node(e.path).name} "
            f"(v = {'α' if e.kind == 'alpha' else 'β'} = {e.value})"
            for e in result.trace.events
            if isinstance(e, Cutoff) and e.pruned and e.value == e.bound]
    return (f"right if cuts were strict (v > β, v < α), but with the lectures' cut on "
            f"equality (v ≥ β, v ≤ α) the tie at {' and '.join(ties)} is cut: "
            f"{result.stats.leaves} leaves, not {want}. Order the leaves so that no node "
            "meets its bound before its last leaf")


_ORDINALS = ("first", "second", "third")


def _which_min_node(path: tuple[int, ...]) -> str:
    """Where a MIN node sits in the student's order ("the second MIN node"): its letter
    follows the student's order, so lecture 3's C may hold other leaves than this C."""
    place = path[0] if path else 0
    return f"the {_ORDINALS[place]} MIN node" if place < len(_ORDINALS) else "a MIN node"


class _KeyGame(ConnectFour):
    """The real game for a key function (every attribute of :class:`ConnectFour`, such as
    ``columns``), except that evaluating a position is refused: the key should come from
    the column alone."""

    def evaluate(self, state: Any) -> float:
        raise Failed("it evaluates positions: the key should come from the column alone")


_KEY_CALL = "center_first(game, state, move)"


def _keys(key: Any, game: ConnectFour, state: Any) -> list[float]:
    """The key of every legal move at ``state``, each checked to be a number."""
    keys = []
    for move in game.moves(state):
        k = call(key, game, state, move, call_as=_KEY_CALL, limit=QUICK)
        if number(k) is None or math.isnan(k):
            raise Failed(f"for column {move} it returns {shown(k)}: a key is a number (the "
                         "search sorts the moves by it)")
        keys.append(k)
    return keys


def check_center_first(key: Any) -> Result:
    """Exercise 4.3: a key ``center_first(game, state, move)`` that puts column 3 first and
    the edges last at MAX and MIN nodes. Refuses:

    * the same key at MIN nodes as at MAX nodes;
    * the key reversed (the centre last);
    * the column number as the key;
    * a key that evaluates positions;
    * the kit's own search.
    """
    game = _KeyGame()
    for moves in ("", "3", "33", "334", "3342", "33421"):
        state = game.state_from_moves(moves)
        legal = game.moves(state)
        order = [legal[i] for i in _sorted_indices(_keys(key, game, state),
                                                   game.is_max(state))]
        who = "MAX" if game.is_max(state) else "MIN"
        if order[0] != 3 or set(order[-2:]) != {0, 6}:
            hint = ""
            if order[-1] == 3 and set(order[:2]) == {0, 6}:
                hint = (f": the centre last. {who} searches "
                        f"{'high' if who == 'MAX' else 'low'} keys first")
            where = f"after the moves {moves!r}" if moves else "on the empty board"
            return False, (f"{where} ({who} to move) the search would try the columns in "
                           f"order {order}{hint}")
    natural = alphabeta(ConnectFour(), depth=5, trace=False).stats.leaves
    try:
        with time_limit(QUICK):
            mine = alphabeta(ConnectFour(), depth=5, order=key, trace=False).stats.leaves
    except TimeUp:
        return False, ("the first moves come in the right order, but deeper in a depth-5 "
                       f"search the key ran for over {QUICK:g} seconds without returning: "
                       "does it loop?")
    except Exception as err:  # the key at a position deeper in the search
        return False, (f"the first moves come in the right order, but deeper in a depth-5 "
                       f"search the key raised {type(err).__name__}: {err}")
    return True, (f"centre first at MAX and MIN nodes: {mine} leaves at depth 5 instead "
                  f"of {natural}.")


def _number_check(given: Any, want: float, wrong: Callable[[Any], str]) -> Result | None:
    """None when ``given`` is the number ``want``; else the verdict (a string is named)."""
    found, note = number_or_note(given)
    if found is None:
        right = isinstance(given, str) and given.strip() == str(want)
        return False, note + (" (the number is right)" if right else "")
    if found != want:
        return False, wrong(found)
    return None


def check_km(n: Any) -> Result:
    """Exercise 4.2: the Knuth-Moore count for branching 4, depth 5. Refuses:

    * minimax's count, b^d;
    * another number;
    * the number typed as a string.
    """
    want = knuth_moore_leaves(4, 5)
    verdict = _number_check(n, want, lambda x: f"{x} is not it: b^⌈d/2⌉ + b^⌊d/2⌋ - 1 with "
                                               "b = 4, d = 5")
    return verdict or (True, f"4^3 + 4^2 - 1 = {want}.")


# ----- lecture 5 -------------------------------------------------------------------------------
def check_overhead(overhead: Any) -> Result:
    """Exercise 5.1: ``overhead(b, d)``, the leaves of minimax deepening to depth d over
    those of its last iteration. Refuses:

    * iterations counted from depth 0;
    * the limit b / (b - 1) instead of the ratio;
    * the sum without dividing;
    * the number typed as a string;
    * the kit's own search.
    """
    for b, d in ((2, 6), (3, 4), (5, 3), (10, 2), (2, 1)):
        tree = GameTree.random(depth=d, branching=b, seed=b).with_static()
        total = sum(minimax(tree, depth=k, trace=False).stats.leaves for k in range(1, d + 1))
        measured = total / b ** d
        got = call(overhead, b, d, call_as="overhead(b, d)", limit=QUICK)
        found, _ = number_or_note(got)
        if found is None:
            return False, f"overhead({b}, {d}) returned {shown(got)}: expected a number"
        if not math.isclose(found, measured):
            return False, (f"overhead({b}, {d}) = {short(got)}, but minimax deepening "
                           f"evaluates {total} leaves against {b ** d}: {measured:.4f}")
    return True, "right: the sum b + b^2 + ... + b^d over b^d, which tends to b / (b - 1)."


def check_budget(depth: Any) -> Result:
    """Exercise 5.2: the depth ``deepen(c4, node_budget=2000)`` completes. Refuses:

    * the depth whose own nodes fit the budget (not their sum);
    * a shallower depth;
    * the depth typed as a string.
    """
    want = deepen(ConnectFour(), max_depth=8, node_budget=2_000).depth
    verdict = _number_check(depth, want, lambda x: (
        f"not {x}: add up the iterations' nodes; the one that would pass the budget is "
        "dropped"))
    return verdict or (True, f"depth {want}: the iteration that would pass 2,000 nodes is "
                             "dropped.")
