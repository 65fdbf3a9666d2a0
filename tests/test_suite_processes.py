"""benchmarks/suite_processes.py, the measure of where the suite's processor time goes: its
reading of the kernel's accounting records and its naming of processes, on records made here
with known values. (The accounting itself is not switched on here: it is one file for the
whole machine, and a test that took it would take it from a measurement of this suite.)"""

from __future__ import annotations

import contextlib
import doctest
import fcntl
import importlib.util
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
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


def _record(*, pid: int, parent: int, user: int, system: int, name: bytes,
            version: int = 3) -> bytes:
    """One record laid out by hand as <linux/acct.h> lays out ``struct acct_v3`` (64 bytes,
    little-endian; not with the script's own format): ac_flag (byte 0), ac_version (1),
    ac_tty (2-3), ac_exitcode (4-7), ac_uid (8), ac_gid (12), ac_pid (16), ac_ppid (20),
    ac_btime (24), ac_etime (28, a float of ticks), ac_utime (32-33), ac_stime (34-35), six
    more comp_t (36-47), ac_comm (48-63)."""
    def u(value: int, size: int) -> bytes:
        return value.to_bytes(size, "little")

    data = (u(0, 1) + u(version, 1) + u(0, 2) + u(7, 4) + u(1000, 4) + u(1000, 4)
            + u(pid, 4) + u(parent, 4) + u(1_700_000_000, 4) + struct.pack("<f", 250.0)
            + u(user, 2) + u(system, 2) + bytes(12) + name.ljust(16, b"\0"))
    assert len(data) == 64
    return data


def test_the_docstring_examples(sp: ModuleType) -> None:
    failed, tried = doctest.testmod(sp)
    assert (failed, tried) == (0, 6)  # comp_t one, kind_of four, test_id one


def test_records_are_read_with_their_times_in_seconds(sp: ModuleType) -> None:
    # 250 ticks of user time and 3 * 8 = 24 of system time (mantissa 3, exponent 1): 2.74 s
    data = (_record(pid=42, parent=41, user=250, system=(1 << 13) | 3, name=b"chromium")
            + _record(pid=43, parent=1, user=0, system=7, name=b"python3.11") + b"\0" * 10)
    first, second = sp.read_records(data)
    assert (first.pid, first.parent, first.name, first.processor_seconds) == \
        (42, 41, "chromium", 2.74)
    assert (second.pid, second.parent, second.name, second.processor_seconds) == \
        (43, 1, "python3.11", 0.07)
    assert (first.uid, first.exit_code, first.started, first.elapsed) == \
        (1000, 7, 1_700_000_000.0, 2.5)  # 250 ticks


def test_a_record_of_another_version_is_refused(sp: ModuleType) -> None:
    with pytest.raises(ValueError, match="version 2, not 3"):
        sp.read_records(_record(pid=1, parent=0, user=0, system=0, name=b"x", version=2))


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
    ("alembic", "/v/bin/python /v/bin/alembic upgrade head", "alembic (nbgrader's gradebook)"),
    ("node", "/v/site-packages/playwright/driver/node /v/playwright/driver/package/cli.js",
     "Playwright's driver (Node)"),
    ("node", "node /v/share/jupyter/lab/staging/yarn.js config --json",
     "Node (npm, JupyterLab's build checks)"),
    ("python3.11", "/v/bin/python /r/tests/grading/graded_class.py",
     "the tests' graded class build"),
    ("python3.11", "/v/bin/python -I -S /r/minimaxkit/isolation/enter.py 5", "sandbox entry"),
    ("python3.11", "/v/bin/python -m minimaxkit.classroom.trial /tmp/c", "trial course (the kit "
     "grading through nbgrader)"),
])
def test_processes_are_named_by_what_they_run(sp: ModuleType, name: str, command: str,
                                              kind: str) -> None:
    assert sp.kind_of(name, command) == kind


def _rec(sp: ModuleType, pid: int, seconds: float, name: str, command: str = "",
         test: str = "") -> object:
    return sp.ProcessRecord(pid, 0, 0, 0, 0.0, 0.0, seconds, name, command, test)


def test_the_table_sums_by_kind_most_first(sp: ModuleType) -> None:
    records = [_rec(sp, 1, 2.0, "chromium"),
               _rec(sp, 2, 1.0, "python3.11", "python -m ipykernel_launcher"),
               _rec(sp, 3, 3.0, "chromium")]
    rows = sp.table(records).splitlines()
    assert rows[1].split() == ["5.0", "83.3%", "2", "Chromium"]
    assert rows[2].split() == ["1.0", "16.7%", "1", "notebook", "kernel"]
    assert rows[-1].split() == ["6.0", "100%", "3", "all"]


