"""A truth set for the class tournament's ratings: 13 Connect Four players, every pair, all
20 book openings, both colours (78 pairs x 40 = 3,120 games at 300 nodes a move), played
in-process with :func:`minimaxkit.arena.matches.play_game` (no sandbox: the evaluations are
plain Python written here or taken from the sample submissions).

The players: ten "student" evaluation families of varied strength and the three
references ``ref:random``, ``ref:weak``, ``ref:kit``.

- ``strong``, ``kit_own``, ``ignores_turn``, ``wrong_sign``, ``constant``, ``raises``:
  the sample submissions' ``evaluate`` (tests/grading/submissions/a5_evaluation/);
- ``random_eval``: a random number per board, from a generator seeded by the board (the
  sample's numbers, made repeatable in any process);
- ``feat_a``, ``feat_b``: the kit's features (open twos, open threes, the centre column)
  with weights drawn from seeds 1 and 2 (``feat_b`` may count a feature the wrong way);
- ``forfeits``: raises on every board, so it loses every game.

The results are cached in ``benchmarks/truth_a5.json`` (committed, about 4 KB: per pair
and opening, the first player's result as X, then as O). Rebuild it after any change to
the search or the players (``deepen``'s move ordering changes every searching player's
games)::

    nice -n 15 .venv/bin/python benchmarks/truth_a5.py [--workers 2]

takes about 8 minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.arena.matches import (  # noqa: E402
    OPENINGS,
    Player,
    board_player,
    kit_player,
    play_game,
    random_player,
    weak_player,
)
from minimaxkit.games.connect4_board import Board  # noqa: E402

CACHE = Path(__file__).with_name("truth_a5.json")
SAMPLES = REPO / "tests" / "grading" / "submissions" / "a5_evaluation"
STUDENTS = ("strong", "kit_own", "ignores_turn", "feat_a", "feat_b", "random_eval",
            "constant", "wrong_sign", "raises", "forfeits")
PLAYERS = ("ref:random", "ref:weak", "ref:kit", *STUDENTS)
BUDGET = 300


def _sample(name: str) -> Callable[[Board], float]:
    from minimaxkit.classroom.trial import parse_sample

    space: dict[str, Any] = {}
    exec(parse_sample((SAMPLES / f"{name}.py").read_text()).cells["evaluate"], space)
    return space["evaluate"]  # type: ignore[no-any-return]


def _final(board: Board) -> float | None:
    winner = board.winner()
    if winner is not None:
        return 1000.0 if winner == "X" else -1000.0
    return 0.0 if board.is_full() else None


def _random_eval(board: Board) -> float:
    done = _final(board)
    return done if done is not None else random.Random(str(board)).uniform(-100, 100)


def _weighted(seed: int, low: float) -> Callable[[Board], float]:
    rng = random.Random(seed)
    w2, w3, wc = (rng.uniform(low, 6.0) for _ in range(3))

    def evaluate(board: Board) -> float:
        done = _final(board)
        if done is not None:
            return done
        score = 0.0
        for line in board.lines():
            for me, other, sign in (("X", "O", 1), ("O", "X", -1)):
                if other not in line:
                    n = line.count(me)
                    score += sign * (w3 if n == 3 else w2 if n == 2 else 0.0)
        centre = board.column(3)
        score += wc * (centre.count("X") - centre.count("O"))
        return 1000 * score / (abs(score) + 20)
    return evaluate


def _forfeits(board: Board) -> float:
    raise RuntimeError("not written yet")


def player(name: str, budget: int = BUDGET) -> Player:
    """The truth set's player ``name`` (see the module docstring)."""
    refs = {"ref:random": lambda: random_player(), "ref:weak": lambda: weak_player(budget),
            "ref:kit": lambda: kit_player(budget)}
    if name in refs:
        made = refs[name]()
        return Player(name, made.evaluate, made.node_budget, made.seed)
    special = {"random_eval": lambda: _random_eval, "feat_a": lambda: _weighted(1, 0.0),
               "feat_b": lambda: _weighted(2, -3.0), "forfeits": lambda: _forfeits}
    evaluate = special[name]() if name in special else _sample(name)
    return board_player(name, evaluate, budget)


def _play(task: tuple[str, str, str]) -> tuple[str, str, str, str]:
    a, b, opening = task
    pa, pb = player(a), player(b)
    first, second = play_game(pa, pb, opening), play_game(pb, pa, opening)
    mark = {"X": "1", "O": "0", "draw": "="}  # a's points as X, then as O
    flip = {"X": "0", "O": "1", "draw": "="}
    return a, b, opening, mark[first.result] + flip[second.result]


def build(workers: int = 2) -> dict[str, Any]:
    """Play every pair, opening and colour; the truth set as plain data (see :func:`load`)."""
    import multiprocessing

    tasks = [(a, b, o) for i, a in enumerate(PLAYERS) for b in PLAYERS[i + 1:]
             for o in OPENINGS]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        done = pool.map(_play, tasks, chunksize=4)
    seconds = time.perf_counter() - start
    results: dict[str, str] = {}
    for a, b, _opening, pair in done:  # in the order of OPENINGS for each pair
        results[f"{a} v {b}"] = results.get(f"{a} v {b}", "") + pair
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=False).stdout.strip()
    return {"about": "per pair 'a v b': for each opening of OPENINGS, a's points as X then "
                     "as O ('1' a win, '0' a loss, '=' a draw)",
            "budget": BUDGET, "openings": list(OPENINGS), "players": list(PLAYERS),
            "commit": commit, "seconds": round(seconds), "workers": workers,
            "machine": f"{platform.machine()}, Python {platform.python_version()}",
            "results": results}


def load(path: Path = CACHE) -> dict[str, Any]:
    """The cached truth set: ``players``, ``openings`` and ``results`` (see :func:`build`)."""
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def games(truth: dict[str, Any]) -> list[tuple[str, str, str, float]]:
    """Every game of the truth set as ``(x, o, opening, points of x)``."""
    value = {"1": 1.0, "0": 0.0, "=": 0.5}
    out = []
    for key, marks in truth["results"].items():
        a, b = key.split(" v ")
        for k, opening in enumerate(truth["openings"]):
            as_x, as_o = marks[2 * k], marks[2 * k + 1]
            out.append((a, b, opening, value[as_x]))
            out.append((b, a, opening, 1.0 - value[as_o]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=CACHE)
    args = parser.parse_args()
    truth = build(args.workers)
    args.out.write_text(json.dumps(truth, indent=0) + "\n")
    print(f"{sum(len(v) for v in truth['results'].values())} games in {truth['seconds']} s "
          f"on {args.workers} processes; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
