"""A whole class autograded: serial ``nbgrader autograde`` against
``python -m minimaxkit.grading.autograde --workers 2``, a process per submission (2 at a
time), and the same command on a Dask ``LocalCluster`` of 2 worker processes; each in a fresh
copy of one course with the same submissions, and the exported grades.csv compared.

The class cycles through the solution, the released notebook, every sample submission of
tests/grading/submissions/ and (a2) the hostile ones of tests/grading/hostile/, student ids
numbered on each round (seeded trees differ per id). Prints wall seconds, seconds per
submission, the speedup over serial, this process's own share (the gradebook and the files,
which does not spread over workers), and a projection for 300 students on 16 cores.

    .venv/bin/python benchmarks/bench_class_autograde.py [--a2 62] [--a5 30] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.classroom.autograde import autograde_class  # noqa: E402
from minimaxkit.classroom.trial import (  # noqa: E402
    make_submission,
    nbgrader_api,
    parse_sample,
    prepare_course,
    solution_cells,
)

PY = sys.executable
ONE = ("import json, sys; from minimaxkit.classroom.autograde import grade_submission; "
       "print(json.dumps(grade_submission(json.loads(sys.stdin.read()))))")


def class_of(assignment: str, n: int) -> list[tuple[str, dict[str, str]]]:
    """``n`` submissions ``(student, cells)``: the solution, the released notebook, the samples
    and the hostile ones, round after round."""
    pool = [("solution", solution_cells(REPO / "solutions" / assignment /
                                        f"{assignment}.ipynb")), ("released", {})]
    for folder in ("submissions", "hostile"):
        for p in sorted((REPO / "tests" / "grading" / folder / assignment).glob("*.py")):
            pool.append((p.stem, parse_sample(p.read_text()).cells))
    return [(f"{name}{'' if i < len(pool) else f'_{i // len(pool)}'}", cells)
            for i, (name, cells) in enumerate((pool * (n // len(pool) + 1))[:n])]


def course(assignment: str, subs: list[tuple[str, dict[str, str]]], label: str) -> Path:
    root = prepare_course(REPO, Path(tempfile.mkdtemp(prefix=f"bench-class-{label}-")))
    assert nbgrader_api(root).generate_assignment(assignment)["success"]
    released = root / "assignments" / assignment / f"{assignment}.ipynb"
    for student, cells in subs:
        make_submission(released, cells, root / "submitted" / student / assignment /
                        released.name)
    return root


def timed(cmd: list[str], root: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if done.returncode:
        print(done.stdout[-2000:], done.stderr[-2000:])
    return time.perf_counter() - start


def grades(root: Path) -> str:
    subprocess.run([PY, "-m", "nbgrader", "export"], cwd=root, capture_output=True, check=True)
    return (root / "grades.csv").read_text()


class OneProcessEach:
    """The workers of ``autograde_class`` as a fresh Python per submission, ``n`` at a time."""

    def __init__(self, n: int) -> None:
        self.capacity, self.pool, self.futures = n, ThreadPoolExecutor(n), []

    def submit(self, task: dict[str, Any]) -> None:
        self.futures.append((task, self.pool.submit(subprocess.run, [PY, "-c", ONE],
                                                    input=json.dumps(task), text=True,
                                                    capture_output=True)))

    def done(self) -> tuple[dict[str, Any], Any]:
        while True:
            for i, (task, future) in enumerate(self.futures):
                if future.done():
                    del self.futures[i]
                    return task, json.loads(future.result().stdout.splitlines()[-1])
            time.sleep(0.05)

    def close(self) -> None:
        self.pool.shutdown()


def bench(assignment: str, n: int, per_process: bool) -> dict[str, float]:
    subs = class_of(assignment, n)
    print(f"\n{assignment}: {n} submissions, load {os.getloadavg()[0]:.1f}", flush=True)
    out, csvs = {}, {}
    root = course(assignment, subs, "serial")
    out["serial nbgrader autograde"] = timed([PY, "-m", "nbgrader", "autograde", assignment], root)
    csvs["serial nbgrader autograde"] = grades(root)
    root = course(assignment, subs, "workers")
    out["--workers 2"] = timed([PY, "-m", "minimaxkit.grading.autograde", assignment,
                                "--workers", "2"], root)
    csvs["--workers 2"] = grades(root)
    if per_process:
        root = course(assignment, subs, "workers4")
        out["--workers 4"] = timed([PY, "-m", "minimaxkit.grading.autograde", assignment,
                                    "--workers", "4"], root)
        csvs["--workers 4"] = grades(root)
        root = course(assignment, subs[:12], "each")  # slow: the first 12 only
        start = time.perf_counter()
        autograde_class(root, assignment, engine=OneProcessEach(2), out=open(os.devnull, "w"))
        each = (time.perf_counter() - start) / 12
        print(f"  a fresh Python per submission, 2 at a time (the first 12): {each:.2f} s each",
              flush=True)
    from distributed import Client, LocalCluster

    root = course(assignment, subs, "dask")
    start = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        started = time.perf_counter() - start
        out["Dask LocalCluster, 2 workers"] = timed(
            [PY, "-m", "minimaxkit.grading.autograde", assignment, "--scheduler",
             cluster.scheduler_address], root)
    csvs["Dask LocalCluster, 2 workers"] = grades(root)
    base = out["serial nbgrader autograde"]
    for label, seconds in out.items():
        same = "same grades.csv" if csvs[label] == csvs["serial nbgrader autograde"] else \
            "GRADES DIFFER"
        print(f"  {label:<42} {seconds:7.1f} s  {seconds / n:5.2f} s each  "
              f"{base / seconds:4.2f}x  {same}", flush=True)
    print(f"  (the LocalCluster took {started:.1f} s to start, not counted above)")
    run = autograde_class(course(assignment, subs, "own"), assignment, workers=2,
                          out=open(os.devnull, "w"))
    each = run.seconds / n
    print(f"  in-process --workers 2 again: {run.seconds:.1f} s; this process's own share "
          f"{run.own:.1f} s ({run.own / n * 1000:.0f} ms a submission)")
    cores = 2 * each  # two cores were busy for `each` seconds a submission
    print(f"  projection, 300 students on 16 cores (16 workers): about "
          f"{max(300 * cores / 16, 300 * run.own / n) / 60:.1f} min "
          f"(serial here: {300 * base / n / 60:.0f} min)", flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--a2", type=int, default=62, help="submissions (0: none)")
    parser.add_argument("--a5", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="12 a2 and 4 a5 submissions")
    args = parser.parse_args()
    if args.quick:
        args.a2, args.a5 = 12, 4
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}")
    if args.a2:
        bench("a2_alphabeta", args.a2, per_process=True)
    if args.a5:
        bench("a5_evaluation", args.a5, per_process=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
