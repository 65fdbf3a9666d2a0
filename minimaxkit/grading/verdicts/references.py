"""What the kit's reference searches do on a test tree: stored as plain JSON data in the suites
(:func:`reference`), read back as a typed :class:`Reference` (values, leaves, traces, one per
convention) that a submission is compared with.

>>> from minimaxkit.grading.testdata.trees import build_tree
>>> tree = build_tree({"nested": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]})
>>> ref = Reference.read(reference("alphabeta", tree), "alphabeta", tree)
>>> ref.value, [len(ref.convention(c).leaves) for c in CONVENTIONS]
(3, [7, 7, 7, 7, 7, 7])
>>> static = build_tree({"nested": [[3, 12, 8], [2, 4, 6]], "static": {"noise": 0}})
>>> reference("minimax", static, depth=1)["leaves"]
[[0], [1]]

A tree whose root is called with a narrow window (``"options": {"window": [lo, hi]}``) has the
searches of that window, and what each convention returns there (the root fails low here: its
value 3 is at most 4; fail-soft returns the best v it found, 3, fail-hard and the one-sided
form the bound 4):

>>> ref = compute("alphabeta", tree, window=(4, 9))
>>> ref.value, [ref.answer(c) for c in CONVENTIONS]
(3, [3, 4, 4, 3, 4, 4])
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from ...deepening import iter_deepen
from ...search import alphabeta, minimax
from ...trace import Trace
from ...tree import GameTree
from .conventions import CONVENTIONS
from .observed import read_window, window_of

__all__ = ["CHECKS", "reference", "trace_of", "optimal_moves", "Reference", "Search",
           "Iteration", "reference_leaves", "TreeCase"]

Path = tuple[int, ...]

CHECKS = ("minimax", "minimax_limited", "best_move", "alphabeta", "order", "ordered_alphabeta",
          "deepen")
_MINIMAX = ("minimax", "minimax_limited", "best_move")
_ALPHABETA = ("alphabeta", "ordered_alphabeta")


def trace_of(data: list[dict[str, Any]]) -> Trace:
    """The :class:`Trace` of a stored trace (its events as JSON data)."""
    return Trace.from_json(json.dumps(data))


@functools.lru_cache(maxsize=256)
def _trace_text(text: str) -> Trace:
    return Trace.from_json(text)


def _trace(rows: tuple[dict[str, Any], ...]) -> Trace:
    return _trace_text(json.dumps(list(rows)))


@dataclass(frozen=True)
class Search:
    """One reference search as stored: the leaves it evaluated, in order, and its trace's
    events (JSON rows), read into a :class:`Trace` when asked."""

    leaves: tuple[Path, ...]
    rows: tuple[dict[str, Any], ...]

    @classmethod
    def of(cls, trace: Trace | None) -> Search:
        assert trace is not None
        return cls(tuple(trace.leaves), tuple(trace.rows()))

    @classmethod
    def read(cls, data: dict[str, Any]) -> Search:
        return cls(tuple(tuple(p) for p in data["leaves"]), tuple(data["trace"]))

    @property
    def trace(self) -> Trace:
        """The stored events as a :class:`Trace` (read once)."""
        return _trace(self.rows)

    def to_json(self) -> dict[str, Any]:
        return {"leaves": [list(p) for p in self.leaves], "trace": list(self.rows)}


@dataclass(frozen=True)
class Iteration:
    """One iteration of the reference's deepening: its depth, the root's value, every best
    move (ties included) and the search."""

    depth: int
    value: float
    moves: tuple[int, ...]
    search: Search

    @property
    def leaves(self) -> tuple[Path, ...]:
        return self.search.leaves

    def to_json(self) -> dict[str, Any]:
        return {"depth": self.depth, "value": self.value, "moves": list(self.moves),
                **self.search.to_json()}


@dataclass(frozen=True)
class Reference:
    """What the reference does on one tree for one check: ``value`` (the root's minimax
    value), ``search`` (minimax's search, for the three minimax checks), ``moves`` (every best
    move, ``best_move``), ``conventions`` (alpha-beta's search per convention),
    ``iterations`` (deepening's, per convention) and ``orders`` (each interior node's
    children by estimate, ``order``). What alpha-beta returns at the root, per convention, is
    :meth:`answer`."""

    value: float | None = None
    search: Search | None = None
    moves: tuple[int, ...] | None = None
    conventions: dict[str, Search] = field(default_factory=dict)
    iterations: dict[str, tuple[Iteration, ...]] = field(default_factory=dict)
    orders: dict[Path, tuple[int, ...]] = field(default_factory=dict)

    def convention(self, name: str) -> Search:
        """The alpha-beta search under convention ``name``."""
        return self.conventions[name]

    def answer(self, name: str) -> float | None:
        """What a correct search returns at the root under convention ``name``: the root's
        value in that convention's search (with the window (-∞, ∞), every convention's is the
        minimax ``value``; in a narrower window, the bound each returns where the root fails
        high or low), else ``value``."""
        search = self.conventions.get(name)
        if search is None:
            return self.value
        return search.trace.values.get((), self.value)

    def iterations_of(self, name: str) -> tuple[Iteration, ...]:
        """The deepening's iterations under convention ``name``."""
        return self.iterations[name]

    @classmethod
    def read(cls, data: dict[str, Any], check: str, tree: GameTree,
             options: dict[str, Any] | None = None) -> Reference:
        """The stored form (what :func:`reference` wrote, now or before the six conventions:
        its ``-hard`` searches were the one-sided ones, and the clamped ones are computed)."""
        if check in _MINIMAX:
            moves = data.get("moves")
            return cls(value=data["value"], search=Search.read(data),
                       moves=tuple(moves) if moves is not None else None)
        if check == "order":
            return cls(orders={_path(k): tuple(v) for k, v in data["orders"].items()})
        stored = _upgraded(data["conventions"], check, tree, options or {})
        if check in _ALPHABETA:
            return cls(value=data["value"],
                       conventions={n: Search.read(stored[n]) for n in CONVENTIONS})
        return cls(iterations={n: tuple(_iteration(it) for it in stored[n]["iterations"])
                               for n in CONVENTIONS})

    def to_json(self) -> dict[str, Any]:
        """The stored form (plain JSON data, as the suites keep it)."""
        if self.orders:
            return {"orders": {",".join(map(str, p)): list(v) for p, v in self.orders.items()}}
        if self.iterations:
            return {"conventions": {n: {"iterations": [it.to_json() for it in its]}
                                    for n, its in self.iterations.items()}}
        if self.conventions:
            return {"value": self.value,
                    "conventions": {n: s.to_json() for n, s in self.conventions.items()}}
        assert self.search is not None
        out = {"value": self.value, **self.search.to_json()}
        if self.moves is not None:
            out["moves"] = list(self.moves)
        return out


