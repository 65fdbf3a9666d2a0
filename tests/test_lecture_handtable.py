"""Lecture 3 reproduces the example sheet's hand trace with the sheet's form of the search
(one-sided fail-hard, ``fail="one-sided"``), row for row.

The example sheet with a hand trace (the course's source on depth-limited minimax and
one-sided fail-hard alpha-beta) traces its 27-leaf tree by hand in a table: α and β for each of the
three levels (MAX, MIN, MAX), the static value of each leaf, "(not used)" for a leaf that
leaves the bound as it was, "(stop)" where a node stops, and "<- v" for a value passed up.
The sheet writes -MAX and MAX for -∞ and ∞. Its table is encoded below as data, one entry
per thing the sheet writes, in the sheet's order; :func:`minimaxkit.lecture.hand_table`
must read the same rows off the kit's one-sided run.
"""

from __future__ import annotations

import math

import pytest

from minimaxkit import alphabeta
from minimaxkit.examples import sheet_binary, sheet_tree
from minimaxkit.lecture import hand_table

INF = math.inf

#: The example sheet's hand table, line by line. A line of the sheet that sets the bounds
#: of several levels at once ("4 4 MAX 4 MAX": α = 4 at the root, then the windows (4, MAX)
#: of the MIN node and of the MAX node below it) is one entry per level here.
SHEET_TABLE = [
    ("window", 0, -INF, INF), ("window", 1, -INF, INF), ("window", 2, -INF, INF),
    ("static", 2, 8, ""),                 # "8 8": α = 8, static 8
    ("static", 2, 7, "not used"),
    ("static", 2, 3, "not used"),
    ("up", 8),                            # "<- 8"
    ("bound", 1, "β", 8, ""), ("window", 2, -INF, 8),      # "8 -MAX 8"
    ("static", 2, 9, "stop"),             # "9 9 (stop)"
    ("up", 9),                            # "<- 9": 9 passes up although β = 8
    ("window", 2, -INF, 8),               # "-MAX 8"
    ("static", 2, 2, ""),
    ("static", 2, 4, ""),
    ("static", 2, 1, "not used"),
    ("up", 4),
    ("bound", 1, "β", 4, ""),             # "4"
    ("up", 4),
    ("bound", 0, "α", 4, ""), ("window", 1, 4, INF), ("window", 2, 4, INF),  # "4 4 MAX 4 MAX"
    ("static", 2, 1, "not used"),
    ("static", 2, 3, "not used"),
    ("static", 2, 5, ""), ("up", 5),      # "5 <- 5": the leaf and its return on one line
    ("bound", 1, "β", 5, ""), ("window", 2, 4, 5),         # "5 4 5"
    ("static", 2, 3, "not used"),
    ("static", 2, 9, "stop"),
    ("up", 9),                            # I passes 9 up with β = 5
    ("window", 2, 4, 5),                  # "4 5"
    ("static", 2, 6, "stop"),
    ("up", 6),                            # J passes 6 up with β = 5
    ("up", 5),
    ("bound", 0, "α", 5, ""), ("window", 1, 5, INF), ("window", 2, 5, INF),  # "5 5 MAX 5 MAX"
    ("static", 2, 1, "not used"),
    ("static", 2, 2, "not used"),
    ("static", 2, 3, "not used"),
    ("up", 5),                            # K fails low: it passes up its α, 5 (its true value is 3)
    ("bound", 1, "β", 5, "stop"),         # "5 5 (stop)": β = 5 = α at the MIN node
]
#: The sheet stops writing at that cut; the search still passes the MIN node's 5 and then
#: the root's value, 5 (written at the top of the sheet's tree), up.
AFTER_THE_SHEET = [("up", 5), ("up", 5)]


def test_the_one_sided_table_is_the_sheets_row_for_row() -> None:
    rows = list(hand_table(alphabeta(sheet_tree(), fail="one-sided")).rows)
    for i, (mine, sheet) in enumerate(zip(rows, SHEET_TABLE, strict=False)):
        assert mine == sheet, f"row {i}: the kit writes {mine}, the sheet {sheet}"
    assert rows == SHEET_TABLE + AFTER_THE_SHEET


def test_fail_soft_differs_only_where_K_fails_low() -> None:
    """Fail-soft visits the same nodes, but K passes up its true value 3, not α = 5."""
    hard = hand_table(alphabeta(sheet_tree(), fail="one-sided")).rows
    soft = hand_table(alphabeta(sheet_tree())).rows
    differ = [(i, h, s) for i, (h, s) in enumerate(zip(hard, soft, strict=True)) if h != s]
    k = len(SHEET_TABLE) - 2
    assert differ == [(k, ("up", 5), ("up", 3)),
                      (k + 1, ("bound", 1, "β", 5, "stop"), ("bound", 1, "β", 3, "stop")),
                      (k + 2, ("up", 5), ("up", 3))]


def test_the_binary_example() -> None:
    """The sheet's binary example: MIN's 1 falls to MAX's 2 and the last leaf is not read."""
    rows = hand_table(alphabeta(sheet_binary(), fail="one-sided")).rows
    assert [r for r in rows if r[0] == "static"] == [
        ("static", 1, 2, ""), ("static", 1, 7, "not used"), ("static", 1, 1, "stop")]


def test_beside_marks_the_rows_that_differ_and_refuses_other_orders() -> None:
    hard = hand_table(alphabeta(sheet_tree(), fail="one-sided"))
    soft = hand_table(alphabeta(sheet_tree()))
    text = hard.beside(soft, ("one-sided fail-hard", "fail-soft"))
    # the three leaves that stop a node (F, I, J: only the sheet's loop writes them into α),
    # K's return, D's cut and D's return
    assert text.count("◀") == 6 and text.splitlines()[0].startswith("one-sided fail-hard")
    with pytest.raises(ValueError, match="different rows"):
        hard.beside(hand_table(alphabeta(sheet_tree(), order="perfect")))


def test_needs_a_trace() -> None:
    with pytest.raises(ValueError, match="trace"):
        hand_table(alphabeta(sheet_tree(), trace=False))
