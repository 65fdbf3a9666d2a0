"""Assignment 5's play grade (minimaxkit.grading.evaluation.ladder, .play_check, .reference,
.lockstep): the book, the class's draw, the points curve counted against the reference
solution's share of the same games, the stated interval, the design as tests.json sets it,
the draw from the course's secret (the same for every student), the student's own (practice)
run, the games side by side (the same games as one at a time), and, with real games, that an
evaluation tuned to the openings a student can see earns fewer points than the solution."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest

from minimaxkit.arena.matches import (
    GAME,
    Player,
    board_player,
    kit_player,
    play_game,
    random_player,
    weak_player,
)
from minimaxkit.grading.evaluation.correctness import CorrectnessSpec, Speed, check_correctness
from minimaxkit.grading.evaluation.evaluators import LocalEvaluator
from minimaxkit.grading.evaluation.feedback import EvaluationReport
from minimaxkit.grading.evaluation.ladder import (
    BOOK,
    LADDER,
    PRACTICE,
    RETIRED,
    Rung,
    balanced_openings,
    draw_openings,
    ladder_of,
    mirror_opening,
    practice_of,
    rung_result,
    share_interval,
)
from minimaxkit.grading.evaluation.notebook import (
    CLASS,
    EvaluationCell,
    grade_evaluation,
    graded_openings,
    verdict,
)
from minimaxkit.grading.evaluation.play_check import PlayPlan, check_play
from minimaxkit.grading.evaluation.reference import (
    ReferenceGames,
    compute,
    current,
    solution_source,
)
from minimaxkit.grading.testdata.suites import salt_for
from minimaxkit.grading.testdata.trees import seed_for

SAMPLES = Path(__file__).parent / "submissions" / "a5_evaluation"
#: a share and its 95% interval: "58% ± 9%", or the interval itself where that would
#: reach past 0% or 100% ("100% (95% interval: 90% to 100%)")
SPREAD = r"\d+%(?: ± \d+%| \(95% interval: \d+% to \d+%\))"


# ----- the curve ------------------------------------------------------------------------
def test_points_follow_a_straight_line_between_zero_and_full() -> None:
    kit = Rung("kit", openings=48, zero=0.35, full=0.65)
    # by hand: 2 * (share - 0.35) / 0.30, to a tenth, clipped to [0, 2]
    assert [kit.earned(s) for s in (0.0, 0.35, 0.40, 0.50, 0.60, 0.65, 0.90, 1.0)] == \
        [0.0, 0.0, 0.3, 1.0, 1.7, 2.0, 2.0, 2.0]
    grid = [kit.earned(i / 96) for i in range(97)]  # every share 96 games can give
    assert grid == sorted(grid) and len(set(grid)) == 21  # no cliff: every tenth is reached
    assert Rung("weak", 8, 0.4, 0.8, points=3).earned(0.6) == 1.5


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"zero": 0.7, "full": 0.6}, "need 0 <= zero < full <= 1"),
    ({"zero": 0.5, "full": 1.5}, "need 0 <= zero < full <= 1"),
    ({"openings": 0}, "openings must be a whole number >= 1"),
    ({"openings": True}, "openings must be a whole number >= 1"),
])
def test_a_bad_rung_says_which_and_what(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"openings": 8, "zero": 0.4, "full": 0.8} | kwargs
    with pytest.raises(ValueError, match=f"rung 'weak': {message}"):
        Rung("weak", **args)  # type: ignore[arg-type]


# ----- the book and the draw ---------------------------------------------------------------
def test_the_book_holds_distinct_unseen_openings_one_per_mirror_pair() -> None:
    assert len(BOOK) == len(set(BOOK)) == 137
    seen = {*PRACTICE, *RETIRED} | {mirror_opening(o) for o in (*PRACTICE, *RETIRED)}
    assert not seen & set(BOOK)
    for opening in BOOK:
        assert len(opening) in (2, 3) and opening <= mirror_opening(opening)
        GAME.state_from_moves(opening)  # legal


@pytest.mark.slow
def test_the_book_is_the_balanced_openings_less_the_seen_ones() -> None:
    seen = set(PRACTICE) | set(RETIRED) | {mirror_opening(o) for o in RETIRED}
    assert tuple(o for o in balanced_openings() if o not in seen) == BOOK


def test_each_seed_has_a_draw_of_its_own_the_same_on_every_run() -> None:
    n = max(r.openings for r in LADDER)
    draws = [draw_openings(seed, n) for seed in range(300)]
    assert draws[0] == draw_openings(0, n) and draws[17] == draw_openings(17, n)
    assert len({tuple(sorted(d)) for d in draws}) == 300  # no two courses the same
    for seed, d in enumerate(draws[:20]):
        assert len(set(d)) == n and set(d) <= set(BOOK)
        assert draw_openings(seed, 8) == d[:8]  # a rung of 8 plays the first 8 of the draw
    # each opening is in about n / 137 of the draws, as any other (40: 29%;
    # binomial SD for 300 seeds 2.6 points; the bounds are 5 SD out)
    p = n / len(BOOK)
    sd = math.sqrt(p * (1 - p) / len(draws))
    counts = {o: sum(o in d for d in draws) / len(draws) for o in BOOK}
    assert p - 5 * sd < min(counts.values()) and max(counts.values()) < p + 5 * sd
    # two draws share what chance gives: n * n / 137 openings (40: 11.7)
    overlap = [len(set(a) & set(b)) for a, b in itertools.combinations(draws[:60], 2)]
    assert abs(sum(overlap) / len(overlap) - n * n / len(BOOK)) < 1.5


def test_a_draw_it_cannot_make_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot draw 138 openings from a book of 137"):
        draw_openings(1, 138)
    with pytest.raises(ValueError, match="the book holds an opening twice"):
        draw_openings(1, 2, ["00", "11", "00"])


# ----- the stated result ------------------------------------------------------------------
def test_the_interval_by_hand() -> None:
    # pairs' shares: three 0.5, five 1.0 -> mean 0.8125; sample variance 0.46875 / 7
    share, half = share_interval([(1, 0)] * 3 + [(1, 1)] * 5)
    assert share == 0.8125
    assert half == pytest.approx(1.96 * math.sqrt(0.46875 / 7 / 8))
    # a clean sweep claims no certainty: the floor of two games at (16 + 1) / 18
    share, half = share_interval([(1, 1)] * 8)
    shrunk = 17 / 18
    assert share == 1.0 and half == pytest.approx(1.96 * math.sqrt(shrunk * (1 - shrunk)
                                                                  / 8 / 8))
    # every opening of the book drawn: nothing left to be uncertain about
    assert share_interval([(1, 0), (0, 1), (1, 1)], book_size=3)[1] == 0.0
    with pytest.raises(ValueError, match="no games"):
        share_interval([])


def test_the_feedback_line_states_share_interval_games_and_points() -> None:
    kit = Rung("kit", openings=3, zero=0.35, full=0.65)
    result = rung_result(kit, [(1, 0.5), (0, 1), (0.5, 0.5)])
    assert (result.won, result.drawn, result.lost, result.games) == (2, 3, 1, 6)
    assert result.share == pytest.approx(0.5833, abs=1e-4) and result.earned == 1.6
    assert result.text() == (f"won 58% ± {result.half_width:.0%} of the points in 6 games "
                             "against the kit (2 won, 3 drawn, 1 lost): 1.6 of 2 points")
    assert result.text(opponent=False) == (f"won 58% ± {result.half_width:.0%} of the points "
                                           "in 6 games (2 won, 3 drawn, 1 lost): 1.6 of 2 points")
    with pytest.raises(ValueError, match="a game's points are 0, 0.5 or 1, got 2"):
        rung_result(kit, [(2, 0)])


# ----- with real games ------------------------------------------------------------------
def _sample(name: str, budget: int) -> Player:
    ns: dict[str, object] = {}
    exec((SAMPLES / f"{name}.py").read_text(), ns)  # noqa: S102 - the kit's sample files
    return board_player(name, ns["evaluate"], budget)  # type: ignore[arg-type]


def _pairs(you: Player, rung: Rung, openings: list[str], budget: int
           ) -> list[tuple[float, float]]:
    """``you``'s points as X and as O from each of the first ``rung.openings``."""
    opp = {"random": random_player(), "weak": weak_player(budget),
           "kit": kit_player(budget)}[rung.name]
    return [(play_game(you, opp, op).points(you.name), play_game(opp, you, op).points(you.name))
            for op in openings[:rung.openings]]


