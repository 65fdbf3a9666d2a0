"""The class tournament of assignment 5 (docs/grading.md, *The class tournament*): every
autograded ``evaluate``, each in a sandboxed child, and the reference players play a round
robin or a Swiss system (:mod:`minimaxkit.arena.standings`), in worker processes or on Dask; one
seed, one table. Whatever a submission sends or does costs only its own games.

>>> Entrant("kit", "reference").key, Entrant("ref:kit", "submission").key
('reference:kit', 'submission:ref:kit')
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from ..arena import standings
from ..arena.matches import GameRecord, Player, kit_player, play_game, random_player, weak_player
from ..grading.evaluation.checks import check_correctness, forfeited
from ..grading.evaluation.evaluators import GAME_CPU, RemoteEvaluator, values
from ..grading.evaluation.notebook import play_session
from ..grading.testdata.cells import plan
from ..grading.testdata.places import course_root, secret_file
from ..isolation.bwrap import root_warning
from ..isolation.keeper import PLUGIN, DaskKeeper, Keeper, start_in_pool, this_process
from ..isolation.session import EXEC_TIMEOUT

__all__ = ["Entrant", "Tournament", "find_entrants", "run_tournament", "play_pair",
           "measure_speed", "write", "main", "REFERENCES", "CELLS_TIME"]

REFERENCES = ("random", "weak", "kit")
#: seconds a submission's cells may take in all each time its sandbox starts (about once a
#: pairing in a large class): a notebook slower than that defines nothing here
CELLS_TIME = 60.0


@dataclass(frozen=True)
class Entrant:
    """A reference player, or a submission's code cells, autograded folder and speed as
    autograde recorded it (``metadata["minimaxkit"]["speed"]`` of its test cell; None: not
    recorded, measured once when the tournament starts). References and students are apart:
    a student may be called anything, ``ref:kit`` included."""

    name: str
    kind: str  # "reference" or "submission"
    folder: str = ""
    cells: tuple[str, ...] = ()
    speed: dict[str, Any] | None = field(default=None, hash=False, compare=False)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"


def _recorded_speed(cells: Sequence[Any]) -> dict[str, Any] | None:
    for cell in cells:
        speed = cell.get("metadata", {}).get("minimaxkit", {}).get("speed")
        if isinstance(speed, dict) and isinstance(speed.get("too_slow"), bool):
            return dict(speed)
    return None


def find_entrants(root: str | Path, assignment: str, *,
                  references: Sequence[str] = REFERENCES) -> list[Entrant]:
    """The reference players and every ``autograded/<student>/<assignment>`` notebook's code
    cells (the test cells left out) and recorded speed."""
    import nbformat

    out = [Entrant(r, "reference") for r in references]
    for nb_path in sorted(Path(root).glob(f"autograded/*/{assignment}/{assignment}.ipynb")):
        nb = nbformat.read(str(nb_path), as_version=4)
        cells = tuple(src for _, src in plan(nb.cells) if isinstance(src, str))
        out.append(Entrant(nb_path.parent.parent.name, "submission",
                           str(nb_path.parent.resolve()), cells, _recorded_speed(nb.cells)))
    return out


# ----- in a worker (a pool's process, a Dask worker, or here) -------------------------------
class _Sandbox:
    """A submission's cells in a sandboxed child, kept by the worker's Keeper."""

    def __init__(self, e: Entrant) -> None:
        root = course_root(Path(e.folder))
        secret = secret_file(root) if root else None
        self.session = play_session(Path(e.folder), root, [secret] if secret else [],
                                    EXEC_TIMEOUT, CELLS_TIME)
        for src in e.cells:
            self.session.run_cell(src)
        self.ev = RemoteEvaluator(self.session, "evaluate")
        self.why = "" if self.session.names.get("evaluate") == "callable" else \
            "evaluate is not defined" + "".join(f" ({p})" for p in self.session.problems[-1:])

    def check_idle(self) -> str:
        return self.session.check_idle()

    def close(self) -> None:
        self.session.close()


def _keeper(keeper: Keeper | None) -> tuple[Keeper, bool]:
    """The keeper to use, and whether it is this call's own (closed after)."""
    found = keeper if keeper is not None else this_process()
    return (found, False) if found is not None else (Keeper(), True)


def _why_not(e: Entrant, box: _Sandbox | None) -> str:
    speed = e.speed or {}
    if speed.get("too_slow") and "ms_per_board" not in speed:
        return f"its speed could not be measured: {speed.get('why') or 'no number from it'}"
    if speed.get("too_slow"):
        return (f"too slow in the correctness check ({speed.get('ms_per_board', 0):.2g} ms a "
                f"board, limit {speed.get('limit_ms', 0):g} ms)")
    return box.why if box is not None else ""


