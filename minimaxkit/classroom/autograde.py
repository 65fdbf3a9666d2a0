"""nbgrader's autograde of a whole class, N submissions at a time, into the one gradebook:
``python -m minimaxkit.grading.autograde ASSIGNMENT`` (docs/grading.md, *A class at once*).
Each submission is graded as ``nbgrader autograde`` grades it with the course's configuration
(for this kit's course: the sandboxed kernel and the trusted grade its ``nbgrader_config.py``
names), in long-lived worker processes or on a Dask cluster
(:mod:`minimaxkit.classroom.workers`). It knows nbgrader, not how the kit grades.

SQLite takes one writer, so the work is split where nbgrader's pipeline writes the gradebook:
this process runs nbgrader's ``init_assignment`` before a submission and the preprocessors
from ``SaveAutoGrades`` on after it; a worker runs the rest (the sanitizing, the kernel, what
the course's preprocessors do) and sends the notebooks back. A submission is done when every
notebook it submitted is in ``autograded/``, written last, after its grades: an interrupted
run leaves exactly what is left to the next.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
import traceback
from contextlib import chdir
from dataclasses import dataclass, field
from functools import lru_cache
from io import StringIO
from pathlib import Path
from typing import Any, TextIO, TypedDict, Unpack

from ..grading.autograde.course_warnings import say_course_warnings
from .workers import DaskWorkers, LocalWorkers, Progress, Workers

__all__ = ["course_converter", "require_course", "NotACourseError", "pending",
           "grade_submission", "autograde_class", "ClassRun", "ClassOptions", "Task", "Graded",
           "main"]


class Task(TypedDict):
    """One submission to grade, as plain data (it goes to worker processes and Dask workers):
    the course's folder, the assignment, the student, the notebooks' paths, and the folder
    its graded notebooks go to."""

    root: str
    assignment: str
    student: str
    notebooks: list[str]
    dest: str


class Graded(TypedDict):
    """What a worker sends back for a :class:`Task`: each notebook graded up to
    ``SaveAutoGrades`` (its text, by nbgrader's unique key), the error that stopped it (""
    if none), the warnings logged, and the seconds it took."""

    notebooks: dict[str, str]
    error: str
    log: str
    seconds: float


class ClassOptions(TypedDict, total=False):
    """How :func:`autograde_class` runs, beside the course and the assignment."""

    #: only these students' submissions (default: everyone's)
    students: tuple[str, ...]
    #: grade again what was graded
    force: bool
    #: worker processes here (default 2)
    workers: int
    #: a Dask scheduler's address (tcp://host:8786) whose workers share the course folder
    scheduler: str | None
    #: where the tasks run, made by the caller (default: from ``workers`` or ``scheduler``)
    engine: Workers | None
    #: where the progress bar goes (default: stderr)
    out: TextIO


class NotACourseError(LookupError):
    """A whole-class command was run in a folder that is not an nbgrader course (it has no
    ``nbgrader_config.py``)."""


def require_course(root: str | Path, command: str) -> Path:
    """``root`` as an absolute path, when it is a course folder (it holds
    ``nbgrader_config.py``); else :class:`NotACourseError` saying so and where to run
    ``command`` (e.g. ``"python -m minimaxkit.grading.report a2_alphabeta"``)."""
    folder = Path(root).resolve()
    if not (folder / "nbgrader_config.py").is_file():
        raise NotACourseError(
            f"{folder} is not a course folder (it has no nbgrader_config.py): run `{command}` "
            "in the course folder, the repository's root")
    return folder


def course_converter(root: str | Path, assignment: str) -> Any:
    """nbgrader's ``Autograde`` converter as ``nbgrader autograde ASSIGNMENT`` makes it in the
    course folder ``root`` (its config files, the course's last). ``root`` must be a course
    folder (:func:`require_course`)."""
    from nbgrader.apps import AutogradeApp
    from nbgrader.converters import Autograde

    root = require_course(root, f"python -m minimaxkit.grading.autograde {assignment}")

    app = AutogradeApp()
    with chdir(root):
        app.initialize(["--log-level=WARN"], root=str(root))
    app.coursedir.assignment_id = assignment
    return Autograde(coursedir=app.coursedir, parent=app)


def _convert(conv: Any, nb: Any, resources: dict[str, Any], part: str) -> str:
    """``nb`` (a notebook, or a file's name) through nbgrader's exporter with the sanitizing
    preprocessors (``part`` "sanitize"), or the autograde ones before ``SaveAutoGrades``
    ("grade") or from it on ("save")."""
    from nbgrader.preprocessors import SaveAutoGrades
    from traitlets.utils.importstring import import_item

    steps = list(conv.sanitize_preprocessors if part == "sanitize" else
                 conv.autograde_preprocessors)
    kinds = [import_item(s) if isinstance(s, str) else s if isinstance(s, type) else type(s)
             for s in steps]
    cut = next((i for i, k in enumerate(kinds) if issubclass(k, SaveAutoGrades)), len(steps))
    exporter = conv.exporter_class(parent=conv, config=conv.config)
    for step in steps[cut:] if part == "save" else steps[:cut]:
        exporter.register_preprocessor(step)
    convert = exporter.from_filename if isinstance(nb, str) else exporter.from_notebook_node
    return str(convert(nb, resources=resources)[0])


@lru_cache(maxsize=4)
def _worker_converter(root: str, assignment: str) -> Any:
    conv = course_converter(root, assignment)
    conv.log.handlers.clear()  # its warnings go back with the result
    conv.log.propagate = False
    return conv


def grade_submission(task: Task) -> Graded:
    """In a worker: each notebook of ``task`` sanitized and autograded up to
    ``SaveAutoGrades``; the notebooks as text, the warnings, the seconds, or the error."""
    import nbformat
    from nbgrader.utils import setenv

    start, log = time.perf_counter(), StringIO()
    notebooks: dict[str, str] = {}
    error = ""
    handler = logging.StreamHandler(log)
    handler.setLevel(logging.WARNING)
    conv = None
    try:
        conv = _worker_converter(task["root"], task["assignment"])
        conv.log.addHandler(handler)
        os.chdir(task["root"])
        for path in task["notebooks"]:
            clean = _convert(conv, path, conv.init_single_notebook_resources(path), "sanitize")
            resources = conv.init_single_notebook_resources(path)
            resources["metadata"] = {"name": resources["unique_key"], "path": task["dest"]}
            with setenv(NBGRADER_EXECUTION="autograde"):
                notebooks[resources["unique_key"]] = _convert(
                    conv, nbformat.reads(clean, as_version=4), resources, "grade")
    except Exception:
        error = traceback.format_exc()
    finally:
        if conv is not None:
            conv.log.removeHandler(handler)
    return Graded(notebooks=notebooks, error=error, log=log.getvalue(),
                  seconds=time.perf_counter() - start)


def pending(conv: Any, *, students: tuple[str, ...] = (), force: bool = False
            ) -> tuple[list[tuple[str, list[str]]], int]:
    """``(student, notebooks)`` left to grade (all with ``force``): not every notebook in
    ``autograded/``, or submitted again since; and how many are done."""
    cd = conv.coursedir
    conv.init_notebooks()
    pattern = cd.format_path(cd.submitted_directory, "(?P<s>.*)", "(?P<a>.*)", escape=True)
    todo, done, seen = [], 0, set()
    for folder, notebooks in sorted(conv.assignments.items()):
        found = re.match(pattern, folder)
        student = found.group("s") if found else Path(folder).parent.name
        seen.add(student)
        if student in cd.student_id_exclude.split(",") or students and student not in students:
            continue
        dest = Path(cd.format_path(cd.autograded_directory, student, cd.assignment_id))
        new, old = cd.get_existing_timestamp(folder), cd.get_existing_timestamp(str(dest))
        if force or not all((dest / Path(nb).name).is_file() for nb in notebooks) or \
                (new is not None and old is not None and new > old):
            todo.append((student, sorted(notebooks)))
        else:
            done += 1
    if missing := set(students) - seen:
        raise LookupError(f"no submission of {cd.assignment_id} by {', '.join(sorted(missing))}"
                          f" in {cd.submitted_directory}/")
    return todo, done


def _prepare(conv: Any, student: str, notebooks: list[str]) -> Task:
    """nbgrader's steps before the notebooks (rows, files), an earlier folder removed."""
    from nbgrader.utils import rmtree

    cd = conv.coursedir
    dest = Path(cd.format_path(cd.autograded_directory, student, cd.assignment_id))
    if dest.exists():
        rmtree(str(dest))
    conv.notebooks = notebooks
    conv.run_pre_convert_hook()
    conv.init_assignment(cd.assignment_id, student)
    return Task(root=cd.root, assignment=cd.assignment_id, student=student,
                notebooks=list(conv.notebooks), dest=str(dest))


def _save(conv: Any, task: Task, result: Graded) -> None:
    """nbgrader's steps from ``SaveAutoGrades`` on (the gradebook), then each notebook written
    whole under its name (a notebook there is a graded one)."""
    import nbformat

    texts = {}
    for path in task["notebooks"]:
        resources = conv.init_single_notebook_resources(path)
        nb = nbformat.reads(result["notebooks"][resources["unique_key"]], as_version=4)
        texts[resources["unique_key"]] = _convert(conv, nb, resources, "save")
    dest = Path(task["dest"])
    dest.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        part = dest.parent / f".{dest.name}-{name}.partial"
        part.write_text(text, encoding="utf-8")
        os.replace(part, dest / f"{name}.ipynb")
    conv.set_permissions(task["assignment"], task["student"])
    conv.run_post_convert_hook()


@dataclass
class ClassRun:
    """What :func:`autograde_class` did: seconds per student graded, why each failed, how many
    were graded before, the seconds in all and those of this process's own steps."""

    graded: dict[str, float] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    already: int = 0
    seconds: float = 0.0
    own: float = 0.0
    stopped: int = 0  # the signal that asked the run to stop (Ctrl-C, SIGTERM), if one did

    def stop(self, signum: int, frame: Any) -> None:
        """A signal handler: the run stops at once, or (where Python drops the interrupt, as
        in a garbage collector's callback) when the next submission is done."""
        self.stopped = signum
        raise KeyboardInterrupt


def _engine(options: ClassOptions, todo: int) -> Workers:
    """Where the tasks run: the caller's engine, the Dask scheduler's workers (grading sets
    the process's folder and environment: one task per Dask worker), or worker processes
    here (no more than there are submissions)."""
    engine = options.get("engine")
    if engine is not None:
        return engine
    scheduler = options.get("scheduler")
    if scheduler:
        return DaskWorkers(grade_submission, scheduler, one_thread=True)
    return LocalWorkers(grade_submission, max(1, min(options.get("workers", 2), todo)))


def _check_in_gradebook(conv: Any, assignment: str) -> None:
    """:class:`LookupError` unless ``assignment`` is in the course's gradebook."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(conv.coursedir.db_url, conv.coursedir.course_id) as gb:
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            raise LookupError(f"{assignment} is not in the gradebook: run nbgrader "
                              f"generate_assignment {assignment} first") from None


def _grade_all(conv: Any, todo: list[tuple[str, list[str]]], run: ClassRun,
               options: ClassOptions, root: Path) -> None:
    """Grade ``todo`` with the workers, a progress bar on ``out``; Ctrl-C and SIGTERM stop
    the run (:meth:`ClassRun.stop`), the signals' handlers put back after. The course's
    warnings (``root``'s: no sandbox, no secret...) are said once, before the workers are
    forked."""
    import signal
    import threading

    bar = Progress(len(todo), options.get("out", sys.stderr), noun="graded")
    handlers, conv.log.handlers[:] = list(conv.log.handlers), [bar]
    say_course_warnings(conv.log, root)  # once, here: the forked workers have then said it
    engine = _engine(options, len(todo))
    main = threading.current_thread() is threading.main_thread()
    before = {sig: signal.signal(sig, run.stop)
              for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        _run(conv, engine, todo, run, bar)
    finally:
        engine.close()  # a second signal meanwhile is still the run's
        for sig, handler in before.items():
            signal.signal(sig, handler)
        conv.log.handlers[:] = handlers
        bar.end()


def autograde_class(root: str | Path, assignment: str,
                    **options: Unpack[ClassOptions]) -> ClassRun:
    """Autograde what is left of ``assignment`` (all with ``force``) in the course at
    ``root``: ``workers`` at a time here, or on the Dask ``scheduler``, or on ``engine``
    (:class:`ClassOptions`)."""
    start, run, root = time.perf_counter(), ClassRun(), Path(root).resolve()
    conv = course_converter(root, assignment)
    with chdir(root):
        todo, run.already = pending(conv, students=options.get("students", ()),
                                    force=options.get("force", False))
        if todo:
            _check_in_gradebook(conv, assignment)
            _grade_all(conv, todo, run, options, root)
    run.seconds = time.perf_counter() - start
    return run


def _run(conv: Any, engine: Workers, todo: list[tuple[str, list[str]]], run: ClassRun,
         bar: Progress) -> None:
    """Keep the workers busy: the next submission is prepared while they grade, given to a
    worker as soon as one is free, and the finished one saved after that."""
    items = iter(todo)

    def prepare() -> Task | None:
        for student, notebooks in items:
            start = time.perf_counter()
            try:
                return _prepare(conv, student, notebooks)
            except Exception as err:
                run.failed[student] = f"nbgrader could not prepare it: {err}"
                bar.done(student, 0.0, False)
            finally:
                run.own += time.perf_counter() - start
        return None

    ahead, busy = prepare(), 0
    while ahead is not None or busy:
        if ahead is not None and busy < engine.capacity:
            engine.submit(ahead)
            ahead, busy = prepare(), busy + 1
            continue
        task, result = engine.done()
        if run.stopped:
            raise KeyboardInterrupt
        if ahead is not None:
            engine.submit(ahead)
            ahead = None
        else:
            busy -= 1
        start = time.perf_counter()
        _finish(conv, task, result, run, bar)
        run.own += time.perf_counter() - start
        ahead = prepare()


def _finish(conv: Any, task: Task, result: Graded | BaseException, run: ClassRun,
            bar: Progress) -> None:
    from nbgrader.utils import rmtree

    who, why = task["student"], ""
    if isinstance(result, BaseException):
        why = str(result) or repr(result)
    elif result["error"]:
        why = result["error"].strip().splitlines()[-1]
    else:
        for line in result["log"].splitlines():
            bar.say(f"{who}: {line}")
        try:
            _save(conv, task, result)
            run.graded[who] = float(result["seconds"])
        except Exception as err:
            why = f"its grades could not be saved: {err!r}"
    if why:  # as nbgrader does with a submission that failed: its folder goes
        if Path(task["dest"]).exists():
            rmtree(task["dest"])
        run.failed[who] = why
        bar.say(f"{who}: not graded: {why}")
    bar.done(who, run.graded.get(who, 0.0), not why)


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.autograde ASSIGNMENT``, in the course folder."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m minimaxkit.grading.autograde", description="nbgrader autograde of a "
        "whole class, N at a time, into the one gradebook; run again, it grades what is left")
    parser.add_argument("assignment")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)),
                       help="worker processes here (default: one per core)")
    where.add_argument("--scheduler", metavar="ADDR",
                       help="a Dask scheduler (tcp://host:8786) whose workers share this folder")
    parser.add_argument("--student", nargs="+", action="extend", default=[], metavar="ID")
    parser.add_argument("--force", action="store_true", help="grade again what was graded")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, not {args.workers}")
    try:
        run = autograde_class(Path.cwd(), args.assignment, students=tuple(args.student),
                              force=args.force, workers=args.workers, scheduler=args.scheduler)
    except KeyboardInterrupt:
        print("interrupted: run the command again to grade what is left", file=sys.stderr)
        return 130
    except Exception as err:  # nbgrader's own errors say what is missing
        print(f"autograde {args.assignment}: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    n = len(run.graded) + len(run.failed)
    print(f"{args.assignment}: graded {len(run.graded)} of {n} in {run.seconds:.1f} s"
          + (f"; {run.already} graded before (--force grades them again)" * bool(run.already)))
    for who, why in sorted(run.failed.items()):
        print(f"  not graded: {who}: {why}")
    if run.failed:
        print("  run the command again to grade what is left")
    return 1 if run.failed else 0
