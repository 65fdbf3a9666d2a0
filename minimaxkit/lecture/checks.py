"""The checks behind ``check(name, ...)``: each runs a reader's answer against the kit and
returns ``(ok, message)``. A reader's function that raises, loops or returns nothing is
reported through :class:`Failed`, never raised to the notebook.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from typing import Any

from ..bounds import knuth_moore_leaves
from ..deepening import deepen
from ..examples import aima_5_2, sheet_binary, sheet_tree
from ..games import ConnectFour, TicTacToe
from ..grading.node import Recorder, TooManyCalls
from ..search import _sorted_indices, alphabeta, minimax
from ..tree import GameTree

Result = tuple[bool, str]


# ----- running a reader's code safely --------------------------------------------------------
class _Counting:
    """A game that counts its static evaluations (the leaves a search evaluates)."""

    def __init__(self, game: Any) -> None:
        self.game, self.leaves = game, 0
        self.value_range = game.value_range

    def initial_state(self) -> Any:
        return self.game.initial_state()

    def moves(self, state: Any) -> Any:
        return self.game.moves(state)

    def play(self, state: Any, move: Any) -> Any:
        return self.game.play(state, move)

    def is_max(self, state: Any) -> bool:
        return bool(self.game.is_max(state))

    def evaluate(self, state: Any) -> float:
        self.leaves += 1
        return float(self.game.evaluate(state))


class Failed(Exception):
    """A reader's function raised or returned nothing; the message says which."""


def _call(f: Any, *args: Any) -> Any:
    if not callable(f):
        raise Failed(f"expected a function, got {f!r}")
    try:
        out = f(*args)
    except Failed:
        raise
    except TooManyCalls:
        raise Failed("it asks the tree again and again: does it search some node twice, "
                     "or loop?") from None
    except RecursionError:
        raise Failed("it recursed without end: does every path reach a leaf?") from None
    except Exception as err:
        raise Failed(f"it raised {type(err).__name__}: {err}") from None
    if out is None:
        raise Failed("it returned None: fill in its body (and return the result)")
    return out


def _random_trees(n: int, **options: Any) -> list[GameTree]:
    return [GameTree.random(seed=seed, **options) for seed in range(n)]


# ----- the checks ------------------------------------------------------------------------------
def check_count(count: Any) -> Result:
    game = TicTacToe()
    sheet = sheet_tree()
    cases = [("the example sheet's tree", sheet, sheet.root),
             ("tic-tac-toe after 3 moves", game, game.state_from_text("X.. .O. ..X")),
             ("tic-tac-toe", game, game.initial_state())]
    for label, g, state in cases:
        stats = minimax(g, state, trace=False).stats
        got = _call(count, g, state)
        if tuple(got) != (stats.nodes, stats.leaves):
            return False, (f"on {label} it returns {tuple(got)}; the tree has {stats.nodes} "
                           f"nodes and {stats.leaves} leaves")
    return True, (f"all three right, tic-tac-toe included: {stats.nodes} nodes, "
                  f"{stats.leaves} leaves.")


def check_positions(positions: Any) -> Result:
    game = TicTacToe()
    seen, todo = set(), [game.initial_state()]
    while todo:
        state = todo.pop()
        if state not in seen:
            seen.add(state)
            todo.extend(game.play(state, m) for m in game.moves(state))
    got = _call(positions, game, game.initial_state())
    if not isinstance(got, (set, frozenset)):
        return False, f"expected a set of states, got {type(got).__name__}"
    if got != seen:
        return False, f"it finds {len(got)} positions; there are {len(seen)}"
    return True, f"{len(seen)} distinct positions, against hundreds of thousands of nodes."


