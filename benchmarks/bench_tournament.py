"""The class tournament at the size of a class: ``--players`` synthetic submissions (default
300) from a few dozen evaluation families (the kit's features with seeded weights, and the
sample submissions of tests/grading/submissions/a5_evaluation/), written as autograded
notebooks with the speed autograde records, plus the three reference players; a Swiss
system played through the documented command against a ``dask scheduler`` and ``dask
worker`` processes, and (``--local``) on a Dask ``LocalCluster``. Prints the time, the cost
per student, and the peak bwrap processes and memory (resident, the worker and its
sandboxes) of each worker, sampled every 0.2 s; and whether the runs' tables agree.

    nice -n 15 .venv/bin/python benchmarks/bench_tournament.py [--players 300] [--rounds 5]
        [--openings 1] [--workers 2] [--local] [--budget 300]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.classroom.trial import make_submission, parse_sample, prepare_course  # noqa: E402
from minimaxkit.isolation.usage import below, usage  # noqa: E402

NAME = "a5_evaluation"
SAMPLES = ("strong", "kit_own", "weak", "random_eval", "constant", "wrong_sign", "raises",
           "ignores_turn")
FEATURES = '''def evaluate(board):
    w2, w3, wc = {w2!r}, {w3!r}, {wc!r}
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    score = 0.0
    for line in board.lines():
        for me, other, sign in (("X", "O", 1), ("O", "X", -1)):
            if other not in line:
                n = line.count(me)
                score += sign * (w3 if n == 3 else w2 if n == 2 else 0.0)
    centre = board.column(3)
    score += wc * (centre.count("X") - centre.count("O"))
    return 1000 * score / (abs(score) + 20)
'''


def families(n: int) -> list[dict[str, str]]:
    """``n`` evaluation families: the samples, then the features with seeded weights."""
    out = [parse_sample((REPO / "tests" / "grading" / "submissions" / NAME /
                         f"{s}.py").read_text()).cells for s in SAMPLES]
    for seed in range(n - len(out)):
        rng = random.Random(seed)
        w = {k: round(rng.uniform(-2.0, 6.0), 2) for k in ("w2", "w3", "wc")}
        out.append({"evaluate": FEATURES.format(**w)})
    return out


def course(base: Path, players: int, kinds: int) -> Path:
    root = prepare_course(REPO, base / "course")
    released = REPO / "assignments" / NAME / f"{NAME}.ipynb"
    made = families(kinds)
    for i in range(players):
        path = root / "autograded" / f"s{i:03d}" / NAME / f"{NAME}.ipynb"
        make_submission(released, made[i % len(made)], path)
        nb = nbformat.read(str(path), as_version=4)  # the speed autograde records
        cell = next(c for c in nb.cells if "correctness" in c.source and "grade(" in c.source)
        cell.metadata["minimaxkit"] = {"speed": {"ms_per_board": 0.1, "limit_ms": 5.0,
                                                 "too_slow": False, "boards": 80}}
        nbformat.write(nb, str(path))
    return root


class Watch:
    """Peak bwrap processes and resident memory below each of ``pids``, every 0.2 s."""

    def __init__(self, pids: list[int]) -> None:
        self.pids, self.stop = pids, threading.Event()
        self.bwrap = dict.fromkeys(pids, 0)
        self.memory = dict.fromkeys(pids, 0)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            for pid in self.pids:
                n = 0
                for p in below(pid):
                    try:
                        n += Path(f"/proc/{p}/comm").read_text().strip() == "bwrap"
                    except OSError:
                        pass
                self.bwrap[pid] = max(self.bwrap[pid], n)
                self.memory[pid] = max(self.memory[pid], usage(pid).memory)

    def done(self) -> str:
        self.stop.set()
        self.thread.join()
        return ", ".join(f"{self.bwrap[p]} bwrap / {self.memory[p] / 2**20:.0f} MB"
                         for p in self.pids)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def on_scheduler(root: Path, args: argparse.Namespace, out: Path) -> tuple[float, str]:
    """The command against ``dask scheduler`` and ``--workers`` ``dask worker`` processes."""
    dask = str(Path(sys.executable).with_name("dask"))
    port = _port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--dashboard-address", ":0"], **quiet)]
    procs += [subprocess.Popen([dask, "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1",
                                "--nworkers", "1", "--dashboard-address", ":0"], **quiet)
              for _ in range(args.workers)]
    try:
        time.sleep(10)
        watch = Watch([p.pid for p in procs[1:]])
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "minimaxkit.grading.tournament", NAME, "--root",
                        str(root), "--out", str(out), "--swiss", str(args.rounds),
                        "--openings", str(args.openings), "--budget", str(args.budget),
                        "--scheduler", f"tcp://127.0.0.1:{port}", "--seed", "1"], check=True)
        return time.perf_counter() - start, watch.done()
    finally:
        for p in reversed(procs):
            p.terminate()
            p.wait(60)


def on_local_cluster(root: Path, args: argparse.Namespace, out: Path) -> tuple[float, str]:
    from distributed import Client, LocalCluster

    from minimaxkit.classroom.tournament import find_entrants, run_tournament, write

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        watch = Watch(list(client.run(os.getpid).values()))
        start = time.perf_counter()
        t = run_tournament(find_entrants(root, NAME), seed=1, openings=args.openings,
                           swiss=args.rounds, budget=args.budget,
                           scheduler=cluster.scheduler_address)
        seconds = time.perf_counter() - start
        write(t, out)
        return seconds, watch.done()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--families", type=int, default=36)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--openings", type=int, default=1)
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--local", action="store_true", help="also on a LocalCluster")
    parser.add_argument("--quick", action="store_true", help="30 players, 2 rounds")
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds = 30, 2
    base = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    root = course(base, args.players, args.families)
    games = (args.players + 3) // 2 * 2 * args.openings * args.rounds
    print(f"{args.players} students ({args.families} families) + 3 references, Swiss "
          f"{args.rounds} rounds, {args.openings} opening(s), {args.budget} nodes a move, "
          f"about {games} games; {platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}", flush=True)
    tables = {}
    for label, run in (("dask scheduler + workers, the command", on_scheduler),
                       ("LocalCluster", on_local_cluster)):
        if run is on_local_cluster and not args.local:
            continue
        out = base / label.split()[0]
        seconds, peaks = run(root, args, out)
        tables[label] = list(csv.DictReader(open(out / "leaderboard.csv")))
        print(f"{label}: {seconds:.0f} s, {seconds * args.workers / (args.players + 3):.1f} "
              f"worker-seconds a player; peak per worker: {peaks} "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
    same = all(t == next(iter(tables.values())) for t in tables.values())
    print("the same table in every run:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
