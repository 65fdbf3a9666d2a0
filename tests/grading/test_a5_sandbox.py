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

from minimaxkit.arena.matches import GAME, EvaluationFailed
from minimaxkit.grading.evaluation.correctness import CorrectnessSpec, check_correctness
from minimaxkit.grading.evaluation.evaluators import ANSWER_TEXT, RemoteEvaluator
from minimaxkit.grading.evaluation.notebook import play_session
from minimaxkit.isolation import bwrap
from minimaxkit.isolation.session import EXEC_TIMEOUT

pytestmark = pytest.mark.skipif(not bwrap.available(), reason="needs bubblewrap")

SPEC = CorrectnessSpec(seed=3, finished=4, in_play=6, limit_ms=50)


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
    assert report.earned == 0 and report.no_games
    assert "the function could not be checked: " in report.note
    assert "process running it ended" in report.note or "ended without" in report.note, \
        report.note


def test_answers_given_after_killing_the_process_that_forked_it_do_not_count(
        tmp_path: Path) -> None:
    """A worker can answer a whole small batch, and report, before the end of the process it
    killed reaches it: its answers counted (the check above earned 4 of 5 on a loaded
    machine). The child's own word after its worker's report is what tells them apart. On a
    loaded machine the end can also reach the worker before its report (a whole run beside a
    second one saw it): then the batch fails, which the graders count as no answers too."""
    ev = _evaluator(tmp_path, ["import os, signal\n\ndef evaluate(board):\n"
                               "    os.kill(os.getppid(), signal.SIGKILL)\n    return 0"])
    start = GAME.initial_state()
    try:
        answers = ev.session(lambda: ev.results([start] * 3, timeout=10.0), timeout=30)
    except EvaluationFailed:  # the end came first: no report at all
        answers = None
    finally:
        ev.remote.close()
    assert answers is None, answers
    assert "ended without a report" in ev.fatal, ev.fatal


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


HOOK = """import os, time
state = {"fork": "not tried"}

def hook():
    end = time.process_time() + 0.5
    while time.process_time() < end:
        pass
    try:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        state["fork"] = "forked"
    except OSError:
        state["fork"] = "refused"

os.register_at_fork(after_in_child=hook)

def evaluate(board):
    return {"forked": 1.0, "refused": 0.0}.get(state["fork"], -1.0)
"""


def test_a_hook_run_at_each_fork_is_charged_and_starts_nothing(tmp_path: Path) -> None:
    """A cell's ``os.register_at_fork`` hook runs in every worker before it is ready: its
    time is charged to the test (the count starts before the fork), and it runs under the
    worker's rules (the kit's hook comes first), so it can fork nothing."""
    ev = _evaluator(tmp_path, [HOOK])
    got: list = []
    try:
        ev.session(lambda: got.extend(ev.results([GAME.initial_state()])), timeout=30)
    finally:
        ev.remote.close()
    assert got == [0.0], got  # refused
    assert ev.used >= 0.45, ev.used


def test_a_worker_kept_from_starting_costs_its_test(tmp_path: Path) -> None:
    """A hook that makes each worker wait before it is ready (no processor time, no clock of
    a game yet): the worker is given up after READY seconds, in words."""
    from minimaxkit.isolation.session import READY

    ev = _evaluator(tmp_path, ["import os, time\nos.register_at_fork(after_in_child=lambda: "
                               "time.sleep(60))\n\ndef evaluate(board):\n    return 0.0"])
    try:
        assert ev.session(lambda: ev.results([GAME.initial_state()]), timeout=30) is None
    finally:
        ev.remote.close()
    assert ev.fatal == f"its worker did not start within {READY:g} s (did the notebook's " \
                       "code make it wait?)", ev.fatal


