"""The class's students from Canvas's gradebook export into nbgrader's gradebook, in one
command run in the course folder (docs/grading.md, *Canvas*):

    python -m minimaxkit.classroom.canvas roster canvas_gradebook.csv

It writes ``canvas_roster.csv`` in the form ``nbgrader db student import`` reads (``id``,
``first_name``, ``last_name``, ``email``, ``lms_user_id``) and runs that import. Each
student's nbgrader id is their SIS login id (``--id login``, the default: on a hub, their
login name), or SIS user id (``--id sis``), or Canvas user id (``--id canvas``), falling
back in that order when a student has none; characters a folder name or nbgrader's
exchange cannot hold become ``_``. Canvas's user id goes to ``lms_user_id``, where
``zip_collect`` and the export find it.

>>> s = CanvasStudent('Doe, Jane "JJ"', "123", "S-9", "jdoe@uni.edu", "A")
>>> row = roster_row(s, "login")
>>> row["id"], row["first_name"], row["last_name"], row["lms_user_id"]
('jdoe@uni.edu', 'Jane "JJ"', 'Doe', '123')
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .gradebook import CanvasFormatError, CanvasStudent, read_gradebook

__all__ = ["roster_row", "write_roster", "main", "ROSTER_COLUMNS", "ID_SOURCES"]

ROSTER_COLUMNS = ("id", "first_name", "last_name", "email", "lms_user_id")
ID_SOURCES = ("login", "sis", "canvas")
_UNSAFE = re.compile(r"[^A-Za-z0-9._@-]")


def _split(name: str) -> tuple[str, str]:
    """(first, last) of Canvas's "Last, First" or of "First Last"."""
    if "," in name:
        last, first = name.split(",", 1)
        return first.strip(), last.strip()
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else ("", name.strip())


def _nbgrader_id(student: CanvasStudent, source: str) -> str:
    order = {"login": (student.sis_login_id, student.sis_user_id, student.canvas_id),
             "sis": (student.sis_user_id, student.sis_login_id, student.canvas_id),
             "canvas": (student.canvas_id, student.sis_login_id, student.sis_user_id)}[source]
    chosen = next((value for value in order if value), "")
    return _UNSAFE.sub("_", chosen).lstrip("._-") or f"canvas{student.canvas_id}"


def roster_row(student: CanvasStudent, source: str = "login") -> dict[str, str]:
    """The row of nbgrader's student import for a Canvas row."""
    first, last = _split(student.name)
    return {"id": _nbgrader_id(student, source), "first_name": first, "last_name": last,
            "email": "", "lms_user_id": student.canvas_id}


def write_roster(students: Sequence[CanvasStudent], dest: Path, source: str = "login") -> int:
    """Write nbgrader's student CSV for ``students`` to ``dest``; return how many. Two
    students given one nbgrader id is an error that names both."""
    rows: dict[str, dict[str, str]] = {}
    for student in students:
        if student.name.lower() in ("test student", "student, test") and \
                not student.sis_login_id:
            continue  # Canvas's "Student View" user
        row = roster_row(student, source)
        if row["id"] in rows:
            raise CanvasFormatError(f"{rows[row['id']]['last_name']!r} and {student.name!r} "
                                    f"would both be nbgrader student {row['id']!r}: choose "
                                    f"another --id ({', '.join(ID_SOURCES)})")
        rows[row["id"]] = row
    with open(dest, "w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, ROSTER_COLUMNS, quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows.values())
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.classroom.canvas roster EXPORT.csv [--id login|sis|canvas]
    [--to canvas_roster.csv] [--csv-only]``, in the course folder."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m minimaxkit.classroom.canvas",
                                     description="Canvas's files and nbgrader")
    commands = parser.add_subparsers(dest="command", required=True)
    roster = commands.add_parser("roster", help="import the students of Canvas's gradebook "
                                 "export into nbgrader's gradebook")
    roster.add_argument("export", type=Path, help="Canvas's gradebook export (Grades -> Export)")
    roster.add_argument("--id", choices=ID_SOURCES, default="login",
                        help="what becomes the nbgrader id [login: the SIS login id]")
    roster.add_argument("--to", type=Path, default=Path("canvas_roster.csv"),
                        help="nbgrader's student CSV, written here [canvas_roster.csv]")
    roster.add_argument("--csv-only", action="store_true",
                        help="write the CSV, do not run nbgrader db student import")
    args = parser.parse_args(argv)
    try:
        count = write_roster(read_gradebook(args.export).students, args.to, args.id)
    except CanvasFormatError as err:
        print(f"roster: {err}", file=sys.stderr)
        return 1
    print(f"{args.to}: {count} students")
    if args.csv_only:
        return 0
    done = subprocess.run([sys.executable, "-m", "nbgrader", "db", "student", "import",
                           str(args.to)], check=False)
    return done.returncode
