"""Transposition tables: positions already searched, looked up instead of searched again.

The kit has two, for two jobs.

* ``tt=True`` (lecture 4) is a table that never changes a result: an entry answers a
  later visit only where the search would return exactly the same value (:func:`replay_rule`).
  Its job is transpositions: one position reached by different move orders.
* :class:`TranspositionTable` (lecture 5) is the table of game programs: one entry per
  position with the *remaining depth* it was searched to, the value (from MAX's view),
  whether that value is exact or only a lower bound (a MAX node that cut off, a MIN node
  where no move lowered β) or an upper bound (a MIN node that cut off, a MAX node where no
  move raised α), and the best move.
  A later visit at the same remaining depth returns an exact value, and a bound that
  already decides the window (a lower bound at or above β, an upper bound at or below α);
  any visit tries the stored best move first. Kept from one deepening iteration to the
  next, it carries each position's best move to the deeper search. The value and the best
  move at the root are those of the search without it (``docs/design.md``); the values
  returned below the root, the counts and the trace differ.

>>> from minimaxkit import deepen
>>> from minimaxkit.examples import sheet_tree
>>> tree, table = sheet_tree().with_static(), TranspositionTable()
>>> r = deepen(tree, table=table)           # depths 1, 2, 3, one table for all three
>>> table.get(tree.root)
Entry(depth=3, value=5, flag='exact', move=1)
>>> sorted(e.flag for e in table.values())
['exact', 'exact', 'exact', 'lower', 'lower', 'upper', 'upper', 'upper', 'upper']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = ["Entry", "TranspositionTable", "EXACT", "LOWER", "UPPER", "FLIP", "decides",
           "ReplayEntry", "replay_rule"]

EXACT, LOWER, UPPER = "exact", "lower", "upper"
#: the same bound seen from the other player: a MIN node's lower bound is MAX's upper bound
FLIP = {LOWER: UPPER, UPPER: LOWER, EXACT: EXACT}


@dataclass(frozen=True)
class Entry:
    """What a search learnt about one position: the remaining ``depth`` it was searched to
    (-1: to the end of the game), its ``value`` from MAX's view, the ``flag`` saying what
    the value is (``"exact"``; ``"lower"``: the true value is at least this; ``"upper"``: at
    most this) and the best ``move`` found (None when no move raised the node's α, at MAX,
    or lowered its β, at MIN: its value is only a bound). ``pv`` is the principal variation below
    the position (for exact values); ``reached`` how many moves below it the search
    evaluated a position at the depth limit or the end of the game.

    >>> Entry(2, 0.5, "lower", 3)
    Entry(depth=2, value=0.5, flag='lower', move=3)
    """

    depth: int
    value: float
    flag: str
    move: Any
    pv: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    reached: int = field(default=0, repr=False, compare=False)


class TranspositionTable:
    """The classic transposition table: ``state -> Entry``, one entry per position (states
    must be hashable). Pass one to :func:`~minimaxkit.alphabeta` or
    :func:`~minimaxkit.deepen` as ``table=``; the search reads and fills it, and you can
    read it afterwards. A new entry replaces the old one (the latest search of a position),
    except that an entry without a best move keeps the move the old one had.

    >>> t = TranspositionTable()
    >>> t.store("s", Entry(1, 0.2, "exact", 3))
    >>> t.store("s", Entry(2, 0.1, "upper", None))
    >>> t["s"], len(t), "s" in t
    (Entry(depth=2, value=0.1, flag='upper', move=3), 1, True)
    """

    def __init__(self) -> None:
        self._entries: dict[Hashable, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, state: object) -> bool:
        return state in self._entries

    def __getitem__(self, state: Hashable) -> Entry:
        return self._entries[state]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._entries)

    def __repr__(self) -> str:
        return f"<TranspositionTable: {len(self)} entries>"

    def get(self, state: Hashable) -> Entry | None:
        """The entry of ``state``, or None."""
        return self._entries.get(state)

    def values(self) -> list[Entry]:
        """Every entry, in the order the positions were first stored."""
        return list(self._entries.values())

    def store(self, state: Hashable, entry: Entry) -> None:
        """Keep ``entry`` for ``state``, with the old best move if ``entry`` has none."""
        if entry.move is None:
            old = self._entries.get(state)
            if old is not None and old.move is not None:
                entry = Entry(entry.depth, entry.value, entry.flag, old.move, entry.pv,
                              entry.reached)
        self._entries[state] = entry

    def clear(self) -> None:
        """Forget every entry."""
        self._entries.clear()


def decides(entry: Entry, depth: int, alpha: float, beta: float, prune_on_equal: bool) -> bool:
    """True when ``entry`` answers a node searched ``depth`` moves further (-1: to the end)
    with the window (alpha, beta), from MAX's view: the same remaining depth, and an exact
    value, or a bound that makes the node cut by the search's own rule (a lower bound at or
    above β, an upper bound at or below α; strictly, with ``prune_on_equal=False``).

    >>> bound = Entry(2, 5, "lower", 0)
    >>> decides(bound, 2, 0, 5, True), decides(bound, 2, 0, 5, False)
    (True, False)
    >>> decides(Entry(1, 5, "exact", 0), 2, 0, 9, True)   # searched less deep: no answer
    False
    """
    if entry.depth != depth:
        return False
    if entry.flag == EXACT:
        return True
    if entry.flag == LOWER:
        return entry.value >= beta if prune_on_equal else entry.value > beta
    return entry.value <= alpha if prune_on_equal else entry.value < alpha


# ----- the replay table of tt=True -------------------------------------------------------------
class ReplayEntry(NamedTuple):
    """An entry of ``tt=True``, keyed by (state, remaining depth; -1 when unlimited): the
    window (``alpha``, ``beta``) the position was searched with, the ``value`` returned, its
    ``flag`` from MAX's view and the principal variation ``pv`` below it.

    >>> ReplayEntry(-1, 5, 3, "exact", (0, 2)).value
    3
    """

    alpha: float
    beta: float
    value: float
    flag: str
    pv: tuple[Any, ...]


def replay_rule(replay_same_window: bool) -> Callable[[ReplayEntry, float, float], bool]:
    """When an entry of ``tt=True`` may answer a node searched with the window (alpha,
    beta), so that the search returns exactly what it would have returned without the table.

    An exact value strictly inside the window is what any search of that window returns,
    in every convention. A bound is only reused for the very same window, where the search
    would repeat itself (child order does not depend on the path, so it is the same search).

    >>> inf = float("inf")
    >>> rule = replay_rule(True)
    >>> rule((-inf, inf, 3, "exact", ()), 0, 5), rule((-inf, inf, 3, "exact", ()), 3, 5)
    (True, False)
    >>> rule((2, 5, 5, "lower", ()), 2, 5), rule((2, 5, 5, "lower", ()), 2, 6)
    (True, False)
    """
    def answers(entry: ReplayEntry, alpha: float, beta: float) -> bool:
        lo, hi, value, flag, _ = entry
        if flag == EXACT and alpha < value < beta:
            return True
        return replay_same_window and lo == alpha and hi == beta
    return answers
