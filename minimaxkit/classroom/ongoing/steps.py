"""One submission graded as an instructor would grade it by hand, from the course folder:

1. ``nbgrader collect ASSIGNMENT --student ID --update``: the student's newest submission
   into ``submitted/``;
2. ``python -m minimaxkit.grading.autograde ASSIGNMENT --student ID --force``: the class
   command, sandboxed, into the course's gradebook (``MINIMAXKIT_GRADE_TREES=visible``
   grades the visible trees only);
3. ``nbgrader generate_feedback`` and ``nbgrader release_feedback`` for that student: the
   feedback page goes to the exchange, where ``nbgrader fetch_feedback`` finds it.

Each step runs in a process group of its own, stopped whole when it takes too long, and
ends with the service (a service killed mid-grading leaves no grading running beside the
one it starts again).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path

from ...grading.autograde.trusted import TREES_ENV
from .inbound import Submission

__all__ = ["Outcome", "grade_submission", "StepFailed"]


class StepFailed(RuntimeError):
    """A step of the grading failed: which, and the end of what it printed."""


@dataclass(frozen=True)
class Outcome:
    """What grading a submission gave: its score and maximum in the gradebook, and the time
    of the submission that was collected (ISO, UTC)."""

    score: float
    max_score: float
    collected: str


#: run by the step's own Python before it becomes the step's command: the step is killed if
#: the service dies (the signal asked for survives the exec), without a ``preexec_fn`` in a
#: parent with threads (docs/grading.md, "How the limits are set")
_DIE_WITH_PARENT = ("import os, sys; from minimaxkit.isolation.bwrap import die_with_parent; "
                    "die_with_parent(int(sys.argv[1])); os.execvp(sys.argv[2], sys.argv[2:])")


def _run(cmd: list[str], course: Path, env: dict[str, str], timeout: float) -> str:
    """Run one step's ``cmd`` in ``course``; its output, or a :class:`StepFailed` that says
    which step, and how it ended."""
    guarded = [sys.executable, "-c", _DIE_WITH_PARENT, str(os.getpid()), *cmd]
    proc = subprocess.Popen(guarded, cwd=course, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise StepFailed(f"{' '.join(cmd[2:5])}: stopped after {timeout:.0f} s") from None
    if proc.returncode != 0:
        raise StepFailed(f"{' '.join(cmd[2:5])} exited {proc.returncode}: {out[-1500:]}")
    return out


def _collected(course: Path, sub: Submission) -> str:
    """The time of the submission in ``submitted/`` (ISO, UTC)."""
    from nbgrader.utils import parse_utc

    stamp = course / "submitted" / sub.student / sub.assignment / "timestamp.txt"
    try:
        when = parse_utc(stamp.read_text(encoding="utf-8").strip())
    except (OSError, ValueError) as err:
        raise StepFailed(f"collect left no readable {stamp} ({err})") from None
    return when.replace(tzinfo=UTC).isoformat()


def _score(course: Path, sub: Submission) -> tuple[float, float]:
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        try:
            submission = gb.find_submission(sub.assignment, sub.student)
        except MissingEntry:
            raise StepFailed("the gradebook has no grade for it") from None
        return float(submission.score), float(submission.max_score)


def grade_submission(course: Path, sub: Submission, *, trees: str,
                     timeout: float = 1800.0) -> Outcome:
    """Collect, autograde, generate and release the feedback of ``sub``'s student's newest
    submission in the course folder ``course``; raise :class:`StepFailed` on a failure."""
    env = dict(os.environ, **{TREES_ENV: trees})
    python = sys.executable
    who = ["--student", sub.student]
    _run([python, "-m", "nbgrader", "collect", sub.assignment, *who, "--update"],
         course, env, timeout)
    collected = _collected(course, sub)
    _run([python, "-m", "minimaxkit.grading.autograde", sub.assignment, *who, "--force",
          "--workers", "1"], course, env, timeout)
    _run([python, "-m", "nbgrader", "generate_feedback", sub.assignment, *who, "--force"],
         course, env, timeout)
    _run([python, "-m", "nbgrader", "release_feedback", sub.assignment, *who],
         course, env, timeout)
    score, max_score = _score(course, sub)
    return Outcome(score, max_score, collected)
