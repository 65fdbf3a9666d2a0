"""The views every other part of the kit reads from a trace."""

from __future__ import annotations

import json
import math

import pytest

from minimaxkit import Cutoff, Enter, Exit, Leaf, Trace, TTHit, alphabeta, minimax
from minimaxkit.errors import TraceError
from minimaxkit.examples import aima_5_2, tree_002


def test_views_of_the_aima_trace():
    t = alphabeta(aima_5_2()).trace
    # hand trace: A enters, B enters, 3 12 8, B exits 3; C enters, 2, cut; D enters, 14 5 2
    assert [type(e).__name__ for e in t.events[:7]] == [
        "Enter", "Enter", "Leaf", "Leaf", "Leaf", "Exit", "Enter"]
    assert t.expanded == [(), (0,), (1,), (2,)]
    assert t.visited[:3] == [(), (0,), (0, 0)]
    assert t.pruned == [(1, 1), (1, 2)]
    assert t.values[(1,)] == 2 and t.values[()] == 3
    assert t.best_moves[()] == 0
    assert (t.stats.nodes, t.stats.leaves, t.stats.expanded, t.stats.cutoffs) == (11, 7, 4, 2)


def test_leaf_events_carry_the_window():
    t = alphabeta(aima_5_2()).trace
    leaf = next(e for e in t if isinstance(e, Leaf) and e.path == (1, 0))
    assert (leaf.value, leaf.alpha, leaf.beta, leaf.is_max, leaf.depth) == (2, 3, float("inf"),
                                                                             True, 2)


def test_upto_is_a_prefix():
    t = alphabeta(tree_002()).trace
    assert t.upto(5).events == t.events[:5]
    assert t.upto(len(t)) == t


def test_hand_made_trace_round_trips():
    events = [Enter((), -1.0, 1.0, True, 0), Leaf((0,), 0.5, -1.0, 1.0, False, 1),
              Cutoff((), 0.5, 0.5, "beta", (1,)), Exit((), 0.5, 0)]
    t = Trace.of(events)
    assert t.events == tuple(events)
    assert Trace.from_json(t.to_json()) == t
    # ±∞ are standard JSON numbers that read back as infinity
    text = alphabeta(tree_002()).trace.to_json()
    assert "1e999" in text and "Infinity" not in text
    assert math.isinf(json.loads(text)["enter"]["alpha"]["palette"][0])


def test_json_paths_anywhere_and_depths_kept():
    # paths that jump (not a search's child / sibling / parent steps) and depths that are
    # not the path's length (a search from a later state) round-trip too
    events = [Enter((2,), -1.0, 1.0, True, 5), Leaf((2, 0, 1, 3), 0.5, -1.0, 1.0, False, 9),
              Enter((0, 4), -1.0, 1.0, False, 6), Leaf((), 1, 0, 2, True, 0),
              TTHit((1, 1, 1), 2, "lower"), Cutoff((0, 4), 0.5, 0.5, "alpha", (2, 5, 1)),
              Exit((0, 4), 0.5, None), Exit((2,), -math.inf, 0)]
    t = Trace.of(events)
    back = Trace.from_json(t.to_json())
    assert back == t and back.events == tuple(events)
    assert [type(e.is_max) for e in back.events if hasattr(e, "is_max")] == [bool] * 4
    # numbers beyond one character's range (64 and more children) stay lists
    wide = Trace.of([Enter((), -1.0, 1.0, True, 0), Leaf((70,), 1, -1.0, 1.0, False, 1),
                     Exit((), 1, 70)])
    data = json.loads(wide.to_json())
    assert isinstance(data["child"], list) and data["exit"]["move"] == {"palette": [70],
                                                                       "codes": "0"}
    assert Trace.from_json(wide.to_json()) == wide


def test_json_reads_version_2_and_rows():
    t = alphabeta(tree_002()).trace
    v2 = json.dumps({"format": "minimaxkit-trace", "version": 2, "events": t.raw})
    assert Trace.from_json(v2.replace("Infinity", "1e999")) == t
    assert Trace.from_json(json.dumps(t.rows())) == t


def test_json_errors_name_the_event():
    data = json.loads(alphabeta(tree_002()).trace.to_json())
    data["leaf"]["value"] = [7] * len(data["leaf"]["value"])  # written as a list
    data["leaf"]["value"][2] = "seven"  # the third leaf: event 5
    with pytest.raises(TraceError, match="event 5: value must be a number"):
        Trace.from_json(json.dumps(data))
    data = json.loads(alphabeta(tree_002()).trace.to_json())
    data["kinds"] = data["kinds"][:3] + "q" + data["kinds"][4:]
    with pytest.raises(TraceError, match="event 3: unknown kind letter 'q'"):
        Trace.from_json(json.dumps(data))
    data = json.loads(alphabeta(tree_002()).trace.to_json())
    data["up"] = data["up"][:1] + "7" + data["up"][2:]
    with pytest.raises(TraceError, match="event 1: the path goes up 7 levels"):
        Trace.from_json(json.dumps(data))
    data = json.loads(alphabeta(tree_002()).trace.to_json())
    data["child"] = data["child"][:4] + "!" + data["child"][5:]
    with pytest.raises(TraceError, match="event 4: child: '!' is not one of the digits"):
        Trace.from_json(json.dumps(data))
    data = json.loads(alphabeta(tree_002()).trace.to_json())
    data["leaf"]["is_max"] = "*" + data["leaf"]["is_max"][1:]  # the first leaf: event 3
    with pytest.raises(TraceError, match="event 3: is_max: '[*]' is not one of the digits"):
        Trace.from_json(json.dumps(data))
    data = json.loads(alphabeta(tree_002()).trace.to_json())
    data["exit"]["move"] = data["exit"]["move"][:-1]
    with pytest.raises(TraceError, match=r"the 'exit' column 'move' has"):
        Trace.from_json(json.dumps(data))
    with pytest.raises(TraceError, match="event 1: a 'leaf' event has 6 fields"):
        Trace.from_json(json.dumps({"format": "minimaxkit-trace", "version": 2, "events": [
            ["enter", [], 0, 1, True, 0], ["leaf", [0], 0, 0, 1]]}))


def test_minimax_trace_has_no_window():
    e = minimax(aima_5_2()).trace.events[1]
    assert isinstance(e, Enter) and (e.alpha, e.beta) == (float("-inf"), float("inf"))


def test_exit_records_the_best_child():
    exits = [e for e in alphabeta(tree_002()).trace if isinstance(e, Exit)]
    assert exits[-1] == Exit((), 5, 1)
