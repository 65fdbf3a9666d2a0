"""Bad input gets a named error that says what and where, before any search starts."""

from __future__ import annotations

import math

import pytest

from minimaxkit import GameTree, OptionError, TreeError, alphabeta, deepen, minimax, negamax


@pytest.mark.parametrize(("spec", "path", "words"), [
    ([[1, 2], []], (1,), "at least one child"),
    ([[1, None]], (0, 1), "finite number, got None"),
    ([[1, math.nan]], (0, 1), "finite number, got nan"),
    ([[1, "3"]], (0, 1), "finite number, got '3'"),
    ([[1, True]], (0, 1), "finite number, got True"),
    ([math.inf, 1], (0,), "finite number, got inf"),
])
def test_nested_errors_name_the_path(spec, path, words):
    with pytest.raises(TreeError) as err:
        GameTree.from_nested(spec)
    assert err.value.path == path and words in str(err.value)
    assert isinstance(err.value, ValueError)


def test_unknown_player():
    with pytest.raises(TreeError, match=r"path \(0,\): unknown player 'mni'"):
        GameTree.from_dict({"children": [{"player": "mni", "value": 1}]})
    with pytest.raises(TreeError, match="unknown player"):
        GameTree.from_nested([1, 2], root="MAX")


def test_cycle_in_dict_form():
    a = {"name": "A", "children": []}
    a["children"].append({"move": "x", "node": a})
    with pytest.raises(TreeError, match=r"path \(0,\): cycle"):
        GameTree.from_dict(a)


def test_dict_form_mistakes():
    with pytest.raises(TreeError, match=r"unknown key\(s\) \['chldren'\]"):
        GameTree.from_dict({"chldren": []})
    with pytest.raises(TreeError, match="move 'a' is used twice"):
        GameTree.from_dict({"children": [{"move": "a", "node": {"value": 1}},
                                         {"move": "a", "node": {"value": 2}}]})
    with pytest.raises(TreeError, match="name 'B' is already used"):
        GameTree.from_dict({"name": "A", "children": [{"name": "B", "value": 1},
                                                      {"name": "B", "value": 2}]})
    with pytest.raises(TreeError, match="non-empty list of children"):
        GameTree.from_dict({"children": []})


def test_named_tree_keeps_moves_names_and_players():
    t = GameTree.from_dict({"name": "root", "player": "max", "children": [
        {"move": "left", "node": {"name": "L", "player": "min", "children": [
            {"move": 0, "node": {"name": "LL", "player": "min", "value": 1}}]}},
        {"move": "right", "node": {"value": 2}}]})
    assert t.node((0, 0)).player == "min" and t.node((0,)).player == "min"
    assert t.node((1,)).name == "A"  # the first free default name
    assert alphabeta(t).move == "right"
    assert GameTree.from_json(t.to_json()) == t


@pytest.mark.parametrize(("call", "option", "words"), [
    (lambda t: minimax(t, depth=-1), "depth", "whole number >= 0, got -1"),
    (lambda t: minimax(t, depth=1.5), "depth", "got 1.5"),
    (lambda t: alphabeta(t, fail="medium"), "fail", "or 'one-sided' (the example sheet's"),
    (lambda t: alphabeta(t, prune_on_eq=False), "prune_on_eq", "did you mean 'prune_on_equal'"),
    (lambda t: alphabeta(t, window=(3, 1)), "window", "alpha < beta"),
    (lambda t: alphabeta(t, order="best"), "order", "'static', 'perfect'"),
    (lambda t: deepen(t, aspiration=0), "aspiration", "> 0"),
    (lambda t: negamax(t, prune_on_equal="yes"), "prune_on_equal", "True or False"),
    (lambda t: negamax(t, fail="firm"), "fail", "'soft', 'hard'"),
    (lambda t: deepen(t, prune_on_equal=1), "prune_on_equal", "True or False, got 1"),
])
def test_option_errors_name_the_option(call, option, words):
    with pytest.raises(OptionError) as err:
        call(GameTree.from_nested([[1, 2], [3, 4]]))
    assert err.value.option == option and words in str(err.value)


def test_missing_static_value_is_reported_before_searching():
    with pytest.raises(TreeError, match=r"path \(0,\): interior node B has no static value"):
        alphabeta(GameTree.from_nested([[1, 2], [3, 4]]), depth=1)
    with pytest.raises(TreeError, match="no static value"):
        alphabeta(GameTree.from_nested([[1, 2], [3, 4]]), order="static")


def test_a_list_is_not_a_game():
    with pytest.raises(OptionError, match=r"GameTree.from_nested"):
        alphabeta([[1, 2], [3, 4]])


def test_random_tree_options():
    t = GameTree.random(depth=3, branching=(1, 3), values=(-5, 5), seed=7)
    assert all(-5 <= n.value <= 5 for n in t.leaves())
    assert t == GameTree.random(depth=3, branching=(1, 3), values=(-5, 5), seed=7)
    u = GameTree.random(depth=3, branching=3, ties=False, values=(0, 26), seed=1)
    assert len({n.value for n in u.leaves()}) == 27
    with pytest.raises(OptionError, match="too few"):
        GameTree.random(depth=3, branching=3, ties=False, values=(0, 9))


def test_depth_limit_counts_from_the_search_start():
    tree = GameTree.from_nested([[[1, 2], [3, 4]], [5, 6]])
    b = tree.node((0,))
    # one move below B are C, D: interior, no static value
    with pytest.raises(TreeError, match=r"path \(0, 0\)"):
        minimax(tree, b, depth=1)
    # two moves below B are leaves: fine, though two moves below the root are not all leaves
    assert minimax(tree, b, depth=2).value == 2
    with pytest.raises(TreeError, match=r"path \(0, 0\)"):
        minimax(tree, depth=2)


def test_building_leaves_the_collector_on_even_after_an_error() -> None:
    """Trees are built with the garbage collector paused; a bad node must not leave it off."""
    import gc

    with pytest.raises(TreeError):
        GameTree.from_dict({"children": [{"value": 1}, {"value": "x"}]})
    assert gc.isenabled() and gc.get_freeze_count() == 0
    GameTree.from_nested([[1, 2], [3, 4]])
    assert gc.isenabled() and gc.get_freeze_count() == 0
