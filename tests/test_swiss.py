"""Swiss pairings (minimaxkit.arena.swiss): the bye is fair, no pair meets twice while
another pairing is possible, and the pairing chosen is the best by its rules, checked
against every pairing of small rounds (an independent brute force)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from minimaxkit import swiss
from minimaxkit.arena.swiss import pair_round


def matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to split ``players`` (an even number) into pairs."""
    if not players:
        yield []
        return
    a, rest = players[0], players[1:]
    for n, b in enumerate(rest):
        for more in matchings(rest[:n] + rest[n + 1:]):
            yield [(a, b), *more]


def rounds(players: list[str], n: int, seed: int, rng: random.Random
           ) -> Iterator[tuple[list[tuple[str, str]], str | None, Counter[str]]]:
    """``n`` Swiss rounds between ``players``, results at random; each round's pairs, its
    bye and the byes before it."""
    scores = dict.fromkeys(players, 0.0)
    met: set[frozenset[str]] = set()
    byes: Counter[str] = Counter()
    for r in range(n):
        pairs, bye = pair_round(players, scores, met, byes, seed=f"{seed}:{r}")
        yield pairs, bye, Counter(byes)
        for a, b in pairs:
            met.add(frozenset((a, b)))
            won = rng.choice([0.0, 0.5, 1.0, 1.5, 2.0])  # a pairing of two games
            scores[a] += won
            scores[b] += 2 - won
        if bye is not None:
            byes[bye] += 1
            scores[bye] += 2 * swiss.BYE_SHARE


@pytest.mark.parametrize("n_players", [3, 5, 7, 9, 13])
def test_byes_go_round_before_anyone_has_a_second(n_players: int) -> None:
    players = [f"p{i}" for i in range(n_players)]
    for seed in range(5):
        seen: Counter[str] = Counter()
        for pairs, bye, before in rounds(players, 2 * n_players, seed, random.Random(seed)):
            assert bye is not None and len(pairs) == (n_players - 1) // 2
            assert before[bye] == min(before[p] for p in players), (seed, bye, before)
            assert sorted([bye, *(p for ab in pairs for p in ab)]) == sorted(players)
            seen[bye] += 1
        assert set(seen.values()) == {2}  # 2n rounds: two byes each, none three


def test_the_issue_seven_players_three_rounds_three_different_byes() -> None:
    # issue 26: one player of seven sat out 3 of 3 rounds
    players = [f"p{i}" for i in range(7)]
    for seed in range(20):
        byes = [bye for _, bye, _ in rounds(players, 3, seed, random.Random(seed))]
        assert len(set(byes)) == 3, (seed, byes)


def test_an_even_number_of_players_has_no_bye() -> None:
    players = [f"p{i}" for i in range(8)]
    for pairs, bye, _ in rounds(players, 5, 1, random.Random(1)):
        assert bye is None and len(pairs) == 4


def _best_by_the_rules(players: list[str], scores: dict[str, float],
                       met: set[frozenset[str]], byes: Counter[str]) -> tuple[int, int, int]:
    """The best (bye unfair, rematches, cost) any pairing of the round can reach."""
    fewest = min(byes[p] for p in players)
    options = []
    for bye in players if len(players) % 2 else [None]:
        rest = [p for p in players if p != bye]
        for pairs in matchings(rest):
            options.append(_grade(pairs, bye, scores, met, byes, fewest))
    return min(options)


def _grade(pairs: list[tuple[str, str]], bye: str | None, scores: dict[str, float],
           met: set[frozenset[str]], byes: Counter[str], fewest: int) -> tuple[int, int, int]:
    low = min(scores.values())
    cost = sum(round(2 * scores[a] - 2 * scores[b]) ** 2 for a, b in pairs)
    cost += 0 if bye is None else round(2 * scores[bye] - 2 * low) ** 2
    return (int(bye is not None and byes[bye] > fewest),
            sum(frozenset(ab) in met for ab in pairs), cost)


@pytest.mark.parametrize("n_players", [6, 7, 8, 9])
def test_each_round_is_the_best_pairing_by_the_rules(n_players: int) -> None:
    # against every pairing of the round: the bye to the fewest byes first, then as few
    # rematches as possible (none while a pairing without one exists), then the smallest
    # sum of squared score differences (the bye counted from the lowest score)
    rng = random.Random(n_players)
    players = [f"p{i}" for i in range(n_players)]
    for trial in range(25):
        scores = {p: rng.randrange(0, 13) / 2 for p in players}
        met = {frozenset(rng.sample(players, 2)) for _ in range(rng.randrange(0, 14))}
        byes = Counter({p: rng.randrange(0, 2) for p in players})
        pairs, bye = pair_round(players, scores, met, byes, seed=trial)
        fewest = min(byes[p] for p in players)
        got = _grade(pairs, bye, scores, met, byes, fewest)
        assert got == _best_by_the_rules(players, scores, met, byes), (trial, pairs, bye)


def test_no_pair_meets_twice_while_another_pairing_is_possible() -> None:
    # 8 players, 7 rounds: whenever the round could avoid every rematch, it did
    players = [f"p{i}" for i in range(8)]
    rng = random.Random(4)
    scores = dict.fromkeys(players, 0.0)
    met: set[frozenset[str]] = set()
    for r in range(7):
        possible = any(not any(frozenset(ab) in met for ab in m) for m in matchings(players))
        pairs, _ = pair_round(players, scores, met, {}, seed=r)
        rematches = [ab for ab in pairs if frozenset(ab) in met]
        assert not (possible and rematches), (r, rematches)
        for a, b in pairs:
            met.add(frozenset((a, b)))
            won = rng.choice([0.0, 1.0, 2.0])
            scores[a] += won
            scores[b] += 2 - won


def test_one_seed_one_pairing_and_the_seed_breaks_ties() -> None:
    players = [f"p{i}" for i in range(10)]
    level = dict.fromkeys(players, 1.0)  # every pairing is as good as any other
    first = pair_round(players, level, set(), {}, seed=7)
    assert pair_round(players, level, set(), {}, seed=7) == first
    assert len({tuple(pair_round(players, level, set(), {}, seed=s)[0])
                for s in range(10)}) > 1
    for a, b in first[0]:  # the higher score first, then the order of ``players``
        assert players.index(a) < players.index(b)


def test_bad_input_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="named twice"):
        pair_round(["a", "a"], {"a": 0}, set(), {}, seed=0)
    with pytest.raises(ValueError, match="no score for 'b'"):
        pair_round(["a", "b"], {"a": 0}, set(), {}, seed=0)
    assert pair_round(["a"], {"a": 0}, set(), {}, seed=0) == ([], "a")
    assert pair_round([], {}, set(), {}, seed=0) == ([], None)


def test_past_the_fresh_pairs_the_pairs_that_met_fewest_meet() -> None:
    # four players have three ways to pair; after three rounds every pair has met once, so
    # rounds 4 to 6 must repeat, and each of the three pairings comes back once (never one
    # of them three times while another came back not at all)
    players, met = ["a", "b", "c", "d"], Counter[frozenset[str]]()
    for r in range(6):
        pairs, bye = pair_round(players, dict.fromkeys(players, 0.0), met, {}, seed=r)
        assert bye is None
        for a, b in pairs:
            met[frozenset((a, b))] += 1
    assert sorted(met.values()) == [2] * 6, met
