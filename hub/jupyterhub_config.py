"""JupyterHub for a minimaxkit course on one server (docs/hub.md); tests/hub/ start it as is.

Run as root from anywhere (the hub switches to each user to start their server):

    MINIMAXKIT_HUB_INSTRUCTORS=instructor MINIMAXKIT_HUB_STUDENTS=alice,bob \\
        /opt/minimaxkit/bin/jupyterhub -f /opt/course/hub/jupyterhub_config.py

Settings, from the environment (default in brackets):

* ``MINIMAXKIT_HUB_INSTRUCTORS``: login names, comma-separated [instructor]. They get all of
  nbgrader (formgrader too) and their course folder is ``MINIMAXKIT_HUB_COURSE_DIR``.
* ``MINIMAXKIT_HUB_STUDENTS``: login names, comma-separated [nobody may log in as a
  student]. They get the kit's student setup for a hub: the Assignments tab (fetch,
  submit, feedback) and the Validate button, no formgrader.
* ``MINIMAXKIT_HUB_EXCHANGE``: nbgrader's exchange [/srv/nbgrader/exchange]. Make it
  yourself before the first release, as nbgrader documents: ``mkdir -p`` it, then
  ``chmod ugo+rw`` (mode 777).
* ``MINIMAXKIT_HUB_COURSE_ID`` [minimaxkit]; ``MINIMAXKIT_HUB_COURSE_DIR``: an instructor's
  course folder, a clone of the course repository, ``~`` their home [~/course].
* ``MINIMAXKIT_HUB_ENV``: the kit's environment that every server runs in, readable by
  every user [the Python environment running this hub].
* ``MINIMAXKIT_HUB_STATE``: the hub's own files (database, cookie secret, the Jupyter
  configuration of each role) [/srv/minimaxkit-hub].
* ``MINIMAXKIT_HUB_URL``: where the hub listens [http://:8000]; put HTTPS in front of it.
* ``MINIMAXKIT_HUB_SERVER_ARGS``: options added to every user's server [none].
* ``MINIMAXKIT_HUB_AUTOGRADE``: assignments graded on submission, comma-separated [none:
  the service is off]. A JupyterHub service, run as the first instructor from their course
  folder, grades each new submission of these as ``python -m minimaxkit.grading.autograde
  --student ID`` does, into the course's gradebook, and releases its feedback
  (docs/hub.md, *Grading on submission*). With it:
  ``MINIMAXKIT_HUB_AUTOGRADE_SHOWS``: the trees graded before the due date, ``visible`` or
  ``all`` [visible]; ``MINIMAXKIT_HUB_AUTOGRADE_DAILY``: graded submissions per student,
  assignment and day [5; 0: no cap]; ``MINIMAXKIT_HUB_AUTOGRADE_POLL``: seconds between two
  looks at the exchange [10].

Users log in with their Unix password (PAM); each server runs as that user, in their home
folder, started by JupyterHub's local process spawner. The proxy is configurable-http-proxy
from npm (the repository's ``node_modules``, ``npm ci``; else the one on ``PATH``).
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _names(variable: str, default: str = "") -> list[str]:
    return [n.strip() for n in os.environ.get(variable, default).split(",") if n.strip()]


INSTRUCTORS = _names("MINIMAXKIT_HUB_INSTRUCTORS", "instructor")
STUDENTS = _names("MINIMAXKIT_HUB_STUDENTS")
EXCHANGE = os.environ.get("MINIMAXKIT_HUB_EXCHANGE", "/srv/nbgrader/exchange")
COURSE_ID = os.environ.get("MINIMAXKIT_HUB_COURSE_ID", "minimaxkit")
COURSE_DIR = os.environ.get("MINIMAXKIT_HUB_COURSE_DIR", "~/course")
ENV = Path(os.environ.get("MINIMAXKIT_HUB_ENV", sys.prefix))
STATE = Path(os.environ.get("MINIMAXKIT_HUB_STATE", "/srv/minimaxkit-hub"))

both = set(INSTRUCTORS) & set(STUDENTS)
if both:
    raise ValueError(f"jupyterhub_config.py: {sorted(both)} are both instructors and students "
                     "(MINIMAXKIT_HUB_INSTRUCTORS, MINIMAXKIT_HUB_STUDENTS)")
if not (ENV / "bin" / "jupyterhub-singleuser").exists():
    raise FileNotFoundError(f"jupyterhub_config.py: {ENV}/bin/jupyterhub-singleuser is missing: "
                            "install the kit there with its hub extra (pip install "
                            "'minimaxkit[hub]') or set MINIMAXKIT_HUB_ENV")

# --- the hub: where it listens, its state, its proxy ---------------------------------------
c.JupyterHub.bind_url = os.environ.get("MINIMAXKIT_HUB_URL", "http://:8000")
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
_proxy = REPO / "node_modules" / ".bin" / "configurable-http-proxy"
if _proxy.exists():
    c.ConfigurableHTTPProxy.command = [str(_proxy)]
c.JupyterHub.cleanup_servers = True

# --- who may log in ---------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.open_sessions = False  # no login session (utmp, pam_systemd) per server
c.Authenticator.allowed_users = set(INSTRUCTORS) | set(STUDENTS)

# --- each user's server: the kit's environment, their home, their role's configuration ------
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [str(ENV / "bin" / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/lab"
# extra options for every server, e.g. the tests' --LabApp.expose_app_in_browser=True
c.Spawner.args = os.environ.get("MINIMAXKIT_HUB_SERVER_ARGS", "").split()
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120


def _role_config(role: str) -> Path:
    """The Jupyter configuration folder of a role, written now (the servers only read it):
    the kit's setup for the role (tools/student_setup.py) and nbgrader's exchange settings."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import student_setup
    finally:
        sys.path.remove(str(REPO / "tools"))
    folder = STATE / "jupyter" / role
    student_setup.apply(folder, role=role)
    lines = ["# written by hub/jupyterhub_config.py: nbgrader's exchange for this hub",
             "import os", "c = get_config()  # noqa: F821",
             f"c.CourseDirectory.course_id = {COURSE_ID!r}",
             f"c.Exchange.root = {EXCHANGE!r}"]
    if role == "instructor":
        lines.append(f"c.CourseDirectory.root = os.path.expanduser({COURSE_DIR!r})")
    (folder / "nbgrader_config.py").write_text("\n".join(lines) + "\n")
    for path in [STATE / "jupyter", *(STATE / "jupyter").rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


STATE.chmod(0o711)  # users read their role's folder, never the database or the secret
ROLE_CONFIG = {"hub-student": _role_config("hub-student"),
               "instructor": _role_config("instructor")}


def _pre_spawn(spawner):  # type: ignore[no-untyped-def]
    """Keep the user's home private; give the server its role's configuration and the kit's
    environment."""
    import pwd
    import stat

    home = Path(pwd.getpwnam(spawner.user.name).pw_dir)
    mode = home.stat().st_mode
    if mode & 0o077:  # Debian's useradd makes homes others can read: an instructor's
        # holds solutions/, a student's their answers and feedback
        spawner.log.warning("%s was mode %s: made 700", home, stat.filemode(mode))
        home.chmod(0o700)
    role = "instructor" if spawner.user.name in INSTRUCTORS else "hub-student"
    spawner.environment.update({
        "JUPYTER_CONFIG_PATH": str(ROLE_CONFIG[role]),
        # the role's folder before the environment's own (where `make lab` may have applied
        # the plain student setup)
        "JUPYTER_PREFER_ENV_PATH": "0",
        "PATH": os.pathsep.join([str(ENV / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
    })
    if role == "instructor":
        # autograde refuses to run student code without the sandbox (docs/grading.md)
        spawner.environment["MINIMAXKIT_REQUIRE_SANDBOX"] = "1"


c.Spawner.pre_spawn_hook = _pre_spawn


# --- grading on submission (off unless MINIMAXKIT_HUB_AUTOGRADE names assignments) ----------
AUTOGRADE = _names("MINIMAXKIT_HUB_AUTOGRADE")


def _autograde_service(assignments: list[str]) -> dict:  # type: ignore[type-arg]
    """The hub service that grades on submission, as the first instructor, in their course
    folder, with the environment their server has (the sandbox required)."""
    import pwd

    who = pwd.getpwnam(INSTRUCTORS[0])
    course = COURSE_DIR.replace("~", who.pw_dir, 1) if COURSE_DIR.startswith("~") else COURSE_DIR
    return {
        "name": "minimaxkit-autograde",
        "user": who.pw_name,
        "cwd": course,
        "command": [str(ENV / "bin" / "python"), "-m", "minimaxkit.classroom.ongoing",
                    "--course", course, "--exchange", EXCHANGE, "--course-id", COURSE_ID,
                    "--assignment", *assignments,
                    "--before-deadline", os.environ.get("MINIMAXKIT_HUB_AUTOGRADE_SHOWS",
                                                        "visible"),
                    "--daily-cap", os.environ.get("MINIMAXKIT_HUB_AUTOGRADE_DAILY", "5"),
                    "--poll", os.environ.get("MINIMAXKIT_HUB_AUTOGRADE_POLL", "10")],
        "environment": {
            "HOME": who.pw_dir, "USER": who.pw_name,
            "JUPYTER_CONFIG_PATH": str(ROLE_CONFIG["instructor"]), "JUPYTER_PREFER_ENV_PATH": "0",
            "PATH": os.pathsep.join([str(ENV / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
            "MINIMAXKIT_REQUIRE_SANDBOX": "1",
        },
    }


if AUTOGRADE:
    c.JupyterHub.services = [_autograde_service(AUTOGRADE)]
