"""A representative subset of the kit's catalogue of student programs (issue #35) through real
``nbgrader autograde`` (the sandboxed kernel, the trusted grader): the points of every test
cell are those the in-process grading of ``test_catalogue.py`` gives the same student id, each
wrong program loses points on its question, each correct one keeps them all, and the verdict
the trusted grader records names the catalogued bug. (Measured under load, on 2 cores: the 12
autogrades took about 3 minutes; 14 now.)"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.classroom.trial import prepare_course, solution_cells, trial_run
from minimaxkit.isolation import bwrap

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import (  # noqa: E402 - the helper lives beside the test
    REPO,
    Program,
    grade_program,
    programs,
    questions,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

#: one or two programs of each kind of mistake the issue lists, and correct ones in the styles
#: most easily mistaken for wrong ones
SUBSET = ["a1_minimax/max_from_zero", "a1_minimax/limited_no_leaf_check",
          "a1_minimax/move_depth_two", "a1_minimax/ok_pair_lecture",
          "a2_alphabeta/returns_alpha", "a2_alphabeta/start_at_zero",
          "a2_alphabeta/ok_tutorial_clamped", "a2_alphabeta/ok_sheet_loop",
          "a3_move_ordering/order_parity", "a3_move_ordering/ab_start_at_zero",
          "a3_move_ordering/order_ties_reversed_min",
          "a4_deepening/previous_only", "a4_deepening/previous_not_first",
          "a4_deepening/ok_one_sided_strict"]


def _cells(program: Program) -> dict[str, str]:
    """Every solution cell: the program's, else the solution's (as the in-process grading)."""
    solution = solution_cells(REPO / "solutions" / program.assignment /
                              f"{program.assignment}.ipynb")
    return {**solution, **program.cells}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    chosen = {p.label: p for p in programs() if p.label in SUBSET}
    assert sorted(chosen) == sorted(SUBSET)
    root = prepare_course(REPO, tmp_path_factory.mktemp("catalogue") / "course")
    run = trial_run(root, [(p.assignment, p.name, _cells(p)) for p in chosen.values()],
                    feedback=False, export=False)
    assert run.errors == []
    return {"root": root, "scores": run.scores, "programs": chosen}


def _verdict(root: Path, program: Program, grade_id: str) -> dict[str, Any]:
    path = root / "autograded" / program.name / program.assignment / \
        f"{program.assignment}.ipynb"
    cell = next(c for c in nbformat.read(str(path), as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    return dict(cell.metadata["minimaxkit"]["verdict"])


@pytest.mark.parametrize("label", SUBSET)
def test_nbgrader_agrees_with_the_in_process_grading(graded: dict[str, Any],
                                                     label: str) -> None:
    program = graded["programs"][label]
    got = graded["scores"][program.assignment][program.name]
    for q in questions(program.assignment):
        expected = grade_program(program, q, program.name).earned
        assert got[q.grade_id] == pytest.approx(expected), (q.grade_id, got, expected)
        if program.correct:
            assert got[q.grade_id] == q.points, q.grade_id
        elif q.grade_id == program.question:
            assert got[q.grade_id] < q.points
        # (a wrong function another question's solution calls costs there too: a1's
        # best_move calls minimax_limited, a3's ordered_alphabeta order_children, except an
        # order_children whose only mistake is reversed ties: see the test below)
    if program.bug:
        assert program.bug in _verdict(graded["root"], program, program.question)["bugs"]


def test_reversed_ties_cost_points_once_through_nbgrader(graded: dict[str, Any]) -> None:
    """An order_children that reverses ties at MIN nodes loses points on its own question; the
    solution's ordered_alphabeta, which searches in that order, keeps all of its points, and
    the feedback says why (docs/grading.md, *Assignment 3's ties*)."""
    program = graded["programs"]["a3_move_ordering/order_ties_reversed_min"]
    got = graded["scores"]["a3_move_ordering"][program.name]
    points = {q.grade_id: q.points for q in questions("a3_move_ordering")}
    assert got["test_order"] < points["test_order"]
    assert got["test_ordered_alphabeta"] == points["test_ordered_alphabeta"]
    path = graded["root"] / "autograded" / program.name / program.assignment / \
        f"{program.assignment}.ipynb"
    text = " ".join("".join(o.get("text", "") for c in nbformat.read(str(path), 4).cells
                            for o in c.get("outputs", [])).split())
    assert "the ties cost points in order_children's question only" in text
