"""The sandbox student code runs in while it is graded: bubblewrap (``bwrap``), with an
allow-listed file system, the course folder empty and read-only, the submission's folder a
scratch copy, no network, a PID namespace and an allow-listed environment; resource limits
(docs/grading.md, *Untrusted code*). Where bwrap cannot run, :func:`available` is False and
callers run the command unwrapped, with the limits, after :data:`WARNING`.

>>> argv = sandbox_argv(["python", "-c", "pass"], workdir="/tmp/x", course_root=None)
>>> argv[:3], argv[-4:]
(['bwrap', '--die-with-parent', '--unshare-all'], ['--', 'python', '-c', 'pass'])
>>> env = sandbox_env({"HOME": "/root", "API_TOKEN": "x", "LANG": "C.UTF-8"})
>>> "API_TOKEN" in env, env["HOME"], env["LANG"], env["MINIMAXKIT_SANDBOXED"]
(False, '/tmp', 'C.UTF-8', '1')
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

__all__ = ["available", "probe", "sandbox_argv", "sandbox_env", "plain_env",
           "limit_resources", "python_paths", "kit_folder", "MEMORY_LIMIT", "FILE_LIMIT",
           "PROCESS_LIMIT", "SCRATCH_LIMIT", "TMP_LIMIT", "ETC_FILES", "SUBMISSION_MOUNT",
           "WARNING", "REQUIRE_ENV", "SandboxUnavailable", "SECRET_ENV", "SANDBOX_TASKS",
           "CPU_LIMIT", "UID_BASE", "sandbox_uid", "as_user", "die_with_parent", "KERNEL_TASKS",
           "ONE_THREAD", "root_warning", "unreadable_paths"]

#: environment variables that name a course's secrets: never passed to untrusted code (the
#: sandbox's environment is an allow-list anyway; these are dropped where there is no sandbox)
SECRET_ENV = ("MINIMAXKIT_SECRET", "MINIMAXKIT_SECRET_FILE", "MINIMAXKIT_PRIVATE_TESTS",
              "MINIMAXKIT_COURSE_ROOT", "JPY_PARENT_PID")
MEMORY_LIMIT = 2 << 30  # bytes of data (heap and anonymous mappings) per process
FILE_LIMIT = 64 << 20  # bytes: the largest file student code may write
PROCESS_LIMIT = 512  # processes of the user (not enforced for root: see docs/grading.md)
#: tasks (processes and threads) of one sandbox run as its own user (the grader is root)
SANDBOX_TASKS = 16
#: tasks of the autograde kernel's sandbox at once (IPython uses about 15; the rest is for
#: the notebook's own: ``!`` commands, a small pool of processes)
KERNEL_TASKS = 64
#: what a sandbox's numeric libraries may start: one thread each (not one a core, which on a
#: grading server would be most of a sandbox's tasks)
ONE_THREAD = {k: "1" for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
CPU_LIMIT = 1800  # processor seconds of any one process of a sandbox (a thread left burning)
UID_BASE = 1 << 30  # sandboxes' users (root grader): far above any real account's
SCRATCH_LIMIT = 96 << 20  # bytes: the submission's scratch folder, all files together
TMP_LIMIT = 64 << 20  # bytes: the sandbox's /tmp
#: the read-only view of the submission's own folder that the scratch copy is made from
SUBMISSION_MOUNT = "/run/minimaxkit/submission"
#: what of /etc comes in: the linker's cache, time zone, users and groups (programs ask
#: who they are), fonts, the alternatives' links
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group",
             "nsswitch.conf", "fonts", "alternatives", "mime.types")
_SYSTEM = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32")
_LOCALE = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")

WARNING = ("minimaxkit: bubblewrap (bwrap) is not available: student code runs WITHOUT the "
           "sandbox (the course folder, gradebook.db and the network are reachable). "
           "Install it (Debian: apt-get install bubblewrap) before grading real submissions; "
           "`python -m minimaxkit.grading.hostcheck` says what this host lacks.")
#: set to 1 (a hub's instructor server does) and autograde refuses to run without the sandbox
REQUIRE_ENV = "MINIMAXKIT_REQUIRE_SANDBOX"


class SandboxUnavailable(RuntimeError):
    """``MINIMAXKIT_REQUIRE_SANDBOX=1`` and bubblewrap cannot run here."""


def probe(exe: str) -> tuple[bool, str]:
    """Run bubblewrap ``exe`` making every namespace: whether it worked, what it said."""
    try:
        done = subprocess.run([exe, "--die-with-parent", "--unshare-all", "--ro-bind", "/", "/",
                               "--dev", "/dev", "--proc", "/proc", "true"],
                              capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as err:
        return False, str(err)
    return done.returncode == 0, done.stderr.decode(errors="replace").strip()


def available() -> bool:
    """True when ``bwrap`` can make its namespaces here (checked once per process); with
    ``MINIMAXKIT_REQUIRE_SANDBOX=1``, :class:`SandboxUnavailable` instead of False."""
    ok, why = _here()
    if not ok and os.environ.get(REQUIRE_ENV) == "1":
        raise SandboxUnavailable(f"{REQUIRE_ENV}=1 and the sandbox cannot run here "
                                 f"({why}): {WARNING}")
    return ok


@functools.lru_cache(maxsize=1)
def _here() -> tuple[bool, str]:
    exe = shutil.which("bwrap")
    if exe is None:
        return False, "bwrap is not on PATH"
    if os.environ.get("MINIMAXKIT_NO_SANDBOX") == "1":
        return False, "MINIMAXKIT_NO_SANDBOX=1"
    return probe(exe)


def kit_folder() -> Path:
    """The folder of the ``minimaxkit`` package this Python imports."""
    import minimaxkit

    return Path(minimaxkit.__file__).resolve().parent


def python_paths() -> list[str]:
    """The folders the sandboxed Python needs, read-only: the kit, the interpreter's
    prefixes and folder, the package folders of ``sys.path``; never a folder that merely
    holds the kit (a development checkout).

    >>> str(kit_folder()) in python_paths() and str(kit_folder().parent) not in python_paths()
    True
    """
    kit = kit_folder()
    prefixes = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    out: list[str] = []

    def add(path: Path) -> None:
        try:
            path = path.resolve()
        except OSError:
            return
        if path != Path("/") and path.exists() and \
                not any(p == path or p in path.parents for p in map(Path, out)):
            out.append(str(path))

    for path in (kit, *sorted(prefixes), Path(sys.executable).parent,
                 Path(os.path.realpath(sys.executable)).parent):
        add(path)
    for path in map(Path, filter(None, sys.path)):
        if path.name in ("site-packages", "dist-packages") or path.suffix == ".zip" or \
                any(p in path.parents for p in prefixes):
            add(path)
    return [p for p in out if not any(Path(q) in Path(p).parents for q in out)]


def _pythonpath() -> str:
    """``PYTHONPATH`` inside: the kit's parent (a checkout on ``PYTHONPATH``) and the bound
    package folders outside the prefixes (a user site)."""
    prefixes = [Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    parts = [str(kit_folder().parent)]
    for entry in python_paths():
        path = Path(entry)
        if path.name in ("site-packages", "dist-packages") and \
                not any(p in path.parents for p in prefixes):
            parts.append(entry)
    return os.pathsep.join(dict.fromkeys(parts))


def sandbox_env(environ: Mapping[str, str] | None = None, **extra: str) -> dict[str, str]:
    """The environment bwrap starts with, all the sandbox sees: an allow-list, plus ``extra``."""
    src = os.environ if environ is None else environ
    env = {"PATH": os.pathsep.join(dict.fromkeys(
               [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])),
           "HOME": "/tmp", "IPYTHONDIR": "/tmp/.ipython", "MPLCONFIGDIR": "/tmp/.matplotlib",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": _pythonpath(),
           "MINIMAXKIT_SANDBOXED": "1"}
    for name in ("LANG", "LC_ALL", "LC_CTYPE"):
        if _LOCALE.match(src.get(name, "")):
            env[name] = src[name]
    env.setdefault("LANG", "C.UTF-8")
    if src.get("NBGRADER_EXECUTION") in ("autograde", "validate"):
        env["NBGRADER_EXECUTION"] = src["NBGRADER_EXECUTION"]
    env.update(extra)
    return env


def plain_env(**extra: str) -> dict[str, str]:
    """Student code's environment without the sandbox: this one's without the course's
    secrets (``SECRET_ENV``), marked unsandboxed unless ``extra`` says otherwise.

    >>> plain_env(MINIMAXKIT_SANDBOXED="1")["MINIMAXKIT_SANDBOXED"]  # a child under the rules
    '1'
    """
    return {**{k: v for k, v in os.environ.items() if k not in SECRET_ENV},
            "MINIMAXKIT_SANDBOXED": "0", "PYTHONDONTWRITEBYTECODE": "1", **extra}


def _under(path: Path, folders: Iterable[str]) -> bool:
    return any(Path(f) == path or Path(f) in path.parents for f in folders)


class LayoutOptions(TypedDict, total=False):
    """What :func:`sandbox_argv` puts in the sandbox beside the command, its folder and the
    course's folder."""

    #: the working folder is a tmpfs that :mod:`.enter` fills from the real one
    scratch: bool
    #: folders bound writable (the kernel's connection folder)
    writable: Iterable[str | os.PathLike[str]]
    #: files masked by an empty one (the course's secret)
    hidden_files: Iterable[str | os.PathLike[str]]
    #: ``(file, path)``: ``file`` shown at ``path`` (the stubs of the kit's searches)
    masks: Iterable[tuple[str, str]]
    #: the environment bwrap starts with (default :func:`sandbox_env`)
    environ: Mapping[str, str] | None
    #: bwrap run by root, with ``scratch``: no user namespace, :mod:`.enter` becomes ``uid``
    uid: int | None


