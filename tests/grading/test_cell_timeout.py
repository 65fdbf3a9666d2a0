"""A top-level cell that runs past nbgrader's cell time limit costs that cell, not the
submission: through the real ``nbgrader autograde`` (the sandboxed kernel and the trusted
grader's child both interrupt it and go on), the answer defined before the endless loop
earns its points, the feedback is written, and the cell says it was interrupted.

The course is the repository's, with ``c.Execute.timeout`` lowered from 60 s to 4 s in its
``nbgrader_config.py`` so that the test takes seconds, not minutes: the same setting an
instructor changes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from minimaxkit.classroom.trial import prepare_course, solution_cells
from minimaxkit.isolation import bwrap

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a module's course, under load

REPO = Path(__file__).resolve().parents[2]
A = "a2_alphabeta"
LIMIT = 4


def test_a_cell_past_the_time_limit_is_interrupted_and_the_notebook_goes_on(
        tmp_path: Path) -> None:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = prepare_course(REPO, tmp_path / "course")
    config = root / "nbgrader_config.py"
    config.write_text(config.read_text() + f"\nc.Execute.timeout = {LIMIT}\n")
    answer = solution_cells(REPO / "solutions" / A / f"{A}.ipynb")["alphabeta"]
    # the answer, then an exploration that never ends, in the same cell
    endless = answer + "\n\nprint('exploring')\nwhile True:\n    pass\n"
    spec = {"root": str(root), "feedback": True, "export": True,
            "submissions": [[A, "looper", {"alphabeta": endless}],
                            [A, "honest", {"alphabeta": answer}]]}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    done = subprocess.run([sys.executable, "-m", "minimaxkit.classroom.trial",
                           str(tmp_path / "spec.json"), str(tmp_path / "out.json")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = json.loads((tmp_path / "out.json").read_text())
    assert not out["errors"], out["errors"]
    # the loop cost nothing but its own cell: both students have the question's 8 points
    assert out["scores"][A]["looper"] == out["scores"][A]["honest"]
    assert sum(out["scores"][A]["looper"].values()) == 8.0, out["scores"]
    assert "looper" in out["feedback"][A]
    nb = nbformat.read(str(root / "autograded" / "looper" / A / f"{A}.ipynb"), 4)
    answer_cell = next(c for c in nb.cells
                       if c.metadata.get("nbgrader", {}).get("grade_id") == "alphabeta")
    said = json.dumps(answer_cell.outputs)
    assert "exploring" in said and "interrupted" in said, said[-2000:]
    lines = out["csv"].strip().splitlines()
    header = lines[0].split(",")
    rows = {r.split(",")[header.index("student_id")]: float(r.split(",")[header.index("score")])
            for r in lines[1:]}
    assert rows == {"looper": 8.0, "honest": 8.0}, out["csv"]
