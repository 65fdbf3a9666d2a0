"""The README's instructor workflow, followed literally in a fresh course folder, with
bubblewrap and the course's secret: twice, once with the secret in ``.minimaxkit-secret``
(made by the README's own command) and once in ``MINIMAXKIT_SECRET``.

Each run: ``python -m minimaxkit.grading.refresh solutions/``, ``nbgrader
generate_assignment``, an LMS download in ``downloaded/a2_alphabeta/archive/`` collected with
``nbgrader zip_collect``, ``nbgrader autograde``, ``nbgrader generate_feedback``, ``nbgrader
export``: the commands of README.md and docs/grading.md, as an instructor types them, with the
instructor's environment holding a hub-like API token.

The batch holds honest notebooks written the way students write them in IPython (magics,
``%run`` of a helper file they submit, ``display``, ``!`` commands, ``from __future__``,
helpers in cells of their own, numpy numbers, classes, prints, a cell that raises, a long
exploration) and hostile ones (reading the instructor's home and another course, links and
FIFOs to course files, filling the disk, printing every environment, writing to and closing
the inherited file descriptors, killing their parent). Afterwards: honest notebooks have full
marks, and the same in the student's own ``nbgrader validate``; the secret, the token and the
instructor's files appear in no feedback and no file of ``autograded/``; the gradebook is
whole; the course's files are byte-identical; ``autograded/`` holds no link, FIFO or big file;
both runs give the same points.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.classroom.trial import solution_cells
from minimaxkit.isolation import bwrap

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a module's course, under load

REPO = Path(__file__).resolve().parents[2]
A = "a2_alphabeta"
BIN = Path(sys.executable).parent
SOLUTION = solution_cells(REPO / "solutions" / A / f"{A}.ipynb")["alphabeta"]
TOKEN = "hubtoken-" + uuid.uuid4().hex  # stands for JUPYTERHUB_API_TOKEN and its kind
FILE_MARK = "instructor-only-" + uuid.uuid4().hex

# A submission: code cells, in order, that replace the answer cell (the first holds the
# answer's grade id), and extra files submitted beside the notebook.
Cells = list[str]

HONEST: dict[str, tuple[Cells, dict[str, str]]] = {
    "plain": ([SOLUTION], {}),
    "magics": ([
        "%run helper.py",
        "%%time\nfrom IPython.display import display\ndisplay('searching')\n"
        "def alphabeta(node, alpha, beta):\n    return search(node, alpha, beta)",
        "%matplotlib inline\n!echo checked\nprint(alphabeta)",
    ], {"helper.py": "import math\n\n" + SOLUTION.replace("alphabeta", "search")}),
    "future": ([
        "from __future__ import annotations\nimport math\n\n\nclass Searcher:\n"
        "    def __init__(self) -> None:\n        self.visits: list[str] = []\n\n"
        "    def value(self, node, alpha: float, beta: float) -> float:\n"
        "        self.visits.append(node.name)\n"
        "        return _ab(node, alpha, beta)\n",
        SOLUTION.replace("def alphabeta", "def _ab"),
        "def alphabeta(node, alpha: float, beta: float) -> float:\n"
        "    return Searcher().value(node, alpha, beta)",
    ], {}),
    "numpy": ([
        "import numpy as np\n" + SOLUTION.replace("return node.static()",
                                                  "return np.float64(node.static())"),
        "1 / 0  # a scratch cell that raises",
        "import time\nstart = time.time()\nwhile time.time() - start < 3:\n"
        "    sum(range(1000))  # a long exploration\nprint('explored')",
    ], {}),
}

READ = """
import glob, os
for path in [{home!r}, {other!r}, "/root", "/home", "../../../.minimaxkit-secret",
             "../../../gradebook.db", os.path.expanduser("~")]:
    try:
        print(path, os.listdir(path) if os.path.isdir(path) else open(path).read()[:200])
    except OSError as err:
        print(path, "unreadable:", err.strerror)
"""
LINKS = """
import os
for name, target in [("a2_alphabeta.ipynb", "../../../gradebook.db"),
                     ("tests.json", "../../../nbgrader_config.py"),
                     ("solutions", "../../../solutions")]:
    try:
        os.remove(name) if os.path.lexists(name) else None
        os.symlink(target, name)
    except OSError as err:
        print("symlink", name, err.strerror)
for make in (lambda: os.mkfifo("pipe"), lambda: os.link("../../../nbgrader_config.py", "hard")):
    try:
        make()
    except OSError as err:
        print(err.strerror)
"""
HOG = """
n = 0
try:
    while n < 40:
        with open(f"big{n}", "wb") as f:
            f.write(b"x" * (64 << 20))
        n += 1
