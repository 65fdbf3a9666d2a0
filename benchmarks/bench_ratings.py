"""Do the tournament's ratings say what they know? Tournaments as a class would run them,
their games drawn from the truth set (``benchmarks/truth_a5.py``: 13 players, every pair,
all 20 openings, both colours), fitted by :func:`minimaxkit.arena.ratings.fit`;
per format:

- **coverage**: how often the truth lies inside the reported 95% interval, over every
  player whose truth is finite (``cover``), and the worst player's (``worst``); a player
  who loses every game of the truth set has the truth "below everyone", inside any
  interval open below, and is counted apart (``inf``);
- **tau**: Kendall's tau-b of the table's order against the truth's (median, 10th pct);
- **0 above**: tournaments where a player with 0 points is above one with points;
- **±**: the median half-width of the finite intervals, in Elo, and the share of players
  the games bound on one side only (``open``);
- Swiss formats: the most byes one player had, and rounds where a player had a second bye
  while another had none (must be 0).

The truth: each player's rating fitted on all 3,120 games, anchored, like each
tournament's table, on the tournament's anchor (its largest group, weighted by each
player's share: see ``ratings``).
Openings are drawn per pairing (``--book pairing``, default) or once for the whole
tournament as ``tournament.py`` does today (``--book shared``).

    .venv/bin/python benchmarks/bench_ratings.py            # quick: 100 seeds a format
    .venv/bin/python benchmarks/bench_ratings.py --full     # 1000 seeds, every player,
                                                            # and the games-needed table
    .venv/bin/python benchmarks/bench_ratings.py --alternatives   # instead: today's fit,
                                                                  # choix, openskill
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from truth_a5 import games as truth_games  # noqa: E402
from truth_a5 import load  # noqa: E402

from minimaxkit.arena.ratings import Rating, fit  # noqa: E402
from minimaxkit.arena.swiss import BYE_SHARE, pair_round  # noqa: E402

Game = tuple[str, str, float] | tuple[str, str, float, str]


@dataclass(frozen=True)
class Format:
    label: str
    openings: int = 1
    rounds: int = 0  # 0: a round robin
    drop: tuple[str, ...] = ()  # players left out (an even number of players)


FORMATS = (Format("round robin, 1 opening"), Format("round robin, 2 openings", 2),
           Format("Swiss 5 rounds", rounds=5), Format("Swiss 7 rounds", rounds=7),
           Format("Swiss 7 rounds, 2 openings", 2, 7),
           Format("Swiss 5 rounds, 12 players", rounds=5, drop=("kit_own",)))


@dataclass(frozen=True)
class Method:
    name: str
    rate: Callable[[Sequence[str], Sequence[Game]], list[Rating]] = fit
    pairer: Callable | None = None  # None: swiss.pair_round
    bye_share: float = BYE_SHARE
    reanchor: bool = True  # the truth on each table's group; False: both on a fixed scale


class World:
    """Where a tournament's games come from: the truth set's result of every game."""

    def __init__(self, truth: dict) -> None:
        self.players: list[str] = truth["players"]
        self.openings: list[str] = truth["openings"]
        self.result = {(x, o, op): pts for x, o, op, pts in truth_games(truth)}

    def pairing(self, a: str, b: str, book: Sequence[str]) -> list[Game]:
        return [g for op in book for g in ((a, b, self.result[a, b, op], op),
                                           (b, a, self.result[b, a, op], op))]


@dataclass
class Played:
    games: list[Game] = field(default_factory=list)
    byes: Counter = field(default_factory=Counter)
    unfair_byes: int = 0  # rounds where a player had a second bye while another had none


def play(world: World, players: Sequence[str], fmt: Format, seed: int, book: str,
         method: Method = Method("fit")) -> Played:
    """One tournament of ``fmt`` between ``players``."""
    rng = random.Random(seed)
    shared = rng.sample(world.openings, fmt.openings)

    def openings() -> Sequence[str]:
        return shared if book == "shared" else rng.sample(world.openings, fmt.openings)

    out = Played()
    if not fmt.rounds:
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                out.games += world.pairing(a, b, openings())
        return out
    points = dict.fromkeys(players, 0.0)
    met: Counter[frozenset[str]] = Counter()
    for r in range(fmt.rounds):
        scores = {p: points[p] + out.byes[p] * method.bye_share * 2 * fmt.openings
                  for p in players}
        if method.pairer is None:
            pairs, bye = pair_round(players, scores, met, out.byes, seed=f"{seed}:{r}")
        else:
            pairs, bye = method.pairer(list(players), scores, met, rng)
        if bye is not None:
            if out.byes[bye] > min(out.byes[p] for p in players):
                out.unfair_byes += 1
            out.byes[bye] += 1
        for a, b in pairs:
            met[frozenset((a, b))] += 1
            for x, o, pts, op in world.pairing(a, b, openings()):
                out.games.append((x, o, pts, op))
                points[x] += pts
                points[o] += 1 - pts
    return out


def truth_of(world: World, players: Sequence[str], rate: Callable = fit) -> dict[str, float]:
    """Each player's true rating (in Elo, anchored again on each table's group; +-inf
    where the truth set's games do not bound it: it lost, or won, every game)."""
    games = [(x, o, p, op) for (x, o, op), p in world.result.items()
             if x in players and o in players]
    random.Random(0).shuffle(games)  # an online rating's truth: the games in some order
    rows = rate(players, games)
    return {r.player: r.rating if r.rating is not None
            else (-math.inf if math.isinf(r.low) else math.inf) for r in rows}


