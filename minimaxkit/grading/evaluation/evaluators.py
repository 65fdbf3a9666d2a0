"""The student's evaluation, called here (their own runs) or in a sandboxed child (autograde,
the tournament): a batch of Connect Four states in, an answer each out.

>>> from minimaxkit.arena.matches import GAME
>>> LocalEvaluator(lambda b: b.moves_played).results([GAME.state_from_moves("33")])
[2.0]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...arena.matches import EvaluationFailed, check_values, real_value
from ...games.connect4_board import Board
from ...isolation.rules import Rules
from ...isolation.session import ChildFailed, Session, Worker
from ...isolation.usage import usage
from ..testdata.places import HIDDEN_TESTS, TESTS

__all__ = ["LocalEvaluator", "RemoteEvaluator", "values", "checked", "RULES", "BANK", "PER_BOARD",
           "OWN_CAP", "GAME_CPU", "SLACK", "GAME_START", "WAITING"]

#: assignment 5's rules: the kit's searches allowed (an evaluation may compute anything within
#: its time, in its own process); a print is output like any other, past the cap dropped, and
#: the games go on (a game asks thousands of boards: a print a board is no reason to forfeit)
RULES = Rules(refuse_searches=False, stop_output=False, refused_files=(TESTS, HIDDEN_TESTS),
              alone=True, exact_clock=True)
#: a player's own time in a game, charged batch by batch to the player asked: BANK seconds,
#: PER_BOARD more per board asked (25 times the 1 ms speed limit: wall-clock time on a busy
#: machine), at most OWN_CAP in all
BANK, PER_BOARD, OWN_CAP = 10.0, 0.025, 120.0
GAME_CPU = 150.0  # processor seconds of a game's worker in the child
#: the speed check's processor time varies by up to about 10% with what else the machine
#: runs (docs/grading.md): a function at the limit passes with this much to spare
SLACK = 1.2
#: a function may take WAITING times the speed limit a board on the clock (waiting included,
#: as in ``time.sleep``): far above what load adds to one that computes
WAITING = 10.0
#: in a game, a player may use SLACK times the speed limit of processor time a board it is
#: asked, and GAME_START seconds more (its worker's start): a function slower in play than
#: in the check (or in the tournament than in autograde) forfeits the game
GAME_START = 0.25


class LocalEvaluator:
    """The function called in this process."""

    def __init__(self, fn: Callable[[Board], Any]) -> None:
        self.fn, self.fatal = fn, ""
        self.asked, self.spent = 0, 0.0  # this game's boards and own seconds
        self.used = 0.0  # the last session's processor seconds
        self.limit_ms = 1.0  # the speed limit (the correctness check's ``limit_ms``)
        self._posted: list[list[Any]] = []  # batches asked, not yet answered

    def results(self, states: list[Any], timeout: float = 5.0, *, slow: str = "") -> list[Any]:
        """An answer per state: a float, or ``{"raised": ...}`` / ``{"bad": ...}`` saying what
        went wrong on that board."""
        self.post(states)
        return self.collect(timeout, slow=slow)

    def post(self, states: list[Any]) -> None:
        """Ask about ``states`` without waiting for the answers (:meth:`collect` gives them,
        oldest first): an evaluator in another process works meanwhile."""
        self._posted.append(states)

    def collect(self, timeout: float = 0.0, *, slow: str = "") -> list[Any]:
        """The answers to the oldest batch posted and not yet collected (here: computed now,
        in this process)."""
        states = self._posted.pop(0)
        start = time.process_time()  # the function's own time (the search shares the process)
        try:
            return [self._answer(s) for s in states]
        finally:
            self.used += time.process_time() - start

    def _answer(self, state: Any) -> Any:
        try:
            v = self.fn(Board.from_state(state))
            number = real_value(v)  # converting runs the value's own code
        except Exception as err:
            return {"raised": f"{type(err).__name__}: {err}"}
        return number if isinstance(number, float) else \
            {"bad": f"{v!r:.60} (a {type(v).__name__})"}

    def session(self, task: Callable[[], Any], timeout: float, *, wall: float = 1.0) -> Any:
        self.asked, self.spent, self.used = 0, 0.0, 0.0
        return task()

    def cpu(self) -> float:
        """Processor seconds used so far where the function runs (what the speed is timed by)."""
        return time.process_time()

    def used_so_far(self) -> float:
        """Processor seconds the function has used in this session so far (one quick look:
        :attr:`used` is the exact figure once the session ends)."""
        return self.used

    def over_limit(self, used: float | None = None, *, games: bool = False) -> str:
        """Why the last session (a game, or with ``games`` all the games played side by
        side) used more processor time (``used``, default :attr:`used`) than the speed limit
        allows for the boards it asked (see :data:`GAME_START`); ``""`` if it did not."""
        used = self.used if used is None else used
        if used <= SLACK * self.limit_ms / 1000 * self.asked + GAME_START:
            return ""
        what, start = ("the games", "the games' start") if games else ("this game",
                                                                      "the game's start")
        said = f"too slow in {what}: {used:.3g} s of processor time "
        return said + (f"before it was asked any board ({start} may take {GAME_START:g} s)"
                       if not self.asked else f"for the {self.asked:,} boards it was asked "
                       f"({1000 * used / self.asked:.2g} ms a board; the limit is "
                       f"{self.limit_ms:g} ms, {SLACK - 1:.0%} more allowed, and "
                       f"{GAME_START:g} s for {start})")

    def allowance(self, boards: int) -> float:
        """Seconds left for a batch of ``boards`` in this game (see :data:`BANK`)."""
        self.asked += boards
        return min(BANK + PER_BOARD * self.asked, OWN_CAP) - self.spent


#: the longest text an answer may carry (the child cuts what a function raised or returned to
#: about 300 characters; a longer one was written by the notebook's code, not the child)
ANSWER_TEXT = 600


def _answer(x: Any) -> bool:
    """An answer as the child writes it: a float (it converts every number), or what went
    wrong in a short text; anything else was written by the notebook's code."""
    if isinstance(x, dict):
        said = x.get("bad", x.get("raised"))
        return isinstance(said, str) and len(said) <= ANSWER_TEXT
    return isinstance(x, float)


