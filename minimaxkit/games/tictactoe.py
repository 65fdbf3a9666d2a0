"""Tic-tac-toe on an int bitboard, fast enough to search the whole game tree.

X is MAX and moves first. A won board scores ``+win_value`` (X has three in a row) or
``-win_value`` (O has), a full board without a line scores 0: 1 / -1 / 0 as in the minimax
notes, or +inf / -inf / 0 with ``win_value=math.inf``.

**State.** One ``int``: bits 0-8 are X's cells, bits 9-17 are O's cells and bit 18 is set
when O is to move. Cell ``i`` is row ``i // 3``, column ``i % 3`` (row-major, top left is 0).
Ints are immutable and hashable, so states can be dict keys (transposition tables).

**Speed.** The search core calls ``moves``, ``play``, ``is_max`` and ``evaluate`` a few times
per node, so each call is one or two dict look-ups (about 50-80 ns). The move tuples,
children and static values are memoised per *state* (there are 5,478 reachable states);
nothing about *search results* is cached.

>>> game = TicTacToe()
>>> state = game.play(game.play(game.initial_state(), 4), 0)
>>> print(game.render(state))
O..
.X.
...
>>> game.moves(state)
(1, 2, 3, 5, 6, 7, 8)
>>> game.is_max(state), game.evaluate(state)
(True, 0.1111111111111111)
"""

from __future__ import annotations

import math

__all__ = ["TicTacToe"]

_TURN = 1 << 18  # set when O is to move
_FULL = 0x1FF  # nine cells
#: The eight lines as 9-bit masks: rows, columns, diagonals.
_LINES: tuple[int, ...] = tuple(
    sum(1 << c for c in cells)
    for cells in (
        (0, 1, 2), (3, 4, 5), (6, 7, 8),
        (0, 3, 6), (1, 4, 7), (2, 5, 8),
        (0, 4, 8), (2, 4, 6),
    )
)  # fmt: skip


def _has_line(bits: int) -> bool:
    return any(bits & line == line for line in _LINES)


def _open_lines(opponent: int) -> int:
    """How many lines hold none of the opponent's pieces."""
    return sum(1 for line in _LINES if not opponent & line)


