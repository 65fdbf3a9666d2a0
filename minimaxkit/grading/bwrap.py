"""The sandbox that student code runs in while it is graded: bubblewrap (``bwrap``).

:func:`sandbox_argv` wraps a command so that it runs with

* the whole file system read-only, ``/tmp`` an empty scratch space (but for the kit and
  the Python running it, if they live there),
* the course folder (the one holding ``nbgrader_config.py``) replaced by an empty folder,
  so ``solutions/``, ``gradebook.db``, ``submitted/``, other students' folders and the
  released assignments are out of sight; only the kit's own code (if it lives there) comes
  back read-only, and the folders named ``writable`` (the submission's own) read-write,
* no network (``--unshare-all``: new network, PID, IPC, UTS and user namespaces),
* a PID namespace: when the command ends, every process it started is killed,
* the course's secrets removed from the environment (:data:`SECRET_ENV`).

:func:`limit_resources` caps memory, processes, file size and core dumps; it is called
before the sandbox is entered and the limits pass to everything inside.

Where ``bwrap`` is missing (another OS, a container without user namespaces),
:func:`available` is False and callers run the command unwrapped, with the limits, after a
clear warning: grades are still computed outside the student's kernel, but the file system
and the network are not hidden.

>>> argv = sandbox_argv(["python", "-c", "pass"], workdir="/tmp/x", course_root=None)
>>> argv[:3], argv[-4:]
(['bwrap', '--die-with-parent', '--unshare-all'], ['--', 'python', '-c', 'pass'])
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["available", "sandbox_argv", "limit_resources", "SECRET_ENV", "MEMORY_LIMIT",
           "FILE_LIMIT", "PROCESS_LIMIT", "WARNING"]

#: environment variables never passed into the sandbox
SECRET_ENV = ("MINIMAXKIT_SECRET", "MINIMAXKIT_SECRET_FILE", "MINIMAXKIT_PRIVATE_TESTS",
              "MINIMAXKIT_COURSE_ROOT", "JPY_PARENT_PID")
MEMORY_LIMIT = 2 << 30  # bytes of data (heap and anonymous mappings) per process
FILE_LIMIT = 64 << 20  # bytes: the largest file student code may write
PROCESS_LIMIT = 512  # processes of the user (not enforced for root: see docs/grading.md)

WARNING = ("minimaxkit: bubblewrap (bwrap) is not available: student code runs WITHOUT the "
           "sandbox (the course folder, gradebook.db and the network are reachable). "
           "Install it (Debian: apt-get install bubblewrap) before grading real submissions.")

_CHECKED: dict[str, bool] = {}


def available() -> bool:
    """True when ``bwrap`` is installed and can make its namespaces here (checked once)."""
    if "ok" not in _CHECKED:
        exe = shutil.which("bwrap")
        ok = False
        if exe is not None and os.environ.get("MINIMAXKIT_NO_SANDBOX") != "1":
            try:
                ok = subprocess.run(
                    [exe, "--die-with-parent", "--unshare-all", "--ro-bind", "/", "/",
                     "--dev", "/dev", "--proc", "/proc", "true"],
                    capture_output=True, timeout=20).returncode == 0
            except (OSError, subprocess.SubprocessError):
                ok = False
        _CHECKED["ok"] = ok
    return _CHECKED["ok"]


def _kit_paths(root: Path) -> list[str]:
    """Folders under ``root`` that Python needs (the kit, the interpreter's environment, a
    virtual environment in the course folder, ``sys.path`` entries): they come back
    read-only inside the sandbox. A ``sys.path`` entry holding the kit (the repository a
    development install runs from) is left out: the kit's own folder is enough, and the
    rest of the repository (its ``solutions/``) stays out of sight.

    >>> kit = Path(__file__).resolve().parents[1]
    >>> str(kit) in _kit_paths(kit.parent) and str(kit.parent) not in _kit_paths(Path("/"))
    True
    """
    kit = Path(__file__).resolve().parents[1]
    out: list[str] = []
    candidates = [kit, Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent,
                  *(Path(p) for p in sys.path if p)]
    for path in candidates:
        try:
            path = path.resolve()
        except OSError:
            continue
        if path in kit.parents or str(path) in out:
            continue
        if path.exists() and path != root and root in path.parents:
            out.append(str(path))
    return out


def sandbox_argv(cmd: Sequence[str], *, workdir: str | os.PathLike[str],
                 course_root: str | os.PathLike[str] | None,
                 writable: Iterable[str | os.PathLike[str]] = (),
                 binds: Iterable[tuple[str, str]] = (),
                 hidden_files: Iterable[str | os.PathLike[str]] = ()) -> list[str]:
    """``cmd`` wrapped in bubblewrap as described in the module docstring.

    ``workdir`` is the working directory inside; ``writable`` folders are bound read-write
    at their own path; ``binds`` are ``(host folder, path inside)`` pairs bound read-write;
    ``hidden_files`` (a secrets file outside the course folder) are masked by an empty file.
    """
    argv = ["bwrap", "--die-with-parent", "--unshare-all", "--new-session",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    # a kit or a Python installed under /tmp (a checkout or a venv there) comes back
    for path in _kit_paths(Path("/tmp").resolve()):
        argv += ["--ro-bind", path, path]
    if course_root is not None:
        root = Path(course_root).resolve()
        argv += ["--tmpfs", str(root)]
        for path in _kit_paths(root):
            argv += ["--ro-bind", path, path]
    for folder in writable:
        argv += ["--bind", str(folder), str(folder)]
    for src, dest in binds:
        argv += ["--bind", str(src), str(dest)]
    if course_root is not None:  # the empty course folder refuses writes (EROFS)
        argv += ["--remount-ro", str(Path(course_root).resolve())]
    for secret in hidden_files:
        if Path(secret).exists():
            argv += ["--ro-bind", os.devnull, str(secret)]
    for name in SECRET_ENV:
        argv += ["--unsetenv", name]
    argv += ["--setenv", "IPYTHONDIR", "/tmp/.ipython", "--setenv", "MPLCONFIGDIR",
             "/tmp/.matplotlib", "--setenv", "MINIMAXKIT_SANDBOXED", "1",
             "--chdir", str(workdir), "--"]
    return argv + list(cmd)


def limit_resources(memory: int = MEMORY_LIMIT, files: int = FILE_LIMIT,
                    processes: int = PROCESS_LIMIT) -> None:
    """Cap this process (and what it starts): data size, file size, processes, no core
    dumps. Limits never rise above what they already are."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    for kind, value in ((resource.RLIMIT_DATA, memory), (resource.RLIMIT_FSIZE, files),
                        (resource.RLIMIT_NPROC, processes), (resource.RLIMIT_CORE, 0)):
        try:
            soft, hard = resource.getrlimit(kind)
            new = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (new, new))
        except (OSError, ValueError):
            pass
