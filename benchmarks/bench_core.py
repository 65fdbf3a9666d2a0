"""Nodes per second of the reference searches, with tracing on and off.

Run: ``.venv/bin/python benchmarks/bench_core.py`` (``--quick`` for one repetition).
Prints one row per task: nodes searched, best time of N runs, nodes/s, and the cost of
tracing as a ratio of traced to untraced time. Figures are written down in
docs/benchmarks.md with the machine they ran on.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

from minimaxkit import SearchResult, alphabeta, minimax
from minimaxkit.games import ConnectFour, TicTacToe

TASKS: list[tuple[str, Callable[..., SearchResult], dict[str, object]]] = [
    ("tic-tac-toe minimax, empty board", lambda **kw: minimax(TicTacToe(), **kw), {}),
    ("tic-tac-toe alpha-beta, natural order", lambda **kw: alphabeta(TicTacToe(), **kw), {}),
    ("Connect Four alpha-beta depth 8, natural order",
     lambda **kw: alphabeta(ConnectFour(), depth=8, **kw), {}),
    ("Connect Four alpha-beta depth 8, static ordering",
     lambda **kw: alphabeta(ConnectFour(), depth=8, order="static", **kw), {}),
]


def best_time(run: Callable[..., SearchResult], repeat: int, **kw: object) -> tuple[float, int]:
    """The best wall time of ``repeat`` runs, and the nodes searched."""
    best, nodes = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        r = run(**kw)
        best = min(best, time.perf_counter() - start)
        nodes = r.stats.nodes
    return best, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one run per task")
    repeat = 1 if parser.parse_args().quick else 3
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or 'cpu'}; best of {repeat}")
    print(f"{'task':50} {'nodes':>9} {'untraced':>10} {'nodes/s':>10} {'traced':>9} "
          f"{'nodes/s':>10} {'ratio':>6}")
    for name, run, _ in TASKS:
        t0, nodes = best_time(run, repeat, trace=False)
        t1, _ = best_time(run, repeat, trace=True)
        print(f"{name:50} {nodes:9,d} {t0:9.3f}s {nodes / t0 / 1e6:8.2f} M {t1:8.3f}s "
              f"{nodes / t1 / 1e6:8.2f} M {t1 / t0:5.2f}x")


if __name__ == "__main__":
    main()