def play_pair(task: dict[str, Any], keeper: Keeper | None = None) -> list[dict[str, Any]]:
    """One pairing, each opening with both colours, as plain data; the submissions' sandboxes
    come from this worker's keeper. A player whose channel broke forfeits the rest of the
    pairing; the next pairing starts afresh."""
    a, b = Entrant(**task["a"]), Entrant(**task["b"])
    budget = int(task["budget"])
    keeper, own = _keeper(keeper)
    subs = {e.key: e for e in (a, b) if e.kind == "submission" and not _why_not(e, None)}
    try:
        with keeper.use(list(subs), lambda k: _Sandbox(subs[str(k)])) as boxes:
            box = dict(zip(subs, boxes, strict=True))
            for s in boxes:
                s.ev.fatal, s.ev.limit_ms = "", float(task.get("limit_ms", 1.0))
            out = []
            for opening in task["openings"]:
                for x_e, o_e in ((a, b), (b, a)):
                    out.append(_game(x_e, o_e, opening, budget, box).to_dict())
            return out
    finally:
        if own:
            keeper.close()


def _game(x_e: Entrant, o_e: Entrant, opening: str, budget: int,
          box: dict[str, _Sandbox]) -> GameRecord:
    players: list[Player] = []
    evs: list[RemoteEvaluator | None] = []
    whys: list[str] = []
    refs: dict[str, Callable[[], Player]] = {"random": random_player, "weak": partial(
        weak_player, budget), "kit": partial(kit_player, budget)}
    for e in (x_e, o_e):
        s = box.get(e.key)  # None: a reference, or too slow (never started)
        if e.kind == "reference":
            made = refs[e.name]()
            players.append(Player(e.key, made.evaluate, budget, made.seed))
        else:
            players.append(Player(e.key, partial(values, s.ev) if s else None, budget))
        evs.append(s.ev if s else None)
        whys.append("" if e.kind == "reference" else _why_not(e, s) or (s.ev.fatal if s else ""))
    if any(whys):
        side = 0 if whys[0] else 1
        return forfeited(players[0].name, players[1].name, opening, "XO"[side], whys[side])
    run: Callable[[], Any] = partial(play_game, players[0], players[1], opening)
    for ev in reversed(evs):  # each player's worker: its own processor time, its own clock
        if ev is not None:
            run = partial(ev.session, run, GAME_CPU, wall=0)
    game = run()
    if game is None:  # a worker could not start: whoever's evaluator says so forfeits
        side = 0 if evs[0] is not None and evs[0].fatal else 1
        why = getattr(evs[side], "fatal", "") or "it stopped answering"
        game = forfeited(players[0].name, players[1].name, opening, "XO"[side], why)
    for mark, ev in zip("XO", evs, strict=True):  # each held to the speed limit in play too
        if ev is not None and game.forfeit is None and (slow := ev.over_limit()):
            game = forfeited(players[0].name, players[1].name, opening, mark, slow)
    return game  # type: ignore[no-any-return]


def measure_speed(task: dict[str, Any], keeper: Keeper | None = None) -> dict[str, Any]:
    """A submission's speed, measured once by the correctness check (no record in its
    notebook); where it could not be measured, ``too_slow`` and ``why`` not."""
    e = Entrant(**task["entrant"])
    keeper, own = _keeper(keeper)
    try:
        with keeper.use([e.key], lambda k: _Sandbox(e)) as (box,):
            if box.why:
                return {"too_slow": True, "why": box.why}
            report = check_correctness(box.ev, task["correctness"], points=1)
            why = report.note.removeprefix("the function could not be checked: ")
            return report.speed or {"too_slow": True, "why": why or "no number from it"}
    finally:
        if own:
            keeper.close()


# ----- the tournament ---------------------------------------------------------------------
@dataclass
class Tournament:
    """What :func:`run_tournament` played and rated (games name players by key)."""

    entrants: list[Entrant]
    games: list[GameRecord] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)
    byes: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def run_tournament(entrants: list[Entrant], *, seed: int = 0, openings: int = 1,
                   budget: int = 300, swiss: int = 0, workers: int = 2,
                   scheduler: str | None = None, correctness: dict[str, Any] | None = None,
                   map_fn: Callable[..., list[Any]] | None = None) -> Tournament:
    """Play the tournament and rate it; ``map_fn(fn, tasks)`` (default: worker processes,
    or the Dask cluster at ``scheduler``) plays the pairings."""
    start = time.perf_counter()
    by_key = {e.key: e for e in entrants}
    if len(by_key) != len(entrants):
        raise ValueError("run_tournament: an entrant is listed twice")
    spec = correctness or {"seed": 5, "finished": 20, "in_play": 60, "limit_ms": 1}
    client = pool = keeper = None
    if map_fn is not None:
        mapper = map_fn
    elif scheduler:
        from distributed import Client  # the "tournament" extra

        client = Client(scheduler)
        client.register_plugin(DaskKeeper.plugin(), name=PLUGIN)
        mapper = _on_dask(client)
    elif workers > 1:  # one pool for the whole tournament: each process keeps its sandboxes
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers, initializer=start_in_pool)
        mapper = partial(pool.map, chunksize=1)
    else:
        keeper = Keeper()
        mapper = partial(_here, keeper)
    try:
        todo = [e for e in entrants if e.kind == "submission" and e.speed is None]
        for e, speed in zip(todo, mapper(measure_speed, [
                {"entrant": asdict(e), "correctness": spec} for e in todo]), strict=True):
            by_key[e.key] = replace(e, speed=speed)

        def play(pairings: list[standings.Pairing]) -> list[list[GameRecord]]:
            tasks = [{"a": asdict(by_key[p.a]), "b": asdict(by_key[p.b]),
                      "openings": list(p.openings), "budget": budget,
                      "limit_ms": float(spec.get("limit_ms", 1.0))} for p in pairings]
            return [[GameRecord.from_dict(g) for g in games]
                    for games in mapper(play_pair, tasks)]

        t = Tournament([by_key[e.key] for e in entrants])
        t.games, t.byes = standings.schedule(list(by_key), play, seed=seed,
                                             openings=openings, swiss=swiss)
        t.table = standings.table(list(by_key), t.games, t.byes)
        t.seconds = time.perf_counter() - start
        return t
    finally:
        if client is not None:
            client.unregister_worker_plugin(PLUGIN)  # each worker closes its sandboxes
            client.close()
        if pool is not None:
            pool.close()
            pool.join()
        if keeper is not None:
            keeper.close()


