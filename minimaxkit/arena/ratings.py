"""Ratings of a tournament that say what its games know, and no more.

**The model** is Bradley-Terry: player ``i`` has a strength ``t_i`` and scores against
``j`` with probability ``1 / (1 + exp(t_j - t_i))``; a draw counts half a win each way. The
fit maximises the likelihood with Jeffreys' penalty (Firth's bias reduction, as in R's
BradleyTerry2 with ``br=TRUE``): half a game's worth of doubt spread over the pairs, which
keeps every strength finite and takes out most of the small-sample bias of plain maximum
likelihood (ratings too far apart after a few games). It uses the totals per pair, so the
ratings do not depend on the order of the games. On the Elo scale a rating is ``1500 + 400
log10(e) (t_i - anchor)``: 400 points are odds of 10 to 1.

**The anchor.** Results fix strengths only relative to each other, and only within a
*group* of players linked by a cycle of results (A scored against B, B against C, ..., and
someone back against A). The mean of the largest group is 1500, each of its players
weighted by how precisely the games place it (one over the variance of its strength), so
that a player of the group with few games, or one lucky result, cannot move everyone's
rating (its ``share``). A player outside the group gets no rating (``None``): it lost (or
won) every game against the group's side, and the games bound its rating on the other side
only (it is "below 1104"). Where no cycle links any two players, the group is one player,
the anchor, shown as such.

**The interval** is the profile likelihood interval (the penalised likelihood, every other
strength fitted again at each point): the ratings at which twice the fall of the fit stays
within ``z**2`` (``z = 1.96`` for 95%), scaled by how much the games vary beyond the model,
in two ways. Where two players play one opening once with each colour (games given with
their opening), the two games vary together: between players of similar strength each
often wins its own colour, so the pair's sum varies less than two independent games would
(in the truth set of ``benchmarks/truth_a5.py``, 0.87 times as much). That correlation is
measured over all such pairs of games (each player's own drawn toward it), and the
intervals bounded on both sides are narrowed (or widened) by it. A player's own results
say how much they vary too (the robust, sandwich variance over the model's, pairs of
players as clusters, with the usual small-sample corrections), but from a few pairs only:
the two are weighed, the model's as 20 pairs against the player's pairs, and as the mix is
itself an estimate, Student's t takes the place of the normal's ``z``, for one degree of
freedom less than the pairs weighed (a round robin of 13 players: 31, so 2.04 for 1.96).
Unlike two standard errors it is lopsided where the games are; where the plain likelihood
cannot bound a side (no path of results from the player to the group, or from the group to
it), the interval is open there, and its other end is not narrowed by how one opening's
games vary together (the model's spread is taken as 1, weighed as above).

**The table order**: players with points before players without; then by the fit. A
player shares the rank of the first player of its tier: a new tier starts only where a
player's interval lies wholly below the interval of a player of the tier, so that no two
players who share a rank can be told apart by their intervals (their games may still
order them: two players bound on the same side only, one of whom beat the other, can share
a rank).

>>> games = [("a", "b", 1.0), ("b", "a", 0.0), ("b", "c", 1.0), ("c", "b", 0.0),
...          ("c", "a", 1.0), ("a", "c", 0.5), ("d", "a", 0.0), ("a", "d", 1.0)]
>>> for r in fit(["a", "b", "c", "d"], games):
...     print(r.rank, r.player, describe(r))
1 a 1538 (1313 to 1801)
1 b 1494 (1187 to 1797)
1 c 1450 (1122 to 1729)
1 d below 1761
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import networkx as nx
import numpy as np
from threadpoolctl import threadpool_limits

__all__ = ["Rating", "fit", "describe", "SCALE", "PROFILE_UP_TO"]

SCALE = 400 / math.log(10)  # Elo points per unit of strength
#: a game: ``(a, b, points of a)``, or ``(a, b, points of a, opening)``
Game = tuple[str, str, float] | tuple[str, str, float, str]
#: up to this many players every interval is a profile likelihood's (the widths that the
#: simulation checks); beyond, players bounded on both sides get ± z standard errors, which
#: hold the truth less often (100 players, a round robin: 89% where the profile's hold 95-97%)
PROFILE_UP_TO = 100
_RIDGE = 1e-6  # keeps the fit finite where the likelihood is not; far below any game's weight
#: a player's own pairs of games of one opening count against all pairs' as this many pairs
#: of equal players (docs/benchmarks.md, *Tournament ratings*)
_TWINS_PRIOR = 10.0
#: the model's variance counts against a player's own results' as this many pairs of players
#: (docs/benchmarks.md, *Tournament ratings*)
_MODEL_PAIRS = 20.0


@dataclass(frozen=True)
class Rating:
    """One row of the table: the shared ``rank``; the ``rating`` (None where the games bound
    it on one side only, or not at all); the interval ``low`` to ``high`` (``-inf`` /
    ``inf`` where the games do not bound it); the games played and the points won; and its
    ``share`` of the anchor (1500 is the group's strengths weighted by their shares, which
    add up to 1; 0 outside the group)."""

    rank: int
    player: str
    rating: float | None
    low: float
    high: float
    games: int
    points: float
    share: float = 0.0


def describe(r: Rating) -> str:
    """The rating as a reader should take it.

    >>> describe(Rating(1, "a", 1612.4, 1540.0, 1702.9, 24, 15.0))
    '1612 (1540 to 1703)'
    >>> describe(Rating(9, "z", None, -math.inf, 1104.2, 24, 0.0))
    'below 1104'
    >>> describe(Rating(1, "k", 1500.0, 1500.0, 1500.0, 4, 4.0, 1.0))  # a group of one
    '1500 (the anchor: no cycle of results links it to another player)'
    """
    if r.games == 0:
        return "not rated: no games"
    if r.share == 1 and r.low == r.high:
        return f"{r.rating:.0f} (the anchor: no cycle of results links it to another player)"
    if r.rating is not None:
        return f"{r.rating:.0f} ({r.low:.0f} to {r.high:.0f})"
    if math.isinf(r.low) and math.isinf(r.high):
        return "not rated: these games cannot place it"
    return f"below {r.high:.0f}" if math.isinf(r.low) else f"above {r.low:.0f}"


class _Games:
    """The games as totals per pair ``a < b``: games ``n``, ``a``'s points ``s``; and
    ``twins``: ``(a, b, points, points)``, ``a``'s two games of one opening."""

    def __init__(self, k: int, games: dict[tuple[int, int], list[float]],
                 twins: Sequence[tuple[int, int, float, float]] = ()) -> None:
        keys = sorted(games)
        self.k = k
        self.twins = np.array(sorted(twins), dtype=float).reshape(-1, 4)
        self.a = np.array([a for a, _ in keys], dtype=int)
        self.b = np.array([b for _, b in keys], dtype=int)
        self.n = np.array([games[key][0] for key in keys])
        self.s = np.array([games[key][1] for key in keys])

    def cost(self, p: np.ndarray, *, hessian: bool = True
             ) -> tuple[float, np.ndarray, np.ndarray]:
        """Minus the penalised log-likelihood (and a vanishing ridge), its gradient, and
        the information (the Hessian without the penalty's part: Newton's steps with it
        still descend)."""
        k, a, b, n, s = self.k, self.a, self.b, self.n, self.s
        d = p[a] - p[b]
        f = float((s * np.logaddexp(0, -d) + (n - s) * np.logaddexp(0, d)).sum()
                  + _RIDGE / 2 * p @ p)
        q = np.exp(-np.logaddexp(0.0, -d))  # 1 / (1 + exp(-d)), without overflow
        r = n * q - s
        w = n * q * (1 - q)
        hess = _RIDGE * np.eye(k)
        np.add.at(hess, (a, a), w)
        np.add.at(hess, (b, b), w)
        np.add.at(hess, (a, b), -w)
        np.add.at(hess, (b, a), -w)
        info = hess + 1 / k  # the shift, which changes no probability, counted once
        f -= 0.5 * float(np.linalg.slogdet(info)[1])  # Jeffreys: half log det information
        if hessian:
            inv = np.linalg.inv(info)
            lev = inv[a, a] + inv[b, b] - 2 * inv[a, b]
            r = r - 0.5 * w * (1 - 2 * q) * lev
        grad = _RIDGE * p + np.bincount(a, r, k) - np.bincount(b, r, k)
        return f, grad, hess

    def minimise(self, p: np.ndarray, c: np.ndarray | None = None) -> tuple[np.ndarray, float]:
        """Newton's method from ``p``, keeping ``c @ p`` where it is if ``c`` is given."""
        f, grad, hess = self.cost(p)
        for _ in range(200):
            if c is None:
                step = np.linalg.solve(hess, -grad)
            else:
                kkt = np.block([[hess, c[:, None]], [c[None, :], np.zeros((1, 1))]])
                step = np.linalg.solve(kkt, np.append(-grad, 0.0))[:-1]
            slope = float(grad @ step)
            if -slope < 1e-10:
                break
            t = 1.0
            while True:
                new = p + t * step
                f_new = self.cost(new, hessian=False)[0]
                if f_new <= f + 1e-4 * t * slope or t < 1e-10:
                    break
                t /= 2
            p = new
            f, grad, hess = self.cost(p)
        return p, f


