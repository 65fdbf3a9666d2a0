"""The class report counts only what the grader knows (issue #35), on a class with planted
bugs: every wrong program of assignment 2 in the kit's catalogue submitted once, a stub (the
released notebook, which raises NotImplementedError), the solution and a tutorial-style
fail-hard program, autograded by the class command (``python -m
minimaxkit.grading.autograde``, real nbgrader, the sandbox) and read by ``python -m
minimaxkit.grading.report``.

Each planted bug is counted once, for the student who planted it, under one heading (the bugs
the grader could not tell apart together); no student is counted under two headings; the stub
is its own row, "did not finish", counted under no convention and no bug; a search with no
pruning is counted under no convention of its own.
"""

from __future__ import annotations

import csv
import html
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from minimaxkit.classroom.report import NOT_FINISHED, NOT_READ
from minimaxkit.classroom.trial import (
    make_submission,
    nbgrader_api,
    prepare_course,
    solution_cells,
)
from minimaxkit.grading.verdicts.bugs import BUGS
from minimaxkit.isolation import bwrap

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import REPO, programs  # noqa: E402 - the helper lives beside the test

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]
A2 = "a2_alphabeta"


def _run(root: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", *args], cwd=root, capture_output=True,
                          text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = prepare_course(REPO, tmp_path_factory.mktemp("class") / "course")
    assert nbgrader_api(root).generate_assignment(A2)["success"]
    released = root / "assignments" / A2 / f"{A2}.ipynb"
    planted = {p.name: p for p in programs(A2) if not p.correct}
    cells = {name: p.cells for name, p in planted.items()}
    cells["stub"] = {}
    cells["solution"] = solution_cells(REPO / "solutions" / A2 / f"{A2}.ipynb")
    cells["tutorial"] = next(p.cells for p in programs(A2) if p.name == "ok_tutorial_clamped")
    for student, code in cells.items():
        make_submission(released, code, root / "submitted" / student / A2 / released.name)
    _run(root, "minimaxkit.grading.autograde", A2, "--workers", "2")
    _run(root, "minimaxkit.grading.report", A2)
    folder = root / "reports" / A2
    rows = {r["student"]: r for r in csv.DictReader(open(folder / "report.csv",
                                                         encoding="utf-8"))}
    return {"planted": planted, "rows": rows,
            "page": (folder / "index.html").read_text(encoding="utf-8")}


def _headings(page: str) -> dict[str, tuple[int, list[str]]]:
    """Each bug heading (the bugs' names joined by " or "): its count and the students
    named under it."""
    found = re.findall(r"<h3>test_alphabeta: ([^<]*), (\d+) of \d+ \(\d+%\)</h3>"
                       r"(?:<p>[^<]*</p>)*?<p>Named for: ([^<]*)</p>", page)
    return {html.unescape(title): (int(n), html.unescape(who).split(", "))
            for title, n, who in found}


def test_each_planted_bug_is_counted_once_for_its_student(report: dict[str, Any]) -> None:
    rows, planted = report["rows"], report["planted"]
    for name, program in planted.items():
        named = set(filter(None, rows[name]["bugs"].split(";")))
        if program.bug:
            assert program.bug in named, (name, named)
    headings = _headings(report["page"])
    counted = [s for _, who in headings.values() for s in who]
    assert len(counted) == len(set(counted)), "a student under two headings"
    for title, (n, who) in headings.items():
        assert n == len(who)
        bugs = {b for b, bug in BUGS.items() if bug.advice.split(":")[0] in title.split(" or ")}
        assert all(set(filter(None, rows[s]["bugs"].split(";"))) == bugs for s in who), title
    assert not {"stub", "solution", "tutorial"} & set(counted)


def test_a_bug_that_fits_some_trees_only_is_not_counted_as_named(report: dict[str, Any]) -> None:
    rows = report["rows"]
    for student, row in rows.items():
        if row["fits_some_trees"]:
            assert row["bugs"] == "", student
    counted = {s for _, who in _headings(report["page"]).values() for s in who}
    assert {s for s, r in rows.items() if r["bugs"]} == counted


def test_the_stub_did_not_finish_and_is_counted_under_no_convention(
        report: dict[str, Any]) -> None:
    rows, page = report["rows"], report["page"]
    stub = rows["stub"]
    # report.csv: "finished" says it; the convention column holds conventions only
    assert (stub["score"], stub["finished"], stub["bugs"], stub["convention"]) == \
        ("0.0", "no", "", "")
    assert not any("did not finish" in row["convention"] for row in rows.values())
    # the conventions' table: the stub alone on its row, and no planted search that never
    # cuts under a convention of its own
    table = html.unescape(page[page.index("Conventions graded under"):])
    assert re.search(rf"<td>test_alphabeta</td><td>{re.escape(NOT_FINISHED)}</td><td>1</td>",
                     table)
    assert rows["no_pruning"]["convention"] == NOT_READ
    assert rows["solution"]["convention"] == "cut on equality (v ≥ β, v ≤ α), fail-soft"
    assert rows["tutorial"]["convention"] == "cut on equality (v ≥ β, v ≤ α), fail-hard"
    assert "returns_bound" in rows["returns_alpha"]["bugs"].split(";")


def test_the_counts_say_what_they_count(report: dict[str, Any]) -> None:
    page = html.unescape(report["page"])
    assert "A bug is counted where it accounts for every tree of a submission" in page
    # the trees' count is of answers: one question (test_alphabeta), one answer a submission
    n = len(report["rows"])
    assert re.search(rf"\d+ of {n} answers \({n} submissions × 1 question\) were right on "
                     "every visible tree of their question", page), page
    assert "<script" not in page