def _points(you: Player, openings: list[str], ladder: tuple[Rung, ...], budget: int,
            book_size: int | None) -> float:
    return sum(rung_result(rung, _pairs(you, rung, openings, budget), book_size).earned
               for rung in ladder)


#: The old grade: the four released openings for everybody, all of a rung's points at its
#: margin (75%, 60%, 60%) and none below.
OLD = tuple(Rung(name, openings=4, zero=margin - 1e-9, full=margin)
            for name, margin in (("random", 0.75), ("weak", 0.6), ("kit", 0.6)))


@pytest.mark.slow
@pytest.mark.timeout(900)  # 32 games in this process
def test_the_old_grade_could_not_tell_the_tuned_vector_from_the_solution() -> None:
    budget = 300
    visible = list(RETIRED)  # the four openings the old grade released and played
    # an attacker's vector: of 200 random weight vectors for the kit's features, one that
    # won all 8 games against the kit from those openings (tests/.../tuned.py says which)
    tuned = _sample("tuned", budget)
    solution = _sample("strong", budget)
    # the old grade cannot tell the tuned vector from the solution, or prefers it; the
    # chosen design, on the openings drawn for it, gives it fewer points than the solution:
    # test_a5_evaluation.py autogrades both through nbgrader with the course's 128 games
    assert _points(tuned, visible, OLD, budget, None) >= \
        _points(solution, visible, OLD, budget, None)


