"""Assignment 5's play grade, designed by simulation (issue 28).

Plays every evaluation of three families against the kit (300 nodes a move) from every
opening of the book (:data:`minimaxkit.grading.evaluation.ladder.BOOK`, 137), once as X and
once as O, and against random moves and the weak evaluation from a fixed part of it (48
openings: those rungs are far from their limits for all but broken evaluations), and from
the four openings the old grade used. An evaluation's *true share* against a rung is its
share of the points over that book. Then, for each candidate design (how many
openings a student is graded on, drawn per student, and how points follow the share), it
draws the openings of 2000 students per evaluation with the real draw
(:func:`~minimaxkit.grading.evaluation.ladder.draw_openings`) and reports:

* **false fail** / **false pass**: how often an evaluation earns fewer points than one
  10 points of share *weaker* would earn by its true share / more than one 10 points
  *stronger* would, on the kit rung and on the play points (every rung's share moved by
  10 points); the mean over the evaluations, and the worst one;
* **10 points apart: right / wrong**: for two evaluations whose true shares against the
  kit differ by 7.5 to 12.5 points, graded on independent draws, how often the stronger
  earns more play points than the weaker / the weaker more than the stronger (the rest:
  the same points);
* **tuned ≥ sol**: how often the vector tuned to the four old openings earns at least the
  solution's play points; **sol 6/6**: how often the solution earns all 6;
* the 95% interval's **coverage** (how often it holds the true share; first 200
  students);
* the games per submission, and their seconds at the measured cost of a game of the
  solution played through the sandboxed child (``--no-remote`` skips that measurement).

The families: 40 random weight vectors for the kit's own features (open threes, open
twos, centre pieces; :meth:`~minimaxkit.games.ConnectFour.features`), the sample
evaluations of ``tests/grading/submissions/a5_evaluation/``, and two vectors tuned as an
attacker would: the best of 200 random vectors on the four old graded openings, and on
the practice opening.

The games are cached in ``benchmarks/cache/a5_play_book.json`` (git-ignored), keyed by a
fingerprint of the engine (a few reference games): after a change to the search the
cache starts again. Modes:

    .venv/bin/python benchmarks/bench_a5_play_grade.py            # quick: a part of it
    .venv/bin/python benchmarks/bench_a5_play_grade.py --full --workers 2

Quick (the default, what ``make bench`` runs): when the cache holds the full set, the full
figures without playing (under a minute, the cost of games included); else 4 random
vectors, the solution, the kit's own and the weak sample, against the kit on 48 openings,
weak 24, random 8, and 40 tuning candidates: about 1,900 games, 10 to 15 minutes on the
shared 2-core machine at nice 15 (load 5-10). Full: about 26,000 games, 80 minutes with
two worker processes there (``--workers 2``). After a change to the search the cache
starts again: run ``--full`` once.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.arena.matches import (  # noqa: E402
    Player,
    board_player,
    feature_evaluation,
    kit_player,
    play_game,
    random_player,
    weak_player,
)
from minimaxkit.grading.evaluation.ladder import (  # noqa: E402
    BOOK,
    LADDER,
    PRACTICE,
    RETIRED,
    Rung,
    draw_openings,
    share_interval,
)

BUDGET = 300
RUNGS = ("random", "weak", "kit")
SAMPLES = ("strong", "kit_own", "ignores_turn", "weak", "random_eval", "constant",
           "wrong_sign")
SAMPLE_DIR = REPO / "tests" / "grading" / "submissions" / "a5_evaluation"
CACHE = REPO / "benchmarks" / "cache" / "a5_play_book.json"
STUDENTS = 2000

Spec = tuple[str, Any]  # ("weights", (w3, w2, wc)) or ("sample", name)


# ----- the families ------------------------------------------------------------------------
def weight_vectors(n: int, seed: int) -> list[tuple[float, float, float]]:
    """``n`` weight vectors for (open threes, open twos, centre pieces), each weight
    uniform in [0, 10] (the kit's own is (5, 2, 3))."""
    rng = random.Random(seed)
    return [tuple(round(rng.uniform(0, 10), 2) for _ in range(3))  # type: ignore[misc]
            for _ in range(n)]


def remembered(player: Player) -> Player:
    """``player`` remembering its evaluation's values across the games of one task
    (:attr:`~minimaxkit.arena.matches.Player.memo`): the same games for a pure evaluation,
    played faster (every sample but ``random_eval`` is pure)."""
    return replace(player, memo={})


def player(name: str, spec: Spec) -> Player:
    kind, arg = spec
    if kind == "weights":
        return remembered(Player(name, feature_evaluation(arg), BUDGET, ahead=0))
    ns: dict[str, Any] = {}
    src = (SAMPLE_DIR / f"{arg}.py").read_text()
    exec(compile(src, f"{arg}.py", "exec"), ns)  # noqa: S102 - the kit's own sample files
    made = board_player(name, ns["evaluate"], BUDGET)
    return made if arg == "random_eval" else remembered(made)


def plain_opponent(rung: str) -> Player:
    return {"random": random_player, "weak": lambda: weak_player(BUDGET),
            "kit": lambda: kit_player(BUDGET)}[rung]()


def opponent(rung: str) -> Player:
    return remembered(plain_opponent(rung))


def pair(you: Player, opp: Player, opening: str) -> tuple[float, float]:
    """``you``'s points as X and as O from ``opening``; each game starts from
    ``random.seed(0)``, as the grader's worker does."""
    out = []
    for x, o in ((you, opp), (opp, you)):
        random.seed(0)
        out.append(play_game(x, o, opening).points(you.name))
    return out[0], out[1]


def _spec_key(spec: Spec) -> str:
    kind, arg = spec
    text = json.dumps(arg) if kind == "weights" else (SAMPLE_DIR / f"{arg}.py").read_text()
    return f"{kind}:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def engine_fingerprint() -> str:
    """A hash of a few reference games: it changes when the search plays differently."""
    games = [play_game(kit_player(BUDGET), weak_player(BUDGET), "33").moves,
             play_game(weak_player(BUDGET), kit_player(BUDGET), "024").moves,
             play_game(player("w", ("weights", (1, 9, 4))), kit_player(BUDGET), "12").moves]
    return hashlib.sha256(f"{BUDGET}|{'|'.join(games)}".encode()).hexdigest()[:16]


# ----- the table of games, cached ------------------------------------------------------------
def _work(task: tuple[str, Spec, str, list[str]]) -> tuple[str, dict[str, list[float]]]:
    name, spec, rung, openings = task
    # "you:": a sample may have a rung's name (weak), and a game counts points by name
    you, opp = player(f"you:{name}", spec), opponent(rung)
    return f"{_spec_key(spec)}|{rung}", {op: list(pair(you, opp, op)) for op in openings}


class Table:
    """Points per (evaluation, rung, opening), filled from the cache or by playing."""

    def __init__(self, workers: int, path: Path = CACHE) -> None:
        self.workers, self.path = workers, path
        self.engine = engine_fingerprint()
        self.data: dict[str, dict[str, list[float]]] = {}
        if path.exists():
            saved = json.loads(path.read_text())
            if saved.get("engine") == self.engine:
                self.data = saved["games"]
            else:
                print("the engine plays differently from the cache's: playing again")

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"engine": self.engine, "budget": BUDGET,
                                   "games": self.data}))
        tmp.replace(self.path)

    def fill(self, evals: dict[str, Spec], rungs: Sequence[str],
             openings: Sequence[str]) -> None:
        tasks = []
        for name, spec in evals.items():
            for rung in rungs:
                have = self.data.get(f"{_spec_key(spec)}|{rung}", {})
                todo = [op for op in openings if op not in have]
                for i in range(0, len(todo), 24):
                    tasks.append((name, spec, rung, todo[i:i + 24]))
        if not tasks:
            return
        games = 2 * sum(len(t[3]) for t in tasks)
        print(f"playing {games} games ({len(tasks)} tasks, {self.workers} workers)...",
              flush=True)
        start, last = time.perf_counter(), time.perf_counter()
        if self.workers > 1:
            import multiprocessing
            pool = multiprocessing.get_context("fork").Pool(self.workers)
            results = pool.imap_unordered(_work, tasks)
        else:
            pool, results = None, map(_work, tasks)
        try:
            for done, (key, got) in enumerate(results, 1):
                self.data.setdefault(key, {}).update(got)
                if time.perf_counter() - last > 60 or done == len(tasks):
                    self.save()
                    last = time.perf_counter()
                    print(f"  {done}/{len(tasks)} tasks, {time.perf_counter() - start:.0f} s",
                          flush=True)
        finally:
            if pool is not None:
                pool.close()
                pool.join()

    def has(self, evals: dict[str, Spec], rungs: Sequence[str],
            openings: Sequence[str]) -> bool:
        """Whether every game of ``evals`` against ``rungs`` from ``openings`` is here."""
        return all(op in self.data.get(f"{_spec_key(spec)}|{rung}", {})
                   for spec in evals.values() for rung in rungs for op in openings)

    def pairs(self, spec: Spec, rung: str, openings: Sequence[str]) -> list[tuple[float, ...]]:
        got = self.data[f"{_spec_key(spec)}|{rung}"]
        return [tuple(got[op]) for op in openings]


