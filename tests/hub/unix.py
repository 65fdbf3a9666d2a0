"""Real Unix users for the hub tests, and the kit's environment where they can run it.

The tests run as root (CI does) and create ordinary users with ``useradd``; every user and
every process they started is removed afterwards (:meth:`Users.remove_all`).

An ordinary user must be able to run the kit's Python: every folder above the interpreter,
the virtual environment and the repository must be open to others (``o+x``). docs/hub.md
asks for exactly that (the environment in ``/opt``). A development machine often has its
Python under ``/root`` (pyenv), which no other user can enter; there :func:`shared_env`
makes a small virtual environment in a world-readable folder, from a copy of the same
interpreter (its standard library hard-linked, its library path made relative). What is
linked keeps its compiled bytecode (``__pycache__``, valid: a hard link keeps the source's
time): the users cannot write bytecode there, and without it each of their Python processes
(every nbgrader command, server, kernel and grading step of the hub tests) compiled every
module it imported from source again, about 0.6 s of processor time for the standard
library of an nbgrader command, 3 s more with site-packages linked too. Its site
folder adds the kit's ``.venv`` site-packages (same Python, same packages, same versions:
only where the interpreter lives differs), its ``share`` and ``etc`` are the kit's
(Jupyter's data and config), and the console scripts (``jupyter``, ``nbgrader``,
``alembic``, ``jupyterhub-singleuser``...) are rewritten to use it.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def reachable(path: Path) -> bool:
    """Whether a user who is not its owner can reach ``path``: every folder above it
    searchable by others, and the path itself readable (and searchable, for a folder)."""
    path = path.resolve()
    for parent in path.parents:
        if not parent.stat().st_mode & stat.S_IXOTH:
            return False
    mode = path.stat().st_mode
    need = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0)
    return mode & need == need


@dataclass(frozen=True)
class SharedEnv:
    """The kit's environment as ordinary users run it."""

    python: Path
    bindir: Path
    #: what was made for the test (None: the kit's own .venv, reachable as it is)
    made: Path | None = None

    def path_env(self) -> str:
        return os.pathsep.join([str(self.bindir), "/usr/local/bin", "/usr/bin", "/bin"])