def test_the_table_by_test_file_and_of_nothing(sp: ModuleType) -> None:
    records = [_rec(sp, 1, 2.0, "chromium", test="tests/a.py::test_one[x y]"),
               _rec(sp, 2, 1.0, "python3.11", "python -m ipykernel_launcher", test="tests/b.py::t"),
               _rec(sp, 3, 0.5, "python3.11", test="tests/a.py::test_two"),
               _rec(sp, 4, 0.25, "python3.11", "python -u -c exec(eval(sys.stdin.readline()))"),
               _rec(sp, 5, 0.125, "python3.11", "python tests/grading/graded_class.py"),
               _rec(sp, 6, 0.0625, "python3.11")]
    rows = [r.split(None, 3) for r in sp.table(records, key="test").splitlines()]
    assert rows[1] == ["2.5", "63.5%", "2", "tests/a.py"]  # 2.5 / 3.9375
    assert [r[3] for r in rows[3:6]] == [
        "(no test: pytest's own processes, the tests' own code)",
        "(no test: begun outside one, e.g. the session's graded class build)",
        "(no test: not seen running)"]
    # past ``rows``, one row sums the rest
    rows = [r.split(None, 3) for r in sp.table(records, key="test", rows=2).splitlines()]
    assert rows[3] == ["0.4", "11.1%", "3", "the other 3"]  # 0.4375 of 3.9375
    assert rows[-1] == ["3.9", "100%", "6", "all"]
    # a command that used no processor time measurably: no share, no division by zero
    rows = [r.split() for r in sp.table([_rec(sp, 1, 0.0, "sh")]).splitlines()]
    assert rows[1] == ["0.0", "-", "1", "sh"] and rows[-1] == ["0.0", "-", "1", "all"]


def test_a_process_takes_the_test_of_its_nearest_sampled_ancestor(sp: ModuleType) -> None:
    """A worker's child started during a test (its environment names the test), that
    child's sandbox (an emptied environment: none) and the sandbox's kernel."""
    sampler = sp.Sampler()
    sampler.seen[10] = [sp.Seen(100.0, 1, "python -u -c exec(eval(...))", "")]
    sampler.seen[20] = [sp.Seen(150.0, 10, "python -m minimaxkit.grading.autograde a2",
                                "tests/grading/test_x.py")]
    sampler.seen[30] = [sp.Seen(151.0, 20, "bwrap --clearenv -- python", "")]
    sampler.seen[31] = [sp.Seen(151.0, 30, "python -m ipykernel_launcher", "")]
    assert sampler.test_of(31, 151.4) == "tests/grading/test_x.py"
    assert sampler.test_of(10, 100.0) == ""  # the worker itself
    assert sampler.test_of(31, 160.0) == ""  # a later process with that pid: not seen
    assert sampler.of(20, 149.0).command.endswith("autograde a2")


