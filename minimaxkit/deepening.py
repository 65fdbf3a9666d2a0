"""Progressive (iterative) deepening, as the MIT 6.034 recitation teaches it: search to
depth 1, 2, 3, ... so that a best move is always ready (an *anytime* algorithm). With
reordering, every iteration searches each node's children by their static values, except
that the move an earlier iteration found best there goes first (remembered by path, or by
a :class:`~minimaxkit.search.transposition.TranspositionTable`). An iteration may start from an
aspiration window around the previous value, re-searching with the full window when the value falls
outside it.

>>> from minimaxkit.examples import sheet_tree
>>> r = deepen(sheet_tree().with_static())
>>> [(it.options["depth"], it.value) for it in r.iterations]
[(1, 5), (2, 5), (3, 5)]
>>> r.stopped
'max_depth'
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import OptionError
from .search.core import (
    Collected,
    SearchResult,
    _prepare,
    _run,
    check_conventions,
    check_depth,
    check_table,
    reject_unknown,
)
from .search.transposition import TranspositionTable
from .trace import Stats
from .tree import GameTree

__all__ = ["deepen", "iter_deepen", "DeepeningResult", "Interrupted"]

INF = math.inf


class Interrupted(Exception):
    """Raised inside a search when its node or time budget runs out."""


@dataclass(frozen=True)
class DeepeningResult:
    """The completed iterations (one :class:`SearchResult` each, deepest last), why deepening
    stopped (``"max_depth"``, ``"solved"``, ``"node_budget"``, ``"time_budget"``, or
    ``"error"`` when the game raised in a later iteration: ``error`` says what), the depths
    whose aspiration window failed and were searched again, and the work: ``stats`` adds up
    every search that ran to its end, the failed aspiration searches included;
    ``interrupted_nodes`` counts the nodes of the iteration a budget cut short."""

    iterations: tuple[SearchResult, ...]
    stopped: str
    researched: tuple[int, ...]
    stats: Stats
    interrupted_nodes: int = 0
    error: str | None = None

    @property
    def total_nodes(self) -> int:
        """Every node visited, in every search deepening started."""
        return self.stats.nodes + self.interrupted_nodes

    @property
    def value(self) -> float | None:
        """The value of the deepest completed iteration."""
        return self.iterations[-1].value if self.iterations else None

    @property
    def move(self) -> Any:
        """The best move of the deepest completed iteration: the anytime answer."""
        return self.iterations[-1].move if self.iterations else None

    @property
    def depth(self) -> int:
        """The deepest completed depth (0 if none completed)."""
        return int(self.iterations[-1].options["depth"]) if self.iterations else 0


def _budget_check(node_budget: int | None, deadline: float | None, spent: int) -> Any:
    """A per-node check that raises :class:`Interrupted` (with the nodes this search had
    visited) once ``spent`` plus this search's nodes pass the budget or time is up."""
    if node_budget is None and deadline is None:
        return None
    counter = [0]

    def check() -> None:
        counter[0] += 1
        if node_budget is not None and spent + counter[0] > node_budget:
            raise Interrupted("node_budget", counter[0] - 1)
        if deadline is not None and counter[0] % 256 == 0 and time.monotonic() > deadline:
            raise Interrupted("time_budget", counter[0] - 1)
    return check


def iter_deepen(game: Any, state: Any = None, *, max_depth: int | None = None,
                reorder: bool = True, table: TranspositionTable | None = None,
                aspiration: float | None = None, node_budget: int | None = None,
                time_budget: float | None = None, prune_on_equal: bool = True,
                fail: str = "soft", trace: bool = True, _status: list[Any] | None = None,
                **unknown: Any) -> Iterator[SearchResult]:
    """Yield one alpha-beta result per depth 1, 2, ... (the anytime form of :func:`deepen`).
    The options are checked at the call, before the first iteration is asked for.

    ``reorder=True`` searches each node's children in static order, with the move an earlier
    iteration found best there first; ``reorder=False`` in the game's natural order. With a
    ``table`` (a :class:`~minimaxkit.search.transposition.TranspositionTable`, kept across the
    iterations) the best moves come from the table, whose bounds also answer positions reached
    again.

    >>> from minimaxkit.examples import sheet_tree
    >>> [r.stats.leaves for r in iter_deepen(sheet_tree().with_static(), reorder=False)]
    [3, 7, 16]
    >>> [r.stats.leaves for r in iter_deepen(sheet_tree().with_static())]
    [3, 5, 11]
    >>> iter_deepen(sheet_tree(), node_budget=True)
    Traceback (most recent call last):
    ...
    minimaxkit.errors.OptionError: option 'node_budget': must be None or a number > 0, got True
    """
    reject_unknown(unknown, ("max_depth", "reorder", "table", "aspiration", "node_budget",
                             "time_budget", "prune_on_equal", "fail", "trace"))
    check_depth(max_depth, "max_depth")
    check_conventions(prune_on_equal, fail)
    check_table(table)
    if table is not None and not reorder:
        raise OptionError("table", "a table searches its best moves first: it needs "
                                   "reorder=True")
    for name, v in (("aspiration", aspiration), ("node_budget", node_budget),
                    ("time_budget", time_budget)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Real)
                              or not v > 0):
            raise OptionError(name, f"must be None or a number > 0, got {v!r}")
    game, state, _ = _prepare(game, state, None, None)
    if isinstance(game, GameTree) and max_depth is None:
        max_depth = max(game.height - len(state.path), 1)
    if max_depth is None and node_budget is None and time_budget is None:
        raise OptionError("max_depth", "give max_depth, node_budget or time_budget for a game")
    return _iterations(game, state, max_depth, reorder, table, aspiration, node_budget,
                       time_budget, prune_on_equal, fail, trace,
                       _status if _status is not None else [])


