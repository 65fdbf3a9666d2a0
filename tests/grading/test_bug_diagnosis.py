"""The words of a verdict for the bugs students make (issue #35) and the conventions' names
(issue #37): the diagnosis of "returns α" in the student's words with the node where it shows;
no convention claimed where none can be read; the fail modes read from a program's text; the
samples the bugs are recognised by searching exactly what the kit searches when they make no
mistake; references stored before the six conventions still read right; and every student's
seeded trees showing what their suite requires of them."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from minimaxkit import GameTree, alphabeta
from minimaxkit.deepening import iter_deepen
from minimaxkit.grading.samples.alphabeta import AlphaBetaSample
from minimaxkit.grading.samples.deepening import DeepeningSample
from minimaxkit.grading.testdata.trees import TreeSpec, build_tree, seed_for
from minimaxkit.grading.verdicts.conventions import CONVENTIONS, source_conventions
from minimaxkit.grading.verdicts.observed import observed_by
from minimaxkit.grading.verdicts.references import Reference, compute, reference

sys.path.insert(0, str(Path(__file__).parent))
from catalogue_programs import (  # noqa: E402 - the helper lives beside the test
    REPO,
    STUDENTS,
    grade_program,
    programs,
    questions,
)

CATALOGUE = {p.label: p for p in programs()}


def _report(label: str, grade_id: str, student: str = "student00") -> Any:
    program = CATALOGUE[label]
    question = next(q for q in questions(program.assignment) if q.grade_id == grade_id)
    return grade_program(program, question, student)


# ----- "returns α" ----------------------------------------------------------------------------
def test_returns_alpha_is_told_what_a_min_node_returned() -> None:
    """The issue's program: a MIN node returns α. A wrong value on the 7 trees searched from
    (-∞, ∞) (-∞ where the root's children are MIN nodes); on the hidden tree searched in the
    window (5, 6), where the root fails low, the α = 5 its MIN children return is what a
    fail-hard search answers there (the root's value clamped into [5, 6]), but its leaves are
    wrong. The verdict names that one bug, says which MIN node returned what, suggests nothing
    else, and does not let "your code reads so" reassure about what it returns."""
    report = _report("a2_alphabeta/returns_alpha", "test_alphabeta")
    assert len(report.trees) == 8
    assert [t.name for t in report.trees if "✘" not in t.result.summary.split(",")[0]] == \
        ["ties"]
    (ties,) = [t for t in report.trees if t.name == "ties"]
    assert ties.result.summary.startswith("searched in the window (5, 6): value 5 ✔")
    assert ties.result.score == 0.5
    assert report.trees[0].result.summary.startswith("value -∞ ✘ (expected 5)")
    assert report.diagnosis is not None and report.diagnosis.overall == ["returns_bound"]
    text = " ".join(report.text().split())
    assert ("likely bug (it accounts for what your search did on every tree): a node returns "
            "a bound instead of its value") in text
    # the sheet's tree: its first MIN node to return is B, the least of E = max(8, 7, 3),
    # F = max(9, 1, 6) and G = max(2, 4, 1): 4
    assert ("it shows first at node B (MIN, path (0,)): v there is 4, the least of its "
            "children's values, but it returns -∞, the α it was given, so the nodes above it "
            "see -∞ instead of 4") in text
    for wrong in ("no pruning", "not passed down", "α is never updated"):
        assert wrong not in text
    assert "what a node returns is the bug named below, not a convention" in text


def test_a_search_that_never_cuts_is_not_said_to_follow_a_convention() -> None:
    report = _report("a2_alphabeta/no_pruning", "test_alphabeta")
    assert report.convention is not None and not report.convention.claimed
    first = report.text().splitlines()[0]
    assert "graded as" not in first and "compared with the lectures' convention" in first
    assert report.record().convention is not None
    assert report.record().convention.claimed is False  # type: ignore[union-attr]


def test_a_stub_has_no_convention_at_all() -> None:
    program = CATALOGUE["a2_alphabeta/ok_equal_soft"]
    stub = type(program)(program.assignment, "stub", False, "test_alphabeta", "", "",
                         {"alphabeta": "def alphabeta(node, alpha, beta):\n"
                                       "    raise NotImplementedError()"})
    question = questions("a2_alphabeta")[0]
    report = grade_program(stub, question, "student00")
    assert report.earned == 0 and report.convention is None
    assert report.text().splitlines()[0] == "alphabeta: 0 of 8 points"
    record = report.record()
    assert record.finished is False and record.bugs == ()


# ----- a deepening that never moves the previous best move first ----------------------------
def test_a_deepening_that_never_moves_the_previous_best_first_is_named_on_a_visible_tree(
        ) -> None:
    """A deepening that sorts by estimate at every iteration but never moves the previous
    iteration's best child first loses a point on a visible tree (``turn``), and the verdict
    names the bug and says where it shows in the student's own iterations.

    By hand, on ``turn`` (MAX root A; its children B, C, D have estimates 4, 4, 3): depth 1
    searches B, C, D and keeps B (C only ties); depth 2 searches B first, B = min(E, F) =
    min(5, 2) = 2 and C = min(G, H) = min(7, 7) = 7, so C is best at depth 2. Depth 3 must
    then search C first; static order (B and C tie at 4, B first in the tree) searches B
    first."""
    report = _report("a4_deepening/previous_not_first", "test_deepen")
    (turn,) = [t for t in report.trees if t.name == "turn"]
    assert turn.kind == "visible" and turn.result.score < 1
    assert turn.result.summary.startswith("depths 1..3: ✔✔✘")
    assert all(t.result.score == 1 for t in report.trees if t.name in ("sheet", "aima"))
    assert report.diagnosis is not None and report.diagnosis.overall == ["previous_not_first"]
    text = " ".join(report.text().split())
    assert "likely bug (it accounts for what your search did on every tree): the previous " \
           "iteration's best child is not searched first" in text
    assert ("on the tree turn, it shows in the iteration to depth 3, at the root, node A "
            "(MAX, path ()): depth 2 found C best there, but your deepening did not search "
            "the previous iteration's best move first: it searched B first") in text


@pytest.mark.parametrize("student", ["student00", "student07"])
def test_a_root_ordered_by_the_previous_values_loses_on_the_seeded_tree_and_is_named(
        student: str) -> None:
    """Outside student pass 5, problem 1: a deepening that sorts the root's children by their
    values in the last iteration (a cut-off child's bound among them) agrees with the asked
    order on every fixed tree, so only the student's seeded tree, drawn until the two orders
    evaluate other leaves (``root_values``), can cost it points; the verdict names it."""
    report = _report("a4_deepening/root_values", "test_deepen", student)
    lost = [t.name for t in report.trees if t.result.score < 1]
    assert lost == ["yours"]
    assert report.diagnosis is not None and report.diagnosis.overall == ["root_values"]
    text = " ".join(report.text().split())
    assert "likely bug (it accounts for what your search did on every tree): the root ordered " \
           "by the previous iteration's values" in text


def test_a_correct_deepening_is_never_told_it_skipped_the_previous_best() -> None:
    """The place is read from the student's own leaves: the kit's solution, which moves the
    previous best child first, has none."""
    from minimaxkit.grading.verdicts.observed import Options
    from minimaxkit.grading.verdicts.where import where_seen

    suite = json.loads((REPO / "solutions" / "a4_deepening" / "tests.json").read_text())
    for entry in suite["questions"]["deepen"]["trees"]:
        tree, options = build_tree(entry["tree"]), entry["options"]
        right = observed_by(DeepeningSample(), tree, "deepen", options)
        assert where_seen("previous_not_first", tree, Options.read(options), right) == ""


# ----- a3: reversed ties graded once, in order_children's question ---------------------------
_TIES_REVERSED = {  # order_children with equal estimates in reverse: at MAX, at MIN, at both
    "max": "    kids = sorted(node.children(), key=lambda child: child.estimate())\n"
           "    return kids[::-1] if node.is_max() else kids",
    "min": "    kids = sorted(node.children(), key=lambda child: child.estimate(), reverse=True)\n"
           "    return kids if node.is_max() else kids[::-1]",
    "both": "    kids = sorted(node.children(), key=lambda child: child.estimate(),\n"
            "                  reverse=not node.is_max())\n"
            "    return kids[::-1]",
}


def _a3(name: str, cells: dict[str, str]) -> Any:
    base = CATALOGUE["a3_move_ordering/ok_ordered_soft"]
    return type(base)(base.assignment, name, False, "test_order", "", "", cells)


@pytest.mark.parametrize("side", sorted(_TIES_REVERSED))
def test_reversed_ties_cost_points_in_order_children_only(side: str) -> None:
    """An order_children that reverses ties loses points on its own question; the solution's
    ordered_alphabeta, which searches in the order order_children gives, is right to its own
    question and keeps its 5 points, each tree its ties change saying why (review 4, item 4:
    it lost 1.5-2 of 5 with no cause named)."""
    program = _a3(f"ties_{side}", {"order_children": "def order_children(node):\n" +
                                   _TIES_REVERSED[side]})
    qs = {q.grade_id: q for q in questions("a3_move_ordering")}
    changed = 0
    for student in STUDENTS[:4]:
        order = grade_program(program, qs["test_order"], student)
        assert order.earned < qs["test_order"].points, (side, student)
        searched = grade_program(program, qs["test_ordered_alphabeta"], student)
        assert searched.earned == qs["test_ordered_alphabeta"].points, (side, student)
        text = " ".join(searched.text().split())
        changed += "in the order your order_children gives" in text
        if "in the order your order_children gives" in text:
            assert "the ties cost points in order_children's question only" in text
    assert side == "max" or changed > 0  # at MAX only, the ties change no search here


def test_reversed_ties_written_inside_the_search_still_cost_its_points() -> None:
    """The same order written in ordered_alphabeta itself, with a right order_children, is
    the search's own mistake: it is not accepted."""
    search = CATALOGUE["a3_move_ordering/ok_ordered_soft"].cells["ordered_alphabeta"]
    inline = search.replace("order_children(node)", "reversed_ties(node)")
    assert inline != search
    program = _a3("ties_inline", {"ordered_alphabeta": inline + "\n\n\ndef reversed_ties(node):\n"
                                  + _TIES_REVERSED["min"]})
    question = next(q for q in questions("a3_move_ordering")
                    if q.grade_id == "test_ordered_alphabeta")
    assert grade_program(program, question, "student00").earned < question.points


# ----- the conventions' names -----------------------------------------------------------------
@pytest.mark.parametrize("label, read", [
    ("a2_alphabeta/ok_equal_soft", ["equal-soft"]),
    ("a2_alphabeta/ok_strict_soft", ["strict-soft"]),
    ("a2_alphabeta/ok_tutorial_clamped", ["equal-hard"]),
    ("a2_alphabeta/ok_tutorial_clamped_strict", ["strict-hard"]),
    ("a2_alphabeta/ok_negamax_clamped", ["equal-hard"]),
    ("a2_alphabeta/ok_max_clamp", ["equal-hard"]),
    ("a2_alphabeta/ok_sheet_one_sided", ["equal-one-sided"]),
    ("a2_alphabeta/ok_sheet_loop", ["equal-one-sided"]),
    ("a2_alphabeta/ok_sheet_strict", ["strict-one-sided"]),
])
def test_each_correct_style_is_read_as_the_convention_it_is_written_in(
        label: str, read: list[str]) -> None:
    from catalogue_programs import notebook_cells

    from minimaxkit.grading.verdicts.conventions import defined_functions, program_text
    text = program_text("alphabeta", defined_functions(notebook_cells(CATALOGUE[label])))
    assert source_conventions(text) == read
    report = _report(label, "test_alphabeta")
    assert report.earned == 8 and report.convention is not None
    assert report.convention.name == read[0] and report.convention.claimed


def test_a_tutorial_style_program_is_graded_as_fail_hard() -> None:
    first = _report("a2_alphabeta/ok_tutorial_clamped", "test_alphabeta").text().splitlines()[0]
    assert first == ("alphabeta: 8 of 8 points, graded as cut on equality (v ≥ β, v ≤ α), "
                     "fail-hard")
    sheet = _report("a2_alphabeta/ok_sheet_one_sided", "test_alphabeta").text().splitlines()[0]
    assert sheet.endswith("graded as cut on equality (v ≥ β, v ≤ α), one-sided fail-hard")


# ----- the samples are the kit's search when they make no mistake -----------------------------
def _trees(n: int) -> list[GameTree]:
    rng = random.Random(35)
    out = []
    for i in range(n):
        spec = TreeSpec.read({"random": {"depth": 4, "branching": [1, 3], "values": [-5, 5],
                                         "early": 0.2}, "root": "either",
                              "static": {"noise": 3}})
        out.append(build_tree(spec, seed=rng.getrandbits(32) + i))
    return out


def test_the_samples_without_a_mistake_search_what_the_kit_searches() -> None:
    """An independent check of the signatures: the sample alpha-beta and deepening, with no
    mistake, evaluate the kit's leaves and return its values and moves, in every convention,
    on random trees with ties, values below 0, uneven depths and either player at the root."""
    wrong = []
    for tree in _trees(60):
        for name, (equal, fail) in CONVENTIONS.items():
            for ordered in (False, True):
                r = alphabeta(tree, prune_on_equal=equal, fail=fail,
                              order="static" if ordered else None)
                seen = observed_by(AlphaBetaSample("", equal, fail, ordered), tree,
                                   "alphabeta", {})
                assert r.trace is not None and seen is not None
                if list(seen.leaves) != r.trace.leaves or seen.value != r.value:
                    wrong.append((tree.to_nested(), name, ordered))
            for reorder in (True, False):
                kit = [(it.value, list(it.trace.leaves), it.move) for it in
                       iter_deepen(tree, max_depth=3, reorder=reorder, prune_on_equal=equal,
                                   fail=fail) if it.trace is not None]
                seen = observed_by(DeepeningSample("", equal, fail), tree, "deepen",
                                   {"max_depth": len(kit), "reorder": reorder})
                assert seen is not None
                mine = [(s.value, list(s.leaves), s.move[-1] if s.move else None)
                        for s in seen.steps]
                if mine != kit:
                    wrong.append((tree.to_nested(), name, reorder))
    assert wrong == []


def test_fail_hard_clamped_and_one_sided_evaluate_the_same_leaves() -> None:
    """Why the grader tells them apart by the program's text only: clamping changes what a
    cut node returns, never which leaves its parent goes on to."""
    for tree in _trees(60):
        for equal in (True, False):
            assert alphabeta(tree, prune_on_equal=equal, fail="hard").trace.leaves == \
                alphabeta(tree, prune_on_equal=equal, fail="one-sided").trace.leaves


# ----- stored references --------------------------------------------------------------------
def test_references_stored_before_the_six_conventions_still_read_right() -> None:
    """Data written when ``equal-hard`` meant the sheet's one-sided form: read as it was meant,
    the clamped searches computed now."""
    tree = build_tree({"nested": [[[8, 7, 3], [9, 1, 6], [2, 4, 1]], [[1, 3, 5], [3, 9, 2]]]})
    now = reference("alphabeta", tree)
    old = {"value": now["value"], "conventions": {
        "equal-soft": now["conventions"]["equal-soft"],
        "equal-hard": now["conventions"]["equal-one-sided"],
        "strict-soft": now["conventions"]["strict-soft"],
        "strict-hard": now["conventions"]["strict-one-sided"]}}
    assert Reference.read(old, "alphabeta", tree) == Reference.read(now, "alphabeta", tree)
    assert Reference.read(now, "alphabeta", tree) == compute("alphabeta", tree)


def test_the_committed_references_are_current() -> None:
    from minimaxkit.classroom.refresh import stale

    assert stale(REPO / "solutions") == []


# ----- the seeded trees -----------------------------------------------------------------------
def _seeded() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for path in sorted((REPO / "solutions").glob("a[1-4]_*/hidden_tests.json")):
        data = json.loads(path.read_text())
        for question, spec in data["questions"].items():
            for entry in spec.get("seeded", []):
                out.append((data["assignment"], question, entry))
    return out


def test_every_students_seeded_trees_show_what_their_suite_requires() -> None:
    """For 40 ids: negative values, ties, a leaf above the depth limit... whatever the seeded
    spec requires, the tree drawn for that id shows (no draw ever falls back)."""
    missing = []
    for assignment, question, entry in _seeded():
        spec = TreeSpec.read(entry["tree"])
        assert spec.require.negative, (assignment, question)  # every suite has them
        for student in STUDENTS:
            seed = seed_for(student, f"{assignment}/{question}/{entry['name']}",
                            json.loads((REPO / "solutions" / assignment /
                                        "hidden_tests.json").read_text())["salt"])
            tree = build_tree(entry["tree"], seed=seed)
            if unmet := spec.require.unmet(tree):
                missing.append((assignment, question, student, unmet))
    assert missing == []


def test_the_roots_of_the_seeded_trees_are_max_and_min() -> None:
    roots = {build_tree({"random": {"depth": 2, "branching": 2, "values": [-3, 3]},
                         "root": "either"}, seed=s).root.player for s in range(20)}
    assert roots == {"max", "min"}


def test_a_spec_written_wrong_says_what_is_expected() -> None:
    from minimaxkit.grading.testdata.trees import SpecError

    with pytest.raises(SpecError, match="'root' must be 'max', 'min' or 'either'"):
        TreeSpec.read({"nested": [1, 2], "root": "MIN"})
    with pytest.raises(SpecError, match="'early' must be a chance"):
        TreeSpec.read({"random": {"depth": 3, "early": 1.5}})
    with pytest.raises(SpecError, match="'require' must be a dict of"):
        TreeSpec.read({"random": {"depth": 3}, "require": {"negatives": True}})


def test_a_deepening_tree_the_kit_finishes_early_is_refused_with_a_reason() -> None:
    """5 at the root's first child; B's first child, 1, cuts B off before its deep child C, so
    no iteration goes below depth 2, and the kit's deepening stops after depth 3."""
    tree = GameTree.from_nested([5, [1, [[7, 8], 9]]]).with_static()
    with pytest.raises(ValueError, match="finishes this tree at depth 3"):
        compute("deepen", tree, max_depth=4)
    assert math.isfinite(compute("deepen", tree, max_depth=3).iterations_of(
        "equal-soft")[-1].value)


# ----- assignment 3's order ------------------------------------------------------------------
@pytest.mark.parametrize("name, hint", [
    ("order_always_high", "every node you ordered wrongly is a MIN node"),
    ("order_always_low", "every node you ordered wrongly is a MAX node"),
    ("order_parity", "the player decided by the depth: A is MIN at depth 0"),
    ("order_reversed", "every node you ordered wrongly is in the other player's order"),
    ("order_ties_reversed", "children with equal estimates come in the reverse of the tree's "
                            "order"),
    ("order_tuples", "children with equal estimates come in the reverse of the tree's order"),
])
def test_an_order_wrong_the_same_way_at_every_node_is_told_how(name: str, hint: str) -> None:
    text = " ".join(_report(f"a3_move_ordering/{name}", "test_order").text().split())
    assert hint in text
