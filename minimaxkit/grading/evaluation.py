"""Assignment 5: grading a Connect Four evaluation function by checks and by play.

The student writes ``evaluate(board)`` (a :class:`~minimaxkit.games.connect4_board.Board`)
returning a number from X's side. Two test cells, read from ``tests.json``:

* ``correctness``: finished games get exactly ``WIN``, ``-WIN`` or 0; boards in play a
  finite number strictly between; a mirrored board the same value; the same board the same
  value when asked again (pure); and on average at most ``limit_ms`` per board.
* ``play``: the kit's alpha-beta with progressive deepening and a fixed node budget per
  move (:mod:`minimaxkit.matches`), using the function, plays each rung of a ladder of
  reference players from a book of openings, both colours; a rung scores its points when
  the function's share of the points reaches the rung's margin.

When nbgrader autogrades, the trusted grader (:mod:`.trusted`) runs this in its own
process: the search and the game record stay there, and the student's function, in the
sandboxed child, only answers batches of boards (:meth:`.remote.Session.call_boards`). In a
student's own kernel the same checks run in-process on the visible share.

>>> spec = {"seed": 3, "finished": 4, "in_play": 6, "limit_ms": 50}
>>> report = check_correctness(LocalEvaluator(lambda b: 0), spec, points=5)
>>> [ok for _, ok, _ in report.items]
[False, True, True, True, True]
>>> report.earned
4.0
"""

from __future__ import annotations

import json
import math
import os
import random
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..games.connect4_board import WIN, Board, mirror_state
from ..matches import (
    GAME,
    EvaluationFailed,
    GameRecord,
    Player,
    check_values,
    choose,
    kit_player,
    play_game,
    random_player,
    weak_player,
)

__all__ = ["LocalEvaluator", "RemoteEvaluator", "EvaluationReport", "check_correctness",
           "check_play", "grade", "correctness_boards", "is_evaluation", "trusted_report"]

ANALYSIS_BUDGET = 1000  # nodes per position when looking for the move that lost
MAX_SHOWN = 2  # lost games shown per feedback
PLAY_CAP = 300.0  # seconds all of a submission's games may take: a backstop for a function
# just under the per-board limit; TrustedGrade's budget for the notebook stays above it


# ----- the student's function, here or in the sandboxed child ----------------------------
class LocalEvaluator:
    """The function called in this process (a student's own runs)."""

    def __init__(self, fn: Callable[[Board], Any]) -> None:
        self.fn, self.fatal = fn, ""

    def results(self, states: list[Any], timeout: float = 0.0) -> list[Any]:
        out: list[Any] = []
        for s in states:
            try:
                v = self.fn(Board.from_state(s))
            except Exception as err:
                out.append({"raised": f"{type(err).__name__}: {err}"})
                continue
            ok = not isinstance(v, bool) and isinstance(v, int | float)
            out.append(float(v) if ok else {"bad": f"{v!r:.60} (a {type(v).__name__})"})
        return out

    def session(self, task: Callable[[], Any], timeout: float) -> Any:
        return task()


class RemoteEvaluator(LocalEvaluator):
    """The function ``name`` in a :class:`~.remote.Session`'s sandboxed child: each
    :meth:`session` forks a worker, each batch of boards is one message."""

    def __init__(self, session: Any, name: str) -> None:
        super().__init__(lambda b: None)
        self.remote, self.name = session, name

    def results(self, states: list[Any], timeout: float = 5.0) -> list[Any]:
        from .remote import _Failed

        try:
            return self.remote.call_boards(self.name, [list(s) for s in states], (7, 6),
                                           timeout)
        except _Failed as err:
            if err.status in ("timeout", "crashed"):
                self.fatal = err.message or f"did not answer within {timeout:.2g} s"
            raise EvaluationFailed(self.fatal or err.message, fatal=True) from None

    def session(self, task: Callable[[], Any], timeout: float) -> Any:
        from ..tree import GameTree
        from .node import Recorder

        outcome = self.remote.run(lambda rec: task(), Recorder(GameTree.from_nested([0, 0])),
                                  timeout)
        if outcome.result is None and not self.fatal:
            self.fatal = outcome.message or outcome.status
        return outcome.result


def _values(ev: LocalEvaluator, states: list[Any]) -> list[float]:
    """A batch for a :class:`~minimaxkit.matches.Player`: any bad answer forfeits."""
    got = ev.results(states, timeout=5.0 + 0.05 * len(states))
    for r, s in zip(got, states, strict=True):
        if isinstance(r, dict):
            why = r.get("raised") and f"raised {r['raised']}" or f"returned {r.get('bad')}"
            raise EvaluationFailed(f"{why} on the board after {_moves_of(s)}")
    return check_values(got, states)


