"""The one stream of events every search emits, and the views derived from it: the events
(:mod:`.events`), the :class:`Trace` that holds them in order (:mod:`.stream`), and its JSON
form (:mod:`.codec`, with the path steps of :mod:`.paths`).

>>> from minimaxkit import GameTree, alphabeta
>>> t = alphabeta(GameTree.from_nested([[3, 12, 8], [2, 4, 6]])).trace
>>> t.events[1]
Enter(path=(0,), alpha=-inf, beta=inf, is_max=False, depth=1)
>>> t.leaves
[(0, 0), (0, 1), (0, 2), (1, 0)]
>>> t.cutoffs
[Cutoff(path=(1,), value=2, bound=3, kind='alpha', pruned=(1, 2))]
>>> Trace.from_json(t.to_json()) == t
True
"""

from .events import (
    CUTOFF,
    ENTER,
    EXIT,
    LEAF,
    TTHIT,
    Cutoff,
    Enter,
    Event,
    Exit,
    Leaf,
    Path,
    Stats,
    TTHit,
)
from .stream import Trace

__all__ = ["Enter", "Leaf", "Cutoff", "Exit", "TTHit", "Event", "Trace", "Stats", "Path",
           "ENTER", "LEAF", "CUTOFF", "EXIT", "TTHIT"]
