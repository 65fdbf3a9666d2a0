"""What a board shows besides its pieces, read from ``game.board(state)`` alone: the kind of
board (a tic-tac-toe grid or Connect Four columns) and the runs of pieces in a row that win.

Both the picture (:mod:`minimaxkit.draw.board`) and its words (:mod:`minimaxkit.draw.alt`)
use these, so they live below both. No matplotlib here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Cell", "WINNING_RUN", "board_kind", "lines_in_a_row"]

Cell = tuple[int, int]
#: How many pieces in a row win, by the kind of board.
WINNING_RUN = {"tictactoe": 3, "connect4": 4}


def board_kind(game: Any, rows: list[list[str]]) -> str:
    """``"tictactoe"`` for a 3 x 3 board without columns to drop into, else ``"connect4"``.

    >>> from minimaxkit.games import ConnectFour, TicTacToe
    >>> g, c = TicTacToe(), ConnectFour(columns=4, rows=3)
    >>> board_kind(g, g.board(g.initial_state())), board_kind(c, c.board(c.initial_state()))
    ('tictactoe', 'connect4')
    """
    square = (len(rows), len(rows[0]) if rows else 0) == (3, 3)
    return "tictactoe" if square and not hasattr(game, "columns") else "connect4"


def lines_in_a_row(rows: list[list[str]], length: int) -> list[tuple[str, Cell, Cell]]:
    """The runs of at least ``length`` equal pieces (``'X'`` or ``'O'``) in a row, a column
    or a diagonal of a board (rows top first): the piece and the run's first and last
    cells as (row, column). A run longer than ``length`` is one run.

    >>> lines_in_a_row([list("XXX"), list("O.O"), list("...")], 3)
    [('X', (0, 0), (0, 2))]
    >>> lines_in_a_row([list("X...."), list("OX..."), list("OOX.."), list("OOOXX")], 3)
    [('X', (0, 0), (3, 3)), ('O', (1, 0), (3, 0)), ('O', (1, 0), (3, 2)), ('O', (3, 0), (3, 2))]
    """
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0

    def at(r: int, c: int) -> str:
        return rows[r][c] if 0 <= r < n_rows and 0 <= c < n_cols else ""

    found = []
    for r in range(n_rows):
        for c in range(n_cols):
            piece = rows[r][c]
            if piece not in ("X", "O"):
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if at(r - dr, c - dc) == piece:
                    continue  # not the start of its run
                k = 1
                while at(r + k * dr, c + k * dc) == piece:
                    k += 1
                if k >= length:
                    found.append((piece, (r, c), (r + (k - 1) * dr, c + (k - 1) * dc)))
    return found
