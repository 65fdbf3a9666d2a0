"""What the service did with each submission, kept on disk so that a restart goes on where
it stopped, and the history of every graded submission.

``<state>/ledger.json`` maps each inbound folder's name to an :class:`Entry`; it is
rewritten whole (a new file moved over the old) after every change. A submission found
``grading`` after a restart was being graded when the service stopped: it is graded again.
``<state>/history/<student>/<assignment>/<submission time>/`` keeps each graded
submission's autograded notebook, its feedback page and ``grade.json``.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Literal

__all__ = ["Entry", "Ledger", "Status"]

Status = Literal["grading", "graded", "failed", "superseded", "waiting"]


@dataclass(frozen=True)
class Entry:
    """A submission's record: whose, of what, when submitted (ISO), its status, which trees
    were graded (``visible`` or ``all``), when graded (ISO, "" if not), the score and the
    maximum, and what went wrong or why it waits."""

    student: str
    assignment: str
    submitted: str
    status: Status
    trees: str = ""
    graded_at: str = ""
    score: float | None = None
    max_score: float | None = None
    detail: str = ""


class Ledger:
    """The service's records in the folder ``state``."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self.path = state / "ledger.json"
        state.mkdir(parents=True, exist_ok=True)
        self.entries: dict[str, Entry] = {}
        if self.path.is_file():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.entries = {name: Entry(**fields) for name, fields in data.items()}

    def get(self, name: str) -> Entry | None:
        return self.entries.get(name)

    def put(self, name: str, entry: Entry) -> None:
        """Record ``entry`` for the inbound folder ``name`` and write the ledger."""
        self.entries[name] = entry
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({n: asdict(e) for n, e in self.entries.items()}, indent=1),
                       encoding="utf-8")
        os.replace(tmp, self.path)

    def update(self, name: str, **changes: object) -> Entry:
        entry = replace(self.entries[name], **changes)  # type: ignore[arg-type]
        self.put(name, entry)
        return entry

    def graded_on(self, student: str, assignment: str, day: str) -> int:
        """How many of ``student``'s submissions of ``assignment`` were graded on ``day``
        (``YYYY-MM-DD``, UTC), regrades after the deadline not counted."""
        return sum(1 for e in self.entries.values()
                   if e.student == student and e.assignment == assignment and
                   e.status in ("graded", "failed") and e.graded_at.startswith(day) and
                   "after the deadline" not in e.detail)

    def keep(self, entry: Entry, autograded: Path, feedback: Path) -> Path:
        """Copy a graded submission's notebook and feedback into the history; its folder."""
        stamp = datetime.fromisoformat(entry.submitted).strftime("%Y-%m-%dT%H%M%S.%fZ")
        folder = self.state / "history" / entry.student / entry.assignment / stamp
        if entry.trees == "all" and (folder / "grade.json").is_file():
            folder = folder.with_name(stamp + "-all")  # the regrade after the deadline
        folder.mkdir(parents=True, exist_ok=True)
        for source, sub in ((autograded, "autograded"), (feedback, "feedback")):
            if source.is_dir():
                shutil.copytree(source, folder / sub, dirs_exist_ok=True)
        (folder / "grade.json").write_text(json.dumps(asdict(entry), indent=1) + "\n")
        return folder