def _iterations(game: Any, state: Any, max_depth: int | None, reorder: bool,
                table: TranspositionTable | None, aspiration: float | None,
                node_budget: int | None, time_budget: float | None, prune_on_equal: bool,
                fail: str, trace: bool, status: list[Any]) -> Iterator[SearchResult]:
    deadline = time.monotonic() + time_budget if time_budget is not None else None
    # the best move of every node any iteration searched (by path), one dict for them all
    seen = Collected()
    spent = 0
    previous: SearchResult | None = None
    depth = 0
    while max_depth is None or depth < max_depth:
        depth += 1
        if isinstance(game, GameTree):
            game.check_static(depth, state)
        window = (-INF, INF)
        if aspiration is not None and previous is not None:
            window = (previous.value - aspiration, previous.value + aspiration)
        seen.deepest = 0
        try:
            result = _one(game, state, depth, window, reorder, table, prune_on_equal, fail,
                          _budget_check(node_budget, deadline, spent), trace, seen)
            if window != (-INF, INF) and not window[0] < result.value < window[1]:
                status.append(("researched", depth, result.stats))
                spent += result.stats.nodes
                result = _one(game, state, depth, (-INF, INF), reorder, table, prune_on_equal,
                              fail, _budget_check(node_budget, deadline, spent), trace, seen)
        except Interrupted as stop:
            status.append(("interrupted", stop.args[1]))
            status.append(("stopped", stop.args[0]))
            return
        spent += result.stats.nodes
        solved = seen.deepest < depth
        previous = result
        yield result
        if solved:
            status.append(("stopped", "solved"))
            return
    status.append(("stopped", "max_depth"))


def _one(game: Any, state: Any, depth: int, window: tuple[float, float], reorder: bool,
         table: TranspositionTable | None, prune_on_equal: bool, fail: str,
         check: Any, trace: bool, seen: Collected) -> SearchResult:
    order = "static" if reorder else None
    return _run(game, state, "alphabeta", depth=depth, prune=True, narrow=True, window=window,
                prune_on_equal=prune_on_equal, fail=fail, order=order, tt=False,
                trace=trace, first=seen.best if reorder and table is None else None,
                table=table, check=check, collect=seen,
                options={"depth": depth, "prune_on_equal": prune_on_equal, "fail": fail,
                         "window": window,
                         "order": "previous best first, then static" if reorder else None,
                         "tt": False, "table": table is not None})


def deepen(game: Any, state: Any = None, **options: Any) -> DeepeningResult:
    """Progressive deepening to ``max_depth`` (a tree's height by default) or until a
    ``node_budget`` / ``time_budget`` (seconds) runs out, whichever is first. An iteration
    cut short by a budget is dropped: the answer is the deepest completed one.

    >>> from minimaxkit.games import TicTacToe
    >>> r = deepen(TicTacToe(), max_depth=12)
    >>> r.value, r.depth, r.stopped
    (0, 10, 'solved')
    """
    status: list[Any] = []
    done: list[SearchResult] = []
    error: str | None = None
    try:
        for result in iter_deepen(game, state, _status=status, **options):
            done.append(result)
    except (OptionError, Interrupted):
        raise
    except Exception as err:  # the game failed in iteration k: keep iterations 1..k-1
        if not done:
            raise
        error = f"{type(err).__name__}: {err}"
        status.append(("stopped", "error"))
    iterations = tuple(done)
    failed = [n for n in status if n[0] == "researched"]
    researched = tuple(depth for _, depth, _ in failed)
    interrupted = sum(n[1] for n in status if n[0] == "interrupted")
    stopped = next(n[1] for n in status if n[0] == "stopped")
    runs = [r.stats for r in iterations] + [stats for _, _, stats in failed]
    total = Stats(*(sum(getattr(st, f) for st in runs)
                    for f in ("nodes", "leaves", "expanded", "cutoffs", "tt_hits")))
    return DeepeningResult(iterations, stopped, researched, total, interrupted, error)
