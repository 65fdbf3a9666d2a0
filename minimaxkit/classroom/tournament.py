"""The class tournament of assignment 5 (docs/grading.md, *The class tournament*): every
autograded ``evaluate``, each in a sandboxed child, and the reference players play a round
robin or a Swiss system (:mod:`minimaxkit.arena.standings`), in worker processes or on Dask; one
seed, one table. Whatever a submission sends or does costs only its own games.

The work travels as typed records: a :class:`PairingTask` or a :class:`SpeedTask` to a
worker, :class:`GameRecord`\\ s and a :class:`RecordedSpeed` back.

>>> Entrant("kit", "reference").key, Entrant("ref:kit", "submission").key
('reference:kit', 'submission:ref:kit')
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from ..arena import standings
from ..arena.matches import GameRecord, Player, kit_player, play_game, random_player, weak_player
from ..grading.evaluation.correctness import CorrectnessSpec, check_correctness
from ..grading.evaluation.evaluators import GAME_CPU, RemoteEvaluator, values
from ..grading.evaluation.lockstep import forfeited
from ..grading.evaluation.notebook import play_session
from ..grading.testdata.cells import plan
from ..grading.testdata.places import course_root, secret_file
from ..isolation.bwrap import root_warning
from ..isolation.keeper import PLUGIN, DaskKeeper, Keeper, start_in_pool, this_process
from ..isolation.session import EXEC_TIMEOUT

__all__ = ["Entrant", "RecordedSpeed", "PairingTask", "SpeedTask", "Format", "Tournament",
           "find_entrants", "run_tournament", "play_pair", "measure_speed", "write", "main",
           "REFERENCES", "CELLS_TIME"]

REFERENCES = ("random", "weak", "kit")
#: seconds a submission's cells may take in all each time its sandbox starts (about once a
#: pairing in a large class): a notebook slower than that defines nothing here
CELLS_TIME = 60.0


@dataclass(frozen=True)
class RecordedSpeed:
    """A submission's speed as autograde recorded it in its correctness cell's metadata
    (``metadata["minimaxkit"]["speed"]``), or as the tournament measured it once:
    ``too_slow``, and the milliseconds of processor time a board against ``limit_ms`` over
    ``boards`` checked; where nothing could be measured, ``why``.

    >>> RecordedSpeed.of({"ms_per_board": 0.1, "limit_ms": 1, "too_slow": False, "boards": 80})
    RecordedSpeed(too_slow=False, ms_per_board=0.1, limit_ms=1.0, boards=80, why='')
    >>> RecordedSpeed(True, why="no number from it").why_not()
    'its speed could not be measured: no number from it'
    """

    too_slow: bool
    ms_per_board: float | None = None
    limit_ms: float | None = None
    boards: int | None = None
    why: str = ""

    @classmethod
    def of(cls, data: Any) -> RecordedSpeed | None:
        """The record in a notebook's metadata, or None where there is none usable."""
        if not isinstance(data, dict) or not isinstance(data.get("too_slow"), bool):
            return None
        try:
            return cls(data["too_slow"], _number(data.get("ms_per_board")),
                       _number(data.get("limit_ms")),
                       None if data.get("boards") is None else int(data["boards"]),
                       str(data.get("why", "")))
        except (TypeError, ValueError):
            return None

    def why_not(self) -> str:
        """Why the submission plays no games; ``""`` when it plays."""
        if self.too_slow and self.ms_per_board is None:
            return f"its speed could not be measured: {self.why or 'no number from it'}"
        if self.too_slow:
            return (f"too slow in the correctness check ({self.ms_per_board:.2g} ms a board, "
                    f"limit {self.limit_ms or 0:g} ms)")
        return ""


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class Entrant:
    """A reference player, or a submission's code cells, autograded folder and speed as
    autograde recorded it (None: not recorded, measured once when the tournament starts).
    References and students are apart: a student may be called anything, ``ref:kit``
    included."""

    name: str
    kind: str  # "reference" or "submission"
    folder: str = ""
    cells: tuple[str, ...] = ()
    speed: RecordedSpeed | None = field(default=None, hash=False, compare=False)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"


