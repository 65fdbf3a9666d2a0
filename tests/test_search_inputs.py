"""The search core on the inputs a new user reaches: each case reproduces a report exactly
(the transposition table, principal variations, deepening's edges, bad options, foreign
states, huge depth limits) and says what must happen instead."""

from __future__ import annotations

import math
import pickle
import tracemalloc

import pytest

from minimaxkit import GameTree, alphabeta, deepen, iter_deepen, minimax, negamax, simple_pruning
from minimaxkit.errors import OptionError, TreeError
from minimaxkit.examples import tree_002
from minimaxkit.games import Nim, TicTacToe


# ----- the transposition table --------------------------------------------------------------
def test_tt_strict_fail_hard_nim_keeps_the_true_value() -> None:
    # Nim (2, 2, 1): the first player wins (2 xor 2 xor 1 = 1), so MAX's value is 1
    assert minimax(Nim((2, 2, 1))).value == 1
    assert alphabeta(Nim((2, 2, 1)), prune_on_equal=False, fail="one-sided", tt=True).value == 1


def test_tt_strict_fail_hard_tictactoe_after_the_centre() -> None:
    t = TicTacToe()
    state = t.play(t.initial_state(), 1)
    assert alphabeta(t, state, prune_on_equal=False, fail="one-sided", tt=True).value == 0
    assert minimax(t, state).value == 0


def test_tt_entry_answers_only_its_own_depth() -> None:
    assert alphabeta(Nim((1, 3, 4)), depth=6).value == 0
    assert alphabeta(Nim((1, 3, 4)), depth=6, tt=True).value == 0


def test_negamax_takes_tt_with_the_same_guarantee() -> None:
    t = TicTacToe()
    r = negamax(t, tt=True)
    assert r.value == 0 and r.stats.tt_hits > 0
    assert r.move == alphabeta(t, tt=True).move
    assert r.stats.nodes < negamax(t).stats.nodes


def test_tt_hits_are_in_the_trace_and_counted() -> None:
    r = alphabeta(Nim((2, 2, 1)), tt=True)
    hits = [e for e in r.trace.events if type(e).__name__ == "TTHit"]
    assert len(hits) == r.stats.tt_hits > 0
    assert {h.flag for h in hits} <= {"exact", "lower", "upper"}


# ----- principal variations -----------------------------------------------------------------
def test_lost_position_has_a_full_principal_variation_in_every_search() -> None:
    g = TicTacToe(win_value=math.inf)
    s = g.state_from_text(".XO\n.O.\nXXO")
    pvs = {f.__name__: f(g, s).pv for f in (minimax, alphabeta, negamax)}
    assert pvs["minimax"] == pvs["alphabeta"] == pvs["negamax"]
    assert len(pvs["minimax"]) == 2  # X's move, then O completes a line
    assert alphabeta(g, s).value == -math.inf


# ----- deepening ----------------------------------------------------------------------------
def test_deepen_on_a_leaf_root_has_its_value() -> None:
    r = deepen(GameTree.from_nested(5))
    assert r.value == alphabeta(GameTree.from_nested(5)).value == 5


def test_deepen_keeps_finished_iterations_when_a_later_one_fails() -> None:
    # depth 1 has static values (B, C); depth 2 reaches D, which has none
    tree = GameTree.from_dict({"children": [
        {"value": 1, "children": [{"children": [{"value": 3}, {"value": 4}]}, {"value": 2}]},
        {"value": 5, "children": [{"value": 6}, {"value": 7}]}]})
    r = deepen(tree)
    assert [it.options["depth"] for it in r.iterations] == [1]
    assert r.value == 5 and r.stopped == "error"
    assert "D has no static value" in (r.error or "")


def test_iter_deepen_checks_options_when_called() -> None:
    with pytest.raises(OptionError, match="aspiration"):
        iter_deepen(tree_002(), aspiration=-1)


@pytest.mark.parametrize("name,value", [("node_budget", True), ("node_budget", "100"),
                                        ("time_budget", False), ("time_budget", "1")])
def test_budgets_reject_booleans_and_strings(name: str, value: object) -> None:
    with pytest.raises(OptionError, match=name):
        deepen(tree_002(), **{name: value})


