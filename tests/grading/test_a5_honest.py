"""Assignment 5's grade measures the evaluation, through real nbgrader in a course with a
secret (issue 28): honest numbers of every kind and a leftover print grade as the solution;
the kit's search inside ``evaluate`` grades the same with and without a reload of the kit's
modules; functions that detect the correctness check lose the point they cheat on; the same
submissions autograded twice, once beside a busy process, get the same grades and
games; a 25 MB answer cell gets a clear verdict, small feedback and a bounded memory.

The samples are in ``tests/grading/submissions/a5_evaluation/more/``: a ``# same as: NAME``
line says the sample grades exactly as ``NAME`` (the solution, or another sample), under
another student's id: the whole class is graded on the same boards and openings, so the same
evaluation earns the same grade and the same games whoever submits it; the ``# expect:`` and
``# message:`` lines as in test_a5_evaluation.py. All of them are graded in the session's
graded class (graded_class.py, course "a5-secret", by the class command); here the
determinism pair once more, in the other order, in a course of its own, beside a busy
process.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from graded_class import A5_FEW, A5_SECRET, GradedClass
from test_a5_evaluation import with_fewer_games

from minimaxkit.classroom.trial import parse_sample, prepare_course, solution_cells

#: the graded class may be built in this module's first test, under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
NAME = "a5_evaluation"
MORE = REPO / "tests" / "grading" / "submissions" / NAME / "more"
SAMPLES = sorted(MORE.glob("*.py"))
TWICE = ("set_of_strings", "numpy_random")  # autograded twice: in the class, then again
SECRET = A5_SECRET
#: the memory any instructor-side step may reach (docs/grading.md, *Size limits*)
MEMORY_BOUND_MB = 600


def same_as(path: Path) -> str | None:
    found = re.search(r"^# same as: (\S+)", path.read_text(), re.M)
    return found.group(1) if found else None


#: openings a rung (8 games, not 128): what these samples test holds in every game (the
#: same games as their twin's, the same on every run), so fewer cost nothing in truth here
FEW = A5_FEW


def _course(base: Path, name: str) -> Path:
    """A course with a secret, playing fewer games (the option docs/grading.md describes)."""
    root = with_fewer_games(prepare_course(REPO, base / name), FEW)
    (root / ".minimaxkit-secret").write_text(SECRET)
    return root


def _start(base: Path, name: str, subs: list[Any]) -> tuple[subprocess.Popen[str], Path, Path]:
    root = _course(base, name)
    spec, out = base / f"{name}.json", base / f"{name}.out.json"
    spec.write_text(json.dumps({"root": str(root), "submissions": subs, "export": False}))
    proc = subprocess.Popen([sys.executable, "-m", "minimaxkit.classroom.trial", str(spec),
                             str(out)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    return proc, out, root


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run 0: the solution and every sample (the graded class's course "a5-secret"); run 1:
    the pair again, in the other order, in a course of its own, beside a process that keeps a
    core busy. (A third run, a second course at the same time, once stood beside it: it
    found nothing the second did not and cost a course and two a5 gradings of the suite's
    time, issue #34.)"""
    base = tmp_path_factory.mktemp("a5h")
    subs: list[Any] = [(NAME, "solution", solution_cells(REPO / "solutions" / NAME /
                                                         f"{NAME}.ipynb"))]
    subs += [(NAME, p.stem, parse_sample(p.read_text()).cells) for p in SAMPLES]
    pair = [s for s in subs if s[1] in TWICE]
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    try:
        proc, path, root = _start(base, "again", pair[::-1])
        log = proc.communicate(timeout=1400)[0]
    finally:
        busy.kill()
        busy.wait()
    graded: GradedClass = request.getfixturevalue("graded")  # built meanwhile, if it was not
    run0 = graded.students(NAME, "a5-secret")
    assert set(run0) == {s for _, s, _ in subs}
    again = json.loads(path.read_text())
    return {"logs": [graded.logs(NAME, "a5-secret"), log],
            "errors": graded.errors + again["errors"],
            "scores": [{s: g.scores for s, g in run0.items()},
                       dict(again["scores"].get(NAME, {}))],
            "roots": [[graded.root("a5-secret")], [root]]}


def outputs(runs: dict[str, Any], run: int, student: str) -> dict[str, str]:
    """grade_id -> what the test cell shows (text and HTML) in run ``run``."""
    for root in runs["roots"][run]:
        path = root / "autograded" / student / NAME / f"{NAME}.ipynb"
        if path.is_file():
            nb = nbformat.read(str(path), as_version=4)
            return {c.metadata["nbgrader"]["grade_id"]: "\n".join(
                str(o.get("text", "")) + str(o.get("data", {}).get("text/html", ""))
                for o in c.outputs) for c in nb.cells
                if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}
    raise FileNotFoundError(student)