def tuned(table: Table, n: int) -> dict[str, Spec]:
    """The attacker's vectors: of ``n`` random candidates, the best against the kit on the
    four old graded openings, and on the practice opening (ties: the first found)."""
    candidates = {f"cand{i}": ("weights", w) for i, w in enumerate(weight_vectors(n, 2828))}
    public = list(dict.fromkeys([*RETIRED, *PRACTICE]))
    table.fill(candidates, ["kit"], public)

    def best(openings: Sequence[str]) -> Spec:
        scores = [(sum(map(sum, table.pairs(s, "kit", openings))), -i, s)
                  for i, s in enumerate(candidates.values())]
        return max(scores)[2]
    return {"tuned4": best(RETIRED), "tuned1": best(PRACTICE)}


# ----- designs ------------------------------------------------------------------------------
class Design:
    """A way to grade: the rungs, and whether the openings are drawn per student (else the
    four old ones for everybody)."""

    def __init__(self, name: str, rungs: Sequence[Rung], drawn: bool = True) -> None:
        self.name, self.rungs, self.drawn = name, tuple(rungs), drawn

    def games(self) -> int:
        return sum(2 * r.openings for r in self.rungs)


def cliff(name: str, openings: int, margin: float) -> Rung:
    """The old rule: all the points at ``margin`` or more, none below."""
    return Rung(name, openings=openings, zero=margin - 1e-9, full=margin)


