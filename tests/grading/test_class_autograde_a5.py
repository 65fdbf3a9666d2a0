"""Assignment 5 autograded as a class (``python -m minimaxkit.grading.autograde``) through real
nbgrader: in the session's graded class (graded_class.py), the a5 samples of the "a5-fewer"
course, and a stratified subset of them (:data:`SUBSET`) graded again by serial ``nbgrader
autograde`` in a course of its own with the same games, give the same gradebook rows,
grades.csv and feedback (but the milliseconds a board measured); the class report's games and
failed items agree with the gradebook, in both courses that grade a5 as a class. What is
compared is the two ways of grading, not the grades (test_a5_evaluation.py checks those).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from graded_class import A5_FEWER, GradedClass, plan, submit, with_openings
from test_class_autograde import gradebook_rows, run

from minimaxkit.classroom.trial import prepare_course
from minimaxkit.isolation import bwrap

#: the graded class may be built in this module's first test, under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
NAME = "a5_evaluation"
#: the submissions both ways grade, one of each kind: games played, forfeited, none (too
#: slow), a hostile one
SUBSET = ("weak", "raises", "slow", "hostile")
#: openings a rung as the course is designed
DESIGN = {rung["name"]: rung["openings"] for rung in json.loads(
    (REPO / "solutions" / NAME / "tests.json").read_text())["questions"]["play"]["ladder"]}


@pytest.fixture(scope="module")
def courses(request: pytest.FixtureRequest,
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = prepare_course(REPO, tmp_path_factory.mktemp("class_a5") / "serial")
    with_openings(root, A5_FEWER)
    subs = [p for p in plan() if p.course == "a5-fewer" and p.student in SUBSET]
    assert {p.student for p in subs} == set(SUBSET)
    submit(root, subs)
    run(root, "nbgrader", "autograde", NAME)
    run(root, "nbgrader", "generate_feedback", NAME)
    run(root, "nbgrader", "export")
    graded: GradedClass = request.getfixturevalue("graded")  # built meanwhile, if it was not
    return {"serial": root, "par": graded.root("a5-fewer"), "class": graded.root("class")}


def _page(path: Path) -> str:
    """A feedback page without the figures that are measured, not computed. Its spaces and
    line breaks are read as one space: a verdict is folded into lines, and a figure one digit
    longer (or a fold between "a" and "board") moves the fold."""
    text = re.sub(r"\s+", " ", path.read_text())
    return re.sub(r"[\d.]+(e[-+]\d+)? ms (of processor time )?(per|a) board", "N ms a board",
                  text)


def _csv(path: Path) -> list[list[str]]:
    """grades.csv's header and the subset's rows."""
    rows = list(csv.reader(io.StringIO(path.read_text())))
    return [rows[0]] + [r for r in rows[1:] if r[3] in SUBSET]


def test_the_same_rows_grades_and_feedback_as_serial_nbgrader(courses: dict[str, Path]) -> None:
    rows = {k: r for k, r in gradebook_rows(courses["par"]).items() if k[1] in SUBSET}
    assert len(rows) == len(SUBSET) and rows == gradebook_rows(courses["serial"])
    assert _csv(courses["par"] / "grades.csv") == _csv(courses["serial"] / "grades.csv")
    pages = sorted(p.relative_to(courses["par"]) for p in
                   (courses["par"] / "feedback").rglob("*.html") if p.parts[-3] in SUBSET)
    assert len(pages) == len(rows)
    assert [str(p) for p in pages if _page(courses["par"] / p) !=
            _page(courses["serial"] / p)] == []


@pytest.mark.parametrize(("course", "openings"), [("par", A5_FEWER), ("class", DESIGN)])
def test_the_report_of_games_and_items_agrees_with_the_gradebook(
        courses: dict[str, Path], course: str, openings: dict[str, int]) -> None:
    folder = courses[course] / "reports" / NAME
    rows = list(csv.DictReader(open(folder / "report.csv", encoding="utf-8")))
    book = {s: {g[0]: g[1] for g in r["grades"]} for (a, s), r in
            gradebook_rows(courses[course]).items() if a == NAME}
    for r in rows:
        failed = len(list(filter(None, r["items_failed"].split(";"))))
        score = book[r["student"]][r["cell"]]
        assert float(r["score"]) == score
        if r["items_failed"] == "nothing to grade":  # the released notebook: no evaluate
            assert score == 0
            continue
        lost = float(r["max_score"]) - score
        if r["question"] == "correctness":  # 5 items of 1 point
            assert failed == lost, r
        else:  # 3 rungs of 2 points, each on its scale: a rung short of 2 is failed
            assert (failed == 0) == (lost == 0) and failed >= lost / 2, r
    page = (folder / "index.html").read_text()
    # each student plays the rung's openings x 2 colours against each rung
    for rung in ("random", "weak", "kit"):
        cells = re.search(rf"<td>test_play</td><td>{rung}</td><td>(\d+)</td><td>(\d+)</td>"
                          r"<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>", page)
        assert cells is not None, rung
        games, won, drawn, lost, _ = map(int, cells.groups())
        assert games == 2 * openings[rung] * len(book) and won + drawn + lost == games
    assert "<script" not in page
