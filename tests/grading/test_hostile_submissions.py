"""Hostile submissions through the real ``nbgrader autograde`` (the class command, in the
session's graded class: graded_class.py), in one batch with honest ones: each hostile
submission loses its points with a message that says why; the honest
students graded before and after them get exactly their usual scores; the gradebook exports
every row; the course's files are untouched; no process of the run is left.

The hostile samples are in ``tests/grading/hostile/a2_alphabeta/`` (same format as the
sample submissions: ``# expect:`` and ``# message:`` lines). Their attacks: replacing
``grade`` or grader internals (top level, inside the function), editing the test cell,
writing to, truncating or deleting ``gradebook.db``, another student's notebook,
``solutions/`` or the released assignment, reading ``solutions/``, background processes,
a loop of forks, an always-equal return value, ``os._exit`` (in the function, at the top
level), a 3 GB allocation, and reloading (or copying from its file) the kit's search modules
to undo the refusal of its searches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from graded_class import GradedClass

from minimaxkit.classroom.trial import parse_sample
from minimaxkit.isolation import bwrap

#: the graded class may be built in this module's first test, under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
HOSTILE = REPO / "tests" / "grading" / "hostile" / "a2_alphabeta"
HONEST = REPO / "tests" / "grading" / "submissions" / "a2_alphabeta"
ASSIGNMENT = "a2_alphabeta"


@pytest.fixture(scope="module")
def run(graded: GradedClass) -> dict[str, Any]:
    """The a2 class: a hostile sample's name -> its student id; every honest student of a2
    (the solution, the released notebook, the samples, the extras)."""
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    students = graded.students(ASSIGNMENT, "class")
    ids = {p.stem: graded.sample(p).student for p in sorted(HOSTILE.glob("*.py"))}
    honest = [s for s, g in students.items() if g.kind != "hostile"]
    return {"root": graded.root(), "ids": ids, "hostile": sorted(ids), "honest": honest,
            "scores": {ASSIGNMENT: {s: g.scores for s, g in students.items()}},
            "errors": graded.errors, "csv": graded.csv(), "left": graded.manifest["left"],
            "before": graded.manifest["before"], "after": graded.manifest["after"]}


def _text(root: Path, student: str) -> str:
    """What the student's autograded notebook printed."""
    nb = nbformat.read(str(root / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"), 4)
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs)


def test_every_submission_was_graded(run: dict[str, Any]) -> None:
    assert run["errors"] == []
    assert sorted(run["scores"][ASSIGNMENT]) == sorted([*run["ids"].values(), *run["honest"]])


def test_hostile_submissions_lose_their_points_and_say_why(run: dict[str, Any]) -> None:
    wrong = []
    for name in run["hostile"]:
        sample = parse_sample((HOSTILE / f"{name}.py").read_text())
        got = run["scores"][ASSIGNMENT][run["ids"][name]]["test_alphabeta"]
        if abs(got - sample.expect["test_alphabeta"]) > 0.011:
            wrong.append(f"{name}: {got}, expected {sample.expect['test_alphabeta']}")
        text = " ".join(_text(run["root"], run["ids"][name]).split())  # wrapped at 100
        wrong += [f"{name}: no {m!r} in its output" for m in sample.messages if m not in text]
    assert wrong == []


def test_a_cell_whose_kernel_died_has_no_count(run: dict[str, Any]) -> None:
    """Whether the kernel announced the cell's count before it died is a race (under load it
    often did): the autograded notebook, and so the feedback, must not depend on it."""
    died = []
    for p in (run["root"] / "autograded").glob(f"*/{ASSIGNMENT}/*.ipynb"):
        died += [c.execution_count for c in nbformat.read(str(p), 4).cells
                 if c.cell_type == "code" and any(o.get("ename") == "KernelDied"
                                                  for o in c.outputs)]
    assert len(died) >= 2 and set(died) == {None}  # exit_top's, exit_in_function's at least


def test_honest_students_keep_their_scores(run: dict[str, Any]) -> None:
    # the scores these samples get alone (their expect lines, which test_grading_roundtrip
    # checks in batches without hostile submissions), and full points for the solution
    expected = {name: parse_sample((HONEST / f"{name}.py").read_text()).expect["test_alphabeta"]
                for name in run["honest"] if (HONEST / f"{name}.py").is_file()}
    expected["solution"] = 8.0
    got = {s: run["scores"][ASSIGNMENT][s]["test_alphabeta"] for s in expected}
    assert got == expected
    # the notebook graded before the hostile ones (one of them tries to delete it) is whole
    assert "alphabeta: 8 of 8 points" in _text(run["root"], "solution")


def test_gradebook_exports_every_row(run: dict[str, Any]) -> None:
    rows = [ln.split(",") for ln in run["csv"].strip().splitlines()]
    header, body = rows[0], [r for r in rows[1:] if r[0] == ASSIGNMENT]
    students = {r[header.index("student_id")] for r in body}
    # nbgrader exports a row for every student of the gradebook (the class's other
    # assignments' students too, at 0): every graded a2 submission has its row
    assert students >= {*run["ids"].values(), *run["honest"]} == set(run["scores"][ASSIGNMENT])
    score = {r[header.index("student_id")]: float(r[header.index("score")]) for r in body}
    assert score["forge_top"] == 0.0 and score["solution"] == 8.0


def test_course_files_are_untouched(run: dict[str, Any]) -> None:
    root = run["root"]
    assert run["after"]["solutions"] == run["before"]["solutions"]
    assert (root / "gradebook.db").stat().st_size > 0
    released = nbformat.read(str(root / "assignments" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"), 4)
    assert any("def alphabeta" in c.source for c in released.cells)
    assert not (root / "solutions" / ASSIGNMENT / "hidden_tests.json").read_text() == "{}"


def test_hidden_tests_do_not_reach_the_feedback(run: dict[str, Any]) -> None:
    hidden = json.loads((REPO / "solutions" / ASSIGNMENT / "hidden_tests.json").read_text())
    assert hidden["salt"] not in _text(run["root"], "solutions")  # the one that reads it
    assert "blocked:" in _text(run["root"], "solutions")


def test_no_process_is_left(run: dict[str, Any]) -> None:
    assert run["left"] == []


def test_no_autograded_notebook_is_big(run: dict[str, Any]) -> None:
    """What a cell showed is cut to a stated size (sizes.OUTPUT_LIMIT), so a print of 20 MB
    (sample big_output.py) leaves a small notebook in autograded/ and so a small feedback."""
    sizes = {p.parts[-3]: p.stat().st_size
             for p in (run["root"] / "autograded").glob(f"*/{ASSIGNMENT}/*.ipynb")}
    assert "big_output" in sizes and max(sizes.values()) < 2_000_000, sizes