def fit(names: Sequence[str], games: Sequence[Game], *, level: float = 0.95,
        profile: int = PROFILE_UP_TO) -> list[Rating]:
    """The table: one :class:`Rating` per name, best first (see the module docstring).
    ``games`` are ``(a, b, points of a)`` (a forfeit is a loss; a bye is not a game), or
    ``(a, b, points of a, opening)`` where two players play each opening once with each
    colour (their two games of one opening vary together: see *the interval*); ``level`` the
    intervals' coverage; up to ``profile`` players, profile likelihood intervals for all,
    beyond it for those the games bound on one side only. The order of the games does not
    matter."""
    index = {name: i for i, name in enumerate(names)}
    if len(index) != len(names):
        raise ValueError("fit: a player is named twice")
    if not 0 < level < 1:
        raise ValueError(f"fit: level must be between 0 and 1, not {level!r}")
    k = len(names)
    totals: dict[tuple[int, int], list[float]] = {}
    played, points = [0] * k, [0.0] * k
    scored = nx.DiGraph()
    scored.add_nodes_from(range(k))
    both: dict[tuple[int, int, str], list[tuple[float, int]]] = {}  # a pair's opening
    for n, (a, b, pa, *opening) in enumerate(games):
        if a not in index or b not in index or a == b:
            raise ValueError(f"fit: game {n} is between {a!r} and {b!r}: "
                             "two different players of the list")
        if pa not in (0, 0.5, 1):
            raise ValueError(f"fit: game {n} gives {a!r} {pa!r} points, not 0, 0.5 or 1")
        i, j = index[a], index[b]
        t = totals.setdefault((min(i, j), max(i, j)), [0.0, 0.0])
        t[0] += 1
        t[1] += pa if i < j else 1 - pa
        if opening:  # the lower index's points, with X's index
            both.setdefault((min(i, j), max(i, j), str(opening[0])), []).append(
                (pa if i < j else 1 - pa, i))
        played[i] += 1
        played[j] += 1
        points[i] += pa
        points[j] += 1 - pa
        if pa > 0:
            scored.add_edge(i, j)
        if pa < 1:
            scored.add_edge(j, i)
    data = _Games(k, totals, [(i, j, g[0][0], g[1][0]) for (i, j, _), g in both.items()
                              if len(g) == 2 and g[0][1] != g[1][1]])  # once each colour
    # one thread: the same table on every run (threaded sums may differ in the last bit),
    # and on a shared machine far faster for matrices of a class's size
    with threadpool_limits(1):
        return _table(names, data, _Tally(played, points, scored), level, profile)