def check_binary(nested: Any) -> Result:
    try:
        tree = GameTree.from_nested(nested)
    except Exception as err:
        return False, f"not a tree: {err}"
    if len(tree.leaves()) != 4:
        return False, f"the picture has 4 leaves, yours has {len(tree.leaves())}"
    last = tree.leaves()[-1].value
    if tree != sheet_binary(last=last):  # type: ignore[arg-type]
        return False, "the shape or the first three leaves (2, 7, 1) differ from the picture"
    return True, "that is the sheet's binary tree (the kit has it as examples.sheet_binary())."


def check_maxmin(max_min: Any, min_max: Any) -> Result:
    trees = [sheet_tree(), aima_5_2(), *_random_trees(20, depth=4, branching=(1, 3)),
             *_random_trees(10, depth=3, branching=(1, 3), root="min")]
    for i, tree in enumerate(trees):
        root = Recorder(tree).root()  # the node interface of the assignments: methods
        f = max_min if tree.root.is_max else min_max
        got, want = _call(f, root), minimax(tree, trace=False).value
        if got != want:
            return False, (f"on tree {i} ({tree.to_nested()}) it returns {_shown(got)}; "
                           f"minimax says {want}")
    return True, f"agrees with the kit's minimax on {len(trees)} trees."


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, (int, float, tuple, list)) else \
        f"{value!r} (not a number)"


class _Guarded(_Counting):
    """A game that refuses to be searched by the kit's own searches: the exercise is to
    write the search, not to call one."""

    def moves(self, state: Any) -> Any:
        frame = sys._getframe(1)
        while frame is not None:
            if os.path.dirname(frame.f_code.co_filename) == _KIT \
                    and os.path.basename(frame.f_code.co_filename) in _SEARCHES:
                raise Failed("it calls the kit's own search: write the search yourself "
                             "(the check compares it with the kit's minimax)")
            frame = frame.f_back  # type: ignore[assignment]
        return self.game.moves(state)


_KIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SEARCHES = {"search.py", "deepening.py"}


def check_scored_move(best: Any) -> Result:
    game = TicTacToe()
    boards = ["X.. .O. ...", "XO. .X. ..O", "XX. OO. ...", "X.O .X. O..", "OX. XO. X.."]
    for text in boards:
        state = game.state_from_text(text)
        pair = _call(best, _Guarded(game), state)
        if not isinstance(pair, tuple) or len(pair) != 2:
            return False, f"expected a pair (value, move), got {pair!r}"
        value, move = pair
        want = minimax(game, state, trace=False).value
        if value in game.moves(state) and move == want and value != want:
            return False, ("the pair is the wrong way round: return (value, move), value "
                           "first, as everywhere in the course")
        if value != want:
            return False, f"on {text!r} the value is {value}; minimax says {want}"
        if move not in game.moves(state):
            return False, f"on {text!r} the move {move!r} is not legal"
        if minimax(game, game.play(state, move), trace=False).value != want:
            return False, f"on {text!r} the move {move!r} does not reach the value {want}"
    return True, f"right value and a best move on {len(boards)} positions."


def _compare_search(f: Any, call: Callable[[Any, Any, Any], Any], depth: bool) -> Result:
    cases: list[tuple[str, GameTree, int | None]] = [
        ("the example sheet's tree", sheet_tree(), None)]
    cases += [(f"random tree {i}", t, None)
              for i, t in enumerate(_random_trees(25, depth=4, branching=(2, 3)))]
    if depth:
        cases.append(("the example sheet's tree with static values, depth 2",
                      sheet_tree().with_static(), 2))
    for label, tree, limit in cases:
        counting = _Counting(tree)
        got = _call(call, f, counting, limit if limit is not None else tree.height)
        kit = alphabeta(tree, depth=limit, trace=False)
        if got != kit.value:
            return False, f"on {label} it returns {got}; the value is {kit.value}"
        if counting.leaves != kit.stats.leaves:
            return False, (f"the values are right, but on {label} it evaluates "
                           f"{counting.leaves} leaves where alpha-beta needs "
                           f"{kit.stats.leaves}: some bound is not doing its job")
    return True, f"same values and same leaves as the kit's alphabeta on {len(cases)} trees."


