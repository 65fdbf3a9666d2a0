"""Tests of the real games against independent references written here.

Each reference (a list-of-cells tic-tac-toe, a 2-D list Connect Four, Nim's xor theory)
shares no code with the bitboards in ``minimaxkit.games``.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minimaxkit.games import ConnectFour, Nim, TicTacToe

# --- tic-tac-toe: a reference on tuples of 9 characters ----------------------------------

TTT_LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
]  # fmt: skip
EMPTY_BOARD = "." * 9


def ref_ttt_winner(cells: str) -> str | None:
    for a, b, c in TTT_LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def ref_ttt_children(cells: str) -> list[str]:
    if ref_ttt_winner(cells) or "." not in cells:
        return []
    player = "X" if cells.count("X") == cells.count("O") else "O"
    return [cells[:i] + player + cells[i + 1 :] for i, c in enumerate(cells) if c == "."]


@cache
def ref_ttt_subtree(cells: str) -> tuple[int, int]:
    """(nodes, terminal nodes) in the full game tree below ``cells``, itself included."""
    children = ref_ttt_children(cells)
    if not children:
        return 1, 1
    counts = [ref_ttt_subtree(child) for child in children]
    return 1 + sum(n for n, _ in counts), sum(t for _, t in counts)


@cache
def ref_ttt_negamax(cells: str) -> int:
    """The value for the player to move: +1 win, -1 loss, 0 draw."""
    if ref_ttt_winner(cells):
        return -1  # the player who just moved made the line
    children = ref_ttt_children(cells)
    if not children:
        return 0
    return max(-ref_ttt_negamax(child) for child in children)


def flat(game: Any, state: Any) -> str:
    return "".join(cell for row in game.board(state) for cell in row)


def all_ttt_states(game: TicTacToe) -> set[int]:
    seen: set[int] = set()
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state not in seen:
            seen.add(state)
            stack.extend(game.play(state, m) for m in game.moves(state))
    return seen


def test_ttt_reference_tree_has_the_known_counts() -> None:
    assert ref_ttt_subtree(EMPTY_BOARD) == (549_946, 255_168)


def test_ttt_full_game_tree_counts() -> None:
    game = TicTacToe()
    nodes = terminals = 0
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        moves = game.moves(state)
        if not moves:
            terminals += 1
        stack.extend(game.play(state, m) for m in moves)
    assert (nodes, terminals) == (549_946, 255_168)


def test_ttt_every_reachable_state_agrees_with_the_reference() -> None:
    game = TicTacToe()
    states = all_ttt_states(game)
    assert len(states) == 5_478
    boards = {flat(game, s) for s in states}
    assert len(boards) == 5_478
    for state in states:
        cells = flat(game, state)
        children = ref_ttt_children(cells)
        assert [flat(game, game.play(state, m)) for m in game.moves(state)] == children
        assert list(game.moves(state)) == sorted(game.moves(state))
        assert game.is_max(state) == (cells.count("X") == cells.count("O"))
        assert game.winner(state) == ref_ttt_winner(cells)
        value = game.evaluate(state)
        if children:
            assert -1 < value < 1
            open_x = sum(all(cells[i] != "O" for i in line) for line in TTT_LINES)
            open_o = sum(all(cells[i] != "X" for i in line) for line in TTT_LINES)
            assert value == pytest.approx((open_x - open_o) / 9)
        else:
            assert value == {"X": 1.0, "O": -1.0, None: 0.0}[ref_ttt_winner(cells)]
        assert game.state_from_text(game.render(state)) == state


def test_ttt_game_value_is_a_draw_and_matches_negamax_everywhere() -> None:
    game = TicTacToe()
    assert ref_ttt_negamax(EMPTY_BOARD) == 0

    @cache
    def minimax(state: int) -> float:  # over the game's own protocol
        moves = game.moves(state)
        if not moves:
            return game.evaluate(state)
        values = [minimax(game.play(state, m)) for m in moves]
        return max(values) if game.is_max(state) else min(values)

    assert minimax(game.initial_state()) == 0
    for state in all_ttt_states(game):
        sign = 1 if game.is_max(state) else -1
        assert minimax(state) == sign * ref_ttt_negamax(flat(game, state))


def _non_line_cells(line: tuple[int, ...], count: int) -> str:
    """A board with X on ``line`` and ``count`` O's elsewhere that form no line."""
    others = [i for i in range(9) if i not in line]
    for chosen in itertools.combinations(others, count):
        cells = ["X" if i in line else "O" if i in chosen else "." for i in range(9)]
        if ref_ttt_winner("".join(c if c == "O" else "." for c in cells)) is None:
            return "".join(cells)
    raise AssertionError("no such board")


