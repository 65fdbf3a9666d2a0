"""Known bugs, recognised by their signatures.

A wrong search leaves a recognisable trace. Rather than guess from the trace, the grader
runs small *buggy sample submissions* — written against the same student interface, one
deliberate mistake each — on the same tree, and names the bug whose recorded leaves equal the
submission's. Mistakes the kit's reference can express directly (no pruning = minimax,
MIN and MAX swapped = the reference on the tree with the players swapped, a depth limit off
by one = the reference one ply deeper or shallower, no move ordering) come from the
reference itself.

>>> from minimaxkit.examples import tree_002
>>> tree = tree_002()
>>> leaves = run_sample(buggy_alphabeta("wrong_comparison"), tree)
>>> len(leaves), [b.name for b in recognise(leaves, tree, "alphabeta")]
(6, ['wrong_comparison'])
>>> leaves = run_sample(buggy_alphabeta("beta_max"), tree)
>>> len(leaves), [b.name for b in recognise(leaves, tree, "alphabeta")]
(21, ['not_passed_min', 'beta_max'])
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..search import alphabeta, minimax
from ..tree import GameTree
from .node import Recorder, SearchNode

__all__ = ["Bug", "BUGS", "buggy_alphabeta", "run_sample", "recognise", "swapped",
           "written_conventions", "source_conventions"]

Path = tuple[int, ...]
INF = math.inf


@dataclass(frozen=True)
class Bug:
    """A known mistake: its ``name`` and the ``advice`` shown to the student."""

    name: str
    advice: str


BUGS: dict[str, Bug] = {b.name: b for b in [
    Bug("no_pruning", "no pruning at all: your search evaluated every leaf. Alpha-beta stops "
        "at a MAX node once v ≥ β and at a MIN node once v ≤ α. If it does, check that α and "
        "β are passed down to the recursive calls and updated (α = max(α, v) at MAX, "
        "β = min(β, v) at MIN): otherwise no node ever sees a finite bound"),
    Bug("not_passed_max", "α and β are not passed down from MAX nodes: the calls on a MAX "
        "node's children start again from (-∞, ∞), so the MIN nodes below never cut"),
    Bug("not_passed_min", "α and β are not passed down from MIN nodes: the calls on a MIN "
        "node's children start again from (-∞, ∞), so the MAX nodes below never cut"),
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
        "order instead of by the previous iteration's values"),
]}


def buggy_alphabeta(bug: str, *, equal: bool = True,
                    hard: bool = False) -> Callable[[SearchNode, float, float], float]:
    """A sample student alpha-beta with one deliberate ``bug`` (a :data:`BUGS` name among
    ``not_passed_max``, ``not_passed_min``, ``wrong_comparison``, ``beta_max``,
    ``alpha_min``; or ``wrong_bound``, a second form of the wrong comparison: v against the
    node's own bound), cutting on equality or strictly, fail-soft or fail-hard."""

    def cuts(v: float, bound: float, at_max: bool) -> bool:
        if bug == "wrong_comparison":  # the MIN test at MAX nodes and vice versa
            at_max = not at_max
        if at_max:
            return v >= bound if equal else v > bound
        return v <= bound if equal else v < bound

    def search(node: SearchNode, alpha: float, beta: float) -> float:
        if node.is_leaf():
            return node.static()
        if node.is_max():
            v = alpha if hard else -INF
            for child in node.children():
                a, b = (-INF, INF) if bug == "not_passed_max" else (alpha, beta)
                v = max(v, search(child, a, b))
                if cuts(v, alpha if bug in ("wrong_comparison", "wrong_bound") else beta, True):
                    return v
                alpha = min(alpha, v) if bug == "alpha_min" else max(alpha, v)
            return v
        v = beta if hard else INF
        for child in node.children():
            a, b = (-INF, INF) if bug == "not_passed_min" else (alpha, beta)
            v = min(v, search(child, a, b))
            if cuts(v, beta if bug in ("wrong_comparison", "wrong_bound") else alpha, False):
                return v
            beta = max(beta, v) if bug == "beta_max" else min(beta, v)
        return v

    return search


def run_sample(sample: Callable[..., Any], tree: GameTree, *args: Any) -> list[Path]:
    """The leaves a (trusted) sample function evaluates on ``tree``, in order."""
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


def _static_key(game: Any, state: Any, move: Any) -> float:
    return float(game.evaluate(game.play(state, move)))


def _reversed_key(game: Any, state: Any, move: Any) -> float:
    return -_static_key(game, state, move)


def recognise(leaves: list[Path], tree: GameTree, check: str, *,
              depth: int | None = None) -> list[Bug]:
    """The known bugs whose signature on ``tree`` is exactly ``leaves`` (evaluation order),
    for the kind of ``check`` (see :data:`minimaxkit.grading.references.CHECKS`)."""
    found: list[str] = []

    def same(candidate: list[Path], name: str, *, ordered: bool = True) -> None:
        hit = candidate == leaves if ordered else sorted(candidate) == sorted(leaves)
        if hit and name not in found and candidate:
            found.append(name)

    def ab_leaves(t: GameTree, **kw: Any) -> list[Path]:
        out: list[Path] = []
        for equal in (True, False):
            for fail in ("soft", "hard"):
                r = alphabeta(t, prune_on_equal=equal, fail=fail, **kw).trace
                assert r is not None
                if r.leaves == leaves:
                    return r.leaves
                out = out or r.leaves
        return out

    if check in ("minimax", "minimax_limited", "best_move"):
        if depth is not None:
            for shift, name in ((1, "depth_deeper"), (-1, "depth_shallower")):
                d = depth + shift
                if d >= 0 and (d <= tree.height):
                    try:
                        same(_minimax_leaves(tree, d), name, ordered=False)
                    except ValueError:  # no static values at that depth
                        pass
        return [BUGS[n] for n in found]
    if check in ("alphabeta", "ordered_alphabeta"):
        same(_minimax_leaves(tree, None), "no_pruning")
        if found:  # every leaf evaluated: the plainest explanation covers the others
            return [BUGS["no_pruning"]]
        if check == "ordered_alphabeta":
            same(ab_leaves(tree), "no_ordering")
            same(ab_leaves(tree, order=_reversed_key), "reversed_ordering")
            return [BUGS[n] for n in found]
        same(ab_leaves(swapped(tree)), "swapped")
        for bug in ("not_passed_max", "not_passed_min", "wrong_comparison", "wrong_bound",
                    "beta_max", "alpha_min"):
            name = "wrong_comparison" if bug == "wrong_bound" else bug
            for equal in (True, False):
                for hard in (False, True):
                    same(run_sample(buggy_alphabeta(bug, equal=equal, hard=hard), tree), name)
    return [BUGS[n] for n in found]


_SAMPLE_BUGS = ("not_passed_max", "not_passed_min", "wrong_comparison", "wrong_bound",
                "beta_max", "alpha_min")


def written_conventions(leaves: list[Path], tree: GameTree) -> list[str]:
    """The alpha-beta conventions (``"equal-soft"`` ...) the submission was most likely
    written in: those under which one of the known buggy samples evaluates exactly
    ``leaves``. Empty when no sample does. The grader compares a failing submission with
    these first, so a student who cut on equality, fail-soft, is not told about strict cuts.

    >>> from minimaxkit.examples import tree_002
    >>> tree = tree_002()
    >>> leaves = run_sample(buggy_alphabeta("wrong_comparison", equal=False, hard=True), tree)
    >>> written_conventions(leaves, tree)
    ['strict-hard']
    """
    found: list[str] = []
    for equal in (True, False):
        for hard in (False, True):
            name = f"{'equal' if equal else 'strict'}-{'hard' if hard else 'soft'}"
            if any(run_sample(buggy_alphabeta(bug, equal=equal, hard=hard), tree) == leaves
                   for bug in _SAMPLE_BUGS):
                found.append(name)
    return found if leaves else []


def source_conventions(fn: Callable[..., Any]) -> list[str]:
    """The conventions the source of ``fn`` reads as: its cut tests (``v >= beta``,
    ``alpha >= beta`` cut on equality; ``v > beta`` strictly) and what it returns on a cut
    (``return alpha`` / ``return beta``: fail-hard). All four when it cannot be read.

    >>> def ab(node, alpha, beta):
    ...     v = node.static()
    ...     if v >= beta:
    ...         return v
    ...     return v
    >>> source_conventions(ab)
    ['equal-soft']
    """
    try:
        src = re.sub(r"#.*", "", inspect.getsource(fn))
    except (OSError, TypeError):
        return list(_ALL)
    equal = re.search(r"(>=\s*beta|<=\s*alpha|\bbeta\s*<=|\balpha\s*>=)", src)
    strict = re.search(r"(>\s*beta|<\s*alpha|\bbeta\s*<(?!=)|\balpha\s*>(?!=))", src)
    hard = re.search(r"return\s+(alpha|beta)\b", src)
    rules = ["equal"] if equal and not strict else ["strict"] if strict and not equal \
        else ["equal", "strict"]
    fails = ["hard"] if hard else ["soft"]
    return [f"{r}-{f}" for r in rules for f in fails]


_ALL = ("equal-soft", "equal-hard", "strict-soft", "strict-hard")


def _minimax_leaves(tree: GameTree, depth: int | None) -> list[Path]:
    r = minimax(tree, depth=depth).trace
    assert r is not None
    return r.leaves
