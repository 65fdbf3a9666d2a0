"""The service's loop (``python -m minimaxkit.classroom.ongoing``; hub/jupyterhub_config.py
starts it as a JupyterHub service when ``MINIMAXKIT_HUB_AUTOGRADE`` names assignments).

Every ``poll`` seconds it reads the exchange's inbound folder and, for each student and
assignment, looks at the newest submission (older ones not yet graded are *superseded*: a
student who submits three times in a minute is graded once, on the last):

* not graded yet (or caught mid-grading by a stop): graded, unless the student already had
  ``daily_cap`` submissions of that assignment graded today (UTC): it *waits* for the next
  day, or for a newer submission;
* graded on the visible trees only, and the assignment's due date (nbgrader's gradebook)
  has passed: graded again with every tree, not counted against the cap, so the gradebook
  ends with final grades.

Before the due date the policy's ``before_deadline`` says which trees count (``visible``:
the released ones, as the student's own Validate; ``all``: the hidden and seeded ones too);
after it, all. A submission whose grading fails is recorded as *failed* with the reason,
and the loop goes on with the next.
"""

from __future__ import annotations

import fcntl
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from .inbound import Submission, scan
from .ledger import Entry, Ledger
from .steps import grade_submission

__all__ = ["Policy", "Places", "Runtime", "OngoingGrader", "TREE_MODES"]

TREE_MODES = ("visible", "all")
AFTER_DEADLINE = "graded again with every tree after the deadline"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Policy:
    """What the instructor chose: the assignments graded on submission, which trees count
    before the due date, graded submissions per student, assignment and day (0: no cap),
    seconds between two looks at the exchange, and the most a step may take."""

    assignments: tuple[str, ...]
    before_deadline: str = "visible"
    daily_cap: int = 0
    poll: float = 10.0
    timeout: float = 1800.0

    def __post_init__(self) -> None:
        if self.before_deadline not in TREE_MODES:
            raise ValueError(f"before_deadline must be one of {TREE_MODES}, "
                             f"not {self.before_deadline!r}")
        if self.daily_cap < 0 or self.poll <= 0 or self.timeout <= 0:
            raise ValueError(f"daily_cap >= 0, poll > 0 and timeout > 0, not {self.daily_cap}, "
                             f"{self.poll}, {self.timeout}")
        if not self.assignments:
            raise ValueError("no assignment to grade on submission")


@dataclass(frozen=True)
class Places:
    """The course folder, the exchange's inbound folder, and the service's own folder (its
    ledger and history)."""

    course: Path
    inbound: Path
    state: Path


@dataclass(frozen=True)
class Runtime:
    """Where the service writes what it does, its clock, and how a submission is graded
    (:func:`~.steps.grade_submission`; a test gives its own)."""

    out: TextIO = sys.stderr
    clock: Callable[[], datetime] = _now
    grade: Callable[..., Any] = grade_submission


