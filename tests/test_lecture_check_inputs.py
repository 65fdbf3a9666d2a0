"""Every lecture check answers every input with a verdict: values of the wrong kind (a count
where a set belongs, a string, a truth value, a dict), functions that raise, return None or
the wrong kind, take other arguments, and objects whose ``==`` or iteration raise. Each
wrong answer gets a verdict (never an exception) whose message names what came and what
was expected; and right answers written in other reasonable ways pass (lists for pairs,
move names, boards for positions, a key that reads ``game.columns``, numpy numbers).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from minimaxkit.games import ConnectFour
from minimaxkit.lecture import EXERCISES, Verdict, check
from minimaxkit.lecture import exercises as exercises_module


def answer(name: str) -> dict[str, Any]:
    """The names the worked answer of ``name`` defines."""
    ns: dict[str, Any] = {"math": math}
    exec(EXERCISES[name].code, ns)
    return ns


def given(name: str, *args: Any) -> Verdict:
    """check(name, ...) with ``args`` in the exercise's own form (keywords for the tutorial)."""
    if name == "bug_tutorial":
        return check(name, line=args[0], beta_start=args[-1])
    n = len(EXERCISES[name].names) or 1
    return check(name, *(args * n if len(args) == 1 else args))


class Hostile:
    """An answer whose ==, hash, iteration, length, order and truth all raise."""

    def _no(self, *_: Any) -> Any:
        raise RuntimeError("hostile")

    __eq__ = __lt__ = __iter__ = __len__ = __float__ = __bool__ = _no  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "Hostile()"


def raises(*_: Any) -> Any:
    raise ValueError("boom")


def returns(value: Any) -> Any:
    return lambda *_: value


VALUES = [0, False, 3, "abc", 2.5, [], {"a": 1}, Hostile(), b"x"]
FUNCTIONS = [raises, returns(None), returns(0), returns(False), returns(3), returns("x"),
             returns(Hostile()), returns([None, None]), lambda: 1, len]
#: What a message says when the check itself could not read an answer (the last resort):
#: every wrong answer below must get a more specific message than this.
SAFETY_NET = "cannot be checked"
#: The exercises whose answer is a function.
CODE = sorted(name for name, ex in EXERCISES.items() if "def " in ex.code)


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_values_of_the_wrong_kind_get_a_verdict(name: str) -> None:
    for value in VALUES:
        verdict = given(name, value)
        assert isinstance(verdict, Verdict) and not verdict.ok, (name, value, verdict)
        assert verdict.message and SAFETY_NET not in verdict.message, (name, value, verdict)
        if name in CODE:  # a value where a function belongs is named as such
            assert "expected" in verdict.message and "function" in verdict.message, verdict


@pytest.mark.parametrize("name", CODE)
def test_functions_that_fail_or_return_the_wrong_kind_get_a_verdict(name: str) -> None:
    for f in FUNCTIONS:
        verdict = given(name, f)
        assert not verdict.ok and SAFETY_NET not in verdict.message, (name, f, verdict)
    assert "raised ValueError: boom" in given(name, raises).message
    assert "cannot be called as" in given(name, lambda: 1).message
    if name not in NONE_IS_AN_ANSWER:
        assert "returned None" in given(name, returns(None)).message


#: Exercises whose function may rightly return None (no second search needed).
NONE_IS_AN_ANSWER = {"research_window"}


def test_the_checks_are_called_with_the_right_number_of_answers() -> None:
    ns = answer("maxmin")
    verdict = check("maxmin", ns["max_min"])
    assert not verdict.ok and "takes 2 answers (max_min, min_max), given 1" in verdict.message
    assert "check('maxmin', max_min, min_max)" in verdict.message
    verdict = check("km_4_5", 79, 80)
    assert not verdict.ok and "takes 1 answer" in verdict.message
    verdict = check("bug_tutorial", line=11, beta=2)
    assert not verdict.ok and "line, beta_start" in verdict.message