except OSError as err:
    print("stopped after", n, "files:", err.strerror)
"""
ENVIRON = """
import os
print(dict(os.environ))
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            print(pid, open(f"/proc/{pid}/environ", "rb").read())
        except OSError as err:
            print(pid, err.strerror)
"""
FDS_WRITE = """
import os
for fd in range(3, 64):
    try:
        os.write(fd, b"\\x00garbage\\n" * 50)
    except OSError:
        pass
"""
FDS_CLOSE = """
import os
for fd in range(3, 64):
    try:
        os.close(fd)
    except OSError:
        pass
"""
KILL = """
import os, signal
try:  # the trusted child runs as a user of its own, which may not kill its parent
    os.kill(os.getppid(), signal.SIGKILL)
except PermissionError as err:
    print(err.strerror)
"""


def hostile(home: Path, other: Path) -> dict[str, tuple[Cells, dict[str, str], float]]:
    """Attacks before a correct search; the points each should get."""
    return {
        "reader": ([READ.format(home=str(home), other=str(other)) + SOLUTION], {}, 8.0),
        "linker": ([LINKS + SOLUTION], {}, 8.0),
        "hog": ([HOG + SOLUTION], {}, 8.0),
        "environ": ([ENVIRON + SOLUTION], {}, 8.0),
        # the trusted grader's channel is among the descriptors: that is interference
        "fdwriter": ([FDS_WRITE + SOLUTION], {}, 0.0),
        "fdcloser": ([FDS_CLOSE + SOLUTION], {}, 0.0),
        # the parent inside the sandbox is bubblewrap's init, which cannot be killed there
        "killer": ([KILL + SOLUTION], {}, 8.0),
    }


def _notebook(released: Path, cells: Cells) -> nbformat.NotebookNode:
    nb = nbformat.read(str(released), as_version=4)
    out = []
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "alphabeta":
            cell.source = cells[0]
            out.append(cell)
            out += [nbformat.v4.new_code_cell(src) for src in cells[1:]]
        else:
            out.append(cell)
    nb.cells = out
    return nb


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(cmd: str, root: Path, env: dict[str, str], log: list[str]) -> str:
    done = subprocess.run(cmd, shell=True, cwd=root, env=env, capture_output=True, text=True,
                          timeout=900)
    log.append(f"$ {cmd}\n{done.stdout}{done.stderr}")
    assert done.returncode == 0, log[-1][-4000:]
    return done.stdout + done.stderr


def term(base: Path, secret_in: str) -> dict[str, Any]:
    """One run of the workflow; what it produced."""
    root = base / "course"
    root.mkdir(parents=True)
    shutil.copy(REPO / "nbgrader_config.py", root)
    shutil.copytree(REPO / "solutions", root / "solutions")
    home = base / "home"  # the instructor's home, and another course of theirs
    home.mkdir()
    (home / "notes.txt").write_text(FILE_MARK)
    other = base / "other-course"
    other.mkdir()
    (other / "gradebook.db").write_text(FILE_MARK)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "HOME": str(home),
           "JUPYTERHUB_API_TOKEN": TOKEN, "MINIMAXKIT_TEST_TOKEN": TOKEN}
    env.pop("MINIMAXKIT_SECRET", None)
    log: list[str] = []
    if secret_in == "file":  # the README's command, in the course folder
        _run('python -c "import secrets; print(secrets.token_hex(16))" > .minimaxkit-secret',
             root, env, log)
        secret = (root / ".minimaxkit-secret").read_text().strip()
    else:
        secret = env["MINIMAXKIT_SECRET"] = "s" + uuid.uuid4().hex
    _run("python -m minimaxkit.grading.refresh solutions/", root, env, log)
    _run(f"nbgrader generate_assignment {A} --force", root, env, log)
    released = root / "assignments" / A / f"{A}.ipynb"
    archive = root / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    subs = {k: (c, f, 8.0) for k, (c, f) in HONEST.items()}
    subs.update(hostile(home, other))
    for i, (student, (cells, files, _)) in enumerate(subs.items()):
        prefix = f"{student}_{1000 + i}_{2000 + i}"  # Canvas's file names
        staged = base / "lms" / f"{prefix}_{A}.ipynb"
        staged.parent.mkdir(exist_ok=True)
        nbformat.write(_notebook(released, cells), str(staged))
        with zipfile.ZipFile(archive / f"{prefix}.zip", "w") as zf:
            zf.write(staged, staged.name)
            for name, text in files.items():
                zf.writestr(f"{prefix}_{name}", text)
    before = {"config": (root / "nbgrader_config.py").read_bytes(),
              "solutions": _digest(root / "solutions")}
    _run(f"nbgrader zip_collect {A}", root, env, log)
    _run(f"nbgrader autograde {A}", root, env, log)
    _run(f"nbgrader generate_feedback {A}", root, env, log)
    _run("nbgrader export", root, env, log)
    return {"root": root, "log": log, "secret": secret, "expect": {s: p for s, (_, _, p)
                                                                    in subs.items()},
            "before": before, "home": home}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    return [term(tmp_path_factory.mktemp(f"term-{how}"), how) for how in ("file", "env")]


def _scores(root: Path) -> dict[str, float]:
    lines = (root / "grades.csv").read_text().strip().splitlines()
    header = lines[0].split(",")
    return {row.split(",")[header.index("student_id")]:
            float(row.split(",")[header.index("score")]) for row in lines[1:]}


def test_every_student_gets_the_points_their_search_earns(runs: list[dict[str, Any]]) -> None:
    for run in runs:
        assert _scores(run["root"]) == run["expect"], run["log"][-1][-3000:]


def test_both_runs_agree(runs: list[dict[str, Any]]) -> None:
    assert _scores(runs[0]["root"]) == _scores(runs[1]["root"])


def _student_files(root: Path) -> list[Path]:
    return [p for d in ("autograded", "feedback") for p in (root / d).rglob("*")
            if p.is_file() and not p.is_symlink()]


def test_no_secret_token_or_instructor_file_reaches_a_student(
        runs: list[dict[str, Any]]) -> None:
    for run in runs:
        root = run["root"]
        for path in _student_files(root):
            data = path.read_bytes()
            for mark in (run["secret"], TOKEN, FILE_MARK):
                assert mark.encode() not in data, f"{mark[:12]}... in {path}"
        # and what the attacks printed is in the feedback (the tests saw them run)
        reader = (root / "feedback" / "reader" / A / f"{A}.html").read_text()
        assert "unreadable:" in reader or "No such file" in reader
        environ = (root / "feedback" / "environ" / A / f"{A}.html").read_text()
        assert "MINIMAXKIT_SANDBOXED" in environ and "JUPYTERHUB" not in environ


def test_the_course_is_whole(runs: list[dict[str, Any]]) -> None:
    for run in runs:
        root = run["root"]
        with sqlite3.connect(root / "gradebook.db") as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert (root / "nbgrader_config.py").read_bytes() == run["before"]["config"]
        assert _digest(root / "solutions") == run["before"]["solutions"]
        for student in run["expect"]:
            folder = root / "autograded" / student / A
            assert (folder / f"{A}.ipynb").is_file()
            size = 0
            for path in folder.rglob("*"):
                mode = path.lstat().st_mode
                assert stat.S_ISREG(mode) or stat.S_ISDIR(mode), f"{path} is not a plain file"
                size += path.lstat().st_size
            assert size < 100 << 20, f"{student}: {size} bytes in autograded/"


def test_interference_is_a_verdict_with_feedback(runs: list[dict[str, Any]]) -> None:
    for run in runs:
        for student in ("fdwriter", "fdcloser"):
            page = (run["root"] / "feedback" / student / A / f"{A}.html").read_text()
            assert "interfered with the grader" in page or "ended the grading process" in page


def test_the_log_is_clean(runs: list[dict[str, Any]]) -> None:
    """No warning in a run of honest and hostile students but the kernels the hostile ones
    broke (and nbgrader's own notice that it replaces an existing assignment)."""
    for run in runs:
        for entry in run["log"]:
            cmd = entry.splitlines()[0]
            for line in entry.splitlines()[1:]:
                if "WARNING" not in line and "Warning" not in line:
                    continue
                allowed = ("Removing existing assignment" in line or
                           "Directory not found. Creating" in line or  # zip_collect's first
                           "No nbgrader_config.py file found" in line or
                           "minimaxkit: the kernel" in line or
                           ("autograde" in cmd and "does not take messages" in line))
                assert allowed, f"{cmd}: {line}"


def test_honest_notebooks_validate_as_they_grade(runs: list[dict[str, Any]],
                                                 tmp_path: Path) -> None:
    """The student's own Validate (``nbgrader validate`` in their folder) passes the
    notebooks the trusted grader gives full marks."""
    root = runs[0]["root"]
    for student in HONEST:
        folder = tmp_path / student  # what the student had: the release, their work in it
        shutil.copytree(root / "assignments" / A, folder)
        shutil.copytree(root / "submitted" / student / A, folder, dirs_exist_ok=True)
        done = subprocess.run([str(BIN / "nbgrader"), "validate", f"{A}.ipynb"], cwd=folder,
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"})
        assert "Success! Your notebook passes all the tests." in done.stdout, \
            student + done.stdout[-2000:] + done.stderr[-2000:]
