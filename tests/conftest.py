"""The whole suite's scheduling and its measure (docs/benchmarks.md, *The test suite*).

- The longest test files run first (``tests/file_times.json``, seconds per file measured by a
  whole run; files it does not name after them, in their order): with two xdist workers
  taking whole files (``--dist loadfile --no-loadscope-reorder``), a long file started last
  would keep one core busy alone at the end.
- A run that will read the graded class (tests/grading/graded_class.py: the whole suite, or
  tests/grading) starts building it at once, in the background, if it is not cached; the
  grading tests wait for it (a file lock) only when they get to it, after their own work.
- A whole run records its time (suite_time.py) and checks the README's figure with it.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import suite_time

REPO = Path(__file__).resolve().parents[1]
FILE_TIMES = Path(__file__).with_name("file_times.json")
CACHE = Path(os.environ.get("MINIMAXKIT_TEST_CACHE", REPO / ".test-cache"))
#: seconds assumed for a file tests/file_times.json does not name (a new one)
UNKNOWN_FILE = 5.0
#: the sample and hostile submissions are code to grade, not modules to import for their
#: docstrings (--doctest-modules): one exits, one forks, one holds 3 GB
collect_ignore = ["grading/submissions", "grading/hostile", "grading/catalogue"]


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest files first; a file's tests keep their order (the same in every worker)."""
    try:
        times = json.loads(FILE_TIMES.read_text())
    except (OSError, ValueError):
        return
    first = {}
    for i, item in enumerate(items):
        first.setdefault(_file_of(item), i)
    items.sort(key=lambda item: (-float(times.get(_file_of(item), UNKNOWN_FILE)),
                                 first[_file_of(item)]))


# ----- the run's measure (the controller only: xdist's workers report to it) ------------
def _controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")


def _whole_run(config: pytest.Config) -> bool:
    """No paths, ``-k``, ``-m``, ``--lf`` or ``-x``: the suite as ``make test`` runs it."""
    opt = config.option
    return not (config.args != config.getini("testpaths") and config.args
                or opt.keyword or opt.markexpr or getattr(opt, "lf", False)
                or getattr(opt, "exitfirst", False) or opt.deselect)


def _processor_seconds() -> float:
    """This process's and its waited-for children's user and system seconds."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class _Measure:
    def __init__(self, fresh: bool) -> None:
        self.start = time.monotonic()
        self.processor = _processor_seconds()
        self.files: dict[str, float] = {}
        self.outcomes: dict[str, int] = {}
        self.fresh = fresh  # the graded class is built in this run


def _graded_class_missing() -> bool:
    """The graded class of the sources as they are is not cached: this run builds it."""
    import sys

    sys.path.insert(0, str(Path(__file__).with_name("grading")))
    try:
        import graded_class
    finally:
        sys.path.pop(0)
    folder = graded_class.cache_folder() / graded_class.cache_key()
    return not (folder / "manifest.json").is_file() or \
        os.environ.get("MINIMAXKIT_GRADED_CLASS") == "rebuild"


_KEY = pytest.StashKey[_Measure]()
_current: dict[str, _Measure] = {}  # the run's, for the report hook (which has no config)
_BUILD = pytest.StashKey[subprocess.Popen[bytes]]()
GRADING = Path(__file__).with_name("grading")


def _reads_graded_class(config: pytest.Config) -> bool:
    """The run will read the graded class: the whole suite, or paths in tests/grading (or
    above it), without a -m or -k that leaves out the slow tests."""
    if config.option.markexpr or config.option.keyword:
        return False
    if _whole_run(config):
        return True
    for arg in config.args:
        path = Path(arg.split("::", 1)[0]).resolve()
        if path == GRADING or GRADING in path.parents or path in GRADING.parents:
            return True
    return False


def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if not _controller(config):
        return
    missing = _reads_graded_class(config) and _graded_class_missing()
    if _whole_run(config):
        _current["measure"] = config.stash[_KEY] = _Measure(fresh=missing)
    if missing:
        CACHE.mkdir(parents=True, exist_ok=True)
        with open(CACHE / "graded-class-build.log", "wb") as log:
            config.stash[_BUILD] = subprocess.Popen(
                [sys.executable, str(GRADING / "graded_class.py")], cwd=REPO, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)


def _end_build(config: pytest.Config) -> None:
    """The background build waited for (its processor time is then counted), or stopped
    with what it started if the run ended before it (Ctrl-C)."""
    build = config.stash.get(_BUILD, None)
    if build is None:
        return
    if build.poll() is None:
        try:
            build.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(build.pid, signal.SIGTERM)
            build.wait()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    measure = _current.get("measure")
    if measure is None:
        return
    file = report.nodeid.split("::", 1)[0]
    measure.files[file] = measure.files.get(file, 0.0) + report.duration
    if report.when == "call" or report.outcome != "passed":
        measure.outcomes[report.outcome] = measure.outcomes.get(report.outcome, 0) + 1


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> Any:
    """After xdist has ended its workers (their processor time is then this process's
    children's): the run's record, and the README's figure checked."""
    result = yield
    _end_build(session.config)
    measure = session.config.stash.get(_KEY, None)
    if measure is None:
        return result
    record = {"wall_seconds": round(time.monotonic() - measure.start, 1),
              "processor_seconds": round(_processor_seconds() - measure.processor, 1),
              "graded_class_built": measure.fresh, "outcomes": measure.outcomes,
              "exitstatus": int(session.exitstatus),
              "when": time.strftime("%Y-%m-%d %H:%M:%S"),
              "load_average_at_end": os.getloadavg()}
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / "last-run.json").write_text(json.dumps(record, indent=1))
    (CACHE / "file-times.json").write_text(json.dumps(
        {f: round(s, 1) for f, s in sorted(measure.files.items(), key=lambda kv: -kv[1])},
        indent=1))
    wrong = suite_time.check(wall=record["wall_seconds"],
                             processor=record["processor_seconds"], fresh=measure.fresh,
                             stated=suite_time.stated_minutes(suite_time.README.read_text()))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "the suite's time (tests/suite_time.py)")
        reporter.write_line(json.dumps(record))
        for line in wrong:
            reporter.write_line(f"FAILED: {line}", red=True)
    if wrong and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result
