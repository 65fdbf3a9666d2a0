"""Assignment 5's checks of an evaluation: correctness (exact on finished games, in range in
play, symmetric, pure, fast) and play (against a ladder of reference players, both colours).

>>> from minimaxkit.grading.evaluation.evaluators import LocalEvaluator
>>> spec = {"seed": 3, "finished": 4, "in_play": 6, "limit_ms": 50}
>>> report = check_correctness(LocalEvaluator(lambda b: 0), spec, points=5)
>>> [ok for _, ok, _ in report.items]
[False, True, True, True, True]
>>> report.earned
4.0
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from ...arena.game_pages import game_html
from ...arena.matches import (
    GAME,
    EvaluationFailed,
    GameRecord,
    Player,
    kit_player,
    play_game,
    random_player,
    weak_player,
    wrong_move,
)
from ...games.connect4_board import WIN, mirror_state
from .boards import correctness_boards, random_positions
from .evaluators import GAME_CPU, SLACK, WAITING, LocalEvaluator, values
from .feedback import EvaluationReport
from .ladder import ladder_of, rung_result

__all__ = ["correctness_boards", "check_correctness", "check_play", "forfeited", "MAX_SHOWN",
           "PLAY_CAP", "MEMO_CAP", "SLACK"]

MAX_SHOWN = 2  # lost games shown per feedback
MEMO_CAP = 200_000  # boards whose values the games remember (about 40 MB)
#: processor seconds for all of a submission's games, and seconds on the wall: a function
#: under the speed limit asks far fewer boards than PLAY_CAP[0] / limit, so only one slower in
#: the games than in the check meets the first, and only one that waits the second
PLAY_CAP = (500.0, 1200.0)


def forfeited(x: str, o: str, opening: str, side: str, why: str) -> GameRecord:
    """A game not played: the player on ``side`` forfeits it, ``why``."""
    return GameRecord(x, o, opening, opening, (), "O" if side == "X" else "X", side, why)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_correctness(ev: LocalEvaluator, spec: dict[str, Any], *, points: float,
                      visible: bool = False, seed: int | None = None) -> EvaluationReport:
    """The five correctness items (on a fifth of the boards if ``visible``). ``seed`` (the
    student's, from the course's secret) draws the boards in place of the released seed, the
    order they are asked in and the boards asked between them, so that no function can tell
    the check's boards from others: every board and its mirror image are asked in a shuffled
    order by one worker; a fresh worker then asks many other boards, and the checked ones
    again, shuffled among more of them (pure: the same answers); the speed is the processor
    time where the function runs (:meth:`~.evaluators.LocalEvaluator.cpu`), a mean over every
    board asked."""
    seed = spec["seed"] if seed is None else seed
    boards = correctness_boards({**spec, "seed": seed})
    if visible:
        boards = boards[::5]
    states = [GAME.state_from_moves(m) for m, _ in boards]
    limit = ev.limit_ms = float(spec.get("limit_ms", 1.0))
    rng = random.Random(f"{seed}/correctness order")
    n = len(states)
    # first: ("b", i) the board i, ("m", i) its mirror image, shuffled together
    first_order = [(k, i) for i in range(n) for k in "bm"]
    rng.shuffle(first_order)
    fillers = random_positions(rng, 3 * n + rng.randrange(2 * n + 1))
    lead = len(fillers) // 2 + rng.randrange(len(fillers) // 4 + 1)
    again_order: list[tuple[str, int]] = [("f", j) for j in range(lead, len(fillers))]
    for i in range(n):
        again_order.insert(rng.randrange(len(again_order) + 1), ("b", i))
    again_order = [("f", j) for j in range(lead)] + again_order
    asked = {"b": states, "m": [mirror_state(s) for s in states], "f": fillers}
    clock = {"spent": 0.0, "boards": 0, "wall": 0.0}

    def ask(order: list[tuple[str, int]]) -> dict[tuple[str, int], Any]:
        got: dict[tuple[str, int], Any] = {}
        while len(got) < len(order):  # batches of 1 to 7, as a game's: none tells the check
            chunk = order[len(got):len(got) + rng.randint(1, 7)]
            began = time.monotonic()
            answers = ev.results([asked[k][j] for k, j in chunk],
                                 timeout=10.0 + 0.05 * len(chunk))
            clock["wall"] += time.monotonic() - began  # waiting counts there (WAITING)
            clock["boards"] += sum(not isinstance(a, dict) for a in answers)
            got.update(zip(chunk, answers, strict=True))
        return got

    def task() -> tuple[list[Any], list[Any], list[Any]] | None:
        # the time of each worker, its start included (per board answered: the speed)
        one = ev.session(lambda: ask(first_order), timeout=30.0 + 0.2 * len(first_order))
        clock["spent"] += ev.used
        two = ev.session(lambda: ask(again_order), timeout=30.0 + 0.2 * len(again_order))
        clock["spent"] += ev.used
        if one is None or two is None:
            return None
        return ([one["b", i] for i in range(n)], [one["m", i] for i in range(n)],
                [two["b", i] for i in range(n)])

    report = EvaluationReport("correctness", points)
    try:
        got = task()
    except EvaluationFailed as err:
        got, report.note = None, f"the function could not be checked: {err.message}"
    if got is None:
        report.note = report.note or f"the function could not be checked: {ev.fatal}"
        report.items = [(label, False, "") for label in _LABELS]
        report.too_slow = True  # not measured: no games (a crash must not skip the limit)
        return report
    first, mirrored, again = got

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
    per_board = 1000 * clock["spent"] / max(clock["boards"], 1)
    waits = 1000 * clock["wall"] / max(clock["boards"], 1)  # ms a board on the clock
    slow = ("no games either" if not answered else "too slow: the games would take too long, "
            "so they are not played" if per_board > SLACK * limit else
            f"too slow: it took {waits:.2g} ms a board on the clock (at most {WAITING:g} times "
            f"the limit, {WAITING * limit:g} ms, waiting included), so the games would take too "
            "long and are not played" if waits > WAITING * limit else "")
    report.items = [
        (f"finished games valued exactly ({n_fin} boards: {WIN} X won, {-WIN} O won, 0 a "
         "draw)", not wrong_fin, wrong_fin),
        (f"boards in play ({len(states) - n_fin}) get a number strictly between {-WIN} and "
         f"{WIN}", not wrong_play, wrong_play),
        ("a mirrored board gets the same value", not mirror_bad and answered > 0, mirror_bad),
        ("pure: the same board gets the same value when asked again",
         not pure_bad and answered > 0, pure_bad),
        (f"fast enough: {per_board:.3g} ms of processor time per board on average over the "
         f"{clock['boards']} boards answered (limit {limit:g} ms, {SLACK - 1:.0%} more allowed "
         "for what a busy machine adds)" if answered else
         "fast enough: not measured, as it answered no board with a number", not slow, slow)]
    report.too_slow = bool(slow)
    if answered:
        report.speed = {"ms_per_board": round(per_board, 4), "limit_ms": limit,
                        "too_slow": report.too_slow, "boards": len(states)}
    return report


_LABELS = ["finished games valued exactly", "boards in play get a number",
           "a mirrored board gets the same value", "pure", "fast enough"]


def _opponent(name: str, budget: int) -> Player:
    if name == "random":
        return random_player()
    if name == "weak":
        return weak_player(budget)
    if name == "kit":
        return kit_player(budget)
    raise ValueError(f"tests.json: unknown ladder rung {name!r} (random, weak or kit)")


def check_play(ev: LocalEvaluator, spec: dict[str, Any], *, points: float,
               openings: Sequence[str], practice: bool = False, too_slow: bool = False,
               book_size: int | None = None) -> EvaluationReport:
    """One item per rung of ``spec``'s ladder (:func:`~.playgrade.ladder_of`): the rung
    plays the first of its number of ``openings`` (the student's draw from a book of
    ``book_size``), each as X and as O, and earns points on its scale, stated with the
    share's 95% interval; with ``practice``, every rung plays all of ``openings`` (the
    practice ones) and the report says the graded games are others."""
    budget = int(spec["node_budget"])
    # one memo for all the games: a board is asked once a submission, not once a game
    # (the same games for a pure evaluation, 30% fewer boards; docs/benchmarks.md)
    you = Player("you", lambda states: values(ev, states), budget, memo={})
    report = EvaluationReport("play", points, scores=[])
    ladder = ladder_of(spec)
    if practice:
        graded = ", ".join(f"{2 * r.openings} against {r.who}" for r in ladder)
        total = sum(2 * r.openings for r in ladder)
        report.note = (f"practice: the graded games, {total} of them, use openings drawn for "
                       f"you ({graded}); "
                       f"here only {' and '.join(openings)}, as X and as O, whose few games "
                       "say little (see each ±)")
    start, cpu = time.monotonic(), 0.0
    lost: list[GameRecord] = []
    for rung in ladder:
        opp = replace(_opponent(rung.name, budget), memo={})
        games: list[GameRecord] = []
        pairs: list[tuple[float, float]] = []
        for opening in (openings if practice else openings[:rung.openings]):
            pair: list[float] = []
            for x, o in ((you, opp), (opp, you)):
                why = ("not played: the correctness check found the function too slow, or "
                       "got no number from it to time"
                       if too_slow else f"not played: {ev.fatal}" if ev.fatal else
                       "not played: the games took more than "
                       f"{PLAY_CAP[0]:g} s of processor time in all" if cpu > PLAY_CAP[0]
                       else f"not played: the games took longer than {PLAY_CAP[1]:g} s in all"
                       if time.monotonic() - start > PLAY_CAP[1] else "")
                if you.memo is not None and len(you.memo) > MEMO_CAP:
                    you.memo.clear()  # a bound on the grader's memory
                side = "X" if x is you else "O"
                if why:
                    game = forfeited(x.name, o.name, opening, side, why)
                else:
                    game = ev.session(partial(play_game, x, o, opening), timeout=GAME_CPU,
                                      wall=0) or \
                        forfeited(x.name, o.name, opening, side, ev.fatal)
                    cpu += ev.used
                    if game.forfeit is None and (slow := ev.over_limit()):
                        game = forfeited(x.name, o.name, opening, side, slow)
                games.append(game)
                pair.append(game.points("you"))
            pairs.append((pair[0], pair[1]))
        result = rung_result(rung, pairs, None if practice else book_size)
        forfeits = [g for g in games if g.forfeit == ("X" if g.x == "you" else "O")]
        detail = f"forfeited {len(forfeits)}: {forfeits[0].reason}" if forfeits else ""
        said = result.text(opponent=False) if len(forfeits) < len(games) else (
            f"all its {len(games)} games forfeited: 0 of {rung.points:g} points")
        report.items.append((f"against {rung.who} ({budget} nodes a move): {said}",
                             result.earned >= rung.points, detail))
        report.scores = [*(report.scores or []), (result.earned, rung.points)]
        report.games += games
        lost += [g for g in games if g.result != "draw" and
                 g.result != ("X" if g.x == "you" else "O") and g not in forfeits]
    report.views = [_lost_view(g, i) for i, g in enumerate(lost[:MAX_SHOWN])]
    return report


def _lost_view(game: GameRecord, index: int) -> str:
    found = wrong_move(game)
    mark, note = found if found else (None, "")
    return game_html(game, f"mmk-lost-{index}", mark=mark, note=note)
