"""Assignment 5 autograded as a class (``python -m minimaxkit.grading.autograde``) through real
nbgrader: the solution, the released notebook and samples of each kind give the same
gradebook rows, grades.csv and feedback (but the milliseconds a board measured) as serial
``nbgrader autograde``; the class report's games and failed items agree with the gradebook.
Both classes play few games (:data:`FEW`: 8 a submission, not 128): what is compared is the
two ways of grading, not the grades.
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_a5_evaluation import with_fewer_games
from test_class_autograde import gradebook_rows, make_class, run, submissions

from minimaxkit.classroom.trial import prepare_course
from minimaxkit.isolation import bwrap

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

REPO = Path(__file__).resolve().parents[2]
NAME = "a5_evaluation"
FEW = {"random": 1, "weak": 1, "kit": 2}  # openings a rung
#: the submissions both ways grade: games played, forfeited, none (too slow, nothing to
#: grade), a hostile one; every sample is graded through nbgrader in test_a5_evaluation.py
SUBSET = ("solution", "released", "weak", "constant", "raises", "slow", "hostile")


@pytest.fixture(scope="module")
def courses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    base = tmp_path_factory.mktemp("class_a5")
    subs = {k: v for k, v in submissions(NAME).items() if k in SUBSET}
    assert set(subs) == set(SUBSET)
    roots = {k: make_class(with_fewer_games(prepare_course(REPO, base / k), FEW),
                           {NAME: subs}) for k in ("serial", "par")}
    serial = subprocess.Popen([sys.executable, "-m", "nbgrader", "autograde", NAME],
                              cwd=roots["serial"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    run(roots["par"], "minimaxkit.grading.autograde", NAME, "--workers", "2")
    log = serial.communicate(timeout=1500)[0]
    assert serial.returncode == 0, log[-3000:]
    for root in roots.values():
        run(root, "nbgrader", "generate_feedback", NAME)
        run(root, "nbgrader", "export")
    run(roots["par"], "minimaxkit.classroom.report", NAME)
    return roots


def _page(path: Path) -> str:
    """A feedback page without the figures that are measured, not computed."""
    return re.sub(r"[\d.]+(e-\d+)? ms (of processor time )?(per|a) board", "N ms a board",
                  path.read_text())


def test_the_same_rows_grades_and_feedback_as_serial_nbgrader(courses: dict[str, Path]) -> None:
    rows = gradebook_rows(courses["par"])
    assert len(rows) == len(SUBSET) and rows == gradebook_rows(courses["serial"])
    assert (courses["par"] / "grades.csv").read_text() == \
        (courses["serial"] / "grades.csv").read_text()
    pages = sorted(p.relative_to(courses["par"]) for p in
                   (courses["par"] / "feedback").rglob("*.html"))
    assert len(pages) == len(rows)
    assert [str(p) for p in pages if _page(courses["par"] / p) !=
            _page(courses["serial"] / p)] == []


def test_the_report_of_games_and_items_agrees_with_the_gradebook(
        courses: dict[str, Path]) -> None:
    folder = courses["par"] / "reports" / NAME
    rows = list(csv.DictReader(open(folder / "report.csv", encoding="utf-8")))
    book = {s: {g[0]: g[1] for g in r["grades"]} for (_, s), r in
            gradebook_rows(courses["par"]).items()}
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
        assert games == 2 * FEW[rung] * len(book) and won + drawn + lost == games
    assert "<script" not in page
