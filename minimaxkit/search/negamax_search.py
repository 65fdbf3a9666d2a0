"""Alpha-beta as negamax (:func:`negamax`): each node returns its value for the player to move
there, and a child's value is negated where the player changes. It is written apart from the
plain search (:mod:`.plain_search`), as an independent formulation: its traces (α, β from
MAX's view) equal :func:`~minimaxkit.search.alphabeta`'s under the same options, which the
tests check on many trees.

>>> from minimaxkit.examples import sheet_tree
>>> from minimaxkit.search import alphabeta
>>> negamax(sheet_tree()).trace == alphabeta(sheet_tree()).trace
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..game import Game
from ..support.recursion import recursion_room
from ..trace import CUTOFF, ENTER, EXIT, LEAF, TTHIT, Path, Stats, Trace
from .options import (
    INF,
    MAX_TREE_DEPTH,
    SearchOptions,
    Window,
    check_conventions,
    check_window,
    prepare,
    reject_unknown,
)
from .ordering import Order, make_order
from .plain_search import exact_values
from .result import SearchResult
from .transposition import EXACT, FLIP, LOWER, UPPER, ReplayEntry, replay_rule

__all__ = ["negamax", "Negamax"]


class Found(NamedTuple):
    """What a node returns in negamax: its ``value`` for the player to move there, and the
    principal variation ``pv`` below it."""

    value: float
    pv: tuple[Any, ...]


def max_view(color: int, window: Window) -> Window:
    """A window seen by the player to move (``color`` +1 for MAX, -1 for MIN) as MAX sees it.

    >>> max_view(1, (2, 5)), max_view(-1, (2, 5))
    ((2, 5), (-5, -2))
    """
    a, b = window
    return (a, b) if color > 0 else (-b, -a)


class Negamax:
    """One negamax search of ``game`` as ``options`` say (``replay``: with the table of
    ``tt=True``); :meth:`run` it once. It counts and records as the plain search does."""

    def __init__(self, game: Game, options: SearchOptions, replay: bool) -> None:
        self.game, self.options = game, options
        self.limit = options.limit
        self.order = make_order(game, options.order, self.limit, exact_values(game))
        self.record: list[tuple[Any, ...]] = []
        self.emit = self.record.append if options.trace else None
        self.starts_at_bound = options.fail != "soft"
        self.clamped = options.fail == "hard"
        self.table: dict[tuple[Any, int], ReplayEntry] | None = {} if replay else None
        self.answers = replay_rule(replay_same_window=True)
        self.leaves = self.expanded = self.cutoffs = self.tt_hits = 0

    def run(self, state: Any) -> SearchResult:
        """Search from ``state``; the value is MAX's."""
        color = 1 if self.game.is_max(state) else -1
        with recursion_room(MAX_TREE_DEPTH):
            v, pv = self.node(state, 0, max_view(color, self.options.window), color, ())
        trace = Trace.of_walk(self.record) if self.options.trace else None
        stats = Stats(self.expanded + self.leaves + self.tt_hits, self.leaves, self.expanded,
                      self.cutoffs, self.tt_hits)
        return SearchResult(color * v, pv[0] if pv else None, pv, trace, stats, "negamax",
                            self.options.shown, self.game, state)

    def node(self, st: Any, d: int, window: Window, color: int, path: Path) -> Found:
        """The value of ``st`` for the player to move there (``color``), searched with the
        ``window`` (a, b) that player sees, and its principal variation."""
        game = self.game
        moves = game.moves(st)
        if not moves or d == self.limit:
            return self.leaf(st, d, window, color, path)
        key = (st, self.limit - d if self.limit >= 0 else -1)
        known = self.recall(key, window, color, path)
        if known is not None:
            return known
        self.expanded += 1
        if self.emit is not None:
            self.emit((ENTER, path, *max_view(color, window), color > 0, d))
        a, b = window
        v, best, best_pv = (a if self.starts_at_bound else -INF), None, ()
        idx = (self.order(st, d, path, moves, color > 0) if self.order
               else list(range(len(moves))))
        for k, i in enumerate(idx):
            child = game.play(st, moves[i])
            c = 1 if game.is_max(child) else -1
            if c == color:
                cv, cpv = self.node(child, d + 1, (a, b), c, path + (i,))
            else:
                cv, cpv = self.node(child, d + 1, (-b, -a), c, path + (i,))
                cv = -cv
            if best is None or cv > v:
                best, best_pv, v = i, cpv, max(v, cv)
            if v >= b if self.options.prune_on_equal else v > b:
                self.cut(path, color, (v, b), tuple(idx[k + 1:]))
                break
            a = max(a, v)
        if self.clamped and v > b:
            v = b
        if self.emit is not None:
            self.emit((EXIT, path, color * v, best))
        assert best is not None, "an interior node has a child, and the first one is best"
        pv = (moves[best],) + best_pv
        self.remember(key, window, color, Found(v, pv))
        return Found(v, pv)

    def leaf(self, st: Any, d: int, window: Window, color: int, path: Path) -> Found:
        """Evaluate ``st`` statically, for the player to move there."""
        v = color * self.game.evaluate(st)
        self.leaves += 1
        if self.emit is not None:
            self.emit((LEAF, path, color * v, *max_view(color, window), color > 0, d))
        return Found(v, ())

    def recall(self, key: tuple[Any, int], window: Window, color: int,
               path: Path) -> Found | None:
        """The table's answer for the position and remaining depth ``key``, where it answers
        the ``window``, or None."""
        if self.table is None or key not in self.table:
            return None
        entry = self.table[key]
        if not self.answers(entry, *max_view(color, window)):
            return None
        self.tt_hits += 1
        if self.emit is not None:
            self.emit((TTHIT, path, entry.value, entry.flag))
        return Found(color * entry.value, entry.pv)

    def cut(self, path: Path, color: int, reached: tuple[float, float],
            pruned: tuple[int, ...]) -> None:
        """Count and record a cut-off: ``reached`` is the node's value and the bound it
        reached, as the player to move sees them."""
        self.cutoffs += 1
        if self.emit is not None:
            v, b = reached
            self.emit((CUTOFF, path, color * v, color * b, "beta" if color > 0 else "alpha",
                       pruned))

    def remember(self, key: tuple[Any, int], window: Window, color: int,
                 found: Found) -> None:
        """Keep what the node searched with ``window`` found, in the table of ``tt=True``."""
        if self.table is None:
            return
        a0, b = window
        v = found.value
        own = UPPER if v <= a0 else LOWER if v >= b else EXACT
        flag = own if color > 0 or own == EXACT else FLIP[own]
        self.table[key] = ReplayEntry(*max_view(color, window), color * v, flag, found.pv)


