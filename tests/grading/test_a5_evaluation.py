"""Assignment 5 through real nbgrader: the solution, the released notebook and every sample
submission of tests/grading/submissions/a5_evaluation/ (strong, tuned to the old visible
openings, the kit's own, weak, random, constant, wrong sign, ignoring whose move it is,
slow, raising, hostile) are autograded by the trusted, sandboxed pipeline and score what
their ``# expect:`` lines say, with the feedback their ``# message:`` lines name; lost games
come back as step-throughs.

They are the session's graded class (graded_class.py), graded by the class command in two
course folders: the solution and the tuned sample with the course's design (128 games each,
course "class"), the others with fewer games (:data:`FEWER`, course "a5-fewer": the option
docs/grading.md describes, a course may play fewer openings a rung at a stated cost in
certainty), which their files say.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from graded_class import A5_AS_DESIGNED, A5_FEWER, GradedClass, with_openings

from minimaxkit.classroom.trial import parse_sample, solution_cells

#: the graded class may be built in this module's first test, under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
NAME = "a5_evaluation"
SAMPLES = sorted((REPO / "tests" / "grading" / "submissions" / NAME).glob("*.py"))
#: graded as the course's design grades (4/20/40 openings); the others with FEWER
FULL = A5_AS_DESIGNED
#: openings a rung in the course that grades the other samples (28 games, not 128)
FEWER = A5_FEWER

#: a share and its 95% interval: "58% ± 9%", or the interval itself where that would
#: reach past 0% or 100% ("100% (95% interval: 90% to 100%)")
SPREAD = r"\d+%(?: ± \d+%| \(95% interval: \d+% to \d+%\))"


def with_fewer_games(root: Path, openings: dict[str, int] = FEWER) -> Path:
    """The course at ``root`` set to play ``openings`` a rung (its tests.json's ladder)."""
    with_openings(root, openings)
    return root


@pytest.fixture(scope="module")
def trial(graded: GradedClass) -> dict[str, Any]:
    students = graded.students(NAME)  # courses "class" (FULL) and "a5-fewer"
    assert {s for s, g in students.items() if g.course == "class"} == set(FULL)
    return {"scores": {s: g.scores for s, g in students.items()}, "errors": graded.errors,
            "feedback": {s: str(g.feedback) for s, g in students.items()},
            "roots": [graded.root("class"), graded.root("a5-fewer")],
            "logs": [graded.logs(NAME, "class"), graded.logs(NAME, "a5-fewer")]}


def autograded(trial: dict[str, Any], student: str) -> str:
    for root in trial["roots"]:
        path = root / "autograded" / student / NAME / f"{NAME}.ipynb"
        if path.is_file():
            nb = nbformat.read(str(path), as_version=4)
            return "\n".join(str(o.get("text", "")) for c in nb.cells
                             if c.cell_type == "code" for o in c.outputs)
    raise FileNotFoundError(student)


def test_nothing_failed_and_nothing_warned(trial: dict[str, Any]) -> None:
    assert trial["errors"] == []
    assert all("Traceback" not in log for log in trial["logs"]), trial["logs"]


def test_the_solution_earns_everything_and_the_released_notebook_nothing(
        trial: dict[str, Any]) -> None:
    assert trial["scores"]["solution"] == {"test_correctness": 5.0, "test_play": 6.0}
    assert trial["scores"]["released"] == {"test_correctness": 0.0, "test_play": 0.0}


def test_an_evaluation_tuned_to_the_old_visible_openings_earns_less_than_the_solution(
        trial: dict[str, Any]) -> None:
    """tuned.py won all 8 games against the kit from the four openings the old grade
    released (docs/benchmarks.md); on the openings drawn for it, fewer points."""
    assert trial["scores"]["tuned"]["test_play"] < trial["scores"]["solution"]["test_play"]


def test_the_feedback_states_each_rung_with_its_uncertainty(trial: dict[str, Any]) -> None:
    text = autograded(trial, "solution").replace("\n  ", " ")  # lines folded at 100 columns
    assert all(len(ln) <= 100 for ln in autograded(trial, "solution").splitlines())
    for who, games in (("random", 8), ("weak", 40), ("the kit", 80)):
        assert re.search(rf"against {who} \(300 nodes a move\): won {SPREAD} of the "
                         rf"points in {games} games \(\d+ won, \d+ drawn, \d+ lost\): "
                         r"[\d.]+ of 2 points", text), (who, text)
    assert "practice" not in text  # the practice opening is the student's own run's


def test_the_strong_sample_is_the_solution() -> None:
    strong = parse_sample((SAMPLES[0].parent / "strong.py").read_text()).cells["evaluate"]
    solution = solution_cells(REPO / "solutions" / NAME / f"{NAME}.ipynb")["evaluate"]
    code = [ln for ln in solution.splitlines() if ln.strip() and not ln.lstrip().startswith(
        ('"""', "X's view", "full board, and"))]
    assert [ln for ln in strong.splitlines() if ln.strip()] == code


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_samples_score_as_expected_with_their_message(trial: dict[str, Any],
                                                      path: Path) -> None:
    sample = parse_sample(path.read_text())
    got = trial["scores"]["solution" if path.stem == "strong" else path.stem]
    assert got == {f"test_{k}": v for k, v in sample.expect.items()}, got
    text = autograded(trial, "solution" if path.stem == "strong" else path.stem)
    for message in sample.messages:
        assert message in text, f"{path.stem}: {message!r} not in\n{text}"


def test_lost_games_come_back_as_step_throughs_that_need_no_kernel(
        trial: dict[str, Any]) -> None:
    page = Path(trial["feedback"]["kit_own"]).read_text()
    assert 'id="mmk-lost-0"' in page and "<script" not in page.split('id="mmk-lost-0"')[1]
    # one radio button per position from the opening's end to the loss (at least the
    # four moves of the winner's line), reached by labels numbered in order
    radios = page.count('name="mmk-lost-0"')
    steps = [int(n) for n in re.findall(r'<label for="mmk-lost-0-\d+"[^>]*>(\d+)</label>',
                                        page)]
    assert radios >= 4 and 'type="radio"' in page
    assert steps == list(range(steps[0], steps[0] + radios))
    assert "outline:3px solid #c00" in page  # the move where the evaluation went wrong
    # the hostile sample's writes reached neither the course's tests nor its gradebook
    for root in trial["roots"]:
        tests = json.loads((root / "solutions" / NAME / "tests.json").read_text())
        assert set(tests["questions"]) == {"correctness", "play"}


def test_the_speed_is_recorded_once_for_the_tournament(trial: dict[str, Any]) -> None:
    """The correctness cell of each autograded notebook records the speed measured, which the
    class tournament reads instead of measuring again (docs/grading.md, *The class
    tournament*); none where nothing could be measured."""
    from minimaxkit.classroom.tournament import find_entrants

    found = {e.name: e.speed for root in trial["roots"] for e in find_entrants(root, NAME)
             if e.kind == "submission"}
    slow, solution = found["slow"], found["solution"]
    assert slow is not None and slow.too_slow is True
    assert slow.ms_per_board is not None and slow.ms_per_board > (slow.limit_ms or 0) == 1.0
    assert solution is not None and solution.too_slow is False and solution.boards == 80
    assert found["released"] is None  # its evaluate answers no board with a number
