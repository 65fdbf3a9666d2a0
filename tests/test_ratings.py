"""Tournament ratings (minimaxkit.arena.ratings): a fit checked by hand on two
players, intervals that cover the truth at their stated rate in Bradley-Terry worlds of
known strengths (also for a player who loses nearly everything, and in a Swiss system),
a table where a player without points is never above one with points, and a fit that
does not depend on the order of the games."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from minimaxkit import ratings
from minimaxkit.arena.ratings import SCALE, Rating, describe, fit
from minimaxkit.arena.swiss import BYE_SHARE, pair_round

Z95 = 1.959963984540054


def _penalised(d: float, won: float, lost: float) -> float:
    """Two players, ``won`` and ``lost`` games between them, strength difference ``d``:
    the log-likelihood with Jeffreys' penalty, which for one pair is half a win and half
    a loss more (up to a constant)."""
    p = 1 / (1 + math.exp(-d))
    return (won + 0.5) * math.log(p) + (lost + 0.5) * math.log(1 - p)


def _solve(f, lo: float, hi: float) -> float:  # type: ignore[no-untyped-def]
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(lo) * f(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def test_two_players_by_hand() -> None:
    # a won 3 of 4: the penalised fit is p = 3.5 / 5 = 0.7, d = log(0.7 / 0.3), each
    # player half of it from the mean (1500); the interval's ends are where twice the
    # fall of the penalised log-likelihood reaches zz ** 2, found here by bisection: zz is
    # Student's t for 20 degrees of freedom (2.085963, from a table) times the root of the
    # model's variance (1) and the results' own weighed as 20 pairs to 1: the sandwich over
    # the model is, for one pair of information w = 4 * 0.7 * 0.3 whose leverage is 1 (so
    # counted as 1/2), (3 - 4 * 0.7) ** 2 / (1/2) / w
    rows = fit(["a", "b"], [("a", "b", 1.0)] * 2 + [("b", "a", 0.0), ("b", "a", 1.0)])
    a, b = rows
    d = math.log(0.7 / 0.3)
    assert (a.player, b.player) == ("a", "b")
    assert a.rating == pytest.approx(1500 + SCALE * d / 2, abs=0.01)
    assert b.rating == pytest.approx(1500 - SCALE * d / 2, abs=0.01)
    top = _penalised(d, 3, 1)

    own = (3 - 4 * 0.7) ** 2 / 0.5 / (4 * 0.7 * 0.3)
    zz = 2.085963 * math.sqrt((20 + own) / 21)

    def fall(x: float) -> float:
        return 2 * (top - _penalised(x, 3, 1)) - zz ** 2

    low, high = _solve(fall, d - 10, d), _solve(fall, d, d + 10)
    assert a.low == pytest.approx(1500 + SCALE * low / 2, abs=0.05)
    assert a.high == pytest.approx(1500 + SCALE * high / 2, abs=0.05)
    assert (b.low, b.high) == pytest.approx((3000 - a.high, 3000 - a.low), abs=0.05)
    assert (a.games, a.points, b.points) == (4, 3.0, 1.0)


def test_a_player_who_lost_everything_is_below_a_bound_and_last() -> None:
    games = [("a", "b", 1.0), ("b", "a", 1.0), ("a", "z", 1.0), ("z", "a", 0.0),
             ("b", "z", 1.0), ("z", "b", 0.0)]
    rows = {r.player: r for r in fit(["z", "a", "b"], games)}
    z = rows["z"]
    assert z.rating is None and z.low == -math.inf and 1000 < z.high < 2000
    assert describe(z) == f"below {z.high:.0f}"
    assert [r.player for r in fit(["z", "a", "b"], games)][-1] == "z"
    won = {r.player: r for r in fit(["z", "a", "b"], [(x, o, 1 - p) for x, o, p in games])}
    assert won["z"].high == math.inf and won["z"].low == pytest.approx(3000 - z.high, abs=0.1)


def test_a_player_without_points_is_never_above_one_with_points() -> None:
    # z lost its one game, to the strongest player: on strengths alone it would sit above
    # b, who lost 12 of 14 against middling players; the table puts every player with
    # points first
    games = [("t", o, 1.0) for o in "abcw" for _ in range(3)] + [("z", "t", 0.0)]
    games += [("a", "b", 1.0), ("b", "a", 1.0), ("a", "c", 0.5), ("c", "b", 1.0),
              ("b", "w", 1.0)] + [("b", "a", 0.0)] * 4 + [("c", "b", 1.0)] * 5
    games += [("w", "a", 0.0)] * 2 + [("w", "c", 0.0)] * 2
    rows = fit(["t", "a", "b", "c", "w", "z"], games)
    order = [r.player for r in rows]
    assert order.index("b") < order.index("z") and order.index("b") < order.index("w")
    assert all(r.points == 0 for r in rows[order.index("b") + 1:])
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks)


def test_the_table_shares_ranks_the_games_cannot_separate() -> None:
    # a and b split 2-2: one rank; c lost 19 of 20 against them: a rank of its own
    games = [("a", "b", 1.0), ("b", "a", 1.0), ("a", "b", 0.0), ("b", "a", 0.0)]
    games += [(p, "c", 1.0) for p in "ab" for _ in range(9)] + [("c", "a", 1.0)]
    games += [("c", "b", 0.0)]
    rows = fit(["a", "b", "c"], games)
    assert [r.rank for r in rows] == [1, 1, 3]
    assert rows[2].high < min(r.low for r in rows[:2])


def test_players_without_games_come_last_unrated() -> None:
    rows = fit(["a", "b", "idle"], [("a", "b", 1.0), ("b", "a", 1.0)])
    assert rows[-1].player == "idle" and rows[-1].games == 0 and rows[-1].rank == 3
    assert describe(rows[-1]) == "not rated: no games"
    assert (rows[-1].low, rows[-1].high) == (-math.inf, math.inf)


def test_the_order_of_the_games_does_not_matter() -> None:
    rng = random.Random(2)
    names = [f"p{i}" for i in range(8)]
    games = [(a, b, rng.choice([0.0, 0.5, 1.0])) for a in names for b in names if a != b]
    first = fit(names, games)
    for _ in range(3):
        rng.shuffle(games)
        assert fit(names, games) == first
    again = fit(list(reversed(names)), games)  # the same sums in another order
    assert [(r.rank, r.player) for r in again] == [(r.rank, r.player) for r in first]
    for r, s in zip(again, first, strict=True):
        assert (r.rating, r.low, r.high) == pytest.approx((s.rating, s.low, s.high), abs=1e-6)
    # nor the order of the list where nothing else decides: no cycle of results (the
    # anchor, a group of one, is chosen by name) and players of equal strength
    ladder = [(a, b, 1.0) for i, a in enumerate(names) for b in names[i + 1:]] * 2
    def rows(order: list[str], played: list) -> list:  # type: ignore[type-arg]
        return [(r.rank, r.player, r.rating and round(r.rating, 6), round(r.low, 6),
                 round(r.high, 6), r.share) for r in fit(order, played)]

    tables = [rows(order, ladder) for order in (names, names[::-1], names[3:] + names[:3])]
    assert all(t == tables[0] for t in tables), tables
    twins = [("a", "c", 1.0), ("b", "c", 1.0), ("c", "a", 0.0), ("c", "b", 0.0)]
    assert rows(["a", "b", "c"], twins) == rows(["c", "b", "a"], twins)


def test_bad_input_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="named twice"):
        fit(["a", "a"], [])
    with pytest.raises(ValueError, match=r"game 1 is between 'a' and 'x'"):
        fit(["a", "b"], [("a", "b", 1.0), ("a", "x", 1.0)])
    with pytest.raises(ValueError, match="game 0 is between 'a' and 'a'"):
        fit(["a", "b"], [("a", "a", 1.0)])
    with pytest.raises(ValueError, match=r"gives 'a' 0.7 points"):
        fit(["a", "b"], [("a", "b", 0.7)])
    with pytest.raises(ValueError, match="level"):
        fit(["a", "b"], [], level=1.0)


# ----- coverage in worlds of known strengths -----------------------------------------
STRENGTHS = [-1.5, -1.0, -0.5, -0.2, 0.0, 0.3, 0.6, 1.0, 1.4, -7.0]  # the last loses 99.9%


def _game(x: int, o: int, rng: random.Random) -> float:
    p = 1 / (1 + math.exp(STRENGTHS[o] - STRENGTHS[x]))
    return 1.0 if rng.random() < p else 0.0


# every pair plays one opening once with each colour, and says so: the games here are
# independent, so what the fit measures of the two games' correlation is noise about 0
def _round_robin(rng: random.Random, names: list[str]) -> list[tuple[str, str, float, str]]:
    return [(names[x], names[o], _game(x, o, rng), "33") for x in range(len(names))
            for o in range(len(names)) if x != o]


def _swiss(rng: random.Random, names: list[str], rounds: int = 6
           ) -> list[tuple[str, str, float, str]]:
    index = {n: i for i, n in enumerate(names)}
    points, met, byes, games = dict.fromkeys(names, 0.0), set(), Counter[str](), []
    for _ in range(rounds):
        scores = {n: points[n] + 2 * BYE_SHARE * byes[n] for n in names}
        pairs, bye = pair_round(names, scores, met, byes, seed=rng.random())
        if bye:
            byes[bye] += 1
        for a, b in pairs:
            met.add(frozenset((a, b)))
            for x, o in ((a, b), (b, a)):
                games.append((x, o, _game(index[x], index[o], rng), "33"))
                points[x] += games[-1][2]
                points[o] += 1 - games[-1][2]
    return games


def _coverage(tournament, draws: int) -> tuple[float, dict[str, float]]:  # type: ignore[no-untyped-def]
    names = [f"p{i}" for i in range(len(STRENGTHS))]
    covered, seen = Counter[str](), Counter[str]()
    for draw in range(draws):
        rows = fit(names, tournament(random.Random(draw), names))
        mean = sum(r.share * STRENGTHS[names.index(r.player)] for r in rows)  # the anchor
        for r in rows:
            truth = 1500 + SCALE * (STRENGTHS[names.index(r.player)] - mean)
            covered[r.player] += r.low <= truth <= r.high
            seen[r.player] += 1
    per = {p: covered[p] / seen[p] for p in names}
    return sum(covered.values()) / sum(seen.values()), per


@pytest.mark.slow
@pytest.mark.timeout(900)  # 150 fits: about 40 s on a quiet machine
def test_intervals_cover_the_truth_at_their_rate_in_a_round_robin() -> None:
    # 10 players, every pair twice (one game each colour), 150 tournaments (fixed seeds):
    # 1,500 intervals at 95%; the player far below the others (it loses 99.9% of its
    # games, so nearly every tournament gives it no point) is covered too: its interval is
    # open below, which no finite interval around a finite estimate could be
    pooled, per = _coverage(_round_robin, 150)
    assert 0.93 <= pooled <= 0.97, pooled
    assert min(per.values()) >= 0.90, per
    assert per["p9"] >= 0.93, per["p9"]


@pytest.mark.slow
@pytest.mark.timeout(900)  # 150 fits: about 40 s on a quiet machine
def test_intervals_cover_the_truth_at_their_rate_in_a_swiss_system() -> None:
    # 6 rounds of the kit's Swiss pairing, 10 players (one bye a round)
    pooled, per = _coverage(_swiss, 150)
    assert 0.93 <= pooled <= 0.97, pooled
    assert min(per.values()) >= 0.90, per
    assert per["p9"] >= 0.93, per["p9"]


@pytest.mark.slow
@pytest.mark.timeout(900)  # 2 x 40 fits of 13 players: about 20 s
@pytest.mark.parametrize("rounds", [0, 7], ids=["round robin", "Swiss 7 rounds"])
def test_intervals_cover_the_truth_set(rounds: int) -> None:
    # the reduced benchmark (benchmarks/bench_ratings.py runs hundreds of seeds): 40
    # tournaments whose games come from the 3,120 played games of the truth set, each player's
    # truth its rating fitted on all of them; 40 seeds leave about ±7 points of noise on one
    # player's coverage, so the bar here is 85% a player and 93-99% pooled
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_ratings as bench
    from truth_a5 import load

    world = bench.World(load())
    truth = bench.truth_of(world, world.players)
    fmt = bench.Format("format", 1, rounds)
    t = bench.run(world, fmt, 40, "pairing", bench.Method("fit"), truth)
    finite = [p for p in t.seen if math.isfinite(truth[p])]
    pooled = sum(t.covered[p] for p in finite) / sum(t.seen[p] for p in finite)
    assert 0.93 <= pooled <= 0.99, pooled
    worst = {p: t.covered[p] / t.seen[p] for p in finite}
    assert min(worst.values()) >= 0.85, worst
    assert t.zero_above == 0 and t.unfair == 0 and t.max_byes <= 1


def test_a_rating_reads_back() -> None:
    r = Rating(1, "a", 1612.4, 1540.0, 1702.9, 24, 15.0)
    assert eval(repr(r)) == r


# ----- what the games of one opening say, the anchor, the ranks ------------------------------
def _widths(rows: list[Rating]) -> dict[str, float]:
    return {r.player: r.high - r.low for r in rows if math.isfinite(r.high - r.low)}


def test_two_games_of_an_opening_that_always_split_narrow_the_intervals() -> None:
    # four equal players; every pair plays three openings once with each colour, and X wins
    # every game: each opening splits 1-1. By hand: the fit is q = 1/2 for every pair, each
    # pair of games gives (1 - 1/2)(0 - 1/2) = -1/4 against q (1 - q) = 1/4, a correlation of
    # -1, so the sum varies not at all; the factor is held at its floor, 1/2, and z becomes
    # 1.96 / sqrt(2) (the same games without their openings: 1.96)
    names = ["a", "b", "c", "d"]
    games = [(x, o, 1.0, op) for x in names for o in names if x != o for op in ("1", "2", "3")]
    told = fit(names, games)
    plain = fit(names, [g[:3] for g in games])
    assert [r.rating for r in told] == pytest.approx([1500.0] * 4)
    for r, s in zip(told, plain, strict=True):
        half, half_plain = (r.high - r.low) / 2, (s.high - s.low) / 2
        assert half / half_plain == pytest.approx(1 / math.sqrt(2), abs=0.03), (r, s)
    # games that are independent (drawn at random) are narrowed or widened by little
    rng = random.Random(5)
    games = [(x, o, float(rng.random() < 0.5), op) for x in names for o in names if x != o
             for op in "123456"]
    ratio = [(r.high - r.low) / (s.high - s.low) for r, s in
             zip(fit(names, games), fit(names, [g[:3] for g in games]), strict=True)]
    assert all(0.8 < x < 1.25 for x in ratio), ratio


def test_a_player_with_two_games_moves_no_one_else() -> None:
    # six players, 8 games a pair; a seventh joins the group with a win against the weakest
    # and a loss against the strongest: the anchor weights each player by how precisely its
    # games place it, so the others' ratings and intervals hardly move (with a plain mean of
    # the group, its wide spread entered every interval)
    rng = random.Random(3)
    names = [f"p{i}" for i in range(6)]
    games: list = [(x, o, float(rng.random() < 1 / (1 + math.exp(names.index(o) -
                                                                 names.index(x)))), op)
                   for x in names for o in names if x != o for op in "1234"]
    before = {r.player: r for r in fit(names, games)}
    after = {r.player: r for r in fit([*names, "new"], [*games, ("new", "p0", 1.0),
                                                       ("p5", "new", 1.0)])}
    assert after["new"].rating is not None and after["new"].share < 0.02
    for p in names:
        assert after[p].rating == pytest.approx(before[p].rating, abs=25), p
        assert (after[p].high - after[p].low) == pytest.approx(
            before[p].high - before[p].low, rel=0.1), p


def test_no_two_players_who_share_a_rank_can_be_told_apart() -> None:
    # a player of two games (both won, against the best) heads the table with a wide
    # interval; below it three players the games separate. A rank is shared only while no
    # interval of the tier lies wholly above the next player's
    games: list = [("top", "a", 1.0), ("b", "top", 0.0), ("top", "b", 0.5)]
    for x, o, n in (("a", "b", 9), ("b", "c", 9), ("a", "c", 9)):
        games += [(x, o, 1.0)] * n + [(o, x, 1.0)] * 2 + [(x, o, 0.5)]
    rows = fit(["top", "a", "b", "c"], games)
    by = {r.player: r for r in rows}
    assert by["a"].low > by["c"].high and by["c"].rank > by["a"].rank
    for _ in range(60):  # and at random: within a rank, every two intervals overlap
        rng = random.Random(_)
        names = [f"p{i}" for i in range(rng.randrange(3, 9))]
        played = [(x, o, rng.choice([0.0, 0.5, 1.0, 1.0])) for x in names for o in names
                  if x != o and rng.random() < 0.7 for _ in range(rng.randrange(1, 6))]
        table = fit(names, played)
        for r in table:
            for s in table:
                if r.rank == s.rank and r.games and s.games:
                    assert r.low <= s.high and s.low <= r.high, (r, s, table)


def test_a_group_of_one_is_the_anchor_and_says_so() -> None:
    # a beat b and c, b beat c: no cycle, so no scale beyond one player, the anchor
    games = [("a", "b", 1.0), ("b", "a", 0.0), ("a", "c", 1.0), ("b", "c", 1.0)]
    rows = {r.player: r for r in fit(["a", "b", "c"], games)}
    anchor = [r for r in rows.values() if r.share == 1]
    assert len(anchor) == 1 and anchor[0].rating == 1500
    assert describe(anchor[0]).startswith("1500 (the anchor")
    assert all(r.rating is None for r in rows.values() if r.share == 0)


def test_without_any_cycle_the_anchor_is_a_player_who_scored_and_lost() -> None:
    # c beat b and a, b beat a, every game: no two players are linked by a cycle, so each
    # is a group of one; the anchor is b (the only one who both scored and lost), and the
    # intervals then tell all three apart: c above it, a below it
    games = [g for _ in range(10) for w, lo in (("c", "b"), ("b", "a"), ("c", "a"))
             for g in ((w, lo, 1.0), (lo, w, 0.0))]
    table = {r.player: r for r in ratings.fit(["a", "b", "c"], games)}
    assert table["b"].rating == 1500 and "anchor" in ratings.describe(table["b"])
    assert table["a"].rating is None and ratings.describe(table["a"]).startswith("below ")
    assert table["c"].rating is None and ratings.describe(table["c"]).startswith("above ")
    assert [table[p].rank for p in "cba"] == [1, 2, 3]
    # two players, one game: the winner is the anchor, the loser "below"; one game does
    # not tell them apart (one rank)
    two = {r.player: r for r in ratings.fit(["a", "b"], [("a", "b", 0.0)])}
    assert two["b"].rating == 1500 and two["a"].rating is None
    assert ratings.describe(two["a"]).startswith("below ") and two["a"].rank == two["b"].rank
