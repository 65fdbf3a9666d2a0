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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError
from .search.fronts import run_search
from .search.options import (
    SearchOptions,
    Window,
    check_conventions,
    check_depth,
    check_table,
    prepare,
    reject_unknown,
)
from .search.result import SearchResult
from .search.table_search import Collected, Memory
from .search.transposition import TranspositionTable
from .trace import Stats
from .tree import GameTree

__all__ = ["deepen", "iter_deepen", "DeepeningResult", "Interrupted", "Plan", "Iterations"]

INF = math.inf
FULL: Window = (-INF, INF)


class Interrupted(Exception):
    """Raised inside a search when its node or time budget runs out: ``reason`` is
    ``"node_budget"`` or ``"time_budget"``, ``nodes`` the nodes the search had visited."""

    def __init__(self, reason: str, nodes: int) -> None:
        super().__init__(reason, nodes)
        self.reason, self.nodes = reason, nodes


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


@dataclass(frozen=True)
class Plan:
    """How deepening goes, its options checked (see :func:`iter_deepen`)."""

    max_depth: int | None
    reorder: bool
    table: TranspositionTable | None
    aspiration: float | None
    node_budget: int | None
    time_budget: float | None
    prune_on_equal: bool
    fail: str
    trace: bool


@dataclass(frozen=True)
class Researched:
    """An iteration whose aspiration window failed: its ``depth`` and the ``stats`` of the
    search thrown away."""

    depth: int
    stats: Stats


@dataclass
class Progress:
    """What the iterations tell besides their results: the failed aspiration searches, the
    nodes of the iteration a budget cut short, and why they stopped (None while running)."""

    researched: list[Researched] = field(default_factory=list)
    interrupted_nodes: int = 0
    stopped: str | None = None


def _budget_check(node_budget: int | None, deadline: float | None,
                  spent: int) -> Callable[[], None] | None:
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


def iter_deepen(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
        game: Any, state: Any = None, *, max_depth: int | None = None,
        reorder: bool = True, table: TranspositionTable | None = None,
        aspiration: float | None = None, node_budget: int | None = None,
        time_budget: float | None = None, prune_on_equal: bool = True,
        fail: str = "soft", trace: bool = True, **unknown: Any) -> Iterations:
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
    start = prepare(game, state, None, None)
    if isinstance(start.game, GameTree) and max_depth is None:
        max_depth = max(start.game.height - len(start.state.path), 1)
    if max_depth is None and node_budget is None and time_budget is None:
        raise OptionError("max_depth", "give max_depth, node_budget or time_budget for a game")
    plan = Plan(max_depth, reorder, table, aspiration, node_budget, time_budget,
                prune_on_equal, fail, trace)
    return Iterations(start.game, start.state, plan)


class Iterations(Iterator[SearchResult]):
    """The iterations of progressive deepening, one alpha-beta result per depth (what
    :func:`iter_deepen` returns); :attr:`progress` says what else happened."""

    def __init__(self, game: Any, state: Any, plan: Plan) -> None:
        self.game, self.state, self.plan = game, state, plan
        self.progress = Progress()
        # the best move of every node any iteration searched (by path), one dict for them all
        self.seen = Collected()
        self.spent = 0
        self._steps = self._deepen()

    def __next__(self) -> SearchResult:
        return next(self._steps)

    def _deepen(self) -> Iterator[SearchResult]:
        plan, deadline = self.plan, None
        if plan.time_budget is not None:
            deadline = time.monotonic() + plan.time_budget
        previous: SearchResult | None = None
        depth = 0
        while plan.max_depth is None or depth < plan.max_depth:
            depth += 1
            try:
                result = self._iteration(depth, previous, deadline)
            except Interrupted as stop:
                self.progress.interrupted_nodes += stop.nodes
                self.progress.stopped = stop.reason
                return
            previous = result
            yield result
            if self.seen.deepest < depth:  # no node was stopped by the depth limit
                self.progress.stopped = "solved"
                return
        self.progress.stopped = "max_depth"

    def _iteration(self, depth: int, previous: SearchResult | None,
                   deadline: float | None) -> SearchResult:
        """The search to ``depth``: in the aspiration window around the ``previous`` value,
        and again in the full window if the value falls outside it."""
        if isinstance(self.game, GameTree):
            self.game.check_static(depth, self.state)
        window = FULL
        if self.plan.aspiration is not None and previous is not None:
            window = (previous.value - self.plan.aspiration,
                      previous.value + self.plan.aspiration)
        self.seen.deepest = 0
        result = self._search(depth, window, deadline)
        if window != FULL and not window[0] < result.value < window[1]:
            self.progress.researched.append(Researched(depth, result.stats))
            self.spent += result.stats.nodes
            result = self._search(depth, FULL, deadline)
        self.spent += result.stats.nodes
        return result

    def _search(self, depth: int, window: Window, deadline: float | None) -> SearchResult:
        plan = self.plan
        options = SearchOptions(
            "alphabeta", depth=depth, prune=True, narrow=True, window=window,
            prune_on_equal=plan.prune_on_equal, fail=plan.fail,
            order="static" if plan.reorder else None, trace=plan.trace,
            shown={"depth": depth, "prune_on_equal": plan.prune_on_equal, "fail": plan.fail,
                   "window": window,
                   "order": "previous best first, then static" if plan.reorder else None,
                   "tt": False, "table": plan.table is not None})
        memory = Memory(table=plan.table,
                        first=self.seen.best if plan.reorder and plan.table is None else None,
                        collect=self.seen,
                        check=_budget_check(plan.node_budget, deadline, self.spent))
        return run_search(self.game, self.state, options, memory)


def deepen(game: Any, state: Any = None, **options: Any) -> DeepeningResult:
    """Progressive deepening to ``max_depth`` (a tree's height by default) or until a
    ``node_budget`` / ``time_budget`` (seconds) runs out, whichever is first. An iteration
    cut short by a budget is dropped: the answer is the deepest completed one.

    >>> from minimaxkit.games import TicTacToe
    >>> r = deepen(TicTacToe(), max_depth=12)
    >>> r.value, r.depth, r.stopped
    (0, 10, 'solved')
    """
    iterations = iter_deepen(game, state, **options)
    done: list[SearchResult] = []
    error: str | None = None
    try:
        for result in iterations:
            done.append(result)
    except (OptionError, Interrupted):
        raise
    except Exception as err:  # the game failed in iteration k: keep iterations 1..k-1
        if not done:
            raise
        error = f"{type(err).__name__}: {err}"
        iterations.progress.stopped = "error"
    progress = iterations.progress
    assert progress.stopped is not None, "the iterations say why they stopped"
    runs = [r.stats for r in done] + [failed.stats for failed in progress.researched]
    total = Stats(*(sum(getattr(st, f) for st in runs)
                    for f in ("nodes", "leaves", "expanded", "cutoffs", "tt_hits")))
    return DeepeningResult(tuple(done), progress.stopped,
                           tuple(failed.depth for failed in progress.researched), total,
                           progress.interrupted_nodes, error)
