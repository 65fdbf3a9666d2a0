"""Lecture 6's exercises (evaluation functions): their checks and worked answers, merged
into :data:`~minimaxkit.lecture.exercises.EXERCISES`.

>>> ok, message = check_open_lines(lambda board, player: 0)
>>> ok, message.split(" on this board")[0]
(False, '0 open lines for X')

"""

from __future__ import annotations

import numbers
import random
from typing import Any

from ..arena.matches import GAME
from ..games.connect4_board import Board, line_cells
from ._reader import QUICK, Failed, call, number_or_note, plain, short, shown
from .record import Exercise, Result

__all__ = ["EXERCISES_6", "check_open_lines", "check_threats"]


def _boards(n: int = 30, seed: int = 6) -> list[Board]:
    rng, out = random.Random(seed), list[Board]()
    while len(out) < n:
        state, moves = GAME.initial_state(), ""
        for _ in range(rng.randint(4, 30)):
            if not GAME.moves(state):
                break
            m = rng.choice(GAME.moves(state))
            moves, state = moves + str(m), GAME.play(state, m)
        if GAME.moves(state):
            out.append(Board.from_moves(moves))
    return out


def _open_lines(board: Board, player: str) -> int:
    other = "O" if player == "X" else "X"
    return sum(1 for line in board.lines() if other not in line and player in line)


def _open_lines_hint(found: float, want: int, board: Board) -> str:
    """What a wrong count of open lines counted too, where it is one classic slip: the
    empty lines (open in some texts' definition; the lecture's needs one of the player's
    pieces). '' when the count is not that slip's."""
    empty = sum(1 for line in board.lines() if set(line) == {"."})
    if empty and found == want + empty:
        return (f": the extra {empty} are empty lines. Some texts count every line without "
                "the other player's pieces as open, empty ones included; here a line is open "
                "for a player only when it holds at least one of the player's pieces")
    return ""


def _threats(board: Board, player: str) -> set[tuple[int, int]]:
    out = set()
    for line, cells in zip(board.lines(), line_cells(), strict=True):
        if line.count(player) == 3 and line.count(".") == 1:
            out.add(cells[line.index(".")])
    return out


def check_open_lines(open_lines: Any) -> Result:
    """Exercise 6.1: ``open_lines(board, player)`` against the count on 30 boards of random
    games. Refuses:

    * empty lines counted too;
    * lines holding the other player's pieces counted;
    * the other player's open lines;
    * the count typed as a string.
    """
    for board in _boards():
        for player in "XO":
            got = call(open_lines, board, player, call_as="open_lines(board, player)",
                       limit=QUICK)
            want = _open_lines(board, player)
            found, why = number_or_note(got)
            if found is None:
                many = " (the number of lines, len(...))" if isinstance(got, (list, set)) \
                    else ""
                return False, f"{why}{many} (open lines for {player})"
            if found != want:
                return False, (f"{short(got)} open lines for {player} on this board, "
                               f"expected {want}{_open_lines_hint(found, want, board)}"
                               f"\n{board}")
    return True, "right on 30 boards, for both players."


def _cells(got: Any, player: str, board: Board) -> set[tuple[int, int]]:
    """``got`` as a set of ``(column, row)`` cells (a set, list or tuple of pairs), else
    :class:`Failed` saying what came instead."""
    where = f" (for {player} on this board)\n{board}"
    if got is None:
        raise Failed("it returned None: fill in its body and return a set of cells (an "
                     "empty set when there are none)" + where)
    if isinstance(got, numbers.Number):
        instead = "whether there are any" if isinstance(got, bool) else "how many"
        raise Failed(f"expected a set of cells (column, row), got {shown(got)}: the cells "
                     f"themselves, not {instead}" + where)
    try:
        if isinstance(got, (str, bytes)):
            raise TypeError
        items = list(got)  # a set, or any collection of cells: a list, a generator, ...
    except Exception:
        raise Failed(f"expected a set of cells (column, row), got {shown(got)}" + where) \
            from None
    cells = set()
    for cell in items:
        cell = plain(cell)  # numpy's whole numbers as int
        if not (isinstance(cell, (tuple, list)) and len(cell) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
            raise Failed(f"expected cells (column, row), two whole numbers each; among them is "
                         f"{shown(cell)}" + where)
        cells.add((cell[0], cell[1]))
    return cells


def check_threats(threats: Any) -> Result:
    """Exercise 6.2: ``threats(board, player)`` (a set of ``(column, row)``) on 30 boards. Refuses:

    * (row, column) instead of (column, row);
    * lines with two pieces counted as threats;
    * the other player's threats.
    """
    for board in _boards(seed=8):
        for player in "XO":
            got = call(threats, board, player, call_as="threats(board, player)", none_ok=True,
                       limit=QUICK)
            mine, want = _cells(got, player, board), _threats(board, player)
            if mine == want:
                continue
            hint = ""
            if mine == {(r, c) for c, r in want}:
                hint = ": these are (row, column); a cell is (column, row)"
            elif mine and mine in ({(c + 1, r) for c, r in want},
                                   {(c, r + 1) for c, r in want},
                                   {(c + 1, r + 1) for c, r in want}):
                hint = ": columns and rows are counted from 0 (columns 0-6, rows 0-5)"
            return False, (f"{sorted(mine)} for {player}, expected {sorted(want)}{hint} on\n"
                           f"{board}")
    return True, "right on 30 boards, for both players."


EXERCISES_6: dict[str, Exercise] = {
    "open_lines": Exercise(check_open_lines, """\
A line of four is still open to a player when the other player has no piece in it; it
counts as the player's when it holds at least one of their pieces.""", '''\
def open_lines(board, player):
    other = "O" if player == "X" else "X"
    return sum(1 for line in board.lines() if other not in line and player in line)''',
                           ("open_lines",)),
    "threats": Exercise(check_threats, """\
Walk the lines and their cells together: a line with three of the player's pieces and one
empty cell makes that empty cell a threat. A set keeps a cell two lines share once.""", '''\
from minimaxkit.games.connect4_board import line_cells

def threats(board, player):
    found = set()
    for line, cells in zip(board.lines(), line_cells()):
        if line.count(player) == 3 and line.count(".") == 1:
            found.add(cells[line.index(".")])
    return found''', ("threats",)),
}