def tau_b(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b (ties in either list allowed)."""
    conc = disc = tx = ty = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j] if xs[i] != xs[j] else 0, ys[i] - ys[j] if ys[i] != ys[j] else 0
            if dx and dy:
                conc, disc = conc + (dx * dy > 0), disc + (dx * dy < 0)
            elif dx:
                ty += 1
            elif dy:
                tx += 1
    return (conc - disc) / math.sqrt((conc + disc + tx) * (conc + disc + ty) or 1)


@dataclass
class Tally:
    covered: Counter = field(default_factory=Counter)
    seen: Counter = field(default_factory=Counter)
    taus: list[float] = field(default_factory=list)
    widths: list[float] = field(default_factory=list)
    open_: int = 0
    rows: int = 0
    zero_above: int = 0
    max_byes: int = 0
    unfair: int = 0
    skipped: int = 0


def judge(tally: Tally, rows: Sequence[Rating], truth: dict[str, float],
          played: Played, reanchor: bool = True) -> None:
    """Add one tournament's table to ``tally``."""
    group = [r.player for r in rows if r.rating is not None]
    if any(math.isinf(truth[p]) for p in group):
        tally.skipped += 1  # its anchor is not finite in the truth: cannot be compared
        return
    shares = {r.player: r.share for r in rows if getattr(r, "share", 0)} or \
        dict.fromkeys(group, 1 / len(group))
    shift = 1500 - sum(s * truth[p] for p, s in shares.items()) if reanchor else 0.0
    for r in rows:
        t = truth[r.player] + shift
        tally.seen[r.player] += 1
        tally.covered[r.player] += r.low <= t <= r.high
        tally.rows += 1
        if math.isinf(r.low) or math.isinf(r.high):
            tally.open_ += 1
        else:
            tally.widths.append((r.high - r.low) / 2)
    n = len(rows)
    tally.taus.append(tau_b([n - k for k in range(n)], [truth[r.player] for r in rows]))
    scoring = [k for k, r in enumerate(rows) if r.points > 0]
    tally.zero_above += any(r.points == 0 and r.games and k < scoring[-1]
                            for k, r in enumerate(rows)) if scoring else 0
    tally.max_byes = max(tally.max_byes, max(played.byes.values(), default=0))
    tally.unfair += played.unfair_byes


def run(world: World, fmt: Format, seeds: int, book: str, method: Method,
        truth: dict[str, float]) -> Tally:
    players = [p for p in world.players if p not in fmt.drop]
    tally = Tally()
    for seed in range(seeds):
        played = play(world, players, fmt, seed, book, method)
        judge(tally, method.rate(players, played.games), truth, played, method.reanchor)
    return tally


def report(fmt: Format, t: Tally, truth: dict[str, float], seconds: float) -> str:
    finite = [p for p in t.seen if math.isfinite(truth[p])]
    pooled = sum(t.covered[p] for p in finite) / max(1, sum(t.seen[p] for p in finite))
    worst = min(finite, key=lambda p: t.covered[p] / t.seen[p])
    inf = [p for p in t.seen if p not in finite]
    inf_cov = sum(t.covered[p] for p in inf) / max(1, sum(t.seen[p] for p in inf))
    taus = sorted(t.taus)
    byes = f"{t.max_byes} / {t.unfair}" if fmt.rounds else "-"
    return (f"| {fmt.label} | {100 * pooled:.1f} | {100 * t.covered[worst] / t.seen[worst]:.1f}"
            f" ({worst}) | {100 * inf_cov:.0f} | {statistics.median(taus):.2f} / "
            f"{taus[len(taus) // 10]:.2f} | {t.zero_above} | "
            f"{statistics.median(t.widths):.0f} | {100 * t.open_ / t.rows:.0f}% | {byes} | "
            f"{seconds / len(t.taus):.2f} |")


HEAD = ("| format | cover % | worst % (player) | inf % | tau median / p10 | 0 above | "
        "± median | open | byes max / unfair | s a fit |\n"
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")


def alternatives() -> list[Method]:
    """Today's fit and the libraries (see ``ratings_alternatives``), those installed."""
    import importlib.util

    import ratings_alternatives as alt

    out = []
    try:
        from minimaxkit.grading.tournament import _pairings_swiss, ratings  # noqa: F401
        out.append(Method("today's fit and Swiss pairing (before issue 26)", alt.today,
                          alt.today_pairing, 0.0, reanchor=False))
    except ImportError:
        print("today's fit is gone from minimaxkit.grading.tournament: skipped")
    if importlib.util.find_spec("choix"):
        out.append(Method("choix.ep_pairwise (alpha 0.1), ± 1.96 sd", alt.choix_ep))
    if importlib.util.find_spec("openskill"):
        out.append(Method("openskill BradleyTerryFull, games in playing order, ± 1.96 sigma",
                          alt.openskill_bt))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--quick", action="store_true", help="the default")
    parser.add_argument("--seeds", type=int)
    parser.add_argument("--book", choices=("pairing", "shared"), default="pairing")
    parser.add_argument("--alternatives", action="store_true")
    parser.add_argument("--needed", action="store_true", help="the games-needed table only")
    args = parser.parse_args()
    seeds = args.seeds or (1000 if args.full else 100)
    world = World(load())
    print(f"truth set: {len(world.result)} games; {platform.machine()}, {os.cpu_count()} "
          f"CPUs, Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}; "
          f"{seeds} seeds a format, openings drawn per {args.book}", flush=True)
    if args.needed or args.full:
        from ratings_needed import needed_table
        needed_table(world, seeds=args.seeds or (20 if args.full else 5))
        if args.needed:
            return 0
    methods = alternatives() if args.alternatives else [Method("ratings.fit (this kit)")]
    for method in methods:
        print(f"\n{method.name}\n\n{HEAD}", flush=True)
        per_player: dict[str, list[str]] = {}
        for fmt in FORMATS:
            start = time.perf_counter()
            players = [p for p in world.players if p not in fmt.drop]
            truth = truth_of(world, players, method.rate)
            t = run(world, fmt, seeds, args.book, method, truth)
            print(report(fmt, t, truth, time.perf_counter() - start), flush=True)
            for p in t.seen:
                per_player.setdefault(p, []).append(f"{100 * t.covered[p] / t.seen[p]:.1f}")
        print("\ncoverage % per player and format (same order)\n")
        for p, cells in per_player.items():
            print(f"| {p} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
