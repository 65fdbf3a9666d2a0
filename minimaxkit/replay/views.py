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

__all__ = ["Before", "ValuesBefore", "Events", "again", "Exactness", "table_claim",
           "starts_at_bound", "raises_bound_first", "fail_words"]


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


#: A value's claim about the true minimax value: (lowest, highest) it can be.
Claim = tuple[float, float]
_INF = float("inf")


class Exactness:
    """The one rule for drawing a value exact or as a bound, applied as a trace is read:
    a node's value is **exact** when what was searched below it pins it down: a leaf; a
    node whose every child was searched (none cut off, whatever window it had) and whose
    best child is exact while no other child could beat it. Otherwise it is a **bound**:
    ``"lower"`` (≥ v: a cut stopped a MAX node, or it rests on a child that is at least its
    value) or ``"upper"`` (≤ v, mirrored). Each node's children's claims (the least and
    most each can be) are combined as minimax combines values; a cut-off leaves the
    unsearched children free (any value).

    >>> ex = Exactness()
    >>> ex.enter((), True); ex.enter((0,), False)
    >>> ex.returned((0, 0), (3, 3)); ex.returned((0, 1), (5, 5))
    >>> ex.exit((0,), 3, False)          # MIN: both children searched, 3 exact
    >>> ex.returned((0,), ex.claim((0,), 3))
    >>> ex.enter((1,), False); ex.returned((1, 0), (2, 2)); ex.cut((1,), (1,))
    >>> ex.exit((1,), 2, False)          # MIN cut after 2: at most 2
    'upper'
    >>> ex.returned((1,), ex.claim((1,), 2))
    >>> ex.exit((), 3, True) is None     # MAX: 3 exact, the other child at most 2
    True
    """

    __slots__ = ("_acc", "_kind", "_max")

    def __init__(self) -> None:
        self._acc: dict[Path, list[float]] = {}  # node entered -> [lowest, highest]
        self._max: dict[Path, bool] = {}
        self._kind: dict[Path, str | None] = {}  # node exited -> its last kind

    def enter(self, p: Path, is_max: bool) -> None:
        """``p`` is entered: no child has returned yet."""
        start = -_INF if is_max else _INF
        self._acc[p] = [start, start]
        self._max[p] = is_max

    def returned(self, child: Path, claim: Claim) -> None:
        """``child`` returned a value that is at least ``claim[0]`` and at most
        ``claim[1]``; its parent combines it (max at MAX, min at MIN)."""
        acc = self._acc.get(child[:-1]) if child else None
        if acc is None:
            return
        pick = max if self._max[child[:-1]] else min
        acc[0], acc[1] = pick(acc[0], claim[0]), pick(acc[1], claim[1])

    def cut(self, p: Path, pruned: tuple[int, ...]) -> None:
        """A cut-off at ``p`` left ``pruned`` children unsearched: they could be anything
        (a cut with nothing left to prune changes nothing)."""
        acc = self._acc.get(p)
        if acc is not None and pruned:
            if self._max[p]:
                acc[1] = _INF
            else:
                acc[0] = -_INF

    def exit(self, p: Path, value: float, is_max: bool) -> str | None:
        """``p`` returns ``value``: None when it is exact, else ``"lower"`` or
        ``"upper"`` (see the class)."""
        low, high = self._acc.pop(p, (value, value))
        if low == high == value:
            kind = None
        elif value >= high:
            kind = "upper"
        elif value <= low:
            kind = "lower"
        else:  # between what the children allow: only a bound on its own side is sure
            kind = "lower" if is_max else "upper"
        self._kind[p] = kind
        return kind

    def claim(self, p: Path, value: float) -> Claim:
        """What the value ``p`` returned says, as its picture draws it."""
        kind = self._kind.get(p)
        if kind == "lower":
            return value, _INF
        if kind == "upper":
            return -_INF, value
        return value, value


def table_claim(value: float, flag: str) -> Claim:
    """What a transposition-table answer says: exact, or a lower or upper bound."""
    if flag == "lower":
        return value, _INF
    if flag == "upper":
        return -_INF, value
    return value, value


# ----- the return conventions (issue #37's vocabulary) ----------------------------------------
def _core_names_one_sided() -> bool:
    """Whether this kit's searches take ``fail="one-sided"`` (then ``"hard"`` means clamped
    to [α, β]); before that change, ``"hard"`` was the one-sided form."""
    from ..search.core import check_conventions

    try:
        check_conventions(True, "one-sided")
    except Exception:
        return False
    return True


def starts_at_bound(fail: str | None) -> bool:
    """Whether a node's value starts at its own bound (α at MAX, β at MIN) rather than at
    ∓∞: both fail-hard forms (clamped, and the example sheet's one-sided form)."""
    return fail in ("hard", "one-sided")


def raises_bound_first(fail: str | None) -> bool:
    """Whether a node raises its own bound with a child's value before testing the cut
    (the example sheet's one-sided form); fail-soft and clamped fail-hard test first."""
    if fail == "one-sided":
        return True
    return fail == "hard" and not _core_names_one_sided()


def fail_words(fail: str | None) -> str:
    """The form's name in the lectures' words."""
    if fail == "one-sided" or (fail == "hard" and not _core_names_one_sided()):
        return "one-sided fail-hard"
    return "fail-hard" if fail == "hard" else "fail-soft"
