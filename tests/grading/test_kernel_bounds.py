"""The autograde kernel's sandbox is bounded as a whole, through the real ``nbgrader
autograde`` (docs/grading.md, *Untrusted code*): a top-level cell that forks far more
processes than the kernel's limit, and one that holds more memory than the bound in several
forks, each get their kernel stopped with a message naming the limit in that cell, lose
their points (the trusted grader's own child is bounded alike) and leave no process; an
honest notebook graded in the same batch keeps its 8 points. Run as root, the kernel is an
unprivileged user of its own (a process limit holds for it, as it never does for root).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.classroom.trial import prepare_course, solution_cells
from minimaxkit.isolation import bwrap
from minimaxkit.isolation.session import SANDBOX_MEMORY

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a module's course, under load

REPO = Path(__file__).resolve().parents[2]
A = "a2_alphabeta"
FORKS = 10 * bwrap.KERNEL_TASKS
#: at the top of the answer cell, so that a cell stopped before its end defines nothing
FORK_BOMB = (f"import os, time\nstarted = 0\nfor _ in range({FORKS}):\n"
             "    if os.fork() == 0:\n        time.sleep(600)\n        os._exit(0)\n"
             "    started += 1\nprint('forked', started)\n\n")
FORKS_MEMORY = 4  # forks of a third of the bound each: over it in all, far below it alone
#: each fork says when it holds its memory; the cell then waits 45 s (the cell's limit is 60),
#: so that however slowly a loaded machine lets the forks allocate, the kernel is over its
#: bound for the whole wait and "held" is printed only if nothing stopped it
HOG = (f"import os, time\nread, write = os.pipe()\nfor _ in range({FORKS_MEMORY}):\n"
       "    if os.fork() == 0:\n"
       f"        hog = bytearray(b'x') * ({SANDBOX_MEMORY // 3})\n"
       "        os.write(write, b'1')\n        time.sleep(600)\n        os._exit(0)\n"
       f"got = b''\nwhile len(got) < {FORKS_MEMORY}:\n    got += os.read(read, 16)\n"
       "time.sleep(45)\nprint('held')\n\n")
WHOAMI = "import os\nprint('uid', os.getuid(), os.environ.get('OPENBLAS_NUM_THREADS'))\n\n"


def _left(root: Path) -> list[str]:
    """Processes working in the course (the kernels, the trusted children, their forks)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(root)):
                found.append(pid)
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    tmp = tmp_path_factory.mktemp("kernel_bounds")
    root = prepare_course(REPO, tmp / "course")
    answer = solution_cells(REPO / "solutions" / A / f"{A}.ipynb")["alphabeta"]
    cells = {"honest": answer, "forker": FORK_BOMB + answer, "hog": HOG + answer,
             "whoami": WHOAMI + answer}
    spec = {"root": str(root), "feedback": True, "export": False,
            "submissions": [[A, name, {"alphabeta": code}] for name, code in cells.items()]}
    (tmp / "spec.json").write_text(json.dumps(spec))
    done = subprocess.run([sys.executable, "-m", "minimaxkit.classroom.trial",
                           str(tmp / "spec.json"), str(tmp / "out.json")],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = json.loads((tmp / "out.json").read_text())
    out.update(root=root, left=_left(root))
    return out


def _answer(run: dict[str, Any], student: str) -> str:
    """What the answer cell shows in the autograded notebook (and so in the feedback)."""
    nb = nbformat.read(str(run["root"] / "autograded" / student / A / f"{A}.ipynb"), 4)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") ==
                "alphabeta")
    return "\n".join(o.get("text", "") + o.get("evalue", "") for o in cell.outputs)


def test_every_submission_was_graded_with_feedback(run: dict[str, Any]) -> None:
    assert run["errors"] == []
    assert sorted(run["feedback"][A]) == ["forker", "hog", "honest", "whoami"]


def test_a_fork_bomb_stops_the_kernel_at_its_process_limit(run: dict[str, Any]) -> None:
    said = _answer(run, "forker")
    assert f"too many processes and threads (at most {bwrap.KERNEL_TASKS} at once" in said, said
    assert "forked" not in said  # unbounded, the kernel forked them all and said so
    assert run["scores"][A]["forker"]["test_alphabeta"] < 8.0


def test_memory_held_in_forks_stops_the_kernel_at_its_bound(run: dict[str, Any]) -> None:
    said = _answer(run, "hog")
    assert "held more memory than allowed in all its processes together " \
           f"({SANDBOX_MEMORY >> 20} MB), so it was stopped" in said, said
    assert "held\n" not in said  # unbounded, the kernel held it all to the cell's end
    assert run["scores"][A]["hog"]["test_alphabeta"] < 8.0


def test_an_honest_notebook_keeps_its_points(run: dict[str, Any]) -> None:
    assert run["scores"][A]["honest"] == {"test_alphabeta": 8.0}
    assert run["scores"][A]["whoami"] == {"test_alphabeta": 8.0}
    assert _answer(run, "honest") == ""


@pytest.mark.skipif(os.getuid() != 0 or not bwrap.as_user()[0],
                    reason="the grader runs as root: the kernel is a user of its own")
def test_as_root_the_kernel_runs_as_a_user_of_its_own(run: dict[str, Any]) -> None:
    said = _answer(run, "whoami")
    assert said.startswith("uid ") and int(said.split()[1]) >= bwrap.UID_BASE, said


def test_numeric_libraries_start_one_thread_in_the_kernel(run: dict[str, Any]) -> None:
    """Not one a core: on a grading server of 64 cores, numpy alone would reach the kernel's
    task limit and get an honest notebook stopped."""
    assert _answer(run, "whoami").split()[2] == "1"


def test_no_process_is_left(run: dict[str, Any]) -> None:
    assert run["left"] == []
