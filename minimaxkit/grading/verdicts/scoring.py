"""One tree's verdict per kind of check, 0, ½ or 1 of its point (docs/grading.md, *How grading
works*) for: the value, and every leaf read once (``minimax``; ``minimax_limited``: the nodes
at the depth limit), and a best child (``best_move``); the value and the chosen convention's
leaves in order (``alphabeta``, ``ordered_alphabeta``); the order at every interior node
(``order``); value, move and leaves per depth (``deepen``: each ``yield`` ends an iteration,
compared with the reference's at that depth; a returned list is graded on its values and
moves, and on all its leaves together).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...deepening import iter_deepen
from ...search import minimax
from ...student import evaluated_in
from ...tree import GameTree
from .bugs import BUGS, Bug, recognise, swapped
from .compare import compare, names, value_text
from .conventions import CONVENTIONS, convention_label, reference_leaves
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

__all__ = ["submitted", "grade_outcome", "grade_deepen", "iterations"]

Path = tuple[int, ...]


def submitted(check: str, out: Record) -> Any:
    """The leaves evaluated, in order (``deepen``: per iteration); None if it did not finish."""
    if not out.ok:
        return None
    if check == "deepen":
        return iterations(out)
    return evaluated_in(out.calls)


def grade_outcome(check: str, out: Record, tree: GameTree, ref: dict[str, Any], *,
                  options: dict[str, Any] | None = None,
                  conventions: tuple[str, ...] | None = None,
                  convention: str | None = None) -> TreeResult:
    """The verdict of one tree from what the function did there, alpha-beta graded under
    ``convention`` (default: the first of ``conventions``)."""
    if not out.ok:
        return failed(out)
    allowed = conventions or tuple(CONVENTIONS)
    conv = convention or allowed[0]
    result = _GRADERS[check](out, tree, ref, options or {}, allowed, conv)
    result.printed = out.printed
    return result


def _value(desc: Any, expected: float) -> tuple[bool, str]:
    """Whether the returned value is right, and the words for it."""
    value, why = number_of(desc)
    if same_value(value, expected):
        return True, f"value {value_text(value)} {OK}"
    return False, f"value {NO}: {why}" if why else \
        f"value {value_text(value)} {NO} (expected {value_text(expected)})"


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
    value_ok, value_part = _value(desc, ref["value"])
    leaves = evaluated_in(out.calls)
    c = compare(leaves, {"minimax": trace_of(ref["trace"])}, tree)
    reread = read_twice(out.calls)
    search_ok = c.same_leaves and not reread
    nodes = "leaves" if depth is None else f"nodes at depth {depth}"
    done = (leaves_text(len(leaves)) if depth is None else
            f"{len(leaves)} node{'' if len(leaves) == 1 else 's'} at depth {depth}")
    parts = [value_part, *move_part]
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
    value = number_of(desc)[0]
    if not value_ok and value is not None and \
            same_value(value, minimax(swapped(tree), depth=depth, trace=False).value):
        bugs.append(BUGS["swapped"])
    lines += bug_lines(bugs)
    result.lines = lines
    if not c.same_leaves:
        result.picture = Picture(tree, trace_of(ref["trace"]), c.marks(), "(minimax)")
    return result


def _grade_alphabeta(out: Record, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                     allowed: tuple[str, ...], conv: str) -> TreeResult:
    value_ok, value_part = _value(out.result, ref["value"])
    leaves = evaluated_in(out.calls)
    parts = [value_part]
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


def iterations(out: Record) -> list[list[Path]]:
    """The leaves of each iteration (one list for a function that returned a list)."""
    res = out.result if isinstance(out.result, dict) else {}
    if "yields" in res:
        return [evaluated_in(seg) for seg in _split(out)]
    return [[p for seg in _split(out) for p in evaluated_in(seg)]]


def grade_deepen(out: Record, tree: GameTree, ref: dict[str, Any], opts: dict[str, Any],
                 allowed: tuple[str, ...], conv: str) -> TreeResult:
    """Each iteration under ``conv``: half for its value and move, half for its leaves."""
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
            expected = value_text(it["value"])
            notes.append(f"depth {it['depth']}: value {value_text(value)} "
                         f"{OK if value_ok else NO + ' (expected ' + expected + ')'}, "
                         f"move {what(child)} {OK if move_ok else NO + ' (best: ' + best + ')'}")
    if len(items) != n_iter:
        notes.append(f"yielded {len(items)} results; expected one per depth 1..{n_iter}")

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
            if 0 <= j < len(iterations) and seg and BUGS[name] not in found and \
                    sorted(seg) == sorted(tuple(p) for p in iterations[j]["leaves"]):
                found.append(BUGS[name])
    return found


_GRADERS: dict[str, Callable[..., TreeResult]] = {
    "minimax": _grade_minimax, "minimax_limited": _grade_minimax, "best_move": _grade_minimax,
    "alphabeta": _grade_alphabeta, "ordered_alphabeta": _grade_alphabeta,
    "order": _grade_order, "deepen": grade_deepen,
}
