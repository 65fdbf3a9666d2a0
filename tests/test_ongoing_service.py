"""The decisions of the grading-on-submission service (minimaxkit.classroom.ongoing): which
submission is graded, when one waits or is superseded, which trees count before and after
the due date, that a failing grading never stops the others, and that a restart grades
what it was grading. The exchange's inbound folder, the ledger and nbgrader's gradebook
(the due date) are real; the grading itself is a recording stand-in here (the hub's term
test, tests/hub/test_term.py, runs the real one end to end).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from minimaxkit.classroom.ongoing.inbound import Submission
from minimaxkit.classroom.ongoing.service import OngoingGrader, Places, Policy, Runtime
from minimaxkit.classroom.ongoing.steps import Outcome, StepFailed

A = "a1_minimax"
DUE = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Grades:
    """Stands for collect, autograde, feedback: records each call; a student listed in
    ``fails`` makes it raise; writes the folders the history copies."""

    def __init__(self, course: Path, fails: tuple[str, ...] = ()) -> None:
        self.course, self.fails = course, fails
        self.calls: list[tuple[str, str, str]] = []

    def __call__(self, course: Path, sub: Submission, *, trees: str,
                 timeout: float) -> Outcome:
        self.calls.append((sub.student, sub.time.strftime("%H:%M"), trees))
        if sub.student in self.fails:
            raise StepFailed("autograde exited 1: not graded")
        for part in ("autograded", "feedback"):
            folder = course / part / sub.student / sub.assignment
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{A}.{'ipynb' if part == 'autograded' else 'html'}").write_text(
                f"{sub.name} {trees}")
        return Outcome(13.0 if trees == "visible" else 11.0, 13.0, sub.time.isoformat())


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A gradebook whose assignment is due at DUE (made once: nbgrader runs alembic)."""
    from nbgrader.api import Gradebook

    path = tmp_path_factory.mktemp("gradebook") / "gradebook.db"
    bindir = str(Path(sys.executable).parent)
    before = os.environ["PATH"]
    os.environ["PATH"] = f"{bindir}{os.pathsep}{before}"  # nbgrader's alembic
    try:
        with Gradebook(f"sqlite:///{path}") as gb:
            gb.update_or_create_assignment(A, duedate=DUE.replace(tzinfo=None))
    finally:
        os.environ["PATH"] = before
    return path


@pytest.fixture
def course(tmp_path: Path, gradebook: Path) -> dict[str, Any]:
    root = tmp_path / "course"
    inbound = tmp_path / "exchange" / "minimaxkit" / "inbound"
    inbound.mkdir(parents=True)
    (root / "ongoing").mkdir(parents=True)
    shutil.copy(gradebook, root / "gradebook.db")
    return {"root": root, "inbound": inbound, "places": Places(root, inbound, root / "ongoing")}


def submit(course: dict[str, Any], student: str, when: datetime, assignment: str = A) -> str:
    name = f"{student}+{assignment}+{when:%Y-%m-%d %H:%M:%S.%f} UTC+r4nd0m"
    (course["inbound"] / name).mkdir()
    return name


def service(course: dict[str, Any], clock: Clock, grades: Grades, **policy: Any
            ) -> OngoingGrader:
    return OngoingGrader(course["places"], Policy((A,), **policy),
                         Runtime(io.StringIO(), clock, grades))


def ledger(course: dict[str, Any]) -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(
        (course["places"].state / "ledger.json").read_text())
    return data


def test_the_newest_of_each_student_is_graded_once(course: dict[str, Any]) -> None:
    clock, grades = Clock(T0 + timedelta(hours=1)), Grades(course["root"])
    old = submit(course, "alice", T0)
    new = submit(course, "alice", T0 + timedelta(minutes=5))
    submit(course, "bob", T0 + timedelta(minutes=2))
    submit(course, "carol", T0, assignment="a2_alphabeta")  # not graded on submission
    grader = service(course, clock, grades)
    assert grader.pass_once() == 2
    # oldest first: bob's (09:02) before alice's newest (09:05); alice's first is superseded
    assert grades.calls == [("bob", "09:02", "visible"), ("alice", "09:05", "visible")]
    entries = ledger(course)
    assert entries[old]["status"] == "superseded" and entries[new]["status"] == "graded"
    assert grader.pass_once() == 0  # nothing new: nothing graded again
    # the history keeps the graded submission's notebook, feedback and grade
    kept = course["places"].state / "history" / "alice" / A / "2026-03-02T090500.000000Z"
    assert (kept / "feedback" / f"{A}.html").read_text().endswith("visible")
    assert json.loads((kept / "grade.json").read_text())["score"] == 13.0


