"""What the kit's reference searches do on a test tree.

:func:`reference` runs the reference searches for one kind of check and returns plain data
(values, leaves, traces): what is stored next to the notebooks and compared with the
recorded calls of a submission, one trace per convention (:mod:`.conventions`).

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


#: the kinds of check, by the function they grade
CHECKS = ("minimax", "minimax_limited", "best_move", "alphabeta", "order", "ordered_alphabeta",
          "deepen")


def trace_of(data: list[dict[str, Any]]) -> Trace:
    """The :class:`Trace` of a stored trace (its events as JSON data)."""
    return Trace.from_json(json.dumps(data))


def _stored(trace: Trace | None) -> list[dict[str, Any]]:
    assert trace is not None
    return trace.rows()


def optimal_moves(tree: GameTree, depth: int | None) -> list[int]:
    """Indices of the root's children whose value (searched to ``depth`` from the root) is
    the root's: every best move, ties included.

    >>> optimal_moves(GameTree.from_nested([[3, 4], [5, 3], [1]]), None)
    [0, 1]
    """
    r = minimax(tree, depth=depth)
    assert r.trace is not None
    values = r.trace.values  # minimax returns a value for every child of the root
    return [i for i in range(len(tree.root.children)) if values[(i,)] == r.value]


def reference(check: str, tree: GameTree, **options: Any) -> dict[str, Any]:
    """Plain data of what the reference does for ``check`` on ``tree``.

    ``options``: ``depth`` (minimax_limited, best_move), ``max_depth`` and ``reorder``
    (deepen). Leaves and paths are lists of child indices.
    """
    if check not in CHECKS:
        raise ValueError(f"unknown check {check!r}; the checks are {CHECKS}")
    depth = options.get("depth")
    if check in ("minimax", "minimax_limited", "best_move"):
        r = minimax(tree, depth=depth)
        out: dict[str, Any] = {"value": r.value, "leaves": _paths(r.trace),
                               "trace": _stored(r.trace)}
        if check == "best_move":
            out["moves"] = optimal_moves(tree, depth)
        return out
    if check in ("alphabeta", "ordered_alphabeta"):
        order = "static" if check == "ordered_alphabeta" else None
        convs = {}
        for name, (equal, fail) in CONVENTIONS.items():
            r = alphabeta(tree, prune_on_equal=equal, fail=fail, order=order)
            convs[name] = {"leaves": _paths(r.trace), "trace": _stored(r.trace)}
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
                        "leaves": _paths(r.trace), "trace": _stored(r.trace)})
        convs[name] = {"iterations": its}
    return {"conventions": convs}


def _static_orders(tree: GameTree) -> dict[str, list[int]]:
    """003's order of every interior node's children by static value (MAX high to low, MIN
    low to high, ties in natural order), read off the reference: minimax with
    ``order="static"`` visits every child, in that order."""
    trace = minimax(tree, order="static").trace
    assert trace is not None
    orders: dict[str, list[int]] = {}
    for path in trace.visited:
        if path:
            orders.setdefault(_key(path[:-1]), []).append(path[-1])
    return orders


def _paths(trace: Trace | None) -> list[list[int]]:
    assert trace is not None
    return [list(p) for p in trace.leaves]


def _key(path: tuple[int, ...]) -> str:
    return ",".join(map(str, path))