def _relocated_python(prefix: Path, executable: Path, dest: Path) -> Path:
    """The interpreter at ``executable`` (of the installation at ``prefix``) in ``dest``,
    where other users can run it: the binary and its shared library copied, the standard
    library hard-linked (copied across file systems) with its bytecode, without
    site-packages and the test suite; the binary's library search path (``RUNPATH``) made
    relative (``$ORIGIN``)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (dest / "bin").mkdir(parents=True)
    (dest / "lib").mkdir()

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(prefix / "lib" / version, dest / "lib" / version, copy_function=link,
                    symlinks=True,
                    ignore=shutil.ignore_patterns("site-packages", "test", "idlelib", "tkinter",
                                                  "turtledemo"))
    (dest / "lib" / version / "site-packages").mkdir()
    for lib in (prefix / "lib").glob("libpython*"):
        shutil.copy2(lib, dest / "lib" / lib.name, follow_symlinks=True)
    binary = dest / "bin" / version
    data = executable.read_bytes()
    old = str(prefix / "lib").encode() + b"\0"
    if data.count(old) == 1 and len(old) >= len(b"$ORIGIN/../lib\0"):
        new = b"$ORIGIN/../lib\0"
        data = data.replace(old, new + b"\0" * (len(old) - len(new)))
    binary.write_bytes(data)
    binary.chmod(0o755)
    return binary


def _link_tree(src: Path, dest: Path) -> None:
    """``src`` at ``dest``: folders made, files hard-linked (copied across file systems),
    compiled bytecode (``__pycache__``) with them."""

    def link(a: str, b: str) -> None:
        try:
            os.link(a, b)
        except OSError:
            shutil.copy2(a, b)

    shutil.copytree(src, dest, copy_function=link, symlinks=True)


def shared_env(where: Path) -> SharedEnv:
    """The kit's environment for other users: ``.venv`` itself when they can reach it,
    else a small virtual environment in ``where`` (see the module docstring), which must be
    a folder others can search (files are made with the usual umask, 022). What others
    cannot reach of ``.venv`` and the kit (a repository under ``/root``) is hard-linked
    into ``where``."""
    venv_bin = Path(sys.executable).parent
    venv = venv_bin.parent
    real = Path(os.path.realpath(sys.executable))
    site = Path(sysconfig.get_paths()["purelib"])
    kit = REPO / "minimaxkit"
    data = [venv / name for name in ("share", "etc") if (venv / name).is_dir()]
    if all(reachable(p) for p in (real, site, kit, *data)):
        return SharedEnv(Path(sys.executable), venv_bin)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    interpreter = real if reachable(real) else _relocated_python(
        Path(sys.base_prefix), real, where / "python")
    env = where / "kit-env"
    subprocess.run([str(interpreter), "-m", "venv", "--without-pip", str(env)], check=True)
    own_site = env / "lib" / version / "site-packages"
    if not reachable(site):
        _link_tree(site, where / "site-packages")
        site = where / "site-packages"
    if not reachable(kit):  # found before the editable install's finder, which points here
        _link_tree(kit, own_site / "minimaxkit")
    (own_site / "zz_minimaxkit_env.pth").write_text(
        f"import site; site.addsitedir({str(site)!r})\n")
    # Jupyter finds its data (kernels, nbconvert templates, JupyterLab) and config (server
    # extensions) under sys.prefix: the kit's
    for folder in data:
        if reachable(folder):
            (env / folder.name).symlink_to(folder)
        else:
            _link_tree(folder, env / folder.name)
    bindir = env / "bin"
    shebang = f"#!{venv_bin}/python".encode()
    for script in venv_bin.iterdir():
        if script.is_file() and not script.is_symlink() and script.name not in (
                "python", "python3", version) and not (bindir / script.name).exists():
            head = script.read_bytes()
            if head.startswith(shebang):
                (bindir / script.name).write_bytes(
                    b"#!" + str(bindir / "python").encode() + head[len(shebang):])
                (bindir / script.name).chmod(0o755)
    return SharedEnv(bindir / "python", bindir, env)


@dataclass
class User:
    name: str
    password: str
    home: Path

    @property
    def uid(self) -> int:
        return pwd.getpwnam(self.name).pw_uid

    @property
    def gid(self) -> int:
        return pwd.getpwnam(self.name).pw_gid


@dataclass
class Users:
    """Unix users made for one test; :meth:`remove_all` takes them away again."""

    homes: Path
    made: list[User] = field(default_factory=list)

    def add(self, name: str) -> User:
        if shutil.which("useradd") is None:
            raise RuntimeError("useradd is missing (Debian: apt-get install passwd)")
        try:
            pwd.getpwnam(name)
        except KeyError:
            pass
        else:
            raise RuntimeError(f"user {name} exists already: a test left it, or pick another")
        home = self.homes / name
        subprocess.run(["useradd", "--create-home", "--home-dir", str(home), "--shell",
                        "/bin/bash", "--user-group", name], check=True)
        password = secrets.token_hex(8)
        subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
        user = User(name, password, home)
        self.made.append(user)
        return user

    def remove_all(self) -> None:
        for user in self.made:
            kill_processes_of(user.uid)
            subprocess.run(["userdel", user.name], capture_output=True)
            subprocess.run(["groupdel", user.name], capture_output=True)
        self.made.clear()


def processes_of(uid: int) -> list[int]:
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    out.append(int(pid))
            except OSError:
                pass
    return out


def kill_processes_of(uid: int) -> None:
    """End every process of a user this test made (by pid: SIGTERM, then SIGKILL)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = processes_of(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        time.sleep(1.0)


def run_as(user: User, cmd: Sequence[str], *, env: Mapping[str, str], cwd: Path,
           timeout: float = 600, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` as ``user`` (real and effective ids, their groups) with exactly ``env``
    (plus ``HOME``, ``USER``, ``LOGNAME``), as their own login would."""
    full = {"HOME": str(user.home), "USER": user.name, "LOGNAME": user.name,
            "LANG": "C.UTF-8", **env}
    argv = ["setpriv", f"--reuid={user.uid}", f"--regid={user.gid}", "--init-groups",
            "env", "-i", *[f"{k}={v}" for k, v in full.items()], *cmd]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          input=input)
