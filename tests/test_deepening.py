"""Progressive deepening: anytime answers, budgets, reordering, aspiration windows."""

from __future__ import annotations

import math
from typing import Any

import pytest

from minimaxkit import GameTree, TranspositionTable, alphabeta, deepen, iter_deepen
from minimaxkit.errors import OptionError
from minimaxkit.examples import tree_002
from minimaxkit.games import ConnectFour, TicTacToe


def test_each_iteration_is_a_depth_limited_search():
    tree = tree_002().with_static()  # static value of a node = its true minimax value
    r = deepen(tree)
    assert [it.options["depth"] for it in r.iterations] == [1, 2, 3]
    assert all(it.value == 5 for it in r.iterations)
    assert r.depth == 3 and r.move == 1 and r.stopped == "max_depth"
    assert r.stats.nodes == sum(it.stats.nodes for it in r.iterations)


def test_reordering_searches_the_previous_best_move_first():
    # A (MAX) over B (static 1) and C (static 0): the static order tries B first. Depth 2
    # finds C better (its replies are worth 2 and 3, B's -5 and -4), so depth 3 tries C
    # first, and the rest (B) after it in static order.
    tree = GameTree.from_dict({"player": "max", "children": [
        {"value": 1, "children": [{"value": -5, "children": [{"value": -5}]},
                                  {"value": -4, "children": [{"value": -4}]}]},
        {"value": 0, "children": [{"value": 3, "children": [{"value": 3}]},
                                  {"value": 2, "children": [{"value": 2}]}]}]})
    plain = list(iter_deepen(tree, reorder=False))
    ordered = list(iter_deepen(tree))
    assert [r.move for r in ordered] == [0, 1, 1]
    assert alphabeta(tree, depth=3, order="static").trace.expanded[1] == (0,)   # B first
    assert ordered[2].trace.expanded[1] == (1,)                                 # C first
    # at C (MIN) the static order puts G (2) before F (3), and depth 2 found G best too
    assert ordered[2].trace.leaves[:2] == [(1, 1, 0), (1, 0, 0)]
    assert ordered[2].stats.leaves < plain[2].stats.leaves
    assert [r.value for r in ordered] == [r.value for r in plain] == [1, 2, 2]


def test_a_node_that_fails_low_names_no_best_move():
    # The root has 4 from the leaf B. Below C (MIN), D (MAX) is searched with α = 4 and
    # all its moves fail low: at depth 4, E returns 1 and F 2. D's 2 is only a bound ("at
    # most 4" would do as well), so it names no best move: depth 5 keeps D's children in
    # static order, E (static 3) before F (static 2), although F returned more.
    tree = GameTree.from_dict({"player": "max", "children": [
        {"value": 4},
        {"value": 0, "children": [{"value": 0, "children": [
            {"value": 3, "children": [{"value": 1, "children": [{"value": 1}]}]},
            {"value": 2, "children": [{"value": 2, "children": [{"value": 2}]}]}]}]}]})
    its = list(iter_deepen(tree, max_depth=5))
    d4 = its[3].trace
    assert d4.values[(1, 0)] == 2 and d4.best_moves[(1, 0)] == 1     # F returned more
    cut = {c.path for c in d4.cutoffs}
    assert (1,) in cut and (1, 0) not in cut          # C is cut off; D searched all, failed low
    under_d = [p for p in its[4].trace.visited if len(p) == 3]
    assert under_d[0] == (1, 0, 0)                                   # E still first


def reference_deepening(tree: GameTree, max_depth: int, *, soft: bool, on_equal: bool
                        ) -> list[tuple[float, int, list[tuple[int, ...]]]]:
    """Progressive deepening written out here, sharing no code with the kit: per depth the
    value, the best move and the leaves in order. Children in static order (MAX high to
    low, MIN low to high, ties in the tree's order), except that the child that last raised
    a node's α (MAX) or lowered its β (MIN), or cut it off, in an earlier iteration goes
    first; one dict of best children for all the iterations."""
    best: dict[tuple[int, ...], int] = {}

    def search(node: Any, d: int, alpha: float, beta: float, depth: int,
               leaves: list[tuple[int, ...]]) -> float:
        if not node.children or d == depth:
            leaves.append(node.path)
            return tree.evaluate(node)
        order = sorted(range(len(node.children)),
                       key=lambda i: -tree.evaluate(node.children[i]) if node.is_max
                       else tree.evaluate(node.children[i]))
        if node.path in best:
            order.remove(best[node.path])
            order.insert(0, best[node.path])
        if node.is_max:
            v = -math.inf if soft else alpha
            for i in order:
                v = max(v, search(node.children[i], d + 1, alpha, beta, depth, leaves))
                if v > alpha:
                    best[node.path] = i
                if v >= beta if on_equal else v > beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf if soft else beta
            for i in order:
                v = min(v, search(node.children[i], d + 1, alpha, beta, depth, leaves))
                if v < beta:
                    best[node.path] = i
                if v <= alpha if on_equal else v < alpha:
                    break
                beta = min(beta, v)
        return v

    out = []
    for depth in range(1, max_depth + 1):
        leaves: list[tuple[int, ...]] = []
        value = search(tree.root, 0, -math.inf, math.inf, depth, leaves)
        out.append((value, best[()], leaves))
    return out


