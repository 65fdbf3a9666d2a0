"""The kit's catalogue of student programs (``tests/grading/catalogue/``, its README says the
form) and grading them in-process: the grader's own ``grade_report`` on the visible, hidden and
seeded trees of a student id, the function run in this process (the catalogue is trusted
code), the notebook's cells read for the convention as the trusted grader reads them."""

from __future__ import annotations

import functools
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minimaxkit.classroom.trial import parse_sample, solution_cells
from minimaxkit.grading.api.grade import grade_report
from minimaxkit.grading.recording.outcome import Outcome
from minimaxkit.grading.testdata.cells import grade_call, is_test_cell
from minimaxkit.grading.verdicts.conventions import defined_functions
from minimaxkit.grading.verdicts.feedback import GradeReport
from minimaxkit.isolation.rules import failure
from minimaxkit.student import Recorder, TooManyCalls

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "tests" / "grading" / "catalogue"
ASSIGNMENTS = ("a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening")
#: 40 student ids, as a class would have them
STUDENTS = tuple(f"student{i:02d}" for i in range(40))


@dataclass(frozen=True)
class Question:
    """A test cell: its grade id, the function it grades, the question and its points."""

    grade_id: str
    fn: str
    question: str
    points: float


@dataclass(frozen=True, eq=False)
class Program:
    """A catalogued program: wrong on ``question`` (a grade id) with ``bug``, or correct."""

    assignment: str
    name: str
    correct: bool
    question: str = ""
    bug: str = ""
    why: str = ""
    cells: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.assignment}/{self.name}"


def _header(text: str, key: str) -> str:
    found = re.search(rf"^# {key}: (.+)$", text, re.M)
    return found.group(1).strip() if found else ""


def programs(assignment: str | None = None) -> list[Program]:
    """Every catalogued program (of one assignment)."""
    out = []
    for name in ASSIGNMENTS if assignment is None else (assignment,):
        for path in sorted((CATALOGUE / name).glob("*.py")):
            text = path.read_text()
            wrong = _header(text, "wrong")
            out.append(Program(name, path.stem, not wrong, wrong, _header(text, "bug"),
                               _header(text, "why") or _header(text, "correct"),
                               parse_sample(text).cells))
    return out


def questions(assignment: str) -> list[Question]:
    """The test cells of an assignment's source notebook, in order."""
    import nbformat

    nb = nbformat.read(str(REPO / "solutions" / assignment / f"{assignment}.ipynb"), 4)
    out = []
    for cell in nb.cells:
        if cell.cell_type == "code" and is_test_cell(cell):
            call = grade_call(cell.source)
            assert call is not None, cell.source
            out.append(Question(cell.metadata["nbgrader"]["grade_id"], call.fn, call.question,
                                float(call.kwargs["points"])))
    return out


def notebook_cells(program: Program) -> list[str]:
    """The code of the notebook's solution cells as this program fills them, in order."""
    cells = solution_cells(REPO / "solutions" / program.assignment /
                           f"{program.assignment}.ipynb")
    return ["import math", *({**cells, **program.cells}.values())]


def namespace(program: Program) -> dict[str, Any]:
    """The notebook's names once its cells ran."""
    names: dict[str, Any] = {"math": math, "__name__": "__notebook__"}
    for cell in notebook_cells(program):
        exec(compile(cell, f"<{program.label}>", "exec"), names)  # noqa: S102 - our own code
    return names


class InProcess:
    """A runner that calls the task here: the catalogue is trusted code that ends."""

    def run(self, task: Any, rec: Recorder, timeout: float) -> Outcome:
        start = time.monotonic()
        try:
            result, status, message = task(rec), "ok", ""
        except TooManyCalls as err:
            result, status, message = None, "looping", str(err)
        except Exception as err:  # what the student's code raised, said as the grader says
            info = failure(err)
            result, status, message = None, info["status"], info["message"]
        return Outcome(status, message, result, list(rec.calls), list(rec.marks), "",
                       time.monotonic() - start)


@functools.cache
def _defined(program: Program) -> dict[str, str]:
    return defined_functions(notebook_cells(program))


def grade_program(program: Program, question: Question, student: str,
                  names: dict[str, Any] | None = None, *, here: Path | None = None,
                  hidden: bool = True) -> GradeReport:
    """The trusted grader's report of one question of ``program`` for ``student``: on the
    test data in ``here`` (default: the assignment's source folder in ``solutions/``), its
    hidden and seeded trees too when ``hidden``."""
    names = names if names is not None else namespace(program)
    folder = here if here is not None else REPO / "solutions" / program.assignment
    return grade_report(question.fn, question.question, points=question.points, hidden=hidden,
                        here=folder, names=names, runner=InProcess(), student=student,
                        program=dict(_defined(program)))
