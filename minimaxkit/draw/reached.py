"""The part of a searched game that a trace reached, read from the trace's events in named
stages: the nodes it entered or evaluated (with their players and leaf values), the roots
of the subtrees its cut-offs pruned (with their players), and each node's children.
:meth:`TreeModel.of_trace <minimaxkit.draw.model.TreeModel.of_trace>` lays these out.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> r = alphabeta(sheet_tree())
>>> reached = read_events(r.trace)
>>> len(reached.seen) == r.stats.nodes, reached.values[(0, 0, 0)]   # the first leaf, 8
(True, 8)
>>> reached.pruned[:2]          # F's last two children, R and S, cut at step 10
[(0, 1, 1), (0, 1, 2)]
>>> add_pruned_roots(reached, None, None)
>>> len(reached.seen) == r.stats.nodes + len(reached.pruned), reached.is_max[(0, 1, 1)]
(True, False)
>>> children_of([(), (0,), (1,), (0, 0)])[()]
[(0,), (1,)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..replay import state_at
from ..trace import CUTOFF, ENTER, LEAF, TTHIT, Path, Trace

__all__ = ["Reached", "read_events", "add_pruned_roots", "children_of"]


@dataclass
class Reached:
    """What a trace reached, filled in stage by stage: ``seen`` holds every node to draw
    (in the order first met), ``is_max`` their players, ``leaves`` and ``values`` the
    leaves evaluated and their values, ``pruned`` the roots of the subtrees cut off (not
    yet in ``seen`` until :func:`add_pruned_roots`)."""

    is_max: dict[Path, bool] = field(default_factory=dict)
    values: dict[Path, float] = field(default_factory=dict)
    leaves: set[Path] = field(default_factory=set)
    seen: dict[Path, None] = field(default_factory=dict)
    pruned: list[Path] = field(default_factory=list)


def read_events(trace: Trace, max_depth: int | None = None) -> Reached:
    """The nodes ``trace`` entered, evaluated or found in its table, down to ``max_depth``
    levels (all, if None), with the players of those entered and evaluated and the values
    of the leaves; and the roots of the subtrees its cut-offs pruned (one level less deep,
    so that they stay within ``max_depth``)."""
    reached = Reached()
    deep = max_depth if max_depth is not None else math.inf
    for r in trace.raw:
        kind, p = r[0], r[1]
        if len(p) > deep:
            continue
        if kind == ENTER:
            reached.is_max[p] = r[4]
        elif kind == LEAF:
            reached.is_max[p] = r[5]
            reached.leaves.add(p)
            reached.values[p] = r[2]
        elif kind == CUTOFF:
            if len(p) < deep:
                reached.pruned.extend(p + (i,) for i in r[5])
            continue
        if kind in (ENTER, LEAF, TTHIT):
            reached.seen[p] = None
    return reached


def add_pruned_roots(reached: Reached, game: Any, root_state: Any) -> None:
    """Add the pruned roots to the nodes to draw, with their players: the game's (played
    out from ``root_state``) when there is a ``game``, else the opposite of the parent's.
    A table hit, which the trace gives no player, gets the opposite of its parent's."""
    is_max = reached.is_max
    for p in reached.pruned:
        reached.seen[p] = None
        if game is not None:
            is_max[p] = bool(game.is_max(state_at(game, root_state, p)))
        else:
            is_max[p] = not is_max.get(p[:-1], False)
    for p in list(reached.seen):
        if p not in is_max:  # a table hit: its player follows from its parent
            is_max[p] = not is_max.get(p[:-1], False)


def children_of(paths: Iterable[Path]) -> dict[Path, list[Path]]:
    """Each node's children among ``paths`` (parents first), in the order of their moves;
    every node of ``paths`` has an entry, a leaf an empty one."""
    paths = list(paths)
    children: dict[Path, list[Path]] = {p: [] for p in paths}
    for p in paths:
        if p:
            children.setdefault(p[:-1], []).append(p)
    for kids in children.values():
        kids.sort()
    return children
