"""Connect Four positions drawn at random, as assignment 5's correctness check asks them: the
boards of random games (a draw, X's wins, O's, boards in play) from a seed, and random
positions to ask between them.
"""

from __future__ import annotations

import random
from typing import Any

from ...games.connect4 import ConnectFour
from ...games.connect4_board import WIN

__all__ = ["correctness_boards", "random_positions"]

GAME = ConnectFour(win_value=WIN)  # as the games are played (minimaxkit.arena.matches.GAME)


def correctness_boards(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """``(moves, kind)`` of the correctness boards, from random games seeded by ``seed``:
    ``finished`` games (a draw, X's wins, O's: every other game avoids wins) and ``in_play``
    ones.

    >>> [k for _, k in correctness_boards({"seed": 1, "finished": 3, "in_play": 2})]
    ['draw', 'X', 'O', 'play', 'play']
    """
    rng = random.Random(spec["seed"])
    finished: list[tuple[str, str]] = []
    in_play: list[tuple[str, str]] = []
    draw = None
    for n in range(3000):
        state, moves = GAME.initial_state(), ""
        avoid = n % 2 == 1  # every other game: no move that wins, aiming at a draw
        while GAME.moves(state):
            options = GAME.moves(state)
            if avoid:
                options = tuple(m for m in options if GAME.moves(GAME.play(state, m))
                                or GAME.winner(GAME.play(state, m)) is None) or options
            m = rng.choice(options)
            moves += str(m)
            state = GAME.play(state, m)
            if GAME.moves(state) and rng.random() < 0.04 and len(in_play) < spec["in_play"]:
                in_play.append((moves, "play"))
        kind = GAME.winner(state) or "draw"
        if kind == "draw" and draw is None:
            draw = (moves, kind)
        elif kind != "draw" and len(finished) < spec["finished"] - 1:
            finished.append((moves, kind))
        if (draw is not None or n > 2000) and len(finished) >= spec["finished"] - 1 and \
                len(in_play) >= spec["in_play"]:
            break
    finished.sort(key=lambda b: b[1] != "X")  # X's wins first, in the order drawn
    return ([draw] if draw else []) + finished + in_play


def random_positions(rng: random.Random, n: int) -> list[Any]:
    """``n`` boards of random games (some finished), asked between the checked ones."""
    out: list[Any] = []
    while len(out) < n:
        state = GAME.initial_state()
        for _ in range(rng.randrange(2, 36)):
            if not GAME.moves(state):
                break
            state = GAME.play(state, rng.choice(GAME.moves(state)))
        out.append(state)
    return out