def check_bug_recitation(ab_recitation: Any) -> Result:
    return _compare_search(ab_recitation, lambda f, g, _d: f(g, g.initial_state(),
                                                              -math.inf, math.inf), False)


def check_bug_blog(minimax_ab: Any) -> Result:
    return _compare_search(minimax_ab, lambda f, g, d: f(g, g.initial_state(), 0, d,
                                                         -math.inf, math.inf), True)


#: The tutorial's ScoredMove alpha-beta, as lecture 3 writes it anew with the tutorial's slip
#: kept: the number of the wrong line.
TUTORIAL_BUG_LINE = 11


def check_bug_tutorial(line: Any = None, beta_start: Any = None) -> Result:
    if line != TUTORIAL_BUG_LINE:
        return False, "not that line: look for a score that is set to something that is not a score"
    if beta_start != 2:
        return False, "the line is right; now, which start value does the prose mean for β?"
    return True, (f"line {TUTORIAL_BUG_LINE} should read `best = (m, result.score)`, and β "
                  "starts at 2.")


def check_order(nested: Any, want: int, what: str) -> Result:
    groups = sorted(sorted(g) for g in aima_5_2().to_nested())  # type: ignore[union-attr]
    try:
        mine = sorted(sorted(g) for g in nested)
    except TypeError:
        return False, "expected a list of three lists of leaves, like [[3, 12, 8], ...]"
    if mine != groups:
        return False, "keep each MIN node's three leaves together: only reorder them"
    leaves = alphabeta(GameTree.from_nested(nested), trace=False).stats.leaves
    if leaves != want:
        return False, f"alpha-beta evaluates {leaves} leaves of this order, not {want}"
    return True, f"alpha-beta evaluates {leaves} leaves: the {what} case."


def check_center_first(key: Any) -> Result:

    game = ConnectFour()
    for state in (game.initial_state(), game.state_from_moves("3")):
        moves = game.moves(state)
        keys = [_call(key, game, state, m) for m in moves]
        order = [moves[i] for i in _sorted_indices(keys, game.is_max(state))]
        who = "MAX" if game.is_max(state) else "MIN"
        if order[0] != 3 or set(order[-2:]) != {0, 6}:
            return False, f"at a {who} node the search would try the columns in order {order}"
    natural = alphabeta(game, depth=5, trace=False).stats.leaves
    mine = alphabeta(game, depth=5, order=key, trace=False).stats.leaves
    return True, (f"centre first at MAX and MIN nodes: {mine} leaves at depth 5 instead "
                  f"of {natural}.")


def check_km(n: Any) -> Result:
    want = knuth_moore_leaves(4, 5)
    if n != want:
        return False, f"{n} is not it: b^⌈d/2⌉ + b^⌊d/2⌋ - 1 with b = 4, d = 5"
    return True, f"4^3 + 4^2 - 1 = {want}."


def check_overhead(overhead: Any) -> Result:
    for b, d in ((2, 6), (3, 4), (5, 3), (10, 2)):
        tree = GameTree.random(depth=d, branching=b, seed=b).with_static()
        total = sum(minimax(tree, depth=k, trace=False).stats.leaves for k in range(1, d + 1))
        measured = total / b ** d
        got = _call(overhead, b, d)
        if not math.isclose(got, measured):
            return False, (f"overhead({b}, {d}) = {got}, but minimax deepening evaluates "
                           f"{total} leaves against {b ** d}: {measured:.4f}")
    return True, "right: the sum b + b^2 + ... + b^d over b^d, which tends to b / (b - 1)."


def check_budget(depth: Any) -> Result:
    want = deepen(ConnectFour(), max_depth=8, node_budget=5_000).depth
    if depth != want:
        return False, (f"not {depth}: add up the iterations' nodes; the one that would "
                       "pass the budget is dropped")
    return True, f"depth {want}: the iteration that would pass 5,000 nodes is dropped."
