"""Trying an assignment the way students will: sample submissions (docs/grading.md, *Trying an
assignment with sample submissions*) put into the released notebook, and nbgrader's own API
on a course folder. A sample is a percent-format file: ``# %% <grade_id>`` starts a solution
cell's code; its header says what it should score (``# expect:``) and say (``# message:``).

>>> sample = parse_sample("# expect: t=1 h=2.5\\n# message: oops\\n# %% f\\ndef f():\\n    pass\\n")
>>> sample.cells, sample.expect, sample.messages
({'f': 'def f():\\n    pass'}, {'t': 1.0, 'h': 2.5}, ['oops'])
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import nbformat

__all__ = ["Sample", "parse_sample", "solution_cells", "make_submission", "nbgrader_api",
           "cell_scores", "TrialRun", "prepare_course", "trial_run", "Submission"]

_CELL = re.compile(r"^# %% (\S+)\s*$", re.M)


@dataclass(frozen=True)
class Sample:
    """Code per solution cell, expected points per grade cell, phrases of its feedback."""

    cells: dict[str, str]
    expect: dict[str, float] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)


def parse_sample(text: str) -> Sample:
    """A sample submission's text as a :class:`Sample`."""
    header, *rest = _CELL.split(text)
    cells = {rest[i]: rest[i + 1].strip("\n") for i in range(0, len(rest), 2)}
    expect: dict[str, float] = {}
    messages: list[str] = []
    for line in header.splitlines():
        if line.startswith("# expect:"):
            for item in line[len("# expect:"):].split():
                name, _, points = item.partition("=")
                expect[name] = float(points)
        elif line.startswith("# message:"):
            messages.append(line[len("# message:"):].strip())
    return Sample(cells, expect, messages)


