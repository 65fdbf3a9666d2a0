"""Where assignment 5's released notebooks import ``grade`` from (its home is
:mod:`minimaxkit.grading.play.notebook`)."""

from .play.notebook import grade_evaluation as grade

__all__ = ["grade"]
