"""A tournament's schedule and table, whoever plays it: the pairings of a round robin or of a
Swiss system (:func:`minimaxkit.arena.swiss.pair_round`), the openings of each pairing drawn from
the seed, and the table of :func:`minimaxkit.arena.ratings.fit` with each player's games, points
and byes, written as CSV and as static HTML pages in which every game replays.

Players are keys (any strings, unique); how a page names them is the caller's ``labels``.

>>> from minimaxkit.arena.matches import Player, kit_evaluation, play_game
>>> who = {"kit": Player("kit", kit_evaluation, 100), "rnd": Player("rnd")}  # rnd: at random
>>> def play(pairings):
...     return [[play_game(who[x], who[o], op) for op in p.openings
...              for x, o in ((p.a, p.b), (p.b, p.a))] for p in pairings]
>>> games, byes = schedule(["kit", "rnd"], play, seed=1, openings=2)
>>> for r in table(["kit", "rnd"], games, byes):
...     print(r["rank"], r["player"], r["points"], r["describe"])
1 kit 4.0 1500 (the anchor: no cycle of results links it to another player)
1 rnd 0.0 below 1527
"""

from __future__ import annotations

import csv
import html
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .game_pages import game_html, games_page
from .matches import OPENINGS, GameRecord
from .ratings import describe, fit
from .swiss import BYE_SHARE, pair_round

__all__ = ["Pairing", "schedule", "table", "write", "csv_safe", "FIELDS"]

#: the columns of ``leaderboard.csv`` (rating empty where the games bound it on one side
#: only; low or high empty where they do not bound that side)
FIELDS = ["rank", "player", "kind", "rating", "low", "high", "games", "won", "drawn", "lost",
          "forfeited", "points", "byes"]


def csv_safe(value: Any) -> Any:
    """A CSV field no spreadsheet reads as a formula: text that starts with = + - @ gets a '.

    >>> [csv_safe(v) for v in ("=2+5", "-1", "ada", 3, "")]
    ["'=2+5", "'-1", 'ada', 3, '']
    """
    return f"'{value}" if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") \
        else value


@dataclass(frozen=True)
class Pairing:
    """Two players who meet in ``round`` (from 0), each opening played once with each as X."""

    a: str
    b: str
    openings: tuple[str, ...]
    round: int = 0


def schedule(players: Sequence[str],
             play: Callable[[list[Pairing]], Sequence[Sequence[GameRecord]]], *,
             seed: int | str = 0, openings: int = 1, swiss: int = 0
             ) -> tuple[list[GameRecord], dict[str, int]]:
    """Every game of a round robin (``swiss`` 0) or of ``swiss`` Swiss rounds, ``play``
    playing a round's pairings (in any order, anywhere: its result per pairing, in order);
    and the byes. Each pairing's ``openings`` are drawn from the book by ``seed``."""
    if not 1 <= openings <= len(OPENINGS):
        raise ValueError(f"openings must be between 1 and {len(OPENINGS)}, not {openings!r}")
    if len(set(players)) != len(players):
        raise ValueError("schedule: a player is named twice")
    games: list[GameRecord] = []
    byes: Counter[str] = Counter()
    points = dict.fromkeys(players, 0.0)
    met: Counter[frozenset[str]] = Counter()  # how many times each pair met
    for r in range(max(1, swiss)):
        if swiss:
            scores = {p: points[p] + byes[p] * BYE_SHARE * 2 * openings for p in players}
            pairs, bye = pair_round(players, scores, met, byes, seed=f"{seed}:{r}")
            if bye is not None:
                byes[bye] += 1
        else:
            pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]
        todo = [Pairing(a, b, tuple(random.Random(f"{seed}:{r}:{a}:{b}").sample(
            OPENINGS, openings)), r) for a, b in pairs]
        for p, played in zip(todo, play(todo), strict=True):
            met[frozenset((p.a, p.b))] += 1
            for g in played:
                games.append(g)
                points[g.x] += g.points(g.x)
                points[g.o] += g.points(g.o)
    return games, dict(byes)


