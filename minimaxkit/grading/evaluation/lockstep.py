"""A submission's games played side by side against one evaluator: each game's search runs in a
thread of its own, but only one at a time, passing a baton in a fixed order, and the boards
the games are waiting for go to the evaluator together, one batch a round.

Why: each batch is a round trip to the sandboxed child, which costs more processor time on
each side (about 0.25 ms) than the solution's evaluation of a board; one game at a time made
130,000 round trips for a submission's 128 games. Played side by side, the games of a round
share one message. And the games take turns in two groups: while the child evaluates one
group's boards, this process searches the other group's games, so both processes work at
once (docs/benchmarks.md, *Assignment 5's games and play grade*).

The games are the same on every run and under any load: which game runs, and which boards go
in which batch, depends only on the games themselves, never on timing. They are the games
played one after another for an evaluation that gives a board one value; an evaluation that
keeps state between calls sees its boards in another order than one game at a time would
give, the same order on every run.

>>> from minimaxkit.arena.matches import Player, board_player, play_game, weak_player
>>> from minimaxkit.grading.evaluation.evaluators import LocalEvaluator
>>> def centre(b):
...     won = {"X": 1000, "O": -1000}.get(b.winner() or "", 0)
...     return won or b.column(3).count("X") - b.column(3).count("O")
>>> weak = weak_player(60)
>>> games = [Pairing("33", "X", weak), Pairing("33", "O", weak)]
>>> played = play_side_by_side(games, LocalEvaluator(centre), Player("you", None, 60))
>>> alone = board_player("you", centre, 60)   # the same games, one at a time
>>> played == [play_game(alone, weak, "33"), play_game(weak, alone, "33")]
True
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...arena.matches import EvaluationFailed, GameRecord, Player, play_game
from ...games.connect4 import ConnectFourState
from .evaluators import BANK, PER_BOARD, LocalEvaluator, checked

__all__ = ["Pairing", "PlayLimits", "play_side_by_side", "forfeited", "BATCH_CAP", "SLOTS",
           "GROUPS"]

#: games under way at once, in all groups together (a thread each)
SLOTS = 48
#: groups taking turns: while the evaluator answers one group's batch, the next one searches
GROUPS = 2
#: the most boards in one batch: a batch on its way must fit in the pipe to the child, so that
#: neither side ever waits for the other to read (about 30 bytes a board; a pipe holds 64 KB)
BATCH_CAP = 800
#: seconds between two looks at the processor time the evaluator has used
LOOK = 0.5


@dataclass(frozen=True)
class Pairing:
    """One game to play: from ``opening`` (column digits), the student's player on ``side``
    (``"X"`` moves first) against ``opponent``."""

    opening: str
    side: str
    opponent: Player


@dataclass(frozen=True)
class PlayLimits:
    """What all the games together may take: ``cpu`` processor seconds of the evaluator,
    ``wall`` seconds on the clock; and ``memo``, the most board values remembered (the
    memo is emptied past it, a bound on the grader's memory)."""

    cpu: float = 500.0
    wall: float = 1200.0
    memo: int = 200_000


def forfeited(x: str, o: str, opening: str, side: str, why: str) -> GameRecord:
    """A game not played to its end: the player on ``side`` forfeits it, ``why``."""
    return GameRecord(x, o, opening, opening, (), "O" if side == "X" else "X", side, why)


class _Game:
    """One game's search, in a thread of its own that runs only while it holds the baton
    (:func:`_take_turns`): it runs until the student's player needs boards valued
    (:attr:`request`) or the game ends (:attr:`record`), then hands the baton on."""

    def __init__(self, pairing: Pairing, you: Player) -> None:
        self.pairing = pairing
        player = replace(you, evaluate=self._ask)
        x, o = (player, pairing.opponent) if pairing.side == "X" else (pairing.opponent, player)
        self.request: list[ConnectFourState] = []
        self.answers: list[Any] = []
        self.failure = ""  # set by the caller: the next request raises it (the game forfeits)
        self.record: GameRecord | None = None
        self.error: BaseException | None = None
        self.turn = threading.Lock()  # held by the caller until it is this game's turn
        self.turn.acquire()
        self.then: threading.Lock | None = None  # whom to hand the baton to (the next one)
        self.thread = threading.Thread(target=self._run, args=(x, o), daemon=True,
                                       name=f"minimaxkit-game-{pairing.opening}")
        self.thread.start()

    @property
    def over(self) -> bool:
        return self.record is not None or self.error is not None

    def _hand_on(self) -> None:
        assert self.then is not None
        self.then.release()

    def _run(self, x: Player, o: Player) -> None:
        self.turn.acquire()
        try:
            self.record = play_game(x, o, self.pairing.opening)
        except BaseException as err:  # the kit's own failure: the caller raises it
            self.error = err
        finally:
            self.request = []
            self._hand_on()

    def _ask(self, states: list[ConnectFourState]) -> list[float]:
        """The student's evaluation, as the search calls it in this game's thread: hand the
        baton on with the request, and wait for the answers."""
        if not self.failure:
            self.request = list(states)
            self._hand_on()
            self.turn.acquire()
        if self.failure:
            raise EvaluationFailed(self.failure, fatal=True)
        answers, self.answers = self.answers, []
        return checked(answers, states)


def _take_turns(games: Sequence[_Game], back: threading.Lock) -> None:
    """Let each of ``games`` run in turn until it asks for boards or ends: the baton goes
    from one game to the next, in order, and from the last back to the caller, who waits
    on ``back`` (a lock it holds). One switch between threads a game."""
    if not games:
        return
    for game, after in zip(games, games[1:], strict=False):
        game.then = after.turn
    games[-1].then = back
    games[0].turn.release()
    back.acquire()
    for game in games:
        if game.over:
            game.thread.join()


@dataclass
class _Batch:
    """The boards of one round of a group: the games asking, and their boards, each once."""

    games: list[_Game]
    boards: list[ConnectFourState]


class _SideBySide:
    """The rounds: each group's games step until they ask, their boards go out in one batch,
    and the answers come back to them, group after group."""

    def __init__(self, pairings: Sequence[Pairing], ev: LocalEvaluator, you: Player,
                 limits: PlayLimits) -> None:
        self.ev, self.you, self.limits = ev, you, limits
        self.todo = deque(enumerate(pairings))
        self.games: dict[int, _Game] = {}  # by the pairing's place, once started
        self.unplayed: dict[int, GameRecord] = {}  # pairings never started (a stop)
        self.groups: list[list[_Game]] = [[] for _ in range(GROUPS)]
        self.in_flight: deque[tuple[int, _Batch]] = deque()
        self.start = self.looked = time.monotonic()
        self.stopped = ""
        self.back = threading.Lock()  # the baton's way back to this (the caller's) thread
        self.back.acquire()

    def run(self) -> None:
        """Play every game (or stop them all: :attr:`stopped` says why)."""
        try:
            for g in range(GROUPS):
                self._fill(g)
                self._send(g)
            while self.in_flight:
                g, batch = self.in_flight.popleft()
                self._answer(batch)
                self._check()
                self._fill(g)
                self._send(g)
        except EvaluationFailed as err:  # the evaluator failed, or the games are over time
            self.stopped = err.message
        finally:
            self._wind_up()

    def records(self) -> list[GameRecord]:
        """The games, in the pairings' order (a failure of the kit's own is raised)."""
        out = []
        for i in range(len(self.games) + len(self.unplayed)):
            if i in self.unplayed:
                out.append(self.unplayed[i])
                continue
            game = self.games[i]
            if game.error is not None:
                raise game.error
            assert game.record is not None
            out.append(game.record)
        return out

    def _fill(self, g: int) -> None:
        """Start games in the group's free places (its share of :data:`SLOTS`), each stepped
        to its first request."""
        group = [game for game in self.groups[g] if not game.over]
        started: list[_Game] = []
        while self.todo and len(group) + len(started) < SLOTS // GROUPS:
            i, pairing = self.todo.popleft()
            started.append(_Game(pairing, self.you))
            self.games[i] = started[-1]
        _take_turns(started, self.back)
        self.groups[g] = group + [game for game in started if not game.over]

    def _send(self, g: int) -> None:
        """The group's requests in one batch, a board asked by two games once."""
        asking = [game for game in self.groups[g] if game.request]
        if not asking:
            return
        boards = list(dict.fromkeys(s for game in asking for s in game.request))
        if len(boards) > BATCH_CAP:
            raise ValueError(f"a batch of {len(boards)} boards: at most {BATCH_CAP} fit the "
                             "pipe (fewer SLOTS, or a smaller Player.ahead)")
        self.ev.asked += len(boards)
        self.ev.post(boards)
        self.in_flight.append((g, _Batch(asking, boards)))

    def _answer(self, batch: _Batch) -> None:
        """The evaluator's answers to ``batch``, each game given its own; then each steps on
        to its next request."""
        timeout = BANK + PER_BOARD * len(batch.boards)
        answers = dict(zip(batch.boards, self.ev.collect(timeout, slow=(
            f"did not answer {len(batch.boards)} boards within {timeout:.3g} s ({BANK:g} s, "
            f"and {1000 * PER_BOARD:g} ms a board)")), strict=True))
        for game in batch.games:
            game.answers = [answers[s] for s in game.request]
        _take_turns(batch.games, self.back)

    def _check(self) -> None:
        """Stop every game once the games have used up their time (:class:`PlayLimits`) or,
        looked at every :data:`LOOK` s, more processor time than the speed limit allows for
        the boards asked; and keep the memo within its bound."""
        memo = self.you.memo
        if memo is not None and len(memo) > self.limits.memo:
            memo.clear()
        now = time.monotonic()
        if now - self.looked < LOOK:
            return
        self.looked = now
        used = self.ev.used_so_far()
        why = (self.ev.over_limit(used, games=True) or
               (f"stopped: the games took more than {self.limits.cpu:g} s of processor time "
                "in all" if used > self.limits.cpu else
                f"stopped: the games took longer than {self.limits.wall:g} s in all"
                if now - self.start > self.limits.wall else ""))
        if why:
            raise EvaluationFailed(why, fatal=True)

    def _wind_up(self) -> None:
        """After a stop: the answers on their way read (so that the worker ends cleanly),
        every game not over forfeited, and those never started too."""
        while self.in_flight and not self.ev.fatal:
            self.in_flight.popleft()
            try:
                self.ev.collect(BANK)
            except EvaluationFailed:
                break
        why = self.stopped or "not played: the grading stopped"
        going = [game for game in self.games.values() if not game.over]
        for game in going:
            game.failure = why
        _take_turns(going, self.back)
        while self.todo:
            i, p = self.todo.popleft()
            x, o = (self.you.name, p.opponent.name) if p.side == "X" else \
                (p.opponent.name, self.you.name)
            self.unplayed[i] = forfeited(x, o, p.opening, p.side, why)


def play_side_by_side(pairings: Sequence[Pairing], ev: LocalEvaluator, you: Player, *,
                      limits: PlayLimits = PlayLimits()) -> list[GameRecord]:
    """Every pairing's game, in the pairings' order, ``you`` (the student's player: its name,
    budget and memo; ``ev`` evaluates for it) on the pairing's side. Call it inside
    ``ev.session``: the games share one worker. A board the function fails on forfeits the
    game it was asked for; an evaluator that stops answering, or games over their
    :class:`PlayLimits`, or slower than the speed limit for the boards they asked, forfeit
    every game not over (the caller holds the finished ones to the speed limit too, with
    ``ev.over_limit``)."""
    ev.asked = 0
    play = _SideBySide(pairings, ev, you, limits)
    play.run()
    return play.records()
