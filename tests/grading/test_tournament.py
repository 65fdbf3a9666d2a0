"""The class tournament through its command: submissions' evaluations play in sandboxed
children, in worker processes or on a Dask cluster, and the table is the same every way;
whatever a submission sends costs only its own games; a student may be called anything; the
leaderboard says what the ratings know, and every game is written."""

from __future__ import annotations

import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.arena.standings import FIELDS
from minimaxkit.classroom.tournament import (
    Entrant,
    Format,
    RecordedSpeed,
    SpeedTask,
    Tournament,
    find_entrants,
    main,
    measure_speed,
    run_tournament,
)
from minimaxkit.classroom.trial import make_submission, parse_sample, prepare_course
from minimaxkit.grading.evaluation.correctness import CorrectnessSpec
from minimaxkit.isolation.usage import below

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a module's course, under load

REPO = Path(__file__).resolve().parents[2]
NAME = "a5_evaluation"
SAMPLES = REPO / "tests" / "grading" / "submissions" / NAME
#: a cell that writes a line breaking the grader's protocol on every descriptor it has
BOGUS = """import os
for fd in range(256):
    try:
        os.write(fd, b'{"names": 5}\\n')
    except OSError:
        pass
"""
HOSTILE = {
    # the cell writes the bogus lines before it defines evaluate
    "bogus_cell": BOGUS + "\n\ndef evaluate(board):\n    return 0\n",
    # evaluate writes them on every call
    "bogus_eval": "def evaluate(board):\n" + "".join(
        f"    {line}\n" for line in BOGUS.splitlines()) + "    return 0\n",
    # evaluate asks the grader about a tree, with a path that is not numbers
    "bad_ask": """import gc


def evaluate(board):
    for o in gc.get_objects():
        if type(o).__name__ == "Channel":
            o.send("ask", {"kind": "children", "path": ["not", "numbers"]})
            o.recv()
    return 0
""",
}


def _sample(name: str) -> dict[str, str]:
    return parse_sample((SAMPLES / f"{name}.py").read_text()).cells


def _course(base: Path, students: dict[str, dict[str, str]]) -> Path:
    root = prepare_course(REPO, base / "course")
    released = REPO / "assignments" / NAME / f"{NAME}.ipynb"
    for student, cells in students.items():
        make_submission(released, cells, root / "autograded" / student / NAME / f"{NAME}.ipynb")
    return root


def _table(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(open(out / "leaderboard.csv")))


