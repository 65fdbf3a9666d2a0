"""Grading as root from a Python under a home other users cannot enter (mode 0700, as a fresh
Debian machine keeps ``/root``): each sandbox still runs as a user of its own (bwrap makes the
folders above the kit and its Python anew), an honest submission's autograde logs no
warning, and a Python the sandbox's user cannot read is said once, in one line with its fix.

The Python here is a venv made under a folder of mode 0700, with a copy of the kit in that
folder, and the test environment's packages (nbgrader's) reached through a ``.pth`` file.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from minimaxkit.classroom.trial import make_submission, prepare_course, solution_cells

pytestmark = [
    pytest.mark.slow, pytest.mark.timeout(900),
    pytest.mark.skipif(os.getuid() != 0 or shutil.which("bwrap") is None,
                       reason="a grader run as root, with bubblewrap"),
]

REPO = Path(__file__).resolve().parents[2]
A = "a2_alphabeta"


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``home`` (mode 0700) holding ``venv`` and ``kit/minimaxkit``: its Python."""
    home = tmp_path_factory.mktemp("home")
    home.chmod(0o700)
    shutil.copytree(REPO / "minimaxkit", home / "kit" / "minimaxkit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(home / "venv")],
                   check=True, timeout=120)
    packages = next((home / "venv" / "lib").glob("python*/site-packages"))
    # the kit from the private copy first, then what the test environment has installed
    (packages / "aaa_kit.pth").write_text(str(home / "kit") + "\n")
    (packages / "zzz_env.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return home


def _python(home: Path, code: str) -> str:
    done = subprocess.run([str(home / "venv" / "bin" / "python"), "-c", code], cwd=home,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_sandbox_runs_a_python_under_a_private_home_as_its_own_user(private: Path) -> None:
    said = _python(private, "import minimaxkit, sys\nfrom minimaxkit.isolation import bwrap\n"
                            "print(minimaxkit.__file__)\nprint(bwrap.as_user())\n"
                            "print(repr(bwrap.root_warning()))")
    where, works, warning = said.splitlines()
    assert where.startswith(str(private / "kit"))  # the private copy is the one graded
    assert works == "(True, '')" and warning == "''"


def test_an_autograde_from_there_logs_no_warning(private: Path, tmp_path: Path) -> None:
    root = prepare_course(REPO, tmp_path / "course")
    (root / ".minimaxkit-secret").write_text("a course secret\n")
    python = private / "venv" / "bin" / "python"
    path = os.pathsep.join([str(python.parent), str(Path(sys.executable).parent),
                            os.environ["PATH"]])  # nbgrader runs alembic from PATH
    env = {**os.environ, "PATH": path}
    run = [str(python), "-m", "nbgrader"]
    done = subprocess.run([*run, "generate_assignment", A, "--force"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    cells = solution_cells(REPO / "solutions" / A / f"{A}.ipynb")
    released = root / "assignments" / A / f"{A}.ipynb"
    make_submission(released, cells, root / "submitted" / "honest" / A / released.name)
    done = subprocess.run([*run, "autograde", A], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    log = done.stdout + done.stderr
    assert "minimaxkit" not in log and "WARNING" not in log, log[-3000:]
    assert (root / "autograded" / "honest" / A / f"{A}.ipynb").is_file()


def test_a_python_other_users_cannot_read_is_said_in_one_line_with_its_fix(
        private: Path) -> None:
    venv = private / "venv"
    venv.chmod(0o700)
    try:
        said = _python(private, "from minimaxkit.isolation import bwrap\n"
                                "print(bwrap.root_warning())")
    finally:
        venv.chmod(0o755)
    lines = said.strip().splitlines()
    assert len(lines) == 1, said
    assert lines[0].startswith("minimaxkit: grading as root, but a user of the sandbox's own "
                               "cannot run this Python (")
    assert lines[0].endswith(f"fix: chmod -R o+rX {venv}")
