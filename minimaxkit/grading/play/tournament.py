"""The class tournament of assignment 5 (docs/grading.md, *The class tournament*): every
autograded ``evaluate``, each in a sandboxed child, and the reference players play a round
robin or a Swiss system, in worker processes or on Dask; one seed, one table.

>>> r = ratings(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.5)])
>>> r["a"][0] > 1500 > r["b"][0], round(r["a"][0] + r["b"][0])
(True, 3000)
"""

from __future__ import annotations

import argparse
import csv
import html
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ...draw.game_pages import game_html, games_page
from ...isolation.session import EXEC_TIMEOUT
from ...matches import (
    OPENINGS,
    GameRecord,
    Player,
    kit_player,
    play_game,
    random_player,
    weak_player,
)
from ..testdata.cells import plan
from ..testdata.places import course_root, secret_file
from .checks import check_correctness, forfeited
from .evaluators import RemoteEvaluator, values
from .notebook import play_session

__all__ = ["Entrant", "find_entrants", "run_tournament", "ratings", "main", "play_pair"]

REFERENCES = ("random", "weak", "kit")


@dataclass(frozen=True)
class Entrant:
    """A reference player, or a submission's code cells and autograded folder."""

    name: str
    kind: str  # "reference" or "submission"
    folder: str = ""
    cells: tuple[str, ...] = ()


def find_entrants(root: str | Path, assignment: str, *,
                  references: Sequence[str] = REFERENCES) -> list[Entrant]:
    """The reference players (``ref:kit``...: no student id has a colon) and every
    ``autograded/<student>/<assignment>`` notebook's code cells, the test cells left out."""
    import nbformat

    out = [Entrant(f"ref:{r}", "reference") for r in references]
    for nb_path in sorted(Path(root).glob(f"autograded/*/{assignment}/{assignment}.ipynb")):
        nb = nbformat.read(str(nb_path), as_version=4)
        cells = tuple(src for _, src in plan(nb.cells) if isinstance(src, str))
        out.append(Entrant(nb_path.parent.parent.name, "submission",
                           str(nb_path.parent.resolve()), cells))
    return out


# ----- in a worker process ----------------------------------------------------------------
_SESSIONS: dict[str, Any] = {}  # name -> [Session, RemoteEvaluator]
_OUT: dict[str, str] = {}  # name -> why it forfeits (not defined, too slow), "" if it plays
_KEEP = 4


def _player(e: Entrant, budget: int, spec: dict[str, Any]) -> tuple[Player, Any, str]:
    if e.kind == "reference":
        made = {"random": random_player(), "weak": weak_player(budget),
                "kit": kit_player(budget)}[e.name.split(":", 1)[-1]]
        return Player(e.name, made.evaluate, budget, made.seed), None, ""

    if _OUT.get(e.name):
        return Player(e.name, None, budget), None, _OUT[e.name]
    if e.name not in _SESSIONS:
        while len(_SESSIONS) >= _KEEP:
            old = next(iter(_SESSIONS))
            _SESSIONS.pop(old)[0].close()
        root = course_root(Path(e.folder))
        secret = secret_file(root) if root else None
        session = play_session(Path(e.folder), root, [secret] if secret else [], EXEC_TIMEOUT)
        session.start()
        for src in e.cells:
            session.run_cell(src)
        ev = RemoteEvaluator(session, "evaluate")
        why = ""
        if session.names.get("evaluate") != "callable":
            why = "evaluate is not defined"
        elif check_correctness(ev, spec, points=1).too_slow:
            why = "too slow in the correctness check"
        _SESSIONS[e.name] = [session, ev]
        _OUT[e.name] = why
        if why:
            _SESSIONS.pop(e.name)[0].close()
            return Player(e.name, None, budget), None, why
    session, ev = _SESSIONS[e.name]
    why = ev.fatal
    return Player(e.name, lambda states: values(ev, states), budget), ev, why


def play_pair(task: dict[str, Any]) -> list[dict[str, Any]]:
    """One pairing, two games per opening, as plain data; run in a worker process (or on
    Dask), which keeps submissions' sessions for the next pairings."""
    a, b = Entrant(**task["a"]), Entrant(**task["b"])
    budget, spec = int(task["budget"]), task["correctness"]
    out = []
    for opening in task["openings"]:
        for x_e, o_e in ((a, b), (b, a)):
            x, x_ev, x_why = _player(x_e, budget, spec)
            o, o_ev, o_why = _player(o_e, budget, spec)
            if x_why or o_why:
                game = forfeited(x.name, o.name, opening, "X" if x_why else "O", x_why or o_why)
            else:
                run: Callable[[], Any] = partial(play_game, x, o, opening)
                for ev in (o_ev, x_ev):
                    if ev is not None:
                        run = _inside(ev, run)
                game = run()
                if game is None:  # a session failed: whoever's evaluator says so forfeits
                    side = "X" if x_ev is not None and x_ev.fatal else "O"
                    game = forfeited(x.name, o.name, opening, side,
                                     getattr(x_ev if side == "X" else o_ev, "fatal", "")
                                     or "it stopped answering")
            out.append(game.to_dict())
    return out


