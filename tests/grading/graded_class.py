"""One graded class for the whole test session: every sample, hostile and solution notebook of
a1-a5 (and the released notebooks) autograded once by the class command
(``python -m minimaxkit.grading.autograde``, itself under test), then ``nbgrader
generate_feedback``, ``nbgrader export`` and the class report, as an instructor runs them.
The round-trip, hostile, class, report and a5 tests read its gradebook, notebooks and pages
instead of each grading a course of their own.

What is graded, and where, follows from the files (:func:`plan`), so a new sample file is in
the class the next time the tests run:

- ``tests/grading/submissions/<assignment>/*.py`` and ``tests/grading/hostile/<assignment>/*.py``
  are students named by the file's stem (a hostile sample whose stem another student of its
  course has is ``hostile_<stem>``); every assignment also has ``solution`` and ``released``
  (the notebook as released, unanswered).
- Three course folders: ``class`` (the course as it is: a1-a4 whole, and a5's
  :data:`A5_AS_DESIGNED`), ``a5-fewer`` (a5's other samples with fewer games,
  :data:`A5_FEWER`, as their files say) and ``a5-secret`` (``a5_evaluation/more/`` and the
  solution, with a course secret and :data:`A5_FEW` games, as test_a5_honest describes).
- In ``class``, a2 also has :data:`ODD_ID` (a student id HTML must escape, with
  root_forgets_alpha's cells) and ``forger`` (the released notebook with a verdict of its own
  in every cell's metadata); a1 has :data:`LMS_STUDENT`, the solution collected from an LMS
  download by ``nbgrader zip_collect``.

A test asks :meth:`GradedClass.student` for "student X of assignment Y" (or
:meth:`GradedClass.sample` for a sample file) and gets a :class:`Graded`: its points per grade
cell from the gradebook, its autograded notebook and feedback page.

The class is cached in ``.test-cache/graded-class/<key>/`` (git-ignored) under a key that
hashes what the grades depend on: the kit's sources, ``solutions/``, the sample and hostile
folders, ``nbgrader_config.py``, the plan and the build's version (:data:`BUILD_VERSION`),
the versions of Python and of the Jupyter packages, and whether bubblewrap and root are
there. A second run with nothing of that changed reuses it; a
fresh clone (CI) builds it once. A file lock makes one pytest process (one xdist worker) build
it while the others wait. ``MINIMAXKIT_GRADED_CLASS=rebuild`` builds it again.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from importlib import metadata
from pathlib import Path
from typing import Any

import nbformat

from minimaxkit.classroom.trial import (
    make_submission,
    nbgrader_api,
    parse_sample,
    prepare_course,
    solution_cells,
)

REPO = Path(__file__).resolve().parents[2]
SUBMISSIONS = REPO / "tests" / "grading" / "submissions"
HOSTILE = REPO / "tests" / "grading" / "hostile"
ASSIGNMENTS = ("a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening",
               "a5_evaluation")
A5 = "a5_evaluation"

#: a5 students graded as the course's design grades them (4/20/40 openings a rung)
A5_AS_DESIGNED = ("solution", "tuned", "released")
#: a5 samples that are another student's code, graded once as that student
A5_ALIASES = {"strong": "solution"}
#: openings a rung of the a5-fewer course (28 games, not 128), as the samples' files say
A5_FEWER = {"random": 2, "weak": 4, "kit": 8}
#: openings a rung of the a5-secret course (8 games)
A5_FEW = {"random": 1, "weak": 1, "kit": 2}
A5_SECRET = "a course secret for the test\n"

ODD_ID = "o'neil&<i>x"  # a student id with characters HTML must escape
FORGED = {"question": "alphabeta", "points": 7, "earned": 7, "bugs": ["swapped"], "trees": []}
#: an LMS download's file prefix (Canvas's form) and the student id nbgrader collects it as
LMS_STUDENT = ("a1_minimax", "lovelaceada_1234_5678")
LMS_ID = "lovelaceada"

#: the commands' time limit (seconds): a whole assignment of a loaded machine
COMMAND_TIMEOUT = 2400


@dataclass(frozen=True)
class Course:
    """A course folder of the class: a5's openings a rung (``None``: as designed), a secret."""

    name: str
    openings: dict[str, int] | None = None
    secret: str | None = None


