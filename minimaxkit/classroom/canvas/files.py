"""The names Canvas gives submitted files in *Download Submissions*: the student's sortable
name squeezed to letters (``engerinann``), ``LATE`` when the submission was late, the
student's Canvas user id, the file's id, and the file's name as uploaded, which Canvas ends
with ``-1``, ``-2``... when the student had uploaded a file of that name before
(``engerinann_LATE_123_456_a2_alphabeta-1.ipynb``). File ids grow with every upload, so of
two files of one student and one name the one with the larger id is the newer.

>>> f = parse_canvas_name("engerinann_LATE_123_456_a2_alphabeta-1.ipynb")
>>> f.student, f.late, f.user_id, f.file_id, f.uploaded, f.resubmitted()
('engerinann', True, '123', 456, 'a2_alphabeta-1.ipynb', 'a2_alphabeta.ipynb')
>>> parse_canvas_name("notes.txt") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CanvasFile", "parse_canvas_name", "CANVAS_NAME"]

#: ``<name>[_LATE]_<user id>_<file id>_<uploaded name>``; the name may hold underscores,
#: the two numbers are the first ``_digits_digits_`` run after it.
CANVAS_NAME = re.compile(r"^(?P<student>.*?)_(?:(?P<late>LATE)_)?(?P<user>\d+)_(?P<file>\d+)_"
                         r"(?P<uploaded>.+)$")
_AGAIN = re.compile(r"^(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.[^.]+)$")


@dataclass(frozen=True)
class CanvasFile:
    """One file of Canvas's download: who (``student``, the squeezed name; ``user_id``),
    whether late, the file's Canvas id and the name it was uploaded with."""

    student: str
    late: bool
    user_id: str
    file_id: int
    uploaded: str

    def resubmitted(self) -> str:
        """The uploaded name without Canvas's ``-N`` (the name as first uploaded), or the
        name as it is when it has none."""
        again = _AGAIN.match(self.uploaded)
        return again.group("stem") + again.group("ext") if again else self.uploaded


def parse_canvas_name(name: str) -> CanvasFile | None:
    """The parts of a Canvas download's file ``name`` (no folder), or None for a name
    Canvas does not make."""
    found = CANVAS_NAME.match(name)
    if found is None:
        return None
    return CanvasFile(found.group("student"), bool(found.group("late")), found.group("user"),
                      int(found.group("file")), found.group("uploaded"))
