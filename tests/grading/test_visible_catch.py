"""The released (visible) trees of a1 and a2 show the classic bugs before a student submits
(lecturer review 2, finding 3): each catalogued program with one of them loses points on its
question when graded as the student's own ``grade(...)`` grades it, on the visible trees of
the released copy only, and each correct program keeps every visible point.

Before the small MIN-root trees with values below 0 were added, every program listed in
``CAUGHT`` here earned full visible marks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import (  # noqa: E402 - the helper lives beside the test
    REPO,
    InProcess,
    Program,
    Question,
    _defined,
    namespace,
    programs,
    questions,
)

from minimaxkit.grading.api.grade import GradeReport, grade_report  # noqa: E402

#: (assignment, program) -> the bug the visible trees must now catch and name
CAUGHT = {
    ("a1_minimax", "max_from_zero"): "start_at_zero",
    ("a1_minimax", "parity"): "parity",
    ("a1_minimax", "limited_parity"): "parity",
    ("a1_minimax", "limited_no_leaf_check"): "leaf_not_checked",
    ("a1_minimax", "limited_no_leaf_check_inf"): "leaf_not_checked",
    ("a1_minimax", "limited_max_from_zero"): "start_at_zero",
    ("a1_minimax", "move_always_max"): "move_always_max",
    ("a1_minimax", "move_from_zero"): "start_at_zero",
    ("a2_alphabeta", "start_at_zero"): "start_at_zero",
    ("a2_alphabeta", "parity"): "parity",
}


def _visible(p: Program, q: Question) -> GradeReport:
    """``q`` of ``p`` graded as the released notebook's cell grades it: visible trees only."""
    return grade_report(q.fn, q.question, points=q.points, hidden=False,
                        here=REPO / "assignments" / p.assignment, names=namespace(p),
                        runner=InProcess(), student="student00", program=dict(_defined(p)))


def _program(assignment: str, name: str) -> Program:
    return next(p for p in programs(assignment) if p.name == name)


@pytest.mark.parametrize(("assignment", "name"), sorted(CAUGHT))
def test_a_classic_bug_loses_visible_points_and_is_named(assignment: str, name: str) -> None:
    p = _program(assignment, name)
    q = next(q for q in questions(assignment) if q.grade_id == p.question)
    report = _visible(p, q)
    assert report.earned < report.available, (name, report.text())
    assert CAUGHT[(assignment, name)] in report.record().bugs, (name, report.text())


@pytest.mark.parametrize("assignment", ["a1_minimax", "a2_alphabeta"])
def test_every_correct_style_keeps_every_visible_point(assignment: str) -> None:
    lost = []
    for p in programs(assignment):
        if not p.correct:
            continue
        for q in questions(assignment):
            report = _visible(p, q)
            if report.earned < report.available:
                lost.append(f"{p.name} {q.grade_id}: {report.earned} of {report.available}")
    assert lost == []


def test_each_new_tree_has_what_catches_the_bugs() -> None:
    """A MIN root, values below 0, leaves at several depths (in a1 one above the depth
    limit), as the released file holds them."""
    import json

    from minimaxkit.grading.testdata.trees import build_tree

    for assignment, question, name in [("a1_minimax", "minimax", "below-zero"),
                                       ("a1_minimax", "minimax_limited", "below-zero-depth-2"),
                                       ("a1_minimax", "best_move", "min-root-move"),
                                       ("a2_alphabeta", "alphabeta", "below-zero")]:
        data = json.loads((REPO / "assignments" / assignment / "tests.json").read_text())
        entry = next(t for t in data["questions"][question]["trees"] if t["name"] == name)
        tree = build_tree(entry["tree"])
        assert not tree.root.is_max
        depths = {len(n.path) for n in tree.leaves()}
        assert len(depths) > 1  # leaves at several depths
        if assignment == "a1_minimax":
            assert min(depths) == 1  # a leaf above the depth limits asked (1 and 2)
        assert min(n.value for n in tree.leaves() if n.value is not None) < 0