def test_not_root_is_refused_before_anything_is_made(sp: ModuleType, tmp_path: Path) -> None:
    """Run as user 65534 (nobody; the script's text on its standard input, which that user
    can read wherever the checkout is): the refusal names root, and no folder or lock is
    made for the run."""
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable]
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("runs the script as user 65534: needs root and setpriv")
    if subprocess.run([*nobody, "-c", "pass"], capture_output=True).returncode != 0:
        pytest.skip(f"user 65534 cannot run {sys.executable}")
    out = tmp_path / "out"
    done = subprocess.run([*nobody, "-", "--out", str(out), "--", "true"],
                          input=SCRIPT.read_text(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert "needs root" in done.stderr and not out.exists(), done.stderr


def test_a_second_measurement_is_refused_before_it_touches_the_accounting(
        sp: ModuleType, tmp_path: Path) -> None:
    """The lock is held here (or by a measurement of this very run, which holds it all along):
    either way a measurement must refuse before it turns the machine's accounting over to a
    file of its own, and run nothing."""
    held = os.open(sp.LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(BlockingIOError):
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RuntimeError, match="another measurement is running"):
            sp.measure(["touch", str(tmp_path / "ran")], tmp_path / "out")
    finally:
        os.close(held)
    assert not (tmp_path / "ran").exists() and not (tmp_path / "out").exists()


def test_the_sampler_reads_a_process_and_the_test_in_its_environment(
        sp: ModuleType) -> None:
    env = dict(os.environ, PYTEST_CURRENT_TEST="tests/x.py::test_y[a (b)] (call)")
    child = subprocess.Popen(["sleep", "30"], env=env)
    try:
        sampler = sp.Sampler()
        sampler._read(child.pid, {})
        (seen,) = sampler.seen[child.pid]
        assert (seen.command, seen.parent, seen.test) == \
            ("sleep 30", os.getpid(), "tests/x.py::test_y[a (b)]")
        assert abs(seen.started - time.time()) < 30
    finally:
        child.kill()
        child.wait()


def test_a_worker_is_named_without_a_test(sp: ModuleType) -> None:
    sampler = sp.Sampler()
    sampler.seen[7] = [sp.Seen(0.0, 1, "python -u -c exec(eval(sys.stdin.readline()))",
                               "tests/a.py::t")]
    named = sp._named(_rec(sp, 7, 9.0, "python3.11"), sampler)
    assert (named.kind, named.test) == ("pytest worker (the tests' own code)", "")


def _stubborn() -> subprocess.Popen[bytes]:
    """A process group that ignores SIGINT and SIGTERM (a shell and its sleeps), returned
    once its trap is set (it says so)."""
    proc = subprocess.Popen(["sh", "-c", "trap '' INT TERM; echo set; "
                             "while true; do sleep 0.1; done"],
                            start_new_session=True, stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"set\n"
    return proc


def test_a_command_deaf_to_the_signal_is_killed_after_the_grace(sp: ModuleType) -> None:
    proc = _stubborn()
    sp._stop_group(proc, signal.SIGTERM, grace=0.5)
    assert proc.returncode == -signal.SIGKILL


def test_a_second_signal_kills_the_command_at_once(sp: ModuleType) -> None:
    """The tool's handlers raise :class:`Stopped`; a second SIGTERM while it waits out the
    grace kills the group there and then, with no traceback (the wait would be 60 s)."""
    proc = _stubborn()
    before = {s: signal.signal(s, sp._raise_stopped) for s in sp.STOPPING}
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM))
    try:
        timer.start()
        started = time.monotonic()
        sp._stop_group(proc, signal.SIGTERM, grace=60)
        assert proc.returncode == -signal.SIGKILL and time.monotonic() - started < 30
    finally:
        timer.cancel()
        for s, handler in before.items():
            signal.signal(s, handler)


def test_an_out_that_is_a_file_is_refused_by_name(sp: ModuleType, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("kept")
    with pytest.raises(SystemExit) as ended:
        sp.main(["--out", str(taken), "--", "true"])
    assert ended.value.code == 2 and "--out" in capsys.readouterr().err
    assert taken.read_text() == "kept"


def test_a_real_measurement_names_its_processes_and_turns_the_accounting_off(
        sp: ModuleType, tmp_path: Path) -> None:
    """The accounting switched on for a moment (refused, and so skipped, while a measurement
    of this very run holds the lock; skipped where root lacks CAP_SYS_PACCT): a child that
    spins 0.3 processor seconds is found and named, a signal's end is said as a shell says
    it, and the file stops growing once the command has ended and once it could not start."""
    if os.geteuid() != 0:
        pytest.skip("process accounting needs root")
    spin = ("import time\nt = time.process_time()\n"
            "while time.process_time() - t < 0.3:\n    pass\n")
    try:
        run = sp.measure([sys.executable, "-c", spin], tmp_path / "out")
    except RuntimeError as err:
        pytest.skip(f"{err} (a measurement of this run)")
    except OSError as err:
        pytest.skip(f"no process accounting here: {err}")
    (child,) = [r for r in run.records if r.command.endswith(spin.strip().split("\n")[-1])
                or "process_time" in r.command]
    assert run.status == 0 and child.kind == "python, other" and child.uid == 0
    assert 0.25 <= child.processor_seconds < 5, child
    acct = tmp_path / "out" / "acct.bin"
    size = acct.stat().st_size
    subprocess.run(["true"], check=True)  # a process that ends: no record may be added
    assert acct.stat().st_size == size
    killed = sp.measure(["sh", "-c", "kill -9 $$"], tmp_path / "out2")
    assert killed.status == 128 + signal.SIGKILL
    with pytest.raises(OSError, match="the command '/no/such/command' cannot start"):
        sp.measure(["/no/such/command"], tmp_path / "out3")
    size = (tmp_path / "out3" / "acct.bin").stat().st_size
    subprocess.run(["true"], check=True)
    assert (tmp_path / "out3" / "acct.bin").stat().st_size == size
