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

from ..support.csv_safe import csv_safe
from .game_pages import game_html, games_page
from .matches import OPENINGS, GameRecord
from .ratings import describe, fit
from .swiss import BYE_SHARE, pair_round

__all__ = ["Pairing", "Shown", "Leaderboard", "schedule", "table", "write", "FIELDS"]

#: the columns of ``leaderboard.csv`` (rating empty where the games bound it on one side
#: only; low or high empty where they do not bound that side)
FIELDS = ["rank", "player", "kind", "rating", "low", "high", "games", "won", "drawn", "lost",
          "forfeited", "points", "byes"]


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


@dataclass(frozen=True)
class Shown:
    """How the pages name a player: its ``label`` and ``kind`` (``reference`` or
    ``submission``)."""

    label: str
    kind: str

    @property
    def long(self) -> str:
        """The label, with " (reference)" for a reference player."""
        return self.label + (" (reference)" if self.kind == "reference" else "")


@dataclass(frozen=True)
class Leaderboard:
    """What :func:`write` writes: the table's ``rows`` (:func:`table`), every game, how each
    player (a key of the rows and games) is ``shown``, the page's ``title`` and a word
    ``about`` the ratings."""

    rows: Sequence[Mapping[str, Any]]
    games: Sequence[GameRecord]
    shown: Mapping[str, Shown]
    title: str = "Tournament"
    about: str = ""


def write(out: str | Path, board: Leaderboard) -> Path:
    """``leaderboard.csv`` (:data:`FIELDS`, the players by label), ``leaderboard.html``,
    ``games/NNNN.html`` (one replay a game) and ``games.json`` under ``out``."""
    out = Path(out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    _write_csv(out / "leaderboard.csv", board)
    links = _write_games(out / "games", board)
    (out / "leaderboard.html").write_text(_leaderboard_page(board, links))
    (out / "games.json").write_text(json.dumps(
        [{**g.to_dict(), "x": board.shown[g.x].label, "o": board.shown[g.o].label,
          "x_kind": board.shown[g.x].kind, "o_kind": board.shown[g.o].kind}
         for g in board.games]))
    return out


def _write_csv(path: Path, board: Leaderboard) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        for r in board.rows:
            shown = board.shown[r["player"]]
            row = {**r, "player": shown.label, "kind": shown.kind}
            writer.writerow({k: "" if row[k] is None else csv_safe(row[k]) for k in FIELDS})


def _write_games(folder: Path, board: Leaderboard) -> dict[str, list[str]]:
    """One replay page a game; per player, the links to its games (each marked 1, ½, 0)."""
    links: dict[str, list[str]] = {r["player"]: [] for r in board.rows}
    for n, g in enumerate(board.games, 1):
        page = f"{n:04d}.html"
        seen = replace(g, x=board.shown[g.x].long, o=board.shown[g.o].long)
        (folder / page).write_text(games_page(
            f"{seen.x} v {seen.o}", [("", game_html(seen, f"g{n}"))]))
        for who, side in ((g.x, "X"), (g.o, "O")):
            mark = "1" if g.result == side else "½" if g.result == "draw" else "0"
            links[who].append(f'<a href="games/{page}">{mark}</a>')
    return links


def _leaderboard_page(board: Leaderboard, links: Mapping[str, list[str]]) -> str:
    heads = ["rank", "player", "kind", "rating (95% interval)", "games", "won", "drawn",
             "lost", "forfeited", "points", "byes", "games (each links to its replay)"]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            r["rank"], board.shown[r["player"]].label, board.shown[r["player"]].kind,
            r["describe"], r["games"], r["won"], r["drawn"], r["lost"], r["forfeited"],
            f"{r['points']:g}", r["byes"]))
        + f"<td>{' '.join(links[r['player']])}</td></tr>" for r in board.rows)
    ranks = len({r["rank"] for r in board.rows})
    note = (f"<p>{html.escape(board.about)} {len(board.games)} games.</p>"
            if board.about else "") + (
        f"<p>These games tell {len(board.rows)} players apart into {ranks} "
        f"rank{'s' * (ranks != 1)}: players who share "
        "a rank could not be told apart (no interval lies wholly below another's).</p>"
        if ranks < len(board.rows) else "")
    return games_page(board.title, [(
        "Leaderboard", f"{note}<table border='1' cellpadding='3'><tr>{head}</tr>{body}"
                       "</table>")])