@dataclass(frozen=True)
class _Layout:
    """A sandbox's file system as :func:`sandbox_argv` lays it out."""

    work: Path
    root: Path | None
    scratch: bool
    uid: int | None


def _namespaces(uid: int | None) -> list[str]:
    """bwrap's start: every namespace; as root (``uid``), no user namespace but the
    capabilities :mod:`.enter` needs to become ``uid``, and the folders above the Python
    made enterable."""
    if uid is None:
        return ["bwrap", "--die-with-parent", "--unshare-all", "--new-session", "--clearenv"]
    # root outside: a user namespace would keep every process root (no NPROC limit)
    argv = ["bwrap", "--die-with-parent", "--unshare-ipc", "--unshare-pid", "--unshare-net",
            "--unshare-uts", "--unshare-cgroup-try", "--new-session", "--clearenv"]
    argv += [a for cap in ("SETUID", "SETGID", "CHOWN") for a in ("--cap-add", f"CAP_{cap}")]
    return argv


def _system(bound: list[str]) -> list[str]:
    """The system's folders read-only (each added to ``bound``), /etc's allowed files, /dev,
    /proc and a small /tmp."""
    argv: list[str] = []
    for name in _SYSTEM:
        path = Path("/") / name
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            argv += ["--ro-bind", str(path), str(path)]
            bound.append(str(path))
    for name in ETC_FILES:
        argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return argv + ["--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--size",
                   str(TMP_LIMIT), "--tmpfs", "/tmp"]


