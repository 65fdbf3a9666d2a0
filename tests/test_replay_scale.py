"""Replays and views at any size: a frame reached by random access equals the frame reached
by stepping, both equal what the trace's first events say, and a step widget on a huge
trace is built without building every event or laying out the tree."""

from __future__ import annotations

import random

import matplotlib
import pytest

from minimaxkit import GameTree, alphabeta, minimax, negamax
from minimaxkit.draw.model import TreeModel
from minimaxkit.games import TicTacToe
from minimaxkit.replay import Frame, Replay
from minimaxkit.widgets import QuizWidget, StepWidget

matplotlib.use("Agg")


def same(a: Frame, b: Frame) -> None:
    assert a == b, a.step
    # the views compare as sets and dicts; check their contents one by one as well
    assert set(a.visited) == set(b.visited) and set(a.pruned) == set(b.pruned)
    assert dict(a.values) == dict(b.values) and dict(a.cuts) == dict(b.cuts)


def check_against_prefix(rp: Replay, step: int) -> None:
    """The frame's sets are exactly those of the trace's first ``step`` events."""
    f, prefix = rp.frame(step), rp.trace.upto(step)
    assert set(f.visited) == set(prefix.visited) and len(f.visited) == len(prefix.visited)
    assert set(f.pruned) == set(prefix.pruned)
    assert dict(f.values) == prefix.values
    assert dict(f.cuts) == {c.path: c for c in prefix.cutoffs}
    assert all(p in f.visited for p in prefix.visited)
    later = rp.trace.visited[len(prefix.visited):]
    assert not any(p in f.visited for p in later[:50])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("search", [
    lambda t: alphabeta(t), lambda t: alphabeta(t, fail="one-sided", order="perfect"),
    lambda t: minimax(t), lambda t: alphabeta(t, tt=True), lambda t: negamax(t)])
def test_random_access_equals_stepping_on_random_trees(seed: int, search: object) -> None:
    tree = GameTree.random(depth=4, branching=(1, 4), values=(0, 6), seed=seed)
    result = search(tree)  # type: ignore[operator]
    stepped = list(Replay(result).frames())
    order = list(range(len(stepped)))
    random.Random(seed).shuffle(order)
    jumping = Replay(result)
    for k in order:
        same(jumping.frame(k), stepped[k])
    backwards = Replay(result)
    for k in reversed(range(len(stepped))):
        same(backwards.frame(k), stepped[k])
    for k in order[:10]:
        check_against_prefix(jumping, k)


