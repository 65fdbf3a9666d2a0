"""Where a course keeps its test data and secrets, and who is being graded.

A course folder holds ``nbgrader_config.py``; the released ``tests.json`` sits next to each
notebook; the hidden ``hidden_tests.json`` stays in ``solutions/<assignment>/`` or, for a
course's own trees, ``private/<assignment>/``; the course's secret is ``.minimaxkit-secret``
(or ``MINIMAXKIT_SECRET``).

>>> import os
>>> os.environ["MINIMAXKIT_STUDENT_ID"] = "alice"
>>> student_id()
'alice'
>>> del os.environ["MINIMAXKIT_STUDENT_ID"]
"""

from __future__ import annotations

import getpass
import os
from pathlib import Path

__all__ = ["TESTS", "HIDDEN_TESTS", "SOURCE_DIR", "SECRET_NAME", "PRIVATE_DIR", "SECRET_ENV",
           "student_id", "course_root", "secret_file", "course_secret", "hidden_candidates"]

TESTS = "tests.json"
HIDDEN_TESTS = "hidden_tests.json"
SOURCE_DIR = "solutions"
SECRET_NAME = ".minimaxkit-secret"  # in the course folder, never committed (.gitignore)
PRIVATE_DIR = "private"  # <course>/private/<assignment>/hidden_tests.json, never committed
#: environment variables that name the course's secrets (never passed into a sandbox)
SECRET_ENV = ("MINIMAXKIT_SECRET", "MINIMAXKIT_SECRET_FILE", "MINIMAXKIT_PRIVATE_TESTS",
              "MINIMAXKIT_COURSE_ROOT", "JPY_PARENT_PID")


def student_id() -> str:
    """Who is being graded: ``MINIMAXKIT_STUDENT_ID`` if set; during ``nbgrader autograde``
    (``NBGRADER_EXECUTION=autograde``, run in ``autograded/<student id>/<assignment>/``) the
    folder's name; ``JUPYTERHUB_USER`` on a JupyterHub; otherwise the login name."""
    explicit = os.environ.get("MINIMAXKIT_STUDENT_ID")
    if explicit:
        return explicit
    cwd = Path.cwd()
    if os.environ.get("NBGRADER_EXECUTION") == "autograde" and cwd.parent.name:
        return cwd.parent.name
    hub = os.environ.get("JUPYTERHUB_USER")
    if hub:
        return hub
    try:
        return getpass.getuser()
    except Exception:  # no login name (some containers)
        return "student"


def course_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``nbgrader_config.py`` (or
    ``MINIMAXKIT_COURSE_ROOT``)."""
    env = os.environ.get("MINIMAXKIT_COURSE_ROOT")
    if env:
        return Path(env)
    for folder in (start, *start.parents):
        if (folder / "nbgrader_config.py").is_file():
            return folder
    return None


def hidden_candidates(here: Path, assignment: str) -> list[Path]:
    """Where the hidden tests of ``assignment`` may be, in order: ``MINIMAXKIT_PRIVATE_TESTS``;
    in a course, ``private/`` then the source folder, never the notebook's own folder (a
    student could put a file there); outside a course, next to the notebook."""
    out = []
    private = os.environ.get("MINIMAXKIT_PRIVATE_TESTS")
    if private:
        out.append(Path(private) / assignment / HIDDEN_TESTS)
    root = course_root(here)
    if root is None:
        out.append(here / HIDDEN_TESTS)
    else:
        out += [root / PRIVATE_DIR / assignment / HIDDEN_TESTS,
                root / SOURCE_DIR / assignment / HIDDEN_TESTS]
    return out


def secret_file(root: Path | None) -> Path | None:
    """The course's secrets file: ``MINIMAXKIT_SECRET_FILE``, else ``.minimaxkit-secret`` in
    the course folder ``root``; None when neither is set or there."""
    env = os.environ.get("MINIMAXKIT_SECRET_FILE")
    if env:
        return Path(env)
    return root / SECRET_NAME if root is not None else None


def course_secret(root: Path | None) -> str:
    """The course's secret: ``MINIMAXKIT_SECRET``, else the first line of
    :func:`secret_file`; "" when there is none (the committed salts then stand alone, a
    demo setting: anyone who reads the repository can compute the seeded trees).

    >>> os.environ["MINIMAXKIT_SECRET"] = "s3cret"
    >>> course_secret(None)
    's3cret'
    >>> del os.environ["MINIMAXKIT_SECRET"]
    """
    env = os.environ.get("MINIMAXKIT_SECRET")
    if env:
        return env.strip()
    path = secret_file(root)
    try:
        return path.read_text(encoding="utf-8").strip().splitlines()[0] if path else ""
    except (OSError, IndexError):
        return ""
