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

from ._reader import same

__all__ = ["Slip", "Twist", "MINIMAX_SLIPS", "ALPHABETA_SLIPS", "slip_hint", "bound_hint"]


@dataclass(frozen=True)
class Twist:
    """What a wrong minimax does differently: its running max and min start at ``start``;
    it decides MAX by ``max_at(depth)`` instead of asking the game (None: it asks); it keeps
    the smaller value at MAX and the larger at MIN (``swapped``)."""

    start: tuple[float, float] = (-math.inf, math.inf)
    max_at: Callable[[int], bool] | None = None
    swapped: bool = False


def _plain(game: Any, state: Any, limit: int | None, twist: Twist, depth: int = 0) -> float:
    """Minimax with ``twist``, to ``limit`` plies from ``state`` (None: to the leaves).
    Alpha-beta with the same slip returns the same root value, whatever it prunes."""
    if not game.moves(state) or (limit is not None and depth == limit):
        return float(game.evaluate(state))
    is_max = twist.max_at(depth) if twist.max_at else game.is_max(state)
    values = [_plain(game, game.play(state, m), limit, twist, depth + 1)
              for m in game.moves(state)]
    if is_max != twist.swapped:
        return float(max([twist.start[0], *values]))
    return float(min([twist.start[1], *values]))


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
            "under one kind of root, wrong under the other. Ask the node whose move it is "
            "(game.is_max(n), x.is_max()) instead")
SWAPPED = ("a comparison the wrong way round: a MAX node that keeps the smaller value, a "
           "MIN node the larger")

#: The slips of a plain minimax (lecture 2's exercises, and lecture 3's alpha-beta, whose
#: root value is minimax's whatever it prunes).
MINIMAX_SLIPS = (
    Slip("max started at 0", START_AT_0, Twist(start=(0, math.inf))),
    Slip("min started at 0", START_AT_0, Twist(start=(-math.inf, 0))),
    Slip("both started at 0", START_AT_0, Twist(start=(0, 0))),
    Slip("MAX by even depth", BY_DEPTH, Twist(max_at=lambda depth: depth % 2 == 0)),
    Slip("MAX by odd depth", BY_DEPTH, Twist(max_at=lambda depth: depth % 2 == 1)),
    Slip("max and min swapped", SWAPPED, Twist(swapped=True)),
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