def test_random_access_equals_stepping_on_a_game() -> None:
    g = TicTacToe()
    start = g.state_from_text("X.. .O. ...")
    result = alphabeta(g, start)
    n = len(result.trace)
    assert n > 1_500  # several index chunks
    stepped = Replay(result)
    frames = [stepped.frame(k) for k in range(n + 1)]
    jumping = Replay(result)
    rng = random.Random(7)
    for k in [n, 0, n // 2, *rng.sample(range(n + 1), 150), n - 1, 1]:
        same(jumping.frame(k), frames[k])
        check_against_prefix(jumping, k)


def test_a_late_frame_of_a_huge_trace_reads_only_what_it_needs() -> None:
    result = minimax(TicTacToe())  # 844,724 events
    rp = Replay(result)
    f = rp.frame(1_000)
    assert rp.indexed < 2_000 and result.trace._events is None  # no event objects built
    assert len(f.visited) == len(result.trace.upto(1_000).visited)
    last = rp.frame(len(result.trace))
    assert last.text.startswith("Search done") and rp.indexed == len(result.trace)
    assert len(last.visited) == result.stats.nodes and result.trace._events is None
    back = rp.frame(1_000)
    same(back, f)


def test_huge_trace_widget_lays_nothing_out(monkeypatch: pytest.MonkeyPatch) -> None:
    laid_out: list[int] = []
    of_trace = TreeModel.of_trace.__func__  # type: ignore[attr-defined]

    def counting(cls: type, trace: object, *args: object, **kw: object) -> TreeModel:
        model = of_trace(cls, trace, *args, **kw)
        laid_out.append(len(model))
        return model

    monkeypatch.setattr(TreeModel, "of_trace", classmethod(counting))
    result = minimax(TicTacToe())
    sw = StepWidget(result)
    panel = sw.panel
    assert laid_out == [] and not panel.draw and not panel.prerender
    assert panel.replay.indexed < 2_000 and result.trace._events is None
    sw.value = 500_000  # a jump: the index grows to it, the frame is read from it
    assert sw.frame.step == 500_000 and panel.replay.indexed >= 500_000
    sw.controls.back()
    assert sw.value == 499_999 and "step 499999 / 844724" in panel.info.value
    assert laid_out == []


def test_live_mode_chosen_by_the_cost_of_prerendering() -> None:
    tree = GameTree.random(depth=6, branching=3, seed=1)  # 1,093 nodes
    result = alphabeta(tree, order="perfect")
    assert len(result.trace) < 300  # few events: the frame count alone would prerender
    sw = StepWidget(result)
    assert not sw.panel.prerender and sw.panel.nodes == 1_093
    assert sum(p is not None for p in sw.panel.pngs) == 1  # only the frame shown
    small = StepWidget(alphabeta(GameTree.random(depth=3, branching=3, seed=1)))
    assert small.panel.prerender and small.ready


def old_cut_reason(q: QuizWidget, leaf: tuple[int, ...]) -> str:
    """The quiz's reason as it was first written: the first cut-off, in event order, whose
    pruned children hold the leaf."""
    for step, e in enumerate(q.replay.events, start=1):
        if getattr(e, "pruned", None) is not None and any(
                leaf[:len(e.path) + 1] == e.path + (i,) for i in e.pruned):  # type: ignore
            return q.replay.explain(step).split(". ")[0]
    raise AssertionError(leaf)


@pytest.mark.parametrize("seed", range(6))
def test_quiz_reasons_unchanged(seed: int) -> None:
    tree = GameTree.random(depth=5, branching=(2, 3), seed=seed)
    q = QuizWidget(tree=tree)
    q.mark(*list(q.answer_never)[::2], *q.leaf_paths[:3])
    result = q.check_answers()
    for v in result.verdicts:
        if v.path in q.answer_never:
            assert old_cut_reason(q, v.path) in v.reason
    assert {v.path for v in result.verdicts if v.kind == "extra"} == set(
        list(q.answer_never)[1::2]) - set(q.leaf_paths[:3])


@pytest.mark.parametrize("options", [{}, {"tt": True}, {"order": "perfect"},
                                     {"fail": "hard", "prune_on_equal": False}])
def test_negamax_without_a_trace_counts_the_same(options: dict) -> None:
    from minimaxkit.games import Nim

    for game, depth in ((GameTree.random(depth=5, branching=(1, 4), seed=2), None),
                        (Nim((1, 3, 4)), 7), (TicTacToe(), 4)):
        if options.get("order") == "perfect" and not isinstance(game, GameTree):
            continue
        traced = negamax(game, depth=depth, **options)
        bare = negamax(game, depth=depth, trace=False, **options)
        assert bare.trace is None and traced.trace is not None
        assert bare.stats == traced.stats == traced.trace.stats
        assert (bare.value, bare.move, bare.pv) == (traced.value, traced.move, traced.pv)


def test_deepening_without_a_trace_counts_the_same() -> None:
    from minimaxkit import deepen

    traced = deepen(TicTacToe(), max_depth=5)
    bare = deepen(TicTacToe(), max_depth=5, trace=False)
    assert all(it.trace is None for it in bare.iterations)
    assert all(it.trace is not None for it in traced.iterations)
    assert bare.stats == traced.stats and bare.value == traced.value
    assert [it.stats for it in bare.iterations] == [it.trace.stats for it in traced.iterations]


def test_live_widget_reads_the_trace_ahead_in_a_kernel_loop() -> None:
    import asyncio

    result = alphabeta(TicTacToe())  # 18,297 nodes: live, no tree drawn
    n = len(result.trace)

    async def shown() -> tuple[int, int]:
        sw = StepWidget(result)
        first = sw.panel.replay.indexed
        for _ in range(30_000):  # at most 30 s
            if sw.panel.replay.indexed == n:
                break
            await asyncio.sleep(0.001)
        return first, sw.panel.replay.indexed

    first, later = asyncio.run(shown())
    assert first < n and later == n  # read between loop turns, after the widget showed