def test_nothing_failed(runs: dict[str, Any]) -> None:
    assert runs["errors"] == []
    assert all("Traceback" not in log for log in runs["logs"]), runs["logs"]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_samples_grade_as_they_say(runs: dict[str, Any], path: Path) -> None:
    sample = parse_sample(path.read_text())
    got = runs["scores"][0][path.stem]
    for name, points in sample.expect.items():
        assert got[f"test_{name}"] == points, got
    shown = "\n".join(outputs(runs, 0, path.stem).values())
    for message in sample.messages:
        assert message in shown, f"{path.stem}: {message!r} not in\n{shown}"
    assert "forfeited" not in shown or path.stem not in ("print_board", "big_print")


@pytest.mark.parametrize("path", [p for p in SAMPLES if same_as(p)],
                         ids=[p.stem for p in SAMPLES if same_as(p)])
def test_the_same_evaluation_under_another_id_gets_the_same_grade(runs: dict[str, Any],
                                                                  path: Path) -> None:
    """A sample that computes what another does (the solution with a print, in numpy
    integers; the kit's search reloaded or not), graded under its own id: the same points,
    the same verdicts and the same games, move by move."""
    other = same_as(path)
    assert other is not None
    assert runs["scores"][0][path.stem] == runs["scores"][0][other]
    mine, theirs = outputs(runs, 0, path.stem), outputs(runs, 0, other)
    assert _masked(mine["test_correctness"]) == _masked(theirs["test_correctness"])
    assert mine["test_play"] == theirs["test_play"]  # the same games, move by move


def test_a_forfeit_or_failed_check_says_why(runs: dict[str, Any]) -> None:
    """No verdict ends a reason with nothing after its colon, or names an internal status."""
    for student in ("solution", *(p.stem for p in SAMPLES)):
        for text in outputs(runs, 0, student).values():
            assert not re.search(r"(forfeited \d+|could not be checked|not played):\s*$", text,
                                 re.M), (student, text)
            assert not re.search(r": (timeout|crashed|protocol|flagged)\b", text), (student, text)


def _masked(text: str) -> str:
    """A verdict without its measured speed, which the load may change (its lines unfolded
    first: a figure of another width folds the line elsewhere)."""
    return re.sub(r"fast enough: [\d.e+-]+ ms", "fast enough: _ ms", re.sub(r"\n +", " ", text))


@pytest.mark.parametrize("student", TWICE)
def test_two_autogrades_one_under_load_give_one_grade(runs: dict[str, Any],
                                                      student: str) -> None:
    scores = [runs["scores"][r][student] for r in range(2)]
    assert scores[0] == scores[1], scores
    shown = [{k: _masked(v) for k, v in outputs(runs, r, student).items()} for r in range(2)]
    assert shown[0] == shown[1]
    assert "won" in shown[0]["test_play"]  # games were played, and are the same


_MEASURE = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], "
            "capture_output=True, text=True); print(done.returncode, resource.getrusage("
            "resource.RUSAGE_CHILDREN).ru_maxrss); print(done.stderr[-3000:])")


def _step(root: Path, *args: str) -> float:
    """Run ``nbgrader ARGS`` in the course; the most memory (MB) any of its processes held."""
    import os

    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
           f"{os.environ.get('PATH', '')}"}
    done = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "nbgrader",
                           *args], cwd=root, capture_output=True, text=True, env=env,
                          timeout=900)
    code, kb = done.stdout.split("\n", 1)[0].split()
    assert code == "0", done.stdout
    return int(kb) / 1024


def test_a_25_mb_answer_cell_is_cut_with_a_clear_verdict(
        tmp_path: Path) -> None:
    """A 25 MB literal in the answer cell (an opening book): a verdict that names the sizes,
    feedback under 20 MB, and every instructor-side step under the stated memory bound."""
    from minimaxkit.classroom.trial import make_submission, nbgrader_api

    root = _course(tmp_path, "big")
    api = nbgrader_api(root)
    assert api.generate_assignment(NAME)["success"]
    cells = solution_cells(REPO / "solutions" / NAME / f"{NAME}.ipynb")
    cells["evaluate"] = 'BOOK = "' + "3" * 25_000_000 + '"\n' + cells["evaluate"]
    released = root / "assignments" / NAME / f"{NAME}.ipynb"
    make_submission(released, cells, root / "submitted" / "big" / NAME / released.name)
    memory = {"autograde": _step(root, "autograde", NAME, "--student", "big"),
              "generate_feedback": _step(root, "generate_feedback", NAME, "--student", "big"),
              "export": _step(root, "export")}
    print("memory (MB):", {k: round(v) for k, v in memory.items()})
    assert max(memory.values()) < MEMORY_BOUND_MB, memory
    page = root / "feedback" / "big" / NAME / f"{NAME}.html"
    assert page.stat().st_size < 20_000_000
    text = page.read_text()
    assert 'your answer cell "evaluate" is 25 MB; the limit is 1 MB' in text
    assert "3" * 1000 not in text
    assert "big" in (root / "grades.csv").read_text()