COURSES = (Course("class"), Course("a5-fewer", A5_FEWER), Course("a5-secret", A5_FEW, A5_SECRET))


@dataclass(frozen=True)
class Planned:
    """One submission of the class: where it is graded, whose, its answer cells, the sample
    file it comes from (``None`` for the solution, the released notebook and the extras)."""

    course: str
    assignment: str
    student: str
    cells: dict[str, str]
    sample: Path | None = None
    kind: str = "sample"  # "solution", "released", "sample", "hostile", "extra", "lms"


def _a5_course(path: Path) -> str:
    if path.parent.name == "more":
        return "a5-secret"
    return "class" if path.stem in A5_AS_DESIGNED else "a5-fewer"


def plan(repo: Path = REPO) -> list[Planned]:
    """Every submission of the class, read from the repository's folders."""
    out: list[Planned] = []
    for assignment in ASSIGNMENTS:
        solution = solution_cells(repo / "solutions" / assignment / f"{assignment}.ipynb")
        out.append(Planned("class", assignment, "solution", solution, kind="solution"))
        out.append(Planned("class", assignment, "released", {}, kind="released"))
        if assignment == A5:
            out.append(Planned("a5-secret", assignment, "solution", solution, kind="solution"))
        samples = sorted((repo / "tests" / "grading" / "submissions" / assignment).rglob("*.py"))
        for path in samples:
            if assignment == A5 and path.stem in A5_ALIASES and path.parent.name == A5:
                continue
            course = _a5_course(path) if assignment == A5 else "class"
            out.append(Planned(course, assignment, path.stem,
                               parse_sample(path.read_text()).cells, path))
        for path in sorted((repo / "tests" / "grading" / "hostile" / assignment).glob("*.py")):
            course = _a5_course(path) if assignment == A5 else "class"
            taken = {p.student for p in out if (p.course, p.assignment) == (course, assignment)}
            student = f"hostile_{path.stem}" if path.stem in taken else path.stem
            out.append(Planned(course, assignment, student,
                               parse_sample(path.read_text()).cells, path, kind="hostile"))
    a2 = {p.student: p for p in out if p.assignment == "a2_alphabeta"}
    out.append(Planned("class", "a2_alphabeta", ODD_ID, a2["root_forgets_alpha"].cells,
                       kind="extra"))
    out.append(Planned("class", "a2_alphabeta", "forger", {}, kind="extra"))
    a1_solution = next(p for p in out if (p.assignment, p.student) == ("a1_minimax", "solution"))
    out.append(Planned("class", LMS_STUDENT[0], LMS_ID, a1_solution.cells, kind="lms"))
    _check_unique(out)
    return out


def _check_unique(planned: list[Planned]) -> None:
    seen: dict[tuple[str, str, str], Planned] = {}
    for p in planned:
        key = (p.course, p.assignment, p.student)
        if key in seen:
            raise ValueError(f"two submissions of {p.assignment} by {p.student} in course "
                             f"{p.course}: {seen[key].sample} and {p.sample}")
        seen[key] = p


# ----- the key ---------------------------------------------------------------------------
#: what the grades depend on, besides the versions: folders and files of the repository
INPUTS = ("minimaxkit", "solutions", "tests/grading/submissions", "tests/grading/hostile",
          "nbgrader_config.py")
#: the build's own version: raise it when :func:`build` grades differently (the plan and the
#: courses are in the key already)
BUILD_VERSION = 1
PACKAGES = ("nbgrader", "nbconvert", "nbclient", "nbformat", "ipykernel", "jupyter_client",
            "traitlets", "numpy", "networkx", "matplotlib")


def _input_files(repo: Path) -> Iterator[Path]:
    for name in INPUTS:
        path = repo / name
        if path.is_file():
            yield path
        else:
            yield from (p for p in sorted(path.rglob("*")) if p.is_file()
                        and "__pycache__" not in p.parts and p.suffix != ".pyc"
                        and ".ipynb_checkpoints" not in p.parts)


