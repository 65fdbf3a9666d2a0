"""Room on the interpreter's stack for a search that recurses once per level of a deep tree.

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
from collections.abc import Iterator

__all__ = ["recursion_room"]


@contextlib.contextmanager
def recursion_room(levels: int) -> Iterator[None]:
    """Raise the interpreter's recursion limit by ``levels`` while inside, so that code can
    recurse ``levels`` deeper than it could, and put the old limit back afterwards."""
    old = sys.getrecursionlimit()
    need = old + levels
    if need > old:
        sys.setrecursionlimit(need)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
