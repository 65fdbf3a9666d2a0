"""One tree's verdict per kind of check, 0, ½ or 1 of its point (docs/grading.md, *How grading
works*) for: the value, and every leaf read once (``minimax``; ``minimax_limited``: the nodes
at the depth limit), and a best child (``best_move``) in :mod:`.score_minimax`; the value and
the chosen convention's leaves in order (``alphabeta``, ``ordered_alphabeta``) and the order
at every interior node (``order``) here; value, move and leaves per depth (``deepen``) in
:mod:`.score_deepen`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...student import evaluated_in
from ...tree import GameTree
from .compare import compare, names
from .conventions import CONVENTIONS, convention_label
from .diagnosis import Attempt
from .references import TreeCase, reference_leaves
from .results import (
    NO,
    OK,
    Picture,
    Record,
    Returned,
    TreeResult,
    failed,
    halves,
    leaves_text,
    mismatch_lines,
)
from .score_deepen import grade_deepen, iterations
from .score_minimax import grade_minimax, value_part

__all__ = ["submitted", "grade_outcome", "grade_deepen", "iterations"]

Path = tuple[int, ...]


def submitted(check: str, out: Record) -> Any:
    """The leaves evaluated, in order (``deepen``: per iteration); None if it did not finish."""
    if not out.ok:
        return None
    if check == "deepen":
        return iterations(out)
    return evaluated_in(out.calls)


def grade_outcome(check: str, out: Record, trial: Attempt, *,
                  conventions: tuple[str, ...] | None = None,
                  convention: str | None = None) -> TreeResult:
    """The verdict of one tree (``trial``: the tree, its reference and options) from what
    the function did there, alpha-beta graded under ``convention`` (default: the first of
    ``conventions``)."""
    if not out.ok:
        return failed(out)
    allowed = conventions or tuple(CONVENTIONS)
    case = TreeCase(trial.tree, trial.ref, allowed, convention or allowed[0],
                    trial.options.depth)
    result = _GRADERS[check](out, case)
    result.printed = out.printed
    return result


def _grade_alphabeta(out: Record, case: TreeCase) -> TreeResult:
    tree, ref, allowed, conv = case.tree, case.ref, case.allowed, case.convention
    assert ref.value is not None
    value_ok, value_words = value_part(Returned.read(out.result), ref.value)
    leaves = evaluated_in(out.calls)
    if leaves == reference_leaves("alphabeta", ref, conv):  # the common case
        return TreeResult((float(value_ok) + 1) / 2,
                          f"{value_words}, {leaves_text(len(leaves))} {OK}")
    result = TreeResult(float(value_ok) / 2,
                        f"{value_words}, {leaves_text(len(leaves))} {NO}")
    trace = ref.convention(conv).trace
    c = compare(leaves, {conv: trace}, tree)
    label = convention_label([conv])
    others = [n for n in CONVENTIONS if n != conv
              and leaves == reference_leaves("alphabeta", ref, n)]
    lines = []
    if any(n in allowed for n in others):
        lines.append(f"on this tree your leaves are those of {convention_label(others)}, but "
                     f"a program follows one convention on every tree: yours is graded as "
                     f"{label} (see the top)")
    elif others:
        lines.append(f"on this tree your search is alpha-beta with {convention_label(others)}, "
                     f"but this question asks for {convention_label(list(allowed))}")
    result.lines = lines + mismatch_lines(tree, c, label)
    result.picture = Picture(tree, trace, c.marks(), f"({label})")
    return result


def _given_order(desc: Returned, tree: GameTree) -> list[Path] | None:
    """The children a node's ordering returned, as paths (None if it was not a list of
    the tree's nodes)."""
    if desc.kind != "seq" or any(d.kind != "node" for d in desc.items):
        return None
    paths = [d.path for d in desc.items if d.path is not None]
    try:
        for p in paths:
            tree.node(p)
    except KeyError:  # a node of another tree
        return None
    return paths


def _grade_order(out: Record, case: TreeCase) -> TreeResult:
    tree, ref = case.tree, case.ref
    got = out.result if isinstance(out.result, dict) else {}
    right, lines = 0, []
    wrong_at: list[str] = []
    for path, expected in ref.orders.items():
        node = tree.node(path)
        desc = Returned.read(got.get(",".join(map(str, path))))
        paths = _given_order(desc, tree)
        want = [path + (i,) for i in expected]
        if paths == want:
            right += 1
            continue
        wrong_at.append(node.player)
        how = "high to low" if node.is_max else "low to high"
        shown = names(tree, paths) if paths is not None else desc.words()
        lines.append(f"at {node.name} ({node.player.upper()}): you gave {shown}; expected "
                     f"{names(tree, want)} (estimates {how}, ties in the tree's order)")
    total = len(ref.orders)
    summary = f"right order at {right} of {total} nodes {OK if right == total else NO}"
    return TreeResult(halves(right / total), summary, _order_hint(wrong_at, tree) + lines[:6])


def _order_hint(wrong_at: list[str], tree: GameTree) -> list[str]:
    """One line when the wrong nodes are all of one player (a direction mistake)."""
    players = set(wrong_at)
    kinds = {n.player for n in tree.nodes() if n.children}
    if len(players) != 1 or len(kinds) < 2:
        return []
    player = players.pop()
    how = "highest estimate first (reverse=True)" if player == "max" else \
        "lowest estimate first"
    return [f"every node you ordered wrongly is a {player.upper()} node: a {player.upper()} "
            f"node's children go {how}, so sort with reverse=node.is_max()"]


_GRADERS: dict[str, Callable[..., TreeResult]] = {
    "minimax": grade_minimax, "minimax_limited": grade_minimax, "best_move": grade_minimax,
    "alphabeta": _grade_alphabeta, "ordered_alphabeta": _grade_alphabeta,
    "order": _grade_order, "deepen": grade_deepen,
}
