"""A read-only Connect Four board in the lectures' words: cells, columns, whose move, the
lines of four. Assignment 5's ``evaluate(board)`` receives one of these.

Columns are numbered 0 (left) to ``columns - 1``; rows 0 (bottom) to ``rows - 1``. A cell
holds ``'X'``, ``'O'`` or ``'.'`` (empty). X moves first and is MAX: an evaluation scores a
board from X's side, ``WIN`` (1000) when X has four in a row, ``-WIN`` when O has, 0 for a
full board without four, and strictly between those on a board still in play.

>>> board = Board.from_moves("3324")
>>> print(board)
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . O . . .
. . X X O . .
0 1 2 3 4 5 6
>>> board.cell(3, 0), board.cell(3, 1), board.to_move, board.height(3)
('X', 'O', 'X', 2)
>>> len(board.lines()), board.lines()[0]
(69, '..XX')
>>> sum(1 for line in board.lines() if line.count("X") == 2 and "O" not in line)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .connect4 import ConnectFour, ConnectFourState

__all__ = ["Board", "WIN", "line_cells"]

WIN = 1000  #: the value of a board X has won; -WIN when O has


@lru_cache(maxsize=8)
def line_cells(columns: int = 7, rows: int = 6) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of four on a ``columns`` x ``rows`` board as four ``(column, row)`` cells:
    across, up, and both diagonals (69 lines on 7 x 6), in the order of
    :meth:`Board.lines`: by direction (across, up, up-right, down-right), then by the
    first cell, column by column from the bottom.

    >>> line_cells()[0], len(line_cells()), len(line_cells(4, 4))
    (((0, 0), (1, 0), (2, 0), (3, 0)), 69, 10)
    """
    out = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for c in range(columns):
            for r in range(rows):
                if 0 <= c + 3 * dc < columns and 0 <= r + 3 * dr < rows:
                    out.append(tuple((c + i * dc, r + i * dr) for i in range(4)))
    return tuple(out)


@lru_cache(maxsize=8)
def _line_index(columns: int, rows: int) -> tuple[tuple[int, int, int, int], ...]:
    return tuple(tuple(c * rows + r for c, r in line)  # type: ignore[misc]
                 for line in line_cells(columns, rows))


@lru_cache(maxsize=8)
def _column_texts(rows: int) -> dict[int, str]:
    """A memo of one column's cells as text (bottom first), keyed by ``mask << rows | x``
    of the column's bits (``x`` already masked): filled as columns are met, so that a board
    is built from seven look-ups rather than 42 cell tests."""
    return {}


def _column_text(mask: int, x: int, rows: int) -> str:
    return "".join("." if not mask >> r & 1 else "X" if x >> r & 1 else "O"
                   for r in range(rows))


@lru_cache(maxsize=8)
def _game(columns: int, rows: int) -> ConnectFour | None:
    """The game of this size, made once (None for a size :class:`ConnectFour` does not
    play: a board of it reads its lines instead, and cannot play)."""
    try:
        return ConnectFour(columns=columns, rows=rows)
    except ValueError:
        return None


