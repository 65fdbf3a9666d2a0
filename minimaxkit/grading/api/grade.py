"""The notebook's grader, ``grade("alphabeta", "alphabeta", points=7)`` in a test cell: it
grades one question's trees (with the hidden ones when the trusted grader calls it), prints a
verdict per tree and returns the points (docs/grading.md, *A test cell*). The function is
named by a string, so a missing one costs the points with a message, not a traceback.

:func:`grade_report` works in named stages over typed records: the question's test data
(:class:`QuestionData`, read from the suites' JSON at the edge), its trees
(:class:`TreeEntry`), the student's function run on each (:class:`TreeRun`), then the
convention, a verdict per tree and the likely bug (the verdicts package's work).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, Unpack

from ...isolation.cells import function_problem
from ...tree import GameTree
from ..recording.outcome import Outcome
from ..recording.runners import TIME_LIMIT, RunLimits, Runner, run_tree
from ..testdata.places import student_id
from ..testdata.suites import SuiteError, load_hidden, load_visible, salt_for
from ..testdata.trees import build_tree, seed_for
from ..verdicts.bugs import BUGS
from ..verdicts.conventions import (
    CONVENTION_CHECKS,
    CONVENTIONS,
    program_text,
    read_conventions,
)
from ..verdicts.diagnosis import (
    Attempt,
    attempt,
    bug_lines,
    choose_convention,
    diagnose,
    signatures_of,
)
from ..verdicts.feedback import GradeReport, TreeVerdict
from ..verdicts.own_order import in_own_order
from ..verdicts.references import reference
from ..verdicts.results import TreeResult, failed
from ..verdicts.scoring import grade_outcome
from .pictures import show
from .stamps import OutputState, Points, Stamp, code_digest, output_state, pointer

__all__ = ["grade", "grade_report", "run_check", "AFTER_TIMEOUT", "CellOptions", "GradeOptions",
           "CheckOptions", "QuestionData", "TreeEntry", "TreeRun", "known_options"]

AFTER_TIMEOUT = 0.3  # seconds per tree once a function has timed out in this cell
#: the checks whose verdicts name a likely bug for all the trees together


class CellOptions(TypedDict, total=False):
    """How a test cell's :func:`grade` grades, beside the function, the question and the
    points."""

    #: grade the hidden trees and the student's seeded ones too (the trusted grader does)
    hidden: bool
    #: the folder of the test data (default: the working directory)
    here: str | Path | None
    #: the accepted conventions (default: the question's, else all four)
    conventions: tuple[str, ...] | None
    #: seconds per tree; past them on one tree, :data:`AFTER_TIMEOUT` on the others
    timeout: float


class GradeOptions(CellOptions, total=False):
    """How :func:`grade_report` grades: a cell's options, and where the function comes from
    and runs."""

    #: the notebook's names, where a function named by a string is looked up
    names: Mapping[str, Any] | None
    #: where the function runs (default: forked here)
    runner: Runner | None
    #: whose seeded trees (default: :func:`~minimaxkit.grading.testdata.places.student_id`)
    student: str | None
    #: the notebook's functions' sources (default: the function's globals')
    program: dict[str, str] | None


def known_options(options: Mapping[str, Any], accepted: type, function: str) -> None:
    """Refuse an option ``accepted`` (a TypedDict) does not name, as Python refuses an
    unknown keyword.

    >>> known_options({"hidden": True, "depth": 2}, CellOptions, "grade")
    Traceback (most recent call last):
    ...
    TypeError: grade() got an unexpected keyword argument 'depth'
    """
    keys = getattr(accepted, "__required_keys__", frozenset()) | \
        getattr(accepted, "__optional_keys__", frozenset())
    for name in options:
        if name not in keys:
            raise TypeError(f"{function}() got an unexpected keyword argument {name!r}")


class CheckOptions(TypedDict, total=False):
    """How :func:`run_check` grades one tree."""

    #: the question's options (a depth...), as its test data gives them
    options: dict[str, Any] | None
    #: the accepted conventions (default: all four)
    conventions: tuple[str, ...] | None
    #: seconds the function may take on the tree
    timeout: float


@dataclass(frozen=True)
class QuestionData:
    """One question's test data as graded: its ``check``, its entry in the graded suite
    (``spec``) and in the visible one (``visible``, ``{}`` when absent), and the assignment."""

    check: str
    spec: Mapping[str, Any]
    visible: Mapping[str, Any]
    assignment: str
    suite: dict[str, Any] = field(repr=False, default_factory=dict)


@dataclass(frozen=True)
class TreeEntry:
    """One tree to grade: its name and what it shows, ``kind`` "visible", "hidden" or
    "seeded", the tree, its stored reference (None: computed when graded) and the options the
    question runs it with."""

    name: str
    about: str
    kind: str
    tree: GameTree
    reference: dict[str, Any] | None
    options: dict[str, Any]


@dataclass(frozen=True)
class TreeRun:
    """What the function did on one tree (an :class:`Outcome`), or the verdict it already has
    (a :class:`TreeResult`: no function to run, or a fault of the grader), and the reference
    it is judged against."""

    entry: TreeEntry
    reference: dict[str, Any]
    outcome: Outcome | TreeResult


def _resolve(fn: Callable[..., Any] | str, names: Mapping[str, Any]) -> Callable[..., Any] | str:
    """The function to grade, or why there is none."""
    if not isinstance(fn, str):
        return fn if callable(fn) else f"{fn!r} is not a function"
    found = names.get(fn)
    kind = None if found is None else "callable" if callable(found) else type(found).__name__
    return function_problem(fn, kind) or found  # type: ignore[return-value]


def _question(report: GradeReport, folder: Path, question: str) -> QuestionData:
    """The question's test data: the hidden suite when ``report.hidden`` (where the sandboxed
    kernel cannot read it, the visible one, and the report says the trusted grader grades
    the rest)."""
    visible = load_visible(folder)
    assignment = str(visible.get("assignment", folder.name))
    try:
        suite = load_hidden(folder, assignment) if report.hidden else visible
    except SuiteError:
        if os.environ.get("MINIMAXKIT_SANDBOXED") != "1":
            raise
        # autograde's sandboxed kernel cannot see the hidden trees: the trusted grader,
        # outside the kernel, grades them; this cell grades the visible ones
        report.hidden = False
        report.note = ("the hidden trees are graded outside this notebook by the trusted "
                       "grader; its verdict replaces this one")
        suite = visible
    spec = suite["questions"].get(question)
    if spec is None:
        raise SuiteError(f"no question {question!r} in the test data of {assignment}")
    return QuestionData(spec["check"], spec, visible["questions"].get(question, {}),
                        assignment, suite)


def _entry(e: Mapping[str, Any], kind: str, tree: GameTree, stored: bool) -> TreeEntry:
    """A tree of the suite's JSON as a :class:`TreeEntry` (its reference if ``stored``)."""
    return TreeEntry(e["name"], e.get("about", ""), kind, tree,
                     e.get("reference") if stored else None, dict(e.get("options", {})))


