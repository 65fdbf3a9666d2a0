"""Connect Four players under a node budget, and matches between them from a fixed book of
openings, both colours.

A :class:`Player` is the kit's alpha-beta with progressive deepening
(:func:`~minimaxkit.deepen`) stopped by a **node budget** per move, never by the clock, so a
game depends only on the players, never on the machine or its load; the evaluation it
uses scores a batch of states from X's (MAX's) side, ``±WIN`` on won boards. Or a player
moves at random, from a generator seeded by the position, so it too repeats itself.

>>> kit, weak = kit_player(200), weak_player(200)
>>> game = play_game(kit, weak, "33")
>>> game.result, game.moves[:2], len(game.moves) == len(game.infos) + 2
('X', '33', True)
>>> play_game(kit, weak, "33") == game          # deterministic
True
>>> match = play_match(kit, random_player(), ["33", "23"])
>>> [g.opening for g in match], score(match, "kit")
(['33', '33', '23', '23'], 4.0)
"""

from __future__ import annotations

import decimal
import math
import numbers
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..deepening import deepen
from ..games.connect4 import ConnectFour, ConnectFourState
from ..games.connect4_board import WIN, Board

__all__ = ["Player", "MoveInfo", "GameRecord", "EvaluationFailed", "OPENINGS",
           "kit_player", "weak_player", "random_player", "board_player", "play_game",
           "play_match", "score", "choose", "kit_evaluation", "weak_evaluation",
           "feature_evaluation", "real_value", "wrong_move", "GAME", "ANALYSIS_BUDGET"]

GAME = ConnectFour(win_value=WIN)
ANALYSIS_BUDGET = 1000  # nodes per position when looking for the move that lost
#: Openings: the first two moves (X's column, O's column), played before the players take
#: over. A match plays each opening twice, each player X once.
OPENINGS: tuple[str, ...] = ("33", "32", "34", "23", "43", "22", "44", "24", "42", "31",
                             "35", "13", "53", "30", "36", "21", "45", "20", "46", "11")

Batch = Callable[[list[ConnectFourState]], list[float]]


