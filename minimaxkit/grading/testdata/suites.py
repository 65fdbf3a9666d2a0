"""The suites of test trees: an assignment's ``tests.json`` (visible, released with the
notebook) and ``hidden_tests.json`` (never released), and the salt of its seeded trees.

``tests.json`` sits next to the notebook::

    {"assignment": "a2_alphabeta",
     "questions": {"alphabeta": {"check": "alphabeta", "trees": [
         {"name": "aima", "about": "AIMA's Figure 5.2", "tree": {"nested": [[3, 12, 8], ...]},
          "options": {}, "reference": {...}}]}}}

``hidden_tests.json`` has the same form plus a ``salt`` and, per question, ``seeded`` trees:
specs whose seed comes from the student's id, so every student gets their own tree.
A question with ``"kind": "evaluation"`` (assignment 5) is graded by play, not by trees.
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
    """Test data is missing or malformed (an instructor's problem, said in words)."""


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
    if not isinstance(data, dict) or not isinstance(data.get("questions"), dict):
        raise SuiteError(f"test data {path} has no 'questions'")
    return data


def load_visible(here: Path) -> dict[str, Any]:
    """The released tests next to the notebook (``here`` is the notebook's folder)."""
    return _read(here / TESTS)


def load_hidden(here: Path, assignment: str) -> dict[str, Any]:
    """The hidden tests of ``assignment`` (see :func:`.places.hidden_candidates`)."""
    candidates = hidden_candidates(here, assignment)
    for path in candidates:
        if path.is_file():
            return _read(path)
    raise SuiteError(f"hidden test data for {assignment} not found (looked in "
                     f"{', '.join(str(p) for p in candidates)}); autograde from the course "
                     "folder that holds nbgrader_config.py")


def salt_for(suite: dict[str, Any], here: Path) -> str:
    """The salt of the seeded trees: the suite's committed ``salt`` mixed with the course's
    secret, found from the notebook's folder ``here``, if there is one.

    >>> salt_for({"salt": "demo"}, Path("/nonexistent")) == "demo"
    True
    """
    salt = str(suite.get("salt", ""))
    secret = course_secret(course_root(here))
    if not secret:
        return salt
    return hashlib.sha256(f"{secret}\0{salt}".encode()).hexdigest()


def evaluation_spec(here: Path, question: str) -> dict[str, Any] | None:
    """The spec of ``question`` in the ``tests.json`` in ``here`` when it is graded by play
    (``"kind": "evaluation"``), else None."""
    try:
        q = load_visible(here)["questions"][question]
    except (SuiteError, KeyError, TypeError):
        return None
    return q if isinstance(q, dict) and q.get("kind") == "evaluation" else None
