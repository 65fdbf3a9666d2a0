"""IPython's kernel in the sandbox, as a kernel spec's launcher starts it (:func:`launch`): the
limits, then bubblewrap around ``ipykernel_launcher -f CONNECTION_FILE``, the notebook's folder
a scratch copy. The kernel talks to its client over Unix sockets next to the connection file
(that folder is bound in: no network inside) and takes interrupts as messages (bwrap's own
session is out of reach of the client's signals). Run by root, the sandbox is an unprivileged
user of its own, as a :class:`~.session.Session`'s is, so that its process limit holds
(:func:`kernel_user`). Without bwrap it warns on stderr and runs with the limits only.

A client makes the folder of the connection file with :func:`connection_folder`.

>>> argv = kernel_argv("/tmp/k/kernel.json", "/tmp/x", course_root=None)
>>> argv[0], argv[-4:]
('bwrap', ['-m', 'ipykernel_launcher', '-f', '/tmp/k/kernel.json'])
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from . import bwrap

__all__ = ["kernel_argv", "kernel_user", "launch", "connection_folder", "FOLDER_PREFIX"]

#: the start of the name of a kernel's connection folder, then the client's pid
FOLDER_PREFIX = "minimaxkit-kernel-"


def kernel_argv(connection_file: str, workdir: str | os.PathLike[str], *,
                course_root: str | os.PathLike[str] | None,
                hidden_files: Iterable[str | os.PathLike[str]] = (),
                uid: int | None = None) -> list[str]:
    """IPython's kernel for ``connection_file`` in the sandbox (as ``uid`` if given), working
    in a scratch copy of ``workdir``, with the course folder and ``hidden_files`` hidden."""
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file]
    return bwrap.sandbox_argv(cmd, workdir=Path(workdir).resolve(), course_root=course_root,
                              scratch=True, writable=[Path(connection_file).resolve().parent],
                              hidden_files=hidden_files, uid=uid,
                              environ={**bwrap.sandbox_env(), **bwrap.ONE_THREAD})


def kernel_user(connection_file: str) -> int | None:
    """The unprivileged user the kernel's sandbox runs as (:func:`~.bwrap.sandbox_uid`), or
    None: root runs it as a user of its own only where the connection file's folder is the
    kernel's own (root's, with nothing else in it, as :func:`connection_folder` makes it),
    because that folder is given to that user for the kernel's sockets."""
    path = Path(connection_file).resolve()
    with contextlib.suppress(OSError):
        folder, file = path.parent.lstat(), path.lstat()
        if stat.S_ISDIR(folder.st_mode) and stat.S_ISREG(file.st_mode) and \
                folder.st_uid == file.st_uid == os.getuid() and \
                [p.name for p in path.parent.iterdir()] == [path.name]:
            return bwrap.sandbox_uid(0)  # 0: no Session's; the pid is this launcher's own
    return None


def launch(connection_file: str, workdir: str | os.PathLike[str], *,
           course_root: str | os.PathLike[str] | None,
           hidden_files: Iterable[str | os.PathLike[str]] = ()) -> int:
    """Become the sandboxed kernel (this process's pid stays the kernel's, whom its client
    watches): the limits, the sandbox's user, an end with the client; it execs, never returns."""
    sandboxed = bwrap.available()
    uid = kernel_user(connection_file) if sandboxed else None
    if not sandboxed:
        print(bwrap.WARNING, file=sys.stderr, flush=True)
        cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file]
    else:
        cmd = kernel_argv(connection_file, workdir, course_root=course_root,
                          hidden_files=hidden_files, uid=uid)
    if uid is not None:  # its sockets go there, and it reads the connection file (mode 0600)
        path = Path(connection_file).resolve()
        for owned in (path.parent, path):
            os.chown(owned, uid, uid, follow_symlinks=False)
    bwrap.limit_resources(processes=bwrap.KERNEL_TASKS if uid is not None else
                          bwrap.PROCESS_LIMIT)
    # who started the kernel (jupyter_client names it): if it ends, or has, so does the kernel
    bwrap.die_with_parent(int(os.environ.get("JPY_PARENT_PID") or os.getppid()))
    # bwrap itself starts with the allow-list: it is /proc/1/environ inside
    env = {**(bwrap.sandbox_env() if sandboxed else bwrap.plain_env()), **bwrap.ONE_THREAD}
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # ipykernel's banner is noise here
    os.execvpe(cmd[0], cmd, env)
    return 1  # pragma: no cover - execvpe does not return


def connection_folder() -> str:
    """A new folder (mode 0700) for a kernel's connection file and sockets, named for this
    process; the folders of processes that ended without removing theirs (an interrupted
    run) are removed first."""
    tmp = Path(tempfile.gettempdir())
    for old in tmp.glob(f"{FOLDER_PREFIX}*"):
        pid, _, rest = old.name[len(FOLDER_PREFIX):].partition("-")
        with contextlib.suppress(OSError):
            st = old.lstat()
            mine = st.st_uid == os.getuid() or (os.getuid() == 0 and st.st_uid >= bwrap.UID_BASE)
            if pid.isdigit() and rest and mine and old.is_dir() and not old.is_symlink() \
                    and not _alive(int(pid)):
                shutil.rmtree(old, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's, or not a pid: leave it
    return True
