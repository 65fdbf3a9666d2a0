"""The notebook's grader, ``grade("alphabeta", "alphabeta", points=7)`` in a test cell: it
grades one question's trees (with the hidden ones when the trusted grader calls it), prints a
verdict per tree and returns the points (docs/grading.md, *A test cell*). The function is
named by a string, so a missing one costs the points with a message, not a traceback.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...isolation.session import function_problem
from ...tree import GameTree
from ..recording.outcome import Outcome
from ..recording.runners import TIME_LIMIT, Runner, run_tree
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
from ..verdicts.diagnosis import attempt, bug_lines, choose_convention, diagnose, signatures_of
from ..verdicts.feedback import GradeReport, TreeVerdict
from ..verdicts.references import reference
from ..verdicts.results import TreeResult, failed
from ..verdicts.scoring import grade_outcome
from .pictures import show

__all__ = ["grade", "grade_report", "run_check", "AFTER_TIMEOUT"]

AFTER_TIMEOUT = 0.3  # seconds per tree once a function has timed out in this cell
Entry = tuple[dict[str, Any], GameTree, dict[str, Any] | None]


def _resolve(fn: Callable[..., Any] | str, names: dict[str, Any]) -> Callable[..., Any] | str:
    """The function to grade, or why there is none."""
    if not isinstance(fn, str):
        return fn if callable(fn) else f"{fn!r} is not a function"
    found = names.get(fn)
    kind = None if found is None else "callable" if callable(found) else type(found).__name__
    return function_problem(fn, kind) or found  # type: ignore[return-value]


def _suite(report: GradeReport, folder: Path, question: str
           ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], str]:
    """The visible suite, the one graded, the question's spec and the assignment."""
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
    return visible, suite, spec, assignment


def _entries(report: GradeReport, folder: Path, question: str, student: str | None
             ) -> tuple[list[Entry], dict[str, Any], dict[str, Any]]:
    visible, suite, spec, assignment = _suite(report, folder, question)
    entries: list[Entry] = []
    parts = [("visible", visible["questions"].get(question, {}))] if report.hidden else []
    for kind, part in parts + [("hidden" if report.hidden else "visible", spec)]:
        entries += [({**e, "kind": kind}, build_tree(e["tree"]), e.get("reference"))
                    for e in part.get("trees", [])]
    if report.hidden:
        who, salt = student or student_id(), salt_for(suite, folder)
        for e in spec.get("seeded", []):
            seed = seed_for(who, f"{assignment}/{question}/{e['name']}", salt)
            entries.append(({**e, "kind": "seeded"}, build_tree(e["tree"], seed=seed), None))
    more = visible["questions"].get(question, {}).get("hidden_trees")
    report.in_all = len(entries) if report.hidden else \
        (len(entries) + more if isinstance(more, int) and more >= 0 else None)
    return entries, spec, visible