def test_an_answer_no_check_foresaw_still_gets_a_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last resort: a check that fails on an answer still answers with a verdict naming
    what it expected."""
    def fragile(n: Any) -> tuple[bool, str]:
        raise RuntimeError(f"cannot read {n!r}")

    broken = exercises_module.Exercise(fragile, "", expects="a number of leaves")
    monkeypatch.setitem(EXERCISES, "km_4_5", broken)
    verdict = check("km_4_5", 79)
    assert not verdict.ok
    assert verdict.message == ("this answer cannot be checked (RuntimeError: cannot read 79); "
                               "expected a number of leaves")


# ----- the cases the lecturer met ---------------------------------------------------------------
@pytest.mark.parametrize("returned", [0, False, 3])
def test_ex_6_2_a_count_or_a_truth_value_gets_a_verdict(returned: Any) -> None:
    verdict = check("threats", lambda board, player: returned)
    assert not verdict.ok
    first = verdict.message.splitlines()[0]
    assert first.startswith(f"expected a set of cells (column, row), got {returned!r}")
    assert "(for X on this board)" in first and "0 1 2 3 4 5 6" in verdict.message


def test_ex_6_2_cells_in_other_forms_and_near_misses() -> None:
    right = answer("threats")["threats"]
    assert check("threats", lambda b, p: [list(c) for c in right(b, p)]).ok  # lists of lists
    assert check("threats", lambda b, p: (c for c in right(b, p))).ok  # a generator
    assert check("threats", lambda b, p: frozenset(right(b, p))).ok
    swapped = check("threats", lambda b, p: {(r, c) for c, r in right(b, p)})
    assert not swapped.ok and "these are (row, column)" in swapped.message
    from_one = check("threats", lambda b, p: {(c + 1, r) for c, r in right(b, p)})
    assert not from_one.ok and "counted from 0 (columns 0-6" in from_one.message
    none = check("threats", lambda b, p: right(b, p) or None)  # None when there are none
    assert not none.ok and "(an empty set when there are none)" in none.message


def test_ex_4_3_a_key_that_reads_the_real_games_attributes_passes() -> None:
    def reads_columns(game: Any, state: Any, move: Any) -> float:
        closeness = -abs(move - game.columns // 2)
        return closeness if game.is_max(state) else -closeness

    verdict = check("center_first", reads_columns)
    assert verdict.ok and "centre first at MAX and MIN nodes" in verdict.message

    def checks_the_game(game: Any, state: Any, move: Any) -> float:
        assert isinstance(game, ConnectFour) and game.rows == 6
        return reads_columns(game, state, move)

    assert check("center_first", checks_the_game).ok
    evaluates = check("center_first", lambda g, s, m: g.evaluate(g.play(s, m)))
    assert not evaluates.ok and "evaluates positions" in evaluates.message
    text = check("center_first", lambda g, s, m: "centre" if m == 3 else "edge")
    assert not text.ok and "for column 0 it returns 'edge' (a string): a key is a number" \
        in text.message
    no_flip = check("center_first", lambda g, s, m: -abs(m - 3))
    assert not no_flip.ok and "the centre last. MIN searches low keys first" in no_flip.message


def test_ex_3_2_an_off_by_one_depth_is_named_not_the_kits_tree_error() -> None:
    code = EXERCISES["bug_blog"].code.replace("depth == max_depth", "depth + 1 == max_depth")
    ns: dict[str, Any] = {"math": math}
    exec(code, ns)
    verdict = check("bug_blog", ns["minimax_ab"])
    assert not verdict.ok and "TreeError" not in verdict.message
    assert verdict.message == (
        "on the example sheet's tree: it evaluates node E, at depth 2, which is not a leaf: a "
        "search to depth 3 evaluates nodes at depth 3 and leaves, so it stops too early. Is "
        "the depth compared with the limit one step too soon?")
    early = EXERCISES["bug_recitation"].code.replace(
        "if not game.moves(n):", "if not game.moves(n) or len(n.path) == 2:")
    ns = {"math": math}
    exec(early, ns)
    verdict = check("bug_recitation", ns["ab_recitation"])
    assert not verdict.ok and "only leaves are evaluated" in verdict.message


def test_ex_2_3_move_names_and_lists_pass_and_a_bad_move_is_named() -> None:
    best = answer("scored_move")["best"]

    def named(game: Any, state: Any) -> Any:
        value, move = best(game, state)
        return value, None if move is None else game.move_name(move)

    verdict = check("scored_move", named)
    assert verdict.ok and "it returns move names" in verdict.message
    assert check("scored_move", lambda g, s: list(best(g, s))).ok  # [value, move], as in 1.2
    off_board = check("scored_move", lambda g, s: (best(g, s)[0], "z9"))
    assert not off_board.ok and "'z9' (a string) is not a legal move" in off_board.message
    assert "start value" not in off_board.message  # the hint belongs to a move of None


def test_ex_1_3_says_whether_the_start_and_finished_games_count() -> None:
    positions = answer("positions")["positions"]
    no_start = check("positions", lambda g, s: positions(g, s) - {s})
    assert not no_start.ok
    assert no_start.message == (
        "it finds 5477 positions and leaves out the start: the position you start from is "
        "reachable too (in zero moves). With it there are 5478")
    assert "the empty board and finished games included" in check("positions", positions).message
    texts = check("positions", lambda g, s: {g.render(x) for x in positions(g, s)})
    assert texts.ok and "written as texts (game.render)" in texts.message
    strings = check("positions", lambda g, s: {str(x) for x in positions(g, s)})
    assert not strings.ok and "none is a state that game.play returns" in strings.message


# ----- right answers in other forms --------------------------------------------------------------
def test_right_answers_written_other_ways_pass() -> None:
    count = answer("count")["count"]
    assert check("count", lambda g, s: list(count(g, s))).ok
    assert check("count", lambda g, s: tuple(np.int64(x) for x in count(g, s))).ok
    positions = answer("positions")["positions"]
    assert check("positions", lambda g, s: frozenset(positions(g, s))).ok
    from minimaxkit import GameTree
    assert check("binary", ((2, 7), (1, 5))).ok
    assert check("binary", GameTree.from_nested([[2, 7], [1, 0]])).ok
    assert check("best_order", ((3, 12, 8), (2, 4, 6), (2, 14, 5))).ok
    assert check("best_order", GameTree.from_nested([[3, 12, 8], [2, 4, 6], [2, 14, 5]])).ok
    assert check("km_4_5", np.int64(79)).ok and check("km_4_5", Fraction(79)).ok
    assert check("overhead", lambda b, d: Fraction(sum(b ** k for k in range(1, d + 1)),
                                                    b ** d)).ok
    assert check("budget", np.int32(5)).ok
    open_lines = answer("open_lines")["open_lines"]
    assert check("open_lines", lambda b, p: np.int64(open_lines(b, p))).ok
    ns = answer("maxmin")
    assert check("maxmin", lambda x: float(ns["max_min"](x)), ns["min_max"]).ok


def test_numpy_arrays_and_numbers_pass_where_lists_and_ints_do() -> None:
    """Review of issue 27: arrays and numpy's numbers are right answers written another way."""
    assert check("binary", np.array([[2, 7], [1, 9]])).ok
    assert check("binary", [[np.int64(2), np.int64(7)], [np.int64(1), np.float64(9)]]).ok
    count = answer("count")["count"]
    assert check("count", lambda g, s: np.array(count(g, s))).ok
    assert check("best_order", np.array([[3, 12, 8], [2, 4, 6], [2, 14, 5]])).ok
    assert check("best_order", [[np.int64(3), 12, 8], [2, 4, 6], [2, 14, 5]]).ok
    right = answer("threats")["threats"]
    assert check("threats", lambda b, p: {(np.int64(c), np.int64(r)) for c, r in right(b, p)}).ok
    assert check("threats", lambda b, p: np.array(sorted(right(b, p)), dtype=int).reshape(
        -1, 2)).ok


