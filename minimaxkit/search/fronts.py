"""The public searches minimax, simple pruning and alpha-beta: each checks its options
(:mod:`.options`), then runs the plain search (:mod:`.plain_search`) or, where a table is
asked for, the table search (:mod:`.table_search`). Their options are keyword-only, as
networkx writes an algorithm's options (``dfs_edges(G, source, depth_limit, *,
sort_neighbors)``), so some take more than five.

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> r = alphabeta(tree)
>>> r.value, r.move, r.pv, r.stats.leaves
(3, 0, (0, 0), 7)
>>> minimax(tree).stats.leaves
9
>>> alphabeta(tree, prune_on_equal=False, fail="hard").value
3
"""

from __future__ import annotations

from typing import Any

from .options import (
    INF,
    SearchOptions,
    check_conventions,
    check_table,
    check_window,
    prepare,
    reject_unknown,
)
from .ordering import Order
from .plain_search import PlainSearch
from .result import SearchResult
from .table_search import Memory, TableSearch
from .transposition import TranspositionTable

__all__ = ["minimax", "simple_pruning", "alphabeta", "run_search"]

_COMMON = ("depth", "trace", "order", "tt")


def run_search(game: Any, state: Any, options: SearchOptions,
               memory: Memory | None = None) -> SearchResult:
    """Search ``game`` from ``state`` as ``options`` say (checked already, by
    :func:`~minimaxkit.search.options.prepare` and the other checks): the plain search, or
    the table search with ``memory``."""
    search = PlainSearch(game, options) if memory is None else TableSearch(game, options, memory)
    return search.run(state)


def minimax(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
        game: Any, state: Any = None, *, depth: int | None = None, trace: bool = True,
        order: Order = None, tt: bool = False, **unknown: Any) -> SearchResult:
    """Plain minimax (the recursive-minimax handout's MaxMin/MinMax, the MIT 6.034
    recitation's MINIMAX, the blog post's depth-limited form): every node is searched; nodes
    at ``depth`` are evaluated statically. ``tt=True`` adds a table of positions already
    searched (it never changes the result).

    >>> from minimaxkit.examples import sheet_tree
    >>> r = minimax(sheet_tree())
    >>> r.value, r.move, r.stats.leaves
    (5, 1, 27)
    >>> minimax(sheet_tree(), depth=-1)
    Traceback (most recent call last):
    ...
    minimaxkit.errors.OptionError: option 'depth': must be None or a whole number >= 0, got -1
    """
    reject_unknown(unknown, _COMMON)
    start = prepare(game, state, depth, order)
    options = SearchOptions("minimax", depth=start.depth, order=order, trace=trace,
                            shown={"depth": start.depth, "order": order, "tt": tt})
    return run_search(start.game, start.state, options, Memory(replay=True) if tt else None)


def simple_pruning(game: Any, state: Any = None, *, depth: int | None = None,
                   trace: bool = True, order: Order = None, **unknown: Any) -> SearchResult:
    """Minimax that stops at a node as soon as one move reaches the best value possible there
    (the machine-player tutorial's §1.2: ``value_range[1]`` for MAX, ``value_range[0]`` for MIN).

    >>> from minimaxkit.games import TicTacToe
    >>> r = simple_pruning(TicTacToe(), TicTacToe().state_from_text("XX.\\nOO.\\n..."))
    >>> r.value, r.move, r.stats.leaves
    (1, 2, 1)
    """
    reject_unknown(unknown, ("depth", "trace", "order"))
    start = prepare(game, state, depth, order)
    low, high = start.game.value_range
    options = SearchOptions("simple_pruning", depth=start.depth, prune=True,
                            window=(low, high), order=order, trace=trace,
                            shown={"depth": start.depth, "order": order})
    return run_search(start.game, start.state, options)


def alphabeta(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
        game: Any, state: Any = None, *, depth: int | None = None,
        prune_on_equal: bool = True, fail: str = "soft",
        window: tuple[float, float] = (-INF, INF), order: Order = None, tt: bool = False,
        table: TranspositionTable | None = None, trace: bool = True,
        **unknown: Any) -> SearchResult:
    """Alpha-beta search.

    ``prune_on_equal=True`` cuts when v ≥ β (MAX) or v ≤ α (MIN), as all five sources do;
    ``False`` cuts only on v > β or v < α. What a node returns: ``fail="soft"`` the best
    value v it found, which may lie outside [α, β] (the recursive-minimax handout, the MIT
    6.034 recitation, the blog post); ``fail="hard"`` v clamped into [α, β] (α where every
    move failed low, β at a β-cut: the textbooks' fail-hard); ``fail="one-sided"`` starts v
    at the node's own bound, α at MAX and β at MIN, and returns it unclamped, so a cut can
    return more than β (the example sheet's form, and the machine-player tutorial's).
    All three give the same root value.
    ``window`` is the initial (α, β); ``order`` reorders children (see ``docs/design.md``);
    ``tt=True`` adds a transposition table that never changes the result (hashable states);
    ``table=`` a :class:`~minimaxkit.search.transposition.TranspositionTable` to read and
    fill: bounds that decide the window answer a node, and each position's stored best move is
    searched first (the root's value and best move are those without it; ``docs/design.md``).

    >>> from minimaxkit.examples import sheet_tree
    >>> r = alphabeta(sheet_tree())
    >>> r.value, [sheet_tree().node(p).value for p in r.trace.leaves]
    (5, [8, 7, 3, 9, 2, 4, 1, 1, 3, 5, 3, 9, 6, 1, 2, 3])
    """
    reject_unknown(unknown, (*_COMMON, "prune_on_equal", "fail", "window", "table"))
    check_conventions(prune_on_equal, fail)
    window = check_window(window)
    check_table(table, tt)
    start = prepare(game, state, depth, order)
    options = SearchOptions(
        "alphabeta", depth=start.depth, prune=True, narrow=True, window=window,
        prune_on_equal=prune_on_equal, fail=fail, order=order, trace=trace,
        shown={"depth": start.depth, "prune_on_equal": prune_on_equal, "fail": fail,
               "window": window, "order": order, "tt": tt, "table": table is not None})
    memory = Memory(replay=tt, table=table) if tt or table is not None else None
    return run_search(start.game, start.state, options, memory)