def negamax(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
        game: Any, state: Any = None, *, depth: int | None = None,
        prune_on_equal: bool = True, fail: str = "soft",
        window: tuple[float, float] = (-INF, INF), order: Order = None, tt: bool = False,
        trace: bool = True, **unknown: Any) -> SearchResult:
    """Alpha-beta as negamax: each node returns its value for the player to move there and
    a child's value is negated where the player changes. Traces (α, β from MAX's view) are
    equal to :func:`alphabeta`'s under the same options, and ``tt=True`` gives the same
    guarantee: the value is the value without the table.

    >>> from minimaxkit.examples import sheet_tree
    >>> from minimaxkit.search import alphabeta
    >>> negamax(sheet_tree()).trace == alphabeta(sheet_tree()).trace
    True
    >>> from minimaxkit.games import Nim
    >>> negamax(Nim((1, 3, 4)), depth=6, tt=True).value == alphabeta(Nim((1, 3, 4)), depth=6).value
    True
    """
    reject_unknown(unknown, ("depth", "trace", "order", "tt", "prune_on_equal", "fail",
                             "window"))
    check_conventions(prune_on_equal, fail)
    lo, hi = check_window(window)
    start = prepare(game, state, depth, order)
    options = SearchOptions(
        "negamax", depth=start.depth, prune=True, narrow=True, window=(lo, hi),
        prune_on_equal=prune_on_equal, fail=fail, order=order, trace=trace,
        shown={"depth": start.depth, "prune_on_equal": prune_on_equal, "fail": fail,
               "window": (lo, hi), "order": order, "tt": tt})
    return Negamax(start.game, options, replay=tt).run(start.state)