def _entries(report: GradeReport, data: QuestionData, folder: Path,
             student: str | None) -> list[TreeEntry]:
    """The trees to grade, in order: with the hidden ones, the visible trees, the hidden
    ones and the student's seeded ones; ``report.in_all`` says how many count in all."""
    parts = [("visible", data.visible)] if report.hidden else []
    parts.append(("hidden" if report.hidden else "visible", data.spec))
    entries = [_entry(e, kind, build_tree(e["tree"]), True)
               for kind, part in parts for e in part.get("trees", [])]
    if report.hidden:
        who, salt = student or student_id(), salt_for(data.suite, folder)
        for e in data.spec.get("seeded", []):
            seed = seed_for(who, f"{data.assignment}/{report.question}/{e['name']}", salt)
            entries.append(_entry(e, "seeded", build_tree(e["tree"], seed=seed), False))
    more = data.visible.get("hidden_trees")
    report.in_all = len(entries) if report.hidden else \
        (len(entries) + more if isinstance(more, int) and more >= 0 else None)
    return entries


def _fault() -> TreeResult:
    return TreeResult(0.0, "internal grader error (tell your instructor)",
                      traceback.format_exc().splitlines()[-3:])


def _run_all(check: str, target: Callable[..., Any] | str, entries: list[TreeEntry],
             limits: RunLimits) -> list[TreeRun]:
    """The function on every tree (nothing run where there is no function); after one tree
    timed out, the others get :data:`AFTER_TIMEOUT` seconds (an endless loop: no need to
    wait as long again)."""
    runs = []
    for entry in entries:
        if isinstance(target, str):
            runs.append(TreeRun(entry, {}, TreeResult(0.0, target)))
            continue
        ref: dict[str, Any] | None = entry.reference
        try:
            ref = ref if ref is not None else reference(check, entry.tree, **entry.options)
            out: Outcome | TreeResult = run_tree(check, target, entry.tree, entry.options,
                                                 limits=limits)
            if out.status == "timeout":
                limits = RunLimits(min(limits.timeout, AFTER_TIMEOUT), limits.runner)
        except Exception:  # a grader fault: say so, and keep grading the other trees
            out = _fault()
        runs.append(TreeRun(entry, ref or {}, out))
    return runs


