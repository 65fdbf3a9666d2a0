"""What the kit's reference searches do on a test tree, as plain data (values, leaves, traces,
one per convention): what the suites store and a submission is compared with.

>>> from minimaxkit.grading.testdata.trees import build_tree
>>> tree = build_tree({"nested": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]})
>>> ref = reference("alphabeta", tree)
>>> ref["value"], [len(c["leaves"]) for c in ref["conventions"].values()]
(3, [7, 7, 7, 7])
>>> static = build_tree({"nested": [[3, 12, 8], [2, 4, 6]], "static": {"noise": 0}})
>>> reference("minimax", static, depth=1)["leaves"]
[[0], [1]]
"""

from __future__ import annotations

import json
from typing import Any

from ...deepening import iter_deepen
from ...search import alphabeta, minimax
from ...trace import Trace
from ...tree import GameTree
from .conventions import CONVENTIONS

__all__ = ["CHECKS", "reference", "trace_of", "optimal_moves"]


CHECKS = ("minimax", "minimax_limited", "best_move", "alphabeta", "order", "ordered_alphabeta",
          "deepen")


def trace_of(data: list[dict[str, Any]]) -> Trace:
    """The :class:`Trace` of a stored trace (its events as JSON data)."""
    return Trace.from_json(json.dumps(data))


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


def reference(check: str, tree: GameTree, **options: Any) -> dict[str, Any]:
    """What the reference does for ``check`` on ``tree`` (``options``: ``depth``,
    ``max_depth``, ``reorder``), paths as lists of child indices."""
    if check not in CHECKS:
        raise ValueError(f"unknown check {check!r}; the checks are {CHECKS}")
    depth = options.get("depth")
    if check in ("minimax", "minimax_limited", "best_move"):
        r = minimax(tree, depth=depth)
        out: dict[str, Any] = {"value": r.value, **_stored(r.trace)}
        if check == "best_move":
            out["moves"] = optimal_moves(tree, depth)
        return out
    if check in ("alphabeta", "ordered_alphabeta"):
        order = "static" if check == "ordered_alphabeta" else None
        convs = {}
        for name, (equal, fail) in CONVENTIONS.items():
            r = alphabeta(tree, prune_on_equal=equal, fail=fail, order=order)
            convs[name] = _stored(r.trace)
        return {"value": minimax(tree, trace=False).value, "conventions": convs}
    if check == "order":
        return {"orders": _static_orders(tree)}
    max_depth = int(options["max_depth"])
    reorder = bool(options.get("reorder", True))
    convs = {}
    for name, (equal, fail) in CONVENTIONS.items():
        its = []
        for r in iter_deepen(tree, max_depth=max_depth, reorder=reorder,
                             prune_on_equal=equal, fail=fail):
            d = int(r.options["depth"])
            its.append({"depth": d, "value": r.value, "moves": optimal_moves(tree, d),
                        **_stored(r.trace)})
        convs[name] = {"iterations": its}
    return {"conventions": convs}


def _static_orders(tree: GameTree) -> dict[str, list[int]]:
    """Every interior node's children by static value (MAX high to low, MIN low to high,
    ties in the tree's order): the order minimax with ``order="static"`` visits them."""
    trace = minimax(tree, order="static").trace
    assert trace is not None
    orders: dict[str, list[int]] = {}
    for path in filter(None, trace.visited):
        orders.setdefault(",".join(map(str, path[:-1])), []).append(path[-1])
    return orders


def _stored(trace: Trace | None) -> dict[str, Any]:
    """A trace's leaves and events as stored."""
    assert trace is not None
    return {"leaves": [list(p) for p in trace.leaves], "trace": trace.rows()}
