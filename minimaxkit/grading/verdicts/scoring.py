"""One tree's verdict per kind of check, 0, ½ or 1 of its point (docs/grading.md, *How grading
works*) for: the value, and every leaf read once (``minimax``; ``minimax_limited``: the nodes
at the depth limit), and a best child (``best_move``) in :mod:`.score_minimax`; the value and
the chosen convention's leaves in order (``alphabeta``, ``ordered_alphabeta``) and the order
at every interior node (``order``, :mod:`.score_order`); value, move and leaves per depth
(``deepen``) in :mod:`.score_deepen`.
"""

from __future__ import annotations

from collections.abc import Callable

from ...student import evaluated_in
from .compare import compare, value_text
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
    leaves_text,
    mismatch_lines,
    same_value,
)
from .score_deepen import grade_deepen, iterations
from .score_minimax import grade_minimax, value_part
from .score_order import grade_order

__all__ = ["grade_outcome", "grade_deepen", "iterations"]

Path = tuple[int, ...]


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
                    trial.options.depth, trial.options.window)
    result = _GRADERS[check](out, case)
    result.printed = out.printed
    return result


def window_words(window: tuple[float, float] | None) -> str:
    """How a tree's summary says the window its root was called with ("" for (-∞, ∞)).

    >>> window_words((5, 6)), window_words(None)
    ('searched in the window (5, 6): ', '')
    """
    if window is None:
        return ""
    return f"searched in the window ({value_text(window[0])}, {value_text(window[1])}): "


def _window_line(case: TreeCase, expected: float) -> list[str]:
    """Why the value asked for differs from the tree's minimax value, where a window does it."""
    if case.window is None or case.ref.value is None or same_value(expected, case.ref.value):
        return []
    lo, hi = (value_text(b) for b in case.window)
    value = value_text(case.ref.value)
    side = f"fails low there (its value {value} is at most α = {lo})" \
        if case.ref.value <= case.window[0] else \
        f"fails high there (its value {value} is at least β = {hi})"
    return [f"the root is called as alphabeta(root, {lo}, {hi}), and the value asked for is "
            f"the one searched in that window: the root {side}, and a correct search in "
            f"{convention_label([case.convention])} returns {value_text(expected)} (a search "
            f"that ignores the window returns {value}, the value from (-∞, ∞))"]


def _grade_alphabeta(out: Record, case: TreeCase) -> TreeResult:
    tree, ref, allowed, conv = case.tree, case.ref, case.allowed, case.convention
    expected = ref.answer(conv)
    assert expected is not None
    value_ok, value_words = value_part(Returned.read(out.result), expected)
    value_words = window_words(case.window) + value_words
    leaves = evaluated_in(out.calls)
    if leaves == reference_leaves("alphabeta", ref, conv):  # the common case
        return TreeResult((float(value_ok) + 1) / 2,
                          f"{value_words}, {leaves_text(len(leaves))} {OK}",
                          [] if value_ok else _window_line(case, expected))
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
    if not value_ok:
        lines += _window_line(case, expected)
    result.lines = lines + mismatch_lines(tree, c, label)
    result.picture = Picture(tree, trace, c.marks(), f"({label})")
    return result


_GRADERS: dict[str, Callable[..., TreeResult]] = {
    "minimax": grade_minimax, "minimax_limited": grade_minimax, "best_move": grade_minimax,
    "alphabeta": _grade_alphabeta, "ordered_alphabeta": _grade_alphabeta,
    "order": grade_order, "deepen": grade_deepen,
}
