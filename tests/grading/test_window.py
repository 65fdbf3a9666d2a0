"""A test tree whose root is called with a narrow window (issue #35): a2's hidden tree "ties"
is searched with ``alphabeta(root, 5, 6)``, so that two wrong programs that earn full marks
wherever the root is called with (-∞, ∞) lose points: *infcut* (a node that cuts returns +∞
at a β-cut, -∞ at an α-cut, instead of v or the bound) and *window ignored* (the root starts
again from (-∞, ∞)).

The tree (MAX root A; nodes named breadth-first, leaves with their values)::

    A: B, C=-8, D
    B (MIN): E, F, G          D (MIN): H, I=-4, J=5
    E (MAX): K, L, M          F (MAX): N=-1, O        G (MAX): P=7, Q=-6
    K (MIN): T=7, U=6         L (MIN): V=-3, W=-9     M (MIN): X=7, Y=9
    O (MIN): Z=4, AA=-4       H (MAX): R, S
    R (MIN): AB=-3, AC=-9     S (MIN): AD=9, AE=2, AF=6

Its minimax value is -1 (B = min(E 7, F -1, G 7) = -1, C = -8, D = min(H 2, -4, 5) = -4), at
most α = 5: in the window (5, 6) the root fails low. By hand, (α, β) on entry:

*Cut on equality, fail-soft.* K (5, 6): T=7, U=6, v = 6, returns 6. E: v = 6 ≥ β = 6, a
β-cut: returns 6. B: v = 6, β = 6. F (5, 6): N=-1, v = -1, α stays 5; O (5, 6): Z=4 ≤ 5, an
α-cut: returns 4; F: v = 4, returns 4. B: v = 4 ≤ α = 5, an α-cut (G pruned): returns 4. A:
v = 4, α stays 5; C = -8; D (5, 6): H (5, 6): R: AB=-3 ≤ 5, cut, -3; S: AD=9, AE=2 ≤ 5,
cut, 2; H returns 2; D: v = 2 ≤ 5, cut: returns 2. A returns max(4, -8, 2) = **4**; leaves
T U N Z C AB AD AE.

*Cut on equality, fail-hard (clamped into [α, β]) and one-sided* (v starts at the node's own
bound): the same cuts and leaves; O returns 5 (its α) instead of 4, so F is 5, B cuts at
v = 5 ≤ 5 and returns 5, and D returns 5: A returns **5**.

*Strict cuts, fail-soft.* E: K = 6 is not > 6, so α = 6 at E; L (6, 6): V=-3 < 6, cut, -3;
M (6, 6): X=7, Y=9, returns 7; E: v = 7 > 6, cut, returns 7. B: v = 7, β = 6. F as above: 4;
B: v = 4 < 5, cut: 4. D: 2 as above. A returns **4**; leaves T U V X Y N Z C AB AD AE.

*Strict cuts, fail-hard and one-sided.* L and M return 6 (their bound), E returns 6; O
returns 5, so F returns 5, and B's v = 5 is not < 5: β = 5, and G (5, 5): P=7 > 5, cut,
returns 5. D: H returns 5 (R and S cut at their α, 5); D's v = 5 is not < 5: β = 5, I=-4 < 5,
cut, returns 5. A returns **5**; leaves T U V X Y N Z P C AB AD AE I.

*infcut* (the cuts right, a cut returning ±∞), cut on equality: E cuts and returns ∞, so B's
v = min(∞, F) where O cuts and returns -∞ and F is max(-1, -∞) = -1; B: v = -1 ≤ 5, cut,
returns -∞. D: R and S cut (-∞), H = -∞, D cuts: -∞. A returns max(-∞, -8, -∞) = **-8**
(the same leaves as a correct search: only its value is wrong). With strict cuts, E cuts at
M (∞), B: min(∞, F = -1) = -1 < 5, cut: -∞; D as before: A returns **-8** again.

*Window ignored*: the search of (-∞, ∞), value **-1**, and its 15 leaves.

So the answers are 4 (fail-soft), 5 (fail-hard, one-sided), -1 (window ignored), -8 (infcut):
every correct one differs from both wrong ones.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from minimaxkit import GameTree
from minimaxkit.grading.recording.runners import run_tree
from minimaxkit.grading.testdata.trees import build_tree
from minimaxkit.grading.verdicts.bugs import recognise, signatures
from minimaxkit.grading.verdicts.conventions import CONVENTIONS
from minimaxkit.grading.verdicts.diagnosis import attempt
from minimaxkit.grading.verdicts.observed import Options
from minimaxkit.grading.verdicts.references import Reference, compute, reference
from minimaxkit.grading.verdicts.scoring import grade_outcome

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import (  # noqa: E402 - the helper lives beside the test
    InProcess,
    grade_program,
    namespace,
    programs,
    questions,
)

REPO = Path(__file__).resolve().parents[2]
HAND = {"equal-soft": 4, "equal-hard": 5, "equal-one-sided": 5,
        "strict-soft": 4, "strict-hard": 5, "strict-one-sided": 5}
EQUAL = "T U N Z C AB AD AE".split()
STRICT_SOFT = "T U V X Y N Z C AB AD AE".split()
STRICT_BOUND = "T U V X Y N Z P C AB AD AE I".split()


def _entry() -> dict:
    suite = json.loads((REPO / "solutions/a2_alphabeta/hidden_tests.json").read_text())
    (entry,) = [e for e in suite["questions"]["alphabeta"]["trees"] if e["name"] == "ties"]
    return entry


def _tree() -> GameTree:
    return build_tree(_entry()["tree"])


def _program(name: str):
    (p,) = [p for p in programs("a2_alphabeta") if p.name == name]
    return p, namespace(p)["alphabeta"]


def test_the_hidden_tree_is_searched_in_the_window_5_6_as_worked_by_hand() -> None:
    entry, tree = _entry(), _tree()
    assert entry["options"] == {"window": [5, 6]}
    ref = Reference.read(entry["reference"], "alphabeta", tree, entry["options"])
    assert ref.value == -1
    assert {c: ref.answer(c) for c in CONVENTIONS} == HAND
    names = {c: [tree.node(p).name for p in ref.convention(c).leaves] for c in CONVENTIONS}
    assert names == {"equal-soft": EQUAL, "equal-hard": EQUAL, "equal-one-sided": EQUAL,
                     "strict-soft": STRICT_SOFT, "strict-hard": STRICT_BOUND,
                     "strict-one-sided": STRICT_BOUND}
    for c in CONVENTIONS:  # the stored searches start from the window
        first = ref.convention(c).rows[0]
        assert (first["alpha"], first["beta"]) == (5, 6)


@pytest.mark.parametrize(("name", "answer"), [("cut_returns_infinity", -8),
                                              ("window_ignored", -1)])
def test_each_wrong_program_returns_what_no_convention_does(name: str, answer: int) -> None:
    _, fn = _program(name)
    out = run_tree("alphabeta", fn, _tree(), _entry()["options"])
    assert out.ok and out.result == {"number": answer}
    assert answer not in HAND.values()


def test_infcut_with_strict_cuts_returns_minus_8_too() -> None:
    def infcut(node, alpha, beta):  # the catalogue's program with strict cuts
        if node.is_leaf():
            return node.static()
        v = -math.inf if node.is_max() else math.inf
        for child in node.children():
            w = infcut(child, alpha, beta)
            if node.is_max():
                v = max(v, w)
                if v > beta:
                    return math.inf
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v < alpha:
                    return -math.inf
                beta = min(beta, v)
        return v
    out = run_tree("alphabeta", infcut, _tree(), {"window": [5, 6]})
    assert out.result == {"number": -8}


@pytest.mark.parametrize("name", [p.name for p in programs("a2_alphabeta") if p.correct])
def test_every_correct_program_earns_the_windowed_tree(name: str) -> None:
    """Real programs in every convention the grader accepts (fail-soft, clamped, one-sided,
    strict and on-equality cuts, negamax) earn the whole point, under the convention the
    grader picks for them from all of a2's trees."""
    p, _ = _program(name)
    question = next(q for q in questions("a2_alphabeta") if q.question == "alphabeta")
    report = grade_program(p, question, "student00")
    (ties,) = [t for t in report.trees if t.name == "ties"]
    assert ties.result.score == 1, (name, ties.result.summary)
    assert ties.result.summary.startswith("searched in the window (5, 6): value ")
    assert report.earned == question.points