RANDOM, WEAK = (0.75, 0.95), (0.5, 0.85)  # the random and weak rungs' scales


def scale(random: int, weak: int, kit: int, kit_scale: tuple[float, float]) -> list[Rung]:
    return [Rung("random", random, *RANDOM), Rung("weak", weak, *WEAK),
            Rung("kit", kit, *kit_scale)]


DESIGNS = [
    Design("old: 4 fixed openings, cliffs", [cliff("random", 4, .75), cliff("weak", 4, .6),
                                             cliff("kit", 4, .6)], drawn=False),
    Design("4 drawn, cliffs", [cliff("random", 4, .75), cliff("weak", 4, .6),
                               cliff("kit", 4, .6)]),
    Design("12/12/12, kit 35-65%", scale(12, 12, 12, (.35, .65))),
    Design("24/24/24, kit 35-65%", scale(24, 24, 24, (.35, .65))),
    Design("4/20/40, cliffs at 60%", [Rung("random", 4, *RANDOM), cliff("weak", 20, .6),
                                      cliff("kit", 40, .6)]),
    Design("4/20/40, kit 35-65%", scale(4, 20, 40, (.35, .65))),
    Design("4/20/40, kit 30-60% (chosen)", scale(4, 20, 40, (.30, .60))),
    Design("8/8/48, kit 30-60%", scale(8, 8, 48, (.30, .60))),
    Design("4/24/48, kit 30-60%", scale(4, 24, 48, (.30, .60))),
    # fewer games, as a course may set them (the kit's tests do, for most samples)
    Design("2/4/8, kit 30-60% (fewer games)", scale(2, 4, 8, (.30, .60))),
]
if tuple(LADDER) not in [tuple(d.rungs) for d in DESIGNS]:
    DESIGNS.append(Design("playgrade.LADDER", LADDER))


