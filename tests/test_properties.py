"""Property tests on random trees (hypothesis): what must hold for every tree."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from minimaxkit import (
    GameTree,
    alphabeta,
    deepen,
    knuth_moore_leaves,
    minimax,
    negamax,
    perfect_order_leaves,
)

OPTIONS = list(itertools.product([True, False], ["soft", "hard"],
                                 [None, "static", "perfect"]))


@st.composite
def trees(draw, max_depth=4, ties=True):
    """Random trees with ties and uneven branching, some with non-alternating players."""
    depth = draw(st.integers(0, max_depth))
    tree = GameTree.random(depth=depth, branching=(1, 3), values=(0, 5 if ties else 999),
                           ties=True, seed=draw(st.integers(0, 10**6)))
    if draw(st.booleans()):  # reshuffle players: several MIN layers in a row are allowed
        d = tree.to_dict()
        flips = draw(st.lists(st.booleans(), min_size=len(tree), max_size=len(tree)))

        it = iter(flips)

        def repaint(spec):
            spec["player"] = "max" if next(it) else "min"
            for edge in spec.get("children", []):
                repaint(edge["node"])
        repaint(d)
        tree = GameTree.from_dict(d)
    return tree.with_static(noise=2, seed=1)


@settings(max_examples=150, deadline=None)
@given(trees())
def test_alphabeta_value_equals_minimax_for_every_option(tree):
    exact = minimax(tree).value
    for eq, fail, order in OPTIONS:
        r = alphabeta(tree, prune_on_equal=eq, fail=fail, order=order)
        assert r.value == exact, (eq, fail, order)


@settings(max_examples=100, deadline=None)
@given(trees())
def test_negamax_traces_equal_alphabeta(tree):
    for eq, fail, order in OPTIONS:
        a = alphabeta(tree, prune_on_equal=eq, fail=fail, order=order)
        n = negamax(tree, prune_on_equal=eq, fail=fail, order=order)
        assert n.trace == a.trace and n.value == a.value


@settings(max_examples=100, deadline=None)
@given(trees())
def test_pruned_leaves_are_a_subsequence_of_minimax(tree):
    everything = minimax(tree).trace.leaves
    for eq in (True, False):
        seen = iter(everything)
        assert all(p in seen for p in alphabeta(tree, prune_on_equal=eq).trace.leaves)


@settings(max_examples=100, deadline=None)
@given(trees(), st.integers(0, 4))
def test_depth_limited_alphabeta_equals_depth_limited_minimax(tree, depth):
    assert alphabeta(tree, depth=depth).value == minimax(tree, depth=depth).value


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(1, 4), st.integers(0, 10**6))
def test_perfect_ordering_meets_knuth_moore(branching, depth, seed):
    tree = GameTree.random(depth=depth, branching=branching, values=(0, 10_000), ties=False,
                           seed=seed)
    assert perfect_order_leaves(tree) == knuth_moore_leaves(branching, depth)
    assert alphabeta(tree).stats.leaves >= knuth_moore_leaves(branching, depth)


@settings(max_examples=80, deadline=None)
@given(trees(), st.sampled_from([None, 0.5, 3]))
def test_deepening_final_iteration_agrees_with_one_search(tree, aspiration):
    r = deepen(tree, aspiration=aspiration)
    if tree.height == 0:
        assert r.iterations == () or r.value == tree.root.value
        return
    for it in r.iterations:
        d = it.options["depth"]
        assert it.value == alphabeta(tree, depth=d).value
    assert r.value == minimax(tree).value


@settings(max_examples=50, deadline=None)
@given(trees())
def test_dict_and_json_round_trips(tree):
    assert GameTree.from_dict(tree.to_dict()) == tree
    assert GameTree.from_json(tree.to_json()) == tree
    t = alphabeta(tree).trace
    assert type(t).from_json(t.to_json()) == t
