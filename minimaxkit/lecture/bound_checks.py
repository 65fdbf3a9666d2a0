"""Checks on windows and bounds: aspiration windows (lecture 5) and the kinds of a
transposition table's entries (the optional notebook on transposition tables).

Both rest on one fact of fail-soft alpha-beta (glossary: *window*, *bound*): searched with
the window (α, β), a node's returned value v is exact when α < v < β; when v ≤ α the true
value is at most v (an *upper* bound: the search failed low), when v ≥ β at least v (a
*lower* bound: it failed high). Cutting on equality, v = α and v = β are bounds too.

>>> check_tt_bounds(lambda v, a, b: "exact", lambda k, v, a, b: v)[0]
False
"""

from __future__ import annotations

import math
from typing import Any

from ..replay.narration import fmt
from ..search import alphabeta
from ._reader import QUICK, Failed, call, number, same, short, shown
from .check_trees import check_trees
from .record import Result

__all__ = ["check_research_window", "check_tt_bounds", "kind_of", "reusable", "KINDS"]

inf = math.inf
KINDS = ("exact", "lower", "upper")


def kind_of(value: float, alpha: float, beta: float) -> str:
    """The kind of a fail-soft value searched with the window (α, β).

    >>> kind_of(5, 2, 8), kind_of(2, 2, 8), kind_of(9, 2, 8)
    ('exact', 'upper', 'lower')
    """
    if value <= alpha:
        return "upper"
    if value >= beta:
        return "lower"
    return "exact"


def reusable(kind: str, value: float, alpha: float, beta: float) -> float | None:
    """The value a node searched with (α, β) may return from a stored entry without a
    search, or None when the entry does not decide it.

    >>> reusable("lower", 9, 2, 8), reusable("lower", 5, 2, 8), reusable("upper", 1, 2, 8)
    (9, None, 1)
    """
    if kind == "exact" or (kind == "lower" and value >= beta) or (
            kind == "upper" and value <= alpha):
        return value
    return None


# ----- aspiration windows (lecture 5) ------------------------------------------------------------
def _aspiration_cases() -> list[tuple[tuple[float, float], float, float, Any]]:
    """(window, value returned, true value, tree): searches of random trees (values -9 to 9)
    with windows around, above, below and at their true values."""
    cases = []
    for tree in check_trees(8, depth=4):
        true = alphabeta(tree, trace=False).value
        for lo, hi in ((true - 2, true + 2), (true + 1, true + 5), (true - 6, true - 1),
                       (true, true + 3), (true - 3, true), (true - 0.5, true + 0.5)):
            value = alphabeta(tree, window=(lo, hi), trace=False).value
            cases.append(((lo, hi), value, true, tree))
    return cases


def _window(got: Any) -> tuple[float, float]:
    """``got`` as a window (two numbers), else :class:`Failed`."""
    if not (isinstance(got, (tuple, list)) and len(got) == 2
            and all(number(x) is not None for x in got)):
        raise Failed(f"expected None or a window (low, high), two numbers, got {shown(got)}")
    return float(got[0]), float(got[1])


def _research_problem(got: Any, window: tuple[float, float], value: float, true: float,
                      tree: Any) -> str:
    """'' when ``got`` is a right answer for a search with ``window`` that returned
    ``value``, else what is wrong."""
    lo, hi = window
    said = f"with the window ({lo:g}, {hi:g}) the search returned {value:g}"
    if lo < value < hi:
        return "" if got is None else f"{said}: inside the window, so exact; return None"
    if got is None:
        edge = " (a tie with a bound is a bound too)" if value in (lo, hi) else ""
        return f"{said}: at or outside the window, so known only as a bound{edge}; search again"
    new_lo, new_hi = _window(got)
    if (new_lo, new_hi) == (-inf, inf):
        return ""  # right, if costlier: see FULL_WINDOW_NOTE
    kept = new_hi if value <= lo else new_lo
    if math.isinf(kept):
        return f"{said}: the window ({fmt(new_lo)}, {fmt(new_hi)}) opens the side that held"
    again = alphabeta(tree, window=(new_lo, new_hi), trace=False).value
    if new_lo < again < new_hi and same(again, true):
        return ""
    if same(again, kept):
        end, old = ("top", hi) if value <= lo else ("bottom", lo)
        return (f"{said}: searched again with ({fmt(new_lo)}, {fmt(new_hi)}) it returns {again:g}, "
                f"a tie with the new {end}; cutting on equality, a tie with it is again only a "
                f"bound: keep the old {end}, {old:g}")
    return (f"{said}: searched again with ({fmt(new_lo)}, {fmt(new_hi)}) it returns {again:g}, "
            "still not exact: which side failed?")


#: Said when a right answer searches again with (-∞, ∞) where a side held.
FULL_WINDOW_NOTE = (" Where a side held, yours searches again with the full window (-∞, ∞), as "
                    "the kit's deepen does: also right, but it costs more, because the side "
                    "that held still bounds the value and keeping it lets the second search "
                    "cut more.")


