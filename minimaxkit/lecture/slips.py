"""Classic wrong answers to the search exercises, and the hint each one earns.

A check that finds a wrong root value can say only "on this tree it returns x; the value is
y". Some wrong values are the signature of one slip, and a reader is better served by its
name. Each :class:`Slip` here computes the root value its wrong search returns on a tree (a
game of the kit's protocol), written plainly so that it can be read as what it names. A
check asks :func:`slip_hint` whether a reader's values, on every tree it has tried so far,
are one slip's values and no right answer's; only then does the message name the slip. The
hints are said only with a refusal, never with a right answer, so they cannot mislead a
reader whose answer is right.

>>> from minimaxkit.examples import aima_5_2
>>> tree = aima_5_2()
>>> [(s.name, s.value(tree, tree.root)) for s in MINIMAX_SLIPS]
[('max started at 0', 3.0), ('min started at 0', 0.0), ('both started at 0', 0.0), \
('MAX by even depth', 3.0), ('MAX by odd depth', 6.0), ('max and min swapped', 6.0)]
>>> slip_hint([(tree, tree.root, 0.0)])[:50]
'; it looks like a running max or min started at 0 '
>>> slip_hint([(tree, tree.root, 5.0)])
''
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..student import CHILDREN, STATIC
from ._reader import same

__all__ = ["Slip", "Twist", "MINIMAX_SLIPS", "MAXMIN_SLIPS", "PAIR_SLIPS", "SCORED_MOVE_SLIPS",
           "ALPHABETA_SLIPS", "slip_hint", "bound_hint", "static_read_hint"]


@dataclass(frozen=True)
class Twist:
    """What a wrong minimax does differently from minimax.

    * ``start``: where its running value starts at a MAX node and at a MIN node;
    * ``takes``: what a MAX node and a MIN node take of their children's values, "max" or
      "min" (a right search: MAX the max, MIN the min);
    * ``max_at``: it decides MAX by ``max_at(depth)`` instead of asking the game (None: it
      asks);
    * ``below``: the kind of node it searches a node's children as, from the node's own
      kind, as a pair of procedures that call each other (or themselves) decides it: True
      for MAX (None: it asks the game, so the players alternate);
    * ``skip_first``: it leaves each node's first child out.
    """

    start: tuple[float, float] = (-math.inf, math.inf)
    takes: tuple[str, str] = ("max", "min")
    max_at: Callable[[int], bool] | None = None
    below: Callable[[bool], bool] | None = None
    skip_first: bool = False


def _plain(game: Any, state: Any, limit: int | None, twist: Twist) -> float:
    """Minimax with ``twist``, to ``limit`` plies from ``state`` (None: to the leaves).
    Alpha-beta with the same slip returns the same root value, whatever it prunes."""

    def search(state: Any, depth: int, is_max: bool | None) -> float:
        """The value of ``state``; ``is_max`` is the kind the wrong search gave it (None:
        the game's, or the depth's)."""
        if not game.moves(state) or (limit is not None and depth == limit):
            return float(game.evaluate(state))
        if is_max is None:
            is_max = twist.max_at(depth) if twist.max_at else bool(game.is_max(state))
        below = twist.below(is_max) if twist.below else None
        moves = list(game.moves(state))[1 if twist.skip_first else 0:]
        values = [search(game.play(state, m), depth + 1, below) for m in moves]
        side = 0 if is_max else 1
        take = max if twist.takes[side] == "max" else min
        return float(take([twist.start[side], *values]))

    return search(state, 0, None)


def _cut_reversed(game: Any, state: Any, limit: int | None, other_bound: bool) -> float:
    """Fail-soft alpha-beta to ``limit`` plies (None: to the leaves) with its cut test the
    wrong way round: a MAX node stops when its value falls to α (``other_bound``: to β), a
    MIN node when it rises to β (to α)."""

    def search(state: Any, depth: int, alpha: float, beta: float) -> float:
        if not game.moves(state) or (limit is not None and depth == limit):
            return float(game.evaluate(state))
        is_max = game.is_max(state)
        v = -math.inf if is_max else math.inf
        for move in game.moves(state):
            w = search(game.play(state, move), depth + 1, alpha, beta)
            if is_max:
                v = max(v, w)
                if v <= (beta if other_bound else alpha):
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v >= (alpha if other_bound else beta):
                    return v
                beta = min(beta, v)
        return v

    return search(state, 0, -math.inf, math.inf)


@dataclass(frozen=True)
class Slip:
    """One classic wrong search: its name, the hint a reader gets, and what its search
    does differently from minimax (``twist``), or, for a slip of alpha-beta's own, the
    wrong search itself (``search(game, state, limit)``)."""

    name: str
    hint: str
    twist: Twist = Twist()
    search: Callable[[Any, Any, int | None], float] | None = None

    def value(self, game: Any, state: Any, limit: int | None = None) -> float:
        """The root value this slip's search returns from ``state``, searching to ``limit``
        plies (None: to the leaves)."""
        if self.search is not None:
            return self.search(game, state, limit)
        return _plain(game, state, limit, self.twist)


START_AT_0 = ("a running max or min started at 0 rather than at -∞ / ∞: a node whose "
              "moves are all worse than 0 for its player still returns 0. Start at -∞ (MAX) "
              "and ∞ (MIN), or at the first move's value")
BY_DEPTH = ("MAX and MIN told apart by depth (MAX at even depths, or at odd ones): right "
            "under one kind of root, wrong under the other. Is MAX decided from the depth's "
            "parity? Ask the board whose move it is (game.is_max(state)) instead")
#: The same slip in lecture 2's pair, which needs no player test at all.
BY_DEPTH_PAIR = ("MAX and MIN told apart by depth (MAX at even depths, or at odd ones): right "
                 "under one kind of root, wrong under the other. Is MAX decided from the "
                 "depth's parity? The pair needs no depth: MaxMin is always a MAX node and "
                 "MinMax always a MIN node, so MaxMin's children are MIN's to move: call "
                 "MinMax for them (and MaxMin for MinMax's), whatever the depth")
SWAPPED = ("a comparison the wrong way round: a MAX node that keeps the smaller value, a "
           "MIN node the larger")



def _minimax_slips(by_depth: str) -> tuple[Slip, ...]:
    """The slips of a plain minimax, the depth-parity one hinted with ``by_depth`` (the
    words that fit the exercise's interface)."""
    return (
        Slip("max started at 0", START_AT_0, Twist(start=(0, math.inf))),
        Slip("min started at 0", START_AT_0, Twist(start=(-math.inf, 0))),
        Slip("both started at 0", START_AT_0, Twist(start=(0, 0))),
        Slip("MAX by even depth", by_depth, Twist(max_at=lambda depth: depth % 2 == 0)),
        Slip("MAX by odd depth", by_depth, Twist(max_at=lambda depth: depth % 2 == 1)),
        Slip("max and min swapped", SWAPPED, Twist(start=(math.inf, -math.inf),
                                                   takes=("min", "max"))),
    )


#: The slips of a plain minimax over a game (lecture 2's board exercises, and lecture 3's
#: alpha-beta, whose root value is minimax's whatever it prunes).
MINIMAX_SLIPS = _minimax_slips(BY_DEPTH)

NO_ALTERNATION = ("children searched as if the same player moved again: does MaxMin call "
                  "MinMax for its children, and MinMax call MaxMin? The players take turns, "
                  "so each procedure calls the other one")
MIN_TAKES_MAX = ("every node takes the max, MIN nodes too: does min_max take the max of its "
                 "children? MinMax takes the min")
MAX_TAKES_MIN = ("every node takes the min, MAX nodes too: does max_min take the min of its "
                 "children? MaxMin takes the max")
FIRST_SKIPPED = ("a node's first child left out: is the first child skipped (a loop from "
                 "index 1, or children()[1:])? Every child is searched, the first one too")

#: The slips of lecture 2's pair of procedures, MaxMin and MinMax, on top of
#: :data:`MINIMAX_SLIPS`: the pair that does not alternate (each half on its own, or both),
#: the one that takes the same of its children at both kinds of node (its running value
#: started where the right procedure starts it, or at the other end), the first child skipped.
MAXMIN_SLIPS = (
    Slip("MaxMin calls MaxMin", NO_ALTERNATION, Twist(below=lambda is_max: True)),
    Slip("MinMax calls MinMax", NO_ALTERNATION, Twist(below=lambda is_max: False)),
    Slip("neither alternates", NO_ALTERNATION, Twist(below=lambda is_max: is_max)),
    Slip("min_max takes the max", MIN_TAKES_MAX,
         Twist(start=(-math.inf, -math.inf), takes=("max", "max"))),
    Slip("min_max takes the max, started at ∞", MIN_TAKES_MAX, Twist(takes=("max", "max"))),
    Slip("max_min takes the min", MAX_TAKES_MIN,
         Twist(start=(math.inf, math.inf), takes=("min", "min"))),
    Slip("max_min takes the min, started at -∞", MAX_TAKES_MIN, Twist(takes=("min", "min"))),
    Slip("first child skipped", FIRST_SKIPPED, Twist(skip_first=True)),
)

#: Every slip lecture 2's pair is told from: a plain minimax's (its depth-parity hint in the
#: pair's words) and the pair's own.
PAIR_SLIPS = _minimax_slips(BY_DEPTH_PAIR) + MAXMIN_SLIPS

NO_TURNS = ("the positions after a move searched as if the same player moved again: is the "
            "player to move asked of each position searched (game.is_max(state) of the new "
            "position), not passed down from the root or kept by a MAX half that calls "
            "itself? After X moves it is O's turn, and after O moves, X's")
MIN_STUCK = ("O's (MIN's) value never leaves its start (2, or ∞): no value is larger, so "
             "does MIN keep the larger value (value > best_value)? MIN keeps the smaller "
             "one (value < best_value)")
MIN_KEEPS_LARGER = ("every position keeps the larger value, O's (MIN's) too: is the "
                    "comparison value > best_value for MIN as well? MIN keeps the smaller one "
                    "(value < best_value)")
MAX_STUCK = ("X's (MAX's) value never leaves its start (-2, or -∞): no value is smaller, so "
             "does MAX keep the smaller value (value < best_value)? MAX keeps the larger "
             "one (value > best_value)")
MAX_KEEPS_SMALLER = ("every position keeps the smaller value, X's (MAX's) too: is the "
                     "comparison value < best_value for MAX as well? MAX keeps the larger "
                     "one (value > best_value)")
FIRST_MOVE_SKIPPED = ("a position's first move left out: does the loop skip the first move "
                      "(game.moves(state)[1:], or range(1, ...))? Every move is searched, the "
                      "first one too")
#: Where the tutorial's search starts its best value (just outside the values -1 ... 1), and
#: where a reader may start it instead (at -∞ / ∞).
_TUTORIAL_START, _INFINITE_START = (-2.0, 2.0), (-math.inf, math.inf)

#: The slips of Exercise 2.3's scored-move search (one function over the board), on top of
#: :data:`MINIMAX_SLIPS`: the players not alternating (MAX's side searching on as MAX, or
#: both sides keeping their kind), one comparison for both players (MIN stuck at its start
#: when it starts where the right search starts it, or keeping the larger value when it
#: starts low), and the first move skipped. Each with the tutorial's start, -2 / 2, and
#: with -∞ / ∞ where the start shows.
SCORED_MOVE_SLIPS = (
    Slip("MAX searches on as MAX", NO_TURNS, Twist(below=lambda is_max: True)),
    Slip("neither side alternates", NO_TURNS, Twist(below=lambda is_max: is_max)),
    *(Slip("MIN takes the max, from its own start", MIN_STUCK,
           Twist(start=start, takes=("max", "max")))
      for start in (_TUTORIAL_START, _INFINITE_START)),
    *(Slip("MIN takes the max, from MAX's start", MIN_KEEPS_LARGER,
           Twist(start=(low, low), takes=("max", "max")))
      for low, _ in (_TUTORIAL_START, _INFINITE_START)),
    *(Slip("MAX takes the min, from its own start", MAX_STUCK,
           Twist(start=start, takes=("min", "min")))
      for start in (_TUTORIAL_START, _INFINITE_START)),
    *(Slip("MAX takes the min, from MIN's start", MAX_KEEPS_SMALLER,
           Twist(start=(high, high), takes=("min", "min")))
      for _, high in (_TUTORIAL_START, _INFINITE_START)),
    *(Slip("first move skipped", FIRST_MOVE_SKIPPED, Twist(skip_first=True, start=start))
      for start in (_TUTORIAL_START, _INFINITE_START)),
)

REVERSED_CUT = ("a cut test the wrong way round: a MAX node stops when its value reaches β "
                "(v ≥ β), a MIN node when its value falls to α (v ≤ α); yours stops on the "
                "other side of the bound")

#: The slips of alpha-beta's own cut test (lecture 3's exercises), on top of
#: :data:`MINIMAX_SLIPS`.
ALPHABETA_SLIPS = (
    Slip("cut test reversed (v ≤ α at MAX)", REVERSED_CUT,
         search=lambda game, state, limit: _cut_reversed(game, state, limit, False)),
    Slip("cut test reversed (v ≤ β at MAX)", REVERSED_CUT,
         search=lambda game, state, limit: _cut_reversed(game, state, limit, True)),
)

#: A tried tree: (game, the state searched from, the reader's root value there); for a
#: depth-limited search, (game, state, value, limit).
Tried = tuple[Any, ...]


def _fits(slip: Slip, tried: Sequence[Tried]) -> bool:
    """Whether the reader's values are this slip's on every tree tried."""
    for game, state, got, *limit in tried:
        if not same(got, slip.value(game, state, limit[0] if limit else None)):
            return False
    return True


def slip_hint(tried: Sequence[Tried], slips: Sequence[Slip] = MINIMAX_SLIPS) -> str:
    """'; it looks like <a slip>' when the reader's values on every tree tried (the last one
    wrong) are one slip's (or those of slips the trees cannot yet tell apart, each named),
    else ''."""
    hints = list(dict.fromkeys(slip.hint for slip in slips if _fits(slip, tried)))
    if not hints:
        return ""
    return "; it looks like " + "; or ".join(hints)


def bound_hint(got: Any, window: tuple[float, float] = (-math.inf, math.inf)) -> str:
    """The hint for a root value that is the root window's α or β itself: a search that
    returns α (or β) from every node, MIN (MAX) nodes too, never lets its value out.

    >>> bound_hint(-math.inf)[:30]
    ": it returns the root's α, -∞:"
    >>> bound_hint(3)
    ''
    """
    alpha, beta = window
    if same(got, alpha) and math.isinf(alpha):
        return (": it returns the root's α, -∞: does every node return α, MIN nodes too? A "
                "MIN node returns the value it found (or β), a MAX node the value it found "
                "(or α)")
    if same(got, beta) and math.isinf(beta):
        return (": it returns the root's β, ∞: does every node return β, MAX nodes too? A "
                "MAX node returns the value it found (or α), a MIN node the value it found "
                "(or β)")
    return ""


STATIC_FIRST = ("; it read the first child's static value where it should search it: is the "
                "first child skipped (the running value started at children()[0].static(), "
                "the loop from index 1)? Start at -∞ (MAX) or ∞ (MIN) "
                "and search every child, the first one too")
STATIC_START = ("; it read the node's own static value before its children: is the running "
                "value started at x.static()? Start at -∞ (MAX) or ∞ (MIN) and "
                "search every child, the first one too")


def static_read_hint(calls: Sequence[tuple[str, Any]], interior: Callable[[Any], bool]) -> str:
    """The slip behind a search that stopped on reading the static value of an interior node
    (``interior(path)``), told from the ``(kind, path)`` calls it made (a
    :class:`~minimaxkit.student.Recorder`'s): the first child read with ``static()`` just
    after its parent's children were asked for, or a node's own ``static()`` read before
    its children; else ''.

    >>> static_read_hint([("children", ()), ("static", (0,))], lambda path: True)[:45]
    "; it read the first child's static value wher"
    >>> static_read_hint([("static", ())], lambda path: True)[:40]
    "; it read the node's own static value be"
    >>> static_read_hint([("children", ()), ("static", (0,))], lambda path: False)
    ''
    """
    if not calls:
        return ""
    kind, path = calls[-1]
    if kind != STATIC or not interior(path):
        return ""
    path = tuple(path)
    if path and path[-1] == 0 and len(calls) > 1 and calls[-2] == (CHILDREN, path[:-1]):
        return STATIC_FIRST
    if (CHILDREN, path) not in calls:
        return STATIC_START
    return ""
