"""The course-wide conventions as the grader applies them: methods called with parentheses
(the slip is named), one static() per leaf in assignment 1, and feedback against the
convention a failing alpha-beta is written in."""

from __future__ import annotations

import math
from typing import Any

import pytest

from minimaxkit.examples import aima_5_2, sheet_tree
from minimaxkit.grading.api.grade import run_check
from minimaxkit.grading.verdicts.conventions import source_conventions
from minimaxkit.grading.verdicts.references import reference
from minimaxkit.student import MissingCall, Recorder


def slip_minimax(node: Any) -> Any:
    if node.is_leaf:  # the slip
        return node.static()
    values = [slip_minimax(c) for c in node.children()]
    return max(values) if node.is_max() else min(values)


def twice_minimax(node: Any) -> Any:
    if node.is_leaf():
        if node.static() is None:
            return 0
        return node.static()
    values = [twice_minimax(c) for c in node.children()]
    return max(values) if node.is_max() else min(values)


def twice_alphabeta(node: Any, alpha: float, beta: float) -> Any:
    if node.is_leaf():
        if node.static() is None:
            return 0
        return node.static()
    best = -math.inf if node.is_max() else math.inf
    for child in node.children():
        v = twice_alphabeta(child, alpha, beta)
        if node.is_max():
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def twice_searched_minimax(node: Any) -> Any:
    if node.is_leaf():
        return node.static()
    values = [twice_searched_minimax(c) for c in node.children()]
    values = [twice_searched_minimax(c) for c in node.children()]  # the slip: searched again
    return max(values) if node.is_max() else min(values)


def strict_hard_not_passed(node: Any, alpha: float, beta: float) -> float:
    if node.is_leaf():
        return node.static()
    if node.is_max():
        for child in node.children():
            alpha = max(alpha, strict_hard_not_passed(child, alpha, beta))
            if alpha > beta:
                return beta
        return alpha
    for child in node.children():
        beta = min(beta, strict_hard_not_passed(child, -math.inf, math.inf))
        if beta < alpha:
            return alpha
    return beta


@pytest.mark.parametrize("use", [
    lambda n: bool(n.is_leaf), lambda n: list(n.children), lambda n: n.static + 1,
    lambda n: n.is_max < 3,
])
def test_a_method_used_without_parentheses_names_the_fix(use: Any) -> None:
    root = Recorder(aima_5_2()).root()
    with pytest.raises(MissingCall, match=r"is a method: write node\.\w+\(\) with parentheses"):
        use(root)


def test_called_methods_still_answer() -> None:
    rec = Recorder(aima_5_2())
    root = rec.root()
    assert root.is_leaf() is False and root.is_max() is True
    assert [c.name for c in root.children()] == ["B", "C", "D"]
    assert root.children()[0].children()[0].static() == 3
    assert rec.evaluated == [(0, 0)]


def test_the_attribute_slip_is_reported_not_a_tree_error() -> None:
    tree = aima_5_2()
    r = run_check("minimax", slip_minimax, tree, reference("minimax", tree))
    assert r.score == 0
    assert "write node.is_leaf() with parentheses" in r.summary
    assert "TreeError" not in r.summary


def test_a_value_read_twice_in_a_row_is_one_evaluation_as_in_assignment_2() -> None:
    tree = aima_5_2()
    r = run_check("minimax", twice_minimax, tree, reference("minimax", tree))
    # each of the 9 leaves read twice in a row (to test, then to return): one evaluation
    # each, as the alpha-beta questions count it, so the tree's point is whole
    assert r.score == 1
    assert "value 3 ✔" in r.summary and "evaluated all 9 leaves once ✔" in r.summary
    ab = run_check("alphabeta", twice_alphabeta, tree, reference("alphabeta", tree))
    assert ab.score == 1


def test_a_subtree_searched_twice_is_evaluated_twice() -> None:
    tree = aima_5_2()
    r = run_check("minimax", twice_searched_minimax, tree, reference("minimax", tree))
    assert r.score == 0.5  # value right (3), but every leaf evaluated twice
    assert "value 3 ✔" in r.summary and "✘" in r.summary


def test_source_conventions_read_the_cut_tests_and_returns() -> None:
    assert source_conventions(strict_hard_not_passed) == ["strict-hard"]
    # no cut test: the code says nothing of the convention, so every one is read
    assert source_conventions(twice_minimax) == ["equal-soft", "equal-hard", "equal-one-sided",
                                                 "strict-soft", "strict-hard",
                                                 "strict-one-sided"]


def test_failing_feedback_compares_with_the_convention_written() -> None:
    tree = sheet_tree()
    r = run_check("alphabeta", strict_hard_not_passed, tree, reference("alphabeta", tree))
    assert r.score == 0.5  # the value 5 is right, the leaves are not
    # strict fail-hard evaluates 18 leaves on the sheet's tree (the sources' errata note),
    # the other three conventions 16: the feedback is against the 18
    assert r.lines[0].startswith("the reference (strict cuts (v > β, v < α), fail-hard) "
                                 "evaluates 18")
    assert "v = 9 > β = 8" in r.lines[2]


def best_move_never_set(node: Any, max_depth: int) -> Any:
    best_value, best_child = 0, None  # the slip: no child beats a start of 0 at this root
    for child in node.children():
        value = twice_minimax(child)
        if value > best_value:
            best_value, best_child = value, child
    return best_value, best_child


def test_a_best_move_never_set_is_told_so() -> None:
    """(0, None) at a MAX root whose moves are all worth 0 or less: the pair was returned,
    so the words ask whether the best child was ever set, not whether a return is missing."""
    from minimaxkit import GameTree

    tree = GameTree.from_nested([[-3, -5], [0, 4]])  # B = -5, C = 0: the best move is C
    r = run_check("best_move", best_move_never_set, tree, reference("best_move", tree, depth=2),
                  options={"depth": 2})
    assert "was the best child ever set?" in r.summary
    assert "return statement missing" not in r.summary


def test_a_best_move_started_at_0_is_placed_at_the_root_not_in_the_correct_search_below() -> None:
    """Outside points pass 4: best_move started at 0 (its minimax_limited right) was told the
    bug shows at an inner MAX node whose children are all below 0 (D), a node its correct
    search gets right. The move's own loop is at the root: C is worth exactly 0 there, so a
    start at 0 is never beaten and no move is chosen."""
    from minimaxkit import GameTree
    from minimaxkit.grading.verdicts.where import where

    # B = min(D, E) = min(max(-3, -5), max(-1, -2)) = -3; C = min(F, G) = min(max(0, -1),
    # max(5, 1)) = 0 (nodes are named level by level)
    tree = GameTree.from_nested([[[-3, -5], [-1, -2]], [[0, -1], [5, 1]]])
    assert where("start_at_zero", tree).startswith("it shows at node D")  # a minimax's place
    at_root = where("start_at_zero", tree, check="best_move")
    assert at_root.startswith("it shows at the root, node A") and "the largest is 0" in at_root