def _folders(layout: _Layout, bound: list[str], writable: Iterable[str | os.PathLike[str]]
             ) -> list[str]:
    """The course's folder emptied, the Python's folders read-only (added to ``bound``), the
    submission's folder (a scratch tmpfs over a read-only view of it), the ``writable`` ones;
    the empty course folder then refuses writes (EROFS)."""
    argv: list[str] = []
    if layout.root is not None:
        argv += ["--tmpfs", str(layout.root)]
    if layout.uid is not None:  # the folders above the Python, made after the tmpfs that would
        # hide them (/tmp, the course's): a bind makes missing ones 0700, which a user of the
        # sandbox's own cannot enter (a home of mode 0700, a venv under pytest's /tmp folders)
        for folder in _parents(python_paths()):
            argv += ["--perms", "0755", "--dir", folder]
    for folder in python_paths():
        if not _under(Path(folder), bound):
            argv += ["--ro-bind", folder, folder]
            bound.append(folder)
    if layout.scratch:
        argv += ["--ro-bind", str(layout.work), SUBMISSION_MOUNT,
                 "--size", str(SCRATCH_LIMIT), "--tmpfs", str(layout.work)]
    for place in writable:
        argv += ["--bind", str(place), str(place)]
    if layout.root is not None:
        argv += ["--remount-ro", str(layout.root)]
    return argv


