"""What a search showed on one tree, in the form verdicts compare: the value it returned, the
leaves it evaluated in order, the move it chose, per iteration for deepening, and the leaves it
asked for children. Made alike from a student's run (:func:`observed`) and from a sample
search run here on a :class:`~minimaxkit.student.Recorder` (:func:`observed_by`), so that a
known bug is recognised by the same reading of the same calls.

>>> from minimaxkit import GameTree
>>> from minimaxkit.student import Recorder
>>> def first_leaf(node):
...     return node.static() if node.is_leaf() else first_leaf(node.children()[0])
>>> seen = observed_by(first_leaf, GameTree.from_nested([[3, 1], [2]]), "minimax", {})
>>> seen.value, seen.leaves
(3.0, ((0, 0),))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...student import Recorder, evaluated_in
from ...tree import GameTree
from .results import Record, Returned

__all__ = ["Observed", "Step", "observed", "observed_by", "Options", "expanded_leaves",
           "read_window", "window_of"]

Path = tuple[int, ...]
Calls = Sequence[tuple[str, Path]]


@dataclass(frozen=True)
class Options:
    """A test tree's options: the depth limit (``minimax_limited``, ``best_move``), the
    deepest iteration and whether to reorder (``deepen``), the window ``(α, β)`` the root is
    called with (``alphabeta``, ``ordered_alphabeta``; None: ``(-∞, ∞)``).

    >>> Options.read({"depth": 2}), Options.read({"max_depth": 3, "reorder": False}).reorder
    (Options(depth=2, max_depth=None, reorder=True, window=None), False)
    >>> Options.read({"window": [5, 6]}).bounds, Options().bounds
    ((5, 6), (-inf, inf))
    """

    depth: int | None = None
    max_depth: int | None = None
    reorder: bool = True
    window: tuple[float, float] | None = None

    @classmethod
    def read(cls, data: dict[str, Any] | None) -> Options:
        data = data or {}
        depth, max_depth = data.get("depth"), data.get("max_depth")
        return cls(int(depth) if depth is not None else None,
                   int(max_depth) if max_depth is not None else None,
                   bool(data.get("reorder", True)), read_window(data.get("window")))

    @property
    def bounds(self) -> tuple[float, float]:
        """The (α, β) the root is called with."""
        return self.window if self.window is not None else (-math.inf, math.inf)

    def as_dict(self) -> dict[str, Any]:
        """The options as the tasks and the reference take them."""
        out: dict[str, Any] = {}
        if self.depth is not None:
            out["depth"] = self.depth
        if self.max_depth is not None:
            out.update(max_depth=self.max_depth, reorder=self.reorder)
        if self.window is not None:
            out["window"] = self.window
        return out


def read_window(value: Any) -> tuple[float, float] | None:
    """A test tree's ``"window": [lo, hi]`` as ``(lo, hi)`` (None when absent): two numbers,
    lo below hi, as the suite's author must write them.

    >>> read_window([-2, 3.5]), read_window(None)
    ((-2, 3.5), None)
    >>> read_window([3, 3])
    Traceback (most recent call last):
    ...
    ValueError: a test tree's 'window' must be [lo, hi], two numbers with lo < hi, got [3, 3]
    """
    if value is None:
        return None
    if not (isinstance(value, list | tuple) and len(value) == 2 and
            all(isinstance(v, int | float) and not isinstance(v, bool) for v in value) and
            value[0] < value[1]):
        raise ValueError(f"a test tree's 'window' must be [lo, hi], two numbers with "
                         f"lo < hi, got {value!r}")
    return value[0], value[1]


def window_of(options: dict[str, Any] | None) -> tuple[float, float]:
    """The (α, β) a check's ``options`` call the root with: their ``window``, else (-∞, ∞).

    >>> window_of({"window": [5, 6]}), window_of({})
    ((5, 6), (-inf, inf))
    """
    found = read_window((options or {}).get("window"))
    return found if found is not None else (-math.inf, math.inf)


@dataclass(frozen=True)
class Step:
    """One answer of a search: the value, the move (a child of the root, or None) and the
    leaves evaluated for it (deepening yields one a depth)."""

    value: float | None
    move: Path | None
    leaves: tuple[Path, ...]


@dataclass(frozen=True)
class Observed:
    """What a search showed on one tree (see the module's docstring). ``steps`` holds one
    :class:`Step` per answer: one for a search, one per iteration for deepening."""

    steps: tuple[Step, ...]
    expanded_leaves: tuple[Path, ...] = ()

    @property
    def value(self) -> float | None:
        return self.steps[-1].value if self.steps else None

    @property
    def move(self) -> Path | None:
        return self.steps[-1].move if self.steps else None

    @property
    def leaves(self) -> tuple[Path, ...]:
        """Every leaf evaluated, in order (all iterations together)."""
        return tuple(p for s in self.steps for p in s.leaves)

    @property
    def iterations(self) -> list[list[Path]]:
        """The leaves of each answer: one list per iteration."""
        return [list(s.leaves) for s in self.steps]


def expanded_leaves(calls: Calls, tree: GameTree) -> tuple[Path, ...]:
    """The leaves the search asked for their children (first time each, in order)."""
    out: dict[Path, None] = {}
    for kind, path in calls:
        if kind == "children" and path not in out and not tree.node(path).children:
            out[path] = None
    return tuple(out)


def _number(got: Returned) -> float | None:
    return got.number if got.kind == "number" else None


def _move(got: Returned) -> Path | None:
    return got.path if got.kind == "node" else None


def _answer(got: Returned, check: str) -> tuple[float | None, Path | None]:
    """A returned value as (value, move): the number, and the child for ``best_move``."""
    if check == "best_move":
        pair = got.pair()
        return (_number(pair[0]), _move(pair[1])) if pair is not None else (None, None)
    return _number(got), None


def _segments(calls: Calls, marks: Sequence[int]) -> list[Calls]:
    bounds = [0, *marks]
    return [calls[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] or [calls]


def observed(check: str, out: Record, tree: GameTree) -> Observed | None:
    """What a student's run showed (None if it did not finish)."""
    if not out.ok:
        return None
    found = expanded_leaves(out.calls, tree)
    if check != "deepen":
        value, move = _answer(Returned.read(out.result), check)
        return Observed((Step(value, move, tuple(evaluated_in(list(out.calls)))),), found)
    res = out.result if isinstance(out.result, dict) else {}
    if "yields" in res:
        steps = []
        for desc, seg in zip(res["yields"], _segments(out.calls, out.marks), strict=False):
            pair = Returned.read(desc).pair()
            value, move = (_number(pair[0]), _move(pair[1])) if pair else (None, None)
            steps.append(Step(value, move, tuple(evaluated_in(list(seg)))))
        return Observed(tuple(steps), found)
    return Observed((Step(None, None, tuple(evaluated_in(list(out.calls)))),), found)


def observed_by(sample: Callable[..., Any], tree: GameTree, check: str,
                options: dict[str, Any]) -> Observed | None:
    """What a trusted sample search shows on ``tree`` for ``check``, called as the tasks call
    a student's function (alpha-beta: with the ``options``' window; None when it fails
    there, as some bugs do on some trees)."""
    rec = Recorder(tree)
    root = rec.root()
    try:
        if check == "deepen":
            steps = []
            start = 0
            for value, child in sample(root, options["max_depth"], options.get("reorder", True)):
                leaves = tuple(evaluated_in(rec.calls[start:]))
                start = len(rec.calls)
                steps.append(Step(_plain(value), getattr(child, "path", None), leaves))
            return Observed(tuple(steps), expanded_leaves(rec.calls, tree))
        args: tuple[Any, ...] = (options["depth"],) if check in ("minimax_limited",
                                                                 "best_move") else \
            window_of(options) if check in ("alphabeta", "ordered_alphabeta") else ()
        got = sample(root, *args)
    except (RecursionError, ValueError, TypeError, KeyError, IndexError):
        return None  # a sample that fails on this tree matches nothing
    value, move = (got if check == "best_move" else (got, None))
    return Observed((Step(_plain(value), getattr(move, "path", None),
                          tuple(evaluated_in(rec.calls))),), expanded_leaves(rec.calls, tree))


def _plain(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None
