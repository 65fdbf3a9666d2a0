"""The student interface: what a SearchNode answers, what the Recorder writes down."""

from __future__ import annotations

import pytest

from minimaxkit import GameTree, TreeError
from minimaxkit.examples import aima_5_2, tree_002
from minimaxkit.grading import Recorder, SearchNode
from minimaxkit.student import ReadOnlyTree, TooManyCalls, evaluated_in


def test_the_four_questions_of_the_documents() -> None:
    root = Recorder(aima_5_2()).root()
    assert (root.is_leaf(), root.is_max(), root.name, root.path, root.depth, root.move) == \
        (False, True, "A", (), 0, None)
    b = root.children()[0]
    assert (b.is_max(), b.name, b.move, b.depth) == (False, "B", "a1", 1)
    e = b.children()[0]
    assert (e.is_leaf(), e.static(), e.children()) == (True, 3, [])


def test_calls_are_recorded_in_order() -> None:
    rec = Recorder(GameTree.from_nested([[3, 12], [2, 4]]).with_static())
    root = rec.root()
    kids = root.children()
    kids[1].children()[1].static()
    kids[0].children()[0].static()
    kids[0].estimate()
    assert rec.calls == [("children", ()), ("children", (1,)), ("static", (1, 1)),
                         ("children", (0,)), ("static", (0, 0)), ("estimate", (0,))]
    assert rec.evaluated == [(1, 1), (0, 0)]  # estimates are not evaluations
    assert rec.expanded == [(), (1,), (0,)]


def test_a_value_read_twice_in_a_row_counts_once_but_a_second_visit_counts_again() -> None:
    calls = [("static", (0,)), ("static", (0,)), ("estimate", (1,)), ("static", (0,)),
             ("children", ()), ("static", (0,))]
    assert evaluated_in(calls) == [(0,), (0,)]


def test_nodes_are_read_only_and_say_what_to_do_instead() -> None:
    rec = Recorder(aima_5_2())
    root = rec.root()
    with pytest.raises(ReadOnlyTree, match="keep your own dict"):
        root.value = 3
    with pytest.raises(AttributeError):
        del root.name
    assert len(rec.violations) == 2
    with pytest.raises(TypeError, match="come from the grader"):
        SearchNode()


def test_nodes_are_dict_keys_and_sort_by_path() -> None:
    rec = Recorder(aima_5_2())
    a, b = rec.root().children(), rec.root().children()
    values = {a[0]: 3}
    assert values[b[0]] == 3 and a[0] == b[0] and a[0] != a[1]
    assert sorted([(3, a[2]), (3, a[0])]) == [(3, a[0]), (3, a[2])]
    other = Recorder(aima_5_2()).root().children()[0]
    assert other != a[0]  # nodes of another recording are other nodes


def test_reading_an_interior_node_without_a_static_value_names_it() -> None:
    root = Recorder(tree_002()).root()
    # said to a student (review lecturer 2, finding 7), not to someone building a tree
    message = (r"B: static\(\) is only for leaves \(a node with no children\) or nodes at the "
               r"depth limit; this node has children")
    with pytest.raises(TreeError, match=message):
        root.children()[0].static()
    with pytest.raises(TreeError, match=r"B: estimate\(\) is only for leaves"):
        root.children()[0].estimate()


def test_a_looping_search_is_stopped_by_the_call_limit() -> None:
    rec = Recorder(aima_5_2(), limit=100)
    root = rec.root()
    with pytest.raises(TooManyCalls, match="more than 100 calls"):
        while True:
            root.children()
    assert not issubclass(TooManyCalls, Exception)  # `except Exception` cannot swallow it


def test_marks_split_the_calls_into_iterations() -> None:
    rec = Recorder(aima_5_2())
    root = rec.root()
    root.children()
    rec.mark()
    root.children()[0].children()
    rec.mark()
    assert [len(s) for s in rec.segments()] == [1, 2]