@dataclass(frozen=True)
class _Tally:
    """Per player (by index), the games ``played`` and the ``points`` won; ``scored``: an
    edge from each player to every player it took points from."""

    played: list[int]
    points: list[float]
    scored: nx.DiGraph


@dataclass(frozen=True)
class _Fitted:
    """The fit at its best: the games, the strengths ``best``, the cost ``f_best`` there,
    the information ``info`` and the inverse ``inv`` of it with the shift (the spread of
    each strength about their mean)."""

    data: _Games
    best: np.ndarray
    f_best: float
    info: np.ndarray
    inv: np.ndarray

    @classmethod
    def of(cls, data: _Games) -> _Fitted:
        best, f_best = data.minimise(np.zeros(data.k))
        info = data.cost(best)[2]
        return cls(data, best, f_best, info, np.linalg.inv(info + 1 / data.k))


def _table(names: Sequence[str], data: _Games, tally: _Tally, level: float,
           profile: int) -> list[Rating]:
    k = len(names)
    played, points, scored = tally.played, tally.points, tally.scored

    def scores_and_loses(g: set[int]) -> bool:  # its games bound it on both sides
        return any(points[i] > 0 for i in g) and any(points[i] < played[i] for i in g)

    # the largest group; among groups of one size, one whose players both scored and lost
    # (not a player who lost every game: it is shown "below R"), then the most games, then
    # by name (not the list's order)
    groups = sorted(nx.strongly_connected_components(scored),
                    key=lambda g: (-len(g), not scores_and_loses(g),
                                   not any(points[i] > 0 for i in g),
                                   -sum(played[i] for i in g), min(names[i] for i in g)))
    main = sorted(groups[0])
    above = nx.ancestors(scored, main[0]) | set(main)  # a path from them to the group
    below = nx.descendants(scored, main[0]) | set(main)
    fitted = _Fitted.of(data)
    best, info, inv = fitted.best, fitted.info, fitted.inv
    weight = np.array([1 / inv[i, i] for i in main])
    weight /= weight.sum()  # the anchor: each of the group by how precisely it is placed
    anchor = float(weight @ best[main])
    twins = _twins(data, best)
    z = NormalDist().inv_cdf((1 + level) / 2)
    rows = []
    for i in range(k):
        c = np.zeros(k)
        c[main] -= weight
        c[i] += 1  # this player's rating: its strength less the group's mean
        # what the model allows (both sides bounded: as much wider or narrower as one
        # opening's two games vary together) weighed with what the player's own results say
        model = twins[i] if i in above and i in below else 1.0
        zz = _widen(z, model, fitted, c, i) if c.any() and played[i] else z
        if not c.any():  # the group is this player alone: 1500 by definition
            low = high = 0.0
        elif k > profile and i in above and i in below and played[i]:  # both sides: ± z SE
            se = math.sqrt(float(c @ np.linalg.solve(info, c)))
            low, high = float(c @ best) - zz * se, float(c @ best) + zz * se
        else:
            low = _bound(fitted, c, -zz) if i in above and played[i] else -math.inf
            high = _bound(fitted, c, zz) if i in below and played[i] else math.inf
        rating = 1500 + SCALE * float(best[i] - anchor) if i in main and played[i] else None
        share = float(weight[main.index(i)]) if i in main else 0.0
        rows.append((played[i] > 0, points[i] > 0, best[i], i, rating,
                     1500 + SCALE * low, 1500 + SCALE * high, share))
    # ties (equal strengths) by name: the same table whatever the order of the list
    rows.sort(key=lambda r: (-r[0], -r[1], -round(float(r[2]), 9), names[r[3]]))
    out: list[Rating] = []
    rank, floor_ = 0, math.inf  # the tier's rank, the highest low end of its players
    for *_, i, rating, low, high, share in rows:
        if not out or floor_ > high or (out[-1].games and not played[i]):
            rank, floor_ = len(out) + 1, low  # below one of the tier: a tier of its own
        floor_ = max(floor_, low)
        out.append(Rating(rank, names[i], rating, low, high, played[i], points[i], share))
    return out


