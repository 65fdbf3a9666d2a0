"""Assignment 5's test cell, ``grade("evaluate", question, points=...)``: the visible share in
the student's notebook (a fifth of the correctness boards, the practice opening); under
autograde the trusted grader's :func:`evaluation_report`, every check and the games from the
openings drawn for the student (:func:`graded_openings`), with the function in a sandboxed
child, replaces its verdict."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...games.connect4_board import Board
from ...isolation.session import NOTEBOOK_TIME, Session, function_problem
from ..testdata.places import student_id
from ..testdata.suites import evaluation_spec, load_visible, salt_for
from ..testdata.trees import seed_for
from . import childside
from .checks import check_correctness, check_play
from .evaluators import RULES, LocalEvaluator, RemoteEvaluator
from .feedback import EvaluationReport
from .ladder import BOOK, draw_openings, ladder_of, practice_of

__all__ = ["grade_evaluation", "evaluation_report", "play_session", "graded_openings",
           "WORKER"]

WORKER = childside.__name__


def graded_openings(here: Path, question: str, student: str) -> list[str]:
    """The openings ``student`` is graded on for the play question ``question`` of
    ``here``'s tests.json: drawn from the book
    (:func:`~.playgrade.draw_openings`) with the seed the grading layer derives for a
    seeded tree (:func:`~..testdata.trees.seed_for`, from the student's id, the question
    and the suite's ``salt`` mixed with the course's secret), as many as the ladder's
    longest rung plays.

    >>> here = Path(__file__).parents[3] / "solutions" / "a5_evaluation"
    >>> a, b = graded_openings(here, "play", "alice"), graded_openings(here, "play", "bob")
    >>> len(a), a == graded_openings(here, "play", "alice"), a == b
    (40, True, False)
    """
    suite = load_visible(here)
    spec = suite["questions"][question]
    seed = seed_for(student, f"{suite.get('assignment', here.name)}/{question}/openings",
                    salt_for(suite, here))
    return draw_openings(seed, max(r.openings for r in ladder_of(spec)))


def check_seed(here: Path, student: str | None) -> int:
    """The seed of a student's correctness boards, from the course's secret as the seeded
    trees' (docs/grading.md, *Secrets*): no one without the secret can compute it."""
    suite = load_visible(here)
    return seed_for(student or student_id(), f"{suite.get('assignment', '')}/correctness",
                    salt_for(suite, here))


def _report(ev: LocalEvaluator, here: Path, question: str, points: float, visible: bool,
            speed: dict[str, bool], student: str | None = None) -> EvaluationReport:
    """The verdict of ``question`` for ``ev`` (``student``'s: their openings); ``speed``
    carries the correctness check's verdict on speed to the play check. Graded (not
    ``visible``), the correctness boards are the student's own (:func:`check_seed`)."""
    spec = evaluation_spec(here, question)
    if spec is None:
        raise ValueError(f"{here / 'tests.json'} has no evaluation question {question!r}")
    seed = None if visible else check_seed(here, student)
    if spec["check"] == "correctness":
        report = check_correctness(ev, spec, points=points, visible=visible, seed=seed)
        speed["too_slow"] = report.too_slow
        return report
    check = evaluation_spec(here, "correctness") or {}
    ev.limit_ms = float(check.get("limit_ms", 1.0))  # each game held to it too
    slow = False
    if check:  # the games only for a function fast enough, in practice as when graded
        slow = speed.pop("too_slow") if "too_slow" in speed else \
            check_correctness(ev, check, points=1, visible=visible, seed=seed).too_slow
    if visible:
        return check_play(ev, spec, points=points, openings=practice_of(spec), practice=True,
                          too_slow=slow)
    return check_play(ev, spec, points=points, too_slow=slow, book_size=len(BOOK),
                      openings=graded_openings(here, question, student or student_id()))


def evaluation_report(session: Session, fn: str, question: str, here: Path, *,
                      points: float, speed: dict[str, bool] | None = None,
                      student: str | None = None) -> EvaluationReport:
    """The trusted verdict of ``student``'s ``fn`` (default: :func:`student_id`), run in
    ``session``'s child (:func:`play_session`)."""
    if problem := function_problem(fn, session.names.get(fn)):
        return EvaluationReport(question, points, [("nothing to grade", False, "")], note=problem)
    return _report(RemoteEvaluator(session, fn), here, question, points, False,
                   {} if speed is None else speed, student)


def play_session(folder: Path, root: Path | None, hidden: list[Path],
                 cell_timeout: float, notebook_time: float = NOTEBOOK_TIME) -> Session:
    """A sandboxed child for assignment 5's notebook in ``folder`` (its cells ``cell_timeout``
    seconds each, ``notebook_time`` in all)."""
    return Session(folder, worker=WORKER, course_root=root, hidden_files=hidden,
                   cell_timeout=cell_timeout, rules=RULES, notebook_time=notebook_time)


def grade_evaluation(fn: Callable[[Board], Any] | str, question: str, *, points: float,
          here: str | Path | None = None) -> float:
    """Check ``fn`` on the visible share (a fifth of the boards, the practice opening) and
    print the verdict; under autograde, nothing (the trusted grader's verdict counts)."""
    function = sys._getframe(1).f_globals[fn] if isinstance(fn, str) else fn
    folder = Path(here) if here is not None else Path.cwd()
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        print(f"{question}: graded outside the notebook (the trusted grader's verdict "
              "replaces this output)")
        return 0.0
    report = _report(LocalEvaluator(function), folder, question, points, True, {})
    head, _, rest = report.text().partition("\n")
    head += " (on the visible share)"
    print(head + "\n" + "-" * len(head) + rest.partition("\n")[2].join(["\n", ""]))
    if report.views:
        from IPython.display import HTML, display
        display(HTML("".join(report.views)))
    return report.earned