@dataclass(frozen=True)
class PairingTask:
    """One pairing for a worker: ``a`` and ``b`` play each of ``openings`` with each colour,
    ``budget`` nodes a move, each submission held to ``limit_ms`` a board."""

    a: Entrant
    b: Entrant
    openings: tuple[str, ...]
    budget: int
    limit_ms: float = 1.0


@dataclass(frozen=True)
class SpeedTask:
    """A submission whose speed autograde did not record, to be measured once by the
    correctness check of ``correctness``."""

    entrant: Entrant
    correctness: CorrectnessSpec = CorrectnessSpec()


@dataclass(frozen=True)
class Format:
    """How the tournament is played: ``seed`` (the openings and the Swiss pairings), the
    ``openings`` a pairing plays, a round robin or ``swiss`` rounds, ``budget`` nodes a move,
    and the ``correctness`` check that measures a speed autograde did not record."""

    seed: int = 0
    openings: int = 1
    swiss: int = 0
    budget: int = 300
    correctness: CorrectnessSpec = CorrectnessSpec()


def _recorded_speed(cells: Sequence[Any]) -> RecordedSpeed | None:
    for cell in cells:
        speed = RecordedSpeed.of(cell.get("metadata", {}).get("minimaxkit", {}).get("speed"))
        if speed is not None:
            return speed
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
    """A submission's cells in a sandboxed child, kept by the worker's Keeper. Where they
    leave no ``evaluate``, :attr:`why` says so with the first problem the cells met: a cell
    left out (one that interfered with the grader, say) makes the cells after it fail too,
    and the last problem (a NameError in the notebook's own cell) would point the instructor
    at the wrong cell."""

    def __init__(self, e: Entrant) -> None:
        root = course_root(Path(e.folder))
        secret = secret_file(root) if root else None
        self.session = play_session(Path(e.folder), root, [secret] if secret else [],
                                    EXEC_TIMEOUT, CELLS_TIME)
        for src in e.cells:
            self.session.run_cell(src)
        self.ev = RemoteEvaluator(self.session, "evaluate")
        self.why = ""
        if self.session.names.get("evaluate") != "callable":
            first = "".join(f" ({p})" for p in self.session.problems[:1])
            self.why = "evaluate is not defined" + first

    def check_idle(self) -> str:
        return self.session.check_idle()

    def close(self) -> None:
        self.session.close()


def _keeper(keeper: Keeper | None) -> tuple[Keeper, bool]:
    """The keeper to use, and whether it is this call's own (closed after)."""
    found = keeper if keeper is not None else this_process()
    return (found, False) if found is not None else (Keeper(), True)


def _why_not(e: Entrant, box: _Sandbox | None) -> str:
    """Why ``e`` forfeits its games before playing: too slow, or no ``evaluate``."""
    if e.kind == "reference":
        return ""
    slow = e.speed.why_not() if e.speed is not None else ""
    return slow or (box.why if box is not None else "")


def play_pair(task: PairingTask, keeper: Keeper | None = None) -> list[GameRecord]:
    """One pairing, each opening with both colours; the submissions' sandboxes come from
    this worker's keeper. A player whose channel broke forfeits the rest of the pairing; the
    next pairing starts afresh."""
    keeper, own = _keeper(keeper)
    subs = {e.key: e for e in (task.a, task.b)
            if e.kind == "submission" and not _why_not(e, None)}
    try:
        with keeper.use(list(subs), lambda k: _Sandbox(subs[str(k)])) as boxes:
            box = dict(zip(subs, boxes, strict=True))
            for s in boxes:
                s.ev.fatal, s.ev.limit_ms = "", task.limit_ms
            return [_game(_Side.of(x, box, task.budget), _Side.of(o, box, task.budget),
                          opening)
                    for opening in task.openings for x, o in ((task.a, task.b),
                                                              (task.b, task.a))]
    finally:
        if own:
            keeper.close()


#: the reference players by name, at a node budget
_REFERENCE_PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": lambda budget: random_player(), "weak": weak_player, "kit": kit_player}


