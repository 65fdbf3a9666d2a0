"""The class tournament of assignment 5 with 40 sample submissions (four copies each of the
ten samples in tests/grading/submissions/a5_evaluation/) and the three reference players:
a Swiss system of 7 rounds, 2 openings a pairing (4 games), 300 nodes a move, 2 worker
processes; run twice with one seed and once on a local Dask cluster (2 workers). Prints
the times, whether the three tables are identical, and the mean rating of each kind.

    .venv/bin/python benchmarks/bench_tournament.py [--rounds 7] [--openings 2]
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
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.grading.course import make_submission, parse_sample, prepare_course  # noqa: E402
from minimaxkit.grading.play.tournament import find_entrants, run_tournament  # noqa: E402

NAME = "a5_evaluation"
KINDS = ["strong", "kit_own", "weak", "random_eval", "wrong_sign", "constant", "ignores_turn",
         "raises", "hostile", "slow"]
ORDER = ["strong", "kit_own", "weak", "random_eval", "wrong_sign"]  # the ranking


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--openings", type=int, default=2)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    root = prepare_course(REPO, base / "course")
    released = REPO / "assignments" / NAME / f"{NAME}.ipynb"
    for kind in KINDS:
        cells = parse_sample((REPO / "tests" / "grading" / "submissions" / NAME /
                              f"{kind}.py").read_text()).cells
        for i in range(1, args.copies + 1):
            make_submission(released, cells,
                            root / "autograded" / f"{kind}-{i}" / NAME / f"{NAME}.ipynb")
    entrants = find_entrants(root, NAME)
    print(f"{len(entrants)} players; {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}", flush=True)
    runs = {}
    for label in ("pool-1", "pool-2", "dask"):
        if label == "dask" and args.no_dask:
            continue
        start = time.perf_counter()
        if label == "dask":
            from distributed import Client, LocalCluster

            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster):
                t = run_tournament(entrants, seed=1, openings=args.openings,
                                   swiss=args.rounds, scheduler=cluster.scheduler_address)
        else:
            t = run_tournament(entrants, seed=1, openings=args.openings, swiss=args.rounds,
                               workers=2)
        seconds = time.perf_counter() - start
        runs[label] = t
        print(f"{label}: {len(t.games)} games in {seconds:.0f} s = "
              f"{seconds / len(t.games):.2f} s a game on 2 workers "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
    first = runs["pool-1"]
    same = all(r.table == first.table and r.games == first.games for r in runs.values())
    print("identical tables and games in every run:", same)
    by_kind: dict[str, list[float]] = {}
    for row in first.table:
        kind = row["player"].rsplit("-", 1)[0] if row["kind"] == "submission" else \
            f"reference {row['player']}"
        by_kind.setdefault(kind, []).append(row["rating"])
    means = {k: statistics.mean(v) for k, v in by_kind.items()}
    for k, m in sorted(means.items(), key=lambda kv: -kv[1]):
        low, high = min(by_kind[k]), max(by_kind[k])
        print(f"  {k:<20} mean rating {m:7.1f}  (copies {low:.0f}..{high:.0f})")
    order = [means[k] for k in ORDER]
    ranked = order[0] > order[1] >= order[2] > order[3] > order[4]
    print("strong > kit's own >= weak > random > wrong-sign (mean ratings):", ranked)
    (base / "table.json").write_text(json.dumps(first.table, indent=1))
    print("table:", base / "table.json")
    return 0 if same and ranked else 1


if __name__ == "__main__":
    sys.exit(main())