def _moves_of(state: Any) -> str:
    b = Board.from_state(state)
    return f"{b.moves_played} moves ({b.to_move} to move)"


# ----- the report -------------------------------------------------------------------------
@dataclass
class EvaluationReport:
    """One test cell's verdict: items ``(label, passed, detail)`` sharing ``points``
    equally, the games played, and HTML step-throughs of the lost ones."""

    question: str
    points: float
    items: list[tuple[str, bool, str]] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    note: str = ""
    too_slow: bool = False

    @property
    def earned(self) -> float:
        if not self.items:
            return 0.0
        return round(self.points * sum(ok for _, ok, _ in self.items) / len(self.items), 2)

    def text(self) -> str:
        head = f"{self.question}: {self.earned:g} of {self.points:g} points"
        lines = [head, "-" * len(head)]
        if self.note:
            lines.append(self.note)
        for label, ok, detail in self.items:
            lines.append(f"{'✔' if ok else '✘'} {label}")
            lines += [f"    {d}" for d in detail.splitlines() if d]
        return "\n".join(lines)

    def outputs(self, notes: list[str] = ()) -> list[Any]:  # type: ignore[assignment]
        """The test cell's outputs in the autograded notebook: the text, the lost games as
        step-throughs (HTML that needs no kernel), the points as the cell's value."""
        from nbformat.notebooknode import from_dict

        text = self.text() + "".join(f"\n(while grading outside the notebook: {n})"
                                     for n in notes if n)
        outs = [from_dict({"output_type": "stream", "name": "stdout", "text": text + "\n"})]
        if self.views:
            outs.append(from_dict({"output_type": "display_data", "metadata": {},
                                   "data": {"text/html": "".join(self.views),
                                            "text/plain": "(the lost games, move by move)"}}))
        outs.append(from_dict({"output_type": "execute_result", "execution_count": None,
                               "metadata": {}, "data": {"text/plain": repr(self.earned)}}))
        return outs


