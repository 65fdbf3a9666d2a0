"""Grading progressive deepening per iteration.

The student's ``deepen(node, max_depth, reorder)`` yields ``(value, best_child)`` after each
depth 1, 2, ..., max_depth. Each ``yield`` marks the end of an iteration in the recording,
so every iteration's evaluated leaves are compared on their own with the reference's
iteration at that depth (003: each iteration reorders the children by the values of the
previous one). A function that returns a list instead is graded on its values and moves,
and on all its leaves together.
"""

from __future__ import annotations

from typing import Any

from ...deepening import iter_deepen
from ...student import evaluated_in
from ...tree import GameTree
from .bugs import BUGS, Bug
from .compare import compare, fmt
from .conventions import CONVENTIONS, convention_label
from .diagnosis import bug_lines
from .references import trace_of
from .results import NO, OK, Picture, Record, TreeResult, halves, mismatch_lines, number_of, what

__all__ = ["grade_deepen", "iterations"]

Path = tuple[int, ...]


def iterations(out: Record) -> list[list[Path]]:
    """The leaves of each iteration of a deepening generator (its ``yield`` marks the end
    of one), or all of them as one list for a function that returned a list."""
    res = out.result if isinstance(out.result, dict) else {}
    if "yields" in res:
        return [evaluated_in(seg) for seg in _split(out)]
    return [[p for seg in _split(out) for p in evaluated_in(seg)]]


def grade_deepen(out: Record, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                 allowed: tuple[str, ...], conv: str) -> TreeResult:
    """Score each iteration, graded under convention ``conv``: half for its value and best
    move, half for its leaves; the tree's share is rounded down to a half point."""
    its = {n: ref["conventions"][n]["iterations"] for n in allowed}
    first = its[conv]
    n_iter = len(first)
    res = out.result if isinstance(out.result, dict) else {}
    if "yields" in res:
        items = res["yields"]
        segments: list[list[Path]] | None = iterations(out)
    else:
        got = res.get("returned")
        if not (isinstance(got, dict) and "seq" in got):
            return TreeResult(0.0, f"returned {what(got)}; expected to yield "
                                   "(value, best child) after each depth")
        items, segments = got["seq"], None

    # values and moves, per depth
    answers, notes = [], []
    for i, it in enumerate(first):
        item = items[i] if i < len(items) else None
        seq = item.get("seq") if isinstance(item, dict) else None
        if not seq or len(seq) != 2:
            answers.append(False)
            notes.append(f"depth {it['depth']}: got {what(item) if item else 'nothing'}; "
                         "expected (value, best child)")
            continue
        value, _ = number_of(seq[0])
        child = seq[1] if isinstance(seq[1], dict) else {}
        move_ok = child.get("node") is not None and len(child["node"]) == 1 \
            and child["node"][0] in it["moves"]
        value_ok = value is not None and value == it["value"]
        answers.append(value_ok and move_ok)
        if not (value_ok and move_ok):
            best = " or ".join(tree.root.children[m].name for m in it["moves"])
            notes.append(f"depth {it['depth']}: value {fmt(value)} "
                         f"{OK if value_ok else NO + ' (expected ' + fmt(it['value']) + ')'}, "
                         f"move {what(child)} {OK if move_ok else NO + ' (best: ' + best + ')'}")
    if len(items) != n_iter:
        notes.append(f"yielded {len(items)} results; expected one per depth 1..{n_iter}")

    # leaves, per iteration (or all together for a returned list)
    def agree(name: str) -> list[bool]:
        assert segments is not None
        return [i < len(segments) and [tuple(p) for p in it["leaves"]] == segments[i]
                for i, it in enumerate(its[name])]
    if segments is not None:
        leaves_ok = agree(conv)
    else:
        flat = [p for seg in _split(out) for p in evaluated_in(seg)]
        whole = flat == [tuple(p) for it in its[conv] for p in it["leaves"]]
        leaves_ok = [whole] * n_iter

    score = halves(sum(0.5 * a + 0.5 * b
                       for a, b in zip(answers, leaves_ok, strict=True)) / n_iter)
    marks = "".join(OK if a and b else NO for a, b in zip(answers, leaves_ok, strict=True))
    summary = (f"depths 1..{n_iter}: {marks} (value and move {sum(answers)}/{n_iter}, "
               f"leaves {sum(leaves_ok)}/{n_iter})")
    result = TreeResult(score, summary, notes)
    if all(leaves_ok) or segments is None:
        return result

    bad = leaves_ok.index(False)
    trace = trace_of(its[conv][bad]["trace"])
    sub = segments[bad] if bad < len(segments) else []
    c = compare(sub, {conv: trace}, tree)
    label = convention_label([conv])
    others = [n for n in allowed if n != conv and all(agree(n))]
    if others:
        result.lines.append(f"on this tree your iterations are those of "
                            f"{convention_label(others)}, but a program follows one "
                            f"convention on every tree: yours is graded as {label} (see the "
                            "top)")
    depth = first[bad]["depth"]
    result.lines += [f"depth {depth}:"] + [f"  {ln}" for ln in mismatch_lines(tree, c, label)]
    result.lines += bug_lines(_deepening_bugs(segments, tree, its[conv], conv, opts))
    result.picture = Picture(tree, trace, c.marks(), f"(depth {depth}, {label})")
    return result


def _split(out: Record) -> list[list[tuple[str, Path]]]:
    bounds = [0, *out.marks]
    return [out.calls[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] or [out.calls]


def _deepening_bugs(segments: list[list[Path]], tree: GameTree,
                    iterations: list[dict[str, Any]], conv: str,
                    opts: dict[str, Any]) -> list[Bug]:
    found: list[Bug] = []
    equal, fail = CONVENTIONS[conv]
    if opts.get("reorder", True):
        plain = [r.trace.leaves for r in iter_deepen(tree, max_depth=len(iterations),
                                                     reorder=False, prune_on_equal=equal,
                                                     fail=fail) if r.trace is not None]
        if segments[:len(plain)] == plain:
            found.append(BUGS["no_reordering"])
    for i, seg in enumerate(segments[:len(iterations)]):
        for j, name in ((i + 1, "depth_deeper"), (i - 1, "depth_shallower")):
            if 0 <= j < len(iterations) and seg and \
                    sorted(seg) == sorted(tuple(p) for p in iterations[j]["leaves"]):
                if BUGS[name] not in found:
                    found.append(BUGS[name])
    return found
