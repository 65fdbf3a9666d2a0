"""Hostile submissions through the real ``nbgrader autograde``, in one batch with honest
ones: each hostile submission loses its points with a message that says why; the honest
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

import hashlib
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.classroom.trial import parse_sample, prepare_course, solution_cells
from minimaxkit.isolation import bwrap

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a module's course, under load

REPO = Path(__file__).resolve().parents[2]
HOSTILE = REPO / "tests" / "grading" / "hostile" / "a2_alphabeta"
HONEST = REPO / "tests" / "grading" / "submissions" / "a2_alphabeta"
ASSIGNMENT = "a2_alphabeta"


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _marked(marker: str) -> list[str]:
    """Processes whose environment holds ``marker`` (everything the run started)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker.encode() in env:
            found.append(f"{pid}: {cmd.decode(errors='replace')[:120]}")
    return found


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = prepare_course(REPO, tmp_path_factory.mktemp("hostile") / "course")
    solution = solution_cells(REPO / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    # honest students keep the ids of the round trip (seeded trees depend on the id)
    honest = {"solution": solution,
              "beta_max": parse_sample((HONEST / "beta_max.py").read_text()).cells}
    hostile = {p.stem: parse_sample(p.read_text()).cells for p in sorted(HOSTILE.glob("*.py"))}
    later = {name: parse_sample((HONEST / f"{name}.py").read_text()).cells
             for name in ("no_pruning", "fail_hard", "not_passed")}
    order = [*honest.items(), *hostile.items(), *later.items()]
    spec = {"root": str(root), "feedback": False,
            "submissions": [[ASSIGNMENT, name, cells] for name, cells in order]}
    (root.parent / "spec.json").write_text(json.dumps(spec))
    before = {d: _digest(REPO / d / ASSIGNMENT) for d in ("solutions", "assignments")}
    marker = f"MINIMAXKIT_TEST_RUN={uuid.uuid4().hex}"
    env = dict(os.environ, MINIMAXKIT_TEST_RUN=marker.split("=")[1])
    done = subprocess.run([sys.executable, "-m", "minimaxkit.classroom.trial",
                           str(root.parent / "spec.json"), str(root.parent / "out.json")],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = json.loads((root.parent / "out.json").read_text())
    out.update(root=root, hostile=sorted(hostile), honest=[*honest, *later],
               left=_marked(marker.split("=")[1]), before=before,
               after={d: _digest(root / d / ASSIGNMENT) for d in ("solutions",)})
    return out


def _text(root: Path, student: str) -> str:
    nb = nbformat.read(str(root / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"), 4)
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs)


def test_every_submission_was_graded(run: dict[str, Any]) -> None:
    assert run["errors"] == []
    assert sorted(run["scores"][ASSIGNMENT]) == sorted(run["hostile"] + run["honest"])


def test_hostile_submissions_lose_their_points_and_say_why(run: dict[str, Any]) -> None:
    wrong = []
    for name in run["hostile"]:
        sample = parse_sample((HOSTILE / f"{name}.py").read_text())
        got = run["scores"][ASSIGNMENT][name]["test_alphabeta"]
        if abs(got - sample.expect["test_alphabeta"]) > 0.011:
            wrong.append(f"{name}: {got}, expected {sample.expect['test_alphabeta']}")
        text = " ".join(_text(run["root"], name).split())  # lines are wrapped at 100
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
                for name in run["honest"] if name != "solution"}
    expected["solution"] = 7.0
    got = {s: run["scores"][ASSIGNMENT][s]["test_alphabeta"] for s in expected}
    assert got == expected
    # the notebook graded before the hostile ones (one of them tries to delete it) is whole
    assert "alphabeta: 7 of 7 points" in _text(run["root"], "solution")


def test_gradebook_exports_every_row(run: dict[str, Any]) -> None:
    rows = [ln.split(",") for ln in run["csv"].strip().splitlines()]
    header, body = rows[0], rows[1:]
    students = {r[header.index("student_id")] for r in body}
    assert students == set(run["hostile"] + run["honest"])
    score = {r[header.index("student_id")]: float(r[header.index("score")]) for r in body}
    assert score["forge_top"] == 0.0 and score["solution"] == 7.0


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
