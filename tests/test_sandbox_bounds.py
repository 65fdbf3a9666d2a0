"""What bounds one submission's sandbox (docs/grading.md, *The class tournament*, *Untrusted
code*): as root, a user of its own whose process limit counts its processes and threads; its
memory in all processes together; a thread left burning between tests; the owner of a
worker's sandboxes, which never keeps more than a few alive nor gives one to two tasks; the
watch on the autograde kernel's sandbox, and the folder of its sockets."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from minimaxkit.isolation import bwrap
from minimaxkit.isolation.keeper import Keeper
from minimaxkit.isolation.sandboxed_kernel import FOLDER_PREFIX, connection_folder, kernel_user
from minimaxkit.isolation.session import BUSY, ChildFailed, Session
from minimaxkit.isolation.usage import usage
from minimaxkit.isolation.watch import TOO_MANY, Watch

WORKER = "minimaxkit.grading.evaluation.childside"
needs_bwrap = pytest.mark.skipif(not bwrap.available(), reason="needs bubblewrap")


class Box:
    def __init__(self, key: object, log: list[str]) -> None:
        self.key, self.log, self.users = key, log, 0

    def close(self) -> None:
        self.log.append(f"closed {self.key}")


def test_the_keeper_keeps_few_and_gives_each_to_one_task_at_a_time() -> None:
    keeper, log, lock = Keeper(keep=4), [], threading.Lock()
    live_max, clash = [0], []

    def task(n: int) -> None:
        a, b = f"p{n % 7}", f"p{(n * 3 + 1) % 7}"
        with keeper.use([a, b], lambda k: Box(k, log)) as boxes:
            for box in boxes:
                with lock:
                    box.users += 1
                    clash.extend([box.key] if box.users > 1 else [])
            with lock:
                live_max[0] = max(live_max[0], len(keeper.live()))
            time.sleep(0.01)
            for box in boxes:
                with lock:
                    box.users -= 1

    threads = [threading.Thread(target=task, args=(n,)) for n in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert clash == [] and live_max[0] <= 4 and keeper.peak <= 4
    closed = len(log)
    keeper.close()
    assert keeper.live() == [] and len(log) == closed + min(4, 7)


def test_the_keeper_refuses_more_at_once_than_it_keeps() -> None:
    with pytest.raises(ValueError, match="more than keep=2"):
        with Keeper(keep=2).use(["a", "b", "c"], lambda k: Box(k, [])):
            pass


@needs_bwrap
@pytest.mark.skipif(os.getuid() != 0 or not bwrap.as_user()[0],
                    reason="the grader runs as root: a user of its own per sandbox")
def test_as_root_a_sandbox_runs_as_its_own_user_with_few_tasks(tmp_path: Path) -> None:
    with Session(tmp_path, worker=WORKER) as s:
        s.run_cell("import os, threading, time\nuid = os.getuid()\nstarted = 0\n"
                   "for _ in range(40):\n    try:\n"
                   "        threading.Thread(target=time.sleep, args=(3,), daemon=True).start()\n"
                   "        started += 1\n    except RuntimeError:\n        break\n"
                   "assert False, (uid, started)")
        said = s.problems[-1]
    uid, started = eval(said.split("AssertionError: ")[1])  # the cell's own numbers
    assert uid >= bwrap.UID_BASE
    assert started < bwrap.SANDBOX_TASKS  # root ignores the limit: all 40 would start


@needs_bwrap
def test_a_thread_left_burning_between_tests_stops_the_sandbox(tmp_path: Path) -> None:
    with Session(tmp_path, worker=WORKER) as s:
        s.run_cell("import threading\n\ndef burn():\n    while True:\n        pass\n\n"
                   "threading.Thread(target=burn, daemon=True).start()")
        assert s.proc is not None
        idle, start = usage(s.proc.pid).cpu, time.monotonic()
        while usage(s.proc.pid).cpu - idle < 3 and time.monotonic() - start < 120:
            time.sleep(0.5)  # a loaded machine gives the thread a small share
        with pytest.raises(ChildFailed) as err:
            with s.worker(5):
                pass
        assert err.value.message == BUSY and s.proc is None


@needs_bwrap
def test_the_memory_of_all_the_sandboxes_processes_is_bounded(tmp_path: Path) -> None:
    with Session(tmp_path, worker=WORKER, memory=400 << 20) as s:
        s.run_cell("x = 1")
        base = usage(s.proc.pid).memory if s.proc else 0
        assert base < 300 << 20
        # three processes of 150 MB each: no one of them over its own limit
        s.run_cell("import os, time\nfor _ in range(3):\n    if os.fork() == 0:\n"
                   "        b = bytearray(150 << 20)\n        time.sleep(5)\n        os._exit(0)\n"
                   "time.sleep(5)")
        assert "held more memory than allowed" in s.problems[-1], s.problems
        s.run_cell("y = 2")  # a new child: the cells before it run again, not that one
        assert s.names.get("x") == s.names.get("y") == "int"


@needs_bwrap
def test_where_no_process_limit_binds_a_fork_loop_in_a_cell_is_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # as root without a user of its own (the fallback hostcheck names): RLIMIT_NPROC does not
    # bind, so the session's own look at the child's tasks stops the loop near 64 tasks
    monkeypatch.setenv("MINIMAXKIT_SANDBOX_AS_ROOT", "1")
    with Session(tmp_path, worker=WORKER) as s:
        s.run_cell("x = 1")
        s.run_cell("import os, time\nfor i in range(1500):\n    if os.fork() == 0:\n"
                   "        time.sleep(25)\n        os._exit(0)\n")
        assert s.problems[-1].endswith(TOO_MANY.format(bwrap.KERNEL_TASKS) + "; it was left "
                                       "out, and the cells before it were run again"), s.problems
        s.run_cell("y = 2")
        assert s.names.get("x") == s.names.get("y") == "int"
        assert s.proc is not None and usage(s.proc.pid).tasks < 16


@needs_bwrap
def test_no_process_can_hide_the_time_of_its_ended_children(tmp_path: Path) -> None:
    """Ignoring SIGCHLD would have the kernel reap a child at once, its processor time
    counted for no one: a helper could compute for evaluate in such short-lived processes
    (an attack on the speed check). The child refuses it, so four children of about half a
    second each are counted, reaped or not."""
    burn = ("import os, signal, time\ntry:\n    signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
            "    said = 'ignored'\nexcept OSError as err:\n    said = type(err).__name__\n"
            "pids = []\nfor _ in range(4):\n    pid = os.fork()\n    if pid == 0:\n"
            "        end = time.process_time() + 0.5\n        while time.process_time() < end:\n"
            "            pass\n        os._exit(0)\n    pids.append(pid)\n"
            "while any(open(f'/proc/{p}/stat').read().split(') ')[1][0] != 'Z' for p in pids"
            " if os.path.exists(f'/proc/{p}/stat')):\n    time.sleep(0.05)\n")
    with Session(tmp_path, worker=WORKER) as s:
        s.run_cell("x = 1")
        before = s.cpu()
        s.run_cell(burn + "assert False, said")
        used = s.cpu() - before
    assert used > 1.8, (used, s.problems)  # 4 x 0.5 s (without the filter: about 0)
    assert s.problems[-1].endswith("AssertionError: PermissionError"), s.problems


@needs_bwrap
def test_a_sandbox_cannot_hear_another_through_the_files_they_share(tmp_path: Path) -> None:
    """An attack: the notebook's kernel, graded at the same time in a sandbox of its own,
    computed for the trusted child and answered through locks on a system file both see
    (``flock`` on /usr/bin/...), so that its processor time counted for no test. In the child,
    every call that would let it see another process's locks or reads is refused: flock,
    fcntl's locks (POSIX and open-file), its directory notices (F_NOTIFY), inotify and
    fanotify, and io_setup, which moves a count every sandbox reads (/proc/sys/fs/aio-nr);
    the other fcntl commands work. (x86_64's numbers for the raw calls.)"""
    probe = ("import ctypes, fcntl, os\nfd = os.open('/usr/bin/env', os.O_RDONLY)\n"
             "tries = {'flock': lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),\n"
             "  'lockf': lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),\n"
             "  'F_GETLK': lambda: fcntl.fcntl(fd, fcntl.F_GETLK, bytes(32)),\n"
             "  'F_OFD_GETLK': lambda: fcntl.fcntl(fd, 36, bytes(32)),\n"
             "  'F_NOTIFY': lambda: fcntl.fcntl(os.open('/usr/bin', os.O_RDONLY), 1026, 1),\n"
             "  'F_GETFL': lambda: fcntl.fcntl(fd, fcntl.F_GETFL),\n"
             "  'F_DUPFD_CLOEXEC': lambda: fcntl.fcntl(fd, 1030, 0)}\n"
             "said = []\nfor name, call in tries.items():\n    try:\n        call()\n"
             "        said.append(name + ' works')\n    except OSError as err:\n"
             "        said.append(f'{name} {err.errno}')\n"
             "libc = ctypes.CDLL(None, use_errno=True)\n"
             "r = libc.inotify_add_watch(libc.inotify_init1(0), b'/usr/bin/env', 0x20)\n"
             "said.append(f'inotify {r} {ctypes.get_errno()}')\n"
             "r = libc.io_setup(1, ctypes.byref(ctypes.c_ulong(0))) if hasattr(libc, "
             "'io_setup') else libc.syscall(206, 1, ctypes.byref(ctypes.c_ulong(0)))\n"
             "said.append(f'io_setup {r} {ctypes.get_errno()}')\n"
             "r = libc.syscall(300, 0, 0)\n"
             "said.append(f'fanotify {r} {ctypes.get_errno()}')\n"
             "assert False, ', '.join(said)\n")
    with Session(tmp_path, worker=WORKER) as s:
        s.run_cell(probe)
    assert s.problems[-1].endswith(
        "AssertionError: flock 1, lockf 1, F_GETLK 1, F_OFD_GETLK 1, F_NOTIFY 1, F_GETFL works, "
        "F_DUPFD_CLOEXEC works, inotify -1 1, io_setup -1 1, fanotify -1 1"), s.problems


@needs_bwrap
def test_a_sandbox_kept_idle_is_stopped_when_it_holds_too_much(tmp_path: Path) -> None:
    """A thread started by a cell forks processes after the cell has ended (the cell's own
    leftovers are stopped with it), which hold memory while the sandbox waits for its next
    task: the keeper's look stops it then, not at its next use, which says why."""
    hog = ("import os, threading, time\n\ndef later():\n    time.sleep(1)\n"
           "    for _ in range(3):\n        if os.fork() == 0:\n"
           "            b = bytearray(150 << 20)\n            time.sleep(60)\n"
           "            os._exit(0)\n\nthreading.Thread(target=later, daemon=True).start()")
    keeper = Keeper(keep=2, look=0.2)
    with keeper.use(["hog"], lambda k: Session(tmp_path, worker=WORKER, memory=400 << 20)) \
            as (s,):
        s.run_cell(hog)
    start = time.monotonic()
    while not s.stopped and time.monotonic() - start < 60:
        time.sleep(0.2)
    assert "held more memory than allowed" in s.stopped
    assert s.proc is not None and s.proc.wait(30) is not None  # stopped already
    with keeper.use(["hog"], lambda k: Session(tmp_path, worker=WORKER)) as (again,):
        assert again is s
        with pytest.raises(ChildFailed) as err:
            with s.worker(5):
                pass
    assert "held more memory than allowed" in err.value.message
    keeper.close()


def test_a_cell_that_ignores_the_interrupt_leaves_the_names_before_it(tmp_path: Path) -> None:
    """A cell that swallows the interrupt (a bare except in a loop) is left out, and the
    names the cells before it defined are there at once for the grader to read."""
    with Session(tmp_path, worker=WORKER, cell_timeout=2) as s:
        s.run_cell("def alphabeta(node):\n    return 1")
        s.run_cell("import time\nwhile True:\n    try:\n        time.sleep(1000)\n"
                   "    except BaseException:\n        pass")
        assert "did not stop when interrupted" in s.problems[-1], s.problems
        assert s.names.get("alphabeta") == "callable", s.names


def test_memory_a_fork_shares_with_its_parent_counts_once() -> None:
    """A process's pages that a fork of it shares are counted in shares, so a submission's
    memory does not depend on when a fork was looked at (it once cost a 1.6 GB table
    points on one run and not on another). In a process of its own: nothing else below."""
    import subprocess
    import sys

    code = ("import os, time\nfrom minimaxkit.isolation.usage import usage\n"
            "table = bytearray(b'\\x01') * (200 << 20)\npid = os.fork()\n"
            "if pid == 0:\n    time.sleep(3)\n    os._exit(0)\ntime.sleep(0.5)\n"
            "print(usage(os.getpid()).memory)\nos.waitpid(pid, 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert 200 << 20 < int(done.stdout) < 1.5 * (200 << 20), done.stdout


def _group(pgid: int) -> list[int]:
    """The live processes (not ended, not waiting to be reaped) of process group ``pgid``."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            out.append(int(pid))
    return out


def test_a_watch_stops_a_process_and_its_forks_at_its_task_bound() -> None:
    """What the autograde kernel's sandbox gets for a fork bomb, on a plain process: all of
    it is killed once it holds as many tasks as allowed, and the watch says why."""
    import subprocess
    import sys

    code = ("import os, time\nfor _ in range(40):\n    if os.fork() == 0:\n"
            "        time.sleep(60)\n        os._exit(0)\ntime.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    with Watch(proc.pid, tasks=10, every=0.05) as watch:
        assert proc.wait(60) == -9
    assert watch.stopped == TOO_MANY.format(10)
    deadline = time.monotonic() + 10
    while _group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # SIGKILL is delivered, not awaited
    assert _group(proc.pid) == []


def test_a_watch_under_its_bounds_stops_nothing() -> None:
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1)"])
    with Watch(proc.pid, every=0.05) as watch:
        assert watch.check() == ""
        assert proc.wait(60) == 0
    assert watch.stopped == ""


def test_the_connection_folder_is_new_and_stale_ones_go(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted run leaves its kernel's folder (a connection file, mode 0600): the next
    one removes the folders of processes that have ended, and no other."""
    import subprocess
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen(["true"])
    ended.wait()
    names = [f"{FOLDER_PREFIX}{ended.pid}-x1", f"{FOLDER_PREFIX}{os.getpid()}-x2",
             f"{FOLDER_PREFIX}x3", f"{FOLDER_PREFIX}1-x4"]  # pid 1 lives
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "kernel.json").write_text("{}")
    new = Path(connection_folder())
    assert new.parent == tmp_path and new.name.startswith(f"{FOLDER_PREFIX}{os.getpid()}-")
    assert new.stat().st_mode & 0o777 == 0o700
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([new.name, *names[1:]])


def test_the_kernel_is_a_user_of_its_own_only_in_a_folder_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "kernel.json").write_text("{}")
    own = kernel_user(str(tmp_path / "kernel.json"))
    (tmp_path / "other.json").write_text("{}")  # a runtime folder shared with other kernels
    assert kernel_user(str(tmp_path / "kernel.json")) is None
    if os.getuid() == 0 and bwrap.available() and bwrap.as_user()[0]:
        assert own is not None and own >= bwrap.UID_BASE
    else:
        assert own is None


