"""Validate tells the truth (issue #36): the student ran the test cell with a right alphabeta
(the output says 6 of 6), then broke the function and pressed Validate without running the
cell again. The dialog's verdict (nbgrader runs the saved cells again) is not the cell's: it
must not say "the cell's output has the details", but that the code changed since the cell
ran. Real ``nbgrader validate`` on the released notebook; the student's runs in a real
kernel through nbclient, as the Lab's Run does."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from minimaxkit.classroom.trial import make_submission, parse_sample, solution_cells
from minimaxkit.grading.api.stamps import METADATA_KEY, Stamp

REPO = Path(__file__).resolve().parents[2]
RELEASED = REPO / "assignments" / "a2_alphabeta" / "a2_alphabeta.ipynb"
BUGGY = parse_sample((REPO / "tests" / "grading" / "submissions" / "a2_alphabeta" /
                      "alpha_never_updated.py").read_text()).cells["alphabeta"]
OUT_OF_DATE = "your code changed since this cell last ran"
SEE_OUTPUT = "the cell's output has the details and a picture"


def run_as_student(path: Path) -> None:
    """Run every cell as the student's Run All does (in a kernel, not under nbgrader), and
    save the notebook."""
    nb = nbformat.read(str(path), as_version=4)
    assert "NBGRADER_EXECUTION" not in os.environ
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(nb, str(path))


def edit_answer(path: Path, source: str) -> None:
    """Replace the alphabeta answer cell's code, as typing it in and saving does (every
    output left as it was)."""
    nb = nbformat.read(str(path), as_version=4)
    [cell] = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "alphabeta"]
    cell.source = source
    nbformat.write(nb, str(path))


def grade_cell(path: Path) -> dict[str, Any]:
    """The saved test cell of alphabeta."""
    nb = nbformat.read(str(path), as_version=4)  # multi-line texts joined
    return next(c for c in nb.cells if c.cell_type == "code"
                and 'grade("alphabeta"' in c.source)


def points(text: str) -> str:
    """The points a verdict's first line gives: "6" in "alphabeta: 6 of 6 points"."""
    found = re.search(r"alphabeta: ([\d./]+) of 6 points on the visible trees", text)
    assert found is not None, text[-3000:]
    return found.group(1)


def shown(path: Path) -> str:
    """What the saved test cell prints."""
    return " ".join("".join(o.get("text", "") for o in grade_cell(path)["outputs"]
                            if o["output_type"] == "stream").split())


def validate(path: Path) -> str:
    """``nbgrader validate`` of the notebook, in its folder, as one line of text."""
    done = subprocess.run([sys.executable, "-m", "nbgrader", "validate", path.name],
                          cwd=path.parent, capture_output=True, text=True, timeout=600)
    return " ".join((done.stdout + done.stderr).split())


def test_validate_says_when_the_cells_output_is_out_of_date(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    path = make_submission(RELEASED, solution_cells(REPO / "solutions" / "a2_alphabeta" /
                                                    "a2_alphabeta.ipynb"),
                           tmp_path / "a2_alphabeta.ipynb")
    run_as_student(path)
    # the run cell shows its verdict; its result carries the stamp of the code, nothing more
    assert points(shown(path)) == "6"
    [result] = [o for o in grade_cell(path)["outputs"] if o["output_type"] == "execute_result"]
    assert result["data"] == {"text/plain": "6.0"}  # what nbgrader reads as the points
    stamp = Stamp.from_metadata(result["metadata"])
    assert stamp is not None and stamp.question == "alphabeta" and len(stamp.code) == 16
    assert set(result["metadata"]) == {METADATA_KEY}

    edit_answer(path, BUGGY)  # typed in and saved (the Validate button saves first)
    said = validate(path)
    assert "VALIDATION FAILED" in said
    assert points(shown(path)) == "6" and points(said) != "6"  # the cell and dialog differ,
    assert OUT_OF_DATE in said and "run the cell again" in said  # and the dialog says why
    assert SEE_OUTPUT not in said

    run_as_student(path)  # the edited code run: the cell shows its own verdict now
    said = validate(path)
    assert points(shown(path)) == points(said) != "6"  # they agree,
    assert SEE_OUTPUT in said and OUT_OF_DATE not in said  # and the dialog points at it


def test_validate_of_a_test_cell_never_run_says_to_run_it(tmp_path: Path) -> None:
    path = make_submission(RELEASED, {"alphabeta": BUGGY}, tmp_path / "a2_alphabeta.ipynb")
    said = validate(path)
    assert "VALIDATION FAILED" in said and points(said) != "6"
    assert "run this cell to see the details" in said
    assert SEE_OUTPUT not in said and OUT_OF_DATE not in said


A5_RELEASED = REPO / "assignments" / "a5_evaluation" / "a5_evaluation.ipynb"


def test_validate_of_assignment_5_gives_the_points_and_why_a_scale(tmp_path: Path) -> None:
    """Assignment 5's play question is scored on a scale, so nearly every student's cell is
    "partial credit", which nbgrader's dialog said with no points and no reason (outside
    student pass 4). The dialog now gives the points, says that part of them is usual, and
    that the cell's output (perhaps of an older run) has the details; each rung's points
    are given, and add up to the cell's (outside student pass 6: which rungs cost the points
    was only in the cell's output)."""
    sample = parse_sample((REPO / "tests" / "grading" / "submissions" / "a5_evaluation" /
                           "constant.py").read_text())
    path = make_submission(A5_RELEASED, sample.cells, tmp_path / "a5_evaluation.ipynb")
    said = validate(path)
    found = re.search(r"play: ([\d.]+) of 6 points on the visible share \(against random "
                      r"([\d.]+)/([\d.]+), against weak ([\d.]+)/([\d.]+), against the kit "
                      r"([\d.]+)/([\d.]+)\)\. Play is scored on a scale: each rung's points "
                      r"follow your share of the points in its games, so part of the points "
                      r"is usual", said)
    assert found is not None and float(found.group(1)) < 6, said[-3000:]
    earned, *rungs = [float(n) for n in found.groups()]
    assert abs(sum(rungs[0::2]) - earned) < 0.02 and abs(sum(rungs[1::2]) - 6) < 0.02, said
    assert "The cell's output has the details of its last run" in said
