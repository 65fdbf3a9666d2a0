"""Exact tables for the built-in example trees, under both cut rules and both fail modes.

Expected values come from the source documents (002's hand trace, 001 §1.3, AIMA Fig. 5.2)
or from hand computation written out beside them.
"""

from __future__ import annotations

import pytest

from minimaxkit import Exit, TreeError, alphabeta, minimax, negamax, simple_pruning
from minimaxkit.examples import aima_5_2, binary_002, example_001, tree_002

DOC_002 = [8, 7, 3, 9, 2, 4, 1, 1, 3, 5, 3, 9, 6, 1, 2, 3]
CONVENTIONS = [(True, "soft"), (True, "hard"), (False, "soft"), (False, "hard")]

# (tree factory, convention) -> (value, move, leaf values in evaluation order)
TABLE = {
    # 002: the document's leaves under its rule (cut on equality); fail-soft agrees (errata).
    (tree_002, (True, "soft")): (5, 1, DOC_002),
    (tree_002, (True, "hard")): (5, 1, DOC_002),
    # strict, fail-soft: D's first child K returns 3 < α = 5, so D still cuts: 16 leaves.
    (tree_002, (False, "soft")): (5, 1, DOC_002),
    # strict, fail-hard: K returns exactly α = 5, which ties, so D goes on to L and M,
    # evaluating their first leaves 9 and 16 (errata: 18 leaves instead of 16).
    (tree_002, (False, "hard")): (5, 1, DOC_002 + [9, 16]),
    # 002's binary example: 2 7 1 and the last leaf is never evaluated (1 < 2 in every rule).
    **{(binary_002, c): (2, 0, [2, 7, 1]) for c in CONVENTIONS},
    # 001 Fig. 5: β = 0.3, then α = 0.7 ≥ β at the MAX node: its siblings are skipped.
    **{(example_001, c): (0.3, 0, [0.3, 0.7]) for c in CONVENTIONS},
    # AIMA 5.2: B = 3; C cut after 2 (2 < 3 either way); D searched fully: 7 leaves.
    **{(aima_5_2, c): (3, "a1", [3, 12, 8, 2, 14, 5, 2]) for c in CONVENTIONS},
}


def _id(x: object) -> str:
    """A stable test id: a factory's name (not its address, which differs per process)."""
    return getattr(x, "__name__", None) or str(x)


@pytest.mark.parametrize(("factory", "convention"), list(TABLE), ids=_id)
def test_alphabeta_table(factory, convention):
    tree = factory()
    value, move, leaves = TABLE[factory, convention]
    eq, fail = convention
    r = alphabeta(tree, prune_on_equal=eq, fail=fail)
    assert (r.value, r.move) == (value, move)
    assert [tree.node(p).value for p in r.trace.leaves] == leaves
    assert r.trace.leaf_values == leaves
    assert r.stats.leaves == len(leaves)


@pytest.mark.parametrize(("factory", "convention"), list(TABLE), ids=_id)
def test_negamax_gives_the_same_trace(factory, convention):
    eq, fail = convention
    a = alphabeta(factory(), prune_on_equal=eq, fail=fail)
    n = negamax(factory(), prune_on_equal=eq, fail=fail)
    assert n.trace == a.trace
    assert (n.value, n.move, n.pv) == (a.value, a.move, a.pv)


@pytest.mark.parametrize("factory", [tree_002, binary_002, example_001, aima_5_2])
def test_minimax_evaluates_every_leaf_left_to_right(factory):
    tree = factory()
    r = minimax(tree)
    assert r.trace.leaves == [n.path for n in tree.leaves()]
    assert r.stats.cutoffs == 0
    assert r.value == alphabeta(tree).value


def test_aima_tree_by_paths_and_pv():
    r = alphabeta(aima_5_2())
    assert r.trace.leaves == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert r.pv == ("a1", "b1")


def test_002_hand_trace_values_returned_by_fail_hard():
    # 002's table: E 8; F 9 (stop); G 4; B 4; H 5; I 9 (stop); J 6 (stop); C 5; K 5; D 5 (stop)
    tree = tree_002()
    exits = [(tree.node(e.path).name, e.value) for e in alphabeta(tree, fail="one-sided").trace
             if isinstance(e, Exit)]
    assert exits == [("E", 8), ("F", 9), ("G", 4), ("B", 4), ("H", 5), ("I", 9), ("J", 6),
                     ("C", 5), ("K", 5), ("D", 5), ("A", 5)]


def test_002_windows_match_the_hand_trace():
    # 002's table: C entered with α = 4, β = MAX; I with α = 4, β = 5; K with α = 5, β = MAX.
    tree = tree_002()
    trace = alphabeta(tree, fail="one-sided").trace
    enters = {tree.node(e.path).name: (e.alpha, e.beta) for e in trace
              if type(e).__name__ == "Enter"}
    inf = float("inf")
    assert enters["C"] == (4, inf) and enters["I"] == (4, 5) and enters["K"] == (5, inf)


def test_fail_soft_and_hard_differ_below_the_root():
    # K (path (2, 0)) fails low: fail-soft returns 3, fail-hard returns α = 5.
    soft = alphabeta(tree_002()).trace.values[(2, 0)]
    hard = alphabeta(tree_002(), fail="one-sided").trace.values[(2, 0)]
    assert (soft, hard) == (3, 5)


def test_cutoff_events_name_the_bound():
    cut = alphabeta(tree_002()).trace.cutoffs[0]
    assert (cut.path, cut.value, cut.bound, cut.kind, cut.pruned) == ((0, 1), 9, 8, "beta", (1, 2))


def test_strict_rule_does_not_cut_on_a_tie():
    from minimaxkit import GameTree
    tree = GameTree.from_nested([[3, 4], [3, 9]])
    assert alphabeta(tree).trace.leaf_values == [3, 4, 3]
    assert alphabeta(tree, prune_on_equal=False).trace.leaf_values == [3, 4, 3, 9]


def test_initial_window_is_used():
    r = alphabeta(example_001(), window=(-2, 2))
    assert r.trace.events[0].alpha == -2 and r.trace.events[0].beta == 2
    assert r.value == 0.3


def test_simple_pruning_stops_at_the_best_possible_value():
    from minimaxkit import GameTree
    # value range 0..9. B (MIN) reaches 0 at its first leaf and stops; C returns 9, the most
    # MAX can get, so the root stops too and D is never searched.
    tree = GameTree.from_nested([[0, 5], [9, 9], [3, 1]])
    r = simple_pruning(tree)
    assert r.trace.leaf_values == [0, 9, 9]
    assert r.value == minimax(tree).value == 9
    assert [(c.path, c.kind) for c in r.trace.cutoffs] == [((0,), "best"), ((), "best")]
    # without reaching the best possible value nothing is pruned: D's 3 and 1 are searched
    tree = GameTree.from_nested([[0, 5], [7, 9], [9, 3]])
    assert simple_pruning(tree).trace.leaf_values == [0, 7, 9, 9, 3]


def test_depth_limit_uses_static_values():
    from minimaxkit import GameTree
    tree = GameTree.from_dict({"player": "max", "children": [
        {"value": 4, "children": [{"value": 1}, {"value": 9}]},
        {"value": 6, "children": [{"value": 2}, {"value": 3}]}]})
    assert minimax(tree, depth=1).value == 6
    assert minimax(tree, depth=1).trace.leaves == [(0,), (1,)]
    assert minimax(tree).value == 2
    with pytest.raises(TreeError, match=r"path \(\): interior node A has no static value"):
        minimax(tree, depth=0)  # the root has no static value to stop at