def simulate(table: Table, evals: dict[str, Spec], books: dict[str, list[str]],
             remote: dict[str, float] | None, students: int) -> None:
    import numpy as np

    designs = [d for d in DESIGNS if all(r.openings <= len(books[r.name]) for r in d.rungs)]
    if len(designs) < len(DESIGNS):
        print("(designs of more openings than the books hold are left out)")
    draws = {}
    for rung, book in books.items():
        where = {op: i for i, op in enumerate(book)}
        longest = min(max(r.openings for d in designs for r in d.rungs if r.name == rung),
                      len(book))
        draws[rung] = np.array([[where[op] for op in draw_openings(seed, longest, book)]
                                for seed in range(students)])
    means = {(n, r): np.array([(x + o) / 2 for x, o in table.pairs(spec, r, books[r])])
             for n, spec in evals.items() for r in RUNGS}
    old = {(n, r): table.pairs(spec, r, RETIRED) for n, spec in evals.items() for r in RUNGS}
    true = {k: float(v.mean()) for k, v in means.items()}

    print("\nTrue share (on the four old openings), per evaluation; books: " +
          ", ".join(f"{r} {len(b)} openings" for r, b in books.items()))
    print(f"{'evaluation':<14} {'random':>14} {'weak':>14} {'kit':>14}   weights")
    for name in sorted(evals, key=lambda n: -true[(n, "kit")]):
        cells = [f"{true[(name, r)]:6.1%} ({statistics.fmean(map(sum, old[(name, r)])) / 2:4.0%})"
                 for r in RUNGS]
        kind, arg = evals[name]
        print(f"{name:<14} " + " ".join(f"{c:>14}" for c in cells) +
              (f"   {arg}" if kind == "weights" else ""))

    print(f"\nDesigns ({students} students per evaluation); false fail / false pass: mean "
          "over the evaluations (worst one), on the kit rung and on the play points")
    print(f"{'design':<30} {'games':>5} {'kit: false fail':>15} {'false pass':>12} "
          f"{'play: false fail':>16} {'false pass':>12} {'10 pts apart: right':>19} "
          f"{'wrong':>6} {'tuned>=sol':>10} {'sol 6/6':>7} {'coverage':>8} {'seconds':>7}")
    chosen = None
    for design in designs:
        got = _one_design(design, evals, means, old, true, draws, books, table)
        secs = (sum(2 * r.openings * remote[r.name] for r in design.rungs)
                if remote else float("nan"))
        rates = " ".join(f"{statistics.fmean(got[k].values()):6.1%} ({max(got[k].values()):4.0%})"
                         for k in ("ff", "fp", "total_ff", "total_fp"))
        print(f"{design.name:<30} {design.games():>5}    {rates} "
              f"{got['separated']:>19.1%} {got['misordered']:>6.1%} {got['tuned']:>10.1%} "
              f"{got['solution']:>7.1%} {got['coverage']:>8.1%} {secs:>7.0f}")
        if design.rungs == tuple(LADDER):
            chosen = got
    if chosen is None:
        return
    print("\nThe chosen design, per evaluation: play points (of 6), mean ± SD over the "
          "students, false fail / false pass; kit rung: true share, mean observed, false fail"
          " / false pass")
    for name in sorted(evals, key=lambda n: -true[(n, "kit")]):
        pts = chosen["points"][name]
        print(f"{name:<14} {pts.mean():4.2f} ± {pts.std():4.2f}  "
              f"{chosen['total_ff'][name]:5.1%} / {chosen['total_fp'][name]:5.1%}   "
              f"{true[(name, 'kit')]:6.1%} {chosen['observed'][name]:6.1%}   "
              f"{chosen['ff'][name]:5.1%} / {chosen['fp'][name]:5.1%}")


def _one_design(design: Design, evals: dict[str, Spec], means: Any, old: Any, true: Any,
                draws: Any, books: dict[str, list[str]], table: Table) -> dict[str, Any]:
    import numpy as np

    kit = next(r for r in design.rungs if r.name == "kit")
    points, kit_share, cover = {}, {}, []
    students = len(draws["kit"]) if design.drawn else 1
    for name, spec in evals.items():
        total = np.zeros(students)
        for rung in design.rungs:
            if design.drawn:
                rows = draws[rung.name][:, :rung.openings]
                share = means[(name, rung.name)][rows].mean(axis=1)
            else:
                share = np.array([statistics.fmean(map(sum, old[(name, rung.name)])) / 2])
            total += np.vectorize(rung.earned, otypes=[float])(share)
            if rung.name == "kit":
                kit_share[name] = share
                if design.drawn:  # the stated interval, on the first 200 students
                    book = books["kit"]
                    for row in rows[:200]:
                        got = table.pairs(spec, "kit", [book[i] for i in row])
                        s, half = share_interval(got, len(book))
                        cover.append(abs(s - true[(name, "kit")]) <= half + 1e-12)
        points[name] = total
    ff = {n: float(np.mean([kit.earned(s) < kit.earned(true[(n, "kit")] - .1)
                            for s in kit_share[n]])) for n in evals}
    fp = {n: float(np.mean([kit.earned(s) > kit.earned(true[(n, "kit")] + .1)
                            for s in kit_share[n]])) for n in evals}

    def deserved(n: str, delta: float) -> float:  # every rung's true share moved by delta
        return sum(r.earned(min(max(true[(n, r.name)] + delta, 0.0), 1.0))
                   for r in design.rungs)
    total_ff = {n: float(np.mean(points[n] < deserved(n, -.1) - 1e-9)) for n in evals}
    total_fp = {n: float(np.mean(points[n] > deserved(n, .1) + 1e-9)) for n in evals}
    rng = np.random.default_rng(0)

    def beats(a: str, b: str, strict: bool = True) -> float:
        pa, pb = rng.choice(points[a], 4000), rng.choice(points[b], 4000)
        return float(np.mean(pa > pb if strict else pa >= pb))
    near = [(a, b) for a in evals for b in evals
            if .075 <= true[(a, "kit")] - true[(b, "kit")] <= .125]
    return {"ff": ff, "fp": fp, "total_ff": total_ff, "total_fp": total_fp,
            "misordered": statistics.fmean(beats(b, a) for a, b in near) if near else
            float("nan"),
            "separated": statistics.fmean(beats(a, b) for a, b in near) if near else
            float("nan"),
            "solution": float(np.mean(points["strong"] >= 6 - 1e-9)) if "strong" in points
            else float("nan"),
            "tuned": beats("tuned4", "strong", strict=False) if "tuned4" in points and
            "strong" in points else float("nan"),
            "coverage": statistics.fmean(cover) if cover else float("nan"),
            "points": points, "observed": {n: float(v.mean()) for n, v in kit_share.items()}}


