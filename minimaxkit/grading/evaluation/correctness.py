"""Assignment 5's correctness check of an evaluation: finished games valued exactly, boards in
play strictly inside (-WIN, WIN), a mirrored board valued the same, the same board the same
value when asked again (pure), and fast enough. Its verdict on speed decides whether the
function plays its games (:class:`Speed`).

>>> from minimaxkit.grading.evaluation.evaluators import LocalEvaluator
>>> spec = CorrectnessSpec(seed=3, finished=4, in_play=6, limit_ms=50)
>>> report = check_correctness(LocalEvaluator(lambda b: 0), spec, points=5)
>>> [ok for _, ok, _ in report.items]
[False, True, True, True, True]
>>> report.earned, report.no_games
(4.0, '')
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...arena.game_pages import moves_text
from ...arena.matches import GAME, EvaluationFailed
from ...games.connect4_board import WIN, mirror_state
from .boards import correctness_boards, random_positions
from .evaluators import SLACK, WAITING, LocalEvaluator
from .feedback import EvaluationReport

__all__ = ["check_correctness", "CorrectnessSpec", "Speed", "LABELS"]

#: the items' short names, in order (their labels say more, with the numbers)
LABELS = ("finished games valued exactly", "boards in play get a number",
          "a mirrored board gets the same value", "pure", "fast enough")

Key = tuple[str, int]  # ("b", i) checked board i, ("m", i) its mirror image, ("f", j) filler j


@dataclass(frozen=True)
class CorrectnessSpec:
    """The correctness question of tests.json: the released ``seed`` of the practice boards,
    how many ``finished`` games and boards ``in_play`` are checked, and the speed limit
    ``limit_ms`` (milliseconds of processor time a board)."""

    seed: int = 5
    finished: int = 20
    in_play: int = 60
    limit_ms: float = 1.0

    @classmethod
    def of(cls, spec: dict[str, Any]) -> CorrectnessSpec:
        """The spec of a question of tests.json; a missing or malformed value is the
        instructor's error, named.

        >>> CorrectnessSpec.of({"seed": 3, "finished": 4, "in_play": 6, "limit_ms": 50})
        CorrectnessSpec(seed=3, finished=4, in_play=6, limit_ms=50.0)
        """
        try:
            return cls(int(spec["seed"]), int(spec["finished"]), int(spec["in_play"]),
                       float(spec.get("limit_ms", 1.0)))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"tests.json, correctness: needs whole numbers seed, finished "
                             f"and in_play (and may have limit_ms): {err!r}") from None


@dataclass(frozen=True)
class Speed:
    """What the check measured of the function's speed: processor milliseconds a board
    (``ms_per_board``, over ``answered`` boards; None when it answered none with a number),
    milliseconds a board on the clock (``waits``), against ``limit_ms``."""

    ms_per_board: float | None
    waits: float
    limit_ms: float
    answered: int

    @property
    def too_slow(self) -> bool:
        """Over the limit (with :data:`~.evaluators.SLACK`) in processor time."""
        return self.ms_per_board is not None and self.ms_per_board > SLACK * self.limit_ms

    @property
    def waits_too_long(self) -> bool:
        """Over :data:`~.evaluators.WAITING` times the limit on the clock."""
        return self.ms_per_board is not None and self.waits > WAITING * self.limit_ms

    def no_games(self) -> str:
        """Why the function plays no games, in the student's words; ``""`` if it plays.
        "Too slow" (measured) and "no number to time" (nothing measured) are told apart.

        >>> Speed(None, 0.0, 1.0, 0).no_games()
        'the correctness check got no number from it to time'
        >>> Speed(5.0, 5.1, 1.0, 600).no_games().split("; ")
        ['the correctness check found it too slow (5.0 ms of processor time a board', \
'the limit is 1 ms)']
        """
        if self.ms_per_board is None:
            return "the correctness check got no number from it to time"
        if self.too_slow:
            return (f"the correctness check found it too slow ({self.ms_per_board:.1f} ms of "
                    f"processor time a board; the limit is {self.limit_ms:g} ms)")
        if self.waits_too_long:
            return (f"the correctness check found it waiting too long ({self.waits:.1f} ms a "
                    f"board on the clock; at most {WAITING * self.limit_ms:g} ms)")
        return ""


@dataclass
class _Asking:
    """The boards the check asks, in the order it asks them: every checked board and its
    mirror image shuffled together (``first``), then boards of random games with every
    checked board again shuffled among them (``again``), each order drawn from the seed."""

    boards: dict[str, list[Any]]
    first: list[Key]
    again: list[Key]
    rng: random.Random
    spent: float = 0.0  # processor seconds of the workers, their starts included
    answered: int = 0  # boards answered with a number
    wall: float = 0.0  # seconds waited for the answers
    got: dict[str, dict[Key, Any]] = field(default_factory=dict)

    @classmethod
    def draw(cls, states: list[Any], seed: int) -> _Asking:
        rng = random.Random(f"{seed}/correctness order")
        n = len(states)
        first = [(k, i) for i in range(n) for k in "bm"]
        rng.shuffle(first)
        fillers = random_positions(rng, 3 * n + rng.randrange(2 * n + 1))
        lead = len(fillers) // 2 + rng.randrange(len(fillers) // 4 + 1)
        again: list[Key] = [("f", j) for j in range(lead, len(fillers))]
        for i in range(n):
            again.insert(rng.randrange(len(again) + 1), ("b", i))
        again = [("f", j) for j in range(lead)] + again
        boards = {"b": states, "m": [mirror_state(s) for s in states], "f": fillers}
        return cls(boards, first, again, rng)

    def ask(self, ev: LocalEvaluator, order: list[Key]) -> dict[Key, Any]:
        """The answers to ``order``, in batches of 1 to 7 boards, as a game's: nothing tells
        the check from a game."""
        got: dict[Key, Any] = {}
        while len(got) < len(order):
            chunk = order[len(got):len(got) + self.rng.randint(1, 7)]
            began = time.monotonic()
            answers = ev.results([self.boards[k][j] for k, j in chunk],
                                 timeout=10.0 + 0.05 * len(chunk))
            self.wall += time.monotonic() - began  # waiting counts there (WAITING)
            self.answered += sum(not isinstance(a, dict) for a in answers)
            got.update(zip(chunk, answers, strict=True))
        return got

    def run(self, ev: LocalEvaluator) -> bool:
        """Both workers' answers (:attr:`got`: ``"first"``, ``"again"``); False if a worker
        could not finish (``ev.fatal`` says why)."""
        for name, order in (("first", self.first), ("again", self.again)):
            answers = ev.session(partial(self.ask, ev, order),
                                 timeout=30.0 + 0.2 * len(order))
            self.spent += ev.used
            if answers is None:
                return False
            self.got[name] = answers
        return True

    def speed(self, limit_ms: float) -> Speed:
        per_board = 1000 * self.spent / self.answered if self.answered else None
        return Speed(per_board, 1000 * self.wall / max(self.answered, 1), limit_ms,
                     self.answered)


def check_correctness(ev: LocalEvaluator, spec: CorrectnessSpec, *, points: float,
                      visible: bool = False, seed: int | None = None) -> EvaluationReport:
    """The five correctness items (on a fifth of the boards if ``visible``). ``seed`` (the
    course's, from its secret) draws the boards in place of the released seed, the order they
    are asked in and the boards asked between them, so that no function can tell the check's
    boards from others: every board and its mirror image are asked in a shuffled order by
    one worker; a fresh worker then asks many other boards, and the checked ones again,
    shuffled among more of them (pure: the same answers); the speed is the processor time
    where the function runs (:meth:`~.evaluators.LocalEvaluator.cpu`), a mean over every
    board asked. The report's ``no_games`` says why the function plays no games, if not."""
    seed = spec.seed if seed is None else seed
    boards = correctness_boards({"seed": seed, "finished": spec.finished,
                                 "in_play": spec.in_play})
    if visible:
        boards = boards[::5]
    limit = ev.limit_ms = spec.limit_ms
    asking = _Asking.draw([GAME.state_from_moves(m) for m, _ in boards], seed)
    report = EvaluationReport("correctness", points)
    try:
        finished = asking.run(ev)
    except EvaluationFailed as err:
        finished, report.note = False, f"the function could not be checked: {err.message}"
    if not finished:
        report.note = report.note or f"the function could not be checked: {ev.fatal}"
        report.items = [(label, False, "") for label in LABELS]
        report.no_games = "it " + report.note.removeprefix("the function ")
        return report
    speed = asking.speed(limit)
    report.items = _items(boards, asking, speed)
    report.no_games = speed.no_games()
    if speed.ms_per_board is not None:
        report.speed = {"ms_per_board": round(speed.ms_per_board, 4), "limit_ms": limit,
                        "too_slow": bool(report.no_games), "boards": len(boards)}
    return report


def _items(boards: list[tuple[str, str]], asking: _Asking,
           speed: Speed) -> list[tuple[str, bool, str]]:
    """The five items from the answers: ``(label, passed, what went wrong where)``."""
    n = len(boards)
    first = [asking.got["first"]["b", i] for i in range(n)]
    mirrored = [asking.got["first"]["m", i] for i in range(n)]
    again = [asking.got["again"]["b", i] for i in range(n)]
    n_fin = sum(k != "play" for _, k in boards)
    wrong_fin = _first_wrong(boards, first, finished=True)
    wrong_play = _first_wrong(boards, first, finished=False)
    mirror_bad = _differs(boards, first, mirrored, lambda b: f", its mirror image {b!r}")
    pure_bad = _differs(boards, first, again, lambda b: f" the first time, {b!r} the second")
    answered = speed.ms_per_board is not None
    return [
        (f"finished games valued exactly ({n_fin} boards: {WIN} X won, {-WIN} O won, 0 a "
         "draw)", not wrong_fin, wrong_fin),
        (f"boards in play ({n - n_fin}) get a number strictly between {-WIN} and {WIN}",
         not wrong_play, wrong_play),
        ("a mirrored board gets the same value", not mirror_bad and answered, mirror_bad),
        ("pure: the same board gets the same value when asked again",
         not pure_bad and answered, pure_bad),
        _speed_item(speed, asking.answered)]


def _speed_item(speed: Speed, boards: int) -> tuple[str, bool, str]:
    if speed.ms_per_board is None:
        return ("fast enough: not measured, as it answered no board with a number", False,
                "no games either")
    label = (f"fast enough: {speed.ms_per_board:.3f} ms of processor time per board on "
             f"average over the {boards} boards it answered (the boards above, their mirror "
             f"images and others asked among them; limit {speed.limit_ms:g} ms, "
             f"{SLACK - 1:.0%} more allowed for what a busy machine adds)")
    if speed.too_slow:
        return label, False, "too slow: the games would take too long, so they are not played"
    if speed.waits_too_long:
        return label, False, (
            f"too slow: it took {speed.waits:.2g} ms a board on the clock (at most "
            f"{WAITING:g} times the limit, {WAITING * speed.limit_ms:g} ms, waiting included), "
            "so the games would take too long and are not played")
    return label, True, ""


def _where(boards: list[tuple[str, str]], i: int, answer: Any) -> str:
    """What the function said about checked board ``i``."""
    where = f"the board after {moves_text(boards[i][0])}"
    if isinstance(answer, dict):
        said = f"raised {answer['raised']}" if "raised" in answer else \
            f"returned {answer['bad']}"
        return f"{where}: {said}"
    return f"{where}: returned {answer!r}"


def _first_wrong(boards: list[tuple[str, str]], answers: list[Any], *, finished: bool) -> str:
    """The first finished board (or board in play) valued wrongly, in words; ``""`` if
    none."""
    for i, ((_, kind), r) in enumerate(zip(boards, answers, strict=True)):
        if (kind != "play") != finished:
            continue
        want = {"X": WIN, "O": -WIN, "draw": 0}.get(kind)
        if isinstance(r, dict) or not math.isfinite(r):
            return _where(boards, i, r)
        if want is not None and r != want:
            what = "a draw" if kind == "draw" else f"{kind} has four in a row"
            return f"{_where(boards, i, r)}, expected {want} ({what})"
        if want is None and not -WIN < r < WIN:
            return (f"{_where(boards, i, r)}: a board still in play must score strictly "
                    f"between {-WIN} and {WIN}")
    return ""


def _differs(boards: list[tuple[str, str]], mine: list[Any], others: list[Any],
             words: Callable[[Any], str]) -> str:
    """The first board whose two numbers differ, with ``words(other)`` after what the
    function first said; ``""`` if none."""
    for i, (a, b) in enumerate(zip(mine, others, strict=True)):
        if isinstance(a, dict) or isinstance(b, dict):
            continue
        if abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)):
            return _where(boards, i, a) + words(b)
    return ""
