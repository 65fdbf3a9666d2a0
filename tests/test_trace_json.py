"""Trace JSON version 4: the path steps done with numpy agree with the event-by-event stack
on every search, coded columns keep every value and its type, bad columns name the
event, and reading a trace leaves the garbage collector as it found it."""

from __future__ import annotations

import gc
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minimaxkit import (
    Cutoff,
    Enter,
    Exit,
    GameTree,
    Leaf,
    Trace,
    TTHit,
    alphabeta,
    deepen,
    minimax,
    negamax,
    simple_pruning,
)
from minimaxkit.errors import TraceError
from minimaxkit.examples import tree_002
from minimaxkit.games import TicTacToe
from minimaxkit.trace.codec import steps_by_stack
from minimaxkit.trace.paths import paths_of, steps_of

LETTER = {"enter": "e", "leaf": "l", "cutoff": "c", "exit": "x", "tt": "t"}


def searches(tree: GameTree, depth: int | None) -> list[Trace]:
    out = [minimax(tree, depth=depth).trace, simple_pruning(tree, depth=depth).trace]
    for fail in ("soft", "hard"):
        for order in (None, "static"):
            out.append(alphabeta(tree, depth=depth, fail=fail, order=order).trace)
            out.append(negamax(tree, depth=depth, fail=fail, order=order, tt=True).trace)
    out += [it.trace for it in deepen(tree, max_depth=depth or 3).iterations]
    return [t for t in out if t is not None]


def kinds_of(t: Trace) -> bytes:
    return "".join(LETTER[r[0]] for r in t.raw).encode()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(1, 4), st.integers(0, 10**6),
       st.sampled_from([None, 1, 2]))
def test_numpy_steps_equal_the_stack_on_every_search(depth, branching, seed, limit):
    tree = GameTree.random(depth=depth, branching=(1, branching), values=(0, 3), ties=True,
                           seed=seed).with_static(noise=1, seed=seed)
    for t in searches(tree, limit):
        paths = [r[1] for r in t.raw]
        up, child, tails = steps_by_stack(paths)
        assert tails == []
        for walked in (False, True):
            steps = steps_of(kinds_of(t), paths, walked=walked)
            assert steps is not None
            assert steps[0].tolist() == up and steps[1].tolist() == child
        back, walked = paths_of(np.array(up), np.array(child), kinds_of(t))
        assert back == paths and walked
        again = Trace.from_json(t.to_json())
        assert again == t and again._walked and t._walked


@pytest.mark.parametrize("search", [
    lambda g: alphabeta(g, depth=4, order="static"),
    lambda g: minimax(g, depth=4, tt=True),          # table hits
    lambda g: negamax(g, depth=4, tt=True, fail="one-sided"),
])
def test_numpy_steps_equal_the_stack_on_tictactoe(search):
    t = search(TicTacToe()).trace
    paths = [r[1] for r in t.raw]
    up, child, _ = steps_by_stack(paths)
    for walked in (False, True):
        steps = steps_of(kinds_of(t), paths, walked=walked)
        assert steps is not None and steps[0].tolist() == up and steps[1].tolist() == child
    assert Trace.from_json(t.to_json()) == t


@pytest.mark.parametrize(("events", "walk"), [
    # an exit that arrives at a node never entered
    ([Enter((), -1, 1, True, 0), Exit((0,), 1, None), Exit((), 1, 0)], False),
    # a jump two levels down, and a table hit at the root
    ([Enter((), -1, 1, True, 0), Leaf((1, 2), 1, -1, 1, False, 2), TTHit((), 1, "exact")],
     False),
    # a leaf evaluated twice: a walk that leaves the leaf and comes back
    ([Enter((), -1, 1, True, 0), Leaf((0,), 1, -1, 1, False, 1),
      Leaf((0,), 2, -1, 1, False, 1), Exit((), 2, 0)], True),
])
def test_traces_that_are_not_a_walk_are_checked_and_written_by_the_stack(events, walk):
    t = Trace.of(events)
    paths = [r[1] for r in t.raw]
    steps = steps_of(kinds_of(t), paths)
    assert (steps is not None) == walk
    if steps is not None:
        assert paths_of(*steps, kinds_of(t)) == (paths, True)
    back = Trace.from_json(t.to_json())
    assert back == t and back.events == tuple(events)
    assert Trace.from_json(back.to_json()) == t  # read back, still written right


def test_a_read_trace_is_a_walk_only_if_its_downward_steps_are_arrivals():
    events = [Enter((), -1, 1, True, 0), Exit((0,), 1, None), Exit((), 1, 0)]
    back = Trace.from_json(Trace.of(events).to_json())
    assert not back._walked
    assert Trace.from_json(alphabeta(tree_002()).trace.to_json())._walked


def column(t: Trace, kind: str, name: str) -> object:
    return json.loads(t.to_json())[kind][name]


