"""One check per kind of question: run the student function on one tree (contained), compare
with the reference, and score that tree on its own (a fraction between 0 and 1).

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
                                                            by their estimates (003)
``deepen``             ``f(node, max_depth, reorder)``      per depth: value and best move;
                       yields ``(value, child)`` per depth  the leaves of that iteration
=====================  ===================================  ==============================

>>> from minimaxkit.examples import aima_5_2
>>> from minimaxkit.grading.references import reference
>>> def my_minimax(node):
...     if node.is_leaf():
...         return node.static()
...     values = [my_minimax(c) for c in node.children()]
...     return max(values) if node.is_max() else min(values)
>>> tree = aima_5_2()
>>> r = run_check("minimax", my_minimax, tree, reference("minimax", tree))
>>> r.score, r.summary
(1.0, 'value 3 ✔, evaluated all 9 leaves once ✔')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..tree import GameTree
from .bugs import BUGS, Bug, recognise, signatures, swapped
from .compare import Comparison, compare, fmt, names
from .node import Recorder, evaluated_in
from .references import CONVENTIONS, convention_label, trace_of
from .sandbox import TIME_LIMIT, Outcome, describe, run_contained
from .submission import (
    CONVENTION_CHECKS,
    choose_convention,
    diagnose,
    program_text,
    read_conventions,
    reference_leaves,
)

__all__ = ["TreeResult", "Picture", "run_check", "run_tree", "grade_outcome", "submitted",
           "halves"]

Path = tuple[int, ...]
INF = math.inf
OK, NO = "✔", "✘"


@dataclass(frozen=True)
class Picture:
    """What to draw for a mismatch: the tree, the reference trace, marks and a title."""

    tree: GameTree
    trace: Any
    marks: dict[Path, str]
    title: str


@dataclass
class TreeResult:
    """One test tree's verdict: ``score`` in [0, 1], a one-line ``summary``, detail
    ``lines`` and, on a mismatch, a ``picture`` of the difference."""

    score: float
    summary: str
    lines: list[str] = field(default_factory=list)
    picture: Picture | None = None
    printed: str = ""
    status: str = "ok"


def halves(share: float) -> float:
    """A tree's share of its point, rounded down to a half: 1 when every part is right,
    0.5 when at least half of them are, else 0.

    >>> halves(1.0), halves(2 / 3), halves(0.5), halves(1 / 3)
    (1.0, 0.5, 0.5, 0.0)
    """
    return math.floor(share * 2 + 1e-9) / 2


def run_tree(check: str, fn: Callable[..., Any], tree: GameTree,
             options: dict[str, Any] | None = None, *, timeout: float = TIME_LIMIT) -> Outcome:
    """Run ``fn`` on ``tree`` for ``check``, contained, and return what it did."""
    opts = options or {}
    return run_contained(_TASKS[check](fn, opts), tree, timeout=timeout)


def failed(out: Outcome) -> TreeResult:
    """The verdict of a tree on which the function did not finish."""
    return TreeResult(0.0, out.message.splitlines()[0], out.message.splitlines()[1:],
                      printed=out.printed, status=out.status)


def submitted(check: str, out: Outcome) -> Any:
    """What the submission evaluated, as :func:`.submission.choose_convention` compares it:
    the leaves in order, per iteration for ``deepen``; None if it did not finish."""
    if not out.ok:
        return None
    if check == "deepen":
        from .deepen_grading import iterations
        return iterations(out)
    return evaluated_in(out.calls)


def grade_outcome(check: str, out: Outcome, tree: GameTree, ref: dict[str, Any], *,
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


def run_check(check: str, fn: Callable[..., Any], tree: GameTree, ref: dict[str, Any], *,
              options: dict[str, Any] | None = None, conventions: tuple[str, ...] | None = None,
              timeout: float = TIME_LIMIT) -> TreeResult:
    """Grade ``fn`` on ``tree`` alone for ``check`` against the reference data ``ref`` (see
    :func:`minimaxkit.grading.references.reference`). ``conventions`` restricts the accepted
    alpha-beta conventions (default: all four); the one graded under is chosen as for a
    whole submission (:mod:`.submission`) from this tree and ``fn``'s source, and the likely
    bug named from this tree."""
    opts = options or {}
    out = run_tree(check, fn, tree, opts, timeout=timeout)
    if not out.ok:
        return failed(out)
    conv = None
    allowed = list(conventions or CONVENTIONS)
    trial = (tree, ref, submitted(check, out))
    if check in CONVENTION_CHECKS:
        conv = choose_convention(check, [trial], allowed,
                                 read_conventions(program_text(fn))).name
    result = grade_outcome(check, out, tree, ref, options=opts, conventions=tuple(allowed),
                           convention=conv)
    if check in ("alphabeta", "ordered_alphabeta") and result.score < 1 and conv is not None:
        found = diagnose(check, [trial], conv, [signatures(tree, check)])
        result.lines += _bug_text([BUGS[n] for n in found.overall])
    return result


# ----- tasks: trusted code that runs in the sandbox and calls the student function ---------
Task = Callable[[Recorder], Any]


def _call(*args: Any) -> Callable[[Callable[..., Any], dict[str, Any]], Task]:
    def make(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
        extra = [opts[a] if isinstance(a, str) else a for a in args]
        return lambda rec: describe(fn(rec.root(), *extra))
    return make


def _order_task(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
    def task(rec: Recorder) -> Any:
        out = {}
        for n in rec.tree.nodes():
            if n.children:
                out[",".join(map(str, n.path))] = describe(fn(rec.node(n.path)))
        return out
    return task


def _deepen_task(fn: Callable[..., Any], opts: dict[str, Any]) -> Task:
    def task(rec: Recorder) -> Any:
        got = fn(rec.root(), opts["max_depth"], opts.get("reorder", True))
        if isinstance(got, (list, tuple)) or not hasattr(got, "__next__"):
            return {"returned": describe(got)}
        yields = []
        for item in got:
            rec.mark()
            yields.append(describe(item))
            if len(yields) > opts["max_depth"] + 3:
                break
        return {"yields": yields}
    return task


_TASKS: dict[str, Callable[[Callable[..., Any], dict[str, Any]], Task]] = {
    "minimax": _call(), "minimax_limited": _call("depth"), "best_move": _call("depth"),
    "alphabeta": _call(-INF, INF), "ordered_alphabeta": _call(-INF, INF),
    "order": _order_task, "deepen": _deepen_task,
}


# ----- reading what came back --------------------------------------------------------------
def _number(desc: Any) -> tuple[float | None, str]:
    if isinstance(desc, dict) and "number" in desc:
        return float(desc["number"]), ""
    return None, "returned " + _what(desc) + "; expected a number (the value)"


def _what(desc: Any) -> str:
    if not isinstance(desc, dict):
        return "nothing usable"
    if "none" in desc:
        return "None (is a return statement missing?)"
    if "seq" in desc:
        return f"a sequence of {len(desc['seq'])} items"
    if "node" in desc:
        return f"node {desc.get('name')}"
    if "number" in desc:
        return f"the number {fmt(desc['number'])}"
    return f"{desc.get('other')} {desc.get('repr')}"


def _leaves(n: int) -> str:
    return f"{n} leaf" if n == 1 else f"{n} leaves"


def _same(a: float | None, b: float) -> bool:
    return a is not None and (a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9))


def _bug_text(bugs: list[Bug]) -> list[str]:
    if not bugs:
        return []
    if len(bugs) == 1:
        return [f"likely bug: {bugs[0].advice}"]
    return ["likely bug, one of:"] + [f"  - {b.advice}" for b in bugs[:3]]


def _mismatch_lines(tree: GameTree, c: Comparison, label: str, *,
                    pruning: bool = True) -> list[str]:
    lines = [f"the reference ({label}) evaluates {len(c.reference)}: "
             f"{names(tree, c.reference)}",
             f"your search evaluated {len(c.submitted)}: {names(tree, c.submitted)}"]
    if c.divergence is not None:
        lines.append(f"they part {c.divergence.text}")
    if pruning:
        lines.append(f"evaluated but should have been cut: {names(tree, c.extra)}")
        lines.append(f"cut but should have been evaluated: {names(tree, c.missing)}")
    else:
        lines.append(f"evaluated but should not have been: {names(tree, c.extra)}")
        lines.append(f"skipped but should have been evaluated: {names(tree, c.missing)}")
    if c.repeated:
        lines.append(f"evaluated more than once: {names(tree, c.repeated)}")
    return lines


def _read_twice(calls: list[tuple[str, Path]]) -> list[Path]:
    """Paths whose static value was read more than once, counting every call (unlike
    :func:`evaluated_in`, which counts a read repeated at once as one).

    >>> _read_twice([("static", (0,)), ("static", (0,)), ("static", (1,))])
    [(0,)]
    """
    counts: dict[Path, int] = {}
    for kind, path in calls:
        if kind == "static":
            counts[path] = counts.get(path, 0) + 1
    return [p for p, n in counts.items() if n > 1]


# ----- graders ------------------------------------------------------------------------------
def _grade_minimax(out: Outcome, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                   allowed: tuple[str, ...], conv: str) -> TreeResult:
    depth = opts.get("depth")
    desc = out.result
    move_part: list[str] = []
    score_move: float | None = None
    if ref.get("moves") is not None:  # best_move: (value, child)
        seq = desc.get("seq") if isinstance(desc, dict) else None
        if not seq or len(seq) != 2:
            return TreeResult(0.0, f"returned {_what(desc)}; expected a pair "
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
                   else f"move: {_what(child)}, not a child node")
            move_part = [f"{got} {NO} (best: {' or '.join(best)})"]
    value, why = _number(desc)
    value_ok = _same(value, ref["value"])
    leaves = evaluated_in(out.calls)
    c = compare(leaves, {"minimax": trace_of(ref["trace"])}, tree)
    reread = _read_twice(out.calls)
    search_ok = c.same_leaves and not reread
    what = "leaves" if depth is None else f"nodes at depth {depth}"
    done = (_leaves(len(leaves)) if depth is None else
            f"{len(leaves)} node{'' if len(leaves) == 1 else 's'} at depth {depth}")
    parts = [f"value {fmt(value)} {OK}" if value_ok else
             (f"value {fmt(value)} {NO} (expected {fmt(ref['value'])})" if why == "" else
              f"value {NO}: {why}")]
    parts += move_part
    parts.append(f"evaluated all {len(c.reference)} {what} once {OK}" if search_ok else
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
        lines += _mismatch_lines(tree, c, "minimax", pruning=False)
    bugs = recognise(leaves, tree, "minimax", depth=depth) if not c.same_leaves else []
    if not value_ok and value is not None:
        from ..search import minimax as reference_minimax
        if _same(value, reference_minimax(swapped(tree), depth=depth, trace=False).value):
            bugs.append(BUGS["swapped"])
    lines += _bug_text(bugs)
    result.lines = lines
    if not c.same_leaves:
        result.picture = Picture(tree, trace_of(ref["trace"]), c.marks(), "(minimax)")
    return result


def _grade_alphabeta(out: Outcome, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                     allowed: tuple[str, ...], conv: str) -> TreeResult:
    value, why = _number(out.result)
    value_ok = _same(value, ref["value"])
    leaves = evaluated_in(out.calls)
    parts = [f"value {fmt(value)} {OK}" if value_ok else
             (f"value {fmt(value)} {NO} (expected {fmt(ref['value'])})" if not why else
              f"value {NO}: {why}")]
    if leaves == reference_leaves("alphabeta", ref, conv):  # the common case
        parts.append(f"{_leaves(len(leaves))} {OK}")
        return TreeResult((float(value_ok) + 1) / 2, ", ".join(parts))
    parts.append(f"{_leaves(len(leaves))} {NO}")
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
    result.lines = lines + _mismatch_lines(tree, c, label)
    result.picture = Picture(tree, trace, c.marks(), f"({label})")
    return result


def _grade_ordered(out: Outcome, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                   allowed: tuple[str, ...], conv: str) -> TreeResult:
    return _grade_alphabeta(out, tree, ref, opts, allowed, conv)


def _grade_order(out: Outcome, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
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
            else _what(desc)
        lines.append(f"at {node.name} ({node.player.upper()}): you gave {shown}; expected "
                     f"{names(tree, want)} (estimates {how}, ties in the tree's order)")
    total = len(ref["orders"])
    summary = f"right order at {right} of {total} nodes {OK if right == total else NO}"
    return TreeResult(halves(right / total), summary, lines[:6])


def _grade_deepen(out: Outcome, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                  allowed: tuple[str, ...], conv: str) -> TreeResult:
    from .deepen_grading import grade_deepen
    return grade_deepen(out, tree, ref, opts, allowed, conv)


_GRADERS: dict[str, Callable[..., TreeResult]] = {
    "minimax": _grade_minimax, "minimax_limited": _grade_minimax, "best_move": _grade_minimax,
    "alphabeta": _grade_alphabeta, "ordered_alphabeta": _grade_ordered,
    "order": _grade_order, "deepen": _grade_deepen,
}
