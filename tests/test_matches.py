"""The Connect Four board of assignment 5 and the node-budgeted players and matches."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from minimaxkit.games import ConnectFour
from minimaxkit.games.connect4_board import Board, line_cells, mirror_state
from minimaxkit.matches import (
    GAME,
    OPENINGS,
    EvaluationFailed,
    GameRecord,
    board_player,
    kit_player,
    play_game,
    play_match,
    random_player,
    score,
)


@pytest.mark.parametrize("module", ["minimaxkit.games.connect4_board", "minimaxkit.matches",
                                    "minimaxkit.grading.play.checks",
                                    "minimaxkit.grading.play.evaluators",
                                    "minimaxkit.draw.game_pages",
                                    "minimaxkit.grading.play.report",
                                    "minimaxkit.grading.play.tournament", "minimaxkit.standings",
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