def cache_key(repo: Path = REPO) -> str:
    """A hash of everything the class's grades depend on (see the module's docstring)."""
    from minimaxkit.isolation import bwrap

    digest = hashlib.sha256()
    for path in _input_files(repo):
        digest.update(str(path.relative_to(repo)).encode() + b"\0" + path.read_bytes() + b"\0")
    versions = {name: _version(name) for name in PACKAGES}
    planned = [[p.course, p.assignment, p.student, p.cells, p.kind] for p in plan(repo)]
    courses = [[c.name, c.openings, c.secret] for c in COURSES]
    digest.update(json.dumps([BUILD_VERSION, planned, courses, sys.version, versions,
                              os.geteuid() == 0, bwrap.available()]).encode())
    return digest.hexdigest()[:20]


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


# ----- building it -----------------------------------------------------------------------
def _run(root: Path, argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *argv], cwd=root, capture_output=True,
                          text=True, env=env, timeout=COMMAND_TIMEOUT)


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def with_openings(root: Path, openings: dict[str, int]) -> None:
    """The course at ``root`` set to play ``openings`` a rung (a5's tests.json's ladder)."""
    path = root / "solutions" / A5 / "tests.json"
    tests = json.loads(path.read_text())
    for rung in tests["questions"]["play"]["ladder"]:
        rung["openings"] = openings[rung["name"]]
    path.write_text(json.dumps(tests, indent=1))


def _forge(path: Path) -> None:
    """A verdict of the student's own in every cell's metadata."""
    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        cell.metadata["minimaxkit"] = {"verdict": FORGED, "speed": {"forged": True}}
    nbformat.write(nb, str(path))


def submit(root: Path, entries: list[Planned]) -> list[str]:
    """The released notebooks generated, the submissions put in ``submitted/`` (or an LMS
    download collected); the errors."""
    errors = []
    api = nbgrader_api(root)
    for assignment in dict.fromkeys(p.assignment for p in entries):
        result = api.generate_assignment(assignment)
        if not result["success"]:
            raise RuntimeError(f"generate_assignment {assignment} failed:\n{result['log']}")
    for p in entries:
        released = root / "assignments" / p.assignment / f"{p.assignment}.ipynb"
        if p.kind == "lms":
            prefix = LMS_STUDENT[1]
            staged = make_submission(released, p.cells, root / "lms" / prefix / released.name)
            archive = root / "downloaded" / p.assignment / "archive"
            archive.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(archive / f"{prefix}.zip", "w") as zf:
                zf.write(staged, f"{prefix}_{released.name}")
            continue
        dest = make_submission(released, p.cells, root / "submitted" / p.student /
                               p.assignment / released.name)
        if p.student == "forger":
            _forge(dest)
    for assignment in dict.fromkeys(p.assignment for p in entries if p.kind == "lms"):
        done = _run(root, ["nbgrader", "zip_collect", assignment, "--force"], dict(os.environ))
        if done.returncode != 0:
            errors.append(f"zip_collect {assignment}: {done.stderr[-2000:]}")
    return errors


def _grade_course(root: Path, entries: list[Planned], env: dict[str, str],
                  record: dict[str, Any]) -> None:
    """The class command on each assignment, then feedback, export and the reports."""
    assignments = list(dict.fromkeys(p.assignment for p in entries))
    for assignment in assignments:
        start = time.perf_counter()
        done = _run(root, ["minimaxkit.grading.autograde", assignment, "--workers", "2"], env)
        record["logs"][assignment] = done.stdout + done.stderr
        record["seconds"][assignment] = round(time.perf_counter() - start, 1)
        if done.returncode != 0:
            record["errors"].append(f"autograde {assignment}: exit {done.returncode}: "
                                    f"{(done.stdout + done.stderr)[-3000:]}")
    for assignment in assignments:
        done = _run(root, ["nbgrader", "generate_feedback", assignment], env)
        if done.returncode != 0:
            record["errors"].append(f"generate_feedback {assignment}: {done.stderr[-3000:]}")
    done = _run(root, ["nbgrader", "export"], env)
    if done.returncode != 0 or not (root / "grades.csv").is_file():
        record["errors"].append(f"export: {done.stderr[-3000:]}")
    for assignment in ("a2_alphabeta", A5):
        if assignment in assignments and root.name != "a5-secret":
            done = _run(root, ["minimaxkit.classroom.report", assignment], env)
            if done.returncode != 0:
                record["errors"].append(f"report {assignment}: {done.stderr[-3000:]}")