def test_no_student_can_stop_the_tournament_or_take_a_reference_name(tmp_path: Path) -> None:
    """The issue's case: a student called ref:kit, two who write bogus protocol lines on every
    descriptor (from a cell, from evaluate) and one whose evaluate asks a malformed question:
    rc 0, every entrant in the table, the offenders forfeit, nobody else does."""
    students = {"ref:kit": _sample("kit_own"), "strong": _sample("strong"),
                **{k: {"evaluate": v} for k, v in HOSTILE.items()}}
    root = _course(tmp_path, students)
    done = subprocess.run([sys.executable, "-m", "minimaxkit.grading.tournament", NAME,
                           "--root", str(root), "--budget", "60", "--seed", "4"],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = _table(root / "tournament" / NAME)
    assert list(rows[0]) == FIELDS
    seen = {(r["player"], r["kind"]) for r in rows}
    assert seen == {*((s, "submission") for s in students),
                    ("random", "reference"), ("weak", "reference"), ("kit", "reference")}
    forfeits = {r["player"]: int(r["forfeited"]) for r in rows}
    games = {r["player"]: int(r["games"]) for r in rows}
    assert all(games[p] == 2 * 7 for p in games)  # 8 players: 7 pairings, both colours
    assert {p for p, n in forfeits.items() if n} == set(HOSTILE)
    played = json.loads((root / "tournament" / NAME / "games.json").read_text())
    for g in played:  # an offender forfeits every game (against another, one of them)
        offenders = {g["x"], g["o"]} & set(HOSTILE)
        if len(offenders) == 1:
            assert g["forfeit"] == ("X" if g["x"] in offenders else "O"), g
        else:
            assert (g["forfeit"] is not None) == bool(offenders), g
    # reasons an instructor can read, no internal names
    reasons = {g["reason"] for g in played if g["forfeit"]}
    assert all("interfered with the grader" in r for r in reasons), reasons
    assert not any("ChildFailed" in r or "Protocol" in r or "Error" in r for r in reasons)
    # the student ref:kit played as itself: its games are not the reference's
    mine = [g for g in played if "ref:kit" in (g["x"], g["o"])]
    assert all({g["x_kind"], g["o_kind"]} != {"reference"} for g in mine)
    page = (root / "tournament" / NAME / "leaderboard.html").read_text()
    assert "<script" not in page and "ref:kit" in page


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six students (two of them slow or failing) and a speed record for four of them."""
    base = tmp_path_factory.mktemp("six")
    root = _course(base, {s: _sample(s) for s in
                          ("strong", "kit_own", "weak", "random_eval", "raises", "slow")})
    for student, ms in (("strong", 0.1), ("kit_own", 0.1), ("weak", 0.05), ("slow", 20.0)):
        path = root / "autograded" / student / NAME / f"{NAME}.ipynb"
        nb = nbformat.read(str(path), as_version=4)
        cell = next(c for c in nb.cells if "correctness" in c.source and "grade(" in c.source)
        cell.metadata["minimaxkit"] = {"speed": {"ms_per_board": ms, "limit_ms": 1.0,
                                                 "too_slow": ms > 1, "boards": 80}}
        nbformat.write(nb, str(path))
    return root


def test_the_recorded_speed_is_read(six: Path) -> None:
    got = {e.name: e.speed for e in find_entrants(six, NAME)}
    assert got["slow"] == RecordedSpeed(True, ms_per_board=20.0, limit_ms=1.0, boards=80)
    assert got["random_eval"] is None and got["kit"] is None  # measured once when it starts


def _bwrap_count(top: int) -> int:
    """bwrap processes below ``top`` (other work on the machine may run its own)."""
    n = 0
    for p in below(top):
        try:
            n += Path(f"/proc/{p}/comm").read_text().strip() == "bwrap"
        except OSError:
            pass
    return n


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="counts bubblewrap's processes")
def test_on_a_dask_scheduler_through_the_command_sandboxes_stay_few(six: Path,
                                                                    tmp_path: Path) -> None:
    """Six students on ``dask scheduler`` + ``dask worker`` through the documented command:
    at most 16 bwrap processes at any time, and the table of the worker processes' run."""
    args = [NAME, "--root", str(six), "--budget", "60", "--seed", "2", "--swiss", "3"]
    assert main([*args, "--out", str(tmp_path / "pool"), "--workers", "2"]) == 0
    port = _free_port()
    dask = str(Path(sys.executable).with_name("dask"))
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    scheduler = subprocess.Popen([dask, "scheduler", "--port", str(port), "--host",
                                  "127.0.0.1", "--dashboard-address", ":0"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([dask, "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "2",
                               "--nworkers", "1", "--dashboard-address", ":0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(8)
        run = subprocess.Popen([sys.executable, "-m", "minimaxkit.grading.tournament", *args,
                                "--out", str(tmp_path / "dask"), "--scheduler",
                                f"tcp://127.0.0.1:{port}"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        peak = 0
        while run.poll() is None:
            peak = max(peak, _bwrap_count(worker.pid))
            time.sleep(0.2)
        out, err = run.communicate()
        assert run.returncode == 0, err[-3000:]
        assert peak <= 16, peak
        assert peak >= 2  # it did sandbox them
        assert _table(tmp_path / "dask") == _table(tmp_path / "pool")
        time.sleep(2)
        assert _bwrap_count(worker.pid) == 0  # the worker closed its sandboxes at the end
    finally:
        for p in (worker, scheduler):
            p.terminate()
            p.wait(30)


def test_a_player_at_90_percent_of_the_limit_is_the_same_under_load(tmp_path: Path) -> None:
    """A fixed computation of about 0.9 ms a board (limit 1 ms of processor time, 1.2 allowed):
    measured three times while busy loops load both cores, the same verdict and nearly the same
    figure; then three tournaments with that record give the same games. (Five of each, and
    three loops, until the suite was cut for issue #34: a loop in a session of its own takes
    a core's share from the whole test run, not only from this test.)"""
    spec = json.loads((REPO / "solutions" / NAME / "tests.json").read_text())

    def entrant(n: int) -> tuple[Entrant, SpeedTask]:
        near = _sample("weak")["evaluate"].replace(
            "def evaluate(board):\n", "def _work(n):\n    s = 0\n    for i in range(n):\n"
            f"        s += i * i % 7\n    return s\n\n\ndef evaluate(board):\n    _work({n})\n")
        root = _course(tmp_path / str(n), {"near": {"evaluate": near}})
        e = next(x for x in find_entrants(root, NAME) if x.name == "near")
        return e, SpeedTask(e, CorrectnessSpec.of(spec["questions"]["correctness"]))

    n = 10_000  # scaled so that the check itself, unloaded, measures 0.9 ms a board
    first = measure_speed(entrant(n)[1])
    assert first is not None
    assert first.ms_per_board is not None
    e, task = entrant(int(n * 0.9 / first.ms_per_board))
    # each in a session of its own: with autogroup scheduling, loops of the test's own session
    # would share one slot of the processor beside the sandbox's
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(2)]
    try:
        speeds = [measure_speed(task) for _ in range(3)]
        entrants = [Entrant("random", "reference"), Entrant("weak", "reference"),
                    Entrant(e.name, e.kind, e.folder, e.cells, speeds[0])]
        runs = [run_tournament(entrants, Format(seed=1, budget=40), workers=1)
                for _ in range(3)]
    finally:
        for p in busy:
            p.kill()
    figures = [s.ms_per_board for s in speeds if s.ms_per_board is not None]
    assert len(figures) == 3 and all(s.too_slow is False for s in speeds), speeds
    # the figure itself moves with the load (0.83-1.12 ms measured beside a whole test run at
    # load 7; 1.04-1.34 at load 42, where the verdict can flip: docs/grading.md); what must
    # not move under a loaded machine's ordinary load is the verdict, and so the games
    assert max(figures) <= 1.2, figures
    assert all(r.games == runs[0].games and r.table == runs[0].table for r in runs)
    assert all(g.forfeit is None for g in runs[0].games)  # it played every game


def test_a_checked_function_works_alone(tmp_path: Path) -> None:
    """A test's worker can start no process and no thread (and no process in the sandbox may
    ignore SIGCHLD: a child the kernel reaps itself would take its processor time out of
    every count): an evaluation that tries gets no number counted, so no speed, and so no
    games."""
    fork = ("import os\nimport signal\n\n\ndef evaluate(board):\n"
            "    signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n    pid = os.fork()\n"
            "    if pid == 0:\n        os._exit(0)\n    return 0\n")
    root = _course(tmp_path, {"forker": {"evaluate": fork}})
    e = next(x for x in find_entrants(root, NAME) if x.name == "forker")
    spec = json.loads((REPO / "solutions" / NAME / "tests.json").read_text())
    speed = measure_speed(SpeedTask(e, CorrectnessSpec.of(spec["questions"]["correctness"])))
    assert speed.too_slow and speed.ms_per_board is None, speed
    t = run_tournament([Entrant("random", "reference"), e], Format(seed=0, budget=40),
                       workers=1)
    assert all(g.forfeit for g in t.games) and "could not be measured" in t.games[0].reason


def _against_honest(tmp_path: Path, name: str, evaluate: str
                    ) -> tuple[Tournament, dict[str, dict[str, Any]]]:
    """``name`` (its ``evaluate``) against the honest weak sample, both recorded fast by
    autograde (0.1 ms a board), one opening: the tournament and its rows by player."""
    root = _course(tmp_path, {"honest": _sample("weak"), name: {"evaluate": evaluate}})
    found = {x.name: x for x in find_entrants(root, NAME, references=())}
    fast = RecordedSpeed(False, ms_per_board=0.1, limit_ms=1.0, boards=80)
    entrants = [Entrant(x.name, x.kind, x.folder, x.cells, fast) for x in found.values()]
    t = run_tournament(entrants, Format(seed=0, budget=60, openings=1), workers=1)
    return t, {r["player"]: r for r in t.table}


def test_a_player_that_stalls_its_own_turns_costs_only_itself(tmp_path: Path) -> None:
    """A player fast in the speed check that then stalls each batch: its own clock runs out
    and it forfeits; the honest submission it meets never forfeits a game."""
    stall = ("import time\n\n\ndef evaluate(board):\n    if board.moves_played > 3:\n"
             "        time.sleep(0.4)\n    return 0\n")
    t, rows = _against_honest(tmp_path, "staller", stall)
    assert rows["submission:honest"]["forfeited"] == 0
    assert rows["submission:staller"]["forfeited"] == 2
    assert all("took longer than its time" in g.reason for g in t.games if g.forfeit)


def test_a_player_fast_in_the_check_and_slow_in_play_forfeits_only_its_games(
        tmp_path: Path) -> None:
    """Recorded fast by autograde, then 4 ms of processor time a board once the game is
    under way (as a function that tells the tournament from the check could): each game it
    plays uses more than the limit allows for its boards, and it forfeits them; the honest
    submission it meets never forfeits."""
    burn = ("import time\n\n\ndef evaluate(board):\n    if board.moves_played > 3:\n"
            "        end = time.process_time() + 0.004\n"
            "        while time.process_time() < end:\n            pass\n    return 0\n")
    t, rows = _against_honest(tmp_path, "burner", burn)
    assert rows["submission:honest"]["forfeited"] == 0
    assert rows["submission:burner"]["forfeited"] == 2
    assert all(g.reason.startswith("too slow in this game: ") and "the limit is 1 ms" in g.reason
               for g in t.games), [g.reason for g in t.games]


@pytest.mark.parametrize("bad", [["--openings", "0"], ["--openings", "21"], ["--swiss", "0"],
                                 ["--budget", "0"], ["--workers", "0"]])
def test_the_command_refuses_impossible_options_in_words(
        bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["a5_evaluation", *bad])
    assert stop.value.code == 2
    assert "--openings must be 1 to 20, --budget and --workers at least 1" in \
        capsys.readouterr().err


def test_the_command_says_what_a_wrong_course_folder_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["a5_evaluation", "--root", str(tmp_path / "nowhere")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"no {tmp_path / 'nowhere' / 'solutions' / 'a5_evaluation' / 'tests.json'}" in err
    assert "--root is the course folder" in err and "Traceback" not in err


def test_the_command_says_when_no_submission_was_autograded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "solutions" / "a5_evaluation").mkdir(parents=True)
    (tmp_path / "solutions" / "a5_evaluation" / "tests.json").write_text("{}")
    with pytest.raises(SystemExit) as stop:
        main(["a5_evaluation", "--root", str(tmp_path)])
    assert stop.value.code == 2
    assert "no autograded/*/a5_evaluation/a5_evaluation.ipynb in " in capsys.readouterr().err
