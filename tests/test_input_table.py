"""Issue 10's table of inputs, row by row with the exact input: each gets a clear, named
error or just works; none ends in a traceback from inside the kit (RecursionError,
KeyError, OverflowError, MemoryError, a raw TypeError).

Rows tested elsewhere: the window of strings, huge depth limits and ``order="static"`` on a
depth-limited search (test_search_inputs.py).
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import pytest

from minimaxkit import GameTree, OptionError, TreeError, alphabeta, minimax
from minimaxkit.errors import TraceError
from minimaxkit.examples import tree_002
from minimaxkit.trace import Trace

DEEP = 5_000  # far past the ~490 (construction) and ~330 (serialisation) of the old code


def deep_nested(depth: int, leaf: int = 5) -> list:
    spec: list = [leaf]
    for _ in range(depth - 1):
        spec = [spec]
    return spec


def test_a_deep_nested_chain_is_built_written_compared_and_searched() -> None:
    assert DEEP > sys.getrecursionlimit()
    tree = GameTree.from_nested(deep_nested(DEEP))
    again = GameTree.from_nested(deep_nested(DEEP))
    assert tree == again
    assert tree != GameTree.from_nested(deep_nested(DEEP, leaf=6))
    assert GameTree.from_json(tree.to_json()) == tree
    assert GameTree.from_dict(tree.to_dict()) == tree
    depth = 0
    node = tree.root
    while node.children:
        node, depth = node.children[0], depth + 1
    assert depth == DEEP and node.value == 5
    for search in (minimax, alphabeta):
        assert search(tree).value == 5


def test_a_deep_tree_is_drawn() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from minimaxkit.draw import draw_tree

    drawn = draw_tree(GameTree.from_nested(deep_nested(1_000)), labels="none")
    assert drawn["graph"].number_of_nodes() == 1_001  # 1,000 levels and the leaf
    plt.close(drawn["figure"])


def test_a_nested_list_that_contains_itself_names_where_the_cycle_closes() -> None:
    inner: list = [1, 2]
    spec = [[3, 4], inner]
    inner.append(spec)  # spec[1][2] is spec again
    with pytest.raises(TreeError) as err:
        GameTree.from_nested(spec)
    assert err.value.path == (1, 2)
    assert "cycle" in str(err.value)


def test_from_dict_with_100000_children() -> None:
    spec = {"children": [{"value": i % 7} for i in range(100_000)]}
    tree = GameTree.from_dict(spec)
    assert len(tree.root.children) == 100_000
    assert minimax(tree, trace=False).value == 6
    dup = {"children": [{"move": "m", "value": 1}, {"move": "m", "value": 2}]}
    with pytest.raises(TreeError, match="m"):
        GameTree.from_dict(dup)


@pytest.mark.parametrize("where", ["leaf", "static"])
def test_a_value_beyond_a_float_names_its_path(where: str) -> None:
    big = 10**400
    spec = ({"children": [{"value": 1}, {"value": big}]} if where == "leaf" else
            {"children": [{"value": big, "children": [{"value": 1}]}, {"value": 2}]})
    with pytest.raises(TreeError) as err:
        GameTree.from_dict(spec)
    assert err.value.path == ((1,) if where == "leaf" else (0,))
    assert "float" in str(err.value)


def test_a_fraction_leaf_is_refused_with_its_path_before_any_to_json() -> None:
    with pytest.raises(TreeError) as err:
        GameTree.from_nested([[1, Fraction(1, 3)], [2, 3]])
    assert err.value.path == (0, 1)
    assert "Fraction" in str(err.value) and "float(x)" in str(err.value)


@pytest.mark.parametrize(("kwargs", "option"), [
    ({"branching": True}, "branching"),
    ({"branching": 0}, "branching"),
    ({"branching": "3"}, "branching"),
    ({"values": "x"}, "values"),
    ({"values": (5, 1)}, "values"),
    ({"seed": "s"}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"depth": True}, "depth"),
])
def test_random_trees_name_the_bad_option(kwargs: dict, option: str) -> None:
    args = {"depth": 2, "branching": 2, **kwargs}
    with pytest.raises(OptionError) as err:
        GameTree.random(**args)
    assert err.value.option == option


@pytest.mark.parametrize("event", [[99], ["leaf"], ["enter", "x"], "junk", None])
def test_a_malformed_stored_event_names_its_index(event: object) -> None:
    """The older form (version 2: a list per event), as a stored file may hold it."""
    raw = [list(r) for r in alphabeta(tree_002()).trace.raw]
    raw[3] = event  # type: ignore[call-overload]
    text = json.dumps({"format": "minimaxkit-trace", "version": 2, "events": raw})
    with pytest.raises(TraceError) as err:
        Trace.from_json(text)
    assert err.value.index == 3


@pytest.mark.parametrize("column", ["kinds", "up", "child"])
def test_a_malformed_column_names_the_event(column: str) -> None:
    """The current form (version 3: columns): a bad letter or digit names its event."""
    good = json.loads(alphabeta(tree_002()).trace.to_json())
    good[column] = good[column][:5] + "?" + good[column][6:]
    with pytest.raises(TraceError) as err:
        Trace.from_json(json.dumps(good))
    assert err.value.index == 5


def test_a_huge_quiz_is_refused_with_its_size() -> None:
    pytest.importorskip("ipywidgets")
    from minimaxkit.widgets import QuizWidget

    with pytest.raises(OptionError) as err:
        QuizWidget(depth=12, branching=6)
    assert "1,000,000" in str(err.value)


def test_traces_and_results_cannot_be_changed_behind_the_views() -> None:
    r = alphabeta(tree_002())
    before = r.trace.to_json()
    with pytest.raises(AttributeError):
        r.trace.events.append(r.trace.events[0])  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        r.options["order"] = "perfect"  # type: ignore[index]
    assert r.trace.to_json() == before