class _Judging:
    """The verdicts of one question's runs: the trials the verdicts package compares, the
    known bugs' signatures per tree (made when first needed), the convention."""

    def __init__(self, check: str, runs: list[TreeRun], allowed: tuple[str, ...]) -> None:
        self.check, self.runs, self.allowed = check, runs, allowed
        self.trials = [attempt(check, r.entry.tree, r.reference, r.entry.options, r.outcome)
                       for r in runs]
        self._sigs: list[Any] = []
        self.convention: str | None = None
        self.program = ""  # the graded function's source and what it calls

    def known_bugs(self) -> list[Any]:
        """The known bugs' signatures on each tree the function finished (None elsewhere)."""
        if not self._sigs:
            self._sigs.extend(signatures_of(self.check, t) if t.got is not None else None
                              for t in self.trials)
        return self._sigs

    def choose_convention(self, report: GradeReport, text: str) -> None:
        """The one convention all trees are graded under, from the trees and the program's
        ``text``; the lectures' on a fault of the grader."""
        try:
            report.convention = choose_convention(
                self.check, self.trials, list(self.allowed), read_conventions(text),
                sigs=self.known_bugs)
            self.convention = report.convention.name if report.convention is not None \
                else None
        except Exception:  # a grader fault: grade under the lectures' convention
            self.convention = self.allowed[0]

    def verdict(self, run: TreeRun, trial: Attempt) -> TreeResult:
        """One tree's verdict (``trial`` is what the function did on it)."""
        out = run.outcome
        if isinstance(out, TreeResult):
            return out
        if not out.ok:
            return failed(out)
        try:
            result = grade_outcome(self.check, out, trial, conventions=self.allowed,
                                   convention=self.convention)
            return in_own_order(self.check, trial, result, self.convention, self.program)
        except Exception:
            return _fault()

    def diagnose(self, report: GradeReport) -> None:
        """The likely bug for all the trees, where the check names one and a tree is wrong."""
        if self.check != "order" and any(t.result.score < 1 for t in report.trees) and \
                any(t.got is not None or t.expanded_leaves for t in self.trials):
            try:
                report.diagnosis = diagnose(self.check, self.trials, self.convention,
                                            self.known_bugs(), [t.name for t in report.trees])
            except Exception:  # naming the bug is a help, never a reason to fail
                report.diagnosis = None


