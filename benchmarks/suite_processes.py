"""Where a command's processor time goes, by kind of process: Chromium, notebook kernels,
sandboxes, nbgrader commands, the test workers themselves.

Run a command (the whole test suite, usually) with the kernel's process accounting on::

    sudo python benchmarks/suite_processes.py --out /tmp/suite-processes -- make test

Every process that ends while the command runs (the command's own, and every other process
of the machine: run it on a machine doing nothing else) leaves one record with its user and
system time, all its threads included, however it ended and whoever reaped it. That is why
this counts what the test run's own ``rusage`` misses: a sandbox killed at its end and reaped
by init, Chromium's renderers, the processes of the hub's Unix users. Python processes all
have the name ``python3.11``, so a sampler reads every process's command line every 0.3 s and
the table names them by what they run (a process that starts and ends between two samples
keeps only its name). The table goes to the screen, the records with their command lines to
``OUT/processes.json``.

Linux only (BSD process accounting, ``acct(2)``), as root (the call needs
``CAP_SYS_PACCT``). The kernel keeps one accounting file for the whole machine, so one
measurement runs at a time (a second one is refused, :data:`LOCK`), and the accounting is
turned off when the command ends, fails to start or is interrupted. Figures:
docs/benchmarks.md, *Where the suite's processor time goes*.
"""

from __future__ import annotations

import argparse
import ctypes
import fcntl
import json
import os
import resource
import struct
import subprocess
import sys
import threading
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

#: ``struct acct_v3`` of <linux/acct.h>: flag, version, tty, exit code, uid, gid, pid, parent
#: pid, start (epoch seconds), elapsed (float), then eight ``comp_t`` counters (user time,
#: system time, memory, ...) and the 16-byte command name.
ACCT_V3 = struct.Struct("<BBHIIIIIIf8H16s")
#: the clock ticks a ``comp_t`` time counts (``AHZ`` of the kernel's accounting)
ACCT_HZ = 100
#: seconds between two reads of the command lines
SAMPLE_EVERY = 0.3


@dataclass(frozen=True)
class ProcessRecord:
    """One process that ended: its pid and parent's, when it started (epoch seconds), its
    processor seconds (user and system), its name as the kernel keeps it and its command line
    as the sampler saw it ("" when it was never seen)."""

    pid: int
    parent: int
    started: float
    processor_seconds: float
    name: str
    command: str = ""


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
        pid, parent, started = fields[6], fields[7], fields[8]
        user, system = comp_t(fields[10]), comp_t(fields[11])
        name = fields[18].split(b"\0")[0].decode(errors="replace")
        records.append(ProcessRecord(pid, parent, float(started),
                                     (user + system) / ACCT_HZ, name))
    return records


# --------------------------------------------------------------------------- kinds
#: (words in the command line, kind), the first match wins; checked after the names below
_BY_COMMAND = (
    (("ipykernel",), "notebook kernel"),
    (("minimaxkit.isolation.child",), "sandboxed grading child"),
    (("jupyter-lab", "jupyter lab", "jupyter-notebook", "jupyter notebook",
      "jupyterhub-singleuser"), "Jupyter server"),
    (("jupyterhub",), "JupyterHub"),
    (("minimaxkit.grading.autograde",), "class autograde command and its workers"),
    (("minimaxkit.site",), "site build"),
    (("minimaxkit.",), "other kit command"),
    (("exec(eval(sys.stdin.readline()))",), "pytest worker (the tests' own code)"),
    (("pytest",), "pytest"),
    (("mypy",), "mypy"),
    (("pip ", "pip install", "-m pip"), "pip"),
    (("while True: pass",), "busy loop (tests under load)"),
)
#: (prefix of the kernel's process name, kind)
_BY_NAME = (("chrom", "Chromium"), ("headless", "Chromium"), ("bwrap", "bubblewrap"),
            ("node", "Node (Playwright, npm)"), ("npm", "Node (Playwright, npm)"),
            ("ruff", "ruff"), ("git", "git"))


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
    if name.startswith("python"):
        return "python, not seen running" if not command else "python, other"
    return name or "unnamed"


