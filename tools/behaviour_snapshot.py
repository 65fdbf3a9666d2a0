"""Record what the kit shows and grades, and compare two recordings: issue #34's check that
a refactor changed no grade, verdict, feedback or lecture figure.

Usage. ``.venv/bin/python tools/behaviour_snapshot.py record OUT.json [--lectures]
[--grading] [--assignments a1_minimax,a2_alphabeta] [--repo DIR] [--keep]`` executes every
lecture of ``DIR/notebooks/`` top to bottom in a fresh ``python3`` kernel (as
tests/test_notebooks.py does) and records each code cell's outputs (text, HTML, images as
hash and pixel size, widgets as their models' states), then grades a class in a trial course
built from ``DIR`` (per assignment the solution, the released notebook and every sample and
hostile submission under fixed student ids; the class command ``python -m
minimaxkit.grading.autograde --workers 2``; nbgrader's feedback) and records per student
and grade cell the points, the trusted grader's verdict, and the feedback page's text and
pictures. Neither ``--lectures`` nor ``--grading``: both; no ``--assignments``: all five.
``DIR`` (default: this checkout) must be the kit that the running Python imports, so a
checkout is recorded with its own venv: ``NEW/.venv/bin/python
tools/behaviour_snapshot.py record new.json --repo NEW``. ``compare OLD.json NEW.json``
prints every difference by its place (lecture > cell N > output > MIME type; assignment >
students > id > grades, verdicts or feedback, text as a diff of lines) and exits with 1 if
there is any, 0 if none; ``meta`` (commits, seconds, load, the normalisation rules) is not
compared. What two runs of the same code differ in is normalised when recording
(tools/snapshot/normalise.py, ``NORMALISED``). Measured on 2 shared cores: the lectures
1-2 minutes at a load of 3-5, 5-6 at 15-25; a1-a4 (61 submissions) 3.5 minutes at 4-8, 9
at 15; a5 (24 submissions of 128 games) 35 minutes at 5-14, and at 25 it went at 4 minutes
a submission. Record at a moderate load: a5's games stop at 1,200 s on the wall clock (its
``PLAY_CAP``), and at a load of 25 one sample's last game was forfeited for it. ``--keep``
leaves the executed lectures and the course in the temp folder.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from snapshot.compare import compare_files
from snapshot.grading import record_grading
from snapshot.lectures import record_lectures
from snapshot.normalise import NORMALISED, Json

FORMAT = 1  # the snapshot file's layout: "lectures", "grading", "meta"
REPO = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ("a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening",
               "a5_evaluation")


def check_kit_is_from(repo: Path) -> None:
    """Refuse to record ``repo`` with a Python that imports another checkout's kit."""
    import minimaxkit

    kit = Path(minimaxkit.__file__).resolve().parent
    if not kit.is_relative_to(repo.resolve()):
        sys.exit(f"this Python imports minimaxkit from {kit}, not from {repo}: "
                 f"run the tool with {repo}/.venv/bin/python")


#: What the recorded behaviour comes from: the kit, its lectures, assignments and samples.
RECORDED_PATHS = ("minimaxkit", "notebooks", "solutions", "tests/grading", "nbgrader_config.py",
                  "pyproject.toml")


def git_commits(repo: Path) -> dict[str, str]:
    """The checkout's commit, the last commit that changed what is recorded (so a recording
    made on a branch that only adds tools still names the code it recorded), and the files
    of what is recorded changed since (``git status``), if any."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                              text=True, check=False)
        return done.stdout.strip()

    changed = git("status", "--porcelain", "--", *RECORDED_PATHS)
    return {"commit": git("rev-parse", "HEAD") or "unknown",
            "code commit": git("log", "-1", "--format=%H", "--", *RECORDED_PATHS) or "unknown",
            "uncommitted changes": changed or "none"}


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def chosen_assignments(repo: Path, names: str | None) -> list[str]:
    """The comma-separated assignments named (all five when None), each checked to be one of
    ``repo``'s ``solutions/``."""
    chosen = names.split(",") if names else list(ASSIGNMENTS)
    unknown = [a for a in chosen if not (repo / "solutions" / a / f"{a}.ipynb").is_file()]
    if unknown:
        sys.exit(f"--assignments: no assignment {', '.join(unknown)} in {repo}/solutions "
                 f"(the kit's: {','.join(ASSIGNMENTS)})")
    return chosen


def timed(seconds: dict[str, float], name: str, work: Callable[[], Json]) -> Json:
    """``work()``, its seconds on the wall put in ``seconds[name]``."""
    start = time.perf_counter()
    result = work()
    seconds[name] = round(time.perf_counter() - start, 1)
    return result


def record(args: argparse.Namespace) -> int:
    """The ``record`` command: the snapshot written as JSON to ``args.out``."""
    repo = Path(args.repo).resolve()
    check_kit_is_from(repo)
    both = not (args.lectures or args.grading)
    seconds: dict[str, float] = {}
    meta: dict[str, Json] = {**git_commits(repo), "repo": str(repo),
                             "python": sys.executable, "load before": load_average(),
                             "seconds": seconds, "normalised": NORMALISED}
    snapshot: dict[str, Json] = {"format": FORMAT, "meta": meta}
    scratch = Path(tempfile.mkdtemp(prefix="behaviour-snapshot-"))
    try:
        if args.lectures or both:
            (scratch / "lectures").mkdir()
            snapshot["lectures"] = timed(seconds, "lectures",
                                         lambda: record_lectures(repo, scratch / "lectures"))
            meta["load after lectures"] = load_average()
        if args.grading or both:
            (scratch / "grading").mkdir()
            assignments = chosen_assignments(repo, args.assignments)
            snapshot["grading"] = timed(seconds, "grading", lambda: record_grading(
                repo, scratch / "grading", assignments, seconds))
            meta["load after grading"] = load_average()
    finally:
        if args.keep:
            print(f"kept the lectures and the course in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    Path(args.out).write_text(json.dumps(snapshot, indent=1, sort_keys=True,
                                         ensure_ascii=False) + "\n")
    print(f"wrote {args.out}: {json.dumps(seconds)}; load {meta['load before']} before",
          file=sys.stderr)
    return 0


def compare(args: argparse.Namespace) -> int:
    """The ``compare`` command: every difference printed and 1, or ``the same`` and 0."""
    found = compare_files(Path(args.first), Path(args.second))
    for line in found:
        print(line)
    print(f"{len(found)} difference(s)" if found else "the same")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record", help="record the lectures' outputs and the grades")
    rec.add_argument("out", help="the snapshot's JSON file")
    rec.add_argument("--lectures", action="store_true", help="the lectures (alone)")
    rec.add_argument("--grading", action="store_true", help="the grading (alone)")
    rec.add_argument("--assignments", help="comma-separated (default: all five)")
    rec.add_argument("--repo", default=str(REPO), help="the checkout to record (default: "
                     "this tool's)")
    rec.add_argument("--keep", action="store_true", help="keep the temp folder")
    cmp = commands.add_parser("compare", help="print the differences of two snapshots")
    cmp.add_argument("first")
    cmp.add_argument("second")
    args = parser.parse_args(argv)
    return record(args) if args.command == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
