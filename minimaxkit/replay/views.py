"""Read-only views of a :class:`~minimaxkit.replay.Replay`'s index at one step, so that a
frame costs the same at step 10 and at step 800,000, and the trace's events as dataclasses
made when read.

>>> seen = Before({(): 0, (0,): 1, (1,): 5}, [(), (0,), (1,)], step=2)
>>> (0,) in seen, (1,) in seen, len(seen), list(seen)
(True, False, 2, [(), (0,)])
>>> values = ValuesBefore({(0,): [1, 4]}, lambda i: i * 10, [(0,)], step=3)
>>> values[(0,)], len(values)
(10, 1)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import islice
from typing import Any

from ..trace import Event, Path, Trace

__all__ = ["Before", "ValuesBefore", "Events", "again"]


class Before(AbstractSet[Path]):
    """The paths first reached before ``step``: ``first`` maps a path to the event where it
    was first reached, ``order`` lists the paths in that order."""

    __slots__ = ("_first", "_order", "_step")

    def __init__(self, first: Mapping[Path, int], order: list[Path], step: int) -> None:
        self._first, self._order, self._step = first, order, step

    def __contains__(self, p: object) -> bool:
        i = self._first.get(p)  # type: ignore[call-overload]
        return i is not None and i < self._step

    def __len__(self) -> int:
        return bisect_left(self._order, self._step, key=self._first.__getitem__)

    def __iter__(self) -> Iterator[Path]:
        return islice(self._order, len(self))

    def __repr__(self) -> str:
        return f"{{{', '.join(map(repr, self))}}}"


class ValuesBefore(Mapping[Path, Any]):
    """Path -> what its event returned or recorded, for the events before ``step``: ``last``
    maps a path to its events' indices (an int, or a list if there are several), ``get``
    reads the value from an event index, ``order`` lists the paths by first event."""

    __slots__ = ("_last", "_get", "_order", "_step")

    def __init__(self, last: Mapping[Path, Any], get: Callable[[int], Any],
                 order: list[Path], step: int) -> None:
        self._last, self._get, self._order, self._step = last, get, order, step

    def __getitem__(self, p: Path) -> Any:
        i = self._last.get(p)
        if type(i) is list:
            i = max((j for j in i if j < self._step), default=None)
        if i is None or i >= self._step:
            raise KeyError(p)
        return self._get(i)

    def __contains__(self, p: object) -> bool:
        i = self._last.get(p)  # type: ignore[call-overload]
        if type(i) is list:
            i = i[0]
        return i is not None and i < self._step

    def __len__(self) -> int:
        return bisect_left(self._order, self._step, key=self._first)

    def _first(self, p: Path) -> int:
        i = self._last[p]
        return i[0] if type(i) is list else i  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[Path]:
        return islice(self._order, len(self))

    def __repr__(self) -> str:
        return repr(dict(self))


def again(last: dict[Path, Any], p: Path, i: int) -> None:
    """Record a second (third, ...) event ``i`` of ``p`` in ``last``: its events become a
    list (a hand-made trace can visit a path twice; a search's cannot)."""
    old = last[p]
    if type(old) is list:
        old.append(i)
    else:
        last[p] = [old, i]


class Events(Sequence[Event]):
    """A trace's events as dataclasses, each built when it is read (a long trace's
    hundreds of thousands of objects are never all made)."""

    def __init__(self, trace: Trace) -> None:
        self._trace = trace

    def __len__(self) -> int:
        return len(self._trace)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._trace.event(k) for k in range(*i.indices(len(self)))]
        return self._trace.event(i)
