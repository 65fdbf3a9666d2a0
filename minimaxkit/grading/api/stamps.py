"""What code a test cell's output was made from, so that nbgrader's Validate dialog points at
that output only when it is current (issue #36): a student who edits a function and validates
without running its test cell again sees old verdicts in the cell, and the dialog's new ones.

When a student runs a test cell, ``grade(...)`` returns its points as :class:`Points`, whose
output carries a :class:`Stamp` in its metadata (nothing on screen): the question, and a
digest of the graded function's source with the notebook functions it calls. ``nbgrader
validate`` (and the Validate button, which saves the notebook first) runs the notebook again
from its saved cells in the notebook's folder: there :func:`output_state` reads the stamps
saved in the folder's notebooks and says whether the cell's saved output was made from the
code being validated (:attr:`OutputState.CURRENT`), from other code
(:attr:`OutputState.STALE`), or whether the cell shows no verdict (:attr:`OutputState.NONE`).

>>> stamp = Stamp("alphabeta", code_digest("def alphabeta(node):\\n    return 3"))
>>> points = Points(2.5, stamp)
>>> points == 2.5, repr(points)
(True, '2.5')
>>> data, metadata = points._repr_mimebundle_()
>>> data, Stamp.from_metadata(metadata) == stamp
({'text/plain': '2.5'}, True)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from ..verdicts.feedback import SEE_OUTPUT

__all__ = ["Stamp", "Points", "OutputState", "code_digest", "output_state", "saved_stamps",
           "pointer", "METADATA_KEY", "MAX_NOTEBOOK"]

METADATA_KEY = "minimaxkit_graded"  # in the metadata of a test cell's result
MAX_NOTEBOOK = 20 << 20  # bytes: a larger file in the folder is not read for its stamps
MAX_NOTEBOOKS = 50  # notebooks of the folder read, at most


def code_digest(source: str) -> str:
    """A short digest of graded source code (its text as written, every character counts).

    >>> code_digest("def f():\\n    return 1") == code_digest("def f():\\n    return 2")
    False
    """
    return hashlib.sha256(source.encode("utf-8", "replace")).hexdigest()[:16]


@dataclass(frozen=True)
class Stamp:
    """What a test cell graded: the ``question`` and the digest of the ``code``."""

    question: str
    code: str

    def metadata(self) -> dict[str, Any]:
        """The stamp as a result's metadata."""
        return {METADATA_KEY: asdict(self)}

    @classmethod
    def from_metadata(cls, metadata: Any) -> Stamp | None:
        """The stamp in an output's ``metadata``, or None (none there, or not a stamp)."""
        found = metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None
        if isinstance(found, dict) and isinstance(found.get("question"), str) and \
                isinstance(found.get("code"), str):
            return cls(found["question"], found["code"])
        return None


class Points(float):
    """The points ``grade(...)`` returns when a student runs the cell: a float, shown as one
    (nbgrader reads the number from the output's text), whose output also carries the
    :class:`Stamp` in its metadata."""

    stamp: Stamp

    def __new__(cls, value: float, stamp: Stamp) -> Points:
        points = super().__new__(cls, value)
        points.stamp = stamp
        return points

    def __repr__(self) -> str:
        return repr(float(self))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None
                          ) -> tuple[dict[str, str], dict[str, Any]]:
        return {"text/plain": repr(float(self))}, self.stamp.metadata()


class OutputState(Enum):
    """Whether a test cell's saved output shows the verdict of the code being validated."""

    CURRENT = "the cell's output shows this code's verdict"
    STALE = "the cell's output was made from other code"
    NONE = "the cell shows no verdict"


def _notebooks(folder: Path) -> list[dict[str, Any]]:
    """The notebooks of ``folder`` that can be read (each at most :data:`MAX_NOTEBOOK`
    bytes), most recently saved first."""
    paths = sorted((p for p in folder.glob("*.ipynb") if p.is_file()),
                   key=lambda p: p.stat().st_mtime, reverse=True)[:MAX_NOTEBOOKS]
    out = []
    for path in paths:
        try:
            if path.stat().st_size <= MAX_NOTEBOOK:
                nb = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(nb, dict) and isinstance(nb.get("cells"), list):
                    out.append(nb)
        except (OSError, ValueError):
            continue
    return out


def _source(cell: Any) -> str:
    source = cell.get("source", "") if isinstance(cell, dict) else ""
    return "".join(source) if isinstance(source, list) else str(source)


def saved_stamps(folder: Path, question: str, own_source: str) -> list[Stamp]:
    """The stamps of ``question`` saved in the notebooks of ``folder`` that hold
    ``own_source`` (the graded function's text as the notebook now defines it: the
    notebook being validated, not an older copy beside it)."""
    found, needle = [], own_source.strip()  # a cell's last line has no newline of its own
    for nb in _notebooks(folder):
        cells = [c for c in nb["cells"] if isinstance(c, dict) and c.get("cell_type") == "code"]
        if needle and not any(needle in _source(c) for c in cells):
            continue
        for cell in cells:
            for output in cell.get("outputs", []) if isinstance(cell.get("outputs"), list) \
                    else []:
                stamp = Stamp.from_metadata(output.get("metadata")) \
                    if isinstance(output, dict) else None
                if stamp is not None and stamp.question == question:
                    found.append(stamp)
    return found


def output_state(folder: Path, now: Stamp, own_source: str) -> OutputState:
    """Whether the test cell of ``now.question`` in the notebook being validated (in
    ``folder``, defining ``own_source``) shows the verdict of the code ``now`` stamps."""
    stamps = saved_stamps(folder, now.question, own_source)
    if not stamps:
        return OutputState.NONE
    return OutputState.CURRENT if now in stamps else OutputState.STALE


def pointer(state: OutputState) -> str:
    """The Validate dialog's last line: where the student sees the details, given the state
    of the test cell's saved output.

    >>> pointer(OutputState.STALE)[:50]
    '(your code changed since this cell last ran, so it'
    """
    if state is OutputState.CURRENT:
        return SEE_OUTPUT
    if state is OutputState.STALE:
        return ("(your code changed since this cell last ran, so its output shows an older "
                "verdict: run the cell again to see these details and a picture)")
    return "(run this cell to see the details and a picture)"
