"""What an instructor must hear once a run, before any submission's own warnings: the machine
grades without the sandbox, or as root without a user of the sandbox's own for each sandbox,
or the course has no secret (docs/grading.md, *What the log says*). Said once a process
(:func:`~minimaxkit.support.once.warn_once`): nbgrader's autograde and the class command's
workers grade many submissions each.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ...isolation import bwrap
from ...support.once import warn_once
from ..testdata.places import secret_warning

__all__ = ["course_warnings", "say_course_warnings"]


def course_warnings(root: Path | None) -> list[str]:
    """The warnings that hold for every submission of the course at ``root`` on this
    machine, one line each: no sandbox, or no user of its own for each sandbox (root), and
    no course secret."""
    sandbox = bwrap.WARNING if not bwrap.available() else bwrap.root_warning()
    return [w for w in (sandbox, secret_warning(root)) if w]


def say_course_warnings(log: logging.Logger, root: Path | None) -> None:
    """Each of :func:`course_warnings` on ``log``, once a process."""
    for warning in course_warnings(root):
        warn_once(log, warning)
