"""Lecture exercises 2.1 and 2.3 in the course-wide conventions: the node's questions are
methods (the slip is named), the best move comes back as (value, move), and the kit's own
search does not count as an answer."""

from __future__ import annotations

from typing import Any

from minimaxkit import minimax
from minimaxkit.lecture import EXERCISES, check


def answer(name: str) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(EXERCISES[name].code, ns)
    return ns


def test_ex_2_1_takes_methods() -> None:
    ns = answer("maxmin")
    assert check("maxmin", ns["max_min"], ns["min_max"]).ok


def test_ex_2_1_names_the_attribute_slip() -> None:
    def max_min(x: Any) -> Any:
        return x.static() if x.is_leaf else max(min_max(y) for y in x.children())

    def min_max(x: Any) -> Any:
        return x.static() if x.is_leaf else min(max_min(y) for y in x.children())

    v = check("maxmin", max_min, min_max)
    assert not v.ok and "write node.is_leaf() with parentheses" in v.message


def test_ex_2_3_returns_value_then_move() -> None:
    best = answer("scored_move")["best"]
    assert check("scored_move", best).ok

    def swapped(game: Any, state: Any) -> Any:
        value, move = best(game, state)
        return move, value

    v = check("scored_move", swapped)
    assert not v.ok and "return (value, move), value first" in v.message


def test_ex_2_3_refuses_the_kits_search() -> None:
    def shortcut(game: Any, state: Any) -> Any:
        r = minimax(game, state, trace=False)
        return r.value, r.move

    v = check("scored_move", shortcut)
    assert not v.ok and "calls the kit's own search" in v.message


def test_ex_5_2_answer_states_the_cumulative_rule() -> None:
    assert "cumulative" in EXERCISES["budget"].text