@pytest.mark.parametrize("name", ["count", "positions", "maxmin", "scored_move",
                                  "bug_recitation", "bug_blog", "center_first", "overhead",
                                  "open_lines", "threats"])
def test_a_function_that_gives_no_result_is_told_what_was_expected(name: str) -> None:
    """Review of issue 27: raising, returning None, exit() and an interrupt (the stop
    button) each get a verdict that says what the check takes."""
    def exits(*_: Any) -> Any:
        raise SystemExit

    def interrupted(*_: Any) -> Any:
        raise KeyboardInterrupt

    expects = EXERCISES[name].expects
    for f, said in ((raises, "raised ValueError: boom"), (returns(None), "returned None"),
                    (exits, "called exit()"), (interrupted, "interrupted")):
        verdict = given(name, f)
        assert not verdict.ok and said in verdict.message, (name, verdict)
        if (name, said) == ("threats", "returned None"):  # its own words: None for no cells
            assert "return a set of cells (an empty set when there are none)" in verdict.message
        else:
            assert f"xpected {expects}" in verdict.message.split("\n")[0], (name, verdict)


def test_a_function_that_never_returns_gets_a_verdict() -> None:
    """Review of issue 27: a loop is stopped at the check's time limit (5 s for the quick
    checks of lectures 4 to 6, 60 s for those of lectures 1 to 3) and named."""
    def loops(*_: Any) -> Any:
        while True:
            pass

    for name in ("overhead", "threats"):
        verdict = given(name, loops)
        assert not verdict.ok, verdict
        assert "it ran for over 5 seconds without returning: does it loop?" in verdict.message


