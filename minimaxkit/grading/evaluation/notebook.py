"""Assignment 5's test cell, ``grade("evaluate", question, points=...)``: the visible share in
the student's notebook (a fifth of the correctness boards, the practice opening); under
autograde the trusted grader's :func:`evaluation_report`, every check and the games from the
class's openings (:func:`graded_openings`), with the function in a sandboxed child, replaces
its verdict.

Every student of a class is graded on the same boards and the same openings, drawn with the
course's secret: the same evaluation earns the same points whoever submits it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...games.connect4_board import Board
from ...isolation.session import NOTEBOOK_TIME, Session, function_problem
from ...support.text import VALIDATE_WIDTH, wrap
from ..testdata.suites import evaluation_spec, load_visible, salt_for
from ..testdata.trees import seed_for
from . import childside
from .correctness import CorrectnessSpec, check_correctness
from .evaluators import RULES, LocalEvaluator, RemoteEvaluator
from .feedback import EvaluationReport
from .ladder import BOOK, draw_openings, ladder_of, practice_of
from .play_check import PlayPlan, check_play
from .reference import reference_shares

__all__ = ["grade_evaluation", "evaluation_report", "verdict", "play_session", "graded_openings",
           "class_seed", "EvaluationCell", "WORKER", "CLASS"]

WORKER = childside.__name__
#: who the class's draws are made for, in place of a student's id (:func:`class_seed`)
CLASS = "the whole class"


def class_seed(here: Path, name: str) -> int:
    """The seed of the class's draw called ``name`` (``"play/openings"``,
    ``"correctness"``): as a seeded tree's (:func:`~..testdata.trees.seed_for`), from the
    assignment's salt mixed with the course's secret, but the same for every student, so
    that the same work gets the same grade. Without the secret no one can compute it."""
    suite = load_visible(here)
    return seed_for(CLASS, f"{suite.get('assignment', here.name)}/{name}",
                    salt_for(suite, here))


def graded_openings(here: Path, question: str) -> list[str]:
    """The openings the class is graded on for the play question ``question`` of ``here``'s
    tests.json: drawn from the book (:func:`~.ladder.draw_openings`) with the class's seed,
    as many as the ladder's longest rung plays.

    >>> here = Path(__file__).parents[3] / "solutions" / "a5_evaluation"
    >>> drawn = graded_openings(here, "play")
    >>> len(drawn), drawn == graded_openings(here, "play")
    (40, True)
    """
    spec = load_visible(here)["questions"][question]
    return draw_openings(class_seed(here, f"{question}/openings"),
                         max(r.openings for r in ladder_of(spec)))


@dataclass(frozen=True)
class EvaluationCell:
    """One test cell of assignment 5: ``question`` of ``here``'s tests.json and its
    ``points``; ``visible``: the student's own run (the visible share), else graded."""

    here: Path
    question: str
    points: float
    visible: bool = False


def verdict(ev: LocalEvaluator, cell: EvaluationCell, carried: dict[str, str]
             ) -> EvaluationReport:
    """The verdict of ``cell`` for ``ev``. ``carried`` takes the correctness check's verdict
    on speed (``"no_games"``: why the function plays none) to the play check; where the play
    cell comes first, the check is made for it."""
    spec = evaluation_spec(cell.here, cell.question)
    if spec is None:
        raise ValueError(f"{cell.here / 'tests.json'} has no evaluation question "
                         f"{cell.question!r}")
    seed = None if cell.visible else class_seed(cell.here, "correctness")
    if spec["check"] == "correctness":
        report = check_correctness(ev, CorrectnessSpec.of(spec), points=cell.points,
                                   visible=cell.visible, seed=seed)
        carried["no_games"] = report.no_games
        return report
    check = evaluation_spec(cell.here, "correctness")
    if check is not None:
        ev.limit_ms = CorrectnessSpec.of(check).limit_ms  # each game held to it too
    if check is not None and "no_games" not in carried:  # games only for a function fast
        carried["no_games"] = check_correctness(ev, CorrectnessSpec.of(check), points=1,
                                                visible=cell.visible, seed=seed).no_games
    no_games = carried.pop("no_games", "")
    if cell.visible:
        plan = PlayPlan.of(spec, practice_of(spec), practice=True)
        return check_play(ev, plan, points=cell.points, no_games=no_games)
    openings = graded_openings(cell.here, cell.question)
    ladder = ladder_of(spec)
    shares, warning = reference_shares(cell.here, ladder, int(spec["node_budget"]), openings)
    plan = PlayPlan.of(spec, openings, book_size=len(BOOK), reference=shares)
    report = check_play(ev, plan, points=cell.points, no_games=no_games)
    report.course_warning = warning
    return report


def evaluation_report(session: Session, fn: str, cell: EvaluationCell, *,
                      carried: dict[str, str] | None = None) -> EvaluationReport:
    """The trusted verdict of ``fn``, run in ``session``'s child (:func:`play_session`);
    ``carried``: the same dict for both of a notebook's cells (see :func:`verdict`)."""
    if problem := function_problem(fn, session.names.get(fn)):
        return EvaluationReport(cell.question, cell.points, [("nothing to grade", False, "")],
                                note=problem)
    return verdict(RemoteEvaluator(session, fn), cell, {} if carried is None else carried)


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
    report = verdict(LocalEvaluator(function), EvaluationCell(folder, question, points,
                                                               visible=True), {})
    head, _, rest = report.text().partition("\n")
    head += " (on the visible share)"
    print(head + "\n" + "-" * len(head) + rest.partition("\n")[2].join(["\n", ""]))
    if report.views:
        from IPython.display import HTML, display
        display(HTML("".join(report.views)))
    if os.environ.get("NBGRADER_EXECUTION") == "validate" and report.earned < points:
        # nbgrader's Validate dialog shows a test cell's stderr, and otherwise only "Partial
        # credit; passed some but not all of the tests": give it the points and the reason
        print(validate_summary(report), file=sys.stderr)
    return report.earned


def validate_summary(report: EvaluationReport) -> str:
    """What the Validate dialog says of a cell that earned less than its points: the points,
    what a scale means for the play question, and that the cell's output has the details of
    its last run (the student may have changed ``evaluate`` since).

    Play's rungs are each given (student pass 6 found only the cell's output said which cost
    the points):

    >>> r = EvaluationReport("play", 6, [("against random", True, ""),
    ...                                  ("against weak", False, ""),
    ...                                  ("against the kit", False, "")],
    ...                      scores=[(1.0, 1.0), (0.0, 1.0), (0.0, 1.0)])
    >>> print(validate_summary(r))
    play: 2 of 6 points on the visible share (against random 2/2, against weak 0/2,
      against the kit 0/2). Play is scored on a scale: each rung's points follow your
      share of the points in its games, so part of the points is usual (here the
      practice games; when your work is graded, the class's openings). The cell's
      output has the details of its last run (run it again after changing evaluate).
    """
    rungs = ", ".join(f"{label} {earned:g}/{worth:g}"
                      for label, earned, worth in report.item_points())
    text = (f"{report.question}: {report.earned:g} of {report.points:g} points on the visible "
            f"share{f' ({rungs})' if rungs else ''}.")
    if report.question == "play":
        text += (" Play is scored on a scale: each rung's points follow your share of the "
                 "points in its games, so part of the points is usual (here the practice "
                 "games; when your work is graded, the class's openings).")
    text += (" The cell's output has the details of its last run (run it again after "
             "changing evaluate).")
    return "\n".join(wrap(text, VALIDATE_WIDTH))