@pytest.mark.parametrize(("values", "form"), [
    ([-1, 0, 1, 1], dict),            # a palette of three
    ([0.5, 0.5, math.inf], dict),
    ([1, 1.0, 2], list),              # 1 and 1.0 are equal in a set: kept apart as a list
    ([0.0, -0.0, 1.5], list),         # so are 0.0 and -0.0
    ([3, 2, 63], str),                # small whole numbers: digits
    ([3, 64, 2], dict),
    (list(range(-40, 40)), list),     # more than 64 distinct values
])
def test_coded_columns_keep_every_value_and_its_type(values, form):
    events = [Enter((), -1, 1, True, 0)]
    events += [Leaf((k,), v, -1, 1, False, 1) for k, v in enumerate(values)]
    events.append(Exit((), max(values), 0))
    t = Trace.of(events)
    assert isinstance(column(t, "leaf", "value"), form)
    back = [e.value for e in Trace.from_json(t.to_json()).events if isinstance(e, Leaf)]
    assert back == values
    assert [type(v) for v in back] == [type(v) for v in values]
    assert [math.copysign(1, v) for v in back] == [math.copysign(1, v) for v in values]


def test_text_columns_and_moves_with_none_are_coded_and_sorted():
    events = [Enter((), -1, 1, True, 0), Enter((0,), -1, 1, False, 1),
              Leaf((0, 0), 1, -1, 1, True, 2), Cutoff((0,), 1, 1, "beta", (1,)),
              Exit((0,), 1, None), TTHit((1,), 0, "upper"), TTHit((2,), 0, "exact"),
              Cutoff((), 1, 1, "alpha", ()), Exit((), 1, 0)]
    t = Trace.of(events)
    data = json.loads(t.to_json())
    assert data["cutoff"]["kind"] == {"palette": ["alpha", "beta"], "codes": "10"}
    assert data["tt"]["flag"] == {"palette": ["exact", "upper"], "codes": "10"}
    assert data["exit"]["move"] == {"palette": [None, 0], "codes": "01"}
    assert Trace.from_json(t.to_json()).events == tuple(events)
    assert t.to_json() == Trace.of(events).to_json()


def coded(t: Trace) -> dict:
    data = json.loads(t.to_json())
    assert isinstance(data["enter"]["alpha"], dict)
    return data


def test_bad_coded_columns_name_the_event():
    t = alphabeta(tree_002()).trace  # enter events 0, 1, 2, then leaves
    data = coded(t)
    codes = data["enter"]["alpha"]["codes"]
    data["enter"]["alpha"]["codes"] = codes[:2] + "9" + codes[3:]
    with pytest.raises(TraceError, match=r"event 2: alpha: code '9' is beyond the palette"):
        Trace.from_json(json.dumps(data))
    data = coded(t)
    data["enter"]["alpha"]["palette"][0] = "low"
    with pytest.raises(TraceError, match="event 0: alpha must be a number, got 'low'"):
        Trace.from_json(json.dumps(data))
    data = coded(t)
    data["enter"]["alpha"]["codes"] += "0"
    with pytest.raises(TraceError, match="the 'enter' column 'alpha' has 12 entries for 11"):
        Trace.from_json(json.dumps(data))
    data = coded(t)
    data["enter"]["beta"] = {"palette": 5, "codes": "0"}
    with pytest.raises(TraceError, match="beta: a coded column needs 'palette'"):
        Trace.from_json(json.dumps(data))
    data = coded(t)
    data["up"] = {"up": 1}
    with pytest.raises(TraceError, match="needs 'up' as text or a list"):
        Trace.from_json(json.dumps(data))
    data = coded(t)
    data["child"] = [0, -1] + [0] * (len(t) - 2)
    with pytest.raises(TraceError, match="event 1: up and child must be >= 0"):
        Trace.from_json(json.dumps(data))


def test_version_3_texts_still_read():
    t = alphabeta(tree_002()).trace
    data = json.loads(t.to_json())
    data["version"] = 3
    for block in (data[k] for k in LETTER):
        for name, col in block.items():
            if isinstance(col, dict):  # version 3 had lists where version 4 has palettes
                block[name] = [col["palette"][int(c, 36)] for c in col["codes"]]
    assert Trace.from_json(json.dumps(data).replace("Infinity", "1e999")) == t


def test_reading_leaves_the_collector_as_it_was():
    text = minimax(TicTacToe(), depth=3).trace.to_json()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    Trace.from_json(text)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        Trace.from_json(text)
        assert not gc.isenabled()
    finally:
        gc.enable()
    # A program that froze objects of its own keeps them frozen. The marker is asked for by
    # identity rather than by counting the frozen objects: under xdist other threads run,
    # and the count moved by one in a CI run with nothing unfrozen.
    marker = ["frozen by the program"]
    gc.freeze()
    try:
        assert not _tracked_by_the_collector(marker)
        Trace.from_json(text)
        assert gc.get_freeze_count() > 0
        assert not _tracked_by_the_collector(marker), "the program's frozen objects were thawed"
    finally:
        gc.unfreeze()
    assert _tracked_by_the_collector(marker)


def _tracked_by_the_collector(obj: object) -> bool:
    """Whether ``obj`` sits in one of the collector's generations (``gc.get_objects`` leaves
    out the permanent generation that ``gc.freeze`` moves objects to)."""
    return any(o is obj for o in gc.get_objects())
