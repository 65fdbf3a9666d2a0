"""How many games a class needs: the median interval (± in Elo) and Kendall's tau against
the truth, by number of players and format, for ``bench_ratings.py --needed`` (and
``--full``). 13 players: the truth set itself; 40, 100, 300: a Bradley-Terry world whose strengths
are the truth set's ratings drawn again with a little noise (a class of a few dozen
evaluation families), games drawn from the model.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

from minimaxkit.arena.ratings import SCALE, fit

FORMATS = [("round robin", 1, 0), ("round robin", 2, 0), ("round robin", 4, 0),
           ("Swiss 5 rounds", 1, 5), ("Swiss 7 rounds", 1, 7), ("Swiss 7 rounds", 2, 7),
           ("Swiss 9 rounds", 2, 9)]


class ModelWorld:
    """Players of known strengths (Elo); each game drawn from the model."""

    def __init__(self, strengths: dict[str, float], openings: list[str], seed: int) -> None:
        self.players, self.openings = list(strengths), openings
        self.strength, self.rng = strengths, random.Random(seed)

    def pairing(self, a: str, b: str, book: Any) -> list[tuple[str, str, float, str]]:
        out = []
        for op in book:
            for x, o in ((a, b), (b, a)):
                p = 1 / (1 + math.exp((self.strength[o] - self.strength[x]) / SCALE))
                out.append((x, o, 1.0 if self.rng.random() < p else 0.0, op))
        return out


def needed_table(world: Any, seeds: int) -> None:
    """Print the table (see the module docstring)."""
    import bench_ratings as bench

    truth13 = bench.truth_of(world, world.players)
    finite = [v for v in truth13.values() if math.isfinite(v)]
    print("\nhow many games: median ± (Elo, finite intervals), share open, median tau\n")
    print("| players | format | openings | games a player | ± median | open | tau | s a fit |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in (13, 40, 100, 300):
        rng = random.Random(n)
        strengths = truth13 if n == 13 else {
            f"s{i:03d}": rng.choice(finite) + rng.gauss(0, 60) for i in range(n)}
        for label, openings, rounds in FORMATS:
            if not rounds and (n == 300 or (n == 100 and openings > 1)):
                continue  # a round robin of a class: thousands of games a player
            fmt = bench.Format(label, openings, rounds)
            tally, start, per_player = bench.Tally(), time.perf_counter(), []
            for seed in range(seeds):
                w = world if n == 13 else ModelWorld(strengths, world.openings, seed)
                played = bench.play(w, list(strengths), fmt, seed, "pairing")
                bench.judge(tally, fit(list(strengths), played.games), strengths, played)
                per_player.append(2 * len(played.games) / n)
            print(f"| {n} | {label} | {openings} | {statistics.median(per_player):.0f} | "
                  f"{statistics.median(tally.widths):.0f} | {100 * tally.open_ / tally.rows:.0f}% "
                  f"| {statistics.median(tally.taus):.2f} | "
                  f"{(time.perf_counter() - start) / seeds:.1f} |", flush=True)
