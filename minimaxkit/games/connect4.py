"""Connect Four on a bitboard: drop pieces into columns, four in a row wins.

The first player, X, is MAX. A board is ``columns`` wide and ``rows`` high (7 x 6 by
default; smaller boards such as 4 x 4 keep the game tree small); four in a row always wins.

**State.** A tuple ``(x_bits, mask, moves_played)`` of ints. The board is stored column by
column with ``rows + 1`` bits per column, bottom cell first: the cell in column ``c`` and row
``r`` (0 is the bottom row) is bit ``c * (rows + 1) + r``. ``mask`` has a bit for every
piece, ``x_bits`` for X's pieces (so O's pieces are ``mask ^ x_bits``), and the spare top
bit of each column keeps four-in-a-row tests by shifting from wrapping into the next column.
X is to move when ``moves_played`` is even.

>>> game = ConnectFour(columns=5, rows=4)
>>> state = game.state_from_moves("2213")
>>> print(game.render(state))
. . . . .
. . . . .
. . O . .
. X X O .
0 1 2 3 4
>>> game.moves(state), game.is_max(state)
((0, 1, 2, 3, 4), True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["ConnectFour"]

ConnectFourState = tuple[int, int, int]

# Static evaluation weights (see ConnectFour's docstring).
_THREE, _TWO, _CENTER, _SQUASH = 5, 2, 3, 20


class ConnectFour:
    """Connect Four as a :class:`~minimaxkit.game.Game`; X moves first and is MAX.

    Moves are column indices ``0 .. columns - 1`` from left to right, in that natural order,
    leaving out full columns; ``moves`` is empty once someone has four in a row or the board
    is full. (Trying the center columns first is a good *ordering* for alpha-beta; the
    search's ``order=`` option provides that, the game does not.) A win is ``+win_value``
    for X, ``-win_value`` for O, a full board without four in a row is 0.

    The static evaluation of a non-terminal state counts *open windows*: the sets of four
    cells in a line (across, up, or either diagonal) holding pieces of one player only.
    With ``E = 5 * (threes(X) - threes(O)) + 2 * (twos(X) - twos(O)) + 3 * (center(X) -
    center(O))``, where ``threes(P)`` counts windows with 3 pieces of ``P`` and no other
    piece, ``twos(P)`` those with 2, and ``center(P)`` P's pieces in the middle column (both
    middle columns when ``columns`` is even), the evaluation is ``scale * E / (|E| + 20)``:
    squashed strictly inside ``(-scale, scale)`` with ``scale = win_value``, or 1 when
    ``win_value`` is infinite.

    >>> game = ConnectFour()
    >>> game
    ConnectFour()
    >>> game.moves(game.initial_state())
    (0, 1, 2, 3, 4, 5, 6)
    >>> game.evaluate(game.state_from_moves("3"))  # E = 3: one center piece
    0.13043478260869565
    >>> won = game.state_from_moves("3232323")
    >>> game.winner(won), game.moves(won), game.evaluate(won)
    ('X', (), 1.0)
    """

    def __init__(self, *, columns: int = 7, rows: int = 6, win_value: float = 1.0) -> None:
        for name, size in (("columns", columns), ("rows", rows)):
            if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 16:
                raise ValueError(f"{name} must be an int from 1 to 16, got {size!r}")
        if max(columns, rows) < 4:
            raise ValueError(
                f"a {columns} x {rows} board has no room for four in a row; "
                "columns or rows must be at least 4"
            )
        if isinstance(win_value, bool) or not isinstance(win_value, int | float):
            raise ValueError(f"win_value must be a positive number, got {win_value!r}")
        if not win_value > 0:  # also rejects nan
            raise ValueError(f"win_value must be positive, got {win_value!r}")
        self.columns, self.rows = columns, rows
        self.win_value = float(win_value)
        self.value_range: tuple[float, float] = (-self.win_value, self.win_value)
        self._scale = 1.0 if math.isinf(self.win_value) else self.win_value
        self._cells = columns * rows
        height = rows + 1
        self._bottom = {c: 1 << (c * height) for c in range(columns)}
        self._top = {c: 1 << (c * height + rows - 1) for c in range(columns)}
        self._tops = sum(self._top.values())
        column_bits = (1 << rows) - 1
        #: the bit of every cell of the board (the layout's spare row of each column left out)
        self.board_mask = sum(column_bits << (c * height) for c in range(columns))
        middle = {(columns - 1) // 2, columns // 2}
        self._center = sum(column_bits << (c * height) for c in middle)
        # Directions as bit shifts: up, right, up-right, down-right.
        self._shifts = (1, height, height + 1, height - 1)
        # For each direction, the cells where a window of four in that direction starts.
        steps = ((0, 1), (1, 0), (1, 1), (1, -1))
        self._windows: list[tuple[int, int]] = []
        for shift, (dc, dr) in zip(self._shifts, steps, strict=True):
            starts = 0
            for c in range(columns):
                for r in range(rows):
                    if 0 <= c + 3 * dc < columns and 0 <= r + 3 * dr < rows:
                        starts |= 1 << (c * height + r)
            if starts:
                self._windows.append((shift, starts))
        self._move_lists: dict[int, tuple[int, ...]] = {}  # full-column bits -> moves

    def __repr__(self) -> str:
        args = []
        if self.columns != 7:
            args.append(f"columns={self.columns}")
        if self.rows != 6:
            args.append(f"rows={self.rows}")
        if math.isinf(self.win_value):
            args.append("win_value=float('inf')")
        elif self.win_value != 1.0:
            args.append(f"win_value={self.win_value!r}")
        return f"ConnectFour({', '.join(args)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConnectFour):
            return NotImplemented
        return (self.columns, self.rows, self.win_value) == (
            other.columns,
            other.rows,
            other.win_value,
        )

    def __hash__(self) -> int:
        return hash((ConnectFour, self.columns, self.rows, self.win_value))

    # --- the protocol ------------------------------------------------------------------

    def initial_state(self) -> ConnectFourState:
        """The empty board, X to move.

        >>> ConnectFour().initial_state()
        (0, 0, 0)
        """
        return (0, 0, 0)

    def moves(self, state: ConnectFourState) -> tuple[int, ...]:
        """The columns that are not full, left to right; ``()`` once the game is over.

        >>> game = ConnectFour(columns=4, rows=4)
        >>> game.moves(game.state_from_moves("1111"))
        (0, 2, 3)
        """
        _, mask, played = state
        if played == self._cells or self._last_mover_won(state):
            return ()
        full = mask & self._tops
        try:
            return self._move_lists[full]
        except KeyError:
            found = tuple(c for c in range(self.columns) if not full & self._top[c])
            self._move_lists[full] = found
            return found

    def play(self, state: ConnectFourState, move: int) -> ConnectFourState:
        """The state after the player to move drops a piece into column ``move``.

        Raises ``ValueError`` for a column that does not exist or is full. (It does not
        check whether the game is already over: ``moves`` is empty there.)

        >>> game = ConnectFour(columns=4, rows=4)
        >>> game.play(game.initial_state(), 2)
        (1024, 1024, 1)
        >>> game.play(game.state_from_moves("2222"), 2)
        Traceback (most recent call last):
        ...
        ValueError: column 2 is full
        """
        x_bits, mask, played = state
        try:
            bottom = self._bottom[move]
        except (KeyError, TypeError):
            raise ValueError(
                f"a move is a column index 0..{self.columns - 1}, got {move!r}"
            ) from None
        if mask & self._top[move]:
            raise ValueError(f"column {move} is full")
        new_mask = mask | (mask + bottom)
        if played & 1:
            return (x_bits, new_mask, played + 1)
        return (x_bits | (new_mask ^ mask), new_mask, played + 1)

    def is_max(self, state: ConnectFourState) -> bool:
        """True when X (MAX) is to move, i.e. an even number of moves has been played.

        >>> ConnectFour().is_max((0, 0, 0))
        True
        """
        return not state[2] & 1

    def evaluate(self, state: ConnectFourState) -> float:
        """``±win_value`` or 0 at the end of the game, else the open-window evaluation.

        >>> game = ConnectFour(columns=4, rows=4)
        >>> game.evaluate(game.state_from_moves("0011223"))
        1.0
        >>> game.evaluate(game.state_from_moves("0110"))  # E = 2: X's diagonal pair, 2 / 22
        0.09090909090909091
        """
        x_bits, mask, played = state
        if self._last_mover_won(state):
            return self.win_value if played & 1 else -self.win_value
        if played == self._cells:
            return 0.0
        threes, twos, center = self.features(state)
        score = _THREE * threes + _TWO * twos + _CENTER * center
        return self._scale * score / (abs(score) + _SQUASH)

    def features(self, state: ConnectFourState) -> tuple[int, int, int]:
        """What the static evaluation counts, each X's count minus O's: open windows
        holding three pieces, open windows holding two, pieces in the center column(s).
        (Counted on any state; :meth:`evaluate` uses them only while the game is on.)

        >>> game = ConnectFour()
        >>> game.features(game.state_from_moves("3"))   # one center piece
        (0, 0, 1)
        >>> game.features(game.state_from_moves("3343"))  # X: 3 twos across; O: 1 up
        (0, 2, -1)
        """
        x_bits, mask, _ = state
        o_bits = mask ^ x_bits
        center, board = self._center, self.board_mask
        counts = [0, 0]
        for mine, free, sign in ((x_bits, board ^ o_bits, 1), (o_bits, board ^ x_bits, -1)):
            for shift, starts in self._windows:
                # the windows starting here whose four cells hold none of the other's pieces
                open_ = starts & free & free >> shift & free >> 2 * shift & free >> 3 * shift
                if not open_:
                    continue
                b1, b2, b3 = mine >> shift, mine >> 2 * shift, mine >> 3 * shift
                both_a, both_b = mine & b1, b2 & b3
                any_a, any_b = mine | b1, b2 | b3
                # no window holds four pieces: the game would be over
                three = ((both_a & any_b) | (both_b & any_a)) & open_
                two = (both_a | both_b | (any_a & any_b)) & open_ & ~three
                counts[0] += sign * three.bit_count()
                counts[1] += sign * two.bit_count()
        return (counts[0], counts[1],
                (x_bits & center).bit_count() - (o_bits & center).bit_count())

    def _last_mover_won(self, state: ConnectFourState) -> bool:
        x_bits, mask, played = state
        return self.has_four(x_bits if played & 1 else mask ^ x_bits)

    def has_four(self, bits: int) -> bool:
        """True when the cells whose bits are set in ``bits`` hold four in a row."""
        for shift in self._shifts:
            pairs = bits & bits >> shift
            if pairs & pairs >> 2 * shift:
                return True
        return False

    # --- helpers -----------------------------------------------------------------------

    def board(self, state: ConnectFourState) -> list[list[str]]:
        """The board as rows of ``'X'``, ``'O'`` or ``'.'``, top row first.

        >>> ConnectFour(columns=4, rows=4).board(ConnectFour(columns=4, rows=4).play((0, 0, 0), 1))
        [['.', '.', '.', '.'], ['.', '.', '.', '.'], ['.', '.', '.', '.'], ['.', 'X', '.', '.']]
        """
        x_bits, mask, _ = state
        height = self.rows + 1

        def cell(c: int, r: int) -> str:
            bit = 1 << (c * height + r)
            return "." if not mask & bit else "X" if x_bits & bit else "O"

        return [[cell(c, r) for c in range(self.columns)] for r in reversed(range(self.rows))]

    def render(self, state: ConnectFourState) -> str:
        """The board as text, top row first, cells apart, column indices (mod 10) below.

        >>> game = ConnectFour(columns=4, rows=4)
        >>> print(game.render(game.state_from_moves("1223")))
        . . . .
        . . . .
        . . X .
        . X O O
        0 1 2 3
        """
        lines = [" ".join(row) for row in self.board(state)]
        lines.append(" ".join(str(c % 10) for c in range(self.columns)))
        return "\n".join(lines)

    def state_from_moves(self, moves: str | Sequence[int]) -> ConnectFourState:
        """The state after playing ``moves`` from the empty board: a string of column digits
        such as ``"3344"`` or a sequence of column indices.

        Raises ``ValueError`` naming the index of the first bad move: not a column, a full
        column, or a move after the game is over.

        >>> game = ConnectFour(columns=4, rows=4)
        >>> game.state_from_moves("0101") == game.state_from_moves([0, 1, 0, 1])
        True
        >>> game.state_from_moves("01010101")
        Traceback (most recent call last):
        ...
        ValueError: move index 7 (column 1): the game is already over, X has four in a row
        """
        state = self.initial_state()
        for index, move in enumerate(moves):
            column: object = move
            if isinstance(move, str):
                column = int(move) if move.isdigit() else move
            if isinstance(column, bool) or not isinstance(column, int):
                raise ValueError(f"move index {index}: {move!r} is not a column")
            if not 0 <= column < self.columns:
                raise ValueError(
                    f"move index {index}: column {column} is not in 0..{self.columns - 1}"
                )
            if not self.moves(state):
                winner = self.winner(state)
                why = f"{winner} has four in a row" if winner else "the board is full"
                raise ValueError(
                    f"move index {index} (column {column}): the game is already over, {why}"
                )
            if state[1] & self._top[column]:
                raise ValueError(f"move index {index}: column {column} is full")
            state = self.play(state, column)
        return state

    def winner(self, state: ConnectFourState) -> str | None:
        """``'X'`` or ``'O'`` if that player has four in a row, else ``None``.

        >>> game = ConnectFour()
        >>> game.winner(game.state_from_moves("0102030")), game.winner(game.initial_state())
        ('X', None)
        """
        x_bits, mask, _ = state
        if self.has_four(x_bits):
            return "X"
        if self.has_four(mask ^ x_bits):
            return "O"
        return None
