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
from .bugs import signatures
from .checks import NO, OK, TreeResult, failed, grade_outcome, run_tree, submitted
from .references import CONVENTIONS, build_tree, reference, seed_for
from .sandbox import TIME_LIMIT, Outcome
from .submission import (
    CONVENTION_CHECKS,
    Convention,
    Diagnosis,
    choose_convention,
    diagnose,
    program_text,
    read_conventions,
)
from .suite import SuiteError, load_hidden, load_visible, salt_for, student_id

__all__ = ["grade", "grade_report", "GradeReport", "TreeVerdict", "MAX_PICTURES",
           "AFTER_TIMEOUT", "points_text"]

AFTER_TIMEOUT = 0.3  # seconds per tree once a function has timed out in this cell
VALIDATE_WIDTH = 82  # nbgrader validate prints 90 columns, 4 of indent, cuts at 87
MAX_PICTURES = 1  # pictures per test cell: the first mismatch is enough to see it, and cheap


@dataclass
class TreeVerdict:
    """One tree of a question: its name, what it is, and the :class:`TreeResult`."""

    name: str
    about: str
    result: TreeResult


def points_text(x: float) -> str:
    """Points as people write them: whole or half points as decimals, anything else as an
    exact fraction.

    >>> points_text(4.5), points_text(7.0), points_text(14 / 3)
    ('4.5', '7', '14/3')
    """
    if (2 * x).is_integer():
        return f"{x:g}"
    from fractions import Fraction
    return str(Fraction(x).limit_denominator(1000))