# ----- correctness ------------------------------------------------------------------------
def correctness_boards(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """``(moves, kind)`` for the boards of the correctness check, from random games seeded
    by ``spec["seed"]``: ``spec["finished"]`` finished games (kind ``'X'``, ``'O'`` or
    ``'draw'``; the first draw found, every other game avoiding wins), ``spec["in_play"]``
    positions of games in play (kind ``'play'``).

    >>> [k for _, k in correctness_boards({"seed": 1, "finished": 3, "in_play": 2})]
    ['draw', 'O', 'X', 'play', 'play']
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
    return ([draw] if draw else []) + finished + in_play


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_correctness(ev: LocalEvaluator, spec: dict[str, Any], *, points: float,
                      visible: bool = False) -> EvaluationReport:
    """The five correctness items on the boards of :func:`correctness_boards` (a fifth of
    them in a student's own runs, ``visible``)."""
    boards = correctness_boards(spec)
    if visible:
        boards = boards[::5]
    states = [GAME.state_from_moves(m) for m, _ in boards]
    limit = float(spec.get("limit_ms", 5.0))

    def task() -> tuple[list[Any], list[Any], list[Any], float]:
        first, spent = [], 0.0
        for i in range(0, len(states), 25):
            chunk = states[i:i + 25]
            start = time.perf_counter()
            first += ev.results(chunk, timeout=10.0 + 0.05 * len(chunk))
            spent += time.perf_counter() - start
        mirrored = ev.results([mirror_state(s) for s in reversed(states)],
                              timeout=10.0 + 0.05 * len(states))[::-1]
        again = ev.results(states[::-1], timeout=10.0 + 0.05 * len(states))[::-1]
        return first, mirrored, again, spent

    report = EvaluationReport("correctness", points)
    try:
        got = ev.session(task, timeout=30.0 + 0.2 * len(states))
    except EvaluationFailed as err:
        got, report.note = None, f"the function could not be checked: {err.message}"
    if got is None:
        report.note = report.note or f"the function could not be checked: {ev.fatal}"
        report.items = [(label, False, "") for label in _LABELS]
        return report
    first, mirrored, again, spent = got

    def bad(i: int, r: Any) -> str:
        where = f"the board after moves {boards[i][0] or '(none)'}"
        if isinstance(r, dict):
            said = f"raised {r['raised']}" if "raised" in r else f"returned {r['bad']}"
            return f"{where}: {said}"
        return f"{where}: returned {r!r}"

    def first_wrong(kind: str) -> str:
        for i, ((_, k), r) in enumerate(zip(boards, first, strict=True)):
            if (k == "play") != (kind == "play"):
                continue
            want = {"X": WIN, "O": -WIN, "draw": 0}.get(k)
            if isinstance(r, dict) or not math.isfinite(r):
                return bad(i, r)
            if want is not None and r != want:
                what = "a draw" if k == "draw" else f"{k} has four in a row"
                return f"{bad(i, r)}, expected {want} ({what})"
            if want is None and not -WIN < r < WIN:
                return (f"{bad(i, r)}: a board still in play must score strictly between "
                        f"{-WIN} and {WIN}")
        return ""

    n_fin = sum(k != "play" for _, k in boards)
    wrong_fin, wrong_play = first_wrong("fin"), first_wrong("play")
    pairs = [(i, a, b, c) for i, (a, b, c) in enumerate(zip(first, mirrored, again, strict=True))]
    mirror_bad = next((f"{bad(i, a)}, its mirror image {b!r}" for i, a, b, _ in pairs
                       if not isinstance(a, dict) and not isinstance(b, dict)
                       and not _same(a, b)), "")
    pure_bad = next((f"{bad(i, a)} the first time, {c!r} the second" for i, a, _, c in pairs
                     if not isinstance(a, dict) and not isinstance(c, dict)
                     and not _same(a, c)), "")
    answered = sum(not isinstance(a, dict) for a in first)
    per_board = 1000 * spent / max(len(states), 1)
    report.items = [
        (f"finished games valued exactly ({n_fin} boards: {WIN} X won, {-WIN} O won, 0 a "
         "draw)", not wrong_fin, wrong_fin),
        (f"boards in play ({len(states) - n_fin}) get a number strictly between {-WIN} and "
         f"{WIN}", not wrong_play, wrong_play),
        ("a mirrored board gets the same value", not mirror_bad and answered > 0, mirror_bad),
        ("pure: the same board gets the same value when asked again",
         not pure_bad and answered > 0, pure_bad),
        (f"fast enough: {per_board:.2g} ms per board on average (limit {limit:g} ms)",
         per_board <= limit and answered > 0, "it answered no board with a number"
         if not answered else "" if per_board <= limit else
         "too slow: the games would take too long, so they are not played"),
    ]
    report.too_slow = per_board > limit
    return report


_LABELS = ["finished games valued exactly", "boards in play get a number",
           "a mirrored board gets the same value", "pure", "fast enough"]


# ----- play -------------------------------------------------------------------------------
def _opponent(name: str, budget: int) -> Player:
    if name == "random":
        return random_player()
    if name == "weak":
        return weak_player(budget)
    if name == "kit":
        return kit_player(budget)
    raise ValueError(f"tests.json: unknown ladder rung {name!r} (random, weak or kit)")


def check_play(ev: LocalEvaluator, spec: dict[str, Any], *, points: float,
               visible: bool = False, too_slow: bool = False) -> EvaluationReport:
    """Play the ladder of ``spec``: ``node_budget``, ``openings`` (``visible_openings`` in
    a student's own runs), ``ladder`` of ``{"name", "margin"}``; one item per rung."""
    budget = int(spec["node_budget"])
    openings = spec["visible_openings" if visible else "openings"]
    you = Player("you", lambda states: _values(ev, states), budget)
    report = EvaluationReport("play", points)
    start = time.monotonic()
    lost: list[GameRecord] = []
    for rung in spec["ladder"]:
        opp = _opponent(rung["name"], budget)
        games: list[GameRecord] = []
        for opening in openings:
            for x, o in ((you, opp), (opp, you)):
                why = ("not played: the function was too slow in the correctness check"
                       if too_slow else f"not played: {ev.fatal}" if ev.fatal else
                       "not played: the games took longer than "
                       f"{PLAY_CAP:g} s in all" if time.monotonic() - start > PLAY_CAP else "")
                if why:
                    side = "X" if x is you else "O"
                    games.append(GameRecord(x.name, o.name, opening, opening, (),
                                            "O" if side == "X" else "X", side, why))
                    continue
                game = ev.session(partial(play_game, x, o, opening), timeout=60.0)
                if game is None:
                    side = "X" if x is you else "O"
                    game = GameRecord(x.name, o.name, opening, opening, (),
                                      "O" if side == "X" else "X", side, ev.fatal)
                games.append(game)
        mine = sum(g.points("you") for g in games)
        share = mine / len(games)
        won = sum(g.result == ("X" if g.x == "you" else "O") for g in games)
        drawn = sum(g.result == "draw" for g in games)
        forfeits = [g for g in games if g.forfeit == ("X" if g.x == "you" else "O")]
        detail = f"won {won}, drew {drawn}, lost {len(games) - won - drawn} of {len(games)}"
        if forfeits:
            detail += f"; forfeited {len(forfeits)}: {forfeits[0].reason}"
        report.items.append(
            (f"against {rung['name']} ({budget} nodes a move): {mine:g} of {len(games)} "
             f"points = {share:.0%}, needed {rung['margin']:.0%}", share >= rung["margin"],
             detail))
        report.games += games
        lost += [g for g in games if g.result != "draw" and
                 g.result != ("X" if g.x == "you" else "O") and g not in forfeits]
    report.views = [_lost_view(g, i) for i, g in enumerate(lost[:MAX_SHOWN])]
    return report


def wrong_move(game: GameRecord, name: str = "you") -> tuple[int, str] | None:
    """The ply of ``name``'s move where the evaluation went wrong in a lost game, and why:
    the first of its moves after which a deeper search (the kit's evaluation,
    :data:`ANALYSIS_BUDGET` nodes) finds a forced loss it did not see before; else the
    move whose position it judges dropped most."""
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


def _lost_view(game: GameRecord, index: int) -> str:
    from .game_pages import game_html

    found = wrong_move(game)
    mark, note = found if found else (None, "")
    return game_html(game, f"mmk-lost-{index}", mark=mark, note=note)


# ----- entry points -----------------------------------------------------------------------
def _spec(here: Path, question: str) -> dict[str, Any] | None:
    try:
        data = json.loads((here / "tests.json").read_text())
        q = data["questions"][question]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return q if isinstance(q, dict) and q.get("kind") == "evaluation" else None


def is_evaluation(here: Path, question: str) -> bool:
    """True when ``question`` of the tests.json in ``here`` is an evaluation question."""
    return _spec(here, question) is not None


#: session (or evaluator) -> whether its correctness cell found the function too slow
_SPEED: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()


def _report(ev: LocalEvaluator, here: Path, question: str, points: float,
            visible: bool) -> EvaluationReport:
    spec = _spec(here, question)
    if spec is None:
        raise ValueError(f"{here / 'tests.json'} has no evaluation question {question!r}")
    key = getattr(ev, "remote", ev)
    if spec["check"] == "correctness":
        report = check_correctness(ev, spec, points=points, visible=visible)
        _SPEED[key] = report.too_slow
        return report
    speed = _spec(here, "correctness") or {}
    slow = False
    if not visible and speed:  # the games only for a function fast enough
        slow = _SPEED.pop(key) if key in _SPEED else \
            check_correctness(ev, speed, points=1).too_slow
    return check_play(ev, spec, points=points, visible=visible, too_slow=slow)


def trusted_report(session: Any, fn: str, question: str, here: Path, *,
                   points: float) -> EvaluationReport:
    """The trusted grader's verdict: ``fn`` runs in ``session``'s sandboxed child."""
    if session.names.get(fn) != "callable":
        report = EvaluationReport(question, points, note=(
            f"{fn} is not defined as a function (did its cell run without errors?)"))
        report.items = [("nothing to grade", False, "")]
        return report
    return _report(RemoteEvaluator(session, fn), here, question, points, visible=False)


def grade(fn: Callable[[Board], Any] | str, question: str, *, points: float,
          here: str | Path | None = None) -> float:
    """The test cell of assignment 5, in the notebook: check ``fn`` on the visible share
    (a fifth of the boards; the visible openings) and print the verdict. When nbgrader
    autogrades, the trusted grader plays every game outside the notebook and its verdict
    replaces this one."""
    import sys

    function = sys._getframe(1).f_globals[fn] if isinstance(fn, str) else fn
    folder = Path(here) if here is not None else Path.cwd()
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        print(f"{question}: graded outside the notebook (the trusted grader's verdict "
              "replaces this output)")
        return 0.0
    report = _report(LocalEvaluator(function), folder, question, points, visible=True)
    head, _, rest = report.text().partition("\n")
    head += " (on the visible share)"
    print(head + "\n" + "-" * len(head) + rest.partition("\n")[2].join(["\n", ""]))
    if report.views:
        from IPython.display import HTML, display
        display(HTML("".join(report.views)))
    return report.earned

