"""The sandbox that student code runs in while it is graded: bubblewrap (``bwrap``).

:func:`sandbox_argv` wraps a command so that it runs with

* **an allow-listed file system**: the sandbox's root is empty; the operating system's
  programs and libraries (``/usr`` and the merged ``/bin``, ``/lib``...), a few files of
  ``/etc`` that programs need (:data:`ETC_FILES`), the Python that runs the kit (its
  prefixes and site folders) and the kit's own code come in read-only. Nothing else of the
  machine is there: no home directory, no ``/root``, ``/var``, ``/srv``, ``/mnt`` or
  ``/run``, no other course, no SSH key, no Jupyter runtime file;
* the course folder (the one holding ``nbgrader_config.py``) an empty read-only folder, so
  ``solutions/``, ``gradebook.db``, ``submitted/``, other students' folders and the released
  assignments are out of sight and writing there fails (``EROFS``);
* the submission's folder a **scratch copy** in a size-capped tmpfs at the same path
  (:data:`SCRATCH_LIMIT`): its regular files are copied in inside the sandbox
  (:mod:`.enter`; links, FIFOs and devices are not), and nothing the code writes there,
  symlinks and huge files included, reaches the course;
* ``/tmp`` an empty size-capped tmpfs, ``/dev`` minimal, ``/proc`` of its own;
* no network (``--unshare-all``: new network, PID, IPC, UTS and user namespaces), a new
  session (no terminal to type into), and a PID namespace: when the command ends, every
  process it started is killed;
* **a minimal environment** (:func:`sandbox_env`): bwrap itself is started with it, so
  neither ``os.environ`` nor ``/proc/1/environ`` (bwrap is PID 1 inside) holds anything of
  the instructor's (a hub's API token, the course's secret).

:func:`limit_resources` caps memory, processes, file size and core dumps; it is called
before the sandbox is entered and the limits pass to everything inside.

Where ``bwrap`` is missing (another OS, a container without user namespaces),
:func:`available` is False and callers run the command unwrapped, with the limits, after a
clear warning: grades are still computed outside the student's kernel, but the file system
and the network are not hidden.

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
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..testdata.places import SECRET_ENV

__all__ = ["available", "probe", "sandbox_argv", "sandbox_env", "plain_env",
           "limit_resources", "python_paths", "kit_folder", "MEMORY_LIMIT", "FILE_LIMIT",
           "PROCESS_LIMIT", "SCRATCH_LIMIT", "TMP_LIMIT", "ETC_FILES", "SUBMISSION_MOUNT",
           "WARNING", "REQUIRE_ENV", "SandboxUnavailable", "SECRET_ENV"]

MEMORY_LIMIT = 2 << 30  # bytes of data (heap and anonymous mappings) per process
FILE_LIMIT = 64 << 20  # bytes: the largest file student code may write
PROCESS_LIMIT = 512  # processes of the user (not enforced for root: see docs/grading.md)
SCRATCH_LIMIT = 96 << 20  # bytes: the submission's scratch folder, all files together
TMP_LIMIT = 64 << 20  # bytes: the sandbox's /tmp
#: the read-only view of the submission's own folder that the scratch copy is made from
SUBMISSION_MOUNT = "/run/minimaxkit/submission"
#: what of /etc comes into the sandbox: the dynamic linker's cache, time zone, users and
#: groups (names only: programs ask who they are), fonts and the alternatives' links
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
    """Run ``exe`` (bubblewrap) the way the sandbox does, making every namespace; whether it
    worked and what it said."""
    try:
        done = subprocess.run([exe, "--die-with-parent", "--unshare-all", "--ro-bind", "/", "/",
                               "--dev", "/dev", "--proc", "/proc", "true"],
                              capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as err:
        return False, str(err)
    return done.returncode == 0, done.stderr.decode(errors="replace").strip()


def available() -> bool:
    """True when ``bwrap`` is installed and can make its namespaces here (checked once per
    process). With ``MINIMAXKIT_REQUIRE_SANDBOX=1`` in the environment, raise
    :class:`SandboxUnavailable` (saying why) instead of returning False."""
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
    prefixes and its folder, and the ``sys.path`` entries that are package folders
    (``site-packages``, ``dist-packages``, the standard library). A folder that merely
    holds the kit (the repository a development install runs from, a ``PYTHONPATH``
    checkout) is not among them: the kit's own folder is enough, the rest stays out.

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
        if path == Path("/") or not path.exists() or str(path) in out:
            return
        if any(p == path or p in path.parents for p in map(Path, out)):
            return
        out.append(str(path))

    add(kit)
    for prefix in sorted(prefixes):
        add(prefix)
    add(Path(sys.executable).parent)
    add(Path(os.path.realpath(sys.executable)).parent)
    for entry in sys.path:
        if not entry:
            continue
        path = Path(entry)
        if path.name in ("site-packages", "dist-packages") or path.suffix == ".zip" or \
                any(p in path.parents for p in prefixes):
            add(path)
    # drop what another entry already holds
    keep = [p for p in out if not any(Path(q) in Path(p).parents for q in out)]
    return keep


def _pythonpath() -> str:
    """``PYTHONPATH`` inside: the kit's parent (so ``import minimaxkit`` finds the kit even
    when it is a checkout on ``PYTHONPATH``) and the bound package folders outside the
    prefixes (a user site, for one)."""
    prefixes = [Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    parts = [str(kit_folder().parent)]
    for entry in python_paths():
        path = Path(entry)
        if path.name in ("site-packages", "dist-packages") and \
                not any(p in path.parents for p in prefixes):
            parts.append(entry)
    return os.pathsep.join(dict.fromkeys(parts))


def sandbox_env(environ: Mapping[str, str] | None = None, **extra: str) -> dict[str, str]:
    """The environment bwrap is started with, and all the sandbox sees: an allow-list
    (``PATH``, the locale, ``HOME`` and the tools' folders in the sandbox's ``/tmp``,
    ``NBGRADER_EXECUTION``), never the instructor's other variables; ``extra`` adds to it.
    """
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
    """The environment of student code run without the sandbox: this process's, without the
    course's secrets (:data:`~..testdata.places.SECRET_ENV`), marked unsandboxed."""
    env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
    env.update(MINIMAXKIT_SANDBOXED="0", PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def _under(path: Path, folders: Iterable[str]) -> bool:
    return any(Path(f) == path or Path(f) in path.parents for f in folders)


def sandbox_argv(cmd: Sequence[str], *, workdir: str | os.PathLike[str],
                 course_root: str | os.PathLike[str] | None,
                 scratch: bool = False,
                 writable: Iterable[str | os.PathLike[str]] = (),
                 hidden_files: Iterable[str | os.PathLike[str]] = (),
                 masks: Iterable[tuple[str, str]] = (),
                 environ: Mapping[str, str] | None = None) -> list[str]:
    """``cmd`` wrapped in bubblewrap as described in the module docstring.

    ``workdir`` is the working directory inside. With ``scratch``, it is a size-capped
    tmpfs into which :mod:`.enter` copies the regular files of the real ``workdir``
    (mounted read-only at :data:`SUBMISSION_MOUNT`) before running ``cmd``; without it,
    ``workdir`` must be one of the ``writable`` folders, which are bound read-write at their
    own path (a kernel's connection folder). ``hidden_files`` (a secrets file) are masked
    by an empty file wherever a bound folder would show them; inside the course folder or
    anywhere else they are out of sight already. ``masks`` are ``(file, path)`` pairs: each
    existing ``path`` inside shows ``file`` instead (read-only). ``environ`` (default
    :func:`sandbox_env`) is set inside with ``--clearenv``; start bwrap itself with the same
    environment.
    """
    argv = ["bwrap", "--die-with-parent", "--unshare-all", "--new-session", "--clearenv"]
    bound: list[str] = []
    for name in _SYSTEM:
        path = Path("/") / name
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            argv += ["--ro-bind", str(path), str(path)]
            bound.append(str(path))
    for name in ETC_FILES:
        argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    argv += ["--dev", "/dev", "--proc", "/proc", "--size", str(TMP_LIMIT), "--tmpfs", "/tmp"]
    root = Path(course_root).resolve() if course_root is not None else None
    if root is not None:
        argv += ["--tmpfs", str(root)]
    for folder in python_paths():
        if not _under(Path(folder), bound):
            argv += ["--ro-bind", folder, folder]
            bound.append(folder)
    work = Path(workdir).resolve()
    if scratch:
        argv += ["--ro-bind", str(work), SUBMISSION_MOUNT,
                 "--size", str(SCRATCH_LIMIT), "--tmpfs", str(work)]
    for place in writable:
        argv += ["--bind", str(place), str(place)]
    if root is not None:  # the empty course folder refuses writes (EROFS)
        argv += ["--remount-ro", str(root)]
    for hidden in hidden_files:
        path = Path(hidden).resolve()
        if path.exists() and _under(path, bound) and not (root and _under(path, [str(root)])):
            argv += ["--ro-bind", os.devnull, str(path)]
    for src, dest in masks:
        if Path(dest).exists():
            argv += ["--ro-bind", str(src), str(dest)]
    argv += ["--remount-ro", "/"]
    for key, value in sorted(sandbox_env(environ).items() if environ is None
                             else environ.items()):
        argv += ["--setenv", key, value]
    argv += ["--chdir", str(work), "--"]
    if scratch:  # run by its path, isolated and without site: it needs only the stdlib,
        # and importing the kit's packages first would cost every kernel start ~0.2 s
        argv += [sys.executable, "-I", "-S", str(Path(__file__).with_name("enter.py")),
                 SUBMISSION_MOUNT, str(work), "--"]
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
