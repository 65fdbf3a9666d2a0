"""The grading tests' shared fixture: the class graded once per session (graded_class.py)."""

from __future__ import annotations

import pytest
from graded_class import GradedClass, graded_class


@pytest.fixture(scope="session")
def graded() -> GradedClass:
    """Every sample, hostile, solution and released notebook of a1-a5, graded by the class
    command (built once, or read from the cache; see graded_class.py)."""
    return graded_class()