def _bound(fitted: _Fitted, c: np.ndarray, z: float) -> float:
    """Where the signed root of the likelihood ratio of ``c @ p`` reaches ``z``: the
    interval's end, on the side of ``z``'s sign."""
    data, best, f_best, info = fitted.data, fitted.best, fitted.f_best, fitted.info
    v_best = float(c @ best)

    u = np.linalg.solve(info, c)  # how the other strengths follow c @ p, to first order
    cu = float(c @ u)

    def root(v: float, start: np.ndarray) -> tuple[float, np.ndarray]:
        p, f = data.minimise(start + (v - float(c @ start)) / cu * u, c)
        return math.copysign(math.sqrt(max(0.0, 2 * (f - f_best))), v - v_best), p

    wald = math.sqrt(cu)
    a, g_a, p = v_best, -z, best
    b = v_best + math.copysign(abs(z) * min(3.0, max(0.05, wald)), z)
    r, p = root(b, p)
    for _ in range(40):  # widen until the end is passed
        if abs(r) >= abs(z):
            break
        a, g_a = b, r - z
        b = v_best + 2 * (b - v_best)
        r, p = root(b, p)
    g_b = r - z
    for _ in range(100):  # regula falsi, Illinois variant
        v = b - g_b * (b - a) / (g_b - g_a)
        r, p = root(v, p)
        if abs(r - z) < 1e-4 or abs(b - a) < 1e-7:
            return v
        if (r - z) * g_b < 0:
            a, g_a = b, g_b
        else:
            g_a /= 2
        b, g_b = v, r - z
    return b


