"""Where a command's processor time goes, by kind of process (Chromium, notebook kernels,
sandboxes, nbgrader commands, the test workers themselves) and by the test that started it.

Run a command (the whole test suite, usually) with the kernel's process accounting on::

    sudo python benchmarks/suite_processes.py --out /tmp/suite-processes -- make test

Every process that ends while the command runs (the command's own, and every other process
of the machine: run it on a machine doing nothing else) leaves one record with its user and
system time, all its threads included, however it ended and whoever reaped it. That is why
this counts what the test run's own ``rusage`` misses: a sandbox killed at its end and reaped
by init, Chromium's renderers, the processes of the hub's Unix users. The kernel keeps only
a short name (``python3.11``, ``python``, a script's first 15 letters), so a sampler reads
every process's command line, parent and ``PYTEST_CURRENT_TEST`` (which a process started
during a test inherits from its worker) every 0.3 s, and the tables name processes by what
they run and by the test file that started them: the test its environment names, or its
nearest sampled ancestor's (``processes.json`` keeps the test's node id and each record's
kind; a process that starts and ends between two samples keeps only its name). The test is
the one running when the process's lineage left its pytest worker: the kernels of a
session-wide JupyterLab and the renderers of a session-wide Chromium count under the test
that started that server or browser, and a worker's own time under none. A "process" in
the counts is every fork, a kernel's short-lived children included; a share is of the
seconds the records name.

Printed: the machine's busy and idle processor seconds over the run (``/proc/stat``), the
table by kind, the test files that cost most. Written: ``OUT/processes.json`` (the run and
every record with its command line and test), ``OUT/acct.bin`` (the kernel's records).

Linux only (BSD process accounting, ``acct(2)``), as root with ``CAP_SYS_PACCT`` (which a
container may drop). The kernel keeps one accounting file for the whole machine, so one
measurement runs at a time (a second one is refused, :data:`LOCK`; another program that
turns accounting over to its own file, such as ``accton``, is noticed by the command's own
record missing, and said; not when the command itself is that program). The accounting is
turned off when the command ends or cannot start, and on SIGINT, SIGTERM or SIGHUP, which go
on to the command's whole process group; what was measured until then is printed (a second
signal kills the group at once). Killed itself (SIGKILL), it leaves the machine's accounting
on, growing its ``acct.bin``; turn it off with::

    sudo python3 -c 'import ctypes; ctypes.CDLL(None).acct(None)'

Figures: docs/benchmarks.md, *Where the suite's processor time goes*.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import errno
import fcntl
import json
import os
import resource
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from types import FrameType

#: ``struct acct_v3`` of <linux/acct.h>: flag, version, tty, exit code, uid, gid, pid, parent
#: pid, start (epoch seconds), elapsed (float, ticks), then eight ``comp_t`` counters (user
#: time, system time, memory, ...) and the 16-byte command name.
ACCT_V3 = struct.Struct("<BBHIIIIIIf8H16s")
#: the clock ticks a ``comp_t`` time counts (``AHZ`` of the kernel's accounting)
ACCT_HZ = 100
#: seconds between two samples of the running processes
SAMPLE_EVERY = 0.3
#: held while a measurement runs: the accounting is one file for the whole machine, and a
#: second measurement would take it from the first (in /run, where only root makes files;
#: opened without following a link and without emptying it)
LOCK = Path("/run/suite_processes.lock" if os.access("/run", os.W_OK)
            else "/tmp/suite_processes.lock")
#: the signals that stop a measurement (and are passed on to the command)
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@dataclass(frozen=True)
class ProcessRecord:
    """One process that ended: its pid and parent's (as the kernel last knew it, 1 once the
    parent had ended), its user id, its exit code as a wait status (the exit code times 256,
    or the number of the signal that ended it), when it started (epoch seconds) and how long
    it ran (seconds), its processor seconds (user and system), its name as the kernel keeps
    it, and as the sampler saw it its command line and the test that started it (a node id;
    "" when never seen), and its kind (:func:`kind_of`; set once it is named)."""

    pid: int
    parent: int
    uid: int
    exit_code: int
    started: float
    elapsed: float
    processor_seconds: float
    name: str
    command: str = ""
    test: str = ""
    kind: str = ""


def comp_t(value: int) -> int:
    """A ``comp_t`` counter's value: 13 bits of mantissa, 3 of base-8 exponent.

    >>> comp_t(100), comp_t((1 << 13) | 100), comp_t((2 << 13) | 1)
    (100, 800, 64)
    """
    return (value & 0x1FFF) << (3 * (value >> 13))


def read_records(data: bytes) -> list[ProcessRecord]:
    """The accounting file's records (version 3, the kernel's default), in the order the
    processes ended; a trailing partial record is left out."""
    records = []
    for offset in range(0, len(data) - ACCT_V3.size + 1, ACCT_V3.size):
        fields = ACCT_V3.unpack_from(data, offset)
        if fields[1] != 3:
            raise ValueError(f"accounting record at byte {offset} is version {fields[1]}, "
                             "not 3: this reader knows only acct_v3")
        exit_code, uid, pid, parent, started, elapsed = (fields[3], fields[4], fields[6],
                                                         fields[7], fields[8], fields[9])
        user, system = comp_t(fields[10]), comp_t(fields[11])
        name = fields[18].split(b"\0")[0].decode(errors="replace")
        records.append(ProcessRecord(pid, parent, uid, exit_code, float(started),
                                     elapsed / ACCT_HZ, (user + system) / ACCT_HZ, name))
    return records


# --------------------------------------------------------------------------- kinds
#: (words in the command line, kind), the first match wins; checked after the names below
_BY_COMMAND = (
    (("ipykernel",), "notebook kernel"),
    (("minimaxkit.isolation.child",), "sandboxed grading child"),
    (("minimaxkit/isolation/enter.py",), "sandbox entry"),
    (("jupyter-lab", "jupyter lab", "jupyter-notebook", "jupyter notebook",
      "jupyterhub-singleuser"), "Jupyter server"),
    (("jupyterhub",), "JupyterHub"),
    (("minimaxkit.grading.autograde",), "class autograde command and its workers"),
    (("minimaxkit.classroom.trial",), "trial course (the kit grading through nbgrader)"),
    (("graded_class.py",), "the tests' graded class build"),
    (("minimaxkit.site",), "site build"),
    (("minimaxkit.",), "other kit command"),
    (("exec(eval(sys.stdin.readline()))",), "pytest worker (the tests' own code)"),
    (("pytest",), "pytest"),
    (("mypy",), "mypy"),
    (("pip ", "pip install", "-m pip"), "pip"),
    (("while True: pass",), "busy loop (tests under load)"),
    (("playwright/driver",), "Playwright's driver (Node)"),
)
#: (prefix of the kernel's process name, kind), checked first
_BY_NAME = (("chrom", "Chromium"), ("headless", "Chromium"), ("bwrap", "bubblewrap"),
            ("ruff", "ruff"), ("git", "git"), ("alembic", "alembic (nbgrader's gradebook)"))


def kind_of(name: str, command: str) -> str:
    """What kind of process a record is, from its kernel name and command line.

    >>> kind_of("python3.11", "/v/bin/python -m ipykernel_launcher -f k.json")
    'notebook kernel'
    >>> kind_of("chromium", "")
    'Chromium'
    >>> kind_of("python3.11", "/v/bin/python -m nbgrader generate_feedback a1 --force")
    'nbgrader generate_feedback'
    >>> kind_of("python3.11", "")
    'python, not seen running'
    """
    for prefix, kind in _BY_NAME:
        if name.startswith(prefix):
            return kind
    words = command.split()
    at = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] == "nbgrader"), None)
    if at is not None:  # "nbgrader autograde ...", "python -m nbgrader autograde ..."
        return f"nbgrader {words[at + 1]}" if at + 1 < len(words) else "nbgrader"
    for needles, kind in _BY_COMMAND:
        if any(needle in command for needle in needles):
            return kind
    if name.startswith(("node", "npm")):
        return "Node (npm, JupyterLab's build checks)"
    if name.startswith("python"):
        return "python, not seen running" if not command else "python, other"
    return name or "unnamed"


def test_id(current_test: str) -> str:
    """The test's node id in a ``PYTEST_CURRENT_TEST`` value, without its phase.

    >>> test_id("tests/browser/test_site.py::test_every_widget[01 two] (setup)")
    'tests/browser/test_site.py::test_every_widget[01 two]'
    """
    return current_test.rsplit(" (", 1)[0] if current_test.endswith(")") else current_test


# --------------------------------------------------------------------------- sampling
@dataclass(frozen=True)
class Seen:
    """A process as a sample saw it: when it started (epoch seconds), its parent, its
    command line and the test its environment names (a node id; "" for none)."""

    started: float
    parent: int
    command: str
    test: str


class Sampler:
    """Every process's command line, parent and test, read from /proc every
    :data:`SAMPLE_EVERY` seconds while :meth:`run` runs (in a thread); :meth:`of` finds a
    record's."""

    def __init__(self) -> None:
        self.seen: dict[int, list[Seen]] = defaultdict(list)
        self.stop = threading.Event()
        self._boot = _boot_time()
        self._ticks = os.sysconf("SC_CLK_TCK")

    def run(self) -> None:
        last: dict[tuple[int, int], str] = {}
        while not self.stop.is_set():
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    self._read(int(entry.name), last)
            self.stop.wait(SAMPLE_EVERY)

    def _read(self, pid: int, last: dict[tuple[int, int], str]) -> None:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            parent, start_ticks = int(fields[1]), int(fields[19])
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            key = (pid, start_ticks)
            text = command.decode(errors="replace").strip()
            if not text or last.get(key) == text:  # a kernel thread, or nothing new
                return
            test = "" if key in last else _current_test(pid)  # the environment: once
            last[key] = text
        except (OSError, IndexError, ValueError):
            return  # it ended meanwhile
        if not test and self.seen[pid]:
            test = self.seen[pid][-1].test  # an exec keeps the test of the process
        self.seen[pid].append(Seen(self._boot + start_ticks / self._ticks, parent, text, test))

    def of(self, pid: int, started: float) -> Seen | None:
        """The last sample of process ``pid`` started at ``started`` (within 2 s: a record's
        start is whole seconds), or None."""
        found = None
        for seen in self.seen.get(pid, []):
            if abs(seen.started - started) <= 2:
                found = seen
        return found

    def test_of(self, pid: int, started: float, depth: int = 8) -> str:
        """The test that started the process (a node id), or its nearest sampled
        ancestor's."""
        seen = self.of(pid, started)
        while seen is not None and not seen.test and depth > 0:
            parents = self.seen.get(seen.parent, [])
            seen = max((p for p in parents if p.started <= seen.started + 2),
                       key=lambda p: p.started, default=None)
            depth -= 1
        return seen.test if seen is not None else ""