def test_trace_false_is_honoured_by_deepen_and_negamax() -> None:
    r = deepen(TicTacToe(), max_depth=3, trace=False)
    assert all(it.trace is None for it in r.iterations)
    assert [it.stats for it in r.iterations] == \
        [it.stats for it in deepen(TicTacToe(), max_depth=3).iterations]
    n = negamax(tree_002(), trace=False)
    assert n.trace is None and n.stats == negamax(tree_002()).stats


# ----- options and inputs -------------------------------------------------------------------
def test_window_of_strings_is_an_option_error_before_the_search() -> None:
    with pytest.raises(OptionError, match="window"):
        alphabeta(tree_002(), window=("1", "2"))
    with pytest.raises(OptionError, match="window"):
        negamax(tree_002(), window=(math.nan, 1))


def test_huge_depth_limits_cost_nothing_up_front() -> None:
    tracemalloc.start()
    try:
        tree = GameTree.from_nested([[1, 2], [3, 4]])
        assert alphabeta(tree, depth=10**9).value == 3
        assert alphabeta(Nim((1, 2)), depth=10**8).value == minimax(Nim((1, 2))).value
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # it was 860 MB for the game: a list as long as the depth


def test_static_order_checks_only_the_nodes_a_depth_limited_search_reaches() -> None:
    # B and C have static values; their children (reached only below depth 1) do not
    tree = GameTree.from_dict({"children": [
        {"value": 1, "children": [{"children": [{"value": 3}]}, {"value": 2}]},
        {"value": 5, "children": [{"value": 6}, {"value": 7}]}]})
    assert alphabeta(tree, depth=1, order="static").value == 5
    with pytest.raises(TreeError) as err:
        alphabeta(tree, depth=2, order="static")
    assert err.value.path == (0, 0)


def test_a_state_of_another_tree_is_a_tree_error() -> None:
    a = GameTree.from_nested([[10, 30], [20, 40]])
    b = GameTree.from_nested([[40, 50], [60, 70]])
    assert simple_pruning(b).value == 60
    with pytest.raises(TreeError, match="not a node of the tree"):
        simple_pruning(a, b.root)


def test_results_are_immutable_and_still_pickle() -> None:
    r = alphabeta(tree_002())
    with pytest.raises(TypeError):
        r.options["fail"] = "hard"  # type: ignore[index]
    with pytest.raises(AttributeError):
        r.value = 3  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(r))
    assert again == r and dict(again.options) == dict(r.options)


def test_a_deep_chain_is_searched_past_the_default_recursion_limit() -> None:
    # a chain of 3,000 MIN/MAX nodes built bottom-up (no recursion in construction)
    spec: dict = {"value": 7}
    for _ in range(3000):
        spec = {"children": [spec]}
    tree = GameTree.from_dict(spec)
    for f in (minimax, alphabeta, negamax):
        assert f(tree, trace=False).value == 7


def test_fail_modes_return_what_their_names_say() -> None:
    """On the example sheet's tree with the window (4, 6) at the root: fail-soft returns the
    best value found at each node; fail-hard clamps it into the node's window; one-sided
    (the sheet's form) starts at the node's own bound and can return past the other one.
    The root's first MIN child B (leaves 8 7 3 | 9 ... ) fails high at its MAX children:
    its first child returns 8 under soft and one-sided, β = 6 under hard (by hand: the MAX
    node D sees 8 ≥ 6 and cuts)."""
    from minimaxkit.examples import sheet_tree

    results = {fail: alphabeta(sheet_tree(), window=(4, 6), fail=fail)
               for fail in ("soft", "hard", "one-sided")}
    first_grandchild = {fail: r.trace.values[(0, 0)] for fail, r in results.items()
                        if r.trace is not None}
    assert first_grandchild == {"soft": 8, "hard": 6, "one-sided": 8}
    for fail, r in results.items():
        assert r.value == 5, fail
        assert r.trace is not None
        for event in r.trace.events:
            if fail == "hard" and hasattr(event, "move"):  # an Exit: clamped into (4, 6)
                assert 4 <= event.value <= 6, event
    with pytest.raises(OptionError, match="'one-sided' \\(the example sheet's form\\)"):
        alphabeta(sheet_tree(), fail="clamped")