@dataclass
class GradeReport:
    """Everything one ``grade`` call found: per-tree verdicts and the points, the
    convention the alpha-beta trees were graded under and the bug that accounts for them."""

    question: str
    points: float
    trees: list[TreeVerdict] = field(default_factory=list)
    problem: str = ""
    hidden: bool = False
    note: str = ""
    convention: Convention | None = None
    diagnosis: Diagnosis | None = None
    in_all: int | None = None

    @property
    def per_tree(self) -> float:
        """What one tree is worth: the cell's points shared among all its trees, hidden ones
        included (``in_all``; on the visible trees alone, when their test data does not say
        how many hidden trees there are, among the visible ones)."""
        return self.points / max(self.in_all or len(self.trees), 1)

    @property
    def earned(self) -> float:
        """Points earned: each tree's score (0, ½ or 1) times what a tree is worth."""
        return self.per_tree * sum(t.result.score for t in self.trees)

    @property
    def available(self) -> float:
        """The points these trees are worth: all the cell's points once the hidden trees
        are in, else the visible trees' share."""
        if self.hidden or not self.trees:
            return self.points
        return min(self.points, self.per_tree * len(self.trees))

    def head(self, width: int = 100) -> list[str]:
        """The first lines: the score and the convention (one line, never folded), then why
        that convention and what the hidden trees add, folded at ``width``."""
        first = f"{self.question}: {points_text(self.earned)} of " \
                f"{points_text(self.available)} points"
        if not self.hidden:
            first += " on the visible trees"
        if self.convention is not None:
            first += f", graded as {self.convention.label}"
        more = []
        if self.convention is not None:
            more.append(f"one convention for all your trees; this one because "
                        f"{self.convention.why}")
        if not self.hidden:
            rest = self.points - self.available
            more.append("the hidden trees are added when your work is graded" +
                        (f": {points_text(rest)} more points, {points_text(self.points)} in "
                         "all" if rest > 0 else ""))
        return [first] + [ln for m in more for ln in _wrap(f"({m})", width)]

    def tree_lines(self, index: int) -> list[str]:
        """The verdict of tree ``index``: its summary, details and likely bug."""
        t = self.trees[index]
        r = t.result
        mark = OK if r.score == 1 else NO
        about = f" ({t.about})" if t.about else ""
        share = "" if r.score in (0, 1) else f" [{points_text(r.score * self.per_tree)} of " \
                                               f"{points_text(self.per_tree)}]"
        lines = _wrap(f"{mark} {t.name}{about}: {r.summary}{share}")
        detail = list(r.lines)
        if self.diagnosis is not None and r.score < 1:
            detail += self.diagnosis.tree_lines(index)
        for ln in detail:
            lines.extend(_wrap(f"    {ln}"))
        if r.printed:
            shown = r.printed.rstrip("\n").splitlines()
            lines.append("    your function printed:")
            lines.extend(f"      {ln}" for ln in shown[:10])
            if len(shown) > 10:
                lines.append(f"      [... {len(shown) - 10} more lines]")
        return lines

    def top(self) -> list[str]:
        """The head, a rule, the notes and the likely bug said once for all trees."""
        head = self.head()
        lines = head + ["-" * max(len(ln) for ln in head[:1])]
        if self.note:
            lines.append(f"({self.note})")
        if self.problem:
            lines.append(f"{NO} {self.problem}")
        if self.diagnosis is not None:
            for ln in self.diagnosis.top_lines():
                lines.extend(_wrap(ln))
        return lines

    def text(self) -> str:
        """The verdicts as text (what is printed, without pictures)."""
        lines = self.top()
        for i in range(len(self.trees)):
            lines += self.tree_lines(i)
        return "\n".join(lines)

    def summary(self) -> str:
        """A short form for nbgrader's Validate dialog: the head, each tree's first line,
        the likely bug; lines of at most :data:`VALIDATE_WIDTH` characters (``nbgrader
        validate`` cuts longer ones)."""
        head = self.head(VALIDATE_WIDTH)
        lines = _wrap(head[0], VALIDATE_WIDTH) + head[1:]
        if self.diagnosis is not None:
            lines += [ln for t in self.diagnosis.top_lines()
                      for ln in _wrap(t, VALIDATE_WIDTH)]
        bugs: list[str] = []  # the likely bugs named per tree (checks without a diagnosis)
        for t in self.trees:
            mark = OK if t.result.score == 1 else NO
            lines += _wrap(f"{mark} {t.name}: {t.result.summary}", VALIDATE_WIDTH)
            bugs += [ln for ln in t.result.lines if ln.startswith("likely bug")
                     and ln not in bugs]
        lines += [w for ln in bugs for w in _wrap(ln, VALIDATE_WIDTH)]
        lines.append("(the cell's output has the details and a picture)")
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
                 _student: str | None = None,
                 _defs: dict[str, str] | None = None) -> GradeReport:
    """Grade ``fn`` on every tree of ``question`` and return the :class:`GradeReport`.

    ``here`` is the notebook's folder (default: the working directory, where Jupyter and
    nbgrader run a notebook); ``hidden`` adds the hidden trees (the seeded ones included) to
    the visible ones.
    ``timeout`` is the time limit per tree; once the function has run out of time on one
    tree, it gets :data:`AFTER_TIMEOUT` seconds on the others. ``conventions`` fixes the
    accepted alpha-beta conventions (else the question's ``"conventions"``, else all four);
    every alpha-beta tree is graded under the one convention chosen for the submission
    (:mod:`.submission`), from its code (``_defs``: the notebook's functions by name, when
    the function itself is out of reach; by default read from its globals) and its trees.

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
    more = visible["questions"].get(question, {}).get("hidden_trees")
    report.in_all = len(entries) if hidden else \
        (len(entries) + more if isinstance(more, int) and more >= 0 else None)
    runs: list[tuple[GameTree, dict[str, Any], dict[str, Any], Outcome | TreeResult]] = []
    for entry, tree, ref in entries:
        if isinstance(target, str):
            runs.append((tree, {}, {}, TreeResult(0.0, target)))
            continue
        opts = dict(entry.get("options", {}))
        try:
            ref = ref if ref is not None else reference(check, tree, **opts)
            out: Outcome | TreeResult = run_tree(check, target, tree, opts, timeout=timeout)
            if out.status == "timeout":  # an endless loop: don't wait as long again
                timeout = min(timeout, AFTER_TIMEOUT)
        except Exception:  # a grader fault: say so, and keep grading the other trees
            out = _fault()
        runs.append((tree, ref or {}, opts, out))
    allowed = tuple(fixed or CONVENTIONS)
    conv: str | None = None
    trials = [(tree, ref, submitted(check, out) if isinstance(out, Outcome) else None)
              for tree, ref, _, out in runs]
    sigs: list[Any] = []  # the known bugs' signatures per tree, made when first needed

    def known_bugs() -> list[Any]:
        if not sigs:
            sigs.extend(signatures(tree, check) if got is not None else None
                        for tree, _, got in trials)
        return sigs

    if check in CONVENTION_CHECKS and not isinstance(target, str):
        try:
            name = fn if isinstance(fn, str) else getattr(fn, "__name__", "")
            text = program_text(name, _defs) if _defs is not None else program_text(target)
            report.convention = choose_convention(
                check, trials, list(allowed), read_conventions(text),
                sigs=known_bugs if check != "deepen" else None)
            conv = report.convention.name
        except Exception:  # a grader fault: grade under the lectures' convention
            conv = allowed[0]
    for (entry, _, _), (tree, ref, opts, out) in zip(entries, runs, strict=True):
        if isinstance(out, TreeResult):
            result = out
        elif not out.ok:
            result = failed(out)
        else:
            try:
                result = grade_outcome(check, out, tree, ref, options=opts, conventions=allowed,
                                       convention=conv)
            except Exception:
                result = _fault()
        report.trees.append(TreeVerdict(entry["name"], entry.get("about", ""), result))
    if check in ("alphabeta", "ordered_alphabeta") and conv is not None and \
            any(t.result.score < 1 for t in report.trees) and any(t[2] for t in trials):
        try:
            report.diagnosis = diagnose(check, trials, conv, known_bugs())
        except Exception:  # naming the bug is a help, never a reason to fail
            report.diagnosis = None
    return report


def _fault() -> TreeResult:
    return TreeResult(0.0, "internal grader error (tell your instructor)",
                      traceback.format_exc().splitlines()[-3:])


def _tuple(v: Any) -> tuple[str, ...] | None:
    return tuple(v) if v else None


def grade(fn: Callable[..., Any] | str, question: str, *, points: float,
          hidden: bool = False, here: str | Path | None = None,
          conventions: tuple[str, ...] | None = None, timeout: float = TIME_LIMIT) -> float:
    """Grade ``fn`` (a function, or the name of one in the notebook) on the trees of
    ``question``, print the verdicts (and show pictures of mismatches) and return the points
    earned: nbgrader takes a number as a test cell's last value for partial credit.

    Nothing the student function does can stop the other trees from being graded, and no
    warning reaches stderr (which nbgrader would count as a failed test). Under ``nbgrader
    validate`` (the Validate button), a cell whose visible trees are not all right writes a
    short verdict to stderr, which is what the Validate dialog shows; one whose visible
    trees are all right returns the cell's full points, so Validate says "Success"."""
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
    if os.environ.get("NBGRADER_EXECUTION") == "validate" and not report.hidden:
        # nbgrader's Validate dialog shows a failing test cell's stderr (and otherwise only
        # "Partial credit; passed some but not all of the tests"): give it the verdict
        if report.problem or any(t.result.score < 1 for t in report.trees):
            print(report.summary(), file=sys.stderr)
            return report.earned
        return report.points  # every visible tree right: Validate says "Success"
    return report.earned


def _show(report: GradeReport) -> None:
    from .picture import display_svg, picture_svg

    print("\n".join(report.top()))
    pictures = 0
    for i, t in enumerate(report.trees):
        print("\n".join(report.tree_lines(i)))
        if t.result.picture is not None and pictures < MAX_PICTURES:
            pic = t.result.picture
            svg = picture_svg(replace(pic, title=f"{t.name}: reference {pic.title}; "
                                                 "your differences marked"))
            if svg is not None and display_svg(svg):
                pictures += 1
