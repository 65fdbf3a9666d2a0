"""Assignment 5: the seconds real ``nbgrader autograde`` takes per submission, and whether
the scores are the same on a second run with the machine's cores kept busy.

Run 1 autogrades the solution and the ten sample submissions of
tests/grading/submissions/a5_evaluation/ on a temporary course (one process, one at a
time); run 2 does the same on a fresh course while two busy-loop processes load both
cores. Prints the seconds per submission (median, slowest) and whether every score of
run 2 equals run 1's.

    .venv/bin/python benchmarks/bench_a5_autograde.py
    .venv/bin/python benchmarks/bench_a5_autograde.py --only solution   # one autograde, timed

``--only NAME ...`` autogrades only those (``solution`` or sample names), once, and prints
the seconds of each and the processor seconds of the run (nbgrader's process and those it
waited for: a figure the machine's other load changes less than the wall time).

``--phases`` grades the solution as the trusted grader does (its cells in a sandboxed child,
the correctness check, the play check) and prints, per phase, the seconds and the processor
seconds of this process and of the child. On a shared machine the seconds say more about the
load than the code (with the kernel's autogroups, each session gets its share of the cores,
whatever its nice value); the processor seconds do not, and give what one autograde takes on
a machine with its two cores to itself: the phases that run one side at a time add up, and
the games, played by both sides at once, take about the larger of the two.
"""

from __future__ import annotations

import multiprocessing
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.classroom.trial import (  # noqa: E402
    parse_sample,
    prepare_course,
    solution_cells,
    trial_run,
)

NAME = "a5_evaluation"


def _spin() -> None:  # pragma: no cover - the load
    while True:
        pass


def run(label: str, only: list[str] | None = None
        ) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    folder = tempfile.mkdtemp(prefix=f"bench-a5-{label}-")
    try:
        return _run(label, prepare_course(REPO, Path(folder)), only)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run(label: str, course: Path, only: list[str] | None
         ) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    subs = [(NAME, "solution", solution_cells(REPO / "solutions" / NAME / f"{NAME}.ipynb"))]
    for p in sorted((REPO / "tests" / "grading" / "submissions" / NAME).glob("*.py")):
        subs.append((NAME, p.stem, parse_sample(p.read_text()).cells))
    if only:
        subs = [s for s in subs if s[1] in only]
    trial = trial_run(course, subs, feedback=False, export=False)
    assert not trial.errors, trial.errors
    seconds = trial.seconds[NAME]
    print(f"{label}: median {statistics.median(seconds.values()):.1f} s, slowest "
          f"{max(seconds.values()):.1f} s ({max(seconds, key=seconds.get)}), "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    for student, s in sorted(seconds.items()):
        print(f"  {student:<14} {s:5.1f} s  {trial.scores[NAME][student]}")
    return trial.scores[NAME], seconds


def phases() -> None:
    """The trusted grading of the solution, phase by phase (see the module docstring)."""
    import time

    from minimaxkit.grading.evaluation.evaluators import RemoteEvaluator
    from minimaxkit.grading.evaluation.notebook import EvaluationCell, play_session, verdict

    here = REPO / "solutions" / NAME
    cells = solution_cells(here / f"{NAME}.ipynb")
    folder = Path(tempfile.mkdtemp(prefix="bench-a5-phases-"))
    (folder / "tests.json").write_text((here / "tests.json").read_text())

    def mine() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    rows = []
    with play_session(folder, None, [], 60.0) as session:
        carried: dict[str, str] = {}
        steps = [("the child starts and runs the cells",
                  lambda: [session.run_cell(c) for c in cells.values()]),
                 *[(f"the {q} check", lambda q=q, p=p: verdict(
                     RemoteEvaluator(session, "evaluate"), EvaluationCell(here, q, p), carried))
                   for q, p in (("correctness", 5), ("play", 6))]]
        for label, step in steps:
            start, cpu, child = time.perf_counter(), mine(), session.cpu()
            step()
            rows.append((label, time.perf_counter() - start, mine() - cpu,
                         session.cpu() - child))
    serial = sum(this + child for label, _, this, child in rows if "play" not in label)
    games = [max(this, child) for label, _, this, child in rows if "play" in label]
    for label, seconds, this, child in rows:
        print(f"  {label:<38} {seconds:6.1f} s; processor: this process {this:5.1f} s, the "
              f"child {child:5.1f} s")
    print(f"  on two cores of its own: about {serial + sum(games):.1f} s for the trusted "
          "grading (one side at a time, then the games on both sides at once), before "
          f"nbgrader's own work and the kernel's run (load {os.getloadavg()[0]:.1f})")


def main() -> int:
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    if "--phases" in sys.argv:
        phases()
        return 0
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1:]

        def cpu(who: int) -> float:  # nbgrader runs in this process; kernel and child under it
            usage = resource.getrusage(who)
            return usage.ru_utime + usage.ru_stime
        load = os.getloadavg()[0]
        mine, theirs = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
        run("only", only)
        mine, theirs = cpu(resource.RUSAGE_SELF) - mine, cpu(resource.RUSAGE_CHILDREN) - theirs
        print(f"processor seconds: {mine:.1f} in this process (nbgrader, the trusted grading: "
              f"the searches), {theirs:.1f} in those it waited for (the sandboxed child: the "
              f"evaluation; the kernel), {mine + theirs:.1f} in all; load {load:.1f} at the "
              f"start, {os.getloadavg()[0]:.1f} at the end")
        return 0
    first, _ = run("as the machine is")
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(2)]
    for p in spinners:
        p.start()
    try:
        second, _ = run("under load (2 busy loops)")
    finally:
        for p in spinners:
            p.kill()
    same = first == second
    print("the same scores on both runs:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
