"""Comparing a submission's leaves with the reference conventions, and naming known bugs."""

from __future__ import annotations

import math
from typing import Any

import pytest

from minimaxkit import alphabeta
from minimaxkit.examples import aima_5_2, binary_002, tree_002
from minimaxkit.grading import (
    CONVENTIONS,
    buggy_alphabeta,
    build_tree,
    compare,
    convention_label,
    recognise,
)
from minimaxkit.grading.verdicts.bugs import SAMPLE_BUGS, run_sample, swapped

DEEP = build_tree({"nested": [[[[7, 2], [1, 1]], [[7, 4], [3, 6]]],
                              [[[9, 0], [6, 8]], [[2, 2], [5, 8]]]]})
TIES = build_tree({"nested": [[[2, 3, 0], [4, 1], [0, 3, 0]], [[0, 0, 1], [2, 2], [4, 4]]]})


def refs(tree: Any) -> dict[str, Any]:
    return {n: alphabeta(tree, prune_on_equal=e, fail=f).trace
            for n, (e, f) in CONVENTIONS.items()}


def names(tree: Any, paths: list[tuple[int, ...]]) -> str:
    return " ".join(str(tree.node(p).value) for p in paths)


def test_the_documents_search_matches_every_convention_on_002() -> None:
    tree = tree_002()
    leaves = alphabeta(tree).trace.leaves
    assert names(tree, leaves) == "8 7 3 9 2 4 1 1 3 5 3 9 6 1 2 3"
    c = compare(leaves, refs(tree), tree)
    assert c.ok and c.matched == ("equal-soft", "equal-hard", "equal-one-sided", "strict-soft")
    assert convention_label(c.matched) == ("cut on equality (v ≥ β, v ≤ α), fail-soft or "
                                           "fail-hard or one-sided fail-hard; or strict cuts "
                                           "(v > β, v < α), fail-soft")


def test_strict_fail_hard_is_its_own_convention_on_002() -> None:
    """Strict cuts with fail-hard, clamped or at one side, evaluate 18 leaves on the sheet's
    tree; clamping changes what a cut node returns, never which leaves are evaluated."""
    tree = tree_002()
    leaves = alphabeta(tree, prune_on_equal=False, fail="one-sided").trace.leaves
    c = compare(leaves, refs(tree), tree)
    assert len(leaves) == 18 and c.matched == ("strict-hard", "strict-one-sided")


def test_an_assignment_may_fix_one_convention() -> None:
    tree = tree_002()
    strict = alphabeta(tree, prune_on_equal=False, fail="one-sided").trace.leaves
    only = {"equal-soft": refs(tree)["equal-soft"]}
    assert not compare(strict, only, tree).ok


def test_no_pruning_parts_at_the_first_cut_with_alpha_and_beta() -> None:
    tree = aima_5_2()
    c = compare([leaf.path for leaf in tree.leaves()], {"equal-soft": alphabeta(tree).trace},
                tree)
    d = c.divergence
    assert d is not None and d.path == (1,) and (d.alpha, d.beta) == (3, math.inf)
    assert "the reference cuts after child H returned 2: v = 2 ≤ α = 3" in d.text
    assert [tree.node(p).name for p in c.extra] == ["I", "J"] and c.missing == []
    assert c.marks() == {(1, 1): "extra", (1, 2): "extra", (1,): "diverge"}


def test_cutting_too_early_names_the_node_that_stopped() -> None:
    tree = tree_002()
    ref = alphabeta(tree).trace
    early = ref.leaves[:2] + ref.leaves[3:]  # skips P = 3 under E
    c = compare(early, {"equal-soft": ref}, tree)
    assert c.divergence is not None and c.divergence.path == (0, 0)
    assert "the reference goes on to child P (α = 8, β = ∞); your search cut there" \
        in c.divergence.text
    assert [tree.node(p).name for p in c.missing] == ["P"]


def test_a_subtree_searched_twice_is_pointed_out() -> None:
    tree = binary_002()
    ref = alphabeta(tree).trace
    c = compare(ref.leaves[:2] + ref.leaves, {"equal-soft": ref}, tree)
    assert c.repeated and "a second time" in c.divergence.text


def test_another_order_is_told_apart_from_a_cut() -> None:
    tree = aima_5_2()
    ref = alphabeta(tree).trace
    reordered = [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2), (1, 0)]
    c = compare(reordered, {"equal-soft": ref}, tree)
    assert "went to D instead" in c.divergence.text


@pytest.mark.parametrize("tree, bug", [
    (tree_002(), "wrong_comparison"), (tree_002(), "not_passed_min"),
    (DEEP, "beta_max"), (DEEP, "not_passed_min"), (TIES, "wrong_comparison"),
    (tree_002(), "wrong_bound"), (DEEP, "alpha_not_updated"), (DEEP, "root_forgets_alpha"),
    (DEEP, "cut_before_update"), (DEEP, "both_bounds"), (DEEP, "window_low"),
])
def test_buggy_samples_are_recognised(tree: Any, bug: str) -> None:
    leaves = run_sample(buggy_alphabeta(bug), tree)
    found = [b.name for b in recognise(leaves, tree, "alphabeta")]
    assert SAMPLE_BUGS[bug] in found


def test_the_deep_tree_tells_the_erratum_from_bounds_not_passed() -> None:
    # β updated with max never leaves ∞ when the search starts from (-∞, ∞): it evaluates
    # what a β never updated evaluates, on every tree; the deep tree tells both from β and α
    # not passed down from MIN nodes
    erratum = run_sample(buggy_alphabeta("beta_max"), DEEP)
    assert [b.name for b in recognise(erratum, DEEP, "alphabeta")] == \
        ["beta_not_updated", "beta_max"]


def test_no_pruning_and_swapped_players_are_recognised() -> None:
    tree = tree_002()
    every = [leaf.path for leaf in tree.leaves()]
    assert [b.name for b in recognise(every, tree, "alphabeta")][0] == "no_pruning"
    flipped = alphabeta(swapped(tree)).trace.leaves
    assert "swapped" in [b.name for b in recognise(flipped, tree, "alphabeta")]


def test_a_depth_limit_off_by_one_is_recognised() -> None:
    tree = build_tree({"nested": tree_002().to_nested(), "static": {"noise": 2, "seed": 2}})
    deeper = [leaf.path for leaf in tree.leaves()]
    assert [b.name for b in recognise(deeper, tree, "minimax_limited", depth=2)] == \
        ["depth_deeper"]


def test_correct_leaves_match_no_bug() -> None:
    tree = DEEP
    assert recognise(alphabeta(tree).trace.leaves, tree, "alphabeta") == []
