"""The table search: the plain search (:mod:`.plain_search`) with what it remembers from one
position to the next (:class:`TableSearch`).

What it remembers is a :class:`Memory`: the replay table of ``tt=True`` (which never
changes a result), a :class:`~minimaxkit.search.transposition.TranspositionTable` (whose
bounds answer positions reached again and whose best moves are searched first), and for
progressive deepening the best move of every node an earlier iteration searched (by path),
what this one finds (:class:`Collected`) and a budget checked at every node.

>>> from minimaxkit.examples import sheet_tree
>>> from minimaxkit.search.options import SearchOptions
>>> from minimaxkit.search.transposition import TranspositionTable
>>> tree, table = sheet_tree(), TranspositionTable()
>>> options = SearchOptions("alphabeta", prune=True, narrow=True)
>>> TableSearch(tree, options, Memory(table=table)).run(tree.root).value
5
>>> table.get(tree.root)
Entry(depth=-1, value=5, flag='exact', move=1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..trace import TTHIT, Path
from .options import SearchOptions, Window
from .ordering import ChildOrder
from .plain_search import PlainSearch
from .result import SearchResult
from .transposition import (
    EXACT,
    LOWER,
    UPPER,
    Entry,
    ReplayEntry,
    TranspositionTable,
    decides,
    replay_rule,
)

__all__ = ["Collected", "Memory", "TableSearch", "node_flag"]


@dataclass
class Collected:
    """What progressive deepening needs from a search, trace or not: the best child (its
    natural index) of every node where a move raised the node's value into its window or
    cut it off, by path (one dict, kept from iteration to iteration: the next one searches
    that child first), and the depth of the deepest node evaluated statically."""

    best: dict[Path, int] = field(default_factory=dict)
    deepest: int = 0


@dataclass(frozen=True)
class Memory:
    """What a search remembers: ``replay`` keeps every position's value for the rest of the
    search (``tt=True``); ``table`` is a transposition table to read and fill; ``first`` maps
    a node's path to the child searched first there; ``collect`` receives what deepening
    needs; ``check`` is called at every node (a budget: it raises to stop the search)."""

    replay: bool = False
    table: TranspositionTable | None = None
    first: Mapping[Path, int] | None = None
    collect: Collected | None = None
    check: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        assert not (self.replay and (self.table is not None or self.collect is not None)), \
            "the replay table of tt=True is kept alone"


def node_flag(prune: bool, value: float, window: Window) -> str | None:
    """What a node's returned ``value`` is, from MAX's view, given the ``window`` (α, β) it
    was searched with: an upper bound if it is at or below α (every move failed low), a
    lower bound if it is at or above β (a cut-off), exact between. Exact everywhere in a
    search that never cuts (``prune`` false). None when it is neither: strict cuts can close
    a child's window to α = β, and a value equal to both may have come from either bound.

    >>> node_flag(True, 3, (3, 5)), node_flag(True, 5, (3, 5)), node_flag(True, 4, (3, 5))
    ('upper', 'lower', 'exact')
    >>> node_flag(True, 3, (3, 3)) is None, node_flag(False, 3, (3, 5))
    (True, 'exact')
    """
    alpha, beta = window
    if not prune:
        return EXACT
    if value == alpha == beta:
        return None
    return UPPER if value <= alpha else LOWER if value >= beta else EXACT


class TableSearch(PlainSearch):
    """A :class:`~minimaxkit.search.plain_search.PlainSearch` with a :class:`Memory`: before
    expanding a node it asks the memory, and a remembered value that answers the node's
    window is returned at once (a table hit); the remembered best move is searched first;
    after the node it stores what it found. It also tracks ``reach``: the depth of the
    deepest node evaluated statically below the node being searched."""

    def __init__(self, game: Game, options: SearchOptions, memory: Memory) -> None:
        super().__init__(game, options)
        self.memory = memory
        self.replay: dict[tuple[Any, int], ReplayEntry] | None = {} if memory.replay else None
        self.replay_answers = replay_rule(replay_same_window=memory.first is None)
        self.best_found = memory.collect.best if memory.collect is not None else None
        self.need_path = options.trace or memory.first is not None or memory.collect is not None
        if memory.table is not None or memory.first is not None:
            self.order = self.remembered_first(self.order)
        self.reach = 0

    def run(self, state: Any) -> SearchResult:
        """Search from ``state``; then tell ``collect`` how deep the search evaluated."""
        result = super().run(state)
        if self.memory.collect is not None:
            self.memory.collect.deepest = max(self.memory.collect.deepest, self.reach)
        return result

    def node(self, state: Any, d: int, window: Window, path: Path) -> float:
        """Check the budget, note the depth reached, and search the node as the plain
        search does (whose :meth:`expand` is the one below)."""
        if self.memory.check is not None:
            self.memory.check()
        if d > self.reach:
            self.reach = d
        return super().node(state, d, window, path)

    def expand(self, state: Any, d: int, window: Window, path: Path,
               moves: Sequence[Any]) -> float:
        """A remembered value that answers the node, or the value of its children searched
        as the plain search does, then remembered."""
        remaining = self.limit - d if self.limit >= 0 else -1
        known = self.recall(state, remaining, window, path, d)
        if known is not None:
            return known
        outer, self.reach = self.reach, d
        value = super().expand(state, d, window, path, moves)
        flag = node_flag(self.prune, value, window)
        mx, best, pv = self.last_at_max, self.last_best, self.pvs[d]
        if self.replay is not None:  # (never with a table or deepening's collection)
            fallback = UPPER if mx else LOWER
            self.replay[(state, remaining)] = ReplayEntry(*window, value, flag or fallback, pv)
            return value
        # a best move is one that raised the value into the window (or cut): where every
        # move failed low, the values are only upper bounds and name no best move
        raised = value > window[0] if mx else value < window[1]
        if self.best_found is not None and raised:
            self.best_found[path] = best
        below, self.reach = self.reach, max(outer, self.reach)
        if self.memory.table is not None and flag is not None:
            self.memory.table.store(state, Entry(remaining, value, flag,
                                                 moves[best] if raised else None, pv, below - d))
        return value

    def recall(self, state: Any, remaining: int, window: Window, path: Path,
               d: int) -> float | None:
        """The value the memory holds for ``state`` searched ``remaining`` moves deep with
        ``window``, where it answers the node (counted and recorded as a table hit), or
        None."""
        if self.replay is not None:
            hit = self.replay.get((state, remaining))
            if hit is None or not self.replay_answers(hit, *window):
                return None
            return self.table_hit(path, d, hit.value, hit.flag, hit.pv)
        table = self.memory.table
        entry = table.get(state) if table is not None else None
        if entry is None or not decides(entry, remaining, *window, self.options.prune_on_equal):
            return None
        self.reach = max(self.reach, d + entry.reached)
        return self.table_hit(path, d, entry.value, entry.flag, entry.pv)

    def table_hit(self, path: Path, d: int, value: float, flag: str,
                  pv: tuple[Any, ...]) -> float:
        """Count and record a table hit that answered the node at ``path`` with ``value``."""
        self.tt_hits += 1
        self.pvs[d] = pv
        if self.emit is not None:
            self.emit((TTHIT, path, value, flag))
        return value

    def remembered_first(self, order: ChildOrder | None) -> ChildOrder:
        """``order`` (None: the natural order) with the child remembered as best first: the
        table's best move for the position, else the best child an earlier iteration found
        at the path."""
        table, first = self.memory.table, self.memory.first

        def remembered(state: Any, d: int, path: Path, moves: Sequence[Any],
                       mx: bool) -> Sequence[int]:
            idx = range(len(moves)) if order is None else order(state, d, path, moves, mx)
            entry = table.get(state) if table is not None else None
            hint = (moves.index(entry.move) if entry is not None and entry.move in moves
                    else first.get(path) if first is not None else None)
            if hint is not None and hint != idx[0]:
                return [hint, *(i for i in idx if i != hint)]
            return idx
        return remembered