@pytest.mark.parametrize("line", TTT_LINES)
@pytest.mark.parametrize("player", ["X", "O"])
def test_ttt_detects_each_line_for_each_player(line: tuple[int, ...], player: str) -> None:
    # X wins with 3 against 2; O wins with 3 against 3 (then X has no line).
    cells = _non_line_cells(line, 2 if player == "X" else 3)
    if player == "O":
        cells = cells.translate(str.maketrans("XO", "OX"))
    game = TicTacToe()
    state = game.state_from_text(cells)
    assert game.winner(state) == player
    assert game.moves(state) == ()
    assert game.evaluate(state) == (1.0 if player == "X" else -1.0)
    assert TicTacToe(win_value=math.inf).evaluate(state) == (
        math.inf if player == "X" else -math.inf
    )
    # one cell short of the line is no win
    short = cells[: line[2]] + "." + cells[line[2] + 1 :]
    assert game.winner(game.state_from_text(short)) is None


def test_ttt_state_from_text_round_trips_with_play() -> None:
    game = TicTacToe()
    state = game.initial_state()
    for move in (4, 0, 8, 2):
        state = game.play(state, move)
    assert game.render(state) == "O.O\n.X.\n..X"
    assert game.state_from_text("O.O\n.X.\n..X") == state
    assert game.state_from_text("O . O / . X . / . . X".replace("/", "")) == state
    assert game.is_max(state)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O .X. ..?", r"bad character '\?' at row 3, column 3"),
        ("X.O .X.", "a board has 9 cells, got 6"),
        ("X.O .X. ...X", "a board has 9 cells, got 10"),
        ("XX. ... ...", "X has 2 pieces and O has 0"),
        ("OO. X.. ...", "X has 1 pieces and O has 2"),
        ("XXX OOO ...", "both X and O have three in a row"),
        ("XXX OO. O..", "X has three in a row, yet O moved after X won"),
        ("OOO XX. X.X", "O has three in a row, yet X moved after O won"),
    ],
)
def test_ttt_state_from_text_rejects_bad_boards(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TicTacToe().state_from_text(text)


def test_ttt_infinite_win_value() -> None:
    game = TicTacToe(win_value=math.inf)
    assert game.value_range == (-math.inf, math.inf)
    values = {game.evaluate(s) for s in all_ttt_states(game) if not game.moves(s)}
    assert values == {-math.inf, 0.0, math.inf}
    non_terminal = [game.evaluate(s) for s in all_ttt_states(game) if game.moves(s)]
    assert all(math.isfinite(v) for v in non_terminal)


def test_ttt_repr_win_value_and_errors() -> None:
    for game in (TicTacToe(), TicTacToe(win_value=math.inf), TicTacToe(win_value=10)):
        assert eval(repr(game), {"TicTacToe": TicTacToe}) == game
    assert repr(TicTacToe(win_value=math.inf)) == "TicTacToe(win_value=float('inf'))"
    assert TicTacToe(win_value=10).evaluate(TicTacToe().state_from_text("X........")) == 10 / 3
    for bad in (0, -1, math.nan, "1", True):
        with pytest.raises(ValueError, match="win_value"):
            TicTacToe(win_value=bad)  # type: ignore[arg-type]
    game = TicTacToe()
    with pytest.raises(ValueError, match="move 4 is not legal"):
        game.play(game.play(0, 4), 4)
    with pytest.raises(ValueError, match="legal moves: \\(\\)"):
        game.play(game.state_from_text("XXX OO. ..."), 8)
    with pytest.raises(ValueError, match="not a tic-tac-toe state"):
        game.moves(3)  # two X's, no O, yet X to move
    assert [TicTacToe.move_name(m) for m in range(9)] == [
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="cell index"):
        TicTacToe.move_name(9)


# --- Connect Four: a reference on a 2-D list ---------------------------------------------


@cache
def c4_windows(columns: int, rows: int) -> list[list[tuple[int, int]]]:
    """Every four cells in a line, as (row, column) pairs."""
    windows = []
    for r, c in itertools.product(range(rows), range(columns)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + k * dr, c + k * dc) for k in range(4)]
            if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                windows.append(cells)
    return windows