def table(players: Sequence[str], games: Sequence[GameRecord],
          byes: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """The rows, best first (:func:`~minimaxkit.arena.ratings.fit`: a forfeit is a loss, a bye no
    game), with ``describe``: the rating in words."""
    byes = byes or {}
    rows = []
    tally = {p: Counter[str]() for p in players}
    for g in games:
        for who, side in ((g.x, "X"), (g.o, "O")):
            t = tally[who]
            t["won" if g.result == side else "drawn" if g.result == "draw" else "lost"] += 1
            t["forfeited"] += g.forfeit == side
    # a game played names its opening: its twin, the other colour, varies with it (a forfeit
    # is a loss, but no game of that opening)
    for r in fit(players, [(g.x, g.o, g.points(g.x), g.opening) if g.forfeit is None else
                           (g.x, g.o, g.points(g.x)) for g in games]):
        t = tally[r.player]
        rows.append({"rank": r.rank, "player": r.player,
                     "rating": None if r.rating is None else round(r.rating, 1),
                     "low": None if math.isinf(r.low) else round(r.low, 1),
                     "high": None if math.isinf(r.high) else round(r.high, 1),
                     "games": r.games, "won": t["won"], "drawn": t["drawn"],
                     "lost": t["lost"], "forfeited": t["forfeited"], "points": r.points,
                     "byes": byes.get(r.player, 0), "describe": describe(r)})
    return rows


def write(out: str | Path, rows: Sequence[Mapping[str, Any]], games: Sequence[GameRecord], *,
          labels: Mapping[str, str], kinds: Mapping[str, str], title: str = "Tournament",
          about: str = "") -> Path:
    """``leaderboard.csv`` (:data:`FIELDS`, the players by ``labels``), ``leaderboard.html``,
    ``games/NNNN.html`` (one replay a game) and ``games.json`` under ``out``."""
    out = Path(out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    shown = [{**r, "player": labels[r["player"]], "kind": kinds[r["player"]]} for r in rows]
    with open(out / "leaderboard.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({k: "" if r[k] is None else csv_safe(r[k]) for k in FIELDS}
                         for r in shown)
    links: dict[str, list[str]] = {r["player"]: [] for r in rows}
    names = {p: labels[p] + (" (reference)" if kinds[p] == "reference" else "") for p in labels}
    for n, g in enumerate(games, 1):
        page = f"{n:04d}.html"
        seen = replace(g, x=names[g.x], o=names[g.o])
        (out / "games" / page).write_text(games_page(
            f"{seen.x} v {seen.o}", [("", game_html(seen, f"g{n}"))]))
        for who, side in ((g.x, "X"), (g.o, "O")):
            mark = "1" if g.result == side else "½" if g.result == "draw" else "0"
            links[who].append(f'<a href="games/{page}">{mark}</a>')
    heads = ["rank", "player", "kind", "rating (95% interval)", "games", "won", "drawn",
             "lost", "forfeited", "points", "byes", "games (each links to its replay)"]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            s["rank"], s["player"], s["kind"], r["describe"], r["games"], r["won"], r["drawn"],
            r["lost"], r["forfeited"], f"{r['points']:g}", r["byes"]))
        + f"<td>{' '.join(links[r['player']])}</td></tr>" for r, s in zip(rows, shown, strict=True))
    ranks = len({r["rank"] for r in rows})
    note = (f"<p>{html.escape(about)} {len(games)} games.</p>" if about else "") + (
        f"<p>These games tell {len(rows)} players apart into {ranks} "
        f"rank{'s' * (ranks != 1)}: players who share "
        "a rank could not be told apart (no interval lies wholly below another's).</p>"
        if ranks < len(rows) else "")
    (out / "leaderboard.html").write_text(games_page(title, [(
        "Leaderboard", f"{note}<table border='1' cellpadding='3'><tr>{head}</tr>{body}"
                       "</table>")]))
    (out / "games.json").write_text(json.dumps(
        [{**g.to_dict(), "x": labels[g.x], "o": labels[g.o], "x_kind": kinds[g.x],
          "o_kind": kinds[g.o]} for g in games]))
    return out