@dataclass(frozen=True)
class _Side:
    """One side of a game: its player (named by the entrant's key), the evaluator in its
    sandbox (None for a reference or a submission that does not play) and why it forfeits
    before playing."""

    player: Player
    ev: RemoteEvaluator | None
    why: str

    @classmethod
    def of(cls, e: Entrant, boxes: dict[str, _Sandbox], budget: int) -> _Side:
        box = boxes.get(e.key)  # None: a reference, or a submission that does not play
        if e.kind == "reference":
            made = _REFERENCE_PLAYERS[e.name](budget)
            return cls(Player(e.key, made.evaluate, budget, made.seed), None, "")
        evaluate = partial(values, box.ev) if box is not None else None
        why = _why_not(e, box) or (box.ev.fatal if box is not None else "")
        return cls(Player(e.key, evaluate, budget), box.ev if box else None, why)


def _game(x: _Side, o: _Side, opening: str) -> GameRecord:
    """A game between the two sides, each submission's evaluation in a worker of its own
    (its own processor time, its own clock), held to the speed limit in play too; a side
    that cannot play forfeits it."""
    names = (x.player.name, o.player.name)
    for mark, side in zip("XO", (x, o), strict=True):
        if side.why:
            return forfeited(*names, opening, mark, side.why)
    run: Callable[[], Any] = partial(play_game, x.player, o.player, opening)
    for side in (o, x):  # x's worker outermost
        if side.ev is not None:
            run = partial(side.ev.session, run, GAME_CPU, wall=0)
    game = run()
    if game is None:  # a worker could not start: whoever's evaluator says so forfeits
        mark, side = ("X", x) if x.ev is not None and x.ev.fatal else ("O", o)
        why = side.ev.fatal if side.ev is not None else ""
        return forfeited(*names, opening, mark, why or "it stopped answering")
    for mark, side in zip("XO", (x, o), strict=True):
        slow = side.ev.over_limit() if side.ev is not None and game.forfeit is None else ""
        if slow:
            return forfeited(*names, opening, mark, slow)
    return game  # type: ignore[no-any-return]


def measure_speed(task: SpeedTask, keeper: Keeper | None = None) -> RecordedSpeed:
    """A submission's speed, measured once by the correctness check (no record in its
    notebook); where it could not be measured, ``too_slow`` and ``why`` say so."""
    e = task.entrant
    keeper, own = _keeper(keeper)
    try:
        with keeper.use([e.key], lambda k: _Sandbox(e)) as (box,):
            if box.why:
                return RecordedSpeed(True, why=box.why)
            report = check_correctness(box.ev, task.correctness, points=1)
            recorded = RecordedSpeed.of(report.speed)
            if recorded is not None:
                return recorded
            why = report.note.removeprefix("the function could not be checked: ")
            return RecordedSpeed(True, why=why or "no number from it")
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


class _Mapper:
    """Where the tasks run: ``map_fn(fn, tasks)`` if given, else the Dask cluster at
    ``scheduler``, else ``workers`` processes (each keeping its sandboxes for the whole
    tournament), else this process. Closed when the tournament ends."""

    def __init__(self, workers: int, scheduler: str | None,
                 map_fn: Callable[..., list[Any]] | None) -> None:
        self.client: Any = None
        self.pool: Any = None
        self.keeper: Keeper | None = None
        if map_fn is not None:
            self.map = map_fn
        elif scheduler:
            from distributed import Client  # the "tournament" extra

            self.client = Client(scheduler)
            self.client.register_plugin(DaskKeeper.plugin(), name=PLUGIN)
            self.map = _on_dask(self.client)
        elif workers > 1:
            import multiprocessing

            self.pool = multiprocessing.get_context("fork").Pool(workers,
                                                                 initializer=start_in_pool)
            self.map = partial(self.pool.map, chunksize=1)
        else:
            self.keeper = Keeper()
            self.map = partial(_here, self.keeper)

    def close(self) -> None:
        if self.client is not None:
            self.client.unregister_worker_plugin(PLUGIN)  # each worker closes its sandboxes
            self.client.close()
        if self.pool is not None:
            self.pool.close()
            self.pool.join()
        if self.keeper is not None:
            self.keeper.close()