def _twins(data: _Games, best: np.ndarray) -> np.ndarray:
    """How one opening's two games (one with each colour) vary together, per player: one
    plus their correlation (the model's variance of their sum is ``2 q (1 - q)``; theirs is
    that times this), from the player's own pairs of games, drawn toward all pairs' as much
    as ``_TWINS_PRIOR`` pairs of equal players would; 1 where there are none; between 1/2
    and 2, as so few pairs of games cannot say more."""
    k = data.k
    if not len(data.twins):
        return np.ones(k)
    a, b = data.twins[:, 0].astype(int), data.twins[:, 1].astype(int)
    q = np.exp(-np.logaddexp(0.0, -(best[a] - best[b])))
    w = q * (1 - q)
    together = (data.twins[:, 2] - q) * (data.twins[:, 3] - q)
    if w.sum() <= 0:
        return np.ones(k)
    rho = together.sum() / w.sum()
    own = np.bincount(a, together, k) + np.bincount(b, together, k)
    weight = np.bincount(a, w, k) + np.bincount(b, w, k)
    prior = _TWINS_PRIOR / 4  # q (1 - q) of a pair of equal players
    return np.clip(1 + (own + prior * rho) / (weight + prior), 0.5, 2.0)


def _widen(z: float, model: float, fitted: _Fitted, c: np.ndarray, i: int) -> float:
    """``z`` for player ``i``: the variance the model allows (times ``model``) and the one its
    own results show (:func:`_spread`), weighed as ``_MODEL_PAIRS`` pairs of players against
    the pairs it played; as that mix is itself an estimate, with Student's t for as many
    degrees of freedom in place of the normal's ``z`` (Cornish and Fisher's expansion).

    >>> round(_t(1.959964, 20), 3)  # t's 97.5% point for 20 degrees of freedom: 2.086
    2.086
    """
    data = fitted.data
    pairs = int(((data.a == i) | (data.b == i)).sum())
    mix = (_MODEL_PAIRS * model + pairs * _spread(fitted, c, i)) / (_MODEL_PAIRS + pairs)
    return _t(z, _MODEL_PAIRS + pairs - 1) * math.sqrt(mix)


def _t(z: float, df: float) -> float:
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) \
        + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)


def _spread(fitted: _Fitted, c: np.ndarray, i: int) -> float:
    """How much more the results of player ``i`` (``c`` its rating) vary than the model
    says: the robust (sandwich) variance of ``c @ p``, pairs of players as clusters, over the
    model's; with the two usual small-sample corrections, as few pairs understate it: each
    pair's residual over the root of one less its leverage (CR2; the leverage counted at
    most 1/2), and ``G / (G - 1)`` for the ``G`` pairs the player played in (``inv`` the
    inverse of the information at the best fit)."""
    data, best, inv = fitted.data, fitted.best, fitted.inv
    u = inv @ c
    q = np.exp(-np.logaddexp(0.0, -(best[data.a] - best[data.b])))
    lev = data.n * q * (1 - q) * (inv[data.a, data.a] + inv[data.b, data.b]
                                  - 2 * inv[data.a, data.b])
    g = (data.s - data.n * q) / np.sqrt(np.maximum(0.5, 1 - lev))
    du = u[data.a] - u[data.b]
    pairs = int(((data.a == i) | (data.b == i)).sum())
    return float((g * g * du * du).sum() / (c @ u)) * pairs / max(1, pairs - 1)
