"""``nbgrader export --exporter minimaxkit.classroom.canvas.export.CanvasExportPlugin``: the
gradebook's scores in Canvas's gradebook import format (:mod:`.gradebook`), ready for
Canvas's *Grades → Import* (docs/grading.md, *Canvas*).

Given Canvas's own export (``--CanvasExportPlugin.canvas_gradebook=FILE``) the file keeps
Canvas's students, their order, names, ids and sections, and matches each nbgrader student
to a Canvas row: by the Canvas user id the roster import or ``zip_collect`` stored
(nbgrader's ``lms_user_id``), else by the SIS login id, else by the SIS user id equal to
the nbgrader id. Each nbgrader assignment goes to the Canvas column of the same title
(``a2_alphabeta`` or ``a2 alphabeta``, any case), or to the column
``CanvasExportPlugin.columns`` names for it; else to a new column of that name (Canvas
makes a new assignment). A score is the submission's score less its late penalty, never
below 0 (as nbgrader's own export); a student without a submission keeps the cell Canvas
exported (``missing`` sets another value, such as 0). Without Canvas's export, the rows
come from nbgrader's students.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin
from traitlets import Dict, Unicode

from .gradebook import (
    CanvasGradebook,
    CanvasStudent,
    ImportRow,
    column_title,
    read_gradebook,
    write_import,
)

__all__ = ["CanvasExportPlugin", "match_students", "assignment_column", "score_text"]


def score_text(score: float) -> str:
    """A score as Canvas shows it: at most two decimals, no trailing zeros.

    >>> score_text(4.5), score_text(7.0), score_text(2 / 3)
    ('4.5', '7', '0.67')
    """
    return f"{round(score, 2):g}"


def _key(title: str) -> str:
    return " ".join(title.replace("_", " ").lower().split())


def assignment_column(name: str, canvas: Sequence[str], columns: dict[str, str]) -> str:
    """The Canvas column for nbgrader assignment ``name``: the one ``columns`` names, else the
    export's column of the same title, else ``name`` itself (a new assignment).

    >>> assignment_column("a2_alphabeta", ["A2 Alphabeta (77)"], {})
    'A2 Alphabeta (77)'
    """
    if name in columns:
        return columns[name]
    same = [h for h in canvas if _key(column_title(h)) == _key(name)]
    return same[0] if same else name


def match_students(canvas: CanvasGradebook, students: Sequence[Any]
                   ) -> tuple[dict[int, Any], list[Any]]:
    """Canvas row index -> nbgrader student, and the nbgrader students no row matched."""
    rows = list(canvas.students)
    by_id = {r.canvas_id: i for i, r in enumerate(rows) if r.canvas_id}
    by_login = {r.sis_login_id: i for i, r in enumerate(rows) if r.sis_login_id}
    by_sis = {r.sis_user_id: i for i, r in enumerate(rows) if r.sis_user_id}
    matched: dict[int, Any] = {}
    unmatched = []
    for student in students:
        lms = str(student.lms_user_id or "")
        i = by_id.get(lms) if lms else None
        if i is None:
            i = by_login.get(student.id, by_sis.get(student.id))
        if i is None or i in matched:
            unmatched.append(student)
        else:
            matched[i] = student
    return matched, unmatched


def _display_name(student: Any) -> str:
    if student.last_name and student.first_name:
        return f"{student.last_name}, {student.first_name}"
    return str(student.last_name or student.first_name or student.id)


class CanvasExportPlugin(ExportPlugin):  # type: ignore[misc]
    """Export to Canvas's gradebook import CSV (``--to``, default ``canvas_grades.csv``)."""

    canvas_gradebook = Unicode("", help="Canvas's gradebook export (Grades -> Export) to "
                               "start from: its students, ids, sections and columns"
                               ).tag(config=True)
    columns = Dict(Unicode(), default_value={}, help="nbgrader assignment -> the header of "
                   "its Canvas column, e.g. {'a2_alphabeta': 'A2: Alpha-beta (4521)'}"
                   ).tag(config=True)
    missing = Unicode("", help="the cell of a student with no submission when no Canvas "
                      "export gives one ('' leaves Canvas's grade as it is)").tag(config=True)

    def export(self, gradebook: Gradebook) -> None:
        dest = Path(self.to or "canvas_grades.csv")
        canvas = read_gradebook(Path(self.canvas_gradebook)) if self.canvas_gradebook else \
            CanvasGradebook((), {}, ())
        assignments = [a for a in gradebook.assignments
                       if not self.assignment or a.name in self.assignment]
        students = [s for s in gradebook.students
                    if not self.student or s.id in [str(x) for x in self.student]]
        headers = [assignment_column(a.name, canvas.assignments, self.columns)
                   for a in assignments]
        matched, unmatched = match_students(canvas, students)
        rows = []
        for i, row in enumerate(canvas.students):
            student = matched.get(i)
            cells = tuple(self._cell(gradebook, a.name, student, row, h)
                          for a, h in zip(assignments, headers, strict=True))
            rows.append(ImportRow(row.name, row.canvas_id, row.sis_user_id, row.sis_login_id,
                                  row.section, cells))
        for student in unmatched:
            if canvas.students:
                self.log.warning("%s is not in Canvas's gradebook %s (no row with its Canvas "
                                 "id %r or SIS id): added by name", student.id,
                                 self.canvas_gradebook, student.lms_user_id)
            cells = tuple(self._cell(gradebook, a.name, student, None, "") for a in assignments)
            rows.append(ImportRow(_display_name(student), str(student.lms_user_id or ""), "",
                                  student.id, "", cells))
        write_import(dest, [(h, float(a.max_score)) for a, h in zip(assignments, headers,
                                                                       strict=True)], rows)
        self.log.info("Wrote %d students and %d assignments to %s (Canvas: Grades -> Import)",
                      len(rows), len(assignments), dest)

    def _cell(self, gradebook: Gradebook, assignment: str, student: Any,
              row: CanvasStudent | None, header: str) -> str:
        """The cell of ``student`` (None: no nbgrader student) for ``assignment``."""
        if student is not None:
            try:
                submission = gradebook.find_submission(assignment, student.id)
            except MissingEntry:
                pass
            else:
                penalty = submission.late_submission_penalty or 0.0
                return score_text(max(0.0, submission.score - penalty))
        if row is not None and header in row.cells:
            return row.cells[header]
        return self.missing
