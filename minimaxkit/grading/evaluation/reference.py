"""What the reference solution wins: its games against every rung from every opening of the
book, both colours, stored with the course beside the source notebook (``hidden_reference.json``
in ``solutions/a5_evaluation/``: nbgrader never releases a ``hidden_*`` file) and recomputed
by ``python -m minimaxkit.grading.refresh solutions/``. The play check counts a student's
share of a rung's points against the reference's share of the same games
(:meth:`~.ladder.Rung.scale_for`), so the reference earns every play point whatever the
class's openings are.

The stored games are checked against the source notebook's solution (a hash of its
``evaluate`` cell) and against the kit (the solution's two games from the practice opening
against the kit, played again): where they are out of date, the grader plays the games it
needs itself (a few seconds, once a process) and says so, once.

>>> here = Path(__file__).parents[3] / "solutions" / "a5_evaluation"
>>> table = ReferenceGames.load(here)
>>> table is not None and len(table.points["kit"]) == len(BOOK)
True
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...arena.matches import Player, play_game
from ...games.connect4_board import Board
from ..testdata.places import TESTS
from .evaluators import LocalEvaluator
from .ladder import BOOK, PRACTICE, Rung
from .lockstep import Pairing, play_side_by_side

__all__ = ["ReferenceGames", "REFERENCE_FILE", "reference_shares", "solution_source",
           "compute", "current", "refresh_reference", "stale_references"]

REFERENCE_FILE = "hidden_reference.json"
FORMAT = 1
RUNGS = ("random", "weak", "kit")


@dataclass(frozen=True)
class ReferenceGames:
    """The reference solution's points per rung and opening, ``(as X, as O)``, at ``budget``
    nodes a move; ``solution``: the hash of the code it was computed with; ``engine``: the
    moves of its two games from the practice opening against the kit, which change when the
    kit's search or players do."""

    budget: int
    solution: str
    engine: str
    points: Mapping[str, Mapping[str, tuple[float, float]]]

    def share(self, rung: Rung, openings: Sequence[str]) -> float | None:
        """The reference's share of the points of ``rung``'s games from ``openings`` (None
        if an opening is not stored)."""
        stored = self.points.get(rung.name, {})
        if not openings or any(o not in stored for o in openings):
            return None
        return sum(sum(stored[o]) for o in openings) / (2 * len(openings))

    def to_json(self) -> str:
        """The file's text: one line per rung, the openings in the book's order."""
        rungs = ",\n".join(f'  "{r}": ' + json.dumps(
            {o: [int(v) if v.is_integer() else v for v in p] for o, p in games.items()},
            separators=(",", ":")) for r, games in self.points.items())
        return (f'{{"format": {FORMAT}, "budget": {self.budget}, "solution": '
                f'"{self.solution}",\n "engine": "{self.engine}",\n "points": {{\n{rungs}}}}}\n')

    @classmethod
    def load(cls, here: Path) -> ReferenceGames | None:
        """The stored games beside ``here``'s tests.json; None if there are none or the file
        cannot be read."""
        try:
            data = json.loads((here / REFERENCE_FILE).read_text(encoding="utf-8"))
            points = {r: {o: (float(x), float(y)) for o, (x, y) in games.items()}
                      for r, games in data["points"].items()}
            return cls(int(data["budget"]), str(data["solution"]), str(data["engine"]), points)
        except (OSError, ValueError, KeyError, TypeError):
            return None


def solution_source(here: Path) -> str | None:
    """The code of the source notebook's ``evaluate`` solution cell (``here`` /
    ``<folder name>.ipynb``), without nbgrader's markers; None if there is none."""
    path = here / f"{here.name}.ipynb"
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError):
        return None
    for cell in cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "evaluate":
            text = "".join(cell["source"]) if isinstance(cell["source"], list) \
                else cell["source"]
            return "\n".join(ln for ln in text.splitlines()
                             if "BEGIN SOLUTION" not in ln and "END SOLUTION" not in ln)
    return None


def _evaluate(source: str) -> Callable[[Board], Any]:
    """The solution's ``evaluate``, run here (the instructor's own code, trusted)."""
    namespace: dict[str, Any] = {"__name__": "reference_solution"}
    exec(compile(source, "reference_solution", "exec"), namespace)  # noqa: S102
    return namespace["evaluate"]  # type: ignore[no-any-return]


def _hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=4)
def _engine(source: str, budget: int) -> str:
    """The moves of the solution's two games from the practice opening against the kit."""
    from .play_check import opponent

    you = Player("you", _batch(_evaluate(source)), budget)
    kit = opponent("kit", budget)
    games = [play_game(you, kit, PRACTICE[0]), play_game(kit, you, PRACTICE[0])]
    return hashlib.sha256(" ".join(g.moves for g in games).encode()).hexdigest()[:16]


