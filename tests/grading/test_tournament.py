"""The class tournament: submissions' evaluations play in sandboxed children, in worker
processes or on a Dask cluster, and the table is the same every way; a submission that
fails forfeits and the tournament goes on; the leaderboard and every game are written."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from minimaxkit.grading.course import make_submission, parse_sample, prepare_course
from minimaxkit.grading.play.tournament import find_entrants, main, ratings, run_tournament

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
NAME = "a5_evaluation"
PLAYERS = ["strong", "random_eval", "raises"]  # random_eval: random numbers


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = prepare_course(REPO, tmp_path_factory.mktemp("tournament") / "course")
    released = REPO / "assignments" / NAME / f"{NAME}.ipynb"
    for student in PLAYERS:
        sample = parse_sample((REPO / "tests" / "grading" / "submissions" / NAME /
                               f"{student}.py").read_text())
        make_submission(released, sample.cells,
                        root / "autograded" / student / NAME / f"{NAME}.ipynb")
    return root


def test_the_same_table_in_worker_processes_and_on_dask(course: Path) -> None:
    entrants = find_entrants(course, NAME, references=("random",))
    assert [e.name for e in entrants] == ["ref:random", "raises", "random_eval", "strong"]
    first = run_tournament(entrants, seed=3, workers=2)
    assert len(first.games) == 6 * 2  # 4 players: 6 pairings, one opening, both colours
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        dask = run_tournament(entrants, seed=3, scheduler=cluster.scheduler_address)
    # random_eval's random numbers too: every test in the child starts from one random state
    assert dask.table == first.table and dask.games == first.games
    rows = {r["player"]: r for r in first.table}
    # raises on a board with a full column, which its search reaches within the budget in
    # most games: those are forfeited, and every player still played all its games
    assert rows["raises"]["forfeited"] > 0
    assert all(rows[p]["games"] == 6 for p in rows)
    assert rows["strong"]["rating"] > rows["ref:random"]["rating"]


def test_the_command_writes_the_leaderboard_and_every_game(course: Path) -> None:
    assert main([NAME, "--root", str(course), "--seed", "3", "--workers", "1",
                 "--swiss", "2"]) == 0
    out = course / "tournament" / NAME
    rows = list(csv.DictReader(open(out / "leaderboard.csv")))
    assert len(rows) == 3 + 3 and rows[0]["rank"] == "1"
    games = sorted((out / "games").glob("*.html"))
    assert len(games) == 2 * 3 * 2  # 6 players: 3 pairings a round, 2 rounds
    page = (out / "leaderboard.html").read_text()
    assert all(f"games/{g.name}" in page for g in games) and "<script" not in page
    assert 'type="radio"' in games[0].read_text()


def test_ratings_by_hand() -> None:
    # two players, a won 3 of 4 (3 wins, 1 loss) plus each one virtual draw: by symmetry
    # the fit is p_a = 1/p_b, and the likelihood equation of a is
    # 3.5 = 4 p/(p + 1/p) + p/(p + 1) (its points = its expected points, the virtual game too)
    r = ratings(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    assert r["a"][0] + r["b"][0] == pytest.approx(3000)
    import math
    p = 10 ** ((r["a"][0] - 1500) / 400)
    assert 4 * p / (p + 1 / p) + p / (p + 1) == pytest.approx(3.5, abs=1e-6)
    assert r["a"][1] == pytest.approx(r["b"][1]) and r["a"][1] > 0
    assert math.isfinite(ratings(["a", "b"], [("a", "b", 1.0)] * 5)["a"][0])
