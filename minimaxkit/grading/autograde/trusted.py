"""The trusted grading of one notebook, in nbgrader's process while the kernel runs it: the code
cells run again in a sandboxed child (:class:`~..isolation.session.Session`) and each test
cell's ``grade(...)``, read from the cell nbgrader restored, is graded through it with the
course's test data; its verdicts and points become the test cells' outputs.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from nbformat.notebooknode import NotebookNode, from_dict

from ...isolation.session import CELL_GRACE, EXEC_TIMEOUT
from ..api.grade import grade_report
from ..api.pictures import parts, svg_bundle
from ..evaluation.notebook import EvaluationCell, evaluation_report, play_session
from ..evaluation.play_check import PLAY_CAP
from ..recording.remote import SessionRunner, tree_session
from ..testdata.cells import GradeCall, plan
from ..testdata.places import SOURCE_DIR, TESTS, course_root, secret_file
from ..testdata.suites import SuiteError, evaluation_spec, load_visible
from ..verdicts.conventions import defined_functions
from ..verdicts.feedback import GradeReport, points_text, wrap
from .sizes import cut_oversized

__all__ = ["Grading", "CellVerdict", "outputs", "kernel_note", "TREES_ENV"]

#: ``visible`` grades the visible trees only (grading on submission before the deadline,
#: when the course shows no more: :mod:`minimaxkit.classroom.ongoing`); else every tree.
TREES_ENV = "MINIMAXKIT_GRADE_TREES"


@dataclass(frozen=True)
class CellVerdict:
    """A test cell's trusted verdict: the report (a :class:`GradeReport`, or assignment 5's
    evaluation report) and the notes the grading made while it ran (cells cut or left out)."""

    report: Any
    notes: list[str]


def outputs(chunks: list[tuple[str, str]], earned: float) -> list[NotebookNode]:
    """A test cell's outputs: ``("text"|"svg"|"html", content)`` in order, then the points as
    its value (nbgrader's partial credit)."""
    out: list[dict[str, Any]] = []
    for kind, content in chunks:
        if kind == "text":
            out.append({"output_type": "stream", "name": "stdout", "text": content + "\n"})
        else:
            data = svg_bundle(content) if kind == "svg" else \
                {"text/html": content, "text/plain": "(the games, move by move)"}
            out.append({"output_type": "display_data", "metadata": {}, "data": data})
    out.append({"output_type": "execute_result", "execution_count": None, "metadata": {},
                "data": {"text/plain": repr(earned)}})
    return [from_dict(o) for o in out]


def _visible_share(report: GradeReport, folder: Path) -> float | None:
    """The trusted points of the visible trees, as the notebook's own ``grade(...)`` counts."""
    try:
        names = {t["name"] for t in load_visible(folder)["questions"][report.question]["trees"]}
    except (SuiteError, KeyError, TypeError):
        return None
    seen = [t for t in report.trees if t.name in names]
    return GradeReport(report.question, report.points, seen,
                       in_all=len(report.trees)).earned if seen else None


def kernel_note(report: GradeReport, printed: str, folder: Path) -> str:
    """Where the notebook's own ``grade(...)`` printed other than the trusted verdict."""
    claim = re.search(rf"^{re.escape(report.question)}: ([\d./]+) of ([\d./]+) points(.*)$",
                      printed, re.M)
    if claim is None:
        return ("the notebook's own grade(...) printed no verdict for this cell (its code "
                "failed, ended the kernel, or replaced the grader)")
    try:
        got = float(Fraction(claim.group(1)))
    except (ValueError, ZeroDivisionError):
        got = -1.0
    visible = "on the visible trees" in claim.group(3)
    # (a report of the visible trees only, TREES_ENV, is already the visible share)
    trusted = _visible_share(report, folder) if visible and report.hidden else report.earned
    if trusted is None or abs(got - trusted) <= 0.011:
        return ""
    said = re.search(r"graded as (.*)$", claim.group(3))
    if report.convention is not None and said and said.group(1) != report.convention.label:
        return (f"the notebook's own grade(...) graded the visible trees as {said.group(1)} "
                f"({points_text(got)} points); with the hidden trees, "
                f"{report.convention.label} is chosen and every tree is graded under it")
    return (f"the notebook's own grade(...) printed {points_text(got)} of {claim.group(2)} "
            f"for {'the visible trees' if visible else 'all trees'}, the trusted grader found "
            f"{points_text(trusted)}; the trusted grade counts: it runs outside the notebook, "
            "where the code cannot replace the grader or its test data, and it also stops "
            "processes the code left running")


class Grading:
    """The trusted grading of ``nb`` (``resources`` say whose and where), in a thread while
    the kernel runs it; the sources are read first (running changes only outputs)."""

    def __init__(self, nb: NotebookNode, resources: dict[str, Any], *,
                 cell_timeout: float = EXEC_TIMEOUT) -> None:
        folder = Path(resources.get("metadata", {}).get("path") or ".").resolve()
        self.student = str(resources.get("nbgrader", {}).get("student", "")) or None
        root = self.root = course_root(folder)
        # the test data comes from the course's source folder, never from the submission's
        # folder, which the notebook's code could write while it ran
        assignment = str(resources.get("nbgrader", {}).get("assignment", folder.name))
        self.source = root / SOURCE_DIR / assignment if root is not None else folder
        self.warning = ""
        if not (self.source / TESTS).is_file():
            self.warning = f"{self.source / TESTS} not found: grading with the submission's " \
                           f"{TESTS}"
            self.source = folder
        # cells over the size limits are cut before anything reads or runs them (the
        # kernel runs this same notebook after): every verdict says so
        self.cut = cut_oversized(nb)
        self.plan = plan(nb.cells)
        code = [src for _, src in self.plan if isinstance(src, str)]
        try:  # where the convention a submission is written in is read from
            self.program = defined_functions(code)
        except Exception:  # the student's text could not be read: the trees decide
            self.program = {}
        secret = secret_file(root)
        hidden = [secret] if secret else []
        self.plays = any(evaluation_spec(self.source, c.question) for _, c in self.plan
                         if isinstance(c, GradeCall))
        self.session = play_session(folder, root, hidden, cell_timeout) if self.plays else \
            tree_session(folder, course_root=root, hidden_files=hidden, cell_timeout=cell_timeout)
        self.verdicts: dict[int, CellVerdict] = {}
        self.carried: dict[str, str] = {}  # assignment 5: the correctness cell's speed verdict
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the child and the grading thread (:meth:`run`)."""
        self.session.start()
        self.thread = threading.Thread(target=self.run, name="minimaxkit-trusted", daemon=True)
        self.thread.start()

    def budget(self) -> float:
        """Seconds the whole grading may take, behind every wait's own limit."""
        cells = sum(1 for _, step in self.plan if isinstance(step, str))
        tests = len(self.plan) - cells
        return (cells + 2) * (self.session.cell_timeout + CELL_GRACE) + tests * 120.0 + 60.0 + \
            (PLAY_CAP[1] if self.plays else 0.0)  # assignment 5's games

    def wait(self) -> list[int]:
        """The test cells graded, once done or out of budget (the child is then stopped)."""
        if self.thread is None:
            self.run()
        else:
            self.thread.join(self.budget())
            if self.thread.is_alive():
                self.error = TimeoutError(f"grading took longer than {self.budget():.0f} s")
                self.session.close()
                self.thread.join(30.0)
        return sorted(self.verdicts)

    def course_warnings(self) -> list[str]:
        """Warnings about the course's own data that its verdicts found (assignment 5: the
        reference solution's stored games out of date), for the log, never the feedback."""
        found = [getattr(verdict.report, "course_warning", "")
                 for verdict in self.verdicts.values()]
        return [warning for warning in found if warning]

    def unfinished(self) -> list[int]:
        """The test cells that got no verdict."""
        return [i for i, step in self.plan if not isinstance(step, str) and
                i not in self.verdicts]

    def run(self) -> None:
        """Run the notebook's code cells in the child and grade each test cell in order; an error
        is kept for :meth:`wait`'s caller."""
        try:
            with self.session:
                for index, step in self.plan:
                    if isinstance(step, str):
                        self.session.run_cell(step)
                    else:
                        self.verdicts[index] = self._grade(step)
        except BaseException as err:  # reported by wait(), in nbgrader's thread
            self.error = err

    def _notes(self) -> list[str]:
        notes = [] if self.session.sandboxed else ["no bubblewrap sandbox on this machine"]
        notes += self.cut + self.session.problems[-2:]
        self.session.problems = []
        return [ln for n in notes for ln in wrap(f"(while grading outside the notebook: {n})")]

    def _grade(self, call: GradeCall) -> CellVerdict:
        """The trusted verdict of one ``grade(...)`` call, through the session's child."""
        points = float(call.kwargs.get("points", 1))
        if evaluation_spec(self.source, call.question):  # assignment 5: graded by play
            cell = EvaluationCell(self.source, call.question, points)
            return CellVerdict(evaluation_report(self.session, call.fn, cell,
                                                 carried=self.carried), self._notes())
        kwargs = {k: v for k, v in call.kwargs.items() if k in ("points", "conventions", "timeout")}
        if isinstance(kwargs.get("conventions"), list):
            kwargs["conventions"] = tuple(kwargs["conventions"])
        runner = SessionRunner(self.session)
        # every tree counts when nbgrader grades, whatever the cell says about hidden ones,
        # unless the visible ones only are asked for
        report = grade_report(call.fn, call.question,
                              hidden=os.environ.get(TREES_ENV, "all") != "visible",
                              here=self.source,
                              names=runner.caller(), runner=runner, student=self.student,
                              program=self.program, **kwargs)
        return CellVerdict(report, self._notes())

    def cell_metadata(self, index: int) -> dict[str, Any]:
        """What test cell ``index`` records under ``metadata["minimaxkit"]``: its verdict as
        plain data, for the class report, and assignment 5's speed as measured once, which
        the class tournament reads."""
        report = self.verdicts[index].report
        try:
            record: dict[str, Any] = {"verdict": dict(report.data())}
        except Exception as err:  # a help, never a reason to fail
            record = {"verdict": {"question": report.question, "error": repr(err)}}
        if speed := getattr(report, "speed", None):
            record["speed"] = speed
        return record

    def cell_outputs(self, index: int, printed: str) -> list[NotebookNode]:
        """Test cell ``index``'s outputs; where what it ``printed`` in the kernel differs, the
        verdict says so."""
        report, notes = self.verdicts[index].report, self.verdicts[index].notes
        if not isinstance(report, GradeReport):  # assignment 5
            return outputs(report.parts(notes), report.earned)
        note = kernel_note(report, printed, self.source)
        return outputs(parts(report, notes + (wrap(f"(note: {note})") if note else [])),
                       report.earned)