def _batch(evaluate: Callable[[Board], Any]) -> Callable[[list[Any]], list[float]]:
    ev = LocalEvaluator(evaluate)

    def batch(states: list[Any]) -> list[float]:
        from .evaluators import checked

        return checked(ev.results(states), states)
    return batch


def compute(source: str, budget: int, openings: Mapping[str, Sequence[str]]) -> ReferenceGames:
    """The reference's games: per rung, from each of its ``openings``, both colours (all of
    them side by side in this process)."""
    from .play_check import opponent

    ev = LocalEvaluator(_evaluate(source))
    pairings = [(r, Pairing(o, side, opponent(r, budget)))
                for r, ops in openings.items() for o in ops for side in "XO"]
    games = play_side_by_side([p for _, p in pairings], ev,
                              Player("you", None, budget, memo={}, ahead=6))
    won = [g.points("you") for g in games]  # as X, as O: the pairings come in twos
    points: dict[str, dict[str, tuple[float, float]]] = {r: {} for r in openings}
    for i in range(0, len(pairings), 2):
        (rung, pairing), as_x, as_o = pairings[i], won[i], won[i + 1]
        points[rung][pairing.opening] = (as_x, as_o)
    return ReferenceGames(budget, _hash(source), _engine(source, budget), points)


def current(here: Path, budget: int) -> tuple[ReferenceGames | None, str]:
    """The stored games if they are those of ``here``'s solution with this kit, and why not
    if they are not (``""`` when they are)."""
    source = solution_source(here)
    if source is None:
        return None, f"{here / (here.name + '.ipynb')} has no evaluate solution cell"
    stored = ReferenceGames.load(here)
    if stored is None:
        return None, f"{here / REFERENCE_FILE} is missing or unreadable"
    if stored.budget != budget or stored.solution != _hash(source) or \
            stored.engine != _engine(source, budget):
        return None, (f"{here / REFERENCE_FILE} is out of date (the solution, the node "
                      "budget or the kit's search changed)")
    return stored, ""


@functools.lru_cache(maxsize=4)
def _played(source: str, budget: int, wanted: tuple[tuple[str, tuple[str, ...]], ...]
            ) -> ReferenceGames:
    return compute(source, budget, dict(wanted))


def reference_shares(here: Path, ladder: Sequence[Rung], budget: int,
                     openings: Sequence[str]) -> tuple[dict[str, float], str]:
    """Per rung, the reference solution's share of the points of the rung's games from the
    class's ``openings``: from the stored games when they are current, else played here
    (once a process); none if the course has no reference solution. And a warning for the
    instructor's log where the stored games could not be used (``""`` where they were)."""
    stored, why = current(here, budget)
    wanted = {r.name: tuple(openings[:r.openings]) for r in ladder}
    warning = ""
    if stored is None:
        source = solution_source(here)
        if source is None:
            return {}, (f"minimaxkit: {why}: assignment 5's play points are not counted "
                        "against the reference solution's")
        warning = (f"minimaxkit: {why}; the grader plays the reference solution's games "
                   "itself, once a process (python -m minimaxkit.grading.refresh solutions/ "
                   "stores them)")
        stored = _played(source, budget, tuple(wanted.items()))
    shares = {rung.name: share for rung in ladder
              if (share := stored.share(rung, wanted[rung.name])) is not None}
    return shares, warning


def refresh_reference(here: Path, budget: int, *, check: bool = False) -> bool:
    """Recompute ``here``'s stored games over the whole book if they are not current (with
    ``check``, only say whether they are not); True if they were out of date."""
    stored, _ = current(here, budget)
    if stored is not None:
        return False
    source = solution_source(here)
    if source is None or check:
        return source is not None
    table = compute(source, budget, dict.fromkeys(RUNGS, BOOK))
    (here / REFERENCE_FILE).write_text(table.to_json(), encoding="utf-8")
    return True


def stale_references(folder: Path, *, rewrite: bool = False) -> list[Path]:
    """The stored games under ``folder`` (each source folder whose tests.json has a play
    question) that are not current; with ``rewrite``, computed again (a few minutes each:
    the solution's 822 games)."""
    out = []
    for tests in sorted(folder.rglob(TESTS)):
        here = tests.parent
        try:
            questions = json.loads(tests.read_text(encoding="utf-8"))["questions"]
        except (OSError, ValueError, KeyError):
            continue
        plays = [q for q in questions.values()
                 if isinstance(q, dict) and q.get("kind") == "evaluation"
                 and q.get("check") == "play"]
        if plays and ".ipynb_checkpoints" not in here.parts and \
                refresh_reference(here, int(plays[0]["node_budget"]), check=not rewrite):
            out.append(here / REFERENCE_FILE)
    return out
