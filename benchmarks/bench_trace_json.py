"""Trace serialisation and tree construction at scale (issue: inputs of any size).

Prints, for the full tic-tac-toe minimax trace (549,946 nodes), the time of
``Trace.to_json`` and ``Trace.from_json``, their peak memory (tracemalloc) against the
trace's own size, and the time to build a tree of 100,000 children with ``from_dict``.

    python benchmarks/bench_trace_json.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc

from minimaxkit import GameTree, Trace, minimax
from minimaxkit.games import TicTacToe


def best_of(n: int, f: object) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        f()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    quick = "--quick" in sys.argv
    tracemalloc.start()
    trace = minimax(TicTacToe()).trace
    assert trace is not None
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"trace: {len(trace):,} events, {size / 1e6:.0f} MB in memory")

    runs = 1 if quick else 3
    text = trace.to_json()
    t_dump = best_of(runs, trace.to_json)
    t_load = best_of(runs, lambda: Trace.from_json(text))
    print(f"to_json   {t_dump:.2f} s ({len(text) / 1e6:.0f} MB of text)")
    print(f"from_json {t_load:.2f} s")
    print(f"together  {t_dump + t_load:.2f} s (bar: under 2 s)")

    for name, f in (("to_json", trace.to_json), ("from_json", lambda: Trace.from_json(text))):
        tracemalloc.start()
        f()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{name:9} peak {peak / 1e6:.0f} MB = {peak / size:.2f}x the trace (bar: under 2x)")

    spec = {"children": [{"value": i} for i in range(100_000)]}
    times = [best_of(1, lambda: GameTree.from_dict(spec)) for _ in range(runs)]
    print(f"from_dict, 100,000 children: {statistics.median(times):.2f} s (bar: under 1 s)")


if __name__ == "__main__":
    main()
