"""Sample searches with one known mistake each, written against the student interface as a
student would write them, in every convention: a submission that evaluates exactly what one
of them evaluates (and returns what it returns) on every tree is named as having that bug.
They are the grader's own code and run in its process, on a recorder of the tree.

Some are right where their mistake does not show (an ordering bug with ordering off, a depth
bug on a question without a limit), so while work is graded they are refused like the kit's
searches: each calls :func:`grading_sample` at every node it decides, which calls
:func:`prepare`, the hook ``minimaxkit.student.refuse_kit_searches`` replaces (this package is
among its ``SEARCH_MODULES``, and the grader's sandbox masks this file as it masks the
searches).
"""

from __future__ import annotations

from typing import Any

__all__ = ["prepare", "grading_sample"]


def prepare(*args: Any, **kwargs: Any) -> None:
    """Nothing, until grading refuses the kit's searches and replaces it."""


def grading_sample() -> None:
    """Called by the samples at each node they decide: refused (by :func:`prepare`) while a
    student's work is graded."""
    prepare()