def _program(fn: Callable[..., Any] | str, target: Callable[..., Any],
             program: dict[str, str] | None) -> str:
    """The source the convention is read from: ``fn``'s and what it calls."""
    if program is None:
        return program_text(target)
    return program_text(fn if isinstance(fn, str) else getattr(fn, "__name__", ""), program)


def grade_report(fn: Callable[..., Any] | str, question: str, *, points: float,
                 **options: Unpack[GradeOptions]) -> GradeReport:
    """Grade ``fn`` (looked up in ``names``) on the trees of ``question`` in ``here`` (default:
    the working directory), the hidden and ``student``'s seeded ones too if ``hidden``; past
    ``timeout`` on one tree, :data:`AFTER_TIMEOUT` on the others (:class:`GradeOptions` says
    each option). A missing test data file is the report's ``problem``; a fault of the grader
    on one tree costs that tree, said as such.

    >>> import json, tempfile
    >>> from minimaxkit.grading import build_tree, reference
    >>> folder = Path(tempfile.mkdtemp())
    >>> spec = {"nested": [[3, 12, 8], [2, 4, 6]]}
    >>> _ = (folder / "tests.json").write_text(json.dumps({"assignment": "demo", "questions": {
    ...     "mm": {"check": "minimax", "trees": [{"name": "t", "tree": spec,
    ...            "reference": reference("minimax", build_tree(spec))}]}}}))
    >>> def first_leaf(node):
    ...     return node.static() if node.is_leaf() else first_leaf(node.children()[0])
    >>> report = grade_report(first_leaf, "mm", points=1, here=folder)
    >>> report.earned, report.trees[0].result.summary
    (0.5, 'value 3 ✔, evaluated 1 leaf ✘ (expected 6, each once)')
    """
    known_options(options, GradeOptions, "grade_report")
    report = GradeReport(question, float(points), hidden=options.get("hidden", False))
    here = options.get("here")
    folder = Path(here) if here is not None else Path.cwd()
    try:
        data = _question(report, folder, question)
        entries = _entries(report, data, folder, options.get("student"))
    except SuiteError as err:
        report.problem = str(err)
        return report
    target = _resolve(fn, options.get("names") or {})
    runs = _run_all(data.check, target, entries,
                    RunLimits(options.get("timeout", TIME_LIMIT), options.get("runner")))
    fixed = options.get("conventions") or tuple(data.spec.get("conventions") or ()) or \
        tuple(data.visible.get("conventions") or ())
    judging = _Judging(data.check, runs, tuple(fixed or CONVENTIONS))
    if data.check in CONVENTION_CHECKS and not isinstance(target, str):
        try:
            text = _program(fn, target, options.get("program"))
        except Exception:  # a grader fault: grade under the lectures' convention
            judging.convention = judging.allowed[0]
        else:
            judging.program = text
            judging.choose_convention(report, text)
    for run, trial in zip(runs, judging.trials, strict=True):
        report.trees.append(TreeVerdict(run.entry.name, run.entry.about,
                                        judging.verdict(run, trial), run.entry.kind))
    judging.diagnose(report)
    return report