def test_an_answer_is_a_float_or_a_short_text() -> None:
    """What the child writes: a float (it converts every number) or what went wrong, cut. An
    int (10 ** 400 would overflow the grader's checks) or a long text was written by the
    notebook's code, and is interference."""
    from minimaxkit.grading.evaluation import evaluators

    assert evaluators._answer(1.0) and evaluators._answer({"raised": "x" * ANSWER_TEXT})
    assert not evaluators._answer(10 ** 400) and not evaluators._answer(True)
    assert not evaluators._answer({"raised": "x" * (ANSWER_TEXT + 1)})


def test_the_cells_have_a_time_for_them_all(tmp_path: Path) -> None:
    from minimaxkit.grading.evaluation.evaluators import RULES
    from minimaxkit.isolation.session import Session

    with Session(tmp_path, worker="minimaxkit.grading.evaluation.childside", rules=RULES,
                 notebook_time=1.0) as s:
        s.run_cell("import time\ntime.sleep(1.5)")
        s.run_cell("def evaluate(board):\n    return 0.0")
        assert "evaluate" not in s.names
        assert s.problems[-1] == ("the notebook's cells ran longer than 1 s in all: the rest "
                                  "of its cells were not run"), s.problems


def test_no_cell_runs_past_the_time_for_them_all(tmp_path: Path) -> None:
    """A cell that starts before the cells' time is up gets what is left of it (a second at
    least), not a whole cell's time: six cells of 59 s once took 354 s of a 300 s budget."""
    from minimaxkit.grading.evaluation.evaluators import RULES
    from minimaxkit.isolation.session import Session

    with Session(tmp_path, worker="minimaxkit.grading.evaluation.childside", rules=RULES,
                 notebook_time=2.0) as s:
        s.run_cell("import time\ntime.sleep(1.5)")
        # about 0.5 s left: interrupted at 1 s (on a loaded machine, where the first cell
        # took over 2 s, not run at all); before, it ran its 10 s and defined x
        s.run_cell("time.sleep(10)\nx = 1")
        assert "x" not in s.names, s.problems
        assert any("ran longer than 1 s and was interrupted" in p or "2 s in all" in p
                   for p in s.problems), s.problems


def test_cells_that_will_not_stop_do_not_cost_what_ran_before_them(tmp_path: Path) -> None:
    """An attack: a correct answer, then cells that ignore their interrupt. Each is left out
    and the cells before it run again; their time must not use up the cells' time in all, or
    the answer is not run again and the grade is lost."""
    from minimaxkit.grading.evaluation.evaluators import RULES
    from minimaxkit.isolation.session import Session

    hung = "import time\nwhile True:\n    try:\n        time.sleep(100)\n" \
           "    except BaseException:\n        pass"
    with Session(tmp_path, worker="minimaxkit.grading.evaluation.childside", rules=RULES,
                 cell_timeout=0.5, notebook_time=3.0) as s:
        s.run_cell("answer = 42")
        for _ in range(2):  # each costs 0.5 s and the grace of 5 s
            s.run_cell(hung)
        assert s.names.get("answer") == "int", s.problems
        assert sum("did not stop when interrupted" in p for p in s.problems) == 2, s.problems


def test_the_processor_clock_in_a_worker_is_exact(tmp_path: Path) -> None:
    """A function may budget its own time by ``time.process_time()``: with a processor-time
    limit (RLIMIT_CPU) set, Linux would move that clock in 4 ms ticks, so the sandbox of
    assignment 5 sets none (its limits are the grader's clocks)."""
    ev = _evaluator(tmp_path, ["import time\n\ndef evaluate(board):\n"
                               "    a, steps = time.process_time(), []\n"
                               "    while len(steps) < 20:\n        b = time.process_time()\n"
                               "        if b != a:\n            steps.append(b - a)\n"
                               "            a = b\n    return 1000 * max(steps)"])
    try:
        got = ev.session(lambda: ev.results([GAME.initial_state()], timeout=10.0), timeout=30)
    finally:
        ev.remote.close()
    assert got is not None and isinstance(got[0], float) and got[0] < 0.5, got
