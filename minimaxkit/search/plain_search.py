"""The plain search: minimax, simple pruning and alpha-beta as one recursive search that
records its trace (:class:`PlainSearch`).

Every node maximises ``s·v`` with ``s = +1`` at MAX and ``-1`` at MIN, inside its window
seen from its own side, so MAX and MIN nodes share one loop (:meth:`PlainSearch.expand`).
The options decide which search it is: minimax never cuts; simple pruning cuts where a value
reaches the best the game allows; alpha-beta cuts where a value reaches β, and narrows the
window its later children get. The table search (:mod:`.table_search`) adds what a search
remembers from one position to the next.

>>> from minimaxkit.examples import sheet_tree
>>> options = SearchOptions("alphabeta", prune=True, narrow=True)
>>> r = PlainSearch(sheet_tree(), options).run(sheet_tree().root)
>>> r.value, r.move, r.stats.leaves, r.trace.event(0)
(5, 1, 16, Enter(path=(), alpha=-inf, beta=inf, is_max=True, depth=0))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Game
from ..support.gc_pause import paused_gc
from ..support.recursion import recursion_room
from ..trace import CUTOFF, ENTER, EXIT, LEAF, Path, Stats, Trace
from .options import INF, MAX_TREE_DEPTH, SearchOptions, Window
from .ordering import ChildOrder, Solve, make_order
from .result import SearchResult

__all__ = ["PlainSearch", "exact_values"]


class PlainSearch:
    """One search of ``game`` as ``options`` say: :meth:`run` it from a state, once.

    While it runs it holds the counts, the trace being recorded (a list of plain tuples, the
    cheap form :class:`~minimaxkit.trace.Trace` reads) and the principal variations found so
    far: ``pvs[d]`` is the principal variation below the node that last returned at depth
    ``d``.

    The methods run once a node: they read what they call into locals first (in CPython a
    function kept in an attribute is called faster so; ``benchmarks/bench_core.py``)."""

    def __init__(self, game: Game, options: SearchOptions) -> None:
        self.game, self.options = game, options
        self.moves, self.play = game.moves, game.play
        self.is_max, self.evaluate = game.is_max, game.evaluate
        self.limit = options.limit
        self.record: list[tuple[Any, ...]] | None = [] if options.trace else None
        self.emit = self.record.append if self.record is not None else None
        self.order: ChildOrder | None = make_order(game, options.order, self.limit,
                                                   exact_values(game))
        #: paths are built only where something reads them (here: the trace)
        self.need_path = options.trace
        self.prune, self.narrow = options.prune, options.narrow
        self.prune_on_equal = options.prune_on_equal
        #: what a cut-off is called, at a MIN node and at a MAX node
        self.cut_kinds = ("alpha", "beta") if options.narrow else ("best", "best")
        # fail="hard" and "one-sided": v starts at the node's own bound; "hard": and is clamped
        self.starts_at_bound = options.fail != "soft"
        self.clamped = options.fail == "hard"
        self.leaves = self.expanded = self.cutoffs = self.tt_hits = 0
        # grown on demand: a huge depth limit costs nothing up front
        self.pvs: list[tuple[Any, ...]] = [()] * 64
        #: the node last expanded: the natural index of its best child, and whether it is a
        #: MAX node (what the table search keeps of it)
        self.last_best, self.last_at_max = 0, True

    def run(self, state: Any) -> SearchResult:
        """Search from ``state`` and return what was found.

        The trace is hundreds of thousands of small tuples that hold no cycles; the cyclic
        garbage collector would rescan them again and again (measured: tracing cost 2.3x the
        untraced time with it, 1.5x without), so it pauses during the search."""
        with paused_gc(), recursion_room(MAX_TREE_DEPTH):
            value = self.node(state, 0, self.options.window, ())
        pv = self.pvs[0]
        stats = Stats(self.expanded + self.leaves + self.tt_hits, self.leaves, self.expanded,
                      self.cutoffs, self.tt_hits)
        trace = Trace.of_walk(self.record) if self.record is not None else None
        return SearchResult(value, pv[0] if pv else None, pv, trace, stats,
                            self.options.algorithm, self.options.shown, self.game, state)

    def node(self, state: Any, d: int, window: Window, path: Path) -> float:
        """The value of ``state``, ``d`` moves below the start, searched with the window
        (alpha, beta) from MAX's view; ``path`` is its path from the start (or ``()`` when
        nothing reads paths). A node without moves, or at the depth limit, is evaluated
        statically (a leaf); any other is expanded."""
        moves_of = self.moves
        moves = moves_of(state)
        if moves and d != self.limit:
            return self.expand(state, d, window, path, moves)
        evaluate, emit = self.evaluate, self.emit
        v = evaluate(state)
        self.leaves += 1
        self.pvs[d] = ()
        if emit is not None:
            is_max = self.is_max
            emit((LEAF, path, v, window[0], window[1], is_max(state), d))
        return v

    def expand(self, state: Any, d: int, window: Window, path: Path,
               moves: Sequence[Any]) -> float:
        """Search the children of an interior node and return its value: the one loop of
        MAX and MIN nodes.

        In its own view (``s = +1`` at MAX, ``-1`` at MIN) the node maximises ``s·v`` inside
        the window (a, b); its children get the window ``child``, from MAX's view. A cut-off
        is the only way ``v`` passes ``b``, so the clamp of ``fail="hard"`` follows one."""
        is_max, emit, pvs, order = self.is_max, self.emit, self.pvs, self.order
        mx = is_max(state)
        self.expanded += 1
        if emit is not None:
            emit((ENTER, path, window[0], window[1], mx, d))
        if len(pvs) <= d + 1:
            pvs.extend([()] * len(pvs))
        if mx:
            s, (a, b) = 1, window
        else:
            s, a, b = -1, -window[1], -window[0]
        v = a if self.starts_at_bound else -INF
        idx = range(len(moves)) if order is None else order(state, d, path, moves, mx)
        best, pv, child, d1 = idx[0], (), window, d + 1
        play, need_path = self.play, self.need_path
        prune, narrow, prune_on_equal = self.prune, self.narrow, self.prune_on_equal
        for i in idx:
            cv = s * self.node(play(state, moves[i]), d1, child,
                               path + (i,) if need_path else path)
            if cv > v or not pv:
                # the first child stands for the node until a better one comes, so that a
                # node whose every move loses still has its whole principal variation
                best, pv = i, (moves[i], *pvs[d1])
                v = max(v, cv)
            if prune and (v >= b if prune_on_equal else v > b):
                self.cutoffs += 1
                if emit is not None:
                    emit((CUTOFF, path, s * v, s * b, self.cut_kinds[mx],
                          tuple(idx[idx.index(i) + 1:])))
                if self.clamped and v > b:
                    v = b
                break
            if narrow and v > a:
                a = v
                child = (a, b) if mx else (-b, -a)
        pvs[d] = pv
        self.last_best, self.last_at_max = best, mx
        if emit is not None:
            emit((EXIT, path, s * v, best))
        return s * v


def exact_values(game: Game) -> Solve:
    """``solve(state, depth)``: the exact value of ``state`` in ``game`` searched ``depth``
    moves deep (None: to the end), by a plain alpha-beta search without a trace (what
    ``order="perfect"`` sorts children by).

    >>> from minimaxkit.examples import sheet_tree
    >>> tree = sheet_tree()
    >>> exact_values(tree)(tree.node((0,)), None), exact_values(tree)(tree.root, None)
    (4, 5)
    """
    def solve(state: Any, depth: int | None) -> float:
        alphabeta = SearchOptions("alphabeta", depth=depth, prune=True, narrow=True,
                                  trace=False)
        return PlainSearch(game, alphabeta).run(state).value
    return solve
