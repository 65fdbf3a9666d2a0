"""The cell policy of a session: which of a notebook's cells run in the child, for how long, which
run again after the child was replaced, and what the student is told about each one left out.
It knows the failures' types (:mod:`.failures`), not the process or its channel.

>>> policy = CellPolicy(cell_timeout=60, notebook_time=300)
>>> policy.left_out("an empty cell", ChildTimedOut(), 60)
>>> policy.problems[0][:62], policy.restarts
('an empty cell ran longer than 60 s and did not stop when inter', 1)
>>> policy.refusal(), policy.timeout(replaying=False)
('', 60.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from .failures import ChannelBroken, ChildFailed, ChildTimedOut, SandboxStopped
from .protocol import Done

__all__ = ["CellPolicy", "Cell", "cell_label", "function_problem", "EXEC_TIMEOUT",
           "NOTEBOOK_TIME", "CELL_GRACE", "MAX_RESTARTS", "TOO_OFTEN"]

EXEC_TIMEOUT = 60.0  # seconds a cell may run in the child (nbgrader's Execute.timeout)
#: seconds all of a notebook's cells may run together (in the kernel, and in a session's
#: child, restarts included): past them the rest are not run
NOTEBOOK_TIME = 300.0
CELL_GRACE = 5.0  # seconds more before a cell that ignores its interrupt is given up
MAX_RESTARTS = 8  # cells left out (hung or ending the child) before the rest is not run
TOO_OFTEN = ("the notebook's cells stopped the grading process too often: the rest of its "
             "cells were not run")


@dataclass(frozen=True)
class Cell:
    """A cell that ran in the child: how messages name it, and its source."""

    label: str
    source: str


def cell_label(src: str) -> str:
    """How messages name a cell: its first line of code, shortened.

    >>> cell_label("\\n%%time\\nfor d in range(9):\\n    pass")
    'the cell that starts "%%time"'
    """
    first = next((ln.strip() for ln in src.splitlines() if ln.strip()), "")
    first = first if len(first) <= 40 else first[:37] + "..."
    return f'the cell that starts "{first}"' if first else "an empty cell"


def function_problem(name: str, kind: str | None) -> str:
    """Why ``name`` (``kind``: "callable", a type's name, None if undefined) cannot be graded
    as a function; "" when it can.

    >>> function_problem("alphabeta", None)
    "no function named 'alphabeta' is defined: did you rename it or skip its cell?"
    >>> function_problem("alphabeta", "int")
    "'alphabeta' is a int, not a function"
    """
    if kind is None:
        return f"no function named {name!r} is defined: did you rename it or skip its cell?"
    return "" if kind == "callable" else f"{name!r} is a {kind}, not a function"


def left_out_words(label: str, failure: ChildFailed, timeout: float) -> str:
    """What the student is told about a cell left out because of ``failure``.

    >>> left_out_words("an empty cell", SandboxStopped("it held too much"), 60)
    'an empty cell: it held too much; it was left out, and the cells before it were run again'
    """
    if isinstance(failure, ChildTimedOut):
        return (f"{label} ran longer than {round(timeout, 2):g} s and did not stop when "
                "interrupted: it was left out, and the cells before it were run again")
    if isinstance(failure, ChannelBroken):
        return f"{label}: {failure.message}; it was left out"
    if isinstance(failure, SandboxStopped):
        return (f"{label}: {failure.message}; it was left out, and the cells before it were "
                "run again")
    return (f"{label} ended the grading process (os._exit? out of memory?): it was left out, "
            "and the cells before it were run again")


class CellPolicy:
    """The cells of one notebook in a session's children: each new cell at most
    ``cell_timeout`` seconds, all of them ``notebook_time`` in all (replays included); a cell
    that fails the child is left out and the cells before it replayed in a new one, at most
    :data:`MAX_RESTARTS` times. :attr:`problems` are the student's words for what went wrong
    (the caller may take them and clear the list)."""

    def __init__(self, *, cell_timeout: float = EXEC_TIMEOUT,
                 notebook_time: float = NOTEBOOK_TIME) -> None:
        self.cell_timeout, self.notebook_time = float(cell_timeout), notebook_time
        self.cells: list[Cell] = []  # run so far, and not interrupted: replayed after a restart
        self.problems: list[str] = []
        self.ran = 0.0  # seconds the cells have run in all (replays after a restart too)
        self.restarts = 0

    def refusal(self) -> str:
        """Why no new cell runs now ("" when it may), said once in :attr:`problems`."""
        if self.restarts > MAX_RESTARTS:
            why = TOO_OFTEN
        elif self.ran > self.notebook_time:
            why = (f"the notebook's cells ran longer than {self.notebook_time:g} s in all: the "
                   "rest of its cells were not run")
        else:
            return ""
        if why not in self.problems:
            self.problems.append(why)
        return why

    def timeout(self, *, replaying: bool) -> float:
        """Seconds a cell may run: no new cell past the notebook's time in all (a second at
        least); a cell run again after a restart ran before, and its definitions are needed:
        its own limit."""
        if replaying:
            return self.cell_timeout
        return min(self.cell_timeout, max(1.0, self.notebook_time - self.ran))

    def to_replay(self) -> list[Cell]:
        """The cells to run again in a new child, in order (they are recorded again as they
        run); none once the notebook's time is spent."""
        replay, self.cells = self.cells, []
        return replay

    def may_replay(self) -> bool:
        """Whether time is left to replay another cell."""
        return self.ran <= self.notebook_time

    def ran_cell(self, cell: Cell, seconds: float, done: Done, *, replaying: bool) -> None:
        """``cell`` ran in ``seconds``: kept for a replay unless it ran out of time (a cell
        that ran out of time is not run again); its problems said unless it was a replay."""
        self.ran += seconds
        if not done["interrupted"]:
            self.cells.append(cell)
        if not replaying:
            self.problems += done["problems"]

    def left_out(self, label: str, failure: ChildFailed, timeout: float, *,
                 replaying: bool = False) -> None:
        """A cell failed the child (``failure``): it is left out, and said unless it was a
        replay."""
        if not replaying:
            self.problems.append(left_out_words(label, failure, timeout))
        self.restarts += 1

    def may_restart(self) -> bool:
        """Whether a new child may run the cells again after a cell was left out."""
        return self.restarts <= MAX_RESTARTS