class EvaluationFailed(BaseException):  # noqa: N818 - not an Exception: deepen must not catch it
    """An evaluation could not answer (it raised, returned something that is not a number,
    or took too long): the player forfeits the game. A ``BaseException``, so that the
    search (which keeps its last iteration when a game raises an ``Exception``) passes it
    on."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.message, self.fatal = message, fatal


@dataclass(frozen=True)
class Player:
    """A named player: ``evaluate`` (a batch evaluation of states) searched with a
    ``node_budget`` per move, or random moves when ``evaluate`` is None. A leaf not yet
    valued is asked in one batch with up to ``ahead`` of its next siblings not yet valued
    (the search meets a node's new leaves left to right): for an evaluation in another
    process, where each batch is a message, 2 is cheapest over the evaluations measured
    (``benchmarks/bench_a5_games.py``); 0 for one in this process, which then skips making
    the siblings. The batches never change a game of a pure evaluation. A ``memo``
    (a dict the caller owns) keeps the evaluation's values across games: every game of
    the player asks a board once (without one, once per game)."""

    name: str
    evaluate: Batch | None = field(default=None, compare=False, repr=False)
    node_budget: int = 1000
    seed: int = 0
    ahead: int = field(default=2, compare=False, repr=False)
    memo: dict[ConnectFourState, float] | None = field(default=None, compare=False,
                                                       repr=False)


@dataclass(frozen=True)
class MoveInfo:
    """One move a player chose: the column, the search's value from X's side (None for a
    random move), the deepest completed depth and the nodes searched."""

    move: int
    value: float | None
    depth: int
    nodes: int


@dataclass(frozen=True)
class GameRecord:
    """A finished game: the players, the opening, every move as column digits (opening
    included), what the players said per move after the opening, the result (``'X'``,
    ``'O'`` or ``'draw'``) and, for a forfeit, who forfeited and why."""

    x: str
    o: str
    opening: str
    moves: str
    infos: tuple[MoveInfo, ...]
    result: str
    forfeit: str | None = None
    reason: str = ""

    def points(self, name: str) -> float:
        """What the game earned the player ``name``: 1 a win, 0.5 a draw, 0 a loss."""
        side = "X" if name == self.x else "O" if name == self.o else None
        if side is None:
            raise ValueError(f"{name!r} did not play this game ({self.x} v {self.o})")
        return 0.5 if self.result == "draw" else float(self.result == side)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON), as stored in a leaderboard's game list."""
        return {"x": self.x, "o": self.o, "opening": self.opening, "moves": self.moves,
                "infos": [[i.move, i.value, i.depth, i.nodes] for i in self.infos],
                "result": self.result, "forfeit": self.forfeit, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """The inverse of :meth:`to_dict`."""
        infos = tuple(MoveInfo(int(m), v, int(d), int(n)) for m, v, d, n in data["infos"])
        return cls(data["x"], data["o"], data["opening"], data["moves"], infos,
                   data["result"], data.get("forfeit"), data.get("reason", ""))


# ----- evaluations ---------------------------------------------------------------------
def kit_evaluation(states: list[ConnectFourState]) -> list[float]:
    """The kit's own evaluation (open windows, threats, the centre; see
    :class:`~minimaxkit.games.ConnectFour`), scaled to ``±WIN``.

    >>> kit_evaluation([GAME.state_from_moves("3"), GAME.state_from_moves("0102030")])
    [130.43478260869566, 1000.0]
    """
    return [GAME.evaluate(s) for s in states]


def feature_evaluation(weights: Sequence[float]) -> Batch:
    """The kit's evaluation with other weights for its features (open threes, open twos,
    centre pieces: :meth:`~minimaxkit.games.ConnectFour.features`; the kit's are 5, 2, 3),
    squashed into (-WIN, WIN) as the kit's; exact on finished games.

    >>> states = [GAME.state_from_moves(m) for m in ("3", "3343", "0102030")]
    >>> feature_evaluation((5, 2, 3))(states) == kit_evaluation(states)
    True
    >>> feature_evaluation((0, 0, 1))(states)
    [47.61904761904762, -47.61904761904762, 1000.0]
    """
    w3, w2, wc = weights

    def batch(states: list[ConnectFourState]) -> list[float]:
        out = []
        for s in states:
            if not GAME.moves(s):
                out.append(GAME.evaluate(s))
                continue
            threes, twos, centre = GAME.features(s)
            e = w3 * threes + w2 * twos + wc * centre
            out.append(WIN * e / (abs(e) + 20))
        return out
    return batch


def weak_evaluation(states: list[ConnectFourState]) -> list[float]:
    """A weak evaluation: exact on finished games, else 10 points per piece in the centre
    column for X, minus 10 for O's.

    >>> weak_evaluation([GAME.state_from_moves("334")])
    [0]
    """
    out: list[float] = []
    for s in states:
        if not GAME.moves(s):
            out.append(GAME.evaluate(s))
        else:
            centre = Board.from_state(s).column(3)
            out.append(10 * (centre.count("X") - centre.count("O")))
    return out


def board_player(name: str, evaluate: Callable[[Board], float], node_budget: int = 1000) -> Player:
    """A player whose evaluation is a function of one :class:`Board`, as a student writes
    it; a value that is not a finite number makes it forfeit.

    >>> centre = board_player("centre", lambda b: b.column(3).count("X") - b.column(3).count("O"))
    >>> play_game(centre, random_player(), "00").result
    'X'
    """
    def batch(states: list[ConnectFourState]) -> list[float]:
        values = []
        for s in states:
            try:
                v = evaluate(Board.from_state(s))
            except Exception as err:
                raise EvaluationFailed(f"raised {type(err).__name__}: {err}") from None
            values.append(real_value(v))
        return check_values(values, states)
    return Player(name, batch, node_budget)


def real_value(v: Any) -> Any:
    """``v`` as a ``float`` if it is a real number (an int or float of Python or numpy, a
    ``Fraction``, a ``Decimal``), else ``v`` unchanged; a bool is not a number here, and a
    real number too large for a float is infinite. Call it where the value was made (in a
    sandboxed child, the child): converting runs the value's own code.

    >>> import numpy, fractions, decimal
    >>> [real_value(v) for v in (numpy.int64(3), fractions.Fraction(1, 4), decimal.Decimal("2"))]
    [3.0, 0.25, 2.0]
    >>> real_value(True), real_value(1j), real_value(10 ** 400), real_value(decimal.Decimal("-inf"))
    (True, 1j, inf, -inf)
    """
    if isinstance(v, bool) or not isinstance(v, numbers.Real | decimal.Decimal):
        return v
    try:
        return float(v)
    except OverflowError:
        return -math.inf if v < 0 else math.inf  # type: ignore[operator]
    except ValueError:
        if isinstance(v, decimal.Decimal) and v.is_snan():
            return math.nan
        raise  # the value's own conversion failed


def check_values(values: Any, states: Sequence[ConnectFourState]) -> list[float]:
    """``values`` if it holds one finite number per state, else :class:`EvaluationFailed`
    naming the first bad one and its board (as the moves that could not be recovered: the
    board is drawn instead).

    >>> check_values([1, 2.5], [GAME.initial_state()] * 2)
    [1, 2.5]
    >>> check_values([True], [GAME.initial_state()])
    Traceback (most recent call last):
    ...
    minimaxkit.arena.matches.EvaluationFailed: returned True (a bool), expected a number
    """
    if not isinstance(values, list) or len(values) != len(states):
        raise EvaluationFailed("did not return one value per board")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float):
            kind = type(v).__name__
            raise EvaluationFailed(f"returned {_short(v)} (a {kind}), expected a number")
        if not math.isfinite(v):
            raise EvaluationFailed(f"returned {v!r}, expected a finite number")
    return values  # type: ignore[no-any-return]


def _short(v: Any) -> str:
    try:
        text = repr(v)
    except Exception:
        text = f"<{type(v).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def kit_player(node_budget: int = 1000) -> Player:
    """The kit's evaluation searched with ``node_budget`` nodes per move."""
    return Player("kit", kit_evaluation, node_budget, ahead=0)


def weak_player(node_budget: int = 1000) -> Player:
    """:func:`weak_evaluation` searched with ``node_budget`` nodes per move."""
    return Player("weak", weak_evaluation, node_budget, ahead=0)


def random_player(seed: int = 0) -> Player:
    """Random legal moves, the same in the same position for the same ``seed``."""
    return Player("random", None, 0, seed)


# ----- searching with an evaluation --------------------------------------------------------
class _Evaluated:
    """Connect Four whose ``evaluate`` asks a batch evaluation: a leaf not yet valued is
    asked together with up to ``ahead`` of its next siblings not yet valued (one batch,
    not one call per leaf). ``cache`` holds the values already asked (one game's, shared
    by the player's moves)."""

    def __init__(self, batch: Batch, cache: dict[ConnectFourState, float] | None = None,
                 *, ahead: int = 2) -> None:
        self.batch, self.ahead = batch, ahead
        self.value_range = GAME.value_range
        self.cache: dict[ConnectFourState, float] = {} if cache is None else cache
        self.siblings: dict[ConnectFourState, tuple[ConnectFourState, ...]] = {}
        if ahead <= 0:
            self.moves = GAME.moves  # type: ignore[method-assign]
            self.evaluate = self._alone  # type: ignore[method-assign]

    def initial_state(self) -> ConnectFourState:
        return GAME.initial_state()

    def moves(self, state: ConnectFourState) -> tuple[int, ...]:
        found = GAME.moves(state)
        children = tuple(GAME.play(state, m) for m in found)
        for child in children:
            self.siblings[child] = children
        return found

    def _alone(self, state: ConnectFourState) -> float:
        try:
            return self.cache[state]
        except KeyError:
            value = self.cache[state] = self.batch([state])[0]
            return value

    def play(self, state: ConnectFourState, move: int) -> ConnectFourState:
        return GAME.play(state, move)

    def is_max(self, state: ConnectFourState) -> bool:
        return GAME.is_max(state)

    def evaluate(self, state: ConnectFourState) -> float:
        try:
            return self.cache[state]
        except KeyError:
            pass
        ask = [state]
        siblings = self.siblings.get(state)
        if siblings is not None:
            after = siblings[siblings.index(state) + 1:]
            ask += [s for s in after if s not in self.cache][:self.ahead]
        for s, v in zip(ask, self.batch(ask), strict=True):
            self.cache[s] = v
        return self.cache[state]


def choose(player: Player, state: ConnectFourState, *,
           memo: dict[ConnectFourState, float] | None = None) -> MoveInfo:
    """``player``'s move in ``state`` (which must not be over). ``memo`` keeps the values
    its evaluation gave, for the player's next moves in the same game: a board is asked
    once a game (:func:`play_game` passes one per player), which changes nothing for an
    evaluation that gives a board the same value every time.

    >>> choose(kit_player(300), GAME.state_from_moves("001122"))   # X takes the win
    MoveInfo(move=3, value=1000.0, depth=4, nodes=300)
    """
    moves = GAME.moves(state)
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    if player.evaluate is None:
        rng = random.Random(f"{player.seed}:{state}")
        return MoveInfo(rng.choice(moves), None, 0, 0)
    game = _Evaluated(player.evaluate, memo, ahead=player.ahead)
    result = deepen(game, state, node_budget=player.node_budget, trace=False)
    if result.move is None:  # not even depth 1 within the budget
        return MoveInfo(moves[0], None, 0, result.total_nodes)
    return MoveInfo(int(result.move), result.value, result.depth, result.total_nodes)


def play_game(x: Player, o: Player, opening: str) -> GameRecord:
    """A game from ``opening`` (column digits), ``x`` moving first. A player whose
    evaluation fails (:class:`EvaluationFailed`) loses the game. Each side's evaluation is
    asked about a board once in the game: its value is remembered for the side's later
    moves (``memo`` of :func:`choose`; the player's own :attr:`Player.memo` if it has
    one)."""
    state = GAME.state_from_moves(opening)
    moves, infos = opening, list[MoveInfo]()
    memos = tuple({} if p.memo is None else p.memo for p in (x, o))
    while GAME.moves(state):
        player = x if GAME.is_max(state) else o
        try:
            info = choose(player, state, memo=memos[not GAME.is_max(state)])
        except EvaluationFailed as err:
            side = "X" if player is x else "O"
            return GameRecord(x.name, o.name, opening, moves, tuple(infos),
                              "O" if side == "X" else "X", side, err.message)
        infos.append(info)
        moves += str(info.move)
        state = GAME.play(state, info.move)
    winner = GAME.winner(state)
    return GameRecord(x.name, o.name, opening, moves, tuple(infos), winner or "draw")


def play_match(a: Player, b: Player, openings: Sequence[str]) -> list[GameRecord]:
    """Two games per opening, ``a`` as X then ``b`` as X."""
    out = []
    for opening in openings:
        out.append(play_game(a, b, opening))
        out.append(play_game(b, a, opening))
    return out


def score(games: Sequence[GameRecord], name: str) -> float:
    """The points ``name`` earned in ``games`` (1 a win, 0.5 a draw)."""
    return sum(g.points(name) for g in games)


def wrong_move(game: GameRecord, name: str = "you") -> tuple[int, str] | None:
    """The ply of ``name``'s move that lost, and why: the first after which the kit's search
    finds a forced loss, else the one it judges costliest."""
    side = "X" if game.x == name else "O"
    sign = 1 if side == "X" else -1
    ref = kit_player(ANALYSIS_BUDGET)
    best: tuple[float, int] | None = None
    for ply in range(len(game.opening), len(game.moves)):
        state = GAME.state_from_moves(game.moves[:ply])
        if ("X" if GAME.is_max(state) else "O") != side:
            continue
        after = GAME.play(state, int(game.moves[ply]))
        before_v = sign * (choose(ref, state).value or 0.0)
        after_v = sign * (GAME.evaluate(after) if not GAME.moves(after)
                          else choose(ref, after).value or 0.0)
        if after_v <= -WIN and before_v > -WIN:
            return ply + 1, ("after this move the opponent can force four in a row (a "
                             f"{ANALYSIS_BUDGET}-node search finds it); before it, it could not")
        drop = before_v - after_v
        if best is None or drop > best[0]:
            best = (drop, ply + 1)
    if best is None:
        return None
    return best[1], (f"a {ANALYSIS_BUDGET}-node search with the kit's evaluation judges this "
                     "move the costliest of yours")