# ----- the cost of a game ------------------------------------------------------------------------
def remote_cost(games_per_rung: int = 4) -> dict[str, float]:
    """Seconds a game of the solution takes against each rung, its evaluation in a sandboxed
    child answering batches of boards (as in autograde)."""
    import tempfile
    from functools import partial

    from minimaxkit.grading.evaluation import RemoteEvaluator, _values
    from minimaxkit.grading.remote import Session

    src = (SAMPLE_DIR / "strong.py").read_text().split("# %% evaluate\n", 1)[1]
    out = {}
    with Session(tempfile.mkdtemp(prefix="bench-a5-play-")) as session:
        session.start()
        session.run_cell(src)
        ev = RemoteEvaluator(session, "evaluate")
        you = Player("you", lambda states: _values(ev, states), BUDGET)
        for rung in RUNGS:
            opp, spent = plain_opponent(rung), []
            for opening in draw_openings(99, games_per_rung // 2):
                for x, o in ((you, opp), (opp, you)):
                    start = time.perf_counter()
                    ev.session(partial(play_game, x, o, opening), timeout=60.0)
                    spent.append(time.perf_counter() - start)
            out[rung] = statistics.median(spent)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="every evaluation and opening")
    ap.add_argument("--quick", action="store_true", help="the default: a part")
    ap.add_argument("--workers", type=int, default=1, help="processes playing the games")
    ap.add_argument("--no-remote", action="store_true", help="skip the sandboxed cost")
    ap.add_argument("--students", type=int, default=STUDENTS)
    ap.add_argument("--cache", type=Path, default=CACHE, help=f"default {CACHE}")
    args = ap.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()},"
          f" load {os.getloadavg()[0]:.1f}; {'full' if args.full else 'quick'} mode")
    start = time.perf_counter()
    vectors = weight_vectors(40, 28)
    table = Table(args.workers, args.cache)
    full: dict[str, Spec] = {f"w{i:02d}": ("weights", w) for i, w in enumerate(vectors)}
    full |= {s: ("sample", s) for s in SAMPLES}
    books = {"random": draw_openings(0, 48), "weak": draw_openings(0, 48), "kit": list(BOOK)}
    if args.full or all(table.has(full, [r], [*b, *RETIRED]) for r, b in books.items()):
        candidates = 200
    else:  # quick: a part, unless the cache holds the whole
        full = {f"w{i:02d}": ("weights", w) for i, w in enumerate(vectors[:4])}
        full |= {s: ("sample", s) for s in ("strong", "kit_own", "weak")}
        books = {"random": draw_openings(0, 8), "weak": draw_openings(0, 24),
                 "kit": draw_openings(0, 48)}
        candidates = 40
        print("quick: small books (run --full for the figures); a design that draws most of"
              " a book looks better here than it is")
    evals = full | tuned(table, candidates)
    for rung, book in books.items():
        table.fill(evals, [rung], [*book, *RETIRED])
    print(f"games ready: {time.perf_counter() - start:.0f} s; {len(evals)} evaluations")
    remote = None if args.no_remote else remote_cost()
    if remote:
        print("seconds a game through the sandboxed child (the solution): " +
              ", ".join(f"{k} {v:.2f}" for k, v in remote.items()))
    simulate(table, evals, books, remote, args.students)
    print(f"\n{time.perf_counter() - start:.0f} s in all, load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
