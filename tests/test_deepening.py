"""Progressive deepening: anytime answers, budgets, reordering, aspiration windows."""

from __future__ import annotations

from minimaxkit import GameTree, alphabeta, deepen, iter_deepen
from minimaxkit.examples import tree_002
from minimaxkit.games import ConnectFour, TicTacToe


def test_each_iteration_is_a_depth_limited_search():
    tree = tree_002().with_static()  # static value of a node = its true minimax value
    r = deepen(tree)
    assert [it.options["depth"] for it in r.iterations] == [1, 2, 3]
    assert all(it.value == 5 for it in r.iterations)
    assert r.depth == 3 and r.move == 1 and r.stopped == "max_depth"
    assert r.stats.nodes == sum(it.stats.nodes for it in r.iterations)


def test_reordering_uses_the_previous_iteration():
    tree = tree_002().with_static()
    plain = list(iter_deepen(tree, reorder=False))
    ordered = list(iter_deepen(tree))
    # depth 1 has nothing to reorder by; at depth 3 the best child C (value 5) goes first
    assert plain[0].trace == ordered[0].trace
    assert ordered[2].trace.expanded[1] == (1,)
    assert ordered[2].stats.leaves < plain[2].stats.leaves
    assert ordered[2].value == plain[2].value == alphabeta(tree).value


def test_node_budget_keeps_the_last_completed_answer():
    r = deepen(ConnectFour(), max_depth=8, node_budget=3000)
    assert r.stopped == "node_budget"
    assert 1 <= r.depth < 8
    last = r.iterations[-1]
    assert r.move == last.move
    assert r.stats.nodes <= 3000
    # the answer is the one a plain search of that depth gives (with the same tie-breaking
    # it may pick another move of equal value, so compare values)
    assert last.value == alphabeta(ConnectFour(), depth=r.depth, trace=False).value


def test_time_budget_stops_deepening():
    r = deepen(ConnectFour(), time_budget=0.3)
    assert r.stopped == "time_budget" and r.depth >= 1 and r.move in range(7)


def test_aspiration_window_researches_when_the_value_falls_outside():
    # static values far from the true values make the depth-1 guess wrong by a lot
    tree = GameTree.from_dict({"player": "max", "children": [
        {"value": 0, "children": [{"value": 10}, {"value": 12}]},
        {"value": 1, "children": [{"value": 11}, {"value": 20}]}]})
    r = deepen(tree, aspiration=2)
    assert r.researched == (2,)
    assert r.value == 11
    narrow = deepen(tree, aspiration=100)
    assert narrow.researched == () and narrow.value == 11
    # the second iteration started from the window around the first value (1 ± 100)
    assert narrow.iterations[1].options["window"] == (-99, 101)


def test_solved_games_stop_early():
    r = deepen(TicTacToe(), max_depth=20)
    assert r.stopped == "solved" and r.depth == 10 and r.value == 0


def test_untraced_deepening_still_reorders():
    tree = tree_002().with_static()
    a = [it.stats for it in iter_deepen(tree, trace=False)]
    b = [it.stats for it in iter_deepen(tree)]
    assert a == b
    assert all(it.trace is None for it in iter_deepen(tree, trace=False))


def test_failed_aspiration_searches_count_in_the_total_work():
    tree = GameTree.from_dict({"player": "max", "children": [
        {"value": 0, "children": [{"value": 10}, {"value": 12}]},
        {"value": 1, "children": [{"value": 11}, {"value": 20}]}]})
    r = deepen(tree, aspiration=2)
    assert r.researched == (2,)
    # By hand. Depth 1: the root and B, C as leaves (static 0, 1): 3 nodes, value 1.
    # Depth 2 reorders by those values (C first) in the window (1 - 2, 1 + 2) = (-1, 3):
    # root, C, 11, 20 -> C = 11 >= β = 3, a β-cut at the root: 4 nodes, value 11 outside
    # the window, so thrown away. Again with (-inf, inf): root, C, 11, 20 -> α = 11;
    # B, 10 <= α, an α-cut: 6 nodes. In all 3 + 4 + 6 = 13.
    assert [it.stats.nodes for it in r.iterations] == [3, 6]
    assert r.stats.nodes == 13
    assert r.total_nodes == r.stats.nodes and r.interrupted_nodes == 0


def test_interrupted_iteration_nodes_are_reported():
    r = deepen(ConnectFour(), max_depth=8, node_budget=3000)
    assert r.interrupted_nodes > 0
    assert r.total_nodes == r.stats.nodes + r.interrupted_nodes <= 3000