def _path(key: str) -> Path:
    return tuple(int(i) for i in key.split(",")) if key else ()


def _iteration(data: dict[str, Any]) -> Iteration:
    return Iteration(int(data["depth"]), data["value"], tuple(data["moves"]),
                     Search.read(data))


def _upgraded(stored: dict[str, Any], check: str, tree: GameTree,
              options: dict[str, Any]) -> dict[str, Any]:
    """Stored searches per convention, those of data written before the one-sided
    conventions had their own names (``equal-hard`` then meant one-sided) read as they were
    meant, the clamped ones computed now."""
    if all(name in stored for name in CONVENTIONS):
        return stored
    out: dict[str, Any] = {n: stored[n] for n in ("equal-soft", "strict-soft") if n in stored}
    for rule in ("equal", "strict"):
        if f"{rule}-hard" in stored:
            out[f"{rule}-one-sided"] = stored[f"{rule}-hard"]
    fresh = reference(check, tree, **options)["conventions"]
    return {n: out.get(n, fresh[n]) for n in CONVENTIONS}


def optimal_moves(tree: GameTree, depth: int | None) -> list[int]:
    """Every best move (ties included): the root's children whose value to ``depth`` is the
    root's.

    >>> optimal_moves(GameTree.from_nested([[3, 4], [5, 3], [1]]), None)
    [0, 1]
    """
    r = minimax(tree, depth=depth)
    assert r.trace is not None
    values = r.trace.values  # minimax returns a value for every child of the root
    return [i for i in range(len(tree.root.children)) if values[(i,)] == r.value]


