"""An assignment's suites of test trees, ``tests.json`` (released) and ``hidden_tests.json``
(never released), and the salt of its seeded trees; their form is in docs/grading.md,
*Adding a test tree*.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from .places import TESTS, course_root, course_secret, hidden_candidates

__all__ = ["SuiteError", "load_visible", "load_hidden", "salt_for", "evaluation_spec"]


class SuiteError(Exception):
    """Test data is missing or malformed (the instructor's problem)."""


def _read(path: Path) -> dict[str, Any]:
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise SuiteError(f"test data {path} not found") from None
    return _parse(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _parse(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    """Parsed once per version of the file (callers don't mutate it)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SuiteError(f"test data {path} not found") from None
    except ValueError as err:
        raise SuiteError(f"test data {path} is not valid JSON: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), dict):
        raise SuiteError(f"test data {path} has no 'questions'")
    return data


def load_visible(here: Path) -> dict[str, Any]:
    """The released tests in the notebook's folder ``here``."""
    return _read(here / TESTS)


def load_hidden(here: Path, assignment: str) -> dict[str, Any]:
    candidates = hidden_candidates(here, assignment)
    for path in candidates:
        if path.is_file():
            return _read(path)
    raise SuiteError(f"hidden test data for {assignment} not found (looked in "
                     f"{', '.join(str(p) for p in candidates)}); autograde from the course "
                     "folder that holds nbgrader_config.py")


def salt_for(suite: dict[str, Any], here: Path) -> str:
    """The suite's committed ``salt``, mixed with the course's secret if there is one.

    >>> salt_for({"salt": "demo"}, Path("/nonexistent")) == "demo"
    True
    """
    salt = str(suite.get("salt", ""))
    secret = course_secret(course_root(here))
    if not secret:
        return salt
    return hashlib.sha256(f"{secret}\0{salt}".encode()).hexdigest()


def evaluation_spec(here: Path, question: str) -> dict[str, Any] | None:
    """The spec of ``question`` in ``here``'s tests.json if it is graded by play, else None."""
    try:
        q = load_visible(here)["questions"][question]
    except (SuiteError, KeyError, TypeError):
        return None
    return q if isinstance(q, dict) and q.get("kind") == "evaluation" else None