# ----- the design as a course sets it (tests.json) and the draw per student ---------------
REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "solutions" / "a5_evaluation"


def test_the_course_grades_with_the_chosen_design() -> None:
    spec = json.loads((SOURCE / "tests.json").read_text())["questions"]["play"]
    assert ladder_of(spec) == LADDER
    assert practice_of(spec) == PRACTICE


@pytest.mark.parametrize(("ladder", "message"), [
    (None, "'ladder' must be a list of rungs"),
    ([{"name": "kit", "margin": 0.6}], "rung 1: needs the keys full, name, openings, zero"),
    ([{"name": "kit", "openings": 4, "zero": 0.3, "full": 0.6},
      {"name": "strong", "openings": 4, "zero": 0.3, "full": 0.6}],
     "rung 2: unknown opponent 'strong'"),
    ([{"name": "kit", "openings": 4, "zero": 0.6, "full": 0.3}],
     "rung 1: rung 'kit': need 0 <= zero < full <= 1"),
    ([{"name": "kit", "openings": 138, "zero": 0.3, "full": 0.6}],
     "rung 1: 138 openings, the book holds 137"),
])
def test_a_bad_ladder_in_tests_json_says_which_rung(ladder: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        ladder_of({"ladder": ladder})


def test_a_practice_opening_never_gives_away_part_of_a_draw() -> None:
    for bad in (["00"], ["66"], [], [3]):  # "66" is the mirror image of "00"
        with pytest.raises(ValueError, match="'practice' must be openings outside the book"):
            practice_of({"practice": bad})


def test_the_released_tests_hold_no_graded_opening() -> None:
    released = (REPO / "assignments" / "a5_evaluation" / "tests.json").read_text()
    spec = json.loads(released)["questions"]["play"]
    assert "openings" not in spec and "visible_openings" not in spec
    assert not set(re.findall(r'"(\d{2,3})"', released)) & set(BOOK)


def test_the_class_is_graded_on_one_draw_that_the_secret_hides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINIMAXKIT_SECRET", "first secret")
    drawn = graded_openings(SOURCE, "play")
    assert len(drawn) == max(r.openings for r in LADDER) == len(set(drawn))
    assert set(drawn) <= set(BOOK)
    for student in ("alice", "bob"):  # whoever is graded: the same openings
        monkeypatch.setenv("MINIMAXKIT_STUDENT_ID", student)
        assert graded_openings(SOURCE, "play") == drawn
    # the seed the grading layer derives for seeded trees, for the whole class
    salt = salt_for(json.loads((SOURCE / "tests.json").read_text()), SOURCE)
    assert drawn == draw_openings(seed_for(CLASS, "a5_evaluation/play/openings", salt), 40)
    # another course's secret: another draw, so no student can compute the class's
    monkeypatch.setenv("MINIMAXKIT_SECRET", "second secret")
    assert graded_openings(SOURCE, "play") != drawn


def test_the_students_own_run_plays_the_practice_opening_and_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    ns: dict[str, object] = {}
    exec((SAMPLES / "strong.py").read_text(), ns)  # noqa: S102 - the kit's sample files
    earned = grade_evaluation(ns["evaluate"], "play", points=6,  # type: ignore[arg-type]
                              here=SOURCE)
    out = capsys.readouterr().out
    assert "practice: the graded games, 128 of them, start from openings kept secret, the " \
        "same for the whole class (4 openings against random, 20 against weak, 40 against " \
        "the kit, each played as X and as O); here only the opening columns 3, 3, as X and " \
        "as O" in " ".join(out.split())
    text = out.replace("\n  ", " ")  # the lines folded at 100 columns, joined
    lines = [ln for ln in text.splitlines() if ln[:1] in "✔◐✘"]
    assert len(lines) == 3
    for line, who in zip(lines, ("random", "weak", "the kit"), strict=True):
        assert re.fullmatch(rf". against {who} \(300 nodes a move\): won {SPREAD} of the "
                            r"points in 2 games \(\d won, \d drawn, \d lost\): [\d.]+ of 2 "
                            "points", line), line
    assert all(len(ln) <= 100 for ln in out.splitlines())
    assert 0 <= earned <= 6


def test_rung_points_add_up_on_their_scale() -> None:
    report = EvaluationReport("play", 6, items=[("a", True, ""), ("b", False, ""),
                                                ("c", False, "")],
                              scores=[(2.0, 2.0), (1.7, 2.0), (0.0, 2.0)])
    assert report.earned == 3.7
    assert [i["earned"] for i in report.data()["items"]] == [2.0, 1.7, 0.0]
    assert EvaluationReport("play", 3, items=[("a", True, "")], scores=[(1.3, 2.0)]
                            ).earned == 1.95


def test_a_function_slower_in_play_than_in_the_check_forfeits_the_games() -> None:
    """The correctness check's boards are answered at once; once a game is under way the
    function takes 4 ms of processor time a board (the limit: 1 ms, 20% more allowed): the
    games, played side by side, use more than the limit allows for the boards they ask, and
    every one is forfeited with that reason. The same function without the slowness plays
    and wins its games."""
    import time

    def evaluate(board, slow: bool = True):  # type: ignore[no-untyped-def]
        if slow and board.moves_played > 3:
            end = time.process_time() + 0.004
            while time.process_time() < end:
                pass
        return board.column(3).count("X") - board.column(3).count("O") if board.winner() \
            is None else (1000 if board.winner() == "X" else -1000)

    plan = PlayPlan.of({"node_budget": 60, "ladder": [
        {"name": "random", "openings": 1, "zero": 0.5, "full": 1.0}]}, ["33"])
    slow = check_play(LocalEvaluator(evaluate), plan, points=2)
    assert [g.forfeit for g in slow.games] == ["X", "O"], slow.games
    assert all(g.reason.startswith("too slow in the games: ") and "ms a board; the limit "
               "is 1 ms, 20% more allowed" in g.reason for g in slow.games)
    fast = check_play(LocalEvaluator(lambda b: evaluate(b, slow=False)), plan, points=2)
    assert [g.forfeit for g in fast.games] == [None, None]


# ----- the reference solution, the same for everyone ----------------------------------------
def _table() -> ReferenceGames:
    table = ReferenceGames.load(SOURCE)
    assert table is not None
    return table


def test_the_reference_solution_earns_every_play_point_whatever_the_draw() -> None:
    """Its own games, stored for the whole book, graded as the play check grades any
    evaluation's, on 300 courses' draws (benchmarks/bench_a5_fairness.py: more courses, and
    the student ids): all 6 points every time, though its share of a rung's points is often
    below the rung's full share (60% against the kit: it wins 60.4% of the book's)."""
    table = _table()
    scaled = 0
    for seed in range(300):
        drawn = draw_openings(seed, max(r.openings for r in LADDER))
        earned = 0.0
        for rung in LADDER:
            mine = drawn[:rung.openings]
            pairs = [table.points[rung.name][o] for o in mine]
            result = rung_result(rung, pairs, len(BOOK), reference=table.share(rung, mine))
            scaled += result.scale > 1
            earned += result.earned
        assert earned == 6.0, (seed, earned)
    assert scaled > 100  # the scale moved for many of them (it would have failed them)


def test_a_share_counts_against_the_reference_solutions_share_of_the_same_games() -> None:
    kit = Rung("kit", openings=40, zero=0.3, full=0.6)
    # by hand: the reference won 50% of these games; a share s counts s * 0.6 / 0.5
    at = rung_result(kit, [(1, 0)] * 4, reference=0.5)  # 50%, as the reference: all
    assert at.scale == pytest.approx(1.2) and at.earned == 2.0
    below = rung_result(kit, [(1, 0)] * 3 + [(0, 0)], reference=0.5)  # 37.5% -> 45%: 1.0
    assert below.earned == 1.0
    assert rung_result(kit, [(0, 0)] * 4, reference=0.5).earned == 0.0  # nothing is nothing
    # a reference at or above the full share moves nothing
    assert rung_result(kit, [(1, 0)] * 4, reference=0.7).earned == \
        rung_result(kit, [(1, 0)] * 4).earned == kit.earned(0.5) == 1.3
    assert "the reference solution won 50% of these games' points: that share earns all 2" \
        in below.text()
    assert "reference" not in rung_result(kit, [(1, 0)] * 4, reference=0.7).text()


@pytest.mark.slow
def test_the_stored_reference_games_are_the_solutions_with_this_kit() -> None:
    """The file is the source notebook's solution's (its hash) with this kit (two games
    played again), and a sample of its openings played again gives the stored points."""
    stored, why = current(SOURCE, 300)
    assert stored is not None, why
    source = solution_source(SOURCE)
    assert source is not None
    sample = {r: list(BOOK[::45]) for r in ("weak", "kit")}
    again = compute(source, 300, sample)
    for rung, openings in sample.items():
        for o in openings:
            assert again.points[rung][o] == stored.points[rung][o], (rung, o)


def test_a_rung_with_part_of_its_points_reads_as_partial() -> None:
    report = EvaluationReport("play", 6, items=[("all", True, ""), ("some", False, ""),
                                                ("none", False, "")],
                              scores=[(2.0, 2.0), (1.3, 2.0), (0.0, 2.0)])
    assert [ln[:1] for ln in report.text().splitlines()[2:]] == ["✔", "◐", "✘"]


def test_too_slow_and_no_number_to_time_are_told_apart() -> None:
    plan = PlayPlan.of({"node_budget": 60, "ladder": [
        {"name": "random", "openings": 1, "zero": 0.5, "full": 1.0}]}, ["33"])
    slow = Speed(5.0, 5.1, 1.0, 600)
    unmeasured = Speed(None, 0.0, 1.0, 0)
    assert slow.no_games().startswith("the correctness check found it too slow (5.0 ms")
    assert unmeasured.no_games() == "the correctness check got no number from it to time"
    for speed in (slow, unmeasured):
        report = check_play(LocalEvaluator(lambda b: 0), plan, points=2,
                            no_games=speed.no_games())
        assert {g.reason for g in report.games} == {f"not played: {speed.no_games()}"}
    # the correctness check says which: a function that answers nothing is not "too slow"
    spec = CorrectnessSpec(seed=3, finished=4, in_play=6, limit_ms=50)
    raises = check_correctness(LocalEvaluator(lambda b: 1 / 0), spec, points=5)
    assert raises.no_games == "the correctness check got no number from it to time"


def _fewer_course(tmp_path: Path) -> Path:
    """A copy of the course's assignment 5 source folder playing 1, 1 and 2 openings."""
    import shutil

    here = tmp_path / "solutions" / "a5_evaluation"
    shutil.copytree(SOURCE, here)
    (tmp_path / "nbgrader_config.py").write_text("")
    tests = json.loads((here / "tests.json").read_text())
    for rung, n in zip(tests["questions"]["play"]["ladder"], (1, 1, 2), strict=True):
        rung["openings"] = n
    (here / "tests.json").write_text(json.dumps(tests))
    return here


@pytest.mark.slow
def test_the_same_evaluation_under_two_ids_gets_the_same_grade(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Graded as autograde grades (the class's boards and openings, the reference's share),
    in this process: the same verdicts, points and games for two students. Through real
    nbgrader: test_a5_honest.py, the samples that grade as another."""
    here = _fewer_course(tmp_path)
    monkeypatch.setenv("MINIMAXKIT_SECRET", "a course secret")
    ns: dict[str, object] = {}
    exec((SAMPLES / "kit_own.py").read_text(), ns)  # noqa: S102 - the kit's sample files
    reports = []
    for student in ("alice", "bob"):
        monkeypatch.setenv("MINIMAXKIT_STUDENT_ID", student)
        carried: dict[str, str] = {}
        reports.append([verdict(LocalEvaluator(ns["evaluate"]),  # type: ignore[arg-type]
                                EvaluationCell(here, q, p), carried)
                        for q, p in (("correctness", 5), ("play", 6))])
    alice, bob = reports
    assert [r.earned for r in alice] == [r.earned for r in bob]
    assert alice[1].games == bob[1].games and len(alice[1].games) == 8
    masked = [[re.sub(r"fast enough: [\d.e+-]+ ms", "_", re.sub(r"\n +", " ", r.text()))
               for r in rs] for rs in reports]
    assert masked[0] == masked[1]


def test_games_side_by_side_are_the_games_one_at_a_time() -> None:
    """Three rungs' games side by side, with the kit's sample evaluation: move for move the
    games of play_game one after another; a function that fails on some boards forfeits only
    the games that asked them, with the board named."""
    ns: dict[str, object] = {}
    exec((SAMPLES / "kit_own.py").read_text(), ns)  # noqa: S102 - the kit's sample files
    evaluate = ns["evaluate"]
    plan = PlayPlan.of({"node_budget": 60, "ladder": [
        {"name": "random", "openings": 2, "zero": 0.5, "full": 1.0},
        {"name": "weak", "openings": 2, "zero": 0.5, "full": 1.0},
        {"name": "kit", "openings": 2, "zero": 0.3, "full": 0.6}]}, ["00", "13"])
    together = check_play(LocalEvaluator(evaluate), plan, points=6)  # type: ignore[arg-type]
    alone = board_player("you", evaluate, 60)  # type: ignore[arg-type]
    one_by_one = [play_game(alone, p.opponent, p.opening) if p.side == "X" else
                  play_game(p.opponent, alone, p.opening) for _, p in plan.pairings()]
    assert [g.moves for g in together.games] == [g.moves for g in one_by_one]
    assert [g.result for g in together.games] == [g.result for g in one_by_one]

    def fails_late(board):  # type: ignore[no-untyped-def]
        if board.moves_played >= 12 and board.column(0).startswith("X"):
            raise KeyError("late")
        return evaluate(board)  # type: ignore[operator]

    broken = check_play(LocalEvaluator(fails_late), plan, points=6)
    lost = [g for g in broken.games if g.forfeit]
    assert lost and len(lost) < len(broken.games)
    assert all(g.reason.startswith("raised KeyError: 'late' on the board after ") for g in lost)