class Board:
    """A Connect Four position that cannot be changed (every attribute is read-only; a move
    gives a new board with :meth:`play`). Make one with :meth:`from_moves` or
    :meth:`from_state`."""

    __slots__ = ("columns", "rows", "_grid", "_played", "_state", "_lines")
    columns: int
    rows: int
    _grid: str  # cell (c, r) is _grid[c * rows + r]
    _played: int
    _state: ConnectFourState
    _lines: tuple[str, ...]  # made at the first question that needs them

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("make a board with Board.from_moves('3342') or Board.from_state(...)")

    @classmethod
    def from_state(cls, state: Sequence[int], *, columns: int = 7, rows: int = 6) -> Board:
        """The board of a :class:`~minimaxkit.games.ConnectFour` state ``(x_bits, mask,
        moves_played)`` on a ``columns`` x ``rows`` board.

        >>> game = ConnectFour()
        >>> Board.from_state(game.state_from_moves("33")).cell(3, 1)
        'O'
        """
        x_bits, mask, played = (int(v) for v in state)
        height, full = rows + 1, (1 << rows) - 1
        texts = _column_texts(rows)
        cells = []
        for c in range(columns):
            m = mask >> c * height & full
            key = m << rows | x_bits >> c * height & m
            try:
                cells.append(texts[key])
            except KeyError:
                cells.append(texts.setdefault(key, _column_text(m, key & full, rows)))
        self = object.__new__(cls)
        for name, value in (("columns", columns), ("rows", rows), ("_grid", "".join(cells)),
                            ("_played", played), ("_state", (x_bits, mask, played))):
            object.__setattr__(self, name, value)
        return self

    @classmethod
    def from_moves(cls, moves: str | Sequence[int] = "", *, columns: int = 7,
                   rows: int = 6) -> Board:
        """The board after ``moves`` (column digits, or a list of columns) from the empty
        board; a bad move raises ``ValueError`` naming its index.

        >>> Board.from_moves([3, 3, 4]).to_move
        'O'
        >>> Board.from_moves("37")
        Traceback (most recent call last):
        ...
        ValueError: move index 1: column 7 is not in 0..6
        """
        game = _game(columns, rows) or ConnectFour(columns=columns, rows=rows)  # (raises)
        return cls.from_state(game.state_from_moves(moves), columns=columns, rows=rows)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a board is read-only: cannot set {name!r}; "
                             "board.play(column) gives the board after a move")

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    # ----- what is on the board ----------------------------------------------------------
    def cell(self, column: int, row: int) -> str:
        """``'X'``, ``'O'`` or ``'.'`` at ``column`` (0 = left) and ``row`` (0 = bottom).

        >>> Board.from_moves("3").cell(3, 0), Board.from_moves("3").cell(3, 1)
        ('X', '.')
        """
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            raise IndexError(f"no cell at column {column}, row {row} on a "
                             f"{self.columns} x {self.rows} board")
        return self._grid[column * self.rows + row]

    def column(self, column: int) -> str:
        """The cells of one column from the bottom up, as a string.

        >>> Board.from_moves("3353").column(3)
        'XOO...'
        """
        if not 0 <= column < self.columns:
            raise IndexError(f"no column {column}: columns are 0..{self.columns - 1}")
        return self._grid[column * self.rows:(column + 1) * self.rows]

    def height(self, column: int) -> int:
        """How many pieces are in ``column``.

        >>> Board.from_moves("3353").height(3)
        3
        """
        return self.rows - self.column(column).count(".")

    @property
    def to_move(self) -> str:
        """Whose move it is: ``'X'`` (MAX) after an even number of moves, else ``'O'``."""
        return "O" if self._played & 1 else "X"

    @property
    def moves_played(self) -> int:
        """How many pieces are on the board."""
        return self._played

    def lines(self) -> list[str]:
        """Every line of four as a 4-character string of its cells, in the order of
        :func:`line_cells`: ``'XX.O'``, ``'....'``, ...

        >>> [ln for ln in Board.from_moves("3333").lines() if ln.count(".") < 3][:3]
        ['XOXO', 'OXO.', 'XO..']
        """
        return list(self._line_texts())

    def _line_texts(self) -> tuple[str, ...]:
        try:
            return self._lines
        except AttributeError:
            g = self._grid
            found = tuple([g[a] + g[b] + g[c] + g[d]
                           for a, b, c, d in _line_index(self.columns, self.rows)])
            object.__setattr__(self, "_lines", found)
            return found

    def legal_moves(self) -> list[int]:
        """The columns a piece can be dropped into, left to right; none once the game is
        over.

        >>> Board.from_moves("333333").legal_moves()
        [0, 1, 2, 4, 5, 6]
        """
        if self.is_over():
            return []
        return [c for c in range(self.columns) if self._grid[(c + 1) * self.rows - 1] == "."]

    def winner(self) -> str | None:
        """``'X'`` or ``'O'`` if that player has four in a row, else ``None``.

        >>> Board.from_moves("3434343").winner()
        'X'
        """
        game = _game(self.columns, self.rows)
        if game is not None:  # a bitboard test first: no lines needed
            x_bits, mask, _ = self._state
            mask &= game.board_mask
            x_four, o_four = game.has_four(x_bits & mask), game.has_four(mask & ~x_bits)
            if x_four != o_four:  # one of them: that one (both: the first line says)
                return "X" if x_four else "O"
            if not x_four:
                return None
        for line in self._line_texts():
            if line in ("XXXX", "OOOO"):
                return line[0]
        return None

    def is_full(self) -> bool:
        """True when every cell holds a piece."""
        return self._played == self.columns * self.rows

    def is_over(self) -> bool:
        """True when someone has four in a row or the board is full."""
        return self.is_full() or self.winner() is not None

    # ----- new boards --------------------------------------------------------------------
    def play(self, column: int) -> Board:
        """The board after the player to move drops a piece into ``column``.

        >>> Board.from_moves("3").play(3).column(3)
        'XO....'
        """
        game = _game(self.columns, self.rows) or ConnectFour(columns=self.columns,
                                                             rows=self.rows)  # (raises)
        if column not in self.legal_moves():
            raise ValueError(f"column {column!r} is not a legal move here; legal: "
                             f"{self.legal_moves()}")
        return Board.from_state(game.play(self._state, column), columns=self.columns,
                                rows=self.rows)

    def mirror(self) -> Board:
        """The board reflected left to right (column c becomes ``columns - 1 - c``), the
        same player to move. A good evaluation gives it the same value.

        >>> Board.from_moves("01").mirror().column(6), Board.from_moves("01").mirror().to_move
        ('X.....', 'X')
        """
        return Board.from_state(mirror_state(self._state, self.columns, self.rows),
                                columns=self.columns, rows=self.rows)

    # ----- identity ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and (self._state, self.columns, self.rows) == (
            other._state, other.columns, other.rows)

    def __hash__(self) -> int:
        return hash((self._state, self.columns, self.rows))

    def __str__(self) -> str:
        rows = [" ".join(self.cell(c, r) for c in range(self.columns))
                for r in reversed(range(self.rows))]
        return "\n".join([*rows, " ".join(str(c % 10) for c in range(self.columns))])

    def __repr__(self) -> str:
        return f"<Board, {self._played} moves played, {self.to_move} to move>"


def mirror_state(state: Sequence[int], columns: int = 7, rows: int = 6) -> ConnectFourState:
    """A :class:`~minimaxkit.games.ConnectFour` state reflected left to right.

    >>> game = ConnectFour()
    >>> mirror_state(game.state_from_moves("01")) == game.state_from_moves("65")
    True
    """
    x_bits, mask, played = (int(v) for v in state)
    height = rows + 1
    col = (1 << height) - 1
    new_x = new_mask = 0
    for c in range(columns):
        shift_from, shift_to = c * height, (columns - 1 - c) * height
        new_x |= ((x_bits >> shift_from) & col) << shift_to
        new_mask |= ((mask >> shift_from) & col) << shift_to
    return (new_x, new_mask, played)