class RefC4:
    """grid[r][c], r = 0 the bottom row; X moves first; four in a row wins."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.grid = [["."] * columns for _ in range(rows)]
        self.played = 0

    def winner(self) -> str | None:
        for cells in c4_windows(self.columns, self.rows):
            pieces = {self.grid[r][c] for r, c in cells}
            if len(pieces) == 1 and pieces != {"."}:
                return pieces.pop()
        return None

    def moves(self) -> list[int]:
        if self.winner() or self.played == self.columns * self.rows:
            return []
        return [c for c in range(self.columns) if self.grid[self.rows - 1][c] == "."]

    def drop(self, column: int) -> None:
        row = next(r for r in range(self.rows) if self.grid[r][column] == ".")
        self.grid[row][column] = "XO"[self.played % 2]
        self.played += 1

    def undo(self, column: int) -> None:
        row = max(r for r in range(self.rows) if self.grid[r][column] != ".")
        self.grid[row][column] = "."
        self.played -= 1

    def board(self) -> list[list[str]]:
        return [list(row) for row in reversed(self.grid)]

    def static_e(self) -> int:
        """The documented evaluation before squashing, by looping over every window."""
        score = 0
        for cells in c4_windows(self.columns, self.rows):
            window = [self.grid[r][c] for r, c in cells]
            for player, sign in (("X", 1), ("O", -1)):
                other = "O" if player == "X" else "X"
                if other not in window:
                    score += sign * {2: 2, 3: 5}.get(window.count(player), 0)
        middle = {(self.columns - 1) // 2, self.columns // 2}
        for row in self.grid:
            for c in middle:
                score += 3 * {"X": 1, "O": -1, ".": 0}[row[c]]
        return score


def perft_pair(
    game: ConnectFour, ref: RefC4, state: Any, depth: int, memo: dict[Any, int] | None = None
) -> int:
    """Move sequences of length ``depth`` (or ending earlier at a terminal), checking
    that the game and the reference agree at every distinct position on the way."""
    memo = {} if memo is None else memo
    key = (str(ref.grid), depth)
    if key in memo:
        return memo[key]
    assert game.board(state) == ref.board()
    moves = list(game.moves(state))
    assert moves == ref.moves()
    assert game.winner(state) == ref.winner()
    if not moves:
        value = {"X": 1.0, "O": -1.0, None: 0.0}[ref.winner()]
        assert game.evaluate(state) == value
        return 1
    assert game.evaluate(state) == pytest.approx(ref.static_e() / (abs(ref.static_e()) + 20))
    if depth == 0:
        return 1
    total = 0
    for move in moves:
        ref.drop(move)
        total += perft_pair(game, ref, game.play(state, move), depth - 1, memo)
        ref.undo(move)
    memo[key] = total
    return total


def perft(game: ConnectFour, state: Any, depth: int) -> int:
    moves = game.moves(state)
    if depth == 0 or not moves:
        return 1
    return sum(perft(game, game.play(state, m), depth - 1) for m in moves)


@pytest.mark.parametrize(("depth", "count"), [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807)])
def test_c4_perft_standard_board(depth: int, count: int) -> None:
    game = ConnectFour()
    assert perft(game, game.initial_state(), depth) == count
    if depth <= 4:
        assert perft_pair(game, RefC4(7, 6), game.initial_state(), depth) == count


@pytest.mark.parametrize(("columns", "rows", "depth"), [(4, 4, 8), (5, 4, 7), (4, 5, 7)])
def test_c4_perft_small_boards_agree_with_reference(columns: int, rows: int, depth: int) -> None:
    # Deep enough that wins (and ends before `depth`) occur.
    game = ConnectFour(columns=columns, rows=rows)
    count = perft_pair(game, RefC4(columns, rows), game.initial_state(), depth)
    assert count == perft(game, game.initial_state(), depth)
    assert count < columns**depth  # some games ended early


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("0102030", "X"),  # vertical, column 0
        ("6061626", "X"),  # vertical, right edge
        ("0415263", "X"),  # horizontal, bottom row 0-3
        ("3040506", "X"),  # horizontal, bottom row 3-6
        ("01123223433", "X"),  # diagonal up-right from (col 0, row 0)
        ("65543443233", "X"),  # diagonal up-left from (col 6, row 0)
        ("60102030", "O"),  # O vertical
    ],
)
def test_c4_wins_in_every_direction(moves: str, winner: str) -> None:
    game = ConnectFour()
    state = game.state_from_moves(moves)
    assert game.winner(state) == winner
    assert game.moves(state) == ()
    assert game.evaluate(state) == (1.0 if winner == "X" else -1.0)
    assert ConnectFour(win_value=math.inf).evaluate(state) == (
        math.inf if winner == "X" else -math.inf
    )
    before = game.state_from_moves(moves[:-1])
    assert game.winner(before) is None and game.moves(before)


def test_c4_no_wrap_between_columns() -> None:
    # X on rows 3-5 of column 0 and row 0 of column 1: four bits in a row but for the
    # spare bit between the columns.
    game = ConnectFour()
    state = game.state_from_moves("10202003030")
    assert game.board(state)[0][0] == game.board(state)[5][1] == "X"
    assert game.winner(state) is None and game.moves(state)


def test_c4_refuses_moves_after_a_win() -> None:
    game = ConnectFour()
    assert game.winner(game.state_from_moves("0101010")) == "X"
    with pytest.raises(ValueError, match="move index 7 \\(column 1\\): .* X has four in a row"):
        game.state_from_moves("01010101")


def test_c4_full_column_and_draw_on_small_board() -> None:
    game = ConnectFour(columns=4, rows=4)
    state = game.state_from_moves("0000")
    assert game.moves(state) == (1, 2, 3)
    with pytest.raises(ValueError, match="column 0 is full"):
        game.play(state, 0)
    with pytest.raises(ValueError, match="move index 4: column 0 is full"):
        game.state_from_moves("00000")
    draw = game.state_from_moves("0000111122233323")
    assert game.render(draw) == "O O X O\nX X X O\nO O O X\nX X X O\n0 1 2 3"
    assert game.winner(draw) is None
    assert game.moves(draw) == ()
    assert game.evaluate(draw) == 0.0
    with pytest.raises(ValueError, match="move index 16 .* the board is full"):
        game.state_from_moves("00001111222333232")


def test_c4_validation_and_repr() -> None:
    for kwargs in ({"columns": 0}, {"rows": 17}, {"columns": 3, "rows": 3}, {"rows": 4.0}):
        with pytest.raises(ValueError, match="columns|rows"):
            ConnectFour(**kwargs)  # type: ignore[arg-type]
    for bad in (0, -2.0, math.nan, None):
        with pytest.raises(ValueError, match="win_value"):
            ConnectFour(win_value=bad)  # type: ignore[arg-type]
    game = ConnectFour(columns=4, rows=4)
    for moves, message in (("01x", "move index 2: 'x' is not a column"),
                           ("015", r"move index 2: column 5 is not in 0..3"),
                           ([0, -1], r"move index 1: column -1 is not in 0..3")):  # fmt: skip
        with pytest.raises(ValueError, match=message):
            game.state_from_moves(moves)
    with pytest.raises(ValueError, match="column index 0..3"):
        game.play(game.initial_state(), 4)
    for g in (ConnectFour(), game, ConnectFour(rows=5, win_value=math.inf)):
        assert eval(repr(g), {"ConnectFour": ConnectFour}) == g
    assert repr(game) == "ConnectFour(columns=4, rows=4)"
    assert game.state_from_moves([1, 2, 2]) == game.state_from_moves("122")


# --- Nim ---------------------------------------------------------------------------------


@pytest.mark.parametrize("heaps", list(itertools.product(range(4), repeat=3)))
def test_nim_brute_force_minimax_matches_xor_theory(heaps: tuple[int, int, int]) -> None:
    game = Nim(heaps)

    @cache
    def minimax(state: Any) -> float:
        moves = game.moves(state)
        if not moves:
            return game.evaluate(state)
        values = [minimax(game.play(state, m)) for m in moves]
        return max(values) if game.is_max(state) else min(values)

    mover_wins = heaps[0] ^ heaps[1] ^ heaps[2] != 0
    assert minimax(game.initial_state()) == (1 if mover_wins else -1)
    # and from MIN's side: the same heaps with MIN to move
    assert minimax((heaps, False)) == (-1 if mover_wins else 1)


def test_nim_moves_render_and_errors() -> None:
    game = Nim((2, 0, 1))
    state = game.initial_state()
    assert game.moves(state) == ((0, 1), (0, 2), (2, 1))
    assert game.play(state, (0, 2)) == ((0, 0, 1), False)
    assert game.evaluate(state) == 0
    assert game.render(state) == "heap 0: || (2)\nheap 1:  (0)\nheap 2: | (1)\nMAX to move"
    for move in ((1, 1), (0, 3), (0, 0), (3, 1), (-1, 1), (0,), "ab"):
        with pytest.raises(ValueError, match="move"):
            game.play(state, move)  # type: ignore[arg-type]
    for heaps, message in (((1, -1), "heap 1 must be a non-negative int, got -1"),
                           ((1.5,), "heap 0 must be a non-negative int, got 1.5"),
                           ((True, 2), "heap 0"),
                           ((), "at least one heap"),
                           ("123", "sequence of ints")):  # fmt: skip
        with pytest.raises(ValueError, match=message):
            Nim(heaps)  # type: ignore[arg-type]
    assert repr(Nim()) == "Nim()" and repr(Nim([4, 5])) == "Nim((4, 5))"
    assert eval(repr(Nim([4, 5])), {"Nim": Nim}) == Nim((4, 5))


# --- properties shared by all games ------------------------------------------------------


def pieces(game: Any, state: Any) -> int:
    """Pieces on the board; for Nim, objects taken so far."""
    if isinstance(game, Nim):
        return sum(game.heaps) - sum(state[0])
    return sum(cell != "." for row in game.board(state) for cell in row)


def independently_terminal(game: Any, state: Any) -> bool:
    if isinstance(game, Nim):
        return not any(state[0])
    full = pieces(game, state) == len(game.board(state)) * len(game.board(state)[0])
    if isinstance(game, TicTacToe):
        return full or ref_ttt_winner(flat(game, state)) is not None
    ref = RefC4(game.columns, game.rows)
    ref.grid = [list(row) for row in reversed(game.board(state))]
    return full or ref.winner() is not None


games = st.sampled_from(
    [
        TicTacToe(),
        ConnectFour(),
        ConnectFour(columns=4, rows=4),
        ConnectFour(columns=5, rows=4),
        Nim(),
        Nim((3, 0, 5)),
    ]
)


@settings(max_examples=150, deadline=None)
@given(game=games, choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=45))
def test_play_is_pure_and_moves_are_empty_exactly_at_the_end(game: Any, choices: list[int]) -> None:
    state = game.initial_state()
    for choice in choices:
        moves = game.moves(state)
        assert (not moves) == independently_terminal(game, state)
        lo, hi = game.value_range
        if not moves:
            assert game.evaluate(state) in (lo, 0, hi)
            break
        assert lo < game.evaluate(state) < hi
        move = moves[choice % len(moves)]
        before, board_before = state, (game.board(state) if hasattr(game, "board") else None)
        child = game.play(state, move)
        assert state == before and game.moves(state) == moves
        if board_before is not None:
            assert game.board(state) == board_before
        assert hash(child) == hash(child)  # hashable
        taken = move[1] if isinstance(game, Nim) else 1
        assert pieces(game, child) == pieces(game, state) + taken
        assert game.is_max(child) != game.is_max(state)
        state = child