# --------------------------------------------------------------------------- sampling
class CommandLines:
    """Every process's command line, read from /proc every :data:`SAMPLE_EVERY` seconds
    while :meth:`run` runs (in a thread); :meth:`of` finds a record's."""

    def __init__(self) -> None:
        self.seen: dict[int, list[tuple[float, str]]] = defaultdict(list)
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
            stat = Path(f"/proc/{pid}/stat").read_text()
            start_ticks = int(stat.rsplit(")", 1)[1].split()[19])
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            return  # it ended meanwhile
        command = raw.replace(b"\0", b" ").decode(errors="replace").strip()
        key = (pid, start_ticks)
        if command and last.get(key) != command:  # new, or it ran exec since
            last[key] = command
            self.seen[pid].append((self._boot + start_ticks / self._ticks, command))

    def of(self, record: ProcessRecord) -> str:
        """The last command line seen of the process ``record`` describes (the same pid,
        started within 2 s of it: the record's start is whole seconds), or ""."""
        found = ""
        for started, command in self.seen.get(record.pid, []):
            if abs(started - record.started) <= 2:
                found = command
        return found


def _boot_time() -> float:
    with open("/proc/stat") as stat:
        return float(next(line.split()[1] for line in stat if line.startswith("btime")))


def _acct(path: Path | None) -> None:
    """Turn the kernel's process accounting on (into ``path``) or off (None)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.acct(str(path).encode() if path else None) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"acct({path}): {os.strerror(err)} (run as root, on Linux)")


# --------------------------------------------------------------------------- the run
#: held while a measurement runs: the accounting is one file for the whole machine, and a
#: second measurement would take it from the first
LOCK = Path("/tmp/suite_processes.lock")


def measure(command: list[str], out: Path) -> tuple[int, list[ProcessRecord]]:
    """Run ``command`` with accounting on; its exit status and every record, named. Raises
    :class:`RuntimeError` when another measurement is running."""
    with LOCK.open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(f"another measurement is running ({LOCK} is held): the "
                               "kernel keeps one accounting file, which it would take over"
                               ) from None
        return _measure(command, out)


def _measure(command: list[str], out: Path) -> tuple[int, list[ProcessRecord]]:
    out.mkdir(parents=True, exist_ok=True)
    acct_file = out / "acct.bin"
    acct_file.write_bytes(b"")
    lines = CommandLines()
    sampler = threading.Thread(target=lines.run, daemon=True)
    _acct(acct_file)
    try:
        sampler.start()
        status = subprocess.call(command)
    finally:
        _acct(None)
        lines.stop.set()
        sampler.join()
    records = [ProcessRecord(**{**asdict(r), "command": lines.of(r)})
               for r in read_records(acct_file.read_bytes())]
    return status, records


def table(records: list[ProcessRecord], rows: int = 30) -> str:
    """Processor seconds and processes by kind, the most first."""
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for record in records:
        kind = kind_of(record.name, record.command)
        seconds[kind] += record.processor_seconds
        count[kind] += 1
    total = sum(seconds.values())
    lines = [f"{'processor s':>12} {'share':>6} {'processes':>10}  kind"]
    for kind in sorted(seconds, key=seconds.__getitem__, reverse=True)[:rows]:
        lines.append(f"{seconds[kind]:12.1f} {seconds[kind] / total:6.1%} {count[kind]:10d}  "
                     f"{kind}")
    lines.append(f"{total:12.1f} {1:6.0%} {len(records):10d}  all")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/suite-processes"),
                        help="folder for the accounting file and processes.json")
    parser.add_argument("command", nargs="+", help="the command to run, after --")
    args = parser.parse_args(argv)
    try:
        status, records = measure(args.command, args.out)
    except (OSError, RuntimeError) as err:
        parser.exit(2, f"suite_processes: {err}\n")
    (args.out / "processes.json").write_text(json.dumps([asdict(r) for r in records]))
    print(table(records))
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(f"(this measurement's own sampling: {own.ru_utime + own.ru_stime:.1f} processor "
          "seconds, not in the table)")
    return status


if __name__ == "__main__":
    sys.exit(main())
