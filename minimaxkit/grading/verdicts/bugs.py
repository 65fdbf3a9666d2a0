"""Known bugs, recognised by their signatures: the leaves a buggy sample search (one mistake
each) or a changed reference (no pruning, players swapped, depth off by one, no ordering)
evaluates on the same tree (docs/grading.md, *How grading works*).

>>> from minimaxkit.examples import tree_002
>>> tree = tree_002()
>>> leaves = run_sample(buggy_alphabeta("wrong_comparison"), tree)
>>> len(leaves), [b.name for b in recognise(leaves, tree, "alphabeta")]
(6, ['wrong_comparison'])
>>> leaves = run_sample(buggy_alphabeta("beta_max"), tree)
>>> len(leaves), [b.name for b in recognise(leaves, tree, "alphabeta")]
(21, ['not_passed_min', 'beta_not_updated', 'beta_max'])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...search import alphabeta, minimax
from ...student import Recorder, SearchNode
from ...tree import GameTree
from .conventions import CONVENTIONS

__all__ = ["Bug", "BUGS", "SAMPLE_BUGS", "buggy_alphabeta", "run_sample", "recognise",
           "swapped", "signatures", "matching", "Signatures"]

Path = tuple[int, ...]
INF = math.inf


@dataclass(frozen=True)
class Bug:
    """A known mistake and the advice shown to the student."""

    name: str
    advice: str


BUGS: dict[str, Bug] = {b.name: b for b in [
    Bug("no_pruning", "no pruning: your search evaluated every leaf. Alpha-beta "
        "stops at a MAX node once v ≥ β and at a MIN node once v ≤ α. If it does, check that "
        "α and β are passed down to the recursive calls and updated (α = max(α, v) at MAX, "
        "β = min(β, v) at MIN): otherwise no node ever sees a finite bound"),
    Bug("not_passed_max", "α and β are not passed down from MAX nodes: the calls on a MAX "
        "node's children start again from (-∞, ∞), so the MIN nodes below never cut"),
    Bug("not_passed_min", "α and β are not passed down from MIN nodes: the calls on a MIN "
        "node's children start again from (-∞, ∞), so the MAX nodes below never cut"),
    Bug("alpha_not_updated", "α is never updated: after each child of a MAX node set "
        "α = max(α, v), so that the MIN nodes below it can cut"),
    Bug("beta_not_updated", "β is never updated: after each child of a MIN node set "
        "β = min(β, v), so that the MAX nodes below it can cut"),
    Bug("root_forgets_alpha", "the root's loop forgets its bound: the root searches each "
        "child with the window it was given and never narrows it (α = max(α, v) at a MAX "
        "root, β = min(β, v) at a MIN root), so its later children cannot be cut"),
    Bug("cut_before_update", "the cut test comes before the update: it tests α ≥ β (or "
        "β ≤ α) with the bound of the children before, then updates it, so every cut comes "
        "one child late. Update first (α = max(α, v)), then test, or test v ≥ β directly"),
    Bug("over_pruning", "over-pruning: your search cuts where alpha-beta does not. A MAX node "
        "stops only when v ≥ β (β comes from the MIN nodes above), a MIN node only when "
        "v ≤ α; comparing v with the node's own bound (v ≥ α at MAX) or with both bounds "
        "cuts good moves"),
    Bug("wrong_window", "wrong initial window: the search does not start from the window "
        "(-∞, ∞) it is given (α and β swapped, or set to the same number): start with "
        "α = -∞ and β = ∞ and pass the given α and β on"),
    Bug("wrong_comparison", "cut on the wrong comparison: a MAX node cuts when v ≥ β (or "
        "v > β), a MIN node when v ≤ α (or v < α)"),
    Bug("swapped", "MIN and MAX swapped: your search minimises at MAX nodes and maximises at "
        "MIN nodes (node.is_max() is True where MAX is to move)"),
    Bug("beta_max", "β updated with max, the recitation's erratum (lecture 3): at a MIN node "
        "β becomes min(β, v), not max(β, v)"),
    Bug("alpha_min", "α updated with min: at a MAX node α becomes max(α, v), not min(α, v)"),
    Bug("depth_deeper", "depth off by one: your search evaluates the nodes one ply below the "
        "depth limit (depth counts from the root, which has depth 0: stop when "
        "node.depth == max_depth)"),
    Bug("depth_shallower", "depth off by one: your search evaluates the nodes one ply above "
        "the depth limit (depth counts from the root, which has depth 0: stop when "
        "node.depth == max_depth, not max_depth - 1)"),
    Bug("no_ordering", "no move ordering: your search visits the children in the tree's "
        "order, not sorted by their estimates"),
    Bug("reversed_ordering", "ordering reversed: MAX nodes' children go from the highest "
        "estimate to the lowest, MIN nodes' from the lowest to the highest"),
    Bug("no_reordering", "no reordering: each iteration searches the children in the tree's "
        "order instead of the previous iteration's best child first, then the others by "
        "estimate"),
]}

#: the mistakes of :func:`buggy_alphabeta`, each to the bug it is a form of
SAMPLE_BUGS: dict[str, str] = {
    "not_passed_max": "not_passed_max", "not_passed_min": "not_passed_min",
    "alpha_not_updated": "alpha_not_updated", "beta_not_updated": "beta_not_updated",
    "root_forgets_alpha": "root_forgets_alpha", "cut_before_update": "cut_before_update",
    "wrong_bound": "over_pruning", "both_bounds": "over_pruning",
    "window_swapped": "wrong_window", "window_low": "wrong_window",
    "window_high": "wrong_window", "wrong_comparison": "wrong_comparison",
    "beta_max": "beta_max", "alpha_min": "alpha_min",
}

_WINDOWS = {"window_swapped": (INF, -INF), "window_low": (-INF, -INF),
            "window_high": (INF, INF)}


def buggy_alphabeta(bug: str, *, equal: bool = True, hard: bool = False,
                    ordered: bool = False) -> Callable[[SearchNode, float, float], float]:
    """A sample alpha-beta with one ``bug`` of :data:`SAMPLE_BUGS`, in a convention,
    (``ordered``) searching the children by their estimates, best first."""
    if bug not in SAMPLE_BUGS:
        raise ValueError(f"unknown sample bug {bug!r}; the samples are {sorted(SAMPLE_BUGS)}")

    def beyond(v: float, bound: float, at_max: bool) -> bool:
        if at_max:
            return v >= bound if equal else v > bound
        return v <= bound if equal else v < bound

    def cuts(v: float, alpha: float, beta: float, at_max: bool) -> bool:
        if bug == "wrong_comparison":  # the MIN test at MAX nodes and vice versa
            return beyond(v, alpha, False) if at_max else beyond(v, beta, True)
        if bug == "wrong_bound":  # the node's own bound
            return beyond(v, alpha, True) if at_max else beyond(v, beta, False)
        if bug == "both_bounds":
            return beyond(v, beta, True) or beyond(v, alpha, False)
        if bug == "cut_before_update":  # the window before this child's value
            return beyond(alpha, beta, True)
        return beyond(v, beta, True) if at_max else beyond(v, alpha, False)

    def children(node: SearchNode) -> list[SearchNode]:
        kids = node.children()
        if ordered:
            kids = sorted(kids, key=lambda c: c.estimate(), reverse=node.is_max())
        return kids

    def search(node: SearchNode, alpha: float, beta: float) -> float:
        if node.is_leaf():
            return node.static()
        root = node.depth == 0
        at_max = node.is_max()
        v = (alpha if at_max else beta) if hard else (-INF if at_max else INF)
        for child in children(node):
            fresh = bug == ("not_passed_max" if at_max else "not_passed_min")
            w = search(child, *((-INF, INF) if fresh else (alpha, beta)))
            v = max(v, w) if at_max else min(v, w)
            if root and bug == "root_forgets_alpha":
                continue
            if cuts(v, alpha, beta, at_max):
                return v
            if at_max and bug not in ("alpha_not_updated",):
                alpha = min(alpha, v) if bug == "alpha_min" else max(alpha, v)
            elif not at_max and bug != "beta_not_updated":
                beta = max(beta, v) if bug == "beta_max" else min(beta, v)
        return v

    def start(node: SearchNode, alpha: float, beta: float) -> float:
        return search(node, *_WINDOWS.get(bug, (alpha, beta)))

    return start


def run_sample(sample: Callable[..., Any], tree: GameTree, *args: Any) -> list[Path]:
    """The leaves a trusted sample evaluates on ``tree``, in order."""
    rec = Recorder(tree)
    try:
        sample(rec.root(), *(args or (-INF, INF)))
    except (RecursionError, ValueError):  # a sample that fails on this tree matches nothing
        return []
    return rec.evaluated


def swapped(tree: GameTree) -> GameTree:
    """The same tree with MAX and MIN swapped at every node."""
    d = tree.to_dict()

    def flip(node: dict[str, Any]) -> None:
        node["player"] = "min" if node["player"] == "max" else "max"
        for edge in node.get("children", []):
            flip(edge["node"])
    flip(d)
    return GameTree.from_dict(d)


Signatures = dict[str, dict[str, list[Path]]]


def signatures(tree: GameTree, check: str, *, depth: int | None = None) -> Signatures:
    """Bug -> convention -> the leaves it evaluates on ``tree`` for ``check``, in order;
    variants of one bug kept apart as ``name/variant``."""
    out: Signatures = {}

    def put(name: str, conv: str, leaves: list[Path]) -> None:
        if leaves:
            out.setdefault(name, {})[conv] = leaves

    if check in ("minimax", "minimax_limited", "best_move"):
        for shift, name in ((1, "depth_deeper"), (-1, "depth_shallower")):
            if depth is not None and 0 <= depth + shift <= tree.height:
                try:
                    leaves = _leaves(minimax, tree, depth=depth + shift)
                except ValueError:  # no static values at that depth
                    continue
                for conv in CONVENTIONS:
                    put(name, conv, leaves)
        return out
    if check not in ("alphabeta", "ordered_alphabeta"):
        return out
    ordered = check == "ordered_alphabeta"
    every = _leaves(minimax, tree, order="static" if ordered else None)
    flipped = swapped(tree)

    def worst_first(game: Any, state: Any, move: Any) -> float:  # the ordering reversed
        return -float(game.evaluate(game.play(state, move)))
    for conv in CONVENTIONS:
        equal, fail = conv.split("-")
        kw: dict[str, Any] = {"prune_on_equal": equal == "equal", "fail": fail}
        put("no_pruning", conv, every)
        if ordered:
            put("no_ordering", conv, _leaves(alphabeta, tree, **kw))
            put("reversed_ordering", conv, _leaves(alphabeta, tree, order=worst_first, **kw))
        else:
            put("swapped", conv, _leaves(alphabeta, flipped, **kw))
        for sample, name in SAMPLE_BUGS.items():
            key = name if sample == name else f"{name}/{sample}"
            put(key, conv, run_sample(buggy_alphabeta(sample, equal=equal == "equal",
                                                      hard=fail != "soft", ordered=ordered),
                                      tree))
    return out


def matching(leaves: list[Path], sigs: Signatures) -> dict[str, list[str]]:
    """The bugs whose signature is exactly ``leaves``, with the conventions it is found in.

    >>> matching([(0,)], {"a": {"equal-soft": [(0,)], "strict-soft": [(1,)]}})
    {'a': ['equal-soft']}
    """
    found: dict[str, list[str]] = {}
    for key, per in sigs.items():
        name = key.split("/")[0]
        for conv, sig in per.items():
            if sig == leaves and conv not in found.get(name, []):
                found.setdefault(name, []).append(conv)
    return found


def recognise(leaves: list[Path], tree: GameTree, check: str, *,
              depth: int | None = None) -> list[Bug]:
    """The known bugs that evaluate exactly ``leaves`` on ``tree`` in some convention (a depth
    off by one: the same nodes in any order)."""
    sigs = signatures(tree, check, depth=depth)
    if check in ("minimax", "minimax_limited", "best_move"):
        got = sorted(leaves)
        return [BUGS[n] for n, per in sigs.items() if any(sorted(s) == got
                                                          for s in per.values())]
    return [BUGS[n] for n in matching(list(leaves), sigs)]


def _leaves(search: Callable[..., Any], tree: GameTree, **kw: Any) -> list[Path]:
    trace = search(tree, **kw).trace
    assert trace is not None
    return trace.leaves