def solution_cells(source: str | Path) -> dict[str, str]:
    """grade_id -> code of a source notebook's solution cells, without the SOLUTION markers."""
    nb = nbformat.read(str(source), as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and cell.cell_type == "code":
            lines = [ln for ln in cell.source.splitlines()
                     if "BEGIN SOLUTION" not in ln and "END SOLUTION" not in ln]
            out[meta["grade_id"]] = "\n".join(lines)
    return out


def make_submission(released: str | Path, cells: dict[str, str], dest: str | Path) -> Path:
    """The released notebook with ``cells`` (grade_id -> code) put in, written at ``dest``
    with the assignment's other files (its tests.json) beside it."""
    released, dest = Path(released), Path(dest)
    nb = nbformat.read(str(released), as_version=4)
    known = set()
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in cells:
            cell.source = cells[gid]
            known.add(gid)
    if missing := set(cells) - known:
        raise KeyError(f"{released.name} has no solution cell {sorted(missing)}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(dest))
    for extra in released.parent.iterdir():
        if extra.is_file() and extra.suffix != ".ipynb":
            shutil.copy(extra, dest.parent / extra.name)
    return dest


def nbgrader_api(root: str | Path) -> Any:
    """nbgrader's ``NbGraderAPI`` on the course at ``root``, configured by its
    ``nbgrader_config.py``. nbgrader makes a gradebook with the ``alembic`` command next to
    this Python: it is put on ``PATH`` when missing (an unactivated virtual environment)."""
    bindir = str(Path(sys.executable).parent)
    if shutil.which("alembic") is None and bindir not in os.environ.get("PATH", ""):
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    root = Path(root).resolve()
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def cell_scores(api: Any, assignment: str, student: str) -> dict[str, float]:
    """grade_id -> points nbgrader gave, for one autograded submission."""
    with api.gradebook as gb:
        return {grade.name: float(grade.score)
                for notebook in gb.find_submission(assignment, student).notebooks
                for grade in notebook.grades}


@dataclass
class TrialRun:
    """What :func:`trial_run` did, per assignment and student: points per grade cell, seconds
    of autograde, feedback pages; the exported CSV, errors, seconds per phase."""

    scores: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    feedback: dict[str, dict[str, str]] = field(default_factory=dict)
    csv: str = ""
    errors: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)


def prepare_course(repo: str | Path, dest: str | Path) -> Path:
    """A fresh course folder at ``dest``: the repository's ``nbgrader_config.py`` and
    ``solutions/``."""
    repo, dest = Path(repo), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(repo / "nbgrader_config.py", dest / "nbgrader_config.py")
    shutil.copytree(repo / "solutions", dest / "solutions", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    return dest


class Submission(NamedTuple):
    """A submission to try: the assignment, the student (or an LMS download's file prefix,
    whose student id is the prefix up to its first ``_``), and the code per solution cell
    (None: the released notebook as it is). A plain 3-tuple is taken as one."""

    assignment: str
    student: str
    cells: dict[str, str] | None


class _Phases:
    """The seconds of each phase of a trial run, into ``trial.phases``."""

    def __init__(self, trial: TrialRun) -> None:
        self.trial, self.clock = trial, time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.trial.phases[name] = self.trial.phases.get(name, 0.0) + now - self.clock
        self.clock = now


def _released(root: Path, assignment: str) -> Path:
    return root / "assignments" / assignment / f"{assignment}.ipynb"


def _stage_lms(root: Path, lms: Sequence[Submission]) -> list[Submission]:
    """The LMS downloads zipped as an LMS gives them (``downloaded/<assignment>/archive/``);
    the submissions as ``nbgrader zip_collect`` will collect them (student ids)."""
    import zipfile

    collected = []
    for assignment, prefix, cells in lms:
        released = _released(root, assignment)
        staged = make_submission(released, cells or {}, root / "lms" / prefix / released.name)
        archive = root / "downloaded" / assignment / "archive"
        archive.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(archive / f"{prefix}.zip", "w") as zf:
            zf.write(staged, f"{prefix}_{released.name}")
        collected.append(Submission(assignment, prefix.split("_")[0], cells))
    return collected


def _zip_collect(root: Path, lms: Sequence[Submission], trial: TrialRun) -> None:
    """``nbgrader zip_collect`` of each assignment with LMS downloads."""
    import subprocess

    for assignment in dict.fromkeys(a for a, _, _ in lms):
        done = subprocess.run([sys.executable, "-m", "nbgrader", "zip_collect", assignment,
                               "--force"], cwd=root, capture_output=True, text=True)
        if done.returncode != 0:
            trial.errors.append(f"zip_collect {assignment}: {done.stderr[-2000:]}")


@dataclass(frozen=True)
class _Course:
    """The course a trial runs on: nbgrader's API on it, its folder, what the run found, and
    the clock of its phases."""

    api: Any
    root: Path
    trial: TrialRun
    phase: _Phases


def _autograde(course: _Course, sub: Submission, *, feedback: bool) -> None:
    """One submission autograded (its scores, seconds), then its feedback page if asked."""
    api, trial = course.api, course.trial
    start = time.perf_counter()
    result = api.autograde(sub.assignment, sub.student)
    trial.seconds.setdefault(sub.assignment, {})[sub.student] = time.perf_counter() - start
    course.phase("autograde")
    if not result["success"]:
        trial.errors.append(f"autograde {sub.assignment} {sub.student}: "
                            f"{result.get('log', '')}")
        return
    trial.scores.setdefault(sub.assignment, {})[sub.student] = \
        cell_scores(api, sub.assignment, sub.student)
    if feedback:
        result = api.generate_feedback(sub.assignment, sub.student)
        page = course.root / "feedback" / sub.student / sub.assignment / \
            f"{sub.assignment}.html"
        if not result["success"] or not page.is_file():
            trial.errors.append(f"feedback {sub.assignment} {sub.student}: "
                                f"{result.get('log', '')}")
        else:
            trial.feedback.setdefault(sub.assignment, {})[sub.student] = str(page)
        course.phase("feedback")


def _export(root: Path, trial: TrialRun) -> None:
    """``nbgrader export``: the CSV into ``trial.csv``."""
    import subprocess

    done = subprocess.run([sys.executable, "-m", "nbgrader", "export"], cwd=root,
                          capture_output=True, text=True)
    csv = root / "grades.csv"
    if done.returncode != 0 or not csv.is_file():
        trial.errors.append(f"export: {done.stderr[-2000:]}")
    else:
        trial.csv = csv.read_text()


def trial_run(root: str | Path, submissions: Sequence[Submission | tuple[str, str, Any]], *,
              lms: Sequence[Submission | tuple[str, str, Any]] = (), feedback: bool = True,
              export: bool = True) -> TrialRun:
    """nbgrader on the course at ``root``: generate, submit ``(assignment, student, cells or
    None for the released notebook)``, autograde, feedback, export. ``lms`` submissions
    ``(assignment, LMS file prefix, cells)`` come zipped as an LMS download, through
    ``nbgrader zip_collect``; their student id is the prefix up to its first ``_``."""
    root = Path(root).resolve()
    subs, downloads = [Submission(*s) for s in submissions], [Submission(*s) for s in lms]
    api = nbgrader_api(root)
    trial = TrialRun()
    phase = _Phases(trial)
    for assignment in dict.fromkeys(s.assignment for s in [*subs, *downloads]):
        result = api.generate_assignment(assignment)
        if not result["success"]:
            raise RuntimeError(f"generate_assignment {assignment} failed:\n{result['log']}")
    for sub in subs:
        released = _released(root, sub.assignment)
        make_submission(released, sub.cells or {},
                        root / "submitted" / sub.student / sub.assignment / released.name)
    collected = _stage_lms(root, downloads)
    phase("generate")
    _zip_collect(root, downloads, trial)
    phase("zip_collect")
    course = _Course(api, root, trial, phase)
    for sub in [*subs, *collected]:
        _autograde(course, sub, feedback=feedback)
    if export:
        _export(root, trial)
        phase("export")
    return trial


def _main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.classroom.trial SPEC OUT``: :func:`trial_run` as a JSON spec says,
    the :class:`TrialRun` written as JSON."""
    import json
    from dataclasses import asdict

    args = sys.argv[1:] if argv is None else argv
    spec = json.loads(Path(args[0]).read_text())
    trial = trial_run(spec["root"], [Submission(*s) for s in spec["submissions"]],
                      lms=[Submission(*s) for s in spec.get("lms", [])],
                      feedback=spec.get("feedback", True), export=spec.get("export", True))
    Path(args[1]).write_text(json.dumps(asdict(trial)))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