def _current_test(pid: int) -> str:
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return ""
    for entry in environ:
        if entry.startswith(b"PYTEST_CURRENT_TEST="):
            return test_id(entry.split(b"=", 1)[1].decode(errors="replace"))
    return ""


def _boot_time() -> float:
    with open("/proc/stat") as stat:
        return float(next(line.split()[1] for line in stat if line.startswith("btime")))


def _busy_idle() -> tuple[float, float]:
    """The machine's busy and idle processor seconds since boot (``/proc/stat``)."""
    with open("/proc/stat") as stat:
        ticks = [int(v) for v in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and waiting for input/output
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK"), idle / os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- the run
class Stopped(Exception):
    """A signal of :data:`STOPPING` came while the command ran."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass(frozen=True)
class Run:
    """A measured run: the command, its exit status (128 + the signal's number when one
    stopped it), its start and end (epoch seconds), the machine's busy and idle processor
    seconds over it, the load average at its end, whether the command's own record is missing
    (another program took the accounting over meanwhile), and every record."""

    command: list[str]
    status: int
    started: float
    ended: float
    busy: float
    idle: float
    load_at_end: tuple[float, float, float]
    taken_over: bool
    records: list[ProcessRecord]


def _acct(path: Path | None) -> None:
    """Turn the kernel's process accounting on (into ``path``) or off (None)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.acct(str(path).encode() if path else None) != 0:
        err = ctypes.get_errno()
        why = ("this root lacks CAP_SYS_PACCT (a container may drop it)" if err == errno.EPERM
               else os.strerror(err))
        raise OSError(err, f"acct({path}): {why}")


def measure(command: list[str], out: Path) -> Run:
    """Run ``command`` with accounting on, its records in the folder ``out``. Raises
    :class:`PermissionError` unless root, :class:`NotADirectoryError` when ``out`` is a file
    and :class:`RuntimeError` when another measurement is running, before anything runs."""
    if os.geteuid() != 0:
        raise PermissionError("needs root: the kernel's process accounting (acct(2)) is "
                              "for root with CAP_SYS_PACCT")
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"--out {out} is a file: it must be a folder (made if missing)")
    lock = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(f"another measurement is running ({LOCK} is held): the "
                               "kernel keeps one accounting file, which it would take over"
                               ) from None
        return _measure(command, out)
    finally:
        os.close(lock)


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def _measure(command: list[str], out: Path) -> Run:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OSError(err.errno, f"--out {out}: {err.strerror}") from None
    (out / "processes.json").unlink(missing_ok=True)  # an earlier run's, in the same folder
    acct_file = out / "acct.bin"
    acct_file.write_bytes(b"")
    sampler = Sampler()
    thread = threading.Thread(target=sampler.run, daemon=True)
    before = {s: signal.signal(s, _raise_stopped) for s in STOPPING}
    started, (busy, idle) = time.time(), _busy_idle()
    _acct(acct_file)
    proc: subprocess.Popen[bytes] | None = None
    try:
        thread.start()
        try:
            proc = subprocess.Popen(command, start_new_session=True)  # its group: a signal
        except OSError as err:
            raise OSError(err.errno, f"the command {command[0]!r} cannot start: "
                                     f"{err.strerror}") from None
        status = proc.wait()
        status = 128 - status if status < 0 else status  # a signal ended it: as a shell says
    except Stopped as stop:
        status = 128 + stop.signum
        if proc is not None:
            _stop_group(proc, stop.signum)
    finally:
        _acct(None)
        for s, handler in before.items():
            signal.signal(s, handler)
        sampler.stop.set()
        thread.join()
    busy_end, idle_end = _busy_idle()
    records = [_named(r, sampler) for r in read_records(acct_file.read_bytes())]
    return Run(command, status, started, time.time(), busy_end - busy, idle_end - idle,
               os.getloadavg(), proc is not None and all(r.pid != proc.pid for r in records),
               records)


