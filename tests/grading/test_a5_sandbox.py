"""Assignment 5's sandboxed child without nbgrader: what an ``evaluate`` (or its cells) can do
to the grader and to its own grade. Killing the process that forked it costs only the
function's check, in words; generators made without a seed give the same numbers in two
separate children; a traceback of huge source lines reaches the grader cut; a worker starts
no process or thread even where no process limit binds (a filter, not a limit)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from minimaxkit.grading.play.checks import check_correctness
from minimaxkit.grading.play.evaluators import ANSWER_TEXT, RemoteEvaluator
from minimaxkit.grading.play.notebook import play_session
from minimaxkit.isolation import bwrap
from minimaxkit.isolation.session import EXEC_TIMEOUT
from minimaxkit.matches import GAME

pytestmark = pytest.mark.skipif(not bwrap.available(), reason="needs bubblewrap")

SPEC = {"seed": 3, "finished": 4, "in_play": 6, "limit_ms": 50}


def _evaluator(folder: Path, cells: list[str]) -> RemoteEvaluator:
    session = play_session(folder, None, [], EXEC_TIMEOUT)
    for src in cells:
        session.run_cell(src)
    return RemoteEvaluator(session, "evaluate")


def test_killing_the_process_that_forked_it_costs_only_its_check(tmp_path: Path) -> None:
    ev = _evaluator(tmp_path, ["import os, signal\n\ndef evaluate(board):\n"
                               "    os.kill(os.getppid(), signal.SIGKILL)\n    return 0"])
    try:
        report = check_correctness(ev, SPEC, points=5)  # no exception: a verdict
    finally:
        ev.remote.close()
    assert report.earned == 0 and report.too_slow
    assert "the function could not be checked: " in report.note
    assert "process running it ended" in report.note or "ended without" in report.note, \
        report.note


def test_a_generator_made_without_a_seed_gives_the_same_numbers_in_every_child(
        tmp_path: Path) -> None:
    cells = ["import random\nimport numpy as np\nrng = np.random.default_rng()\n"
             "mine = random.Random()\n\ndef evaluate(board):\n"
             "    return float(rng.random() + mine.random())"]
    answers: list[list] = []
    start = GAME.initial_state()
    for n in range(2):
        (tmp_path / str(n)).mkdir()
        ev = _evaluator(tmp_path / str(n), cells)
        try:
            ev.session(lambda e=ev: answers.append(e.results([start] * 3)), timeout=30)
        finally:
            ev.remote.close()
    assert len(answers) == 2 and answers[0] == answers[1], answers
    assert len(set(answers[0])) == 3  # random numbers all the same: fixed, not constant


def test_what_a_function_raised_reaches_the_grader_cut(tmp_path: Path) -> None:
    long = "x" * 200_000
    ev = _evaluator(tmp_path, [f"def evaluate(board):\n    return 1 / 0 + len('{long}')"])
    try:
        got: list = []
        ev.session(lambda: got.extend(ev.results([GAME.initial_state()])), timeout=30)
    finally:
        ev.remote.close()
    assert got and "ZeroDivisionError" in got[0]["raised"]
    assert len(got[0]["raised"]) <= ANSWER_TEXT and len(str(got[0])) < 2_000, len(str(got[0]))


def test_a_worker_starts_nothing_whatever_its_user() -> None:
    """The filter alone (no process limit: this test's own user, root on CI, is not bound
    by one): fork, threads and subprocesses are refused; computing goes on."""
    code = ("from minimaxkit.isolation.seccomp import forbid_processes\nimport os, threading\n"
            "assert forbid_processes() == ''\nout = []\nfor start in (os.fork, "
            "lambda: threading.Thread(target=print).start(), lambda: os.system('true')):\n"
            "    try:\n        r = start()\n        out.append('started' if r in (None, 0) "
            "else 'failed')\n    except (OSError, RuntimeError) as err:\n"
            "        out.append(type(err).__name__)\nprint(out, sum(range(10)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() in ("['PermissionError', 'RuntimeError', 'failed'] 45",), \
        done.stdout + done.stderr
