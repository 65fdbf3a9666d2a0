"""Lecture 6's exercises (evaluation functions): their checks and worked answers, merged
into :data:`~minimaxkit.lecture.exercises.EXERCISES`.

>>> ok, message = check_open_lines(lambda board, player: 0)
>>> ok, message.split(" on this board")[0]
(False, '0 open lines for X')
"""

from __future__ import annotations

import random
from typing import Any

from ..games.connect4_board import Board, line_cells
from ..matches import GAME
from ._reader import number_or_note
from .checks import Failed, Result, _call
from .exercises import Exercise

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


def _threats(board: Board, player: str) -> set[tuple[int, int]]:
    out = set()
    for line, cells in zip(board.lines(), line_cells(), strict=True):
        if line.count(player) == 3 and line.count(".") == 1:
            out.add(cells[line.index(".")])
    return out


def check_open_lines(open_lines: Any) -> Result:
    """``open_lines(board, player)`` against the count on 30 boards of random games."""
    for board in _boards():
        for player in "XO":
            try:
                got = _call(open_lines, board, player)
            except Failed as err:
                return False, str(err)
            want = _open_lines(board, player)
            number, why = number_or_note(got)
            if number is None:
                return False, f"{why} (open lines for {player})"
            if got != want:
                return False, (f"{got!r} open lines for {player} on this board, "
                               f"expected {want}\n{board}")
    return True, "right on 30 boards, for both players."


def check_threats(threats: Any) -> Result:
    """``threats(board, player)`` (a set of ``(column, row)``) on 30 boards."""
    for board in _boards(seed=8):
        for player in "XO":
            try:
                got = _call(threats, board, player)
            except Failed as err:
                return False, str(err)
            want = _threats(board, player)
            if set(got) != want:
                return False, (f"{sorted(got)} for {player}, expected "
                               f"{sorted(want)} on\n{board}")
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
