"""``MINIMAXKIT_GRADE_TREES=visible``: the class autograde grades the visible trees only (what
grading on submission shows before the due date, docs/hub.md). A right ``a1_minimax``
earns each question's share of its points that its visible trees carry, computed here from
the assignment's own test files (points × visible trees / all trees, the seeded ones
counted), and its verdicts say so without a note of disagreement with the notebook's own
``grade(...)``; without the setting the same notebook earns every point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from minimaxkit.classroom.trial import make_submission, solution_cells
from minimaxkit.isolation import bwrap

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # two autogrades, under load

REPO = Path(__file__).resolve().parents[2]
A = "a1_minimax"
POINTS = {"minimax": 6, "minimax_limited": 5, "best_move": 5}  # the notebook's test cells


def visible_share() -> float:
    visible = json.loads((REPO / "solutions" / A / "tests.json").read_text())["questions"]
    hidden = json.loads((REPO / "solutions" / A / "hidden_tests.json").read_text())["questions"]
    total = 0.0
    for question, points in POINTS.items():
        seen = len(visible[question]["trees"])
        more = len(hidden[question].get("trees", [])) + len(hidden[question].get("seeded", []))
        assert more == visible[question]["hidden_trees"]  # what the released file says
        total += points * seen / (seen + more)
    return total


def _autograde(root: Path, trees: str | None) -> tuple[float, str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("MINIMAXKIT_GRADE_TREES", None)
    if trees:
        env["MINIMAXKIT_GRADE_TREES"] = trees
    done = subprocess.run([sys.executable, "-m", "minimaxkit.grading.autograde", A, "--student",
                           "alice", "--force", "--workers", "1"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        score = gb.find_submission(A, "alice").score
    nb = nbformat.read(root / "autograded" / "alice" / A / f"{A}.ipynb", 4)
    text = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    return score, text


def test_visible_trees_only_then_all(tmp_path: Path) -> None:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(REPO / "nbgrader_config.py", root)
    shutil.copytree(REPO / "solutions", root / "solutions")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", A, "--force"],
                   cwd=root, env=env, check=True, capture_output=True)
    make_submission(root / "assignments" / A / f"{A}.ipynb",
                    solution_cells(REPO / "solutions" / A / f"{A}.ipynb"),
                    root / "submitted" / "alice" / A / f"{A}.ipynb")
    expected = visible_share()
    assert expected == 9.0  # 6·3/6 + 5·3/5 + 5·3/5
    score, text = _autograde(root, "visible")
    assert score == expected
    for question, points in POINTS.items():
        share = points * 3 / {"minimax": 6}.get(question, 5)
        assert f"{question}: {share:g} of {share:g} points on the visible trees" in text
    assert "(note:" not in text
    score, text = _autograde(root, None)
    assert score == sum(POINTS.values())
    assert "on the visible trees" not in text
