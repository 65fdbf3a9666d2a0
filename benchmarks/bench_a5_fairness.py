"""Assignment 5: equal work, equal grade, and the reference solution at full marks (issue #35).

The play check grades every student of a class on the same openings, drawn from the book with
the course's secret, and counts a share of a rung's points against the reference solution's
share of the same games. This shows:

1. **every student id**: the openings and the reference solution's play points for
   ``--ids`` student ids (250) of one course, computed as autograde computes them
   (:func:`~minimaxkit.grading.evaluation.notebook.graded_openings` under each id, the
   reference's shares from its stored games, the points of
   :func:`~minimaxkit.grading.evaluation.ladder.rung_result`): one draw, 6 of 6 each time;
2. **every course**: the same over ``--courses`` course secrets (300), where the draw
   changes: the reference's 6 of 6 every time, and how often the scale moved for it;
3. **played, not looked up**: for a few ids and secrets, the reference solution's games
   played again by the play check itself (:func:`~minimaxkit.grading.evaluation.notebook.
   verdict`, in this process), whose points must be those of the stored games;
4. **the others**: the sample evaluations' play points over the same courses (their games
   from every opening of the book, played once and cached in ``benchmarks/cache/``): an
   evaluation tuned to the openings the old grade released earns less than the solution.

    .venv/bin/python benchmarks/bench_a5_fairness.py             # about 10 minutes at first
    .venv/bin/python benchmarks/bench_a5_fairness.py --no-others  # parts 1-3, a minute
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.classroom.trial import parse_sample  # noqa: E402
from minimaxkit.grading.evaluation.evaluators import LocalEvaluator  # noqa: E402
from minimaxkit.grading.evaluation.ladder import BOOK, LADDER, draw_openings, rung_result  # noqa: E402
from minimaxkit.grading.evaluation.notebook import (  # noqa: E402
    CLASS,
    EvaluationCell,
    graded_openings,
    verdict,
)
from minimaxkit.grading.evaluation.reference import ReferenceGames, compute, current  # noqa: E402
from minimaxkit.grading.testdata.trees import seed_for  # noqa: E402

SOURCE = REPO / "solutions" / "a5_evaluation"
SAMPLES = REPO / "tests" / "grading" / "submissions" / "a5_evaluation"
CACHE = REPO / "benchmarks" / "cache"
OTHERS = ("tuned", "kit_own", "ignores_turn", "weak", "constant")
SALT = json.loads((SOURCE / "tests.json").read_text())["salt"]


def salt_of(secret: str) -> str:
    """The salt a course with ``secret`` grades with (as ``testdata.suites.salt_for``)."""
    return hashlib.sha256(f"{secret}\0{SALT}".encode()).hexdigest() if secret else SALT


def draw_for(secret: str) -> list[str]:
    return draw_openings(seed_for(CLASS, "a5_evaluation/play/openings", salt_of(secret)),
                         max(r.openings for r in LADDER))


def points(games: ReferenceGames, reference: ReferenceGames, drawn: list[str]
           ) -> tuple[float, int]:
    """The play points of the evaluation whose games are ``games`` on the class's ``drawn``
    openings, as the play check counts them; and the rungs whose scale moved."""
    total, moved = 0.0, 0
    for rung in LADDER:
        mine = drawn[:rung.openings]
        result = rung_result(rung, [games.points[rung.name][o] for o in mine], len(BOOK),
                             reference=reference.share(rung, mine))
        total += result.earned
        moved += result.scale > 1
    return round(total, 2), moved


def every_id(table: ReferenceGames, ids: int, secret: str) -> None:
    os.environ["MINIMAXKIT_SECRET"] = secret
    draws, earned = set(), []
    for n in range(ids):
        os.environ["MINIMAXKIT_STUDENT_ID"] = f"student{n:04d}"
        drawn = graded_openings(SOURCE, "play")
        draws.add(tuple(drawn))
        earned.append(points(table, table, drawn)[0])
    print(f"1. {ids} student ids of one course: {len(draws)} draw(s) of openings; the "
          f"reference's play points: {sorted(set(earned))} (6 of 6 for "
          f"{earned.count(6.0)} of {ids})")


def every_course(table: ReferenceGames, courses: int) -> list[list[str]]:
    draws = [draw_for(f"course secret {n}") for n in range(courses)]
    got = [points(table, table, d) for d in draws]
    full = sum(p == 6.0 for p, _ in got)
    moved = sum(m > 0 for _, m in got)
    print(f"2. {courses} courses (secrets): the reference's play points 6 of 6 in {full}; "
          f"the scale moved for it on at least one rung in {moved} ({moved / courses:.0%}): "
          "without it, those would have earned less")
    return draws


def played_again(table: ReferenceGames) -> None:
    """The reference's games played by the play check, for two ids in each of two courses
    with fewer openings (1/2/4: the same code path, a quarter of an hour less)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-a5-fair-"))
    try:
        here = folder / "solutions" / "a5_evaluation"
        shutil.copytree(SOURCE, here)
        (folder / "nbgrader_config.py").write_text("")
        tests = json.loads((here / "tests.json").read_text())
        for rung, n in zip(tests["questions"]["play"]["ladder"], (1, 2, 4), strict=True):
            rung["openings"] = n
        (here / "tests.json").write_text(json.dumps(tests))
        ns: dict[str, object] = {}
        exec(parse_sample((SAMPLES / "strong.py").read_text()).cells["evaluate"], ns)  # noqa: S102
        seen = []
        for secret in ("first course", "second course"):
            os.environ["MINIMAXKIT_SECRET"] = secret
            for student in ("alice", "bob"):
                os.environ["MINIMAXKIT_STUDENT_ID"] = student
                start = time.perf_counter()
                report = verdict(LocalEvaluator(ns["evaluate"]),  # type: ignore[arg-type]
                                 EvaluationCell(here, "play", 6), {"no_games": ""})
                seen.append((secret, student, report.earned, time.perf_counter() - start))
        print("3. the reference's games played again by the play check (1/2/4 openings): " +
              "; ".join(f"{s}, {who}: {e:g} of 6 ({t:.0f} s)" for s, who, e, t in seen))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def book_games(name: str, table: ReferenceGames) -> ReferenceGames:
    """A sample's games from every opening of the book, cached by the engine's fingerprint."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"a5_fairness_{name}_{table.engine}.json"
    if path.is_file():
        data = json.loads(path.read_text())
        return ReferenceGames(table.budget, data["solution"], table.engine,
                              {r: {o: tuple(p) for o, p in g.items()}
                               for r, g in data["points"].items()})
    source = parse_sample((SAMPLES / f"{name}.py").read_text()).cells["evaluate"]
    games = compute(source, table.budget, dict.fromkeys(("random", "weak", "kit"), BOOK))
    path.write_text(json.dumps({"solution": games.solution, "points": {
        r: {o: list(p) for o, p in g.items()} for r, g in games.points.items()}}))
    return games


def others(table: ReferenceGames, draws: list[list[str]]) -> None:
    print(f"4. the samples over the same {len(draws)} courses (play points: min / median / "
          "max; below the solution's 6 in how many; on the draw of a course without a "
          "secret, the kit's tests' course):")
    for name in OTHERS:
        start = time.perf_counter()
        games = book_games(name, table)
        got = [points(games, table, d)[0] for d in draws]
        demo = points(games, table, draw_for(""))[0]
        shares = {r: sum(map(sum, games.points[r].values())) / (2 * len(games.points[r]))
                  for r in ("weak", "kit")}
        print(f"   {name:<13} {min(got):4.1f} / {statistics.median(got):4.1f} / "
              f"{max(got):4.1f}; below 6 in {sum(p < 6 for p in got)} of {len(draws)}; "
              f"{demo:g} without a secret "
              f"(its share of the book: weak {shares['weak']:.1%}, kit {shares['kit']:.1%}; "
              f"{time.perf_counter() - start:.0f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", type=int, default=250)
    parser.add_argument("--courses", type=int, default=300)
    parser.add_argument("--no-others", action="store_true")
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}")
    table, why = current(SOURCE, 300)
    if table is None:
        print(f"the stored games are not current: {why}; run python -m "
              "minimaxkit.grading.refresh solutions/")
        return 1
    shares = {r: sum(map(sum, g.values())) / (2 * len(g)) for r, g in table.points.items()}
    print("the reference solution's share of the book's points: " +
          ", ".join(f"{r} {s:.1%}" for r, s in shares.items()))
    every_id(table, args.ids, "a course secret")
    draws = every_course(table, args.courses)
    played_again(table)
    if not args.no_others:
        others(table, draws)
    return 0


if __name__ == "__main__":
    sys.exit(main())
