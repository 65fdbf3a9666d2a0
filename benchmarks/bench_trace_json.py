"""Trace serialisation and tree construction at scale (issue 11: inputs of any size).

Prints, for the full tic-tac-toe minimax trace (549,946 nodes, 844,724 events), the time of
``Trace.to_json`` and ``Trace.from_json`` (the columnar version 4 format), their peak memory
(tracemalloc, above what was allocated before) against the trace's own size, and the time
to build a tree of 100,000 children with ``from_dict``. As a yardstick of the machine's
speed at that moment it also times what version 2 did: ``json.dumps`` of the raw event
tuples (1.62 s on 2026-11-23 at load 2) and ``from_json`` of that text (4.86 s then).

    python benchmarks/bench_trace_json.py [--quick]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import tracemalloc
from functools import partial

from minimaxkit import GameTree, Trace, minimax
from minimaxkit.games import TicTacToe


def best_of(n: int, f: object) -> float:
    """The shortest of ``n`` runs of ``f()``, each until it returns (its answer is freed
    after the clock stops: a trace read is kept, not dropped at once)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        answer = f()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
        del answer
    return min(times)


def peak_of(f: object) -> int:
    """The peak memory ``f()`` allocates above what is allocated when it starts."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    f()  # type: ignore[operator]
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    tracemalloc.start()
    trace = minimax(TicTacToe()).trace
    assert trace is not None
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"trace: {len(trace):,} events, {size / 1e6:.0f} MB in memory")

    runs = 1 if quick else 3
    t_ref = best_of(runs, lambda: json.dumps(trace.raw))
    print(f"yardstick: json.dumps of the raw tuples (version 2's to_json) {t_ref:.2f} s")
    v2 = json.dumps({"format": "minimaxkit-trace", "version": 2, "events": trace.raw})
    v2 = v2.replace("Infinity", "1e999")
    t_v2 = best_of(1, partial(Trace.from_json, v2))
    print(f"yardstick: from_json of version 2 text ({len(v2) / 1e6:.0f} MB) {t_v2:.2f} s")
    v2 = ""
    text = trace.to_json()
    assert Trace.from_json(text) == trace
    t_dump = best_of(runs, trace.to_json)
    t_load = best_of(runs, lambda: Trace.from_json(text))
    print(f"to_json   {t_dump:.2f} s ({len(text) / 1e6:.0f} MB of text)")
    print(f"from_json {t_load:.2f} s")
    print(f"together  {t_dump + t_load:.2f} s (bar: under 2 s)")
    made = Trace(trace.raw)  # the same events, not known to come from a search: checked
    t_made = best_of(runs, made.to_json)
    print(f"to_json of the same events made by hand (path steps checked) {t_made:.2f} s")

    for name, f in (("to_json", trace.to_json), ("from_json", lambda: Trace.from_json(text)),
                    ("both", lambda: Trace.from_json(trace.to_json()))):
        peak = peak_of(f)
        print(f"{name:9} peak {peak / 1e6:.0f} MB = {peak / size:.2f}x the trace "
              "(bar: under 2x)")

    spec = {"children": [{"value": i} for i in range(100_000)]}
    times = [best_of(1, lambda: GameTree.from_dict(spec)) for _ in range(runs)]
    print(f"from_dict, 100,000 children: {statistics.median(times):.2f} s (bar: under 1 s)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
