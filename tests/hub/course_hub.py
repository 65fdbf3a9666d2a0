"""A JupyterHub course on this machine, as docs/hub.md sets one up, for tests/hub/.

:func:`start_course_hub` makes three Unix users (an instructor and two students), the
exchange folder with the permissions nbgrader documents, the instructor's course folder (a
copy of this repository's course files), the students' copy (``make student``) served by
``git daemon`` for nbgitpuller, and starts JupyterHub with ``hub/jupyterhub_config.py``
(the file docs/hub.md describes) and the settings it documents, as root.
:meth:`CourseHub.stop` takes all of it away again.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from .unix import REPO, SharedEnv, User, Users, run_as, shared_env

CONFIG = REPO / "hub" / "jupyterhub_config.py"
PROXY = REPO / "node_modules" / ".bin" / "configurable-http-proxy"
COURSE_FILES = ("nbgrader_config.py", "solutions", "assignments")


def doc_step(start: str) -> str:
    """The line of docs/hub.md's server setup that starts with ``start``."""
    for line in (REPO / "docs" / "hub.md").read_text().splitlines():
        if line.startswith(start):
            return line
    raise AssertionError(f"docs/hub.md has no line starting with {start!r}")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class CourseHub:
    place: Path
    url: str
    env: SharedEnv
    exchange: Path
    state: Path
    instructor: User
    students: list[User]
    git_url: str
    log: Path
    users: Users
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def role_env(self, user: User) -> dict[str, str]:
        """The environment the hub gives ``user``'s server (hub/jupyterhub_config.py,
        ``_pre_spawn``): a terminal there runs the command line with it."""
        role = "instructor" if user is self.instructor else "hub-student"
        env = {"PATH": self.env.path_env(), "JUPYTER_PREFER_ENV_PATH": "0",
               "JUPYTER_CONFIG_PATH": str(self.state / "jupyter" / role),
               "JUPYTERHUB_USER": user.name}
        if role == "instructor":
            env["MINIMAXKIT_REQUIRE_SANDBOX"] = "1"
        return env

    def run(self, user: User, *cmd: str, cwd: Path | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``cmd`` as ``user``, in their home (or ``cwd``), with their server's environment;
        fails with its output when it fails."""
        done = run_as(user, list(cmd), env=self.role_env(user), cwd=cwd or user.home,
                      timeout=timeout)
        if done.returncode != 0:
            raise AssertionError(f"{user.name}: {' '.join(cmd)} exited {done.returncode}:\n"
                                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        return done

    def nbgitpuller_link(self, notebook: str) -> str:
        """The README's link template, filled in for this hub and the students' copy."""
        return (f"{self.url}/hub/user-redirect/git-pull?repo={quote(self.git_url, safe='')}"
                f"&branch=main&urlpath={quote(f'lab/tree/course-student/{notebook}', safe='')}")

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
        self.users.remove_all()  # their servers and kernels, if the hub left any
        pid_file = self.state / "jupyterhub-proxy.pid"
        if pid_file.exists():  # the proxy the hub started (it stops it on a clean exit)
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            except (ValueError, ProcessLookupError):
                pass
        shutil.rmtree(self.place, ignore_errors=True)


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with {proc.returncode}:\n"
                               f"{log.read_text(errors='replace')[-4000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"JupyterHub did not answer at {url} in {timeout} s:\n"
                               f"{log.read_text(errors='replace')[-4000:]}")
        time.sleep(0.5)


def start_course_hub(settings: dict[str, str] | None = None) -> CourseHub:
    """Everything docs/hub.md asks an administrator to do, then ``jupyterhub`` with
    hub/jupyterhub_config.py's ``settings`` (``MINIMAXKIT_HUB_*``) added."""
    missing = [str(p) for p in (PROXY,) if not p.exists()]
    if missing:
        raise FileNotFoundError(f"{missing}: run `npm ci` in {REPO} (package.json pins "
                                "configurable-http-proxy)")
    place = Path(tempfile.mkdtemp(prefix="minimaxkit-hub-"))
    place.chmod(0o755)
    homes = place / "home"
    homes.mkdir(mode=0o755)
    users = Users(homes)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        tag = secrets.token_hex(2)
        instructor = users.add(f"mmkteach{tag}")
        students = [users.add(f"mmkstu{i}{tag}") for i in (1, 2)]
        for user in (instructor, *students):  # docs/hub.md: homes private (useradd: 755)
            user.home.chmod(0o700)
        env = shared_env(place)
        # the exchange, as nbgrader documents it: made by the administrator, ugo+rw
        exchange = place / "srv" / "nbgrader" / "exchange"
        subprocess.run(["bash", "-c", doc_step("mkdir -p /srv/nbgrader/exchange").replace(
            "/srv/nbgrader/exchange", str(exchange))], check=True)
        # the instructor's course folder: their clone of the (private) course repository
        course = instructor.home / "course"
        course.mkdir()
        for name in COURSE_FILES:
            src = REPO / name
            if src.is_dir():
                shutil.copytree(src, course / name,
                                ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
            else:
                shutil.copy(src, course / name)
        subprocess.run(["chown", "-R", f"{instructor.name}:{instructor.name}", str(course)],
                       check=True)
        # the students' copy, built as the README says and served as a git repository
        student_copy = place / "git" / "course-student"
        done = subprocess.run(["make", "-s", "student", f"STUDENT_DIR={student_copy}",
                               f"PYTHON={sys.executable}"], cwd=REPO, capture_output=True,
                              text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"make student failed:\n{done.stdout}{done.stderr}")
        git_port = free_port()
        procs.append(subprocess.Popen(
            ["git", "daemon", "--reuseaddr", "--listen=127.0.0.1", f"--port={git_port}",
             f"--base-path={place / 'git'}", "--export-all", str(student_copy)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        # the hub, with hub/jupyterhub_config.py and the settings docs/hub.md lists
        port = free_port()
        state = place / "srv" / "minimaxkit-hub"
        hub_env = dict(os.environ,
                       MINIMAXKIT_HUB_INSTRUCTORS=instructor.name,
                       MINIMAXKIT_HUB_STUDENTS=",".join(s.name for s in students),
                       MINIMAXKIT_HUB_EXCHANGE=str(exchange),
                       MINIMAXKIT_HUB_ENV=str(env.bindir.parent),
                       MINIMAXKIT_HUB_STATE=str(state),
                       MINIMAXKIT_HUB_URL=f"http://127.0.0.1:{port}",
                       # Playwright drives JupyterLab through its command registry
                       MINIMAXKIT_HUB_SERVER_ARGS="--LabApp.expose_app_in_browser=True",
                       **(settings or {}))
        log = place / "jupyterhub.log"
        with open(log, "wb") as out:
            hub = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG),
                 f"--JupyterHub.hub_port={free_port()}",
                 f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{free_port()}"],
                cwd=place, env=hub_env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True)
        procs.append(hub)
        url = f"http://127.0.0.1:{port}"
        _wait_http(f"{url}/hub/api", hub, log, timeout=120)
        return CourseHub(place, url, env, exchange, state, instructor, students,
                         f"git://127.0.0.1:{git_port}/course-student", log, users, procs)
    except BaseException:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        users.remove_all()
        shutil.rmtree(place, ignore_errors=True)
        raise