def compute(check: str, tree: GameTree, **options: Any) -> Reference:
    """What the reference does for ``check`` on ``tree`` (``options``: ``depth``,
    ``max_depth``, ``reorder``, ``window``: the root's (α, β) for alpha-beta, as a pair);
    computed once per tree and options."""
    if "window" in options:
        options["window"] = read_window(options["window"])
    return _computed(check, tree, tuple(sorted(options.items())))


@functools.lru_cache(maxsize=128)
def _computed(check: str, tree: GameTree, options: tuple[tuple[str, Any], ...]) -> Reference:
    return _compute(check, tree, **dict(options))


def _compute(check: str, tree: GameTree, **options: Any) -> Reference:
    if check not in CHECKS:
        raise ValueError(f"unknown check {check!r}; the checks are {CHECKS}")
    depth = options.get("depth")
    if check in _MINIMAX:
        r = minimax(tree, depth=depth)
        moves = tuple(optimal_moves(tree, depth)) if check == "best_move" else None
        return Reference(value=r.value, search=Search.of(r.trace), moves=moves)
    if check in _ALPHABETA:
        order = "static" if check == "ordered_alphabeta" else None
        window = window_of(options)
        return Reference(value=minimax(tree, trace=False).value, conventions={
            name: Search.of(alphabeta(tree, prune_on_equal=equal, fail=fail, order=order,
                                      window=window).trace)
            for name, (equal, fail) in CONVENTIONS.items()})
    if check == "order":
        return Reference(orders=_static_orders(tree))
    max_depth = int(options["max_depth"])
    reorder = bool(options.get("reorder", True))
    ref = Reference(iterations={
        name: tuple(Iteration(int(r.options["depth"]), r.value,
                              tuple(optimal_moves(tree, int(r.options["depth"]))),
                              Search.of(r.trace))
                    for r in iter_deepen(tree, max_depth=max_depth, reorder=reorder,
                                         prune_on_equal=equal, fail=fail))
        for name, (equal, fail) in CONVENTIONS.items()})
    short = {n: len(its) for n, its in ref.iterations.items() if len(its) < max_depth}
    if short:
        name, depth = next(iter(short.items()))
        raise ValueError(f"the kit's deepening finishes this tree at depth {depth} ({name}: "
                         f"nothing on its search lies deeper), before max_depth {max_depth}; "
                         "give a smaller max_depth or a deeper tree")
    return ref


def reference(check: str, tree: GameTree, **options: Any) -> dict[str, Any]:
    """What the reference does for ``check`` on ``tree``, as the suites store it (plain JSON
    data, paths as lists of child indices): :meth:`Reference.to_json` of :func:`compute`."""
    return compute(check, tree, **options).to_json()


def reference_leaves(check: str, ref: Reference, conv: str) -> Any:
    """The reference's leaves under ``conv`` (``deepen``: one list per iteration)."""
    if check == "deepen":
        return [list(it.leaves) for it in ref.iterations_of(conv)]
    return list(ref.convention(conv).leaves)


def _static_orders(tree: GameTree) -> dict[Path, tuple[int, ...]]:
    """Every interior node's children by static value (MAX high to low, MIN low to high,
    ties in the tree's order): the order minimax with ``order="static"`` visits them."""
    trace = minimax(tree, order="static").trace
    assert trace is not None
    orders: dict[Path, list[int]] = {}
    for path in filter(None, trace.visited):
        orders.setdefault(path[:-1], []).append(path[-1])
    return {p: tuple(v) for p, v in orders.items()}


@dataclass(frozen=True)
class TreeCase:
    """One tree to judge a run on: the tree, its reference, the conventions the question
    allows and the one the submission is graded under (alpha-beta and deepening), the depth
    limit the minimax checks search to, the window alpha-beta's root is called with (None:
    (-∞, ∞))."""

    tree: GameTree
    ref: Reference
    allowed: tuple[str, ...]
    convention: str
    depth: int | None = None
    window: tuple[float, float] | None = None
