"""Where alpha-beta's order comes from, counted: leaves evaluated on Connect Four.

Run: ``.venv/bin/python benchmarks/bench_ordering.py`` (``--games`` also plays the kit's
player against the weak one over the 20 book openings, a few minutes).

For the start and three middle-game positions (the positions of ``tests/test_deepening.py``
and lecture 5), at depths 5, 6 and 7: one alpha-beta search in natural and in static order;
progressive deepening without reordering, with reordering (the previous best move first,
the rest in static order) and with reordering carried by a transposition table; for each
deepening the leaves of its last iteration and of all iterations. Counts are deterministic
(they depend on nothing but the code); the times are the best of three and depend on the
machine. Figures go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from typing import Any

from minimaxkit import TranspositionTable, alphabeta, iter_deepen
from minimaxkit.games import ConnectFour

#: the start, and a game of the kit's player against the weak one from the book opening 33
#: after 10, 12 and 16 moves
POSITIONS = ("", "3333215440", "233330222020", "2333302220200033")
DEPTHS = (5, 6, 7)


def timed(run: Callable[[], Any]) -> tuple[Any, float]:
    best, out = float("inf"), None
    for _ in range(3):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return out, best


def measure(c4: ConnectFour, moves: str, depth: int) -> dict[str, tuple[int, int, float]]:
    """(leaves of the last iteration, leaves of all, seconds) per way of searching."""
    state = c4.state_from_moves(moves)
    rows: dict[str, tuple[int, int, float]] = {}
    for name, order in (("natural", None), ("static", "static")):
        r, s = timed(lambda o=order: alphabeta(c4, state, depth=depth, order=o, trace=False))
        rows[name] = (r.stats.leaves, r.stats.leaves, s)
    for name, options in (("deepen, no reordering", {"reorder": False}),
                          ("deepen, reordered", {}),
                          ("deepen, reordered by a table", {"table": None})):
        def run(options: dict[str, Any] = options) -> list[Any]:
            extra = dict(options)
            if "table" in extra:
                extra["table"] = TranspositionTable()
            return list(iter_deepen(c4, state, max_depth=depth, trace=False, **extra))
        its, s = timed(run)
        rows[name] = (its[-1].stats.leaves, sum(r.stats.leaves for r in its), s)
    return rows


def games() -> None:
    from minimaxkit.arena.matches import OPENINGS, kit_player, play_match, score, weak_player
    for budget in (100, 300, 1000):
        played = play_match(kit_player(budget), weak_player(budget), OPENINGS)
        kit_depths = [i.depth for g in played for k, i in enumerate(g.infos)
                      if (g.x == "kit") == (k % 2 == 0)]
        depth = sum(kit_depths) / len(kit_depths)
        print(f"kit v weak, {budget} nodes a move: kit {score(played, 'kit')} of "
              f"{len(played)} points; the kit's completed depth {depth:.2f} on average",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", action="store_true", help="also play the book matches")
    parser.add_argument("--quick", action="store_true", help="accepted for run_all; no effect")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    c4 = ConnectFour()
    totals: dict[tuple[int, str], list[int]] = {}
    for moves in POSITIONS:
        for depth in DEPTHS:
            rows = measure(c4, moves, depth)
            print(f"\nposition {moves or 'start'!r}, depth {depth}")
            for name, (last, every, seconds) in rows.items():
                print(f"  {name:30} last {last:6,}  all iterations {every:6,}  {seconds:6.3f} s")
                tot = totals.setdefault((depth, name), [0, 0])
                tot[0] += last
                tot[1] += every
    print("\ntotals over the four positions (last iteration / all iterations):")
    for depth in DEPTHS:
        static = totals[depth, "static"][0]
        for name in ("natural", "static", "deepen, no reordering", "deepen, reordered",
                     "deepen, reordered by a table"):
            last, every = totals[depth, name]
            print(f"  depth {depth} {name:30} {last:7,} ({last / static:.2f}x static)  "
                  f"{every:7,} ({every / static:.2f}x)")
    five_six = {name: sum(totals[d, name][0] for d in (5, 6))
                for name in ("static", "deepen, reordered")}
    ours, static = five_six["deepen, reordered"], five_six["static"]
    print(f"\ndepths 5 and 6: reordered deepening's last iterations {ours:,} leaves, one static "
          f"search {static:,}: {ours / static:.2f}x (the bar: 1.1x)")
    if args.games:
        print()
        games()


if __name__ == "__main__":
    main()