def _inside(ev: Any, inner: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: ev.session(inner, timeout=120.0)


def close_sessions() -> None:
    """End this process's sandboxed children."""
    while _SESSIONS:
        _SESSIONS.popitem()[1][0].close()


# ----- the tournament ---------------------------------------------------------------------
@dataclass
class Tournament:
    """What :func:`run_tournament` played and rated."""

    entrants: list[Entrant]
    games: list[GameRecord] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def _pairings_swiss(names: list[str], points: dict[str, float], met: set[frozenset[str]],
                    rng: random.Random) -> list[tuple[str, str]]:
    order = sorted(names, key=lambda n: (-points[n], rng.random()))
    pairs, left = [], list(order)
    while len(left) > 1:
        a = left.pop(0)
        b = next((n for n in left if frozenset((a, n)) not in met), left[0])
        left.remove(b)
        pairs.append((a, b))
    return pairs


def run_tournament(entrants: list[Entrant], *, seed: int = 0, openings: int = 1,
                   budget: int = 300, swiss: int = 0, workers: int = 2,
                   scheduler: str | None = None, correctness: dict[str, Any] | None = None,
                   map_fn: Callable[..., list[Any]] | None = None) -> Tournament:
    """Play the tournament and rate it."""
    start = time.perf_counter()
    rng = random.Random(seed)
    book = rng.sample(OPENINGS, openings)
    spec = correctness or {"seed": 5, "finished": 20, "in_play": 60, "limit_ms": 5}
    by_name = {e.name: e for e in entrants}
    if len(by_name) != len(entrants):
        raise ValueError("two entrants have the same name")
    client = pool = None
    if scheduler and map_fn is None:
        from distributed import Client  # the "tournament" extra

        client = Client(scheduler)
    elif workers > 1 and map_fn is None:  # one pool for every round: sessions are kept
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers)
    try:
        return _play(entrants, by_name, book, budget, swiss, spec, start, rng,
                     map_fn or _mapper(client, pool))
    finally:
        if client is not None:
            client.close()
        if pool is not None:
            pool.close()
            pool.join()
        elif client is None and map_fn is None:
            close_sessions()


def _play(entrants: list[Entrant], by_name: dict[str, Entrant], book: list[str],
          budget: int, swiss: int, spec: dict[str, Any], start: float, rng: random.Random,
          mapper: Callable[..., list[Any]]) -> Tournament:
    t = Tournament(entrants)
    names = [e.name for e in entrants]
    rounds = ([[(a, b) for i, a in enumerate(names) for b in names[i + 1:]]] if not swiss
              else [None] * swiss)
    points = dict.fromkeys(names, 0.0)
    met: set[frozenset[str]] = set()
    for planned in rounds:
        pairs = planned or _pairings_swiss(names, points, met, rng)
        tasks = [{"a": asdict(by_name[a]), "b": asdict(by_name[b]), "openings": book,
                  "budget": budget, "correctness": spec} for a, b in pairs]
        for (a, b), games in zip(pairs, mapper(play_pair, tasks), strict=True):
            met.add(frozenset((a, b)))
            for g in map(GameRecord.from_dict, games):
                t.games.append(g)
                points[g.x] += g.points(g.x)
                points[g.o] += g.points(g.o)
    t.table = _table(names, t.games, by_name)
    t.seconds = time.perf_counter() - start
    return t


def _mapper(client: Any, pool: Any) -> Callable[..., list[Any]]:
    if client is not None:
        def on_dask(fn: Callable[..., Any], tasks: list[Any]) -> list[Any]:
            return list(client.gather(client.map(fn, tasks, pure=False)))
        return on_dask
    if pool is not None:
        return lambda fn, tasks: list(pool.map(fn, tasks, chunksize=1))
    return lambda fn, tasks: [fn(x) for x in tasks]


