"""benchmarks/suite_processes.py, the measure of where the suite's processor time goes: its
reading of the kernel's accounting records and its naming of processes, on records made here
with known values. (The accounting itself is not switched on here: it is one file for the
whole machine, and a test that took it would take it from a measurement of this suite.)"""

from __future__ import annotations

import contextlib
import doctest
import fcntl
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "suite_processes.py"


@pytest.fixture(scope="module")
def sp() -> ModuleType:
    spec = importlib.util.spec_from_file_location("suite_processes", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def _record(sp: ModuleType, *, pid: int, user: int, system: int, name: bytes,
            version: int = 3) -> bytes:
    """One acct_v3 record: flag, version, tty, exit code, uid, gid, pid, ppid, start, elapsed,
    then utime, stime and six more comp_t counters, then the name."""
    return sp.ACCT_V3.pack(0, version, 0, 0, 0, 0, pid, 1, 1_700_000_000, 2.5,
                           user, system, 0, 0, 0, 0, 0, 0, name)


def test_the_docstring_examples(sp: ModuleType) -> None:
    failed, tried = doctest.testmod(sp)
    assert (failed, tried) == (0, 5)  # comp_t one, kind_of four


def test_records_are_read_with_their_times_in_seconds(sp: ModuleType) -> None:
    # 250 ticks of user time and 3 * 8 = 24 of system time (mantissa 3, exponent 1): 2.74 s
    data = (_record(sp, pid=42, user=250, system=(1 << 13) | 3, name=b"chromium")
            + _record(sp, pid=43, user=0, system=7, name=b"python3.11") + b"\0" * 10)
    first, second = sp.read_records(data)
    assert (first.pid, first.name, first.processor_seconds) == (42, "chromium", 2.74)
    assert (second.pid, second.name, second.processor_seconds) == (43, "python3.11", 0.07)
    assert first.started == 1_700_000_000.0


def test_a_record_of_another_version_is_refused(sp: ModuleType) -> None:
    with pytest.raises(ValueError, match="version 2, not 3"):
        sp.read_records(_record(sp, pid=1, user=0, system=0, name=b"x", version=2))


@pytest.mark.parametrize(("name", "command", "kind"), [
    ("python3.11", "/v/bin/python -m nbgrader autograde a2_alphabeta --force",
     "nbgrader autograde"),
    ("python3.11", "/v/bin/nbgrader fetch_feedback a1_minimax", "nbgrader fetch_feedback"),
    ("python3.11", "python -c x = cell.metadata.get('nbgrader', {})", "python, other"),
    ("python3.11", "/v/bin/python -m minimaxkit.grading.autograde a2 --workers 2",
     "class autograde command and its workers"),
    ("python3.11", "/v/bin/python -m minimaxkit.isolation.child minimaxkit.grading.x {}",
     "sandboxed grading child"),
    ("python3.11", "/v/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))",
     "pytest worker (the tests' own code)"),
    ("bwrap", "bwrap --die-with-parent -- python -m ipykernel_launcher", "bubblewrap"),
    ("python3.11", "python -m ipykernel_launcher -f /tmp/k.json", "notebook kernel"),
    ("python3.11", "/v/bin/python /v/bin/jupyter-lab --no-browser", "Jupyter server"),
    ("python3.11", "/e/bin/python /e/bin/jupyterhub-singleuser --port=1", "Jupyter server"),
    ("python3.11", "/v/bin/python -m jupyterhub -f hub/jupyterhub_config.py", "JupyterHub"),
    ("sh", "", "sh"),
])
def test_processes_are_named_by_what_they_run(sp: ModuleType, name: str, command: str,
                                              kind: str) -> None:
    assert sp.kind_of(name, command) == kind


def test_the_table_sums_by_kind_most_first(sp: ModuleType) -> None:
    records = [sp.ProcessRecord(1, 0, 0.0, 2.0, "chromium"),
               sp.ProcessRecord(2, 0, 0.0, 1.0, "python3.11", "python -m ipykernel_launcher"),
               sp.ProcessRecord(3, 0, 0.0, 3.0, "chromium")]
    rows = sp.table(records).splitlines()
    assert rows[1].split() == ["5.0", "83.3%", "2", "Chromium"]
    assert rows[2].split() == ["1.0", "16.7%", "1", "notebook", "kernel"]
    assert rows[-1].split() == ["6.0", "100%", "3", "all"]


def test_a_second_measurement_is_refused_before_it_touches_the_accounting(
        sp: ModuleType, tmp_path: Path) -> None:
    """The lock is held here (or by a measurement of this very run, which holds it all along):
    either way a measurement must refuse before it turns the machine's accounting over to a
    file of its own, and run nothing."""
    with sp.LOCK.open("w") as held:
        with contextlib.suppress(BlockingIOError):
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RuntimeError, match="another measurement is running"):
            sp.measure(["touch", str(tmp_path / "ran")], tmp_path / "out")
    assert not (tmp_path / "ran").exists() and not (tmp_path / "out").exists()