def test_a_failing_submission_does_not_stop_the_next(course: dict[str, Any]) -> None:
    clock, grades = Clock(T0 + timedelta(hours=1)), Grades(course["root"], fails=("mallory",))
    bad = submit(course, "mallory", T0)
    good = submit(course, "bob", T0 + timedelta(minutes=1))
    assert service(course, clock, grades).pass_once() == 1
    entries = ledger(course)
    assert entries[bad]["status"] == "failed" and "not graded" in entries[bad]["detail"]
    assert entries[good]["status"] == "graded"


def test_past_the_daily_cap_a_submission_waits_for_the_next_day(
        course: dict[str, Any]) -> None:
    clock, grades = Clock(T0 + timedelta(minutes=1)), Grades(course["root"])
    grader = service(course, clock, grades, daily_cap=2)
    for i in range(2):
        submit(course, "alice", T0 + timedelta(minutes=10 * i))
        clock.now = T0 + timedelta(minutes=10 * i + 1)
        assert grader.pass_once() == 1
    third = submit(course, "alice", T0 + timedelta(minutes=30))
    clock.now = T0 + timedelta(minutes=31)
    assert grader.pass_once() == 0
    assert ledger(course)[third]["status"] == "waiting"
    assert ledger(course)[third]["detail"] == "2 graded today already"
    clock.now = T0 + timedelta(days=1)  # a new day (UTC)
    assert grader.pass_once() == 1
    assert ledger(course)[third]["status"] == "graded"


def test_visible_trees_before_the_due_date_all_after(course: dict[str, Any]) -> None:
    clock, grades = Clock(DUE - timedelta(hours=1)), Grades(course["root"])
    name = submit(course, "alice", DUE - timedelta(hours=2))
    grader = service(course, clock, grades, daily_cap=1)
    assert grader.pass_once() == 1
    clock.now = DUE + timedelta(minutes=1)
    # once the due date has passed, graded again with every tree, whatever the cap says
    assert grader.pass_once() == 1
    assert grader.pass_once() == 0
    assert [trees for *_, trees in grades.calls] == ["visible", "all"]
    entry = ledger(course)[name]
    assert (entry["trees"], entry["score"]) == ("all", 11.0)
    history = sorted((course["places"].state / "history" / "alice" / A).iterdir())
    assert [p.name[-4:] for p in history] == ["000Z", "-all"]  # both kept
    # a late submission is graded with every tree at once
    submit(course, "bob", DUE + timedelta(minutes=5))
    clock.now = DUE + timedelta(minutes=6)
    assert grader.pass_once() == 1 and grades.calls[-1] == ("bob", "12:05", "all")


def test_a_restart_grades_what_was_being_graded(course: dict[str, Any]) -> None:
    clock, grades = Clock(T0 + timedelta(hours=1)), Grades(course["root"])
    name = submit(course, "alice", T0)
    first = service(course, clock, grades)
    first.ledger.put(name, first.ledger.get(name) or _grading(name))  # stopped mid-grading
    assert ledger(course)[name]["status"] == "grading"
    restarted = service(course, clock, grades)
    assert restarted.pass_once() == 1
    assert ledger(course)[name]["status"] == "graded"


def _grading(name: str) -> Any:
    from minimaxkit.classroom.ongoing.inbound import parse_inbound
    from minimaxkit.classroom.ongoing.ledger import Entry

    sub = parse_inbound(name)
    assert sub is not None
    return Entry(sub.student, sub.assignment, sub.time.isoformat(), "grading", trees="visible")


def test_the_policy_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="before_deadline"):
        Policy((A,), before_deadline="hidden")
    with pytest.raises(ValueError, match="no assignment"):
        Policy(())
    with pytest.raises(ValueError, match="daily_cap"):
        Policy((A,), daily_cap=-1)