@pytest.mark.parametrize("soft,on_equal", [(True, True), (True, False), (False, True),
                                           (False, False)])
def test_reordered_deepening_matches_an_independent_reference(soft: bool, on_equal: bool):
    for seed in range(40):
        tree = GameTree.random(depth=5, branching=(1, 4), values=(0, 5),
                               seed=seed).with_static(noise=3, seed=seed)
        want = reference_deepening(tree, 5, soft=soft, on_equal=on_equal)
        got = list(iter_deepen(tree, max_depth=5, fail="soft" if soft else "hard",
                               prune_on_equal=on_equal))
        assert [(r.value, r.move, r.trace.leaves) for r in got] == want[:len(got)], seed


#: The Connect Four positions of the ordering measurement (lecture 5, benchmarks/
#: bench_ordering.py): the start, and three middle-game positions from a game of the kit's
#: player against the weak one from the book opening 33, after 10, 12 and 16 moves.
POSITIONS = ("", "3333215440", "233330222020", "2333302220200033")


def test_reordered_deepening_orders_as_well_as_one_static_search():
    """The last iteration of reordered deepening evaluates at most 1.1 times the leaves of
    one static-ordered alpha-beta of its depth, over the four positions at depths 5 and 6.
    (Reordering by the previous iteration's values, children not reached in natural order,
    evaluated 11,063 leaves here: 2.8 times.)"""
    c4 = ConnectFour()
    last, static = {}, {}
    for moves in POSITIONS:
        state = c4.state_from_moves(moves)
        for depth in (5, 6):
            its = list(iter_deepen(c4, state, max_depth=depth, trace=False))
            one = alphabeta(c4, state, depth=depth, order="static", trace=False)
            assert its[-1].value == one.value
            last[moves, depth], static[moves, depth] = its[-1].stats.leaves, one.stats.leaves
    assert list(last.values()) == [420, 691, 567, 882, 105, 454, 302, 412]
    assert list(static.values()) == [420, 745, 470, 738, 145, 629, 240, 523]
    assert sum(last.values()) <= 1.1 * sum(static.values())


def test_a_table_carries_the_best_moves_and_cuts_with_its_bounds():
    """Deepening with a TranspositionTable: the same value and move at every depth, fewer
    leaves (transpositions answered from the table within an iteration)."""
    c4 = ConnectFour()
    plain_leaves, table_leaves = [], []
    for moves in POSITIONS:
        state = c4.state_from_moves(moves)
        table = TranspositionTable()
        plain = list(iter_deepen(c4, state, max_depth=6, trace=False))
        tabled = list(iter_deepen(c4, state, max_depth=6, trace=False, table=table))
        assert [(r.value, r.move) for r in tabled] == [(r.value, r.move) for r in plain]
        assert tabled[-1].stats.tt_hits > 0 and table.get(state).depth == 6
        plain_leaves.append(sum(r.stats.leaves for r in plain))
        table_leaves.append(sum(r.stats.leaves for r in tabled))
    assert plain_leaves == [1283, 1706, 663, 871]
    assert table_leaves == [943, 1378, 511, 738]


def test_table_options_are_checked():
    with pytest.raises(OptionError, match="table"):
        deepen(TicTacToe(), max_depth=2, table={})
    with pytest.raises(OptionError, match="reorder=True"):
        iter_deepen(TicTacToe(), max_depth=2, reorder=False, table=TranspositionTable())
    with pytest.raises(OptionError, match="not both"):
        alphabeta(TicTacToe(), tt=True, table=TranspositionTable())


def test_a_table_used_again_knows_how_deep_its_answers_went():
    """A table kept from an earlier deepening answers all of the depth-3 iteration (no leaf
    evaluated); its entries remember how deep below them that search evaluated, so the game
    does not look solved (no leaf at the depth limit) and deepening goes on."""
    table = TranspositionTable()
    deepen(TicTacToe(), max_depth=3, table=table)
    again = deepen(TicTacToe(), max_depth=5, table=table)
    assert again.iterations[2].stats.tt_hits > 0 and again.iterations[2].stats.leaves == 0
    assert (again.stopped, again.depth) == ("max_depth", 5)
    solved = deepen(TicTacToe(), max_depth=12, table=table)
    assert (solved.stopped, solved.depth, solved.value) == ("solved", 10, 0)


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


@pytest.mark.parametrize("module", [
    "minimaxkit.search", "minimaxkit.search.core", "minimaxkit.search.fronts",
    "minimaxkit.search.negamax_search", "minimaxkit.search.options",
    "minimaxkit.search.ordering", "minimaxkit.search.plain_search",
    "minimaxkit.search.table_search", "minimaxkit.search.result", "minimaxkit.deepening",
    "minimaxkit.search.transposition"])
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
