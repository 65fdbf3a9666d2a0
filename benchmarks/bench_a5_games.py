"""Assignment 5: what a game costs, in this process and through the sandboxed child, and
where the time goes (issue 28).

In autograde the search runs in the trusted process and the student's ``evaluate`` in a
sandboxed child that answers each batch of boards over a pipe; the games are played side by
side in one worker (``grading.evaluation.lockstep``); the tournament plays one game a
worker. This prints, for the solution (``strong``) against each rung
and for the kit against itself:

* seconds a game in this process, and through the child;
* per move of the student's player: batches (messages), boards asked, boards per batch,
  and the same against the kit with other batches (``Player.ahead``);
* the parts of a game through the child: the trusted side's search, the child's work per
  board and the cost of a message (a round trip of one board of a function that returns
  0), and of a fork (an empty worker);
* what other batches would cost at those prices, for evaluations of 10 to 250 us a board
  (and what one message per iteration would have to send: every position at its depth).

    .venv/bin/python benchmarks/bench_a5_games.py [--repeat 3]

and one student's games under the chosen design (``ladder.LADDER``) through the child,
side by side as autograde plays them and one game a worker as issue 28 played them. About two
minutes (``--no-design``: one). To compare with an older kit, run it with that kit first on
``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.append(str(REPO))  # after PYTHONPATH: another kit can be measured

import minimaxkit  # noqa: E402
from minimaxkit.arena.matches import (  # noqa: E402
    Player,
    board_player,
    kit_player,
    play_game,
    random_player,
    weak_player,
)

BUDGET = 300
OPENINGS = ("33", "32", "34", "23")
SAMPLES = REPO / "tests" / "grading" / "submissions" / "a5_evaluation"


def sample_source(name: str) -> str:
    return (SAMPLES / f"{name}.py").read_text().split("# %% evaluate\n", 1)[1]


def sample(name: str) -> Callable[[Any], float]:
    ns: dict[str, Any] = {}
    exec(compile(sample_source(name), f"{name}.py", "exec"), ns)  # noqa: S102
    return ns["evaluate"]  # type: ignore[no-any-return]


def opponents() -> dict[str, Player]:
    return {"random": random_player(), "weak": weak_player(BUDGET), "kit": kit_player(BUDGET)}


class Counted:
    """A batch evaluation that counts its batches and boards and the seconds inside it."""

    def __init__(self, batch: Callable[[list[Any]], list[float]]) -> None:
        self.batch, self.batches, self.boards, self.seconds = batch, 0, 0, 0.0

    def __call__(self, states: list[Any]) -> list[float]:
        start = time.perf_counter()
        try:
            return self.batch(states)
        finally:
            self.seconds += time.perf_counter() - start
            self.batches += 1
            self.boards += len(states)


def games_of(you: Player, opp: Player) -> list[Any]:
    return [play_game(x, o, op) for op in OPENINGS for x, o in ((you, opp), (opp, you))]


def in_process(repeat: int) -> dict[str, float]:
    strong = board_player("you", sample("strong"), BUDGET)
    out = {}
    for label, you, opp in [("kit v kit", kit_player(BUDGET), replace(kit_player(BUDGET),
                                                                      name="kit2")),
                            *[(f"strong v {n}", strong, p) for n, p in opponents().items()]]:
        best = min(_timed(lambda you=you, opp=opp: games_of(you, opp)) for _ in range(repeat))
        out[label] = best / (2 * len(OPENINGS))
    return out


def _timed(task: Callable[[], Any]) -> float:
    start = time.perf_counter()
    task()
    return time.perf_counter() - start


def counts() -> dict[str, tuple[int, float, float]]:
    """Per move of the solution's player against each rung: batches and boards asked,
    with its default batches (``ahead``, the rung as key) and, against the kit, with
    others (key ``ahead=k``)."""
    out = {}
    strong = board_player("you", sample("strong"), BUDGET)
    cases = [(name, opp, getattr(strong, "ahead", 6)) for name, opp in opponents().items()]
    cases += [(f"ahead={k}", kit_player(BUDGET), k) for k in (0, 1, 2, 6)
              if hasattr(strong, "ahead")]
    for label, opp, ahead in cases:
        counted = Counted(strong.evaluate)  # type: ignore[arg-type]
        you = replace(strong, evaluate=counted)
        if hasattr(strong, "ahead"):
            you = replace(you, ahead=ahead)
        moves = 0
        for op in OPENINGS:
            for x, o in ((you, opp), (opp, you)):
                game = play_game(x, o, op)
                moves += sum(1 for i in range(len(op), len(game.moves))
                             if (i % 2 == 0) == (x is you))
        out[label] = (ahead, counted.batches / moves, counted.boards / moves)
    return out


def iteration_boards() -> tuple[float, float]:
    """Per move of the solution against the kit from the old openings: the boards one
    message per iteration would have to send (every distinct position at the iteration's
    depth, since alpha-beta's leaves are known only as it goes), against the depth
    reached."""
    from minimaxkit.arena.matches import GAME

    you, kit = board_player("you", sample("strong"), BUDGET), kit_player(BUDGET)
    sent, depths = [], []
    for op in OPENINGS:
        game = play_game(you, kit, op)
        for i, info in zip(range(len(op), len(game.moves), 2), game.infos[::2], strict=False):
            level, total = {GAME.state_from_moves(game.moves[:i])}, 0
            for _ in range(info.depth + 1):  # the completed iterations and the one cut short
                level = {GAME.play(s, m) for s in level for m in GAME.moves(s)}
                total += len(level)
            sent.append(total)
            depths.append(info.depth)
    return statistics.fmean(sent), statistics.fmean(depths)


def _session(*cells: str) -> Any:
    from minimaxkit.grading.evaluation.notebook import play_session

    session = play_session(Path(tempfile.mkdtemp(prefix="bench-a5-games-")), None, [], 60.0)
    session.start()
    for cell in cells:
        session.run_cell(cell)
    return session


def remote(games: int) -> dict[str, Any]:
    from minimaxkit.arena.matches import GAME
    from minimaxkit.grading.evaluation.evaluators import RemoteEvaluator, values

    out: dict[str, Any] = {}
    with _session(sample_source("strong"), "def zero(board):\n    return 0.0\n") as session:
        ev = RemoteEvaluator(session, "evaluate")
        counted = Counted(lambda states: values(ev, states))
        you = Player("you", counted, BUDGET)
        for name, opp in opponents().items():
            counted.seconds = 0.0
            spent = []
            for op in OPENINGS[:max(1, games // 2)]:
                for x, o in ((you, opp), (opp, you)):
                    start = time.perf_counter()
                    ev.session(partial(play_game, x, o, op), timeout=60.0)
                    spent.append(time.perf_counter() - start)
            out[name] = (statistics.fmean(spent), counted.seconds / len(spent))
        zero = RemoteEvaluator(session, "zero")
        one = [GAME.initial_state()]
        seven = [GAME.state_from_moves(str(c)) for c in range(7)]

        def trips(ev: Any, states: list[Any], n: int = 300) -> float:
            def task() -> float:
                spent = []
                for _ in range(n):
                    start = time.perf_counter()
                    ev.results(states)
                    spent.append(time.perf_counter() - start)
                return statistics.median(spent)
            return float(ev.session(task, 60.0))
        out["trip"] = trips(zero, one)
        out["trip7"] = trips(zero, seven)
        out["strong7"] = trips(ev, seven)
        start = time.perf_counter()
        for _ in range(20):
            ev.session(lambda: None, 10.0)
        out["fork"] = (time.perf_counter() - start) / 20
    return out


def design_games(side_by_side: bool) -> dict[str, float]:
    """One student's games under the chosen design (``ladder.LADDER``, the class's draw with
    no secret) through the sandboxed child, as autograde plays them (side by side, the play
    check) or one game a worker (``values`` per batch, one memo for all): seconds, the
    processor seconds of this process and of the child, batches and boards."""
    import resource

    from minimaxkit.grading.evaluation.evaluators import GAME_CPU, RemoteEvaluator, values
    from minimaxkit.grading.evaluation.ladder import BOOK
    from minimaxkit.grading.evaluation.notebook import graded_openings
    from minimaxkit.grading.evaluation.play_check import PlayPlan, check_play

    here = REPO / "solutions" / "a5_evaluation"
    spec = json.loads((here / "tests.json").read_text())["questions"]["play"]
    plan = PlayPlan.of(spec, graded_openings(here, "play"), book_size=len(BOOK))

    def mine() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    with _session(sample_source("strong")) as session:
        ev = RemoteEvaluator(session, "evaluate")
        batches = {"n": 0}
        collect = ev.collect

        def counting(*args: Any, **kwargs: Any) -> Any:
            batches["n"] += 1
            return collect(*args, **kwargs)
        ev.collect = counting  # type: ignore[method-assign]
        start, cpu, child = time.perf_counter(), mine(), session.cpu()
        if side_by_side:
            check_play(ev, plan, points=6)
            boards = ev.asked
        else:
            counted = Counted(lambda states: values(ev, states))
            you = Player("you", counted, plan.budget, memo={})
            for _, p in plan.pairings():
                x, o = (you, p.opponent) if p.side == "X" else (p.opponent, you)
                ev.session(partial(play_game, x, o, p.opening), timeout=GAME_CPU, wall=0)
            boards = counted.boards
        return {"seconds": time.perf_counter() - start, "this": mine() - cpu,
                "child": session.cpu() - child, "batches": batches["n"], "boards": boards}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="(the default)")
    ap.add_argument("--no-design", action="store_true",
                    help="skip playing the chosen design's games through the child (1 min)")
    args = ap.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"kit from {Path(minimaxkit.__file__).parent}, load {os.getloadavg()[0]:.1f}")
    local = in_process(args.repeat)
    print("\nseconds a game in this process (best of "
          f"{args.repeat} runs of {2 * len(OPENINGS)} games):")
    for label, s in local.items():
        print(f"  {label:<16} {s:.3f}")
    print("\nper move of the solution's player: batches (messages), boards asked, boards a "
          "batch")
    per_move = counts()
    for label, (_, b, asked) in per_move.items():
        print(f"  {'v ' + label if '=' not in label else 'v kit, ' + label:<16} {b:6.1f} "
              f"{asked:7.1f} {asked / b:6.2f}")
    sent, depth = iteration_boards()
    print(f"  one message per iteration would send {sent:.0f} boards a move (every position"
          f" at each depth; depth {depth:.1f} reached on average)")
    far = remote(8)
    print(f"\nthrough the sandboxed child (mean of {2 * len(OPENINGS)} games; the part "
          "spent waiting for the child):")
    for name in ("random", "weak", "kit"):
        total, waiting = far[name]
        print(f"  strong v {name:<7} {total:.3f} s a game, {waiting:.3f} s waiting")
    trip, trip7, strong7 = far["trip"], far["trip7"], far["strong7"]
    board = max(strong7 - trip7, 0.0) / 7
    print(f"  a message (one board, a function returning 0): {1e6 * trip:.0f} us; seven "
          f"boards {1e6 * trip7:.0f} us; the solution on seven {1e6 * strong7:.0f} us "
          f"({1e6 * board:.0f} us a board of its own work)")
    print(f"  a worker forked and ended (one a game): {1000 * far['fork']:.1f} ms")
    if not args.no_design:
        from minimaxkit.grading.evaluation.ladder import LADDER

        games = sum(2 * r.openings for r in LADDER)
        print(f"\none student's {games} games under the chosen design "
              f"({', '.join(f'{r.name} {2 * r.openings}' for r in LADDER)}), through the child "
              f"(load {os.getloadavg()[0]:.1f}):")
        for side_by_side in (True, False):
            got = design_games(side_by_side)
            print(f"  {'side by side (autograde)' if side_by_side else 'one game a worker':<25}"
                  f" {got['seconds']:6.1f} s; processor: this process {got['this']:5.1f} s, "
                  f"the child {got['child']:5.1f} s; {got['batches']:,} batches, "
                  f"{got['boards']:,} boards (load {os.getloadavg()[0]:.1f})")
    extra = (trip7 - trip) / 6  # a board more in a message
    print("\nwaiting for the child per move against the kit, at these prices: a message "
          f"{1e6 * trip:.0f} us, a board {1e6 * extra:.0f} us more, and an evaluation of t us")
    print("  " + " ".join(f"{'t=' + str(t):>9}" for t in (10, 40, 100, 250)))
    for label, (_, b, asked) in per_move.items():
        if "=" in label:
            print(f"  {label:<8}" + " ".join(
                f"{1000 * (b * trip + asked * (extra + t / 1e6)):7.1f}ms" for t in (10, 40, 100,
                                                                                  250)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
