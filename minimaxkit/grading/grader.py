"""The notebook-facing grader: ``grade(fn, question, points=...)`` runs one question's test
trees, prints a verdict per tree (with a picture of the difference on a mismatch) and returns
the points earned, which nbgrader reads as the test cell's partial credit.

A question has one test cell. In the student's copy it grades the visible trees; when
nbgrader autogrades, the trusted grader (:mod:`.trusted`) grades the hidden trees as well,
and the points are shared among all::

    from minimaxkit.grading import grade
    # your visible trees now; when your work is graded, its hidden trees are added
    grade("alphabeta", "alphabeta", points=7)

The function is named by a string and looked up in the notebook, so that a missing or
renamed function costs the points with a message, not a traceback (which would quote the
cell, hidden lines included); a function object works as well.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import textwrap
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..tree import GameTree
from .checks import NO, OK, TreeResult, run_check
from .references import build_tree, reference, seed_for
from .sandbox import TIME_LIMIT
from .suite import SuiteError, load_hidden, load_visible, salt_for, student_id

__all__ = ["grade", "grade_report", "GradeReport", "TreeVerdict", "MAX_PICTURES",
           "AFTER_TIMEOUT"]

AFTER_TIMEOUT = 0.3  # seconds per tree once a function has timed out in this cell
MAX_PICTURES = 1  # pictures per test cell: the first mismatch is enough to see it, and cheap


@dataclass
class TreeVerdict:
    """One tree of a question: its name, what it is, and the :class:`TreeResult`."""

    name: str
    about: str
    result: TreeResult


@dataclass
class GradeReport:
    """Everything one ``grade`` call found: per-tree verdicts and the points."""

    question: str
    points: float
    trees: list[TreeVerdict] = field(default_factory=list)
    problem: str = ""
    hidden: bool = False
    note: str = ""

    @property
    def earned(self) -> float:
        """Points earned: each tree is worth the same share of ``points``."""
        if not self.trees:
            return 0.0
        share = sum(t.result.score for t in self.trees) / len(self.trees)
        return round(self.points * share, 2)

    def text(self) -> str:
        """The verdicts as text (what is printed, without pictures)."""
        head = f"{self.question}: {self.earned:g} of {self.points:g} points"
        if not self.hidden:
            head += " on the visible trees (hidden ones are added when your work is graded)"
        lines = [head, "-" * len(head)]
        if self.note:
            lines.append(f"({self.note})")
        if self.problem:
            lines.append(f"{NO} {self.problem}")
        for t in self.trees:
            r = t.result
            mark = OK if r.score == 1 else NO
            about = f" ({t.about})" if t.about else ""
            lines.extend(_wrap(f"{mark} {t.name}{about}: {r.summary}"))
            for ln in r.lines:
                lines.extend(_wrap(f"    {ln}"))
            if r.printed:
                shown = r.printed.rstrip("\n").splitlines()
                lines.append("    your function printed:")
                lines.extend(f"      {ln}" for ln in shown[:10])
                if len(shown) > 10:
                    lines.append(f"      [... {len(shown) - 10} more lines]")
        return "\n".join(lines)


def _wrap(line: str, width: int = 100) -> list[str]:
    """``line`` folded at ``width`` (feedback pages do not wrap printed text), its
    continuation lines indented two more than the line itself.

    >>> _wrap("    leaves: " + "N=8 " * 30, 40)[:2]
    ['    leaves: N=8 N=8 N=8 N=8 N=8 N=8 N=8', '      N=8 N=8 N=8 N=8 N=8 N=8 N=8 N=8']
    """
    indent = line[: len(line) - len(line.lstrip())]
    return textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ",
                         break_long_words=False, break_on_hyphens=False) or [line]


def _resolve(fn: Callable[..., Any] | str, caller: dict[str, Any]) -> Callable[..., Any] | str:
    if not isinstance(fn, str):
        return fn if callable(fn) else f"{fn!r} is not a function"
    found = caller.get(fn)
    if found is None:
        return f"no function named {fn!r} is defined: did you rename it or skip its cell?"
    if not callable(found):
        return f"{fn!r} is a {type(found).__name__}, not a function"
    return found  # type: ignore[no-any-return]


def grade_report(fn: Callable[..., Any] | str, question: str, *, points: float,
                 hidden: bool = False, here: str | Path | None = None,
                 conventions: tuple[str, ...] | None = None, timeout: float = TIME_LIMIT,
                 _caller: dict[str, Any] | None = None,
                 _student: str | None = None) -> GradeReport:
    """Grade ``fn`` on every tree of ``question`` and return the :class:`GradeReport`.

    ``here`` is the notebook's folder (default: the working directory, where Jupyter and
    nbgrader run a notebook); ``hidden`` adds the hidden trees (the seeded ones included) to
    the visible ones.
    ``timeout`` is the time limit per tree; once the function has run out of time on one
    tree, it gets :data:`AFTER_TIMEOUT` seconds on the others. ``conventions`` fixes the
    accepted alpha-beta conventions (else the question's ``"conventions"``, else all four).

    >>> import json, tempfile
    >>> from minimaxkit.grading import build_tree, reference
    >>> folder = Path(tempfile.mkdtemp())
    >>> spec = {"nested": [[3, 12, 8], [2, 4, 6]]}
    >>> _ = (folder / "tests.json").write_text(json.dumps({"assignment": "demo", "questions": {
    ...     "mm": {"check": "minimax", "trees": [{"name": "t", "tree": spec,
    ...            "reference": reference("minimax", build_tree(spec))}]}}}))
    >>> def first_leaf(node):
    ...     return node.static() if node.is_leaf() else first_leaf(node.children()[0])
    >>> report = grade_report(first_leaf, "mm", points=2, here=folder)
    >>> report.earned, report.trees[0].result.summary
    (1.0, 'value 3 ✔, evaluated 1 leaf ✘ (expected 6, each once)')
    """
    report = GradeReport(question, float(points), hidden=hidden)
    folder = Path(here) if here is not None else Path.cwd()
    try:
        visible = load_visible(folder)
        assignment = str(visible.get("assignment", folder.name))
        try:
            suite = load_hidden(folder, assignment) if hidden else visible
        except SuiteError:
            if os.environ.get("MINIMAXKIT_SANDBOXED") != "1":
                raise
            # autograde's sandboxed kernel cannot see the hidden trees: the trusted grader,
            # outside the kernel, grades them; this cell grades the visible ones
            report.hidden = hidden = False
            report.note = ("the hidden trees are graded outside this notebook by the trusted "
                           "grader; its verdict replaces this one")
            suite = visible
        spec = suite["questions"].get(question)
        if spec is None:
            raise SuiteError(f"no question {question!r} in the test data of {assignment}")
    except SuiteError as err:
        report.problem = str(err)
        return report
    target = _resolve(fn, _caller if _caller is not None else {})
    check = spec["check"]
    fixed = conventions or _tuple(spec.get("conventions")) or _tuple(
        visible["questions"].get(question, {}).get("conventions"))
    entries: list[tuple[dict[str, Any], GameTree, dict[str, Any] | None]] = []
    specs = [spec]
    if hidden:
        specs.insert(0, visible["questions"].get(question, {}))
    for part in specs:
        for entry in part.get("trees", []):
            entries.append((entry, build_tree(entry["tree"]), entry.get("reference")))
    who = _student or student_id()
    salt = salt_for(suite, folder) if hidden else ""
    for entry in spec.get("seeded", []) if hidden else []:
        seed = seed_for(who, f"{assignment}/{question}/{entry['name']}", salt)
        entries.append((entry, build_tree(entry["tree"], seed=seed), None))
    for entry, tree, ref in entries:
        name, about = entry["name"], entry.get("about", "")
        if isinstance(target, str):
            report.trees.append(TreeVerdict(name, about, TreeResult(0.0, target)))
            continue
        opts = dict(entry.get("options", {}))
        try:
            ref = ref if ref is not None else reference(check, tree, **opts)
            result = run_check(check, target, tree, ref, options=opts, conventions=fixed,
                               timeout=timeout)
            if result.status == "timeout":  # an endless loop: don't wait as long again
                timeout = min(timeout, AFTER_TIMEOUT)
        except Exception:  # a grader fault: say so, and keep grading the other trees
            result = TreeResult(0.0, "internal grader error (tell your instructor)",
                                traceback.format_exc().splitlines()[-3:])
        report.trees.append(TreeVerdict(name, about, result))
    return report


def _tuple(v: Any) -> tuple[str, ...] | None:
    return tuple(v) if v else None


def grade(fn: Callable[..., Any] | str, question: str, *, points: float,
          hidden: bool = False, here: str | Path | None = None,
          conventions: tuple[str, ...] | None = None, timeout: float = TIME_LIMIT) -> float:
    """Grade ``fn`` (a function, or the name of one in the notebook) on the trees of
    ``question``, print the verdicts (and show pictures of mismatches) and return the points
    earned: nbgrader takes a number as a test cell's last value for partial credit.

    Nothing the student function does can stop the other trees from being graded, and no
    warning reaches stderr (which nbgrader would count as a failed test)."""
    caller = sys._getframe(1).f_globals
    sink = io.StringIO()
    with contextlib.redirect_stderr(sink), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = grade_report(fn, question, points=points, hidden=hidden, here=here,
                              conventions=conventions, timeout=timeout, _caller=caller)
        _show(report)
    noise = sink.getvalue().strip()
    if noise:
        print("(grader messages: " + noise[-300:] + ")")
    return report.earned


def _show(report: GradeReport) -> None:
    from .picture import display_svg, picture_svg

    text = report.text().splitlines()
    head = 2 + bool(report.note) + bool(report.problem)
    print("\n".join(text[:head]))
    pictures = 0
    for t in report.trees:
        single = GradeReport(report.question, report.points, [t], hidden=report.hidden)
        print("\n".join(single.text().splitlines()[2:]))
        if t.result.picture is not None and pictures < MAX_PICTURES:
            pic = t.result.picture
            svg = picture_svg(replace(pic, title=f"{t.name}: reference {pic.title}; "
                                                 "your differences marked"))
            if svg is not None and display_svg(svg):
                pictures += 1
