"""Test trees and what the kit's reference searches do on them.

A test tree is written as a small spec (JSON data in an assignment's ``tests.json``):
``{"nested": [[3, 12], [2, 4]]}`` with an optional ``"root": "min"``, and an optional
``"static": {"noise": 2, "seed": 1}`` that gives every interior node a static value (its true
value plus rounded noise, for depth limits and move ordering); a seeded random tree is
``{"random": {"depth": 3, "branching": [2, 3], "values": [0, 9]}}``.

:func:`reference` runs the reference searches for one kind of check and returns plain data
(values, leaves, traces): what is stored next to the notebooks and compared with the
recorded calls of a submission. Alpha-beta has four correct *conventions*: the cut rule
(on equality, ``v ≥ β`` / ``v ≤ α``, or strict, ``v > β`` / ``v < α``) times the fail mode
(soft: return v; hard: return α or β).

>>> tree = build_tree({"nested": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]})
>>> ref = reference("alphabeta", tree)
>>> ref["value"], [len(c["leaves"]) for c in ref["conventions"].values()]
(3, [7, 7, 7, 7])
>>> static = build_tree({"nested": [[3, 12, 8], [2, 4, 6]], "static": {"noise": 0}})
>>> reference("minimax", static, depth=1)["leaves"]
[[0], [1]]
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..deepening import iter_deepen
from ..search import alphabeta, minimax
from ..trace import Trace
from ..tree import GameTree

__all__ = ["CONVENTIONS", "convention_label", "build_tree", "reference", "seed_for",
           "CHECKS", "trace_of", "optimal_moves"]

#: name -> (prune_on_equal, fail)
CONVENTIONS: dict[str, tuple[bool, str]] = {
    "equal-soft": (True, "soft"),
    "equal-hard": (True, "hard"),
    "strict-soft": (False, "soft"),
    "strict-hard": (False, "hard"),
}

#: the kinds of check, by the function they grade
CHECKS = ("minimax", "minimax_limited", "best_move", "alphabeta", "order", "ordered_alphabeta",
          "deepen")


def convention_label(names: list[str] | tuple[str, ...]) -> str:
    """Words for a set of conventions that evaluate the same leaves.

    >>> convention_label(["equal-soft", "equal-hard"])
    'cut on equality (v ≥ β, v ≤ α), fail-soft or fail-hard'
    >>> convention_label(["strict-hard"])
    'strict cuts (v > β, v < α), fail-hard'
    >>> convention_label(["equal-soft", "strict-soft"])
    'either cut rule, fail-soft'
    >>> for part in convention_label(["equal-soft", "equal-hard", "strict-soft"]).split("; "):
    ...     print(part)
    cut on equality (v ≥ β, v ≤ α), fail-soft or fail-hard
    or strict cuts (v > β, v < α), fail-soft
    >>> convention_label(list(CONVENTIONS))
    'any cut rule and fail mode'
    """
    fails: dict[str, list[str]] = {"equal": [], "strict": []}
    for name in CONVENTIONS:
        if name in names:
            rule, fail = name.split("-")
            fails[rule].append(f"fail-{fail}")
    if len(fails["equal"]) == len(fails["strict"]) == 2:
        return "any cut rule and fail mode"
    if fails["equal"] and fails["equal"] == fails["strict"]:
        return "either cut rule, " + " or ".join(fails["equal"])
    words = {"equal": "cut on equality (v ≥ β, v ≤ α)", "strict": "strict cuts (v > β, v < α)"}
    return "; or ".join(f"{words[rule]}, {' or '.join(f)}" for rule, f in fails.items() if f)


def seed_for(student: str, name: str, salt: str = "") -> int:
    """A 32-bit seed from a student's id, a test's name and the course's salt.

    >>> seed_for("alice", "yours") == seed_for("alice", "yours")
    True
    >>> seed_for("alice", "yours") == seed_for("bob", "yours")
    False
    """
    digest = hashlib.sha256(f"{salt}\0{student}\0{name}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def build_tree(spec: dict[str, Any], *, seed: int | None = None) -> GameTree:
    """The tree a test spec describes (``seed`` drives a ``"random"`` spec).

    >>> build_tree({"nested": [[1, 2], [3]], "root": "min"}).root.player
    'min'
    >>> t = build_tree({"nested": [[3, 12], [2, 4]], "static": {"noise": 0}})
    >>> t.root.value, t.node((1,)).value
    (3, 2)
    >>> len(build_tree({"random": {"depth": 2, "branching": 2}}, seed=5).leaves())
    4
    """
    if "random" in spec:
        opts = dict(spec["random"])
        if isinstance(opts.get("branching"), list):
            opts["branching"] = tuple(opts["branching"])
        if isinstance(opts.get("values"), list):
            opts["values"] = tuple(opts["values"])
        tree = GameTree.random(seed=seed, root=spec.get("root", "max"), **opts)
    else:
        tree = GameTree.from_nested(spec["nested"], root=spec.get("root", "max"))
    static = spec.get("static")
    if static is not None:
        tree = _with_round_static(tree, float(static.get("noise", 0)),
                                  static.get("seed", seed))
    return tree


def _with_round_static(tree: GameTree, noise: float, seed: int | None) -> GameTree:
    noisy = tree.with_static(noise=noise, seed=seed)
    d = noisy.to_dict()

    def rounded(node: dict[str, Any]) -> None:
        if "children" in node:
            node["value"] = round(node["value"])
            for edge in node["children"]:
                rounded(edge["node"])
    rounded(d)
    return GameTree.from_dict(d)


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