def ratings(names: Sequence[str], results: Sequence[tuple[str, str, float]],
            *, iterations: int = 2000) -> dict[str, tuple[float, float]]:
    """Per name ``(rating, uncertainty)`` from ``(a, b, points of a)`` results: Bradley-Terry
    by maximum likelihood (Hunter's MM iteration; a draw is half a win, each player has one
    virtual draw against strength 1 so the fit stays finite) on the Elo scale (400 points:
    odds of 10 to 1), ± twice the standard error from the observed information."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.5] * k  # the virtual draw against strength 1
    pairs: dict[tuple[int, int], float] = {}
    for a, b, pa in results:
        i, j = index[a], index[b]
        wins[i] += pa
        wins[j] += 1 - pa
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0.0) + 1
    p = [1.0] * k
    for _ in range(iterations):
        denom = [1.0 / (p[i] + 1.0) for i in range(k)]  # the virtual game
        for (i, j), n in pairs.items():
            denom[i] += n / (p[i] + p[j])
            denom[j] += n / (p[i] + p[j])
        new = [wins[i] / denom[i] for i in range(k)]
        if max(abs(math.log(new[i] / p[i])) for i in range(k)) < 1e-10:
            p = new
            break
        p = new
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        info[i][i] += p[i] / (p[i] + 1.0) ** 2
    for (i, j), n in pairs.items():
        w = n * p[i] * p[j] / (p[i] + p[j]) ** 2
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    import numpy as np

    cov = np.linalg.inv(np.array(info))
    scale = 400 / math.log(10)
    return {n: (1500 + scale * math.log(p[i]), 2 * scale * math.sqrt(max(cov[i][i], 0.0)))
            for n, i in index.items()}


def _table(names: list[str], games: list[GameRecord],
           by_name: dict[str, Entrant]) -> list[dict[str, Any]]:
    results = [(g.x, g.o, g.points(g.x)) for g in games]
    rated = ratings(names, results)
    rows: list[dict[str, Any]] = []
    for n in names:
        mine = [g for g in games if n in (g.x, g.o)]
        side = {id(g): "X" if g.x == n else "O" for g in mine}
        won = sum(g.result == side[id(g)] for g in mine)
        drawn = sum(g.result == "draw" for g in mine)
        rows.append({"player": n, "kind": by_name[n].kind,
                     "rating": round(rated[n][0], 1), "uncertainty": round(rated[n][1], 1),
                     "games": len(mine), "won": won, "drawn": drawn,
                     "lost": len(mine) - won - drawn,
                     "forfeited": sum(g.forfeit == side[id(g)] for g in mine),
                     "points": sum(g.points(n) for g in mine)})
    rows.sort(key=lambda r: (-r["rating"], r["player"]))
    for rank, r in enumerate(rows, 1):
        r["rank"] = rank
    return rows


def write(t: Tournament, out: str | Path, *, title: str = "Tournament") -> Path:
    """``leaderboard.csv``, ``leaderboard.html`` and ``games/<n>.html`` under ``out``."""

    out = Path(out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    fields = ["rank", "player", "kind", "rating", "uncertainty", "games", "won", "drawn",
              "lost", "forfeited", "points"]
    with open(out / "leaderboard.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows({k: r[k] for k in fields} for r in t.table)
    links: dict[str, list[str]] = {r["player"]: [] for r in t.table}
    for n, g in enumerate(t.games, 1):
        name = f"{n:04d}.html"
        (out / "games" / name).write_text(games_page(
            f"{g.x} v {g.o}", [("", game_html(g, f"g{n}"))]))
        for who in (g.x, g.o):
            mark = "1" if g.result == ("X" if who == g.x else "O") else \
                "½" if g.result == "draw" else "0"
            links[who].append(f'<a href="games/{name}">{mark}</a>')
    head = "".join(f"<th>{html.escape(h)}</th>" for h in [*fields, "games (each links to "
                                                                     "its replay)"])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r[k]))}</td>" for k in fields)
                   + f"<td>{' '.join(links[r['player']])}</td></tr>" for r in t.table)
    note = ("<p>Ratings: maximum-likelihood Bradley-Terry on the Elo scale (400 points = "
            "odds of 10 to 1); uncertainty: ± twice the standard error (about 95%). "
            f"{len(t.games)} games.</p>")
    (out / "leaderboard.html").write_text(games_page(title, [(
        "Leaderboard", f"{note}<table border='1' cellpadding='3'><tr>{head}</tr>{body}"
                       "</table>")]))
    (out / "games.json").write_text(json.dumps([g.to_dict() for g in t.games]))
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.tournament ASSIGNMENT`` from the course folder."""
    parser = argparse.ArgumentParser(prog="python -m minimaxkit.grading.tournament")
    parser.add_argument("assignment")
    parser.add_argument("--root", default=".", help="the course folder (default: here)")
    parser.add_argument("--out", help="where to write (default: tournament/<assignment>)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--openings", type=int, default=1, help="openings per pairing")
    parser.add_argument("--budget", type=int, help="nodes a move (default: tests.json's)")
    parser.add_argument("--swiss", type=int, default=0, metavar="ROUNDS",
                        help="a Swiss system of ROUNDS rounds instead of a round robin")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786)")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    tests = json.loads((root / "solutions" / args.assignment / "tests.json").read_text())
    entrants = find_entrants(root, args.assignment)
    t = run_tournament(entrants, seed=args.seed, openings=args.openings,
                       budget=args.budget or int(tests["questions"]["play"]["node_budget"]),
                       swiss=args.swiss, workers=args.workers, scheduler=args.scheduler,
                       correctness=tests["questions"]["correctness"])
    out = write(t, args.out or root / "tournament" / args.assignment,
                title=f"{args.assignment}: class tournament")
    print(f"{len(t.games)} games between {len(entrants)} players in {t.seconds:.0f} s; "
          f"wrote {out / 'leaderboard.csv'} and {out / 'leaderboard.html'}")
    for r in t.table[:10]:
        print(f"{r['rank']:3d}. {r['player']:<20} {r['rating']:7.1f} ± {r['uncertainty']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
