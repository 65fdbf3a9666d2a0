"""Each event's path as a step from the previous event's path, and back, with numpy.

The trace JSON (versions 3 and 4) writes a path as ``up`` (levels up from the previous
event's path) and ``child`` (the child then taken, plus one; 0 for none). Walking that stack
event by event in Python costs a second per million events; these functions do the same
work in array operations. :func:`steps_of` handles the traces a depth-first search writes,
checking every path unless the trace is known to be such a walk; the rest go to the exact
loop in :mod:`minimaxkit.trace.codec`.

>>> paths = [(), (0,), (0, 0), (0,), (1,), ()]
>>> up, child = steps_of(b"eelxlx", paths)
>>> up.tolist(), child.tolist()
([0, 0, 0, 1, 1, 1], [0, 1, 1, 0, 2, 0])
>>> paths_of(up, child, b"eelxlx") == (paths, True)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import add, eq, itemgetter

import numpy as np

from ..errors import TraceError
from .events import Path

#: Kind letters of an event that arrives at a node (its first event in a depth-first walk).
_ARRIVALS = np.frombuffer(b"elt", np.uint8)


def steps_of(kinds: bytes, paths: Sequence[Path], *, walked: bool = False
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """``up`` and ``child`` for the events' ``paths``, if each node's first event (``e``,
    ``l`` or ``t`` in ``kinds``) comes at a child of the node before it or of an ancestor
    and the node's later events stay on that line; ``None`` for any other trace. The
    answer is checked (every path must be its source's path plus the child taken) unless
    the trace is ``walked``: made by a search, whose recursion makes it such a walk."""
    n = len(paths)
    try:
        depth = np.fromiter(map(len, paths), np.int64, n)
        arrive = _arrivals(kinds, depth)
        child = np.zeros(n, np.int64)
        child[arrive] = np.fromiter(map(itemgetter(-1), compress(paths, arrive.tobytes())),
                                    np.int64)
        child[arrive] += 1
        up = arrive - np.diff(depth, prepend=0)
        if n and (up.min() < 0 or child.min() < 0):
            return None
        if walked:
            return up, child
        source = _sources(depth, depth - arrive, arrive)
        known = [(), *paths]
        made = map(add, map(known.__getitem__, source.tolist()), _suffixes(child))
        return (up, child) if all(map(eq, paths, made)) else None
    except (TypeError, ValueError, OverflowError, IndexError):
        return None


def _arrivals(kinds: bytes, depth: np.ndarray) -> np.ndarray:
    """Which events arrive at a node below the root (in a walk, each node's first event)."""
    return np.isin(np.frombuffer(kinds, np.uint8), _ARRIVALS) & (depth > 0)


def paths_of(up: np.ndarray, child: np.ndarray, kinds: bytes) -> tuple[list[Path], bool]:
    """Each event's path from the ``up`` and ``child`` arrays (``child`` 0: stay), made in
    one pass in which each path is an earlier one plus the child taken, so a node's events
    share one path object; and whether those paths are a walk (see :func:`steps_of`):
    whether the events that go down are exactly those whose kind arrives at a node."""
    n = len(up)
    push = child > 0
    depth = np.cumsum(push - up)
    before = depth - push  # after going up, before going down
    if n and before.min() < 0:
        i = int(np.argmax(before < 0))
        raise TraceError(i, f"the path goes up {int(up[i])} levels, past the root")
    paths: list[Path] = [()]
    source = _sources(depth, before, push).tolist()
    paths.extend(map(add, map(paths.__getitem__, source), _suffixes(child)))
    del paths[0]
    return paths, bool(np.array_equal(push, _arrivals(kinds, depth)))


def _sources(depth: np.ndarray, before: np.ndarray, push: np.ndarray) -> np.ndarray:
    """For each event, 1 + the index of the event that arrived at the node it starts from
    (the node itself, or the parent of the node it goes down to); 0 for the root. That node
    is the latest one entered at depth ``before`` before the event: a binary search of the
    events, grouped by that depth, among the nodes entered, grouped by theirs."""
    n = len(depth)
    at = np.flatnonzero(push)
    if len(at) == 0:
        return np.zeros(n, np.int64)
    small = np.int16 if depth.max() < 2**15 else np.int64  # a radix sort for small keys
    at = at[np.argsort(depth[at].astype(small), kind="stable")]  # by depth, then time
    asked = np.argsort(before.astype(small), kind="stable")
    stride = n + 1
    rank = np.searchsorted(depth[at] * stride + at, before[asked] * stride + asked) - 1
    source = np.empty(n, np.int64)
    source[asked] = np.where(before[asked] > 0, at[rank] + 1, 0)
    return source


def _suffixes(child: np.ndarray) -> map:  # type: ignore[type-arg]
    """What each event adds to its source's path: ``()`` to stay, ``(c,)`` to go to child c."""
    children = child.tolist()
    top = max(children, default=0)
    if top <= 4 * len(children) + 64:
        table: list[Path] | dict[int, Path] = [(), *zip(range(top))]
    else:  # a few children with huge indices
        table = {c: (c - 1,) for c in set(children)}
        table[0] = ()
    return map(table.__getitem__, children)
