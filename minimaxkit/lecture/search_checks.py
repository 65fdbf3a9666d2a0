"""The checks behind ``check(name, ...)`` for lecture 2 (minimax): each runs a reader's
answer against the kit and returns ``(ok, message)``. A reader's function that raises, loops,
returns nothing, takes other arguments or calls the kit's own search is reported through
:class:`Failed`, never raised to the notebook (see ``_reader``); an answer of the wrong
kind (a count where a pair belongs, a string, a truth value) is named as such. Search
exercises run on the example trees and on ``check_trees``: values from -9 to 9 with ties,
MAX and MIN roots, uneven depths. (Lecture 1's checks are in ``tree_checks``, and kept
importable from here; lecture 3's are in ``alphabeta_checks``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..examples import aima_5_2, sheet_tree
from ..games import TicTacToe
from ..search import minimax, simple_pruning
from ..student import Recorder
from ..tree import GameTree
from ._reader import (
    Counting,
    Failed,
    NoResult,
    call,
    number,
    pair,
    same,
    short,
    shown,
)
from .check_trees import check_trees
from .slips import MINIMAX_SLIPS, PAIR_SLIPS, SCORED_MOVE_SLIPS, slip_hint, static_read_hint
from .tree_checks import Result, check_binary, check_count, check_positions

__all__ = ["Failed", "Result", "VIEWS", "NEGAMAX_NOTE", "views_of", "check_count",
           "check_positions", "check_binary", "check_maxmin", "check_scored_move",
           "check_simple_pruning"]

_call = call


# ----- lecture 2 -------------------------------------------------------------------------------
#: The two points of view a right answer may take: MAX's (the course's: every value is
#: MAX's), or the player to move's (negamax: a MIN node's value is minus MAX's).
VIEWS = ("MAX's", "the player to move's")
NEGAMAX_NOTE = (" Written as negamax: values from the side of the player to move (at a MIN "
                "node, minus the value for MAX). Also right; the course gives every value "
                "from MAX's side.")


def views_of(got: Any, want: float, is_max: bool) -> set[str]:
    """The points of view under which ``got`` is the value ``want`` (MAX's view)."""
    views = set()
    if same(got, want):
        views.add(VIEWS[0])
    if same(got, want if is_max else -want):
        views.add(VIEWS[1])
    return views


def _maxmin_values(max_min: Any, min_max: Any, trees: list[GameTree]) -> list[tuple[Any, ...]]:
    """(tree, root, the reader's value) on each tree the pair returns a number on: what a
    wrong answer's slip is told from."""
    out = []
    for tree in trees:
        f = max_min if tree.root.is_max else min_max
        try:
            got = _call(f, Recorder(tree).root(), call_as="max_min(x)")
        except Failed:
            continue
        if number(got) is not None:
            out.append((tree, tree.root, got))
    return out


def _maxmin_hint(max_min: Any, min_max: Any, trees: list[GameTree]) -> str:
    """The slip the pair's values on ``trees`` point to (a minimax slip, or one of the
    pair's own: no alternation, the same of the children taken at both kinds of node, the
    first child skipped; its depth-parity hint in the pair's words), as '; it looks like
    ...', or ''."""
    return slip_hint(_maxmin_values(max_min, min_max, trees), PAIR_SLIPS)


def _recorded_call(f: Any, tree: GameTree, call_as: str) -> Any:
    """``f(root)`` on the node interface of the assignments (methods) over ``tree``; where it
    fails on reading an interior node's static value, the calls it made say which slip."""
    rec = Recorder(tree)
    try:
        return _call(f, rec.root(), call_as=call_as)
    except NoResult as failed:
        hint = static_read_hint(rec.calls, lambda path: bool(tree.node(path).children))
        raise NoResult(f"{failed}{hint}") from None


def check_maxmin(max_min: Any, min_max: Any) -> Result:
    """Exercise 2.1: the handout's MaxMin / MinMax pair (one function passed twice, or
    negamax, pass too). Refuses:

    * min_max taking the max;
    * max_min taking the min;
    * each calling itself instead of the other;
    * MaxMin calling itself, MinMax right;
    * the first child skipped;
    * the first child read with static();
    * a running max or min started at 0;
    * max and min swapped;
    * the kit's own search;
    * the value typed as a string.
    """
    trees = [sheet_tree(), aima_5_2(), *check_trees(20, depth=5)]
    views = set(VIEWS)
    for i, tree in enumerate(trees):
        f, name = (max_min, "max_min") if tree.root.is_max else (min_max, "min_max")
        got, want = _recorded_call(f, tree, f"{name}(x)"), minimax(tree, trace=False).value
        if number(got) is None:
            alone = " (return the value alone)" if isinstance(got, (tuple, list)) else ""
            return False, (f"{name}(tree.root) returns {shown(got)}{alone}: expected the "
                           "root's value, a number")
        views &= views_of(got, want, tree.root.is_max)
        if not views:
            kind = "MAX" if tree.root.is_max else "MIN"
            return False, (f"on tree {i} (a {kind} root, {len(tree.leaves())} leaves: "
                           f"{short(tree.to_nested())}) it returns {short(got)}; minimax "
                           f"says {want}{_maxmin_hint(max_min, min_max, trees)}")
    note = "" if VIEWS[0] in views else NEGAMAX_NOTE
    return True, (f"agrees with the kit's minimax on {len(trees)} trees: MAX and MIN roots, "
                  f"values from -9 to 9 with ties, leaves at uneven depths.{note}")


_SCORED = ["X.. .O. ...", "XO. .X. ..O", "XX. OO. ...", "X.O .X. O..", "OX. XO. X..",
           "..X ..X .OO", "X.. ... ...", "XO. XO. ...", "X.. XO. O.X"]


def _move_of(game: TicTacToe, state: Any, move: Any) -> tuple[Any, str]:
    """The legal move ``move`` stands for (the move itself or its name), and a note when
    it was a name; (None, "") when it is neither."""
    legal = game.moves(state)
    if any(same(move, m) for m in legal):
        return move, ""
    names = {game.move_name(m): m for m in legal}
    if isinstance(move, str) and move.strip() in names:
        return names[move.strip()], " (it returns move names; the kit's searches return moves)"
    return None, ""


@dataclass(frozen=True)
class _Scored:
    """What one position of Exercise 2.3 says of a reader's ``(value, move)``: what is
    wrong (``problem``, '' if nothing), whether it is the value (``wrong_value``: a slip may
    tell why), and the note a move given by its name earns."""

    problem: str = ""
    wrong_value: bool = False
    note: str = ""


def _scored_problem(game: TicTacToe, text: str, value: Any, move: Any,
                    views: set[str]) -> _Scored:
    """What is wrong with ``(value, move)`` at the position ``text``; narrows ``views`` to
    the points of view that fit."""
    state = game.state_from_text(text)
    who = "X (MAX)" if game.is_max(state) else "O (MIN)"
    want = minimax(game, state, trace=False).value
    if any(same(value, m) for m in game.moves(state)) and same(move, want) \
            and not same(value, want):
        return _Scored("the pair is the wrong way round: return (value, move), value first, "
                       "as everywhere in the course")
    if number(value) is None:
        return _Scored(f"on {text!r}, {who} to move, the value is {shown(value)}; expected "
                       f"a number (minimax says {want})")
    views &= views_of(value, want, game.is_max(state))
    if not views:
        return _Scored(f"on {text!r}, {who} to move, the value is {value}; minimax says "
                       f"{want}", wrong_value=True)
    if move is None:
        return _Scored(f"on {text!r}, {who} to move, it returns no move (None): is the start "
                       "value outside the range of values, so that some move is always kept?")
    legal, named = _move_of(game, state, move)
    if legal is None:
        return _Scored(f"on {text!r}, {who} to move, {shown(move)} is not a legal move; the "
                       f"legal moves are {list(game.moves(state))}")
    if minimax(game, game.play(state, legal), trace=False).value != want:
        return _Scored(f"on {text!r} the move {move!r} does not reach the value {want}")
    return _Scored(note=named)


def _scored_values(best: Any) -> list[tuple[Any, ...]]:
    """(game, state, the reader's value) at each position of Exercise 2.3 where ``best``
    returns a pair with a number first: what a wrong answer's slip is told from."""
    game, out = TicTacToe(), []
    for text in _SCORED:
        state = game.state_from_text(text)
        try:
            value, _ = pair(_call(best, game, state, call_as="best(game, state)"), "")
        except Failed:
            continue
        if number(value) is not None:
            out.append((game, state, value))
    return out


def check_scored_move(best: Any) -> Result:
    """Exercise 2.3: the tutorial's scored-move search, (value, move); negamax's values pass
    too. Refuses:

    * the best value started inside the range of values (no move kept);
    * MIN nodes maximising too (stuck at their start, or started low);
    * MAX and MIN told apart by the depth's parity;
    * the players not alternating (the player to move passed down from the root);
    * each position's first move skipped;
    * the pair the wrong way round;
    * the kit's own search.
    """
    game = TicTacToe()
    note, views = "", set(VIEWS)
    for text in _SCORED:
        value, move = pair(_call(best, game, game.state_from_text(text),
                                  call_as="best(game, state)"), "(value, move)")
        seen = _scored_problem(game, text, value, move, views)
        if seen.wrong_value:
            return False, seen.problem + slip_hint(_scored_values(best),
                                                   MINIMAX_SLIPS + SCORED_MOVE_SLIPS)
        if seen.problem:
            return False, seen.problem
        note = note or seen.note
    negamax = "" if VIEWS[0] in views else NEGAMAX_NOTE
    return True, (f"right value and a best move on {len(_SCORED)} positions, X and O to move, "
                  f"a lost one included{note}.{negamax}")


#: Positions of Exercise 2.2 (simple pruning) in tic-tac-toe: wins in one for either side
#: early and late in the move order, a forced draw, a lost position.
_PRUNING = ["XX. OO. ...", "... OO. XX.", "X.. .O. ..X", "XO. .X. ..O", "..X ..X .OO",
            "O.. .X. ...", "XOX .O. ..X"]


def _pruning_cases() -> list[tuple[str, Any, Any]]:
    """(label, game, state) for Exercise 2.2: explicit trees, whose leaves are compared in
    order, then tic-tac-toe positions, whose leaves are counted."""
    cases: list[tuple[str, Any, Any]] = [("the example sheet's tree", sheet_tree(), None),
                                         ("AIMA's tree", aima_5_2(), None)]
    cases += [(f"random tree {i} ({'MAX' if t.root.is_max else 'MIN'} root)", t, None)
              for i, t in enumerate(check_trees(12, depth=5))]
    game = TicTacToe()
    cases += [(f"tic-tac-toe at {text!r}", game, game.state_from_text(text))
              for text in _PRUNING]
    return cases


def _pruning_values(simple: Any) -> list[tuple[Any, ...]]:
    """(tree, root, the reader's value) on each explicit tree of Exercise 2.2 that the
    reader's search returns a number on: what a wrong answer's slip is told from."""
    out = []
    for _, game, state in _pruning_cases():
        if state is not None:
            continue
        try:
            got = _call(simple, Counting(game), game.root, call_as="simple(game, state)")
        except Failed:
            continue
        if number(got) is not None:
            out.append((game, game.root, got))
    return out


def check_simple_pruning(simple: Any) -> Result:
    """Exercise 2.2: minimax that stops at a node once a move reaches the best value
    possible there (``game.value_range``: its top at MAX, its bottom at MIN); negamax's
    values pass too. Refuses:

    * stopping at MAX nodes only;
    * stopping at any value above 0;
    * stopping at the top of the range at MIN nodes too;
    * never stopping (minimax);
    * a running max or min started at 0;
    * MAX and MIN told apart by depth;
    * the kit's own search.
    """
    views = set(VIEWS)
    for label, game, state in _pruning_cases():
        start = game.initial_state() if state is None else state
        counting = Counting(game)
        got = _call(simple, counting, start, call_as="simple(game, state)")
        kit = simple_pruning(game, start)
        assert kit.trace is not None
        if number(got) is None:
            pair = " (return the value alone)" if isinstance(got, (tuple, list)) else ""
            return False, f"on {label} it returns {shown(got)}{pair}; expected a number"
        views &= views_of(got, kit.value, game.is_max(start))
        if not views:
            return False, (f"on {label} it returns {short(got)}; the value is "
                           f"{kit.value}{slip_hint(_pruning_values(simple))}")
        if counting.leaves != kit.stats.leaves or (
                state is None and counting.evaluated != kit.trace.leaves):
            return False, (f"the values are right, but on {label} it evaluates "
                           f"{counting.leaves} leaves"
                           f"{_pruning_hint(game, start, counting, kit)}"
                           f"; stopping as soon as a move reaches the best value possible, "
                           f"{kit.stats.leaves}")
    negamax = "" if VIEWS[0] in views else NEGAMAX_NOTE
    return True, ("right values, and it stops exactly where simple pruning stops, on trees "
                  f"and tic-tac-toe positions.{negamax}")


def _state_at(game: Any, start: Any, path: Sequence[Any]) -> Any:
    """The state reached from ``start`` by the moves of ``path`` (for a tree, whose trace
    paths are child indices from its root, the node at ``path``)."""
    if isinstance(game, GameTree):
        return game.node(path)
    state = start
    for move in path:
        state = game.play(state, move)
    return state


def _pruning_hint(game: Any, start: Any, counting: Counting, kit: Any) -> str:
    """Why a simple pruning evaluated other leaves than the kit's, where the trace can tell:
    it evaluated every leaf, where the kit stops only at MIN nodes (does it stop at MIN
    nodes?), only at MAX nodes (at MAX nodes?), or at both (does it ever stop?)."""
    if counting.leaves != minimax(game, start, trace=False).stats.leaves:
        return ""
    assert kit.trace is not None
    kinds = {game.is_max(_state_at(game, start, c.path)) for c in kit.trace.cutoffs}
    if kinds == {False}:
        return (" (every leaf, where simple pruning stops here only at MIN nodes, once a "
                "move reaches the bottom of the range: does it stop at MIN nodes?)")
    if kinds == {True}:
        return (" (every leaf, where simple pruning stops here only at MAX nodes, once a "
                "move reaches the top of the range: does it stop at MAX nodes?)")
    return " (every leaf: does it ever stop?)"