def _scores(root: Path) -> dict[str, dict[str, dict[str, float]]]:
    """assignment -> student -> grade_id -> points, as the gradebook holds them."""
    from nbgrader.api import Gradebook

    out: dict[str, dict[str, dict[str, float]]] = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for assignment in gb.assignments:
            for sub in gb.assignment_submissions(assignment.name):
                out.setdefault(assignment.name, {})[sub.student.id] = {
                    g.name: float(g.score) for n in sub.notebooks for g in n.grades}
    return out


def _marked(marker: str) -> list[str]:
    """Processes whose environment holds ``marker`` (everything a build started)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker.encode() in env:
            found.append(f"{pid}: {cmd.decode(errors='replace')[:120]}")
    return found


def build(dest: Path, repo: Path = REPO) -> dict[str, Any]:
    """Grade the class into the folder ``dest``; its manifest (also ``dest/manifest.json``)."""
    start, cpu = time.perf_counter(), _processor_seconds()
    marker = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if not k.startswith("MINIMAXKIT_SECRET")}
    env["MINIMAXKIT_TEST_RUN"] = marker
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    planned = plan(repo)
    manifest: dict[str, Any] = {
        "key": cache_key(repo), "courses": {}, "errors": [],
        "before": {d: _digest(repo / d / "a2_alphabeta") for d in ("solutions", "assignments")}}
    for course in COURSES:
        entries = [p for p in planned if p.course == course.name]
        root = prepare_course(repo, dest / course.name)
        if course.openings:
            with_openings(root, course.openings)
        if course.secret:
            (root / ".minimaxkit-secret").write_text(course.secret)
        record: dict[str, Any] = {"logs": {}, "seconds": {}, "errors": []}
        record["errors"] += submit(root, entries)
        _grade_course(root, entries, env, record)
        record["scores"] = _scores(root)
        record["students"] = {
            a: {p.student: {"kind": p.kind, "sample": str(p.sample.relative_to(repo))
                            if p.sample else None}
                for p in entries if p.assignment == a}
            for a in dict.fromkeys(p.assignment for p in entries)}
        manifest["courses"][course.name] = record
        manifest["errors"] += record["errors"]
    time.sleep(1)  # what a killed kernel's sandbox still ends
    manifest["left"] = _marked(marker)
    manifest["after"] = {"solutions": _digest(dest / "class" / "solutions" / "a2_alphabeta")}
    manifest["built"] = {"seconds": round(time.perf_counter() - start, 1),
                         "processor_seconds": round(_processor_seconds() - cpu, 1),
                         "when": time.strftime("%Y-%m-%d %H:%M:%S")}
    (dest / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


def _processor_seconds() -> float:
    """User and system seconds of this process's waited-for children (the commands)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# ----- reading it ------------------------------------------------------------------------
@dataclass(frozen=True)
class Graded:
    """One student's graded submission: points per grade cell (the gradebook's), where its
    autograded notebook and feedback page are, the sample file it came from."""

    course: str
    assignment: str
    student: str
    root: Path
    scores: dict[str, float]
    sample: Path | None
    kind: str

    @property
    def autograded(self) -> Path:
        return self.root / "autograded" / self.student / self.assignment / \
            f"{self.assignment}.ipynb"

    @property
    def feedback(self) -> Path:
        return self.root / "feedback" / self.student / self.assignment / \
            f"{self.assignment}.html"

    def notebook(self) -> Any:
        return nbformat.read(str(self.autograded), as_version=4)

    def text(self) -> str:
        """What its code cells printed (streams), one output after the other."""
        return "\n".join(str(o.get("text", "")) for c in self.notebook().cells
                         if c.cell_type == "code" for o in c.outputs)


