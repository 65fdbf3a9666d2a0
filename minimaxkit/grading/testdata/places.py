"""Where a course keeps its test data and secrets and who is being graded (docs/grading.md,
*Hidden and seeded trees*, *Secrets*, *The student's id*).

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

__all__ = ["TESTS", "HIDDEN_TESTS", "SOURCE_DIR", "SECRET_NAME", "PRIVATE_DIR",
           "student_id", "course_root", "secret_file", "course_secret", "hidden_candidates",
           "secret_warning"]

TESTS = "tests.json"
HIDDEN_TESTS = "hidden_tests.json"
SOURCE_DIR = "solutions"
SECRET_NAME = ".minimaxkit-secret"  # in the course folder, never committed (.gitignore)
PRIVATE_DIR = "private"  # <course>/private/<assignment>/hidden_tests.json, never committed


def student_id() -> str:
    """Who is being graded: ``MINIMAXKIT_STUDENT_ID``; under ``nbgrader autograde`` the
    folder ``autograded/<student>/``; ``JUPYTERHUB_USER``; else the login name."""
    if explicit := os.environ.get("MINIMAXKIT_STUDENT_ID"):
        return explicit
    if os.environ.get("NBGRADER_EXECUTION") == "autograde" and Path.cwd().parent.name:
        return Path.cwd().parent.name
    if hub := os.environ.get("JUPYTERHUB_USER"):
        return hub
    try:
        return getpass.getuser()
    except Exception:  # no login name (some containers)
        return "student"


def course_root(start: Path) -> Path | None:
    """``MINIMAXKIT_COURSE_ROOT``, else the nearest folder at or above ``start`` holding
    ``nbgrader_config.py``."""
    if env := os.environ.get("MINIMAXKIT_COURSE_ROOT"):
        return Path(env)
    return next((f for f in (start, *start.parents) if (f / "nbgrader_config.py").is_file()),
                None)


def hidden_candidates(here: Path, assignment: str) -> list[Path]:
    """Where the hidden tests may be, in order: ``MINIMAXKIT_PRIVATE_TESTS``; in a course
    ``private/`` then ``solutions/``, never the notebook's folder (a student could write
    there); outside a course, next to the notebook."""
    private = os.environ.get("MINIMAXKIT_PRIVATE_TESTS")
    out = [Path(private) / assignment / HIDDEN_TESTS] if private else []
    if (root := course_root(here)) is None:
        return [*out, here / HIDDEN_TESTS]
    return [*out, *(root / d / assignment / HIDDEN_TESTS for d in (PRIVATE_DIR, SOURCE_DIR))]


def secret_file(root: Path | None) -> Path | None:
    """``MINIMAXKIT_SECRET_FILE``, else ``.minimaxkit-secret`` in the course folder, or None."""
    if env := os.environ.get("MINIMAXKIT_SECRET_FILE"):
        return Path(env)
    return root / SECRET_NAME if root is not None else None


def course_secret(root: Path | None) -> str:
    """``MINIMAXKIT_SECRET``, else the first line of :func:`secret_file`; "" when there is
    none (a demo setting: the committed salts alone let anyone compute the seeded trees).

    >>> os.environ["MINIMAXKIT_SECRET"] = "s3cret"
    >>> course_secret(None)
    's3cret'
    >>> del os.environ["MINIMAXKIT_SECRET"]
    """
    if env := os.environ.get("MINIMAXKIT_SECRET"):
        return env.strip()
    path = secret_file(root)
    try:
        return path.read_text(encoding="utf-8").strip().splitlines()[0] if path else ""
    except (OSError, IndexError):
        return ""


def secret_warning(root: Path | None) -> str:
    """What an instructor must hear who grades without a course secret (``""`` with one):
    the seeded trees and assignment 5's boards and openings then come from the committed
    salts alone, which anyone can compute.

    >>> os.environ["MINIMAXKIT_SECRET"] = "s3cret"
    >>> secret_warning(None)
    ''
    >>> del os.environ["MINIMAXKIT_SECRET"]
    """
    if course_secret(root):
        return ""
    where = secret_file(root)
    return ("minimaxkit: no course secret is set (neither MINIMAXKIT_SECRET nor "
            f"{where or SECRET_NAME + ' in the course folder'}): the seeded trees and "
            "assignment 5's boards and openings come from the committed salts alone, which "
            "anyone can compute; set one before grading real submissions (docs/grading.md, "
            "*Secrets*)")
