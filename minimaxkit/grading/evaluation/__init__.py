"""Assignment 5: a student's Connect Four evaluation, run in the sandboxed child
(:mod:`~minimaxkit.isolation`) as a batch of boards at a time (:mod:`.evaluators`), checked
for correctness on the boards of :mod:`.boards` and played by the kit's searches in the trusted
process against a ladder of reference players (:mod:`.ladder`, :mod:`.checks`), with its
feedback (:mod:`.feedback`). Released notebooks import ``grade`` from here."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .notebook import grade_evaluation as grade

__all__ = ["grade"]


def __getattr__(name: str) -> Any:
    """``grade`` (what the notebook's test cells call) is imported on first use, so that the
    sandboxed kernel's start does not import the grading of play."""
    if name == "grade":
        from .notebook import grade_evaluation
        return grade_evaluation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