def test_a_fail_hard_program_is_judged_by_the_bound_it_returns() -> None:
    """On the windowed tree alone a clamped program is right in fail-hard (5) and its value
    is wrong in fail-soft (4): the verdict says the window and the value asked for."""
    _, fn = _program("ok_tutorial_clamped")
    entry, tree = _entry(), _tree()
    out = run_tree("alphabeta", fn, tree, entry["options"], limits=_in_process())
    trial = attempt("alphabeta", tree, entry["reference"], entry["options"], out)
    assert grade_outcome("alphabeta", out, trial, convention="equal-hard").score == 1
    soft = grade_outcome("alphabeta", out, trial, convention="equal-soft")
    assert soft.score == 0.5
    assert soft.summary.startswith("searched in the window (5, 6): value 5 ✘ (expected 4)")
    assert any("alphabeta(root, 5, 6)" in ln and "fails low" in ln for ln in soft.lines)


def _in_process():
    from minimaxkit.grading.recording.runners import RunLimits
    return RunLimits(runner=InProcess())


@pytest.mark.parametrize("name", ["cut_returns_infinity", "window_ignored"])
def test_the_wrong_programs_lose_the_tree_and_their_bug_is_named(name: str) -> None:
    p, _ = _program(name)
    question = next(q for q in questions("a2_alphabeta") if q.question == "alphabeta")
    report = grade_program(p, question, "student00")
    (ties,) = [t for t in report.trees if t.name == "ties"]
    assert ties.result.score < 1
    assert "searched in the window (5, 6)" in ties.result.summary
    assert report.diagnosis is not None and report.diagnosis.overall[:1] == [name]
    assert "window (5, 6)" in report.diagnosis.shown
    words = {"cut_returns_infinity": "returns ±∞ at a cut instead of v",
             "window_ignored": "ignores the window it is given"}[name]
    assert words in report.text()


