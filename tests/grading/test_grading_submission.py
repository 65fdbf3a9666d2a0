"""What is decided once per submission: the convention (one for all its trees), the bug that
accounts for every tree, whole or half points; and what the Validate button is given."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest

from minimaxkit.grading import CONVENTIONS, grade, grade_report
from minimaxkit.grading.verdicts.conventions import (
    defined_functions,
    program_text,
    source_conventions,
)
from minimaxkit.grading.verdicts.feedback import GradeReport, points_text

REPO = Path(__file__).resolve().parents[2]
A2 = REPO / "solutions" / "a2_alphabeta"
RELEASED = REPO / "assignments" / "a2_alphabeta"

# the issue's program: cuts on equality, returns v, never updates alpha
NO_ALPHA = '''
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
'''

PAIR = '''
def max_value(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf
    for child in node.children():
        v = max(v, min_value(child, alpha, beta))
        if v > beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = math.inf
    for child in node.children():
        v = min(v, max_value(child, alpha, beta))
        if v < alpha:
            return v
        beta = min(beta, v)
    return v


def alphabeta(node, alpha, beta):
    return max_value(node, alpha, beta) if node.is_max() else min_value(node, alpha, beta)
'''


def defined(src: str) -> dict[str, Any]:
    names: dict[str, Any] = {"math": math}
    exec(compile(src, "<student>", "exec"), names)
    return names


@pytest.fixture(autouse=True)
def student(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINIMAXKIT_STUDENT_ID", "ada")
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


def report_of(src: str, *, hidden: bool = True, here: Path = A2) -> GradeReport:
    return grade_report("alphabeta", "alphabeta", points=8, hidden=hidden, here=here,
                        names=defined(src), program=defined_functions([src]))


def test_the_issues_program_is_graded_under_the_convention_it_is_written_in() -> None:
    report = report_of(NO_ALPHA)
    assert report.convention is not None and report.convention.name == "equal-soft"
    assert "your code reads so" in report.convention.why
    text = report.text()
    first = text.splitlines()[0]
    assert first == (f"alphabeta: {points_text(report.earned)} of 8 points, graded as cut on "
                     "equality (v ≥ β, v ≤ α), fail-soft")
    # on the sheet its 18 leaves are strict fail-hard's: a mismatch that says so
    sheet = next(t for t in report.trees if t.name == "sheet")
    assert sheet.result.score == 0.5  # the value only
    assert "your leaves are those of strict cuts (v > β, v < α), fail-hard" in \
        " ".join(sheet.result.lines)
    # every compared reference is the chosen convention's
    assert text.count("the reference (cut on equality (v ≥ β, v ≤ α), fail-soft)") == \
        sum(t.result.score < 1 for t in report.trees)
    assert "the reference (strict" not in text
    # the bug that accounts for every tree: alpha never updated. From (-inf, inf) alpha <- min
    # evaluates the same leaves on any tree; the hidden tree searched in the window (5, 6)
    # tells them apart (there alpha = min(5, v) moves alpha: at the root, min(5, 4) = 4)
    assert report.diagnosis is not None
    assert report.diagnosis.overall == ["alpha_not_updated"]
    assert "no pruning" not in text
    # below every correct program (7), in half points
    assert report.earned < 7 and (2 * report.earned).is_integer()


def test_each_tree_under_its_best_convention_would_score_more_than_one_convention() -> None:
    """The old per-tree matching credited the issue's program on trees where another
    convention fits; one convention per program does not."""
    report = report_of(NO_ALPHA)
    per_tree_best = 0.0
    import json

    from minimaxkit.grading.api.grade import run_check
    from minimaxkit.grading.testdata.trees import build_tree
    from minimaxkit.grading.verdicts.references import reference
    names = defined(NO_ALPHA)
    data = json.loads((A2 / "tests.json").read_text())["questions"]["alphabeta"]["trees"]
    data += json.loads((A2 / "hidden_tests.json").read_text())["questions"]["alphabeta"][
        "trees"]
    for entry in data:
        tree = build_tree(entry["tree"])
        options = entry.get("options", {})  # the hidden tree's window (5, 6)
        ref = reference("alphabeta", tree, **options)
        per_tree_best += max(run_check("alphabeta", names["alphabeta"], tree, ref,
                                       conventions=(c,), options=options).score
                             for c in CONVENTIONS)
    graded = sum(t.result.score for t in report.trees if t.name != "yours")
    assert graded < per_tree_best  # sheet (strict fail-hard) no longer credited


def test_a_pair_of_procedures_is_read_through_the_calls() -> None:
    text = program_text("alphabeta", defined_functions([PAIR]))
    assert "def max_value" in text and "def min_value" in text
    assert source_conventions(text) == ["strict-soft"]
    assert source_conventions(program_text("alphabeta", {"alphabeta": "def alphabeta(n, a, b):"
                                                         "\n    return 0"})) == \
        list(CONVENTIONS)  # no cut test at all: it says neither a cut rule nor a fail mode
    report = report_of(PAIR)
    assert report.earned == 8 and report.convention is not None
    assert report.convention.name == "strict-soft"


def test_without_a_clear_source_the_lectures_default_wins_a_tie() -> None:
    # every tree right under equal-soft and equal-hard alike: the lectures' order
    src = NO_ALPHA.replace("if v >= beta:", "if not v < beta:").replace(
        "if v <= alpha:", "if not v > alpha:")
    report = report_of(src)
    assert report.convention is not None
    assert report.convention.name == "equal-soft"
    assert "does not say which" in report.convention.why


def test_no_pruning_is_not_claimed_for_a_search_that_pruned() -> None:
    """alpha and beta not passed down from MAX nodes: on the binary tree every leaf is
    evaluated, elsewhere not; the bug named accounts for all the trees."""
    src = NO_ALPHA.replace("            v = max(v, alphabeta(child, alpha, beta))\n"
                           "            if v >= beta:\n                return v\n",
                           "            v = max(v, alphabeta(child, -math.inf, math.inf))\n"
                           "            if v >= beta:\n                return v\n"
                           "            alpha = max(alpha, v)\n")
    report = report_of(src, hidden=False, here=RELEASED)
    binary = next(t for t in report.trees if t.name == "sheet-binary")
    assert "4 leaves ✘" in binary.result.summary  # every leaf of that tree
    assert report.diagnosis is not None
    assert report.diagnosis.overall == ["not_passed_max"]
    assert "no pruning" not in report.text()


def test_points_are_whole_or_half_and_visible_trees_are_a_point_each() -> None:
    report = report_of(NO_ALPHA, hidden=False, here=RELEASED)
    assert len(report.trees) == 6 and report.in_all == 8
    assert report.available == 6 and (2 * report.earned).is_integer()
    assert "2 more points, 8 in all" in report.text()
    assert points_text(4.5) == "4.5" and points_text(14 / 3) == "14/3"


def test_validate_gets_the_verdict_on_stderr(monkeypatch: pytest.MonkeyPatch,
                                             capsys: Any) -> None:
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    monkeypatch.chdir(RELEASED)
    names = defined(NO_ALPHA)
    got = eval("grade('alphabeta', 'alphabeta', points=8)",  # noqa: S307 - test's own code
               {**names, "grade": grade})
    out, err = capsys.readouterr()
    assert got < 5
    assert err.splitlines()[0].startswith("alphabeta: ")
    assert "α is never updated" in err and all(len(ln) <= 82 for ln in err.splitlines())
    assert out.splitlines()[0].endswith("graded as cut on equality (v ≥ β, v ≤ α), fail-soft")
    right = defined(NO_ALPHA.replace("        return v\n    v = math.inf",
                                     "            alpha = max(alpha, v)\n"
                                     "        return v\n    v = math.inf"))
    assert eval("grade('alphabeta', 'alphabeta', points=8)", {**right, "grade": grade}) == 8
    assert capsys.readouterr().err == ""
    assert os.environ["NBGRADER_EXECUTION"] == "validate"


def test_reading_the_cells_never_fails_the_grading() -> None:
    """The student's cells are parsed in the grader's process: nothing in them may stop it."""
    cells = ["x = (" * 10, "y = " + "-" * 300_000 + "1", "%%time\ndef f(a):\n    return a",
             "!ls\ndef g(a):\n    return f(a)", "def broken(:"]
    defs = defined_functions(cells)
    assert sorted(defs) == ["f", "g"]
    assert program_text("g", defs).count("def ") == 2
