"""The ratings the kit did not choose, measured like its own by ``bench_ratings.py
--alternatives``: today's fit (before issue 26: one virtual draw per player, ± two standard
errors, today's Swiss pairing and byes), choix's Bradley-Terry posterior (expectation
propagation, ``choix.ep_pairwise``) and openskill's online Bradley-Terry (``BradleyTerryFull``,
the games rated in the order they were played). choix and openskill are not dependencies
of the kit: ``pip install choix openskill`` to measure them; a missing one is skipped.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from minimaxkit.arena.ratings import SCALE, Rating

Game = tuple[str, str, float] | tuple[str, str, float, str]
Z95 = 1.959963984540054


def _rows(players: Sequence[str], games: Sequence[Game], est: dict[str, float],
          half: dict[str, float]) -> list[Rating]:
    points = dict.fromkeys(players, 0.0)
    played = dict.fromkeys(players, 0)
    for x, o, p, *_ in games:
        points[x] += p
        points[o] += 1 - p
        played[x] += 1
        played[o] += 1
    order = sorted(players, key=lambda p: -est[p])
    return [Rating(n + 1, p, est[p], est[p] - half[p], est[p] + half[p], played[p], points[p])
            for n, p in enumerate(order)]


def today(players: Sequence[str], games: Sequence[Game]) -> list[Rating]:
    """The fit of ``tournament.py`` before issue 26, anchored by its virtual opponent."""
    from minimaxkit.grading.tournament import ratings

    r = ratings(list(players), list(games))
    return _rows(players, games, {p: r[p][0] for p in players}, {p: r[p][1] for p in players})


def today_pairing(players: list[str], scores: dict[str, float], met: set[frozenset[str]],
                  rng: random.Random) -> tuple[list[tuple[str, str]], str | None]:
    """``tournament._pairings_swiss`` before issue 26: the player left over sits out."""
    from minimaxkit.grading.tournament import _pairings_swiss

    pairs = _pairings_swiss(players, scores, met, rng)
    paired = {p for ab in pairs for p in ab}
    return pairs, next((p for p in players if p not in paired), None)


def choix_ep(players: Sequence[str], games: Sequence[Game], alpha: float = 0.1
             ) -> list[Rating]:
    """choix's EP posterior (prior variance ``1/alpha``), a draw as a win each way; the
    rating of each player from the players' mean, ± 1.96 posterior standard deviations."""
    import choix

    index = {p: i for i, p in enumerate(players)}
    data = [(index[x], index[o]) if p == 1 else (index[o], index[x])
            for x, o, p, *_ in games if p != 0.5]
    data += [d for x, o, p, *_ in games if p == 0.5 for d in ((index[x], index[o]),
                                                          (index[o], index[x]))]
    mean, cov = choix.ep_pairwise(len(players), data, alpha)
    k = len(players)
    est, half = {}, {}
    for p, i in index.items():
        c = -np.ones(k) / k
        c[i] += 1
        est[p] = 1500 + SCALE * float(c @ mean)
        half[p] = Z95 * SCALE * math.sqrt(float(c @ cov @ c))
    return _rows(players, games, est, half)


def openskill_bt(players: Sequence[str], games: Sequence[Game]) -> list[Rating]:
    """openskill's BradleyTerryFull, games in the order given; mu from the players' mean
    ± 1.96 sigma, on the Elo scale (openskill's win probability uses ``mu / (beta √2)``)."""
    from openskill.models import BradleyTerryFull

    model = BradleyTerryFull()
    r: dict[str, Any] = {p: model.rating(name=p) for p in players}
    for x, o, p, *_ in games:
        if p == 0.5:
            [[r[x]], [r[o]]] = model.rate([[r[x]], [r[o]]], ranks=[1, 1])
        elif p == 1:
            [[r[x]], [r[o]]] = model.rate([[r[x]], [r[o]]])
        else:
            [[r[o]], [r[x]]] = model.rate([[r[o]], [r[x]]])
    unit = SCALE / (model.beta * math.sqrt(2))
    mean = sum(r[p].mu for p in players) / len(players)
    return _rows(players, games, {p: 1500 + unit * (r[p].mu - mean) for p in players},
                 {p: Z95 * unit * r[p].sigma for p in players})


def shuffled(rate: Callable[[Sequence[str], Sequence[Game]], list[Rating]]
             ) -> Callable[[Sequence[str], Sequence[Game]], list[Rating]]:
    """``rate`` on the games in another order (seeded): an online rating's truth and its
    dependence on the order."""
    def again(players: Sequence[str], games: Sequence[Game]) -> list[Rating]:
        games = list(games)
        random.Random(len(games)).shuffle(games)
        return rate(players, games)
    return again
