"""The Connect Four board of assignment 5 and the node-budgeted players and matches."""

from __future__ import annotations

import doctest
import importlib
import random
from dataclasses import replace

import pytest

from minimaxkit.arena.matches import (
    GAME,
    OPENINGS,
    EvaluationFailed,
    GameRecord,
    Player,
    board_player,
    kit_evaluation,
    kit_player,
    play_game,
    play_match,
    random_player,
    score,
)
from minimaxkit.games import ConnectFour
from minimaxkit.games.connect4_board import Board, line_cells, mirror_state


@pytest.mark.parametrize("module", ["minimaxkit.games.connect4_board", "minimaxkit.arena.matches",
                                    "minimaxkit.grading.evaluation.play_check",
                                    "minimaxkit.grading.evaluation.correctness",
                                    "minimaxkit.grading.evaluation.lockstep",
                                    "minimaxkit.grading.evaluation.evaluators",
                                    "minimaxkit.arena.game_pages",
                                    "minimaxkit.grading.evaluation.feedback",
                                    "minimaxkit.classroom.tournament", "minimaxkit.arena.standings",
                                    "minimaxkit.lecture.evaluation6"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def random_games(n: int, seed: int = 1) -> list[str]:
    rng, out = random.Random(seed), []
    for _ in range(n):
        game, state, moves = ConnectFour(), ConnectFour().initial_state(), ""
        while game.moves(state):
            m = rng.choice(game.moves(state))
            moves += str(m)
            state = game.play(state, m)
            out.append(moves)
    return out


def test_the_board_agrees_with_the_game_on_every_position_of_random_games() -> None:
    game = ConnectFour()
    for moves in random_games(40):
        state = game.state_from_moves(moves)
        board = Board.from_state(state)
        assert board.winner() == game.winner(state)
        assert board.legal_moves() == list(game.moves(state))
        assert board.to_move == ("X" if game.is_max(state) else "O")
        rows = game.board(state)  # top row first
        assert all(board.cell(c, r) == rows[6 - 1 - r][c] for c in range(7) for r in range(6))
        assert board.mirror().mirror() == board
        assert mirror_state(state) == game.state_from_moves("".join(str(6 - int(m))
                                                                    for m in moves))


def test_lines_of_four_counted_by_hand() -> None:
    # 7 x 6: across 4 starts x 6 rows = 24, up 7 x 3 = 21, each diagonal 4 x 3 = 12
    assert len(line_cells()) == 24 + 21 + 12 + 12
    assert len(set(line_cells())) == 69


def test_the_board_is_read_only() -> None:
    board = Board.from_moves("33")
    with pytest.raises(AttributeError, match="read-only"):
        board._grid = "X" * 42  # type: ignore[misc]
    with pytest.raises(TypeError, match="from_moves"):
        Board()


def test_a_failing_evaluation_forfeits_and_games_repeat() -> None:
    def raises_late(board: Board) -> float:
        if board.moves_played > 9:
            raise ValueError("too many pieces")
        return 0.0

    bad = board_player("bad", raises_late, 200)
    game = play_game(bad, kit_player(200), "33")
    assert (game.result, game.forfeit) == ("O", "X")
    assert "ValueError: too many pieces" in game.reason
    assert GameRecord.from_dict(game.to_dict()) == game
    first = play_match(kit_player(200), random_player(3), OPENINGS[:2])
    assert first == play_match(kit_player(200), random_player(3), OPENINGS[:2])
    assert score(first, "kit") + score(first, "random") == len(first)
    assert isinstance(EvaluationFailed("x"), BaseException)
    assert not isinstance(EvaluationFailed("x"), Exception)
    assert GAME.win_value == 1000


def _cells_by_bits(state: tuple[int, int, int], columns: int = 7, rows: int = 6) -> str:
    """The cells of a state read bit by bit from the layout ConnectFour's docstring gives
    (column c, row r is bit c * (rows + 1) + r): a reading independent of the board's."""
    x_bits, mask, _ = state
    out = ""
    for c in range(columns):
        for r in range(rows):
            bit = 1 << (c * (rows + 1) + r)
            out += "." if not mask & bit else "X" if x_bits & bit else "O"
    return out


def test_the_board_reads_any_state_as_its_bits_say() -> None:
    # states no game reaches too: floating pieces, both players with four, spare bits set
    rng = random.Random(7)
    for columns, rows in ((7, 6), (4, 4), (5, 7), (3, 3)):
        for _ in range(300):
            mask, x_bits = rng.getrandbits(columns * (rows + 1)), rng.getrandbits(64)
            state = (x_bits, mask, rng.randrange(columns * rows + 1))
            board = Board.from_state(state, columns=columns, rows=rows)
            cells = _cells_by_bits(state, columns, rows)
            assert "".join(board.column(c) for c in range(columns)) == cells
            lines = ["".join(cells[c * rows + r] for c, r in line)
                     for line in line_cells(columns, rows)]
            assert board.lines() == lines
            fours = [ln[0] for ln in lines if ln in ("XXXX", "OOOO")]
            assert board.winner() == (fours[0] if fours else None)


def test_a_move_on_the_board_is_the_move_in_the_game() -> None:
    for moves in random_games(6, seed=3):
        board = Board.from_moves(moves)
        for c in board.legal_moves():
            assert board.play(c) == Board.from_moves(moves + str(c))
        for c in set(range(7)) - set(board.legal_moves()):
            with pytest.raises(ValueError, match="not a legal move"):
                board.play(c)


def test_lines_are_a_new_list_each_time() -> None:
    board = Board.from_moves("3324")
    first = board.lines()
    first[0] = "XXXX"
    first.clear()
    assert board.lines()[0] == "..XX" and len(board.lines()) == 69
    assert board.winner() is None


class _Plain:
    """Connect Four valued leaf by leaf by ``evaluate`` (one state), nothing remembered
    and nothing batched: the reference for the players' memo and batches."""

    def __init__(self, evaluate) -> None:  # type: ignore[no-untyped-def]
        self.value_range = GAME.value_range
        self.initial_state, self.moves, self.play = GAME.initial_state, GAME.moves, GAME.play
        self.is_max, self.evaluate = GAME.is_max, evaluate


def _plain_moves(evaluate_x, evaluate_o, opening: str, budget: int) -> str:  # type: ignore[no-untyped-def]
    from minimaxkit.deepening import deepen

    moves, state = opening, GAME.state_from_moves(opening)
    while GAME.moves(state):
        fn = evaluate_x if GAME.is_max(state) else evaluate_o
        result = deepen(_Plain(fn), state, node_budget=budget, trace=False)
        move = result.move if result.move is not None else GAME.moves(state)[0]
        moves += str(move)
        state = GAME.play(state, move)
    return moves


@pytest.mark.parametrize("opening", ["33", "024", "61"])
def test_remembering_and_batching_change_no_game_of_a_pure_evaluation(opening: str) -> None:
    def centre_and_rows(board: Board) -> float:  # pure, mirror-asymmetric, cheap
        if board.winner():
            return 1000 if board.winner() == "X" else -1000
        if board.is_full():
            return 0
        return sum((c - 2) * (board.column(c).count("X") - board.column(c).count("O"))
                   for c in range(7)) + board.height(3)

    def one(fn):  # type: ignore[no-untyped-def]
        return lambda state: fn(Board.from_state(state))

    budget = 200
    kit = kit_player(budget)  # one board at a time, remembers
    for ahead in (0, 1, 2, 6):  # batches of the leaf and its next siblings, remembers
        you = replace(board_player("you", centre_and_rows, budget), ahead=ahead)
        for x, o, fx, fo in ((you, kit, one(centre_and_rows), GAME.evaluate),
                             (kit, you, GAME.evaluate, one(centre_and_rows))):
            assert play_game(x, o, opening).moves == _plain_moves(fx, fo, opening, budget)


def test_a_players_memo_spans_its_games_and_changes_none_of_them() -> None:
    asked: list[int] = []

    def counting(states):  # type: ignore[no-untyped-def]
        asked.append(len(states))
        return kit_evaluation(states)

    fresh = Player("me", counting, 200)
    kept = Player("me", counting, 200, memo={})
    openings = ["33", "24", "33"]
    first = [play_game(fresh, kit_player(200), op) for op in openings]
    per_game = sum(asked)
    asked.clear()
    again = [play_game(kept, kit_player(200), op) for op in openings]
    assert again == first
    assert 0 < sum(asked) < per_game and len(kept.memo) == sum(asked)  # type: ignore[arg-type]
    asked.clear()
    play_game(kept, kit_player(200), "33")  # played before: every board is remembered
    assert asked == []


def test_a_batch_is_a_leaf_and_at_most_ahead_of_its_next_siblings() -> None:
    sizes: dict[int, list[int]] = {}
    for ahead in (0, 2, 6):
        got = sizes[ahead] = []

        def counting(states, got=got):  # type: ignore[no-untyped-def]
            got.append(len(states))
            return kit_evaluation(states)
        play_game(Player("me", counting, 200, ahead=ahead), kit_player(200), "33")
    assert set(sizes[0]) == {1} and max(sizes[2]) == 3 and max(sizes[6]) == 7
    # fewer messages the more are asked at once, never fewer boards (some may never be needed)
    assert len(sizes[0]) > len(sizes[2]) > len(sizes[6])
    assert sum(sizes[0]) <= sum(sizes[2]) <= sum(sizes[6])