class RemoteEvaluator(LocalEvaluator):
    """The function ``name`` in a session's child: a worker per :meth:`session`, a request
    per batch."""

    def __init__(self, session: Session, name: str) -> None:
        super().__init__(lambda b: None)
        self.remote, self.name = session, name
        self._worker: Worker | None = None
        self._began = 0.0  # the sandbox's processor seconds as the session began

    def post(self, states: list[Any]) -> None:
        """Send the batch to the worker (at most two batches are ever on their way: each is
        small enough for the pipe, so that neither side waits on the other's reading)."""
        assert self._worker is not None
        self._posted.append(states)
        self._worker.send({"op": "boards", "fn": self.name,
                           "states": [list(s) for s in states], "size": [7, 6]})

    def collect(self, timeout: float = 5.0, *, slow: str = "") -> list[Any]:
        """The worker's answers to the oldest batch posted, each checked: a float, or a short
        text of what went wrong; anything else, a reply past ``timeout`` seconds or a worker
        that ended is fatal (:class:`EvaluationFailed`, :attr:`fatal` says why)."""
        assert self._worker is not None
        states = self._posted.pop(0)
        if timeout <= 0:
            self.fatal = slow or "took too long"
            raise EvaluationFailed(self.fatal, fatal=True)
        try:
            kind, got = self._worker.receive(timeout=timeout)
            if kind == "raised" and isinstance(got, dict):  # past the per-board handling
                raise ChildFailed("raised", str(got.get("message"))[:ANSWER_TEXT] or (
                    "it opened the grader's test data, which is not allowed while graded"))
            if kind != "return" or not isinstance(got, list) or len(got) != len(states) \
                    or not all(map(_answer, got)):
                raise ChildFailed("protocol", "the notebook's code interfered with the grader "
                                              "(a wrong answer to a batch of boards)")
        except ChildFailed as err:
            self.fatal = err.message or slow or f"did not answer within {timeout:.2g} s"
            raise EvaluationFailed(self.fatal, fatal=True) from None
        return got

    def cpu(self) -> float:
        return self.remote.cpu()

    def used_so_far(self) -> float:
        proc = self.remote.proc
        return usage(proc.pid).cpu - self._began if proc is not None else 0.0

    def session(self, task: Callable[[], Any], timeout: float, *, wall: float = 1.0) -> Any:
        """``task()`` with a worker of at most ``timeout`` processor seconds, and ``wall``
        times as many seconds in all (0: each batch's own limit counts)."""
        self.asked, self.spent, self.used = 0, 0.0, 0.0
        start = self._began = self.cpu()  # before the worker is forked: all it does is charged
        try:
            with self.remote.worker(timeout, wall=wall) as worker:
                self._worker, self._posted = worker, []
                try:
                    # (the ``with`` ends the worker; a failed end, as of a worker whose code
                    # killed the process that forked it, makes the answers not count)
                    return task()
                finally:
                    self._worker = None
                    self.used = max(0.0, self.cpu() - start)
        except ChildFailed as err:
            self.fatal = self.fatal or err.message or _words(err.status, timeout)
            return None


def _words(status: str, timeout: float) -> str:
    """A failure without a message, in the student's words (never the status's name).

    >>> _words("timeout", 150)
    'did not finish within 150 s (an endless loop?)'
    """
    if status == "timeout":
        return f"did not finish within {timeout:g} s (an endless loop?)"
    if status == "protocol":
        return "the notebook's code interfered with the grader"
    return "the process running it ended (did the code end it, or run out of memory?)"


def values(ev: LocalEvaluator, states: list[Any]) -> list[float]:
    """A batch for a :class:`~minimaxkit.arena.matches.Player`, on the player's own clock (see
    :data:`BANK`); a bad answer forfeits."""
    start = time.monotonic()
    try:
        got = ev.results(states, timeout=ev.allowance(len(states)), slow=(
            f"took longer than its time for a game ({BANK:g} s, {1000 * PER_BOARD:g} ms more "
            f"a board it was asked, at most {OWN_CAP:g} s)"))
    finally:
        ev.spent += time.monotonic() - start
    return checked(got, states)


def checked(answers: list[Any], states: list[Any]) -> list[float]:
    """The answers' numbers, one per state; an answer that says what went wrong on its board
    (it raised, or returned something other than a number) is :class:`EvaluationFailed`
    naming the board: the game it was asked for is forfeited.

    >>> from minimaxkit.arena.matches import GAME
    >>> checked([{"raised": "KeyError: 3"}], [GAME.state_from_moves("33")])
    Traceback (most recent call last):
    ...
    minimaxkit.arena.matches.EvaluationFailed: raised KeyError: 3 on the board after 2 moves \
(X to move)
    """
    for r, s in zip(answers, states, strict=True):
        if isinstance(r, dict):
            why = r.get("raised") and f"raised {r['raised']}" or f"returned {r.get('bad')}"
            raise EvaluationFailed(f"{why} on the board after {moves_of(s)}")
    return check_values(answers, states)


def moves_of(state: Any) -> str:
    b = Board.from_state(state)
    return f"{b.moves_played} moves ({b.to_move} to move)"
