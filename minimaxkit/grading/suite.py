"""Where test trees come from: an assignment's ``tests.json`` (visible, released with the
notebook) and ``hidden_tests.json`` (kept in the course's source folder, never released),
and who the student is.

``tests.json`` sits next to the notebook::

    {"assignment": "a2_alphabeta",
     "questions": {"alphabeta": {"check": "alphabeta", "trees": [
         {"name": "aima", "about": "AIMA's Figure 5.2", "tree": {"nested": [[3, 12, 8], ...]},
          "options": {}, "reference": {...}}]}}}

``hidden_tests.json`` has the same form plus a ``salt`` and, per question, ``seeded`` trees:
specs whose seed is derived from the student's id, so every student gets their own tree and
its expected trace is computed at grading time.

>>> import os
>>> os.environ["MINIMAXKIT_STUDENT_ID"] = "alice"
>>> student_id()
'alice'
>>> del os.environ["MINIMAXKIT_STUDENT_ID"]
"""

from __future__ import annotations

import functools
import getpass
import json
import os
from pathlib import Path
from typing import Any

__all__ = ["TESTS", "HIDDEN_TESTS", "student_id", "load_visible", "load_hidden",
           "course_root", "SuiteError", "secret_file", "course_secret", "salt_for",
           "SECRET_NAME", "PRIVATE_DIR"]

TESTS = "tests.json"
HIDDEN_TESTS = "hidden_tests.json"
SOURCE_DIR = "solutions"
SECRET_NAME = ".minimaxkit-secret"  # in the course folder, never committed (.gitignore)
PRIVATE_DIR = "private"  # <course>/private/<assignment>/hidden_tests.json, never committed


class SuiteError(Exception):
    """Test data is missing or malformed (an instructor's problem, said in words)."""


def student_id() -> str:
    """Who is being graded.

    In order: ``MINIMAXKIT_STUDENT_ID`` if set; during ``nbgrader autograde`` (nbgrader sets
    ``NBGRADER_EXECUTION=autograde`` and runs the notebook in
    ``autograded/<student id>/<assignment>/``) the folder name; ``JUPYTERHUB_USER`` on a
    JupyterHub; otherwise the login name.
    """
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


def _read(path: Path) -> dict[str, Any]:
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise SuiteError(f"test data {path} not found") from None
    return _parse(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _parse(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    """The suite at ``path``, parsed once per version of the file (callers don't mutate it)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SuiteError(f"test data {path} not found") from None
    except ValueError as err:
        raise SuiteError(f"test data {path} is not valid JSON: {err}") from None
    if not isinstance(data, dict) or "questions" not in data:
        raise SuiteError(f"test data {path} has no 'questions'")
    return data


def load_visible(here: Path) -> dict[str, Any]:
    """The released tests next to the notebook (``here`` is the notebook's folder)."""
    return _read(here / TESTS)


def course_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``nbgrader_config.py``
    (or ``MINIMAXKIT_COURSE_ROOT``)."""
    env = os.environ.get("MINIMAXKIT_COURSE_ROOT")
    if env:
        return Path(env)
    for folder in (start, *start.parents):
        if (folder / "nbgrader_config.py").is_file():
            return folder
    return None


def load_hidden(here: Path, assignment: str) -> dict[str, Any]:
    """The hidden tests. In a course (a folder above ``here`` holds ``nbgrader_config.py``):
    ``MINIMAXKIT_PRIVATE_TESTS/<assignment>/``, ``private/<assignment>/`` or the source folder
    ``solutions/<assignment>/``, never the notebook's own folder; outside a course, next to the
    notebook."""
    root = course_root(here)
    candidates = []
    private = os.environ.get("MINIMAXKIT_PRIVATE_TESTS")
    if private:
        candidates.append(Path(private) / assignment / HIDDEN_TESTS)
    if root is None:  # no course: a folder of its own (the instructor's, or a test's)
        candidates.append(here / HIDDEN_TESTS)
    else:  # never the submission's folder, where a student could put a file of that name
        candidates += [root / PRIVATE_DIR / assignment / HIDDEN_TESTS,
                       root / SOURCE_DIR / assignment / HIDDEN_TESTS]
    for path in candidates:
        if path.is_file():
            return _read(path)
    raise SuiteError(f"hidden test data for {assignment} not found (looked in "
                     f"{', '.join(str(p) for p in candidates)}); autograde from the course "
                     "folder that holds nbgrader_config.py")


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


def salt_for(suite: dict[str, Any], here: Path) -> str:
    """The salt of the seeded trees: the suite's committed ``salt`` mixed with the course's
    secret (:func:`course_secret`, found from the notebook's folder ``here``) if there is one.

    >>> salt_for({"salt": "demo"}, Path("/nonexistent")) == "demo"
    True
    """
    import hashlib

    salt = str(suite.get("salt", ""))
    secret = course_secret(course_root(here))
    if not secret:
        return salt
    return hashlib.sha256(f"{secret}\0{salt}".encode()).hexdigest()
