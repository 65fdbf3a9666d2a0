"""The launcher of a session's child, ``python -m minimaxkit.isolation.child WORKER RULES``: in
bubblewrap where it runs (the submission's folder a scratch copy, the course's folder and
``hidden_files`` hidden, the kit's searches masked, as a user of its own when the grader is
root), else in a scratch copy of the folder with the course's secrets left out of its
environment. Either way the child starts under the resource limits, set by the process
they bind (:mod:`.rlimits`), in a session of its own; :meth:`RunningChild.stop` ends it and
all it started and removes its scratch folder.
"""

from __future__ import annotations

import contextlib
import itertools
import resource
import shutil
import subprocess
import sys
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

from . import bwrap
from .enter import copy_regular
from .protocol import ParentChannel
from .rlimits import limited_argv
from .rules import Rules, kill_group, search_masks

__all__ = ["ChildSpec", "RunningChild", "launch"]

_SANDBOXES = itertools.count(1)  # sandboxes started in this process: each its own user


@dataclass(frozen=True)
class ChildSpec:
    """What a child is: the submission's ``folder``, the ``worker`` module whose ``Handler``
    answers tests in it (:mod:`.child`), its ``rules``, and what of the course it must not
    see (``course_root``, ``hidden_files``)."""

    folder: Path
    worker: str
    rules: Rules = Rules()
    course_root: Path | None = None
    hidden_files: tuple[Path, ...] = ()


class RunningChild:
    """A started child: its process, its channel (:class:`~.protocol.ParentChannel`), its
    scratch folder, and whether it runs in bubblewrap."""

    def __init__(self, proc: subprocess.Popen[bytes], scratch: str, sandboxed: bool) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        self.proc, self.scratch, self.sandboxed = proc, scratch, sandboxed
        self.channel = ParentChannel(proc.stdin, proc.stdout)
        # removed by stop, or at the latest when this object goes (a session never closed)
        self._cleanup = weakref.finalize(self, shutil.rmtree, scratch, True)

    @property
    def pid(self) -> int:
        """The child's process id (the leader of its process group)."""
        return self.proc.pid

    def kill(self) -> None:
        """Kill the child and all it started, at once (it is reaped by :meth:`stop`)."""
        kill_group(self.proc.pid)

    def stop(self) -> None:
        """End the child and all it started; remove its scratch folder."""
        self.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):  # a child that died
                    stream.close()  # mid-write leaves a broken pipe: nothing to flush
        self._cleanup()


def _child_env(sandboxed: bool) -> dict[str, str]:
    """The environment the child starts with: the sandbox's allow-list, or this one's without
    the course's secrets."""
    if sandboxed:
        env = bwrap.sandbox_env(NBGRADER_EXECUTION="autograde", MINIMAXKIT_PIDNS="1",
                                MPLBACKEND="Agg", PYTHONHASHSEED="0")
    else:
        env = bwrap.plain_env(NBGRADER_EXECUTION="autograde", MINIMAXKIT_SANDBOXED="1",
                              MPLBACKEND="Agg", PYTHONHASHSEED="0")
    return {**env, **bwrap.ONE_THREAD}


def _limits(rules: Rules, uid: int | None) -> dict[str, int]:
    """The child's resource limits: processes (a sandbox of its own user: its tasks), data,
    file size, no core dump, processor seconds per process (none under ``exact_clock``)."""
    return {"data": bwrap.MEMORY_LIMIT, "fsize": bwrap.FILE_LIMIT,
            "nproc": bwrap.SANDBOX_TASKS if uid is not None else bwrap.PROCESS_LIMIT,
            "core": 0, "cpu": resource.RLIM_INFINITY if rules.exact_clock else bwrap.CPU_LIMIT}


def launch(spec: ChildSpec) -> RunningChild:
    """Start the child ``spec`` describes, its stdin and stdout the channel."""
    cmd = [sys.executable, "-m", "minimaxkit.isolation.child", spec.worker,
           spec.rules.to_json()]
    sandboxed = bwrap.available()
    scratch = tempfile.mkdtemp(prefix="minimaxkit-child-")
    try:
        proc = _start(spec, cmd, scratch, sandboxed)
    except BaseException:  # nothing started: nothing of it may stay
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return RunningChild(proc, scratch, sandboxed)


def _start(spec: ChildSpec, cmd: list[str], scratch: str,
           sandboxed: bool) -> subprocess.Popen[bytes]:
    """The child's process: in bubblewrap (a user of its own among all the sandboxes this
    process keeps, when the grader is root), or in a scratch copy of the folder."""
    uid = bwrap.sandbox_uid(next(_SANDBOXES)) if sandboxed else None
    env = _child_env(sandboxed)
    folder = spec.folder.resolve()
    if sandboxed:
        masks = search_masks(Path(scratch)) if spec.rules.refuse_searches else []
        cmd = bwrap.sandbox_argv(cmd, workdir=folder, course_root=spec.course_root,
                                 scratch=True, hidden_files=spec.hidden_files, masks=masks,
                                 environ=env, uid=uid)
        cwd = folder
    else:
        cwd = Path(scratch) / "work"
        cwd.mkdir()
        copy_regular(folder, cwd)
    return subprocess.Popen(limited_argv(cmd, _limits(spec.rules, uid)), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=env,
                            start_new_session=True)