def test_the_child_starts_under_its_limits_and_a_file_past_them_is_refused(tmp_path: Path) -> None:
    """The child's resource limits, as the child itself reads them, are the sandbox's (set by
    the process they bind, rlimits.py, before it becomes the child); a file larger than the
    limit cannot be written (EFBIG), which no tmpfs size would refuse first (the scratch
    folder takes 96 MB)."""
    import resource

    probe = ("import resource\nsaid = [resource.getrlimit(getattr(resource, 'RLIMIT_' + n))[0] "
             "for n in ('DATA', 'FSIZE', 'NPROC', 'CORE', 'CPU')]\n"
             "try:\n    with open('big.bin', 'wb') as f:\n"
             "        f.write(b'x' * (bwrap_file_limit + (1 << 20)))\n"
             "    said.append('written')\nexcept OSError as err:\n"
             "    said.append(err.errno)\nassert False, said\n")
    with Session(tmp_path, worker=WORKER) as s:
        s.run_cell(f"bwrap_file_limit = {bwrap.FILE_LIMIT}")
        s.run_cell(probe)
        own_user = s.sandboxed and bwrap.sandbox_uid(1) is not None
    said = eval(s.problems[-1].split("AssertionError: ")[1])  # the cell's own numbers
    nproc = bwrap.SANDBOX_TASKS if own_user else bwrap.PROCESS_LIMIT

    def capped(value: int, kind: int) -> int:  # never above a hard limit this process has
        hard = resource.getrlimit(kind)[1]
        return value if hard == resource.RLIM_INFINITY else min(value, hard)

    assert said[:5] == [capped(bwrap.MEMORY_LIMIT, resource.RLIMIT_DATA),
                        capped(bwrap.FILE_LIMIT, resource.RLIMIT_FSIZE),
                        capped(nproc, resource.RLIMIT_NPROC), 0,
                        capped(bwrap.CPU_LIMIT, resource.RLIMIT_CPU)], said
    assert said[5] == 27  # EFBIG: File too large