def _masked(layout: _Layout, bound: list[str], hidden_files: Iterable[str | os.PathLike[str]],
            masks: Iterable[tuple[str, str]]) -> list[str]:
    """Each hidden file that the sandbox would see (under a bound folder, not in the emptied
    course folder) masked by an empty one; each mask's file shown at its path."""
    argv: list[str] = []
    root = layout.root
    for hidden in hidden_files:
        path = Path(hidden).resolve()
        if path.exists() and _under(path, bound) and not (root and _under(path, [str(root)])):
            argv += ["--ro-bind", os.devnull, str(path)]
    for src, dest in masks:
        if Path(dest).exists():
            argv += ["--ro-bind", str(src), str(dest)]
    return argv


def _start(layout: _Layout, environ: Mapping[str, str] | None) -> list[str]:
    """Everything read-only, the environment, the working folder, and with ``scratch``
    :mod:`.enter` first (by its path, isolated and without site: it needs only the stdlib,
    and importing the kit's packages first would cost every kernel start ~0.2 s)."""
    argv = ["--remount-ro", "/"]
    for key, value in sorted((sandbox_env() if environ is None else environ).items()):
        argv += ["--setenv", key, value]
    argv += ["--chdir", str(layout.work), "--"]
    if layout.scratch:
        uid = ["--uid", str(layout.uid)] if layout.uid is not None else []
        argv += [sys.executable, "-I", "-S", str(Path(__file__).with_name("enter.py")),
                 SUBMISSION_MOUNT, str(layout.work), *uid, "--"]
    return argv


def sandbox_argv(cmd: Sequence[str], *, workdir: str | os.PathLike[str],
                 course_root: str | os.PathLike[str] | None,
                 **options: Unpack[LayoutOptions]) -> list[str]:
    """``cmd`` in bubblewrap, in ``workdir``: with ``scratch`` a tmpfs that :mod:`.enter` fills
    from the real one, else one of the ``writable`` folders. ``hidden_files`` are masked by an
    empty file; each ``(file, path)`` of ``masks`` shows ``file`` at ``path``. Start bwrap
    with ``environ`` (default :func:`sandbox_env`). With ``uid`` (bwrap run by root, and
    ``scratch``), no user namespace: :mod:`.enter` becomes that unprivileged user
    (:class:`LayoutOptions`)."""
    for name in options:
        if name not in LayoutOptions.__optional_keys__:
            raise TypeError(f"sandbox_argv() got an unexpected keyword argument {name!r}")
    uid = options.get("uid")
    layout = _Layout(Path(workdir).resolve(),
                     Path(course_root).resolve() if course_root is not None else None,
                     options.get("scratch", False), uid)
    bound: list[str] = []
    argv = _namespaces(uid) + _system(bound)
    argv += _folders(layout, bound, options.get("writable", ()))
    argv += _masked(layout, bound, options.get("hidden_files", ()), options.get("masks", ()))
    return argv + _start(layout, options.get("environ")) + list(cmd)