class TicTacToe:
    """Tic-tac-toe as a :class:`~minimaxkit.game.Game`; X is MAX and moves first.

    Moves are cell indices 0..8, row-major from the top left, listed in ascending order.
    ``moves`` is empty at a won or full board.

    The static evaluation of a non-terminal state is ``scale * (open(X) - open(O)) / 9``,
    where ``open(P)`` counts the 8 lines that hold none of the other player's pieces and
    ``scale`` is ``win_value`` (or 1 when ``win_value`` is infinite). Since
    ``|open(X) - open(O)| <= 8``, it lies strictly inside ``(-win_value, win_value)``.

    >>> game = TicTacToe()
    >>> game.value_range
    (-1, 1)
    >>> root = game.initial_state()
    >>> game.moves(root), game.is_max(root), game.evaluate(root)
    ((0, 1, 2, 3, 4, 5, 6, 7, 8), True, 0.0)
    >>> won = game.state_from_text("XXX OO. ...")
    >>> game.moves(won), game.evaluate(won), game.winner(won)
    ((), 1, 'X')
    >>> TicTacToe(win_value=math.inf).evaluate(won)
    inf
    """

    def __init__(self, *, win_value: float = 1) -> None:
        if isinstance(win_value, bool) or not isinstance(win_value, int | float):
            raise ValueError(f"win_value must be a positive number, got {win_value!r}")
        if not win_value > 0:  # also rejects nan
            raise ValueError(f"win_value must be positive, got {win_value!r}")
        self.win_value = win_value  # an int stays an int: 1 / -1 / 0 as in the tutorial
        self.value_range: tuple[float, float] = (-self.win_value, self.win_value)
        self._scale = 1.0 if math.isinf(self.win_value) else self.win_value
        # Per-state memos, filled on first sight of a state.
        self._moves: dict[int, tuple[int, ...]] = {}
        self._children: dict[int, dict[int, int]] = {}
        self._values: dict[int, float] = {}

    def __repr__(self) -> str:
        if self.win_value == 1.0:
            return "TicTacToe()"
        if math.isinf(self.win_value):
            return "TicTacToe(win_value=float('inf'))"
        return f"TicTacToe(win_value={self.win_value!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TicTacToe):
            return NotImplemented
        return self.win_value == other.win_value

    def __hash__(self) -> int:
        return hash((TicTacToe, self.win_value))

    # --- the protocol: hot paths are one or two dict look-ups -----------------------------

    def initial_state(self) -> int:
        """The empty board, X to move.

        >>> TicTacToe().initial_state()
        0
        """
        return 0

    def moves(self, state: int) -> tuple[int, ...]:
        """The empty cells in ascending order; ``()`` at a won or full board.

        >>> game = TicTacToe()
        >>> game.moves(game.state_from_text("XO. ... ..."))
        (2, 3, 4, 5, 6, 7, 8)
        """
        try:
            return self._moves[state]
        except KeyError:
            self._expand(state)
            return self._moves[state]

    def play(self, state: int, move: int) -> int:
        """The state after the player to move takes cell ``move``.

        Raises ``ValueError`` if ``move`` is not in ``moves(state)``.

        >>> game = TicTacToe()
        >>> print(game.render(game.play(game.initial_state(), 0)))
        X..
        ...
        ...
        >>> game.play(game.play(game.initial_state(), 4), 4)
        Traceback (most recent call last):
        ...
        ValueError: move 4 is not legal here; legal moves: (0, 1, 2, 3, 5, 6, 7, 8)
        """
        try:
            return self._children[state][move]
        except KeyError:
            self._expand(state)
            children = self._children[state]
            if move not in children:
                raise ValueError(
                    f"move {move!r} is not legal here; legal moves: {tuple(children)}"
                ) from None
            return children[move]

    def is_max(self, state: int) -> bool:
        """True when X (MAX) is to move.

        >>> game = TicTacToe()
        >>> game.is_max(0), game.is_max(game.play(0, 0))
        (True, False)
        """
        return state < _TURN

    def evaluate(self, state: int) -> float:
        """MAX's view: ``±win_value`` / 0 at a terminal state, else the open-lines evaluation.

        >>> game = TicTacToe()
        >>> game.evaluate(game.state_from_text("X.. ... ..."))  # (8 - 5) / 9
        0.3333333333333333
        >>> game.evaluate(game.state_from_text("OOO XX. X.."))
        -1
        """
        try:
            return self._values[state]
        except KeyError:
            self._expand(state)
            return self._values[state]

    def _expand(self, state: int) -> None:
        """Check ``state`` and fill the memos for it (runs once per state)."""
        if (
            isinstance(state, bool)
            or not isinstance(state, int)
            or not 0 <= state < 2 * _TURN
            or (state & _FULL) & (state >> 9 & _FULL)
            or (state >= _TURN) != ((state & _FULL).bit_count() > (state >> 9 & _FULL).bit_count())
        ):
            raise ValueError(f"{state!r} is not a tic-tac-toe state of this encoding")
        x, o = state & _FULL, state >> 9 & _FULL
        x_won, o_won = _has_line(x), _has_line(o)
        children: dict[int, int] = {}
        if not (x_won or o_won):
            x_to_move = state < _TURN
            for cell in range(9):
                if not (x | o) >> cell & 1:
                    children[cell] = (
                        state | 1 << cell | _TURN
                        if x_to_move
                        else (state | 1 << (cell + 9)) ^ _TURN
                    )
        if x_won:
            value = self.win_value
        elif o_won:
            value = -self.win_value
        elif not children:
            value = 0
        else:
            value = self._scale * (_open_lines(o) - _open_lines(x)) / 9
        self._children[state] = children
        self._moves[state] = tuple(children)
        self._values[state] = value

    # --- helpers ------------------------------------------------------------------------

    def board(self, state: int) -> list[list[str]]:
        """The board as 3 rows of ``'X'``, ``'O'`` or ``'.'``, top row first.

        >>> TicTacToe().board(TicTacToe().play(0, 5))
        [['.', '.', '.'], ['.', '.', 'X'], ['.', '.', '.']]
        """
        cells = ["X" if state >> i & 1 else "O" if state >> (i + 9) & 1 else "." for i in range(9)]
        return [cells[0:3], cells[3:6], cells[6:9]]

    def render(self, state: int) -> str:
        """Three lines such as ``X.O``; :meth:`state_from_text` reads them back.

        >>> print(TicTacToe().render(TicTacToe().play(0, 2)))
        ..X
        ...
        ...
        """
        return "\n".join("".join(row) for row in self.board(state))

    def state_from_text(self, text: str) -> int:
        """The state drawn in ``text``: 9 cells of ``X``, ``O`` or ``.``, whitespace ignored.

        The player to move follows from the counts (X moves first). Raises ``ValueError``
        naming what is wrong: a bad character, a wrong number of cells or pieces, both
        players with a line, or a move made after the game was won.

        >>> game = TicTacToe()
        >>> game.state_from_text('''
        ... X.O
        ... .X.
        ... ...''') == game.play(game.play(game.play(0, 0), 2), 4)
        True
        >>> game.state_from_text("XX. ... ...")
        Traceback (most recent call last):
        ...
        ValueError: X has 2 pieces and O has 0: X must have as many as O or one more
        """
        cells = "".join(text.split())
        for i, char in enumerate(cells):
            if char not in "XO.":
                where = f"row {i // 3 + 1}, column {i % 3 + 1}" if i < 9 else f"cell {i + 1}"
                raise ValueError(f"bad character {char!r} at {where}: use 'X', 'O' or '.'")
        if len(cells) != 9:
            raise ValueError(f"a board has 9 cells, got {len(cells)}")
        x = sum(1 << i for i, char in enumerate(cells) if char == "X")
        o = sum(1 << i for i, char in enumerate(cells) if char == "O")
        nx, no = x.bit_count(), o.bit_count()
        if nx not in (no, no + 1):
            raise ValueError(
                f"X has {nx} pieces and O has {no}: X must have as many as O or one more"
            )
        x_won, o_won = _has_line(x), _has_line(o)
        if x_won and o_won:
            raise ValueError("both X and O have three in a row")
        if x_won and nx == no:
            raise ValueError("X has three in a row, yet O moved after X won")
        if o_won and nx > no:
            raise ValueError("O has three in a row, yet X moved after O won")
        return x | o << 9 | (_TURN if nx > no else 0)

    def winner(self, state: int) -> str | None:
        """``'X'`` or ``'O'`` if that player has three in a row, else ``None``.

        >>> game = TicTacToe()
        >>> game.winner(game.state_from_text("X.O .XO ..X")), game.winner(0)
        ('X', None)
        """
        if _has_line(state & _FULL):
            return "X"
        if _has_line(state >> 9 & _FULL):
            return "O"
        return None

    @staticmethod
    def move_name(move: int) -> str:
        """A cell's name: column letter ``a``-``c`` (left to right), row ``1``-``3`` (top down).

        >>> [TicTacToe.move_name(m) for m in (0, 4, 5, 8)]
        ['a1', 'b2', 'c2', 'c3']
        """
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < 9:
            raise ValueError(f"a move is a cell index 0..8, got {move!r}")
        return "abc"[move % 3] + str(move // 3 + 1)