def _on_dask(client: Any) -> Callable[..., list[Any]]:
    def mapper(fn: Callable[..., Any], tasks: list[Any]) -> list[Any]:
        return list(client.gather(client.map(fn, tasks, pure=False))) if tasks else []
    return mapper


def _here(keeper: Keeper, fn: Callable[..., Any], tasks: list[Any]) -> list[Any]:
    return [fn(x, keeper) for x in tasks]


def write(t: Tournament, out: str | Path, *, title: str = "Tournament") -> Path:
    """``leaderboard.csv``, ``leaderboard.html``, ``games/NNNN.html`` and ``games.json``."""
    return standings.write(
        out, t.table, t.games, labels={e.key: e.name for e in t.entrants},
        kinds={e.key: e.kind for e in t.entrants}, title=title,
        about="Ratings: Bradley-Terry with Firth's correction, Elo scale (400 points = odds of "
              "10 to 1); 1500 is the mean of the largest group linked by a cycle of results, "
              "each weighted by how precisely its games place it; 95% intervals, open ('below "
              "R') where the games bound a player on one side only. A player without points is "
              "never above one with points.")


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.tournament ASSIGNMENT`` from the course folder."""
    parser = argparse.ArgumentParser(prog="python -m minimaxkit.grading.tournament")
    parser.add_argument("assignment")
    parser.add_argument("--root", default=".", help="the course folder (default: here)")
    parser.add_argument("--out", help="where to write (default: tournament/<assignment>)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--openings", type=int, default=1, help="openings per pairing (1-20)")
    parser.add_argument("--budget", type=int, help="nodes a move (default: tests.json's)")
    parser.add_argument("--swiss", type=int, metavar="ROUNDS",
                        help="a Swiss system of ROUNDS rounds instead of a round robin")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786)")
    args = parser.parse_args(argv)
    if not 1 <= args.openings <= len(standings.OPENINGS) or min([args.workers, *(
            v for v in (args.budget, args.swiss) if v is not None)]) < 1:
        parser.error(f"--openings must be 1 to {len(standings.OPENINGS)}, --budget and "
                     "--workers at least 1, --swiss (rounds) at least 1")
    if not (spec := (root := Path(args.root).resolve()) / "solutions" / args.assignment /
            "tests.json").is_file():
        parser.error(f"no {spec}: --root is the course folder, ASSIGNMENT one of its solutions")
    if warning := root_warning():
        print(warning, file=sys.stderr)
    tests = json.loads(spec.read_text())
    if len(entrants := find_entrants(root, args.assignment)) == len(REFERENCES):
        parser.error(f"no autograded/*/{args.assignment}/{args.assignment}.ipynb in {root}: "
                     "autograde the submissions first")
    t = run_tournament(entrants, seed=args.seed, openings=args.openings,
                       budget=args.budget or int(tests["questions"]["play"]["node_budget"]),
                       swiss=args.swiss or 0, workers=args.workers, scheduler=args.scheduler,
                       correctness=tests["questions"]["correctness"])
    out = write(t, args.out or root / "tournament" / args.assignment,
                title=f"{args.assignment}: class tournament")
    print(f"{len(t.games)} games between {len(entrants)} players in {t.seconds:.0f} s; "
          f"wrote {out / 'leaderboard.csv'} and {out / 'leaderboard.html'}")
    name = {e.key: e.name + " (reference)" * (e.kind == "reference") for e in t.entrants}
    for r in t.table[:10]:
        print(f"{r['rank']:3d}. {name[r['player']]:<24} {r['describe']}")
    return 0