@dataclass
class GradedClass:
    """The graded class in ``folder`` (see the module's docstring)."""

    folder: Path
    manifest: dict[str, Any] = field(default_factory=dict)
    built_now: bool = False

    def __post_init__(self) -> None:
        if not self.manifest:
            self.manifest = json.loads((self.folder / "manifest.json").read_text())

    def root(self, course: str = "class") -> Path:
        return self.folder / course

    @property
    def errors(self) -> list[str]:
        return list(self.manifest["errors"])

    def logs(self, assignment: str, course: str = "class") -> str:
        return str(self.manifest["courses"][course]["logs"].get(assignment, ""))

    @cached_property
    def _index(self) -> dict[tuple[str, str, str], Graded]:
        out = {}
        for course, record in self.manifest["courses"].items():
            for assignment, students in record["students"].items():
                for student, what in students.items():
                    out[(course, assignment, student)] = Graded(
                        course, assignment, student, self.root(course),
                        record["scores"].get(assignment, {}).get(student, {}),
                        REPO / what["sample"] if what["sample"] else None, what["kind"])
        return out

    def students(self, assignment: str, course: str | None = None) -> dict[str, Graded]:
        """Every student of ``assignment`` (in ``course``, or in every course but
        a5-secret's, which grades a5's solution a second time)."""
        return {s: g for (c, a, s), g in self._index.items() if a == assignment and
                (c == course if course else c != "a5-secret")}

    def student(self, assignment: str, student: str, course: str | None = None) -> Graded:
        """Student ``student`` of ``assignment`` (see :meth:`students` for ``course``)."""
        found = self.students(assignment, course).get(student)
        if found is None:
            raise KeyError(f"no student {student!r} of {assignment} in the graded class "
                           f"(course {course or 'any'}): add a sample file under "
                           f"tests/grading/submissions/{assignment}/ (tests/grading/"
                           f"graded_class.py says where each is graded)")
        return found

    def sample(self, path: Path) -> Graded:
        """The student a sample file was graded as."""
        path = Path(path).resolve()
        for graded in self._index.values():
            if graded.sample == path:
                return graded
        raise KeyError(f"{path} is not in the graded class (only files under "
                       f"tests/grading/submissions/ and hostile/ are)")

    def csv(self, course: str = "class") -> str:
        return (self.root(course) / "grades.csv").read_text()


def cache_folder(repo: Path = REPO) -> Path:
    return Path(os.environ.get("MINIMAXKIT_TEST_CACHE", repo / ".test-cache")) / "graded-class"


def graded_class(repo: Path = REPO) -> GradedClass:
    """The graded class of the repository as it is: the cached one, or one built now (one
    process builds while the others wait on the lock)."""
    folder = cache_folder(repo)
    folder.mkdir(parents=True, exist_ok=True)
    key = cache_key(repo)
    done = folder / key
    with open(folder / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.environ.get("MINIMAXKIT_GRADED_CLASS") == "rebuild" and done.exists() and \
                not _built_by_this_run(done):
            shutil.rmtree(done)
        if (done / "manifest.json").is_file():
            return GradedClass(done)
        partial = folder / f".{key}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
        manifest = build(partial, repo)
        manifest["run"] = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
        (partial / "manifest.json").write_text(json.dumps(manifest, indent=1))
        partial.rename(done)
        _prune(folder, keep=key)
        return GradedClass(done, built_now=True)


def _built_by_this_run(done: Path) -> bool:
    """The class was built by this pytest run (another xdist worker of it)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    try:
        return bool(run) and json.loads((done / "manifest.json").read_text()).get("run") == run
    except (OSError, ValueError):
        return False


def _prune(folder: Path, keep: str) -> None:
    """Classes of other keys (older sources) go, unless another run holds their lock."""
    for old in folder.iterdir():
        name = old.name.lstrip(".").removesuffix(".partial").removesuffix(".lock")
        if name == keep or not re.fullmatch(r"[0-9a-f]{20}", name) or not old.is_dir():
            continue
        with open(folder / f"{name}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            shutil.rmtree(old, ignore_errors=True)
            (folder / f"{name}.lock").unlink(missing_ok=True)


if __name__ == "__main__":  # tests/conftest.py starts this when a run will need the class
    built = graded_class()
    print(json.dumps({"folder": str(built.folder), "built_now": built.built_now,
                      "errors": len(built.errors)}))
