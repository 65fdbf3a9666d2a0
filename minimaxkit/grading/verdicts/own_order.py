"""Assignment 3's ``ordered_alphabeta`` graded for the order the student's own
``order_children`` gives, where that order differs from the question's only by the classic
way of breaking ties: a list sorted one way, then reversed, which puts children with equal
estimates in reverse (at MAX nodes, at MIN nodes or at both). The question asks for a search
"in the order ``order_children(node)`` gives"; a search that is exactly alpha-beta in that
order is right to its own question, and the tie mistake costs points once, in
``order_children``'s question (docs/grading.md, *Assignment 3's ties*).

>>> calls_own_order("def ordered_alphabeta(node, a, b):\\n    ...\\ndef order_children(node):")
True
>>> calls_own_order("def ordered_alphabeta(node, a, b):\\n    ...")
False
"""

from __future__ import annotations

from .bugs import matching
from .compare import value_text
from .diagnosis import Attempt, signatures_of
from .results import OK, TreeResult
from .scoring import window_words

__all__ = ["calls_own_order", "in_own_order"]

CHECK = "ordered_alphabeta"
#: the known bug (:data:`~.bugs.BUGS`) of an ``order_children`` that reverses ties
TIES_REVERSED = "ties_reversed"


def calls_own_order(program: str) -> bool:
    """Whether ``program`` (the graded function's source and the sources of what it calls)
    takes its order from the notebook's ``order_children``."""
    return "def order_children(" in program


def in_own_order(check: str, trial: Attempt, result: TreeResult, convention: str | None,
                 program: str) -> TreeResult:
    """``result``, or where ``trial``'s search is exactly alpha-beta in ``convention`` over
    the order an ``order_children`` with reversed ties gives, and the program takes its order
    from its ``order_children``: the tree's point, with the reason."""
    if check != CHECK or result.score >= 1 or trial.got is None or convention is None \
            or not calls_own_order(program):
        return result
    found = matching(trial.got, signatures_of(check, trial), check)
    if convention not in found.get(TIES_REVERSED, []):
        return result
    value = value_text(trial.got.value) if trial.got.value is not None else "?"
    count = len(trial.got.leaves)
    summary = (f"{window_words(trial.options.window)}value {value} {OK}, {count} "
               f"leaves {OK} in the order your order_children gives")
    why = ("your order_children puts children with equal estimates in reverse, and this "
           "search is alpha-beta in that order: right for this question, which searches in "
           "the order order_children gives; the ties cost points in order_children's "
           "question only")
    return TreeResult(1.0, summary, [why], printed=result.printed, status=result.status)