def check_research_window(research_window: Any) -> Result:
    """Lecture 5's aspiration exercise: ``research_window(window, value)`` is None when a
    fail-soft search with ``window`` returned an exact ``value``, else the window to search
    again with, the failed side opened. The full window (-∞, ∞), which the kit's ``deepen``
    searches again with, passes with a note that it costs more. Refuses:

    * a value equal to a bound taken as exact;
    * the wrong side opened;
    * an exact value searched again.
    """
    cases = _aspiration_cases()
    full = False
    for window, value, true, tree in cases:
        got = call(research_window, window, value, call_as="research_window(window, value)",
                   none_ok=True, limit=QUICK)
        wrong = _research_problem(got, window, value, true, tree)
        if wrong:
            return False, wrong
        full = full or (got is not None and tuple(got) == (-inf, inf))
    if full:
        return True, (f"right on {len(cases)} searches: exact inside the window, and searched "
                      "again otherwise." + FULL_WINDOW_NOTE)
    return True, (f"right on {len(cases)} searches: exact inside the window, and the failed "
                  "side opened, the other kept, otherwise.")


# ----- a transposition table's bounds (the optional notebook) -------------------------------
_BOUND_CASES = [(5, 2, 8), (2, 2, 8), (1, 2, 8), (8, 2, 8), (9, 2, 8), (-3, -inf, 0),
                (0, -inf, 0), (7, 7, inf), (4, -inf, inf), (-1, -1, 1)]


def _arg(number: float) -> str:
    """A case's number as the student would type it in a call: ``-math.inf`` for -∞ (the
    lecture imports math), not Python's ``-inf``, which is no name in a notebook."""
    if math.isinf(number):
        return "math.inf" if number > 0 else "-math.inf"
    return f"{number:g}"


def _kind_problem(flag_of: Any) -> str:
    """'' when ``flag_of`` names every case's kind, else the first case it gets wrong."""
    for value, alpha, beta in _BOUND_CASES:
        got = call(flag_of, value, alpha, beta, call_as="flag_of(value, alpha, beta)",
                   limit=QUICK)
        want = kind_of(value, alpha, beta)
        if same(got, want):
            continue
        said = f"flag_of({_arg(value)}, {_arg(alpha)}, {_arg(beta)}) returns {short(got)}"
        if not any(same(got, k) for k in KINDS):
            return f"{said}; expected one of {', '.join(map(repr, KINDS))}"
        tie = (" (cutting on equality, a value equal to α is an upper bound, one equal to "
               "β a lower bound)"
               if value in (alpha, beta) else "")
        return f"{said}, but it is not {got}{tie}"
    return ""


def _clamped(kind: str, value: float, alpha: float, beta: float, got: Any) -> bool:
    """Whether ``got`` is the bound itself where the entry decides the node: β for a lower
    bound at or above β, α for an upper bound at or below α (fail-hard's return)."""
    return (kind == "lower" and value >= beta and same(got, beta)) or (
        kind == "upper" and value <= alpha and same(got, alpha))


def _reuse_problem(reuse: Any) -> tuple[str, str]:
    """('', note) when ``reuse`` answers every case rightly (the note says when it returns
    the window's bound rather than the stored value), else (what is wrong, '')."""
    note = ""
    for kind in KINDS:
        for value, alpha, beta in _BOUND_CASES:
            got = call(reuse, kind, value, alpha, beta, none_ok=True, limit=QUICK,
                       call_as="reuse(flag, value, alpha, beta)")
            want = reusable(kind, value, alpha, beta)
            said = (f"reuse({kind!r}, {_arg(value)}, {_arg(alpha)}, {_arg(beta)}) returns "
                    f"{short(got)}")
            if want is None and got is not None:
                return (f"{said}: a {kind} bound {value:g} leaves room inside the window "
                        f"({_arg(alpha)}, {_arg(beta)}), where the node's value could change the "
                        "parent's choice: search it"), ""
            if want is not None and _clamped(kind, value, alpha, beta, got) \
                    and not same(got, want):
                note = note or (f" Where a bound decides the node it returns the window's "
                                f"end (e.g. {said}, where the stored {value:g} is the tighter "
                                "bound): fail-hard style, also right.")
            elif want is not None and not same(got, want):
                return (f"{said}: this entry decides the node without a search; return the "
                        f"stored value, {want:g}"), ""
    return "", note
def check_tt_bounds(flag_of: Any, reuse: Any) -> Result:
    """The transposition-table exercise: ``flag_of(value, alpha, beta)`` names the kind of a
    fail-soft value ("exact", "lower", "upper") and ``reuse(flag, value, alpha, beta)`` the
    value a stored entry lets a node return without a search, or None. Returning β for a
    lower bound at or above β (α for an upper bound at or below α) passes with a note: the
    node fails high (low) either way, as fail-hard returns it. Refuses:

    * a tie with a bound called exact;
    * lower and upper swapped;
    * a lower bound reused below β;
    * an upper bound reused above α;
    * a deciding entry answered with something other than its value or the window's end.
    """
    wrong = _kind_problem(flag_of)
    if wrong:
        return False, wrong
    wrong, note = _reuse_problem(reuse)
    if wrong:
        return False, wrong
    return True, ("right: exact strictly inside the window; a lower bound answers at or above "
                  f"β, an upper bound at or below α; otherwise the node is searched.{note}")