class OngoingGrader:
    """Grades the submissions in ``places.inbound`` into the course by ``policy``."""

    def __init__(self, places: Places, policy: Policy, runtime: Runtime | None = None) -> None:
        runtime = runtime or Runtime()
        self.course, self.inbound, self.policy = places.course, places.inbound, policy
        self.ledger = Ledger(places.state)
        self.out, self.clock, self._grade = runtime.out, runtime.clock, runtime.grade
        self.stopping = False

    def say(self, text: str) -> None:
        print(f"[minimaxkit-autograde {self.clock():%Y-%m-%d %H:%M:%S}] {text}", file=self.out,
              flush=True)

    # ----- what to do ----------------------------------------------------------------------
    def deadline(self, assignment: str) -> datetime | None:
        """The assignment's due date in the gradebook (UTC), or None."""
        from nbgrader.api import Gradebook, MissingEntry

        with Gradebook(f"sqlite:///{self.course / 'gradebook.db'}") as gb:
            try:
                due = gb.find_assignment(assignment).duedate
            except MissingEntry:
                return None
        return due.replace(tzinfo=UTC) if due is not None else None

    def _latest(self) -> list[Submission]:
        """Each student's newest submission of each assignment, oldest first; the older
        ones not yet graded marked superseded."""
        newest: dict[tuple[str, str], Submission] = {}
        subs = scan(self.inbound, self.policy.assignments)
        for sub in subs:
            newest[(sub.student, sub.assignment)] = sub
        for sub in subs:
            entry = self.ledger.get(sub.name)
            if newest[(sub.student, sub.assignment)] is not sub and \
                    (entry is None or entry.status in ("waiting", "grading")):
                self.ledger.put(sub.name, Entry(sub.student, sub.assignment,
                                                sub.time.isoformat(), "superseded"))
        return sorted(newest.values())

    def pass_once(self) -> int:
        """Look at the exchange once and grade what is due; return how many were graded."""
        done = 0
        deadlines: dict[str, datetime | None] = {}
        for sub in self._latest():
            if self.stopping:
                break
            if sub.assignment not in deadlines:
                deadlines[sub.assignment] = self.deadline(sub.assignment)
            due = deadlines[sub.assignment]
            past = due is not None and self.clock() > due
            entry = self.ledger.get(sub.name)
            if entry is None or entry.status in ("grading", "waiting"):
                trees = "all" if past else self.policy.before_deadline
                if self._capped(sub):
                    continue
                done += self.grade(sub, trees)
            elif entry.status == "graded" and entry.trees == "visible" and past:
                done += self.grade(sub, "all", AFTER_DEADLINE)
        return done

    def _capped(self, sub: Submission) -> bool:
        cap = self.policy.daily_cap
        if not cap or self.ledger.graded_on(sub.student, sub.assignment,
                                            f"{self.clock():%Y-%m-%d}") < cap:
            return False
        entry = self.ledger.get(sub.name)
        if entry is None or entry.status != "waiting":
            self.ledger.put(sub.name, Entry(sub.student, sub.assignment, sub.time.isoformat(),
                                            "waiting", detail=f"{cap} graded today already"))
            self.say(f"{sub.student} {sub.assignment}: waits, {cap} graded today already")
        return True

    # ----- doing it ------------------------------------------------------------------------
    def grade(self, sub: Submission, trees: str, detail: str = "") -> int:
        """Grade ``sub``; record it (graded, or failed and why) and keep it in the history.
        Returns 1 when graded."""
        self.ledger.put(sub.name, Entry(sub.student, sub.assignment, sub.time.isoformat(),
                                        "grading", trees=trees, detail=detail))
        self.say(f"{sub.student} {sub.assignment} submitted {sub.time:%Y-%m-%d %H:%M:%S}: "
                 f"grading ({trees} trees)")
        start = time.monotonic()
        try:
            outcome = self._grade(self.course, sub, trees=trees, timeout=self.policy.timeout)
        except Exception as err:  # one submission never stops the service
            self.ledger.update(sub.name, status="failed", graded_at=self.clock().isoformat(),
                               detail=f"{type(err).__name__}: {err}"[:3000])
            self.say(f"{sub.student} {sub.assignment}: not graded: {err}")
            return 0
        if outcome.collected != sub.time.isoformat():
            detail = (detail + "; " if detail else "") + \
                f"nbgrader collected the submission of {outcome.collected}"
        entry = self.ledger.update(sub.name, status="graded", graded_at=self.clock().isoformat(),
                                   score=outcome.score, max_score=outcome.max_score,
                                   detail=detail)
        folder = self.ledger.keep(entry, self.course / "autograded" / sub.student /
                                  sub.assignment, self.course / "feedback" / sub.student /
                                  sub.assignment)
        self.say(f"{sub.student} {sub.assignment}: {outcome.score:g} of {outcome.max_score:g} "
                 f"in {time.monotonic() - start:.0f} s, feedback released ({folder})")
        return 1

    def run(self) -> None:
        """Grade until SIGTERM or SIGINT (the grading in progress is finished first, unless
        a second signal comes); one instance per state folder at a time."""
        lock = open(self.ledger.state / "lock", "w")  # noqa: SIM115 - held while running
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                self.say("another instance holds the state folder: waiting")
                time.sleep(self.policy.poll)

        def stop(signum: int, frame: Any) -> None:
            if self.stopping:
                raise SystemExit(128 + signum)
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.say(f"grading {', '.join(self.policy.assignments)} on submission "
                 f"(before the due date: {self.policy.before_deadline} trees; daily cap "
                 f"{self.policy.daily_cap or 'none'})")
        while not self.stopping:
            try:
                self.pass_once()
            except Exception as err:  # the exchange or the gradebook unreadable for a while
                self.say(f"this pass stopped: {type(err).__name__}: {err}")
            waited = 0.0
            while waited < self.policy.poll and not self.stopping:
                time.sleep(0.5)
                waited += 0.5
        self.say("stopped")