def _stop_group(proc: subprocess.Popen[bytes], signum: int, grace: float = 30.0) -> None:
    """Pass ``signum`` to the command's process group; kill the group if it is still there
    ``grace`` seconds later, or at once when a second signal of :data:`STOPPING` comes."""
    try:
        os.killpg(proc.pid, signum)
        proc.wait(timeout=grace)
        return
    except ProcessLookupError:
        return
    except (subprocess.TimeoutExpired, Stopped):
        pass
    for s in STOPPING:  # killed now: a third signal has nothing left to hurry
        signal.signal(s, signal.SIG_IGN)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _named(record: ProcessRecord, sampler: Sampler) -> ProcessRecord:
    """``record`` with its command line and test file; a pytest worker, which runs every
    test of its share, has none. (The kernel writes a record for this process too, when it
    turns the accounting off.)"""
    seen = sampler.of(record.pid, record.started)
    command = seen.command if seen else ""
    kind = ("this measurement" if record.pid == os.getpid()
            else kind_of(record.name, command))
    worker = kind.startswith("pytest")
    return replace(record, command=command, kind=kind,
                   test="" if worker else sampler.test_of(record.pid, record.started))


# --------------------------------------------------------------------------- the tables
def group_of(record: ProcessRecord, key: str) -> str:
    """The row of the table by ``key`` ("kind", or "test" for the test file that started
    the process) that ``record`` counts in."""
    kind = record.kind or kind_of(record.name, record.command)
    if key == "kind":
        return kind
    if record.test:
        return record.test.split("::", 1)[0]
    if kind.startswith("pytest"):
        return "(no test: pytest's own processes, the tests' own code)"
    if not record.command:
        return "(no test: not seen running)"
    return "(no test: begun outside one, e.g. the session's graded class build)"