def test_the_time_limit_puts_back_an_alarm_already_set() -> None:
    """An alarm set before (pytest-timeout's, say) rings later as it would have, with its own
    handler; one that rings sooner than the limit is left to rule."""
    import signal

    from minimaxkit.lecture._reader import Failed, call

    def loops() -> Any:
        while True:
            pass

    def outer(*_: Any) -> None:
        raise AssertionError("the outer alarm rang")

    previous = signal.signal(signal.SIGALRM, outer)
    saved = signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        with pytest.raises(Failed, match="over 0.2 seconds"):
            call(loops, limit=0.2)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 98 < left < 100 and signal.getsignal(signal.SIGALRM) is outer
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Failed, match="the outer alarm rang"):  # its handler, not ours
            call(loops, limit=5)
    finally:
        signal.signal(signal.SIGALRM, previous)
        signal.setitimer(signal.ITIMER_REAL, *saved)


def test_the_wrong_kind_of_number_is_named_plainly() -> None:
    """Review of issue 27: Ex 5.1's messages for a list, a string and a Decimal."""
    from decimal import Decimal
    said = {"list": "overhead(2, 6) returned [1.0] (a list): expected a number",
            "string": "overhead(2, 6) returned '1.5' (a string): expected a number",
            "decimal": "overhead(2, 6) returned Decimal('1.5') (a Decimal number): expected a "
                       "number"}
    for kind, got in (("list", [1.0]), ("string", "1.5"), ("decimal", Decimal("1.5"))):
        assert check("overhead", returns(got)).message == said[kind]


def test_a_boards_message_keeps_its_lines_in_html() -> None:
    html = check("threats", lambda board, player: 3)._repr_html_()
    assert "<pre" in html and ". . . . . . .\n" in html


def test_a_misnamed_answer_or_exercise_is_named_and_the_shape_gives_nothing_away() -> None:
    v = check("maxmin", max_min=lambda x: 0, minmax=lambda x: 0)
    assert not v.ok and "no answer called 'minmax'" in v.message, v.message
    assert "max_min, min_max" in v.message
    v = check("Count", lambda g, s: 0)  # a misspelt exercise: a verdict, not a KeyError
    assert not v.ok and "no exercise 'Count'" in v.message and "'count'" in v.message
    worked = answer("binary")["binary"]
    for wrong in (3, str(worked), None):
        v = check("binary", wrong) if wrong is not None else check("binary", worked, worked)
        assert str(worked) not in v.message and str(worked[1]) not in v.message, v.message


def test_a_seen_dictionary_of_positions_passes() -> None:
    ns = answer("positions")
    seen = ns["positions"]
    v = check("positions", lambda game, state: dict.fromkeys(seen(game, state), 1))
    assert v.ok, v.message


def test_a_centre_first_key_that_loops_deeper_gets_a_verdict() -> None:
    calls = {"n": 0}

    def deep_loop(game, state, move):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        while calls["n"] > 200:  # right on the six probe positions, loops in the search
            pass
        closeness = -abs(move - 3)
        return closeness if game.is_max(state) else -closeness

    v = check("center_first", deep_loop)
    assert not v.ok and "without returning" in v.message, v.message