def run_check(check: str, fn: Callable[..., Any], tree: GameTree, ref: dict[str, Any],
              **how: Unpack[CheckOptions]) -> TreeResult:
    """Grade ``fn`` on ``tree`` alone for ``check`` against the reference data ``ref``, the
    convention and the likely bug chosen from this tree (and ``fn``'s source); ``options``,
    ``conventions`` and ``timeout`` as :class:`CheckOptions` says.

    >>> from minimaxkit.examples import aima_5_2
    >>> from minimaxkit.grading import reference
    >>> def my_minimax(node):
    ...     if node.is_leaf():
    ...         return node.static()
    ...     values = [my_minimax(c) for c in node.children()]
    ...     return max(values) if node.is_max() else min(values)
    >>> r = run_check("minimax", my_minimax, aima_5_2(), reference("minimax", aima_5_2()))
    >>> r.score, r.summary
    (1.0, 'value 3 ✔, evaluated all 9 leaves once ✔')
    """
    known_options(how, CheckOptions, "run_check")
    opts = how.get("options") or {}
    out = run_tree(check, fn, tree, opts, limits=RunLimits(how.get("timeout", TIME_LIMIT)))
    if not out.ok:
        return failed(out)
    conv = None
    allowed = list(how.get("conventions") or CONVENTIONS)
    trial = attempt(check, tree, ref, opts, out)
    if check in CONVENTION_CHECKS:
        chosen = choose_convention(check, [trial], allowed, read_conventions(program_text(fn)))
        conv = chosen.name if chosen is not None else None
    result = grade_outcome(check, out, trial, conventions=tuple(allowed), convention=conv)
    if check != "order" and result.score < 1:
        found = diagnose(check, [trial], conv, [signatures_of(check, trial)])
        result.lines += bug_lines([BUGS[n] for n in found.overall])
    return result


def _stamp(fn: Callable[..., Any] | str, question: str, names: Mapping[str, Any]
           ) -> tuple[Stamp, str] | None:
    """The stamp of the code graded for ``question`` (:mod:`.stamps`) and the function's own
    source; None where there is no function, or its source cannot be read."""
    import inspect

    target = _resolve(fn, names)
    if isinstance(target, str):
        return None
    try:
        return Stamp(question, code_digest(program_text(target))), inspect.getsource(target)
    except Exception:  # a function without readable source (a builtin, a lambda in C)
        return None


def _validate_summary(report: GradeReport, fn: Callable[..., Any] | str,
                      names: Mapping[str, Any]) -> str:
    """The verdict's short form for the Validate dialog, ending with where the student sees
    the rest: the cell's output only when it shows the verdict of this code."""
    stamp = _stamp(fn, report.question, names)
    state = OutputState.NONE if stamp is None else output_state(Path.cwd(), *stamp)
    return report.summary(pointer(state))


def grade(fn: Callable[..., Any] | str, question: str, *, points: float,
          **options: Unpack[CellOptions]) -> float:
    """Grade ``fn`` (or the notebook's function of that name) on the trees of ``question``,
    show the verdicts and return the points (nbgrader's partial credit); ``hidden``, ``here``,
    ``conventions`` and ``timeout`` as :class:`CellOptions` says. No warning reaches stderr,
    which nbgrader would count as a failed test, except the short verdict of a cell not all
    right under ``nbgrader validate``, which its dialog shows, with where to see the rest:
    the cell's output if it shows this code's verdict, else a word to run the cell (again).
    Run by the student, the points carry a stamp of the code graded
    (:class:`~.stamps.Points`)."""
    known_options(options, CellOptions, "grade")
    caller = sys._getframe(1).f_globals
    execution = os.environ.get("NBGRADER_EXECUTION")
    sink = io.StringIO()
    with contextlib.redirect_stderr(sink), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = grade_report(fn, question, points=points, names=caller, **options)
        show(report)
        wrong = bool(report.problem) or any(t.result.score < 1 for t in report.trees)
        said = _validate_summary(report, fn, caller) \
            if execution == "validate" and not report.hidden and wrong else ""
        stamp = _stamp(fn, question, caller) if execution is None else None
    if noise := sink.getvalue().strip():
        print("(grader messages: " + noise[-300:] + ")")
    if execution == "validate" and not report.hidden:
        # nbgrader's Validate dialog shows a failing test cell's stderr (and otherwise only
        # "Partial credit; passed some but not all of the tests"): give it the verdict
        if said:
            print(said, file=sys.stderr)
            return report.earned
        return report.points  # every visible tree right: Validate says "Success"
    return Points(report.earned, stamp[0]) if stamp is not None else report.earned
