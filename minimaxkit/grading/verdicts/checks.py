"""One verdict per kind of question: what the student function did on one tree, compared with
the reference, scored on its own (0, ½ or 1 of the tree's point).

=====================  ===================================  ==============================
check                  the student function                 graded on
=====================  ===================================  ==============================
``minimax``            ``f(node) -> value``                 value; every leaf read once
``minimax_limited``    ``f(node, depth) -> value``          value; the nodes at the depth
                                                            limit, each once
``best_move``          ``f(node, depth) -> (value, child)`` value; a best child; the nodes
                                                            evaluated
``alphabeta``          ``f(node, alpha, beta) -> value``    value; the leaves, in order, of
                                                            a correct convention
``order``              ``f(node) -> list of children``      the order, at every interior node
``ordered_alphabeta``  ``f(node, alpha, beta) -> value``    as alphabeta, children ordered
                                                            by their estimates
``deepen``             ``f(node, max_depth, reorder)``      per depth: value and best move;
                       yields ``(value, child)`` per depth  the leaves of that iteration
                                                            (:mod:`.deepen`)
=====================  ===================================  ==============================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...search import minimax
from ...student import evaluated_in
from ...tree import GameTree
from .bugs import BUGS, recognise, swapped
from .compare import compare, fmt, names
from .conventions import CONVENTIONS, convention_label, reference_leaves
from .deepen import grade_deepen, iterations
from .diagnosis import bug_lines
from .references import trace_of
from .results import (
    NO,
    OK,
    Picture,
    Record,
    TreeResult,
    failed,
    halves,
    leaves_text,
    mismatch_lines,
    number_of,
    read_twice,
    same_value,
    what,
)

__all__ = ["submitted", "grade_outcome"]


def submitted(check: str, out: Record) -> Any:
    """What the submission evaluated, as :func:`.diagnosis.choose_convention` compares it:
    the leaves in order, per iteration for ``deepen``; None if it did not finish."""
    if not out.ok:
        return None
    if check == "deepen":
        return iterations(out)
    return evaluated_in(out.calls)


def grade_outcome(check: str, out: Record, tree: GameTree, ref: dict[str, Any], *,
                  options: dict[str, Any] | None = None,
                  conventions: tuple[str, ...] | None = None,
                  convention: str | None = None) -> TreeResult:
    """The verdict of one tree from what the function did there (``out``), alpha-beta
    graded under ``convention`` (default: the first of ``conventions``, else of all four)."""
    if not out.ok:
        return failed(out)
    allowed = conventions or tuple(CONVENTIONS)
    conv = convention or allowed[0]
    result = _GRADERS[check](out, tree, ref, options or {}, allowed, conv)
    result.printed = out.printed
    return result


# ----- graders ------------------------------------------------------------------------------
def _grade_minimax(out: Record, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                   allowed: tuple[str, ...], conv: str) -> TreeResult:
    depth = opts.get("depth")
    desc = out.result
    move_part: list[str] = []
    score_move: float | None = None
    if ref.get("moves") is not None:  # best_move: (value, child)
        seq = desc.get("seq") if isinstance(desc, dict) else None
        if not seq or len(seq) != 2:
            return TreeResult(0.0, f"returned {what(desc)}; expected a pair "
                                   "(value, best child)")
        desc, child = seq
        best = [tree.root.children[i].name for i in ref["moves"]]
        if isinstance(child, dict) and child.get("node") is not None \
                and len(child["node"]) == 1 and child["node"][0] in ref["moves"]:
            score_move = 1.0
            move_part = [f"move {child['name']} {OK}"]
        else:
            score_move = 0.0
            got = (f"move {child.get('name')}" if isinstance(child, dict) and "node" in child
                   else f"move: {what(child)}, not a child node")
            move_part = [f"{got} {NO} (best: {' or '.join(best)})"]
    value, why = number_of(desc)
    value_ok = same_value(value, ref["value"])
    leaves = evaluated_in(out.calls)
    c = compare(leaves, {"minimax": trace_of(ref["trace"])}, tree)
    reread = read_twice(out.calls)
    search_ok = c.same_leaves and not reread
    nodes = "leaves" if depth is None else f"nodes at depth {depth}"
    done = (leaves_text(len(leaves)) if depth is None else
            f"{len(leaves)} node{'' if len(leaves) == 1 else 's'} at depth {depth}")
    parts = [f"value {fmt(value)} {OK}" if value_ok else
             (f"value {fmt(value)} {NO} (expected {fmt(ref['value'])})" if why == "" else
              f"value {NO}: {why}")]
    parts += move_part
    parts.append(f"evaluated all {len(c.reference)} {nodes} once {OK}" if search_ok else
                 f"read {names(tree, reread[:3])} more than once {NO} (read each value once)"
                 if c.same_leaves else
                 f"evaluated {done} {NO} (expected {len(c.reference)}, each once)")
    scores = [float(value_ok), float(search_ok)] + ([score_move] if score_move is not None
                                                   else [])
    result = TreeResult(halves(sum(scores) / len(scores)), ", ".join(parts))
    if value_ok and search_ok and (score_move in (None, 1.0)):
        return result
    lines = []
    if reread and c.same_leaves:
        lines.append(f"your search called static() more than once on {names(tree, reread)}: "
                     "call it once per node and keep the value in a variable "
                     "(v = node.static()); the grader counts every call")
    elif not search_ok:
        lines += mismatch_lines(tree, c, "minimax", pruning=False)
    bugs = recognise(leaves, tree, "minimax", depth=depth) if not c.same_leaves else []
    if not value_ok and value is not None:
        if same_value(value, minimax(swapped(tree), depth=depth, trace=False).value):
            bugs.append(BUGS["swapped"])
    lines += bug_lines(bugs)
    result.lines = lines
    if not c.same_leaves:
        result.picture = Picture(tree, trace_of(ref["trace"]), c.marks(), "(minimax)")
    return result


def _grade_alphabeta(out: Record, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                     allowed: tuple[str, ...], conv: str) -> TreeResult:
    value, why = number_of(out.result)
    value_ok = same_value(value, ref["value"])
    leaves = evaluated_in(out.calls)
    parts = [f"value {fmt(value)} {OK}" if value_ok else
             (f"value {fmt(value)} {NO} (expected {fmt(ref['value'])})" if not why else
              f"value {NO}: {why}")]
    if leaves == reference_leaves("alphabeta", ref, conv):  # the common case
        parts.append(f"{leaves_text(len(leaves))} {OK}")
        return TreeResult((float(value_ok) + 1) / 2, ", ".join(parts))
    parts.append(f"{leaves_text(len(leaves))} {NO}")
    result = TreeResult(float(value_ok) / 2, ", ".join(parts))
    trace = trace_of(ref["conventions"][conv]["trace"])
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


def _grade_order(out: Record, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                 allowed: tuple[str, ...], conv: str) -> TreeResult:
    got = out.result if isinstance(out.result, dict) else {}
    right, lines = 0, []
    for key, expected in ref["orders"].items():
        path = tuple(int(i) for i in key.split(",")) if key else ()
        node = tree.node(path)
        desc = got.get(key)
        seq = desc.get("seq") if isinstance(desc, dict) else None
        paths = [tuple(d["node"]) for d in seq if "node" in d] if seq is not None else None
        want = [path + (i,) for i in expected]
        if paths == want:
            right += 1
            continue
        how = "high to low" if node.is_max else "low to high"
        shown = names(tree, paths) if paths is not None and len(paths) == len(seq or []) \
            else what(desc)
        lines.append(f"at {node.name} ({node.player.upper()}): you gave {shown}; expected "
                     f"{names(tree, want)} (estimates {how}, ties in the tree's order)")
    total = len(ref["orders"])
    summary = f"right order at {right} of {total} nodes {OK if right == total else NO}"
    return TreeResult(halves(right / total), summary, lines[:6])


_GRADERS: dict[str, Callable[..., TreeResult]] = {
    "minimax": _grade_minimax, "minimax_limited": _grade_minimax, "best_move": _grade_minimax,
    "alphabeta": _grade_alphabeta, "ordered_alphabeta": _grade_alphabeta,
    "order": _grade_order, "deepen": grade_deepen,
}
