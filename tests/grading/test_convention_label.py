"""The convention the A2 grader names is the one the code is written in, or, where neither the
code nor the trees tell conventions apart, it says so (lecturer review 2, finding 1: a
textbook fail-hard loop and the example sheet's one-sided loop were both told "fail-soft
(... every tree matches it, and your code reads so)").

The programs are the reviewer's, written as students write them (window parameters ``a, b``),
each with equality and with strict cuts; graded in-process on the released a2's visible
trees, as the student's own ``grade(...)`` grades them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import REPO, InProcess  # noqa: E402 - the helper lives beside the test

from minimaxkit.grading.api.grade import GradeReport, grade_report  # noqa: E402
from minimaxkit.grading.verdicts.conventions import (  # noqa: E402
    FAIL_WORDS,
    defined_functions,
    source_conventions,
)

SOFT = """
def alphabeta(n, a, b):
    if n.is_leaf():
        return n.static()
    if n.is_max():
        v = -math.inf
        for c in n.children():
            v = max(v, alphabeta(c, a, b))
            if v >= b:
                return v
            a = max(a, v)
        return v
    v = math.inf
    for c in n.children():
        v = min(v, alphabeta(c, a, b))
        if v <= a:
            return v
        b = min(b, v)
    return v
"""
HARD = """
def alphabeta(n, a, b):
    if n.is_leaf():
        return n.static()
    if n.is_max():
        for c in n.children():
            v = alphabeta(c, a, b)
            if v >= b:
                return b
            a = max(a, v)
        return a
    for c in n.children():
        v = alphabeta(c, a, b)
        if v <= a:
            return a
        b = min(b, v)
    return b
"""
ONE_SIDED = """
def alphabeta(n, a, b):
    if n.is_leaf():
        return n.static()
    ch = n.children()
    i = 0
    if n.is_max():
        while a < b and i < len(ch):
            a = max(a, alphabeta(ch[i], a, b))
            i += 1
        return a
    while a < b and i < len(ch):
        b = min(b, alphabeta(ch[i], a, b))
        i += 1
    return b
"""
NEGAMAX = """
def alphabeta(n, a, b):
    return negamax(n, a, b) if n.is_max() else -negamax(n, -b, -a)

def negamax(x, a, b):
    sign = 1 if x.is_max() else -1
    if x.is_leaf():
        return sign * x.static()
    v = -math.inf
    for c in x.children():
        v = max(v, -negamax(c, -b, -a))
        if v >= b:
            return v
        a = max(a, v)
    return v
"""


def _strict(src: str) -> str:
    """The same program cutting strictly: v > β, v < α; a one-sided loop goes on while α ≤ β."""
    return src.replace("v >= b", "v > b").replace("v <= a", "v < a").replace("a < b and",
                                                                             "a <= b and")


PROGRAMS = {(name, rule): (src if rule == "equal" else _strict(src), fail)
            for name, src, fail in [("fail-soft", SOFT, "soft"), ("clamped", HARD, "hard"),
                                    ("one-sided", ONE_SIDED, "one-sided"),
                                    ("negamax", NEGAMAX, "soft")]
            for rule in ("equal", "strict")}


def _graded(src: str) -> GradeReport:
    import math

    names: dict[str, object] = {"math": math}
    exec(compile(src, "<student>", "exec"), names)  # noqa: S102 - the test's own program
    return grade_report("alphabeta", "alphabeta", points=8, hidden=False,
                        here=REPO / "assignments" / "a2_alphabeta", names=names,
                        runner=InProcess(), student="student00",
                        program=defined_functions([src]))


@pytest.mark.parametrize(("name", "rule"), sorted(PROGRAMS))
def test_the_code_is_read_as_the_convention_it_is_written_in(name: str, rule: str) -> None:
    src, fail = PROGRAMS[(name, rule)]
    text = "\n".join(defined_functions([src]).values())
    assert source_conventions(text) == [f"{rule}-{fail}"]


@pytest.mark.parametrize(("name", "rule"), sorted(PROGRAMS))
def test_the_grader_names_the_convention_the_code_is_written_in(name: str, rule: str) -> None:
    src, fail = PROGRAMS[(name, rule)]
    report = _graded(src)
    assert report.earned == report.available
    c = report.convention
    assert c is not None and c.claimed
    assert c.name == f"{rule}-{fail}", (c.name, c.why)
    assert c.label.endswith(", " + FAIL_WORDS[fail])
    assert c.why.startswith("every tree matches it, and your code reads so")


def test_where_the_code_is_not_read_the_grader_says_the_trees_cannot_tell() -> None:
    """A cut written through a helper (``if beyond(v, b)``) is not read as any cut rule, so
    the code does not say its convention; cutting on equality, every fail mode evaluates the
    same leaves on these trees, and the verdict says that rather than "your code reads so"."""
    src = SOFT.replace("if v >= b:", "if beyond(v, b):").replace("if v <= a:",
                                                                  "if beyond(a, v):")
    src = "def beyond(x, y):\n    return x >= y\n" + src
    assert len(source_conventions("\n".join(defined_functions([src]).values()))) == 6
    report = _graded(src)
    c = report.convention
    assert report.earned == report.available and c is not None
    assert "reads so" not in c.why
    assert c.why == ("your values fit fail-soft, fail-hard and the sheet's one-sided form "
                     "alike; the trees here cannot tell them apart")
    assert "cannot tell them apart" in report.text()


def test_a_clamped_cut_that_notes_the_best_child_first_is_read_as_fail_hard() -> None:
    """Assignment 4 asks for the best child at a cut, so a clamped cut often records it
    before returning the bound (outside points pass 6: read as one-sided fail-hard)."""
    src = """
def search(node, depth, alpha, beta, best):
    if node.is_leaf() or node.depth == depth:
        return node.static()
    if node.is_max():
        for child in node.children():
            score = search(child, depth, alpha, beta, best)
            if score >= beta:
                best[node] = child
                return beta
            if score > alpha:
                alpha = score
                best[node] = child
        return alpha
    for child in node.children():
        score = search(child, depth, alpha, beta, best)
        if score <= alpha:
            best[node] = child
            return alpha
        if score < beta:
            beta = score
            best[node] = child
    return beta
"""
    text = "\n".join(defined_functions([src]).values())
    assert source_conventions(text) == ["equal-hard"]