def test_no_module_of_the_kit_starts_a_process_with_a_preexec_fn() -> None:
    """A ``preexec_fn`` runs Python in the forked copy of a parent that may have threads (the
    keeper's, Dask's), which Python's documentation calls unsafe: limits are set by the
    process they bind (isolation/rlimits.py)."""
    import ast

    kit = Path(bwrap.__file__).resolve().parents[1]
    found = [f"{path.relative_to(kit)}:{node.lineno}" for path in sorted(kit.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.keyword) and node.arg == "preexec_fn"]
    assert found == []


@pytest.mark.parametrize(("failure", "said"), [
    ("ChildTimedOut", "ran longer than 60 s and did not stop when interrupted: it was left "
                      "out, and the cells before it were run again"),
    ("ChildEnded", "ended the grading process (os._exit? out of memory?): it was left out, and "
                   "the cells before it were run again"),
    ("SandboxStopped", ": stopped over its bounds; it was left out, and the cells before it "
                       "were run again"),
    ("ChannelBroken", ": stopped over its bounds; it was left out"),
])
def test_a_cell_left_out_is_told_by_the_kind_of_failure_not_by_its_words(
        failure: str, said: str) -> None:
    """The same message, under each kind of failure, gives the words of that kind: the
    policy reads the type (a child stopped over its bounds is told with the watch's words,
    whatever they are)."""
    from minimaxkit.isolation import failures
    from minimaxkit.isolation.cells import CellPolicy

    policy = CellPolicy(cell_timeout=60)
    policy.left_out("the cell that starts \"x\"", getattr(failures, failure)(
        "stopped over its bounds"), 60)
    assert policy.problems == ["the cell that starts \"x\"" + (" " if said[0] != ":" else "")
                               + said]
    assert policy.restarts == 1 and policy.may_restart()
