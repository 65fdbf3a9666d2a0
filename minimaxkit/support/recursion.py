"""Room on the interpreter's stack for a search that recurses once per level of a deep tree.

The recursion limit is one setting for the whole interpreter, while each thread counts its
own depth against it; assignment 5's games search side by side, each in a thread of its own.
So the rooms open at one time are counted together: the limit is the one found before the
first opened, raised by the largest room still open, and put back when the last closes, in
whatever order the threads close theirs.

>>> import sys
>>> before = sys.getrecursionlimit()
>>> with recursion_room(5_000):
...     sys.getrecursionlimit() == before + 5_000
True
>>> sys.getrecursionlimit() == before
True
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["recursion_room"]


@dataclass
class _OpenRooms:
    """The rooms open now (their levels) and the limit found before the first of them."""

    levels: list[int] = field(default_factory=list)
    base: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self, levels: int) -> None:
        with self.lock:
            if not self.levels:
                self.base = sys.getrecursionlimit()
            self.levels.append(max(0, levels))
            sys.setrecursionlimit(self.base + max(self.levels))

    def close(self, levels: int) -> None:
        with self.lock:
            self.levels.remove(max(0, levels))
            sys.setrecursionlimit(self.base + max(self.levels, default=0))


_ROOMS = _OpenRooms()


@contextlib.contextmanager
def recursion_room(levels: int) -> Iterator[None]:
    """Raise the interpreter's recursion limit by ``levels`` while inside, so that code can
    recurse ``levels`` deeper than it could, and put the old limit back when the last room
    open (in any thread) closes.

    >>> import sys, threading
    >>> before = sys.getrecursionlimit()
    >>> first, second = recursion_room(5_000), recursion_room(3_000)
    >>> first.__enter__(); second.__enter__()
    >>> sys.getrecursionlimit() == before + 5_000
    True
    >>> first.__exit__(None, None, None)  # closed out of order, as threads may
    False
    >>> sys.getrecursionlimit() == before + 3_000
    True
    >>> second.__exit__(None, None, None)
    False
    >>> sys.getrecursionlimit() == before
    True
    """
    _ROOMS.open(levels)
    try:
        yield
    finally:
        _ROOMS.close(levels)
