"""What students use before the tests, and how it behaves while nbgrader runs a notebook."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import minimaxkit
from minimaxkit.examples import aima_5_2
from minimaxkit.grading import describe, explore, node_of, run_contained, try_on
from minimaxkit.grading.api.explore import test_tree as visible_tree


def leftmost(node: Any) -> Any:
    return node.static() if node.is_leaf() else leftmost(node.children()[0])


def test_try_on_shows_what_a_function_evaluated() -> None:
    trial = try_on(leftmost, aima_5_2())
    assert trial.ok and trial.evaluated == ["E"]
    assert str(trial).splitlines()[0] == "returned 3"


def test_try_on_contains_a_loop() -> None:
    def loop(node: Any) -> None:
        while True:
            pass
    trial = try_on(loop, aima_5_2(), timeout=0.2)
    assert not trial.ok and "did not finish" in str(trial)


def test_try_on_names_a_callable_object_that_failed() -> None:
    """A callable with no ``__name__`` (a functools.partial, an object with ``__call__``)
    that raises is reported, not an AttributeError of try_on's own."""
    import functools

    def broken(node: Any, extra: int) -> None:
        raise ValueError("no")

    trial = try_on(functools.partial(broken, extra=1), aima_5_2())
    assert not trial.ok and str(trial).startswith("partial ") and "ValueError" in str(trial)


def test_nothing_runs_for_the_student_while_nbgrader_runs_the_notebook(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert "skipped" in str(try_on(leftmost, aima_5_2()))
    tree = aima_5_2()
    # no widget, but the picture of the finished search, which the feedback page shows
    shown = explore(tree, minimaxkit.alphabeta(tree).trace)
    assert type(shown).__name__ == "SvgPicture"
    bundle = shown._repr_mimebundle_()
    assert bundle["text/html"].startswith(
        '<img class="mmk-picture" alt="Search tree at step 17 of 17. Search done: the root A')
    assert shown.svg.count('class="node ') == 13  # AIMA's 13 nodes
    assert 'class="edge pruned"' in shown.svg  # the search's cuts drawn


def test_explore_gives_a_widget_or_a_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("minimaxkit.draw")
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    tree = aima_5_2()
    shown = explore(tree, minimaxkit.alphabeta(tree).trace)
    assert type(shown).__name__ in ("StepWidget", "SvgPicture")
    assert type(explore(tree)).__name__ == "SvgPicture"


def test_node_of_and_the_visible_test_trees(tmp_path: Any) -> None:
    root = node_of(aima_5_2())
    assert leftmost(root) == 3
    released = Path(__file__).resolve().parents[2] / "assignments" / "a2_alphabeta"
    assert len(visible_tree("sheet", here=released).leaves()) == 27
    with pytest.raises(KeyError, match="the visible ones are"):
        visible_tree("nope", here=released)


def test_without_fork_the_same_rules_apply_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "fork")

    def cheat(node: Any) -> Any:
        print("hello")
        return minimaxkit.alphabeta(aima_5_2()).value
    out = run_contained(lambda rec: describe(cheat(rec.root())), aima_5_2())
    assert out.status == "reference" and out.printed == "hello\n"
    assert minimaxkit.alphabeta(aima_5_2()).value == 3  # the guard is undone
    out = run_contained(lambda rec: describe(leftmost(rec.root())), aima_5_2())
    assert out.ok and out.result == {"number": 3}