def grade_report(fn: Callable[..., Any] | str, question: str, *, points: float,
                 hidden: bool = False, here: str | Path | None = None,
                 conventions: tuple[str, ...] | None = None, timeout: float = TIME_LIMIT,
                 names: dict[str, Any] | None = None, runner: Runner | None = None,
                 student: str | None = None, program: dict[str, str] | None = None
                 ) -> GradeReport:
    """Grade ``fn`` (looked up in ``names``) on the trees of ``question`` in ``here`` (default:
    the working directory), the hidden and ``student``'s seeded ones too if ``hidden``; past
    ``timeout`` on one tree, :data:`AFTER_TIMEOUT` on the others. ``conventions`` are the
    accepted ones (else the question's, else all four); ``runner`` runs the function (default:
    forked here); ``program`` is the notebook's sources (default: ``fn``'s globals).

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
    report = GradeReport(question, float(points), hidden=hidden)
    folder = Path(here) if here is not None else Path.cwd()
    try:
        entries, spec, visible = _entries(report, folder, question, student)
    except SuiteError as err:
        report.problem = str(err)
        return report
    check = spec["check"]
    target = _resolve(fn, names if names is not None else {})
    runs: list[tuple[GameTree, dict[str, Any], dict[str, Any], Outcome | TreeResult]] = []
    for entry, tree, ref in entries:
        if isinstance(target, str):
            runs.append((tree, {}, {}, TreeResult(0.0, target)))
            continue
        opts = dict(entry.get("options", {}))
        try:
            ref = ref if ref is not None else reference(check, tree, **opts)
            out: Outcome | TreeResult = run_tree(check, target, tree, opts, timeout=timeout,
                                                 runner=runner)
            if out.status == "timeout":  # an endless loop: don't wait as long again
                timeout = min(timeout, AFTER_TIMEOUT)
        except Exception:  # a grader fault: say so, and keep grading the other trees
            out = _fault()
        runs.append((tree, ref or {}, opts, out))
    fixed = conventions or tuple(spec.get("conventions") or ()) or tuple(
        visible["questions"].get(question, {}).get("conventions") or ())
    allowed = tuple(fixed or CONVENTIONS)
    trials = [attempt(check, tree, ref, opts, out) for tree, ref, opts, out in runs]
    sigs: list[Any] = []  # the known bugs' signatures per tree, made when first needed

    def known_bugs() -> list[Any]:
        if not sigs:
            sigs.extend(signatures_of(check, t) if t.got is not None else None
                        for t in trials)
        return sigs

    conv: str | None = None
    if check in CONVENTION_CHECKS and not isinstance(target, str):
        try:
            name = fn if isinstance(fn, str) else getattr(fn, "__name__", "")
            text = program_text(name, program) if program is not None else program_text(target)
            report.convention = choose_convention(check, trials, list(allowed),
                                                  read_conventions(text), sigs=known_bugs)
            conv = report.convention.name if report.convention is not None else None
        except Exception:  # a grader fault: grade under the lectures' convention
            conv = allowed[0]
    for (entry, _, _), (_, _, _, out), trial in zip(entries, runs, trials, strict=True):
        if isinstance(out, TreeResult):
            result = out
        elif not out.ok:
            result = failed(out)
        else:
            try:
                result = grade_outcome(check, out, trial, conventions=allowed, convention=conv)
            except Exception:
                result = _fault()
        report.trees.append(TreeVerdict(entry["name"], entry.get("about", ""), result,
                                        entry["kind"]))
    if check != "order" and any(t.result.score < 1 for t in report.trees) and \
            any(t.got is not None or t.expanded_leaves for t in trials):
        try:
            report.diagnosis = diagnose(check, trials, conv, known_bugs())
        except Exception:  # naming the bug is a help, never a reason to fail
            report.diagnosis = None
    return report


def _fault() -> TreeResult:
    return TreeResult(0.0, "internal grader error (tell your instructor)",
                      traceback.format_exc().splitlines()[-3:])


def run_check(check: str, fn: Callable[..., Any], tree: GameTree, ref: dict[str, Any], *,
              options: dict[str, Any] | None = None, conventions: tuple[str, ...] | None = None,
              timeout: float = TIME_LIMIT) -> TreeResult:
    """Grade ``fn`` on ``tree`` alone for ``check`` against the reference data ``ref``, the
    convention and the likely bug chosen from this tree (and ``fn``'s source).

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
    opts = options or {}
    out = run_tree(check, fn, tree, opts, timeout=timeout)
    if not out.ok:
        return failed(out)
    conv = None
    allowed = list(conventions or CONVENTIONS)
    trial = attempt(check, tree, ref, opts, out)
    if check in CONVENTION_CHECKS:
        chosen = choose_convention(check, [trial], allowed, read_conventions(program_text(fn)))
        conv = chosen.name if chosen is not None else None
    result = grade_outcome(check, out, trial, conventions=tuple(allowed), convention=conv)
    if check != "order" and result.score < 1:
        found = diagnose(check, [trial], conv, [signatures_of(check, trial)])
        result.lines += bug_lines([BUGS[n] for n in found.overall])
    return result


def grade(fn: Callable[..., Any] | str, question: str, *, points: float,
          hidden: bool = False, here: str | Path | None = None,
          conventions: tuple[str, ...] | None = None, timeout: float = TIME_LIMIT) -> float:
    """Grade ``fn`` (or the notebook's function of that name) on the trees of ``question``,
    show the verdicts and return the points (nbgrader's partial credit). No warning reaches
    stderr, which nbgrader would count as a failed test, except the short verdict of a cell
    not all right under ``nbgrader validate``, which its dialog shows."""
    caller = sys._getframe(1).f_globals
    sink = io.StringIO()
    with contextlib.redirect_stderr(sink), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = grade_report(fn, question, points=points, hidden=hidden, here=here,
                              conventions=conventions, timeout=timeout, names=caller)
        show(report)
    if noise := sink.getvalue().strip():
        print("(grader messages: " + noise[-300:] + ")")
    if os.environ.get("NBGRADER_EXECUTION") == "validate" and not report.hidden:
        # nbgrader's Validate dialog shows a failing test cell's stderr (and otherwise only
        # "Partial credit; passed some but not all of the tests"): give it the verdict
        if report.problem or any(t.result.score < 1 for t in report.trees):
            print(report.summary(), file=sys.stderr)
            return report.earned
        return report.points  # every visible tree right: Validate says "Success"
    return report.earned
