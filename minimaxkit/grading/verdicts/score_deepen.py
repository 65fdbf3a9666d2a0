"""A tree's verdict for assignment 4's ``deepen``: each ``yield`` ends an iteration, compared
with the reference's at that depth, half for its value and move and half for its leaves; a
returned list is graded on its values and moves, and on all its leaves together.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...student import evaluated_in
from ...tree import GameTree
from .compare import compare, value_text
from .conventions import convention_label
from .references import Iteration, TreeCase
from .results import NO, OK, Picture, Record, Returned, TreeResult, halves, mismatch_lines

__all__ = ["grade_deepen", "iterations"]

Path = tuple[int, ...]
Calls = list[tuple[str, Path]]


def _split(out: Record) -> list[Calls]:
    bounds = [0, *out.marks]
    return [out.calls[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] or [out.calls]


def iterations(out: Record) -> list[list[Path]]:
    """The leaves of each iteration (one list for a function that returned a list)."""
    res = out.result if isinstance(out.result, dict) else {}
    if "yields" in res:
        return [evaluated_in(seg) for seg in _split(out)]
    return [[p for seg in _split(out) for p in evaluated_in(seg)]]


@dataclass(frozen=True)
class _Answer:
    """One iteration's answer judged: value and move right, and the note when not."""

    right: bool
    note: str = ""


def _answer(item: Returned | None, it: Iteration, tree: GameTree) -> _Answer:
    pair = item.pair() if item is not None else None
    if pair is None:
        got = item.words() if item is not None else "nothing"
        return _Answer(False, f"depth {it.depth}: got {got}; expected (value, best child)")
    value, child = pair
    move_ok = child.kind == "node" and child.path is not None and len(child.path) == 1 \
        and child.path[0] in it.moves
    value_ok = value.kind == "number" and value.number == it.value
    if value_ok and move_ok:
        return _Answer(True)
    best = " or ".join(tree.root.children[m].name for m in it.moves)
    shown = value_text(value.number) if value.kind == "number" else value.words()
    value_words = OK if value_ok else f"{NO} (expected {value_text(it.value)})"
    move_words = OK if move_ok else f"{NO} (best: {best})"
    return _Answer(False, f"depth {it.depth}: value {shown} {value_words}, "
                          f"move {child.words()} {move_words}")


def _leaves_right(segments: list[list[Path]], its: tuple[Iteration, ...]) -> list[bool]:
    return [i < len(segments) and list(it.leaves) == segments[i] for i, it in enumerate(its)]


def grade_deepen(out: Record, case: TreeCase) -> TreeResult:
    """Each iteration under the case's convention: half for its value and move, half for its
    leaves."""
    tree = case.tree
    its = case.ref.iterations_of(case.convention)
    res = out.result if isinstance(out.result, dict) else {}
    segments: list[list[Path]] | None = None
    if "yields" in res:
        items = [Returned.read(d) for d in res["yields"]]
        segments = iterations(out)
    else:
        got = Returned.read(res.get("returned"))
        if got.kind != "seq":
            return TreeResult(0.0, f"returned {got.words()}; expected to yield "
                                   "(value, best child) after each depth")
        items = list(got.items)
    answers = [_answer(items[i] if i < len(items) else None, it, tree)
               for i, it in enumerate(its)]
    notes = [a.note for a in answers if a.note]
    if len(items) != len(its):
        notes.append(f"yielded {len(items)} results; expected one per depth 1..{len(its)}")
    if segments is not None:
        leaves_ok = _leaves_right(segments, its)
    else:
        flat = [p for seg in _split(out) for p in evaluated_in(seg)]
        leaves_ok = [flat == [p for it in its for p in it.leaves]] * len(its)
    score = halves(sum(0.5 * a.right + 0.5 * b for a, b in zip(answers, leaves_ok, strict=True))
                   / len(its))
    marks = "".join(OK if a.right and b else NO for a, b in zip(answers, leaves_ok, strict=True))
    summary = (f"depths 1..{len(its)}: {marks} (value and move "
               f"{sum(a.right for a in answers)}/{len(its)}, leaves {sum(leaves_ok)}/{len(its)})")
    result = TreeResult(score, summary, notes)
    if all(leaves_ok) or segments is None:
        return result
    _first_wrong_iteration(result, segments, leaves_ok.index(False), case)
    return result


def _first_wrong_iteration(result: TreeResult, segments: list[list[Path]], bad: int,
                           case: TreeCase) -> None:
    """The lines and picture of iteration ``bad``, the first whose leaves are wrong."""
    tree, ref, conv = case.tree, case.ref, case.convention
    its = ref.iterations_of(conv)
    trace = its[bad].search.trace
    c = compare(segments[bad] if bad < len(segments) else [], {conv: trace}, tree)
    label = convention_label([conv])
    others = [n for n in case.allowed
              if n != conv and all(_leaves_right(segments, ref.iterations_of(n)))]
    if others:
        result.lines.append(f"on this tree your iterations are those of "
                            f"{convention_label(others)}, but a program follows one "
                            f"convention on every tree: yours is graded as {label} (see the "
                            "top)")
    depth = its[bad].depth
    result.lines += [f"depth {depth}:"] + [f"  {ln}" for ln in mismatch_lines(tree, c, label)]
    result.picture = Picture(tree, trace, c.marks(), f"(depth {depth}, {label})")