def table(records: list[ProcessRecord], key: str = "kind", rows: int = 30) -> str:
    """Processor seconds and processes by ``key`` (see :func:`group_of`), the most first;
    the groups past ``rows`` summed in one row."""
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for record in records:
        group = group_of(record, key)
        seconds[group] += record.processor_seconds
        count[group] += 1
    total = sum(seconds.values())

    def row(spent: float, processes: int, what: str) -> str:
        share = f"{spent / total:6.1%}" if total else f"{'-':>6}"
        return f"{spent:12.1f} {share} {processes:10d}  {what}"

    ranked = sorted(seconds, key=seconds.__getitem__, reverse=True)
    lines = [f"{'processor s':>12} {'share':>6} {'processes':>10}  {key}"]
    lines += [row(seconds[g], count[g], g) for g in ranked[:rows]]
    rest = ranked[rows:]
    if rest:
        lines.append(row(sum(seconds[g] for g in rest), sum(count[g] for g in rest),
                         f"the other {len(rest)}"))
    lines.append(f"{total:12.1f} {'100%' if total else '-':>6} {len(records):10d}  all")
    return "\n".join(lines)


def report(run: Run) -> str:
    """What the screen shows of a run."""
    named = sum(r.processor_seconds for r in run.records)
    lines = [f"{' '.join(run.command)}: exit status {run.status}, "
             f"{run.ended - run.started:.0f} s; the machine busy {run.busy:.0f} processor "
             f"seconds, idle {run.idle:.0f}; the records name {named:.0f}",
             "", table(run.records), "", table(run.records, key="test", rows=20)]
    if run.taken_over:
        lines.append("\nWARNING: the command's own record is missing: another program took "
                     "the accounting over during the run (and this one turned it off at its "
                     "end), so the figures are incomplete")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="sudo %(prog)s [--out DIR] -- COMMAND [ARG ...]   (Linux, as root)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/suite-processes"),
                        help="folder for acct.bin and processes.json [/tmp/suite-processes]")
    parser.add_argument("command", nargs="+", help="the command to run, after --")
    args = parser.parse_args(argv)
    try:
        run = measure(args.command, args.out)
    except (OSError, RuntimeError) as err:
        parser.exit(2, f"suite_processes: {err}\n")
    (args.out / "processes.json").write_text(json.dumps(asdict(run)))
    print(report(run))
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(f"(the sampling itself: {own.ru_utime + own.ru_stime:.1f} processor seconds of this "
          "process, in none of the figures)")
    return run.status


if __name__ == "__main__":
    sys.exit(main())
