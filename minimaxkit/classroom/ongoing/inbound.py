"""The submissions in nbgrader's exchange: ``<exchange>/<course>/inbound/`` holds one folder
per submission, named ``<student>+<assignment>+<time>+<random>`` by ``nbgrader submit``.

>>> s = parse_inbound("alice+a2_alphabeta+2026-03-01 10:00:00.000001 UTC+Xy7")
>>> s.student, s.assignment, s.time.isoformat()
('alice', 'a2_alphabeta', '2026-03-01T10:00:00.000001+00:00')
>>> parse_inbound("not a submission") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["Submission", "parse_inbound", "scan"]


@dataclass(frozen=True, order=True)
class Submission:
    """One submission: when (UTC), whose, of which assignment, its folder's name."""

    time: datetime
    student: str
    assignment: str
    name: str


def parse_inbound(name: str) -> Submission | None:
    """The submission an inbound folder's ``name`` stands for, or None."""
    from nbgrader.utils import parse_utc

    parts = name.split("+")
    if len(parts) != 4 or not all(parts[:3]):
        return None
    try:
        when = parse_utc(parts[2])
    except (ValueError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return Submission(when, parts[0], parts[1], name)


def scan(inbound: Path, assignments: tuple[str, ...]) -> list[Submission]:
    """The submissions of ``assignments`` in ``inbound``, oldest first."""
    found = []
    for entry in inbound.iterdir():
        sub = parse_inbound(entry.name) if entry.is_dir() else None
        if sub is not None and sub.assignment in assignments:
            found.append(sub)
    return sorted(found)
