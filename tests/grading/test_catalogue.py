"""The kit's catalogue of student programs (issue #35) graded for 40 student ids, in-process, on
every tree of each question (visible, hidden, and the seeded ones drawn for that id): no wrong
program earns full marks on the question it gets wrong for any id, no correct program loses a
point, and the bug each wrong program is catalogued with is the one its verdict names (for
every tree, with where it shows).

``python tests/grading/test_catalogue.py`` prints the results table: per program, the points it
loses on its question over the 40 ids (least, mean, most)."""

from __future__ import annotations

import statistics
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import (  # noqa: E402 - the helper lives beside the test
    ASSIGNMENTS,
    STUDENTS,
    Program,
    Question,
    grade_program,
    namespace,
    programs,
    questions,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@cache
def _graded(assignment: str) -> dict[tuple[str, str, str], Any]:
    """(program, grade id, student) -> the verdict's record, for every catalogued program of
    ``assignment`` on the questions it is judged on, for every student id."""
    qs = {q.grade_id: q for q in questions(assignment)}
    progs = programs(assignment)
    out = {}
    for student in STUDENTS:  # a student's seeded trees are shared by every program
        for p in progs:
            names = namespace(p)
            for q in _judged(p, qs):
                out[(p.name, q.grade_id, student)] = grade_program(p, q, student,
                                                                   names).record()
    return out


def _judged(p: Program, qs: dict[str, Question]) -> list[Question]:
    return [qs[p.question]] if not p.correct else list(qs.values())


def test_the_catalogue_holds_the_issues_programs() -> None:
    """Every classic mistake the issue lists is in the catalogue, in every assignment where it
    can be made, and each assignment has correct programs in several styles."""
    bugs = {(p.assignment, p.bug) for p in programs()}
    for needed in [("a1_minimax", "start_at_zero"), ("a1_minimax", "parity"),
                   ("a1_minimax", "leaf_not_checked"), ("a1_minimax", "move_always_max"),
                   ("a1_minimax", "fixed_depth"), ("a2_alphabeta", "start_at_zero"),
                   ("a2_alphabeta", "returns_bound"), ("a2_alphabeta", "shared_bounds"),
                   ("a3_move_ordering", "start_at_zero"), ("a4_deepening", "previous_only"),
                   ("a4_deepening", "first_move"), ("a4_deepening", "tie_last"),
                   ("a4_deepening", "start_at_zero"), ("a4_deepening", "leaf_not_checked"),
                   ("a4_deepening", "previous_not_first"), ("a4_deepening", "root_values")]:
        assert needed in bugs, needed
    for assignment in ASSIGNMENTS:
        assert sum(p.correct for p in programs(assignment)) >= 4, assignment


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_wrong_program_earns_full_marks_for_any_student(assignment: str) -> None:
    graded = _graded(assignment)
    qs = {q.grade_id: q for q in questions(assignment)}
    full = [f"{p.name} ({student})" for p in programs(assignment) if not p.correct
            for student in STUDENTS
            if graded[(p.name, p.question, student)].earned >= qs[p.question].points]
    assert full == []


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_correct_program_keeps_full_marks_for_every_student(assignment: str) -> None:
    graded = _graded(assignment)
    qs = {q.grade_id: q for q in questions(assignment)}
    lost = [f"{p.name} {q.grade_id} ({student}): {graded[(p.name, q.grade_id, student)].earned}"
            for p in programs(assignment) if p.correct for q in qs.values()
            for student in STUDENTS
            if graded[(p.name, q.grade_id, student)].earned < q.points]
    assert lost == []


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_verdict_names_the_catalogued_bug_for_every_student(assignment: str) -> None:
    """The bug is named as the one that accounts for every tree (where more than one bug
    does, among them), and, for the bugs whose place can be said, where it shows."""
    graded = _graded(assignment)
    unnamed = [f"{p.name} ({student}): {graded[(p.name, p.question, student)].bugs}"
               for p in programs(assignment) if p.bug for student in STUDENTS
               if p.bug not in graded[(p.name, p.question, student)].bugs]
    assert unnamed == []
    placed = {"start_at_zero", "parity", "returns_bound", "leaf_not_checked",
              "move_always_max", "fixed_depth", "previous_not_first"}
    unplaced = [f"{p.name} ({student})" for p in programs(assignment)
                if p.bug in placed for student in STUDENTS
                if graded[(p.name, p.question, student)].bugs[0] == p.bug
                and "it shows" not in graded[(p.name, p.question, student)].shown]
    assert unplaced == []


def results_table() -> list[str]:
    """Per wrong program: its question, the bug named, the points it loses over the ids."""
    lines = ["| assignment | program | question | bug named | points lost (least / mean / "
             "most of the question's) |", "| --- | --- | --- | --- | --- |"]
    for assignment in ASSIGNMENTS:
        graded = _graded(assignment)
        qs = {q.grade_id: q for q in questions(assignment)}
        for p in programs(assignment):
            if p.correct:
                continue
            lost = [qs[p.question].points - graded[(p.name, p.question, s)].earned
                    for s in STUDENTS]
            lines.append(f"| {assignment} | {p.name} | {p.question} | {p.bug or '-'} | "
                         f"{min(lost):g} / {statistics.mean(lost):.2f} / {max(lost):g} of "
                         f"{qs[p.question].points:g} |")
    return lines


if __name__ == "__main__":
    print("\n".join(results_table()))
