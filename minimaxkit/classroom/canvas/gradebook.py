"""Canvas's gradebook as a CSV file, both ways: the file *Export Entire Gradebook* writes
(read: the roster, the students' ids and the assignment columns) and the file *Import*
accepts (written). The columns, as Canvas's exporter writes them and its importer reads
them: ``Student`` (the sortable name, "Last, First"), ``ID`` (Canvas's user id, what the
importer matches first), ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column
per assignment headed ``Title (assignment id)`` (a new title makes a new assignment), then
read-only totals. The second row starts with ``Points Possible``; a row of ``Muted`` (or
manual posting) marks may stand before it. Exports in locales with a decimal comma use
``;`` between fields.

Every field written is quoted (the csv module's ``QUOTE_ALL``), so a name holding a comma
or a quote survives; a text field that a spreadsheet would take for a formula (it starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading ``'``.

>>> safe_text('=HYPERLINK("http://x")'), safe_text("Doe, Jane")
('\\'=HYPERLINK("http://x")', 'Doe, Jane')
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["STUDENT_COLUMNS", "POINTS_POSSIBLE", "CanvasFormatError", "CanvasStudent",
           "CanvasGradebook", "ImportRow", "read_gradebook", "write_import", "safe_text",
           "column_title"]

#: The student columns of an import file, in Canvas's order.
STUDENT_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"
#: Columns of an export that are neither a student's nor an assignment's.
_INFO = {"SIS User ID", "SIS Login ID", "Root Account", "Integration ID", "Section"}
_TOTALS = re.compile(r"Current Score|Current Points|Current Grade|Final Score|Final Points|"
                     r"Final Grade|Override Score|Override Grade|Override Status")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_CANVAS_FORMULA = re.compile(r'^="(.*)"$', re.S)
_NUMBER_WITH_COMMA = re.compile(r"^-?\d+,\d+$")
_TITLE_ID = re.compile(r"^(?P<title>.*?)\s*\((?P<id>\d+)\)$", re.S)


class CanvasFormatError(ValueError):
    """A file is not Canvas's gradebook CSV: which file, which line and why."""


def safe_text(text: str) -> str:
    """``text`` as a spreadsheet will not run it: a leading ``'`` before a formula's start."""
    return "'" + text if text.startswith(_FORMULA) else text


def column_title(header: str) -> str:
    """An assignment column's title without Canvas's ``(id)``.

    >>> column_title("A2: Alpha-beta (4521)"), column_title("a2_alphabeta")
    ('A2: Alpha-beta', 'a2_alphabeta')
    """
    found = _TITLE_ID.match(header)
    return found.group("title") if found else header


@dataclass(frozen=True)
class CanvasStudent:
    """A student's row of Canvas's export; ``cells`` maps each assignment column to its
    cell as exported."""

    name: str
    canvas_id: str
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    cells: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CanvasGradebook:
    """Canvas's export: its assignment columns in order, their points, its students."""

    assignments: tuple[str, ...]
    points: Mapping[str, str]
    students: tuple[CanvasStudent, ...]


@dataclass(frozen=True)
class ImportRow:
    """A row of the import file: the student's columns and one cell per assignment."""

    name: str
    canvas_id: str
    sis_user_id: str
    sis_login_id: str
    section: str
    cells: tuple[str, ...]


def _delimiter(text: str) -> str:
    """``;`` when the first lines split into as many fields each, and more, with it than with
    ``,`` (Canvas's importer decides so too); else ``,``."""
    lines = text.splitlines()[:3]

    def fields(sep: str) -> int:
        counts = {len(row) for row in csv.reader(lines, delimiter=sep)}
        return counts.pop() if len(counts) == 1 else 0

    return ";" if fields(";") > fields(",") else ","


def _unwrap(name: str) -> str:
    """A name as Canvas exports a name starting with ``=``: ``="=name"``."""
    found = _CANVAS_FORMULA.match(name)
    return found.group(1) if found else name


def _header(path: Path, row: Sequence[str]) -> tuple[dict[str, int], list[tuple[str, int]]]:
    """The student columns' places and the assignment columns (header, place) of a header."""
    if len(row) < 3 or "Student" not in row[0] or "ID" not in row[1]:
        raise CanvasFormatError(f"{path}, line 1: not Canvas's gradebook header (it starts "
                                f"with Student, ID: found {', '.join(row[:3]) or 'nothing'})")
    places = {"Student": 0, "ID": 1}
    last = 1
    for i, cell in enumerate(row[2:], start=2):
        if cell.strip() in _INFO:
            places[cell.strip()] = last = i
        else:
            break
    if "Section" not in places:
        raise CanvasFormatError(f"{path}, line 1: no Section column after the student's "
                                "columns (Canvas's import needs it)")
    assignments = [(cell, i) for i, cell in enumerate(row) if i > last and cell.strip()
                   and not _TOTALS.search(cell)]
    return places, assignments


def read_gradebook(path: Path) -> CanvasGradebook:
    """Canvas's gradebook export at ``path``."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise CanvasFormatError(f"{path}: cannot be read as UTF-8 text ({err})") from None
    sep = _delimiter(text)
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=sep) if any(c.strip() for c in r)]
    if not rows:
        raise CanvasFormatError(f"{path}: the file is empty")
    places, columns = _header(path, rows[0])
    points: dict[str, str] = {}
    students = []
    for row in rows[1:]:
        row = row + [""] * (len(rows[0]) - len(row))
        if POINTS_POSSIBLE in row[0]:
            points = {header: _number(row[i], sep) for header, i in columns}
            continue
        if all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", c, re.I) for c in row):
            continue

        def cell(name: str, row: list[str] = row) -> str:
            return row[places[name]].strip() if name in places else ""

        students.append(CanvasStudent(
            _unwrap(row[0].strip()), cell("ID"), cell("SIS User ID"), cell("SIS Login ID"),
            cell("Section"), {header: _number(row[i], sep) for header, i in columns}))
    return CanvasGradebook(tuple(h for h, _ in columns), points, tuple(students))


def _number(cell: str, sep: str) -> str:
    cell = cell.strip()
    return cell.replace(",", ".") if sep == ";" and _NUMBER_WITH_COMMA.match(cell) else cell


def write_import(path: Path, assignments: Sequence[tuple[str, float]],
                 rows: Sequence[ImportRow]) -> None:
    """Write Canvas's import file: the header, the points possible of each assignment
    (``(header, points)``), then ``rows``; every field quoted, text fields made safe."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, quoting=csv.QUOTE_ALL)
        writer.writerow([*STUDENT_COLUMNS, *(safe_text(h) for h, _ in assignments)])
        writer.writerow([POINTS_POSSIBLE, "", "", "", "",
                         *(f"{p:g}" for _, p in assignments)])
        for r in rows:
            writer.writerow([safe_text(r.name), r.canvas_id, safe_text(r.sis_user_id),
                             safe_text(r.sis_login_id), safe_text(r.section), *r.cells])