def test_the_samples_run_in_the_window() -> None:
    tree = _tree()
    sigs = signatures(tree, "alphabeta", Options(window=(5, 6)))
    ignored = sigs["window_ignored"]["equal-soft"]
    assert ignored.value == -1 and len(ignored.leaves) == 15
    assert sigs["cut_returns_infinity"]["equal-soft"].value == -8
    # the same program's leaves are recognised only with the window they were searched in
    _, fn = _program("window_ignored")
    out = run_tree("alphabeta", fn, tree, {"window": [5, 6]}, limits=_in_process())
    leaves = [p for kind, p in out.calls if kind == "static"]
    assert "window_ignored" in [b.name for b in recognise(leaves, tree, "alphabeta",
                                                          window=(5, 6))]
    assert "window_ignored" not in [b.name for b in recognise(leaves, tree, "alphabeta")]


def test_ordered_alphabeta_takes_the_same_window() -> None:
    """Assignment 3's ``ordered_alphabeta(node, alpha, beta)``: the task calls it with the
    window, and the reference searches in it, ordered."""
    tree = build_tree({"nested": [[3, 12, 8], [2, 4, 6], [14, 5, 2]], "static": {"noise": 1}})
    out = run_tree("ordered_alphabeta", lambda node, a, b: 10 * a + b, tree,
                   {"window": [2, 4]}, limits=_in_process())
    assert out.result == {"number": 24}
    data = reference("ordered_alphabeta", tree, window=[2, 4])
    for conv in CONVENTIONS:
        first = data["conventions"][conv]["trace"][0]
        assert (first["alpha"], first["beta"]) == (2, 4)
    full = compute("ordered_alphabeta", tree)
    assert data["value"] == full.value == 3
    assert compute("ordered_alphabeta", tree, window=(2, 4)).answer("equal-hard") == 3


@pytest.mark.parametrize("bad", [[6, 5], [5], ["5", "6"], [True, 2], 5])
def test_a_bad_window_is_refused_with_its_key(bad: object) -> None:
    with pytest.raises(ValueError, match="'window' must be \\[lo, hi\\]"):
        reference("alphabeta", _tree(), window=bad)