def _parents(folders: Iterable[str]) -> list[str]:
    """The folders above ``folders`` that bwrap makes, outermost first (not /, /usr...)."""
    out = {str(p) for f in folders for p in Path(f).parents
           if p != Path("/") and p.parts[1] not in _SYSTEM}
    return sorted(out, key=lambda p: (p.count("/"), p))


def root_warning() -> str:
    """What to tell an instructor who grades as root where the sandbox cannot run as a user
    of its own, in one line with the fix (``""`` where it can, or where the grader is not
    root)."""
    if os.getuid() != 0 or os.environ.get("MINIMAXKIT_SANDBOX_AS_ROOT") == "1":
        return ""
    works, why = as_user()
    if works:
        return ""
    hidden = unreadable_paths()
    fix = (f"chmod -R o+rX {' '.join(hidden)}" if hidden else
           "make the kit and its Python readable by all users (chmod -R o+rX)")
    return ("minimaxkit: grading as root, but a user of the sandbox's own cannot run this "
            f"Python ({why or 'no reason given'}), so each sandbox is bounded by the watch "
            f"alone, not by a process limit of its own; fix: {fix}")


def unreadable_paths() -> list[str]:
    """The folders the sandboxed Python needs (:func:`python_paths`) that other users cannot
    enter or read: where a grader run as root gives each sandbox a user of its own, that
    user must read them (bwrap recreates the folders above them, such as a home of mode
    0700, but keeps their own modes and their files')."""
    out = []
    for folder in python_paths():
        try:
            if os.stat(folder).st_mode & 0o005 != 0o005:
                out.append(folder)
        except OSError:
            continue
    return out


def sandbox_uid(n: int) -> int | None:
    """The unprivileged user the ``n``-th sandbox of this process runs as when the grader
    runs as root (None otherwise): one of its own per live sandbox, so that the process
    limit (which never binds root) counts that sandbox's processes and threads only."""
    if os.getuid() != 0 or os.environ.get("MINIMAXKIT_SANDBOX_AS_ROOT") == "1" or \
            not as_user()[0]:
        return None
    return UID_BASE + (os.getpid() % (1 << 22)) * 256 + n % 256


@functools.lru_cache(maxsize=1)
def as_user() -> tuple[bool, str]:
    """Whether this Python runs in the sandbox as an unprivileged user (its files must be
    readable by all), and what went wrong if not (checked once per process)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        argv = sandbox_argv([sys.executable, "-c", "import minimaxkit"], workdir=folder,
                            course_root=None, scratch=True, uid=UID_BASE)
        try:
            done = subprocess.run(argv, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as err:
            return False, str(err)
    said = done.stderr.decode(errors="replace").strip().splitlines()
    return done.returncode == 0, said[-1][:300] if said else ""  # a traceback's last line


def limit_resources(memory: int = MEMORY_LIMIT, files: int = FILE_LIMIT,
                    processes: int = PROCESS_LIMIT, cpu: int = CPU_LIMIT) -> None:
    """Cap this process and its children (data, file size, processes, processor seconds of
    each, no core dumps); never above the limits already set. Called by the process it caps
    (a kernel's launcher before it becomes the kernel); a child is started under them by
    :func:`~.rlimits.limited_argv`, never from a ``preexec_fn``."""
    try:
        from .rlimits import set_limits
    except ImportError:  # pragma: no cover - Windows: no resource module
        return
    set_limits({"data": memory, "fsize": files, "nproc": processes, "core": 0, "cpu": cpu})


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> None:
    """Get ``sig`` when the process that started this one ends (``parent``, its
    pid when this one began), also after an ``exec``: bwrap's ``--die-with-parent`` binds
    the sandbox to bwrap, not bwrap to whoever started it, so a grader stopped mid-run left
    its kernel running (and holding its output). Linux only; elsewhere nothing happens."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(sig))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if os.getppid() != parent:  # it ended before the signal was set
        os._exit(1)