def run_tournament(entrants: list[Entrant], fmt: Format = Format(), *, workers: int = 2,
                   scheduler: str | None = None,
                   map_fn: Callable[..., list[Any]] | None = None) -> Tournament:
    """Play the tournament of ``fmt`` and rate it; ``map_fn(fn, tasks)`` (default: worker
    processes, or the Dask cluster at ``scheduler``) plays the pairings."""
    start = time.perf_counter()
    by_key = {e.key: e for e in entrants}
    if len(by_key) != len(entrants):
        raise ValueError("run_tournament: an entrant is listed twice")
    mapper = _Mapper(workers, scheduler, map_fn)
    try:
        todo = [e for e in entrants if e.kind == "submission" and e.speed is None]
        measured = mapper.map(measure_speed, [SpeedTask(e, fmt.correctness) for e in todo])
        for e, speed in zip(todo, measured, strict=True):
            by_key[e.key] = replace(e, speed=speed)

        def play(pairings: list[standings.Pairing]) -> list[list[GameRecord]]:
            tasks = [PairingTask(by_key[p.a], by_key[p.b], tuple(p.openings), fmt.budget,
                                 fmt.correctness.limit_ms) for p in pairings]
            return list(mapper.map(play_pair, tasks))

        t = Tournament([by_key[e.key] for e in entrants])
        t.games, t.byes = standings.schedule(list(by_key), play, seed=fmt.seed,
                                             openings=fmt.openings, swiss=fmt.swiss)
        t.table = standings.table(list(by_key), t.games, t.byes)
        t.seconds = time.perf_counter() - start
        return t
    finally:
        mapper.close()


def _on_dask(client: Any) -> Callable[..., list[Any]]:
    def mapper(fn: Callable[..., Any], tasks: list[Any]) -> list[Any]:
        return list(client.gather(client.map(fn, tasks, pure=False))) if tasks else []
    return mapper


def _here(keeper: Keeper, fn: Callable[..., Any], tasks: list[Any]) -> list[Any]:
    return [fn(x, keeper) for x in tasks]


def write(t: Tournament, out: str | Path, *, title: str = "Tournament") -> Path:
    """``leaderboard.csv``, ``leaderboard.html``, ``games/NNNN.html`` and ``games.json``."""
    return standings.write(out, standings.Leaderboard(
        t.table, t.games, {e.key: standings.Shown(e.name, e.kind) for e in t.entrants},
        title=title,
        about="Ratings: Bradley-Terry with Firth's correction, Elo scale (400 points = odds of "
              "10 to 1); 1500 is the mean of the largest group linked by a cycle of results, "
              "each weighted by how precisely its games place it; 95% intervals, open ('below "
              "R') where the games bound a player on one side only. A player without points is "
              "never above one with points."))


def _parser() -> argparse.ArgumentParser:
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
    return parser


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.tournament ASSIGNMENT`` from the course folder."""
    parser = _parser()
    args = parser.parse_args(argv)
    counts = [args.workers] + [v for v in (args.budget, args.swiss) if v is not None]
    if not 1 <= args.openings <= len(standings.OPENINGS) or min(counts) < 1:
        parser.error(f"--openings must be 1 to {len(standings.OPENINGS)}, --budget and "
                     "--workers at least 1, --swiss (rounds) at least 1")
    root = Path(args.root).resolve()
    spec = root / "solutions" / args.assignment / "tests.json"
    if not spec.is_file():
        parser.error(f"no {spec}: --root is the course folder, ASSIGNMENT one of its solutions")
    warning = root_warning()
    if warning:
        print(warning, file=sys.stderr)
    entrants = find_entrants(root, args.assignment)
    if len(entrants) == len(REFERENCES):
        parser.error(f"no autograded/*/{args.assignment}/{args.assignment}.ipynb in {root}: "
                     "autograde the submissions first")
    questions = json.loads(spec.read_text())["questions"]
    fmt = Format(args.seed, args.openings, args.swiss or 0,
                 args.budget or int(questions["play"]["node_budget"]),
                 CorrectnessSpec.of(questions["correctness"]))
    t = run_tournament(entrants, fmt, workers=args.workers, scheduler=args.scheduler)
    out = write(t, args.out or root / "tournament" / args.assignment,
                title=f"{args.assignment}: class tournament")
    print(f"{len(t.games)} games between {len(entrants)} players in {t.seconds:.0f} s; "
          f"wrote {out / 'leaderboard.csv'} and {out / 'leaderboard.html'}")
    name = {e.key: e.name + " (reference)" * (e.kind == "reference") for e in t.entrants}
    for r in t.table[:10]:
        print(f"{r['rank']:3d}. {name[r['player']]:<24} {r['describe']}")
    return 0
