"""Beyond minimax's assumptions, for the optional notebook on opponents and faster wins.

Minimax assumes a brilliant opponent: MIN always picks the reply worst for MAX. Against an
opponent who is not, that assumption can cost. :func:`expectimax` assumes the other extreme,
an opponent who picks each legal move with the same chance, and backs up the *mean* of a
MIN node's children instead of their minimum (the CS188 course's expectimax). Which one wins
more depends on the opponent you really meet; the notebook measures it.

Scored 1 / -1 / 0, a win now and a win in five moves are worth the same, and minimax keeps
the first move that reaches the best value. :class:`FasterWins` scores a game's end by how
soon it comes: a win loses ``per_ply`` of its value for every ply (one move of one player)
since the search began, a loss gains as much, so the search prefers the quicker win and the
slower loss (the MIT 6.034 course's remedy).

>>> from minimaxkit.games import TicTacToe
>>> game = TicTacToe()
>>> expectimax(game, game.state_from_text("XX. OO. ...")).move   # the win in one
2
>>> late = game.state_from_text("XOX .O. ..X")
>>> from minimaxkit import minimax
>>> game.move_name(minimax(game, late).move), game.move_name(faster_move(game, late))
('c2', 'b3')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..search import minimax

__all__ = ["ChanceResult", "expectimax", "random_player", "FasterWins", "faster_move",
           "faster_player", "remembering", "outcome"]

Player = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class ChanceResult:
    """What :func:`expectimax` found: the value (MAX's mean outcome against a uniformly
    random MIN) and the move MAX should play (None where MIN is to move or the game is
    over)."""

    value: float
    move: Any


def expectimax(game: Any, state: Any = None, *, depth: int | None = None) -> ChanceResult:
    """Expectimax for the player to move at ``state`` (the game's start by default): at its
    own nodes it takes the best of the children's values (the largest for MAX, the smallest
    for MIN), at the opponent's the *mean*, as if the opponent played at random; ``depth``
    plies below ``state`` a position is scored by the game's static evaluation. Values are
    MAX's, as everywhere in the kit. Positions met again are looked up (the game's states
    must be hashable), so a whole game of tic-tac-toe takes a moment.
    """
    start = game.initial_state() if state is None else state
    ours = bool(game.is_max(start))
    best = max if ours else min
    seen: dict[tuple[Any, int], float] = {}

    def value(s: Any, left: int) -> float:
        moves = game.moves(s)
        if not moves or left == 0:
            return float(game.evaluate(s))
        key = (s, left)
        if key not in seen:
            values = [value(game.play(s, m), left - 1) for m in moves]
            seen[key] = best(values) if game.is_max(s) == ours else sum(values) / len(values)
        return seen[key]

    limit = -1 if depth is None else depth
    moves = game.moves(start)
    if not moves:
        return ChanceResult(value(start, limit), None)
    scored = [value(game.play(start, m), limit - 1) for m in moves]
    top = best(scored)
    return ChanceResult(top, moves[scored.index(top)])


def random_player(seed: int) -> Player:
    """A player that picks each legal move with the same chance (seeded: the same games
    every time)."""
    rng = random.Random(seed)

    def move(game: Any, state: Any) -> Any:
        return rng.choice(list(game.moves(state)))

    move.__name__ = f"random_player({seed})"
    return move


class FasterWins:
    """``game`` with its ends scored by how soon they come: states are pairs (the game's
    state, the plies since the search began); a finished game worth v ≠ 0 is worth
    v - per_ply · plies when v > 0 and v + per_ply · plies when v < 0. Static evaluations
    are unchanged, so ``per_ply`` must be small enough that a won game still beats every
    static value (for tic-tac-toe, scored 1 / -1 / 0 with statics inside (-8/9, 8/9), any
    ``per_ply`` up to 0.01 does).

    >>> from minimaxkit.games import TicTacToe
    >>> g = FasterWins(TicTacToe(), per_ply=0.01)
    >>> s = g.initial_state()
    >>> t = TicTacToe()
    >>> g.evaluate(g.play(s, 4)) == t.evaluate(t.play(t.initial_state(), 4))
    True
    """

    def __init__(self, game: Any, *, per_ply: float) -> None:
        self.game = game
        self.per_ply = per_ply
        self.value_range = game.value_range

    def start(self, state: Any) -> tuple[Any, int]:
        """The wrapped state of ``state``, its plies counted from here."""
        return state, 0

    def initial_state(self) -> tuple[Any, int]:
        return self.start(self.game.initial_state())

    def moves(self, state: tuple[Any, int]) -> Any:
        return self.game.moves(state[0])

    def play(self, state: tuple[Any, int], move: Any) -> tuple[Any, int]:
        return self.game.play(state[0], move), state[1] + 1

    def is_max(self, state: tuple[Any, int]) -> bool:
        return bool(self.game.is_max(state[0]))

    def evaluate(self, state: tuple[Any, int]) -> float:
        v = float(self.game.evaluate(state[0]))
        if self.game.moves(state[0]) or v == 0:
            return v
        return v - self.per_ply * state[1] if v > 0 else v + self.per_ply * state[1]


def faster_move(game: Any, state: Any, *, per_ply: float = 0.01,
                search: Callable[..., Any] = minimax, **options: Any) -> Any:
    """The move ``search`` plays at ``state`` with :class:`FasterWins` scoring."""
    wrapped = FasterWins(game, per_ply=per_ply)
    return search(wrapped, wrapped.start(state), trace=False, **options).move


def faster_player(*, per_ply: float = 0.01, search: Callable[..., Any] = minimax,
                  **options: Any) -> Player:
    """A player that moves where :func:`faster_move` says."""

    def move(game: Any, state: Any) -> Any:
        return faster_move(game, state, per_ply=per_ply, search=search, **options)

    move.__name__ = f"faster_player(per_ply={per_ply})"
    return move


def remembering(play: Player) -> Player:
    """``play``, remembering the move it chose at each position (a deterministic player
    chooses the same move every time), so that a hundred games cost little more than one.
    The game's states must be hashable."""
    chosen: dict[Any, Any] = {}

    def move(game: Any, state: Any) -> Any:
        if state not in chosen:
            chosen[state] = play(game, state)
        return chosen[state]

    move.__name__ = getattr(play, "__name__", "player")
    return move


def outcome(game: Any, final: Any) -> str:
    """"X", "O" or "draw": who won the finished game ``final`` (X is MAX)."""
    v = game.evaluate(final)
    return "X" if v > 0 else "O" if v < 0 else "draw"
