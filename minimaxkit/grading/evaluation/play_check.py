"""Assignment 5's play check: the student's evaluation, searched by the kit with a node budget
a move, plays each rung of the ladder from the class's openings, each opening as X and as
O; all the games side by side in one worker (:mod:`.lockstep`). Each rung earns points on its
scale (:mod:`.ladder`), moved down where the reference solution won less of the same games
(:mod:`.reference`), so that it earns all of them, and so does any evaluation that plays as
well.

>>> from minimaxkit.grading.evaluation.evaluators import LocalEvaluator
>>> plan = PlayPlan(ladder_of({"ladder": [{"name": "random", "openings": 1, "zero": 0.5,
...                                        "full": 1.0}]}), budget=60, openings=("33",))
>>> def centre(b):
...     won = {"X": 1000, "O": -1000}.get(b.winner() or "", 0)
...     return won or b.column(3).count("X") - b.column(3).count("O")
>>> report = check_play(LocalEvaluator(centre), plan, points=2)
>>> print(report.text())
play: 2 of 2 points
-------------------
✔ against random (60 nodes a move): won 100% (95% interval: 2% to 100%) of the points in 2 games (2
  won, 0 drawn, 0 lost): 2 of 2 points
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ...arena.game_pages import game_html, moves_text
from ...arena.matches import GameRecord, Player, kit_player, random_player, weak_player, wrong_move
from .evaluators import LocalEvaluator
from .feedback import EvaluationReport
from .ladder import Rung, ladder_of, rung_result
from .lockstep import Pairing, PlayLimits, forfeited, play_side_by_side

__all__ = ["PlayPlan", "check_play", "opponent", "MAX_SHOWN", "PLAY_CAP", "MEMO_CAP"]

MAX_SHOWN = 2  # lost games shown per feedback
MEMO_CAP = 200_000  # boards whose values the games remember (about 40 MB)
#: processor seconds for all of a submission's games, and seconds on the wall: a function
#: under the speed limit asks far fewer boards than PLAY_CAP[0] / limit, so only one slower in
#: the games than in the check meets the first, and only one that waits the second
PLAY_CAP = (500.0, 1200.0)
YOU = "you"  # the student's player, as the games name it
#: a leaf not yet valued is asked with all its next siblings (at most 6): with the games side
#: by side and one memo for all of them, half the requests of 2 ahead for the same boards
#: (docs/benchmarks.md)
AHEAD = 6


def opponent(name: str, budget: int) -> Player:
    """The ladder's reference player ``name`` (``random``, ``weak`` or ``kit``)."""
    if name == "random":
        return random_player()
    if name == "weak":
        return weak_player(budget)
    if name == "kit":
        return kit_player(budget)
    raise ValueError(f"tests.json: unknown ladder rung {name!r} (random, weak or kit)")


@dataclass(frozen=True)
class PlayPlan:
    """What the play check plays: the ``ladder``, ``budget`` nodes a move, and the class's
    ``openings`` (each rung plays its first ones), or with ``practice`` the practice openings
    (every rung plays them all). ``book_size``: the book the openings were drawn from (the
    stated interval takes the part drawn into account). ``reference``: per rung, the
    reference solution's share of the points of the same games."""

    ladder: tuple[Rung, ...]
    budget: int
    openings: tuple[str, ...]
    practice: bool = False
    book_size: int | None = None
    reference: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, spec: dict[str, Any], openings: Sequence[str], **more: Any) -> PlayPlan:
        """The plan of a play question of tests.json (``node_budget``, ``ladder``)."""
        return cls(ladder_of(spec), int(spec["node_budget"]), tuple(openings), **more)

    def rung_openings(self, rung: Rung) -> tuple[str, ...]:
        return self.openings if self.practice else self.openings[:rung.openings]

    def pairings(self) -> list[tuple[Rung, Pairing]]:
        """Every game, rung by rung, each opening as X then as O. A rung's opponent remembers
        its evaluation's values across the rung's games (its own evaluation: the games are
        the same, and cheaper)."""
        out = []
        for rung in self.ladder:
            opp = replace(opponent(rung.name, self.budget), memo={})
            out += [(rung, Pairing(opening, side, opp)) for opening in self.rung_openings(rung)
                    for side in "XO"]
        return out

    def practice_note(self) -> str:
        # the openings counted as the assignment's text counts them (a student saw "8
        # against random" here beside its "4 openings against random", with no word saying
        # which were games: outside student pass 7)
        graded = ", ".join(f"{r.openings}{' openings' if i == 0 else ''} against {r.who}"
                           for i, r in enumerate(self.ladder))
        total = sum(2 * r.openings for r in self.ladder)
        return (f"practice: the graded games, {total} of them, start from openings kept secret, "
                f"the same for the whole class ({graded}, each played as X and as O); here only "
                f"{' and '.join(f'the opening {moves_text(o)}' for o in self.openings)}, as X "
                "and as O, whose few games say little (see each ±)")


def check_play(ev: LocalEvaluator, plan: PlayPlan, *, points: float,
               no_games: str = "") -> EvaluationReport:
    """One item per rung: its games, its share with the 95% interval, its points. With
    ``no_games`` (why the function plays none: the correctness check's verdict), every game
    is forfeited with that reason."""
    report = EvaluationReport("play", points, scores=[],
                              note=plan.practice_note() if plan.practice else "")
    pairings = plan.pairings()
    games = _play(ev, plan, [p for _, p in pairings], no_games)
    lost: list[GameRecord] = []
    for rung in plan.ladder:
        mine = [g for (r, _), g in zip(pairings, games, strict=True) if r is rung]
        item, score = _rung_item(rung, mine, plan)
        report.items.append(item)
        report.names.append(f"against {rung.who}")
        report.scores = [*(report.scores or []), score]
        report.games += mine
        lost += [g for g in mine if g.result not in ("draw", _side(g)) and g.forfeit is None]
    report.views = [_lost_view(g, i) for i, g in enumerate(lost[:MAX_SHOWN])]
    return report


def _side(game: GameRecord) -> str:
    return "X" if game.x == YOU else "O"


def _play(ev: LocalEvaluator, plan: PlayPlan, pairings: list[Pairing],
          no_games: str) -> list[GameRecord]:
    """The games, side by side in one worker; all forfeited if the function may not play,
    its worker could not run them, or it was slower in them than the speed limit."""
    def all_forfeited(why: str) -> list[GameRecord]:
        return [forfeited(*_names(p), p.opening, p.side, why) for p in pairings]

    if no_games or ev.fatal:
        return all_forfeited(f"not played: {no_games or ev.fatal}")
    you = Player(YOU, None, plan.budget, memo={}, ahead=AHEAD)
    limits = PlayLimits(cpu=PLAY_CAP[0], wall=PLAY_CAP[1], memo=MEMO_CAP)
    played = ev.session(partial(play_side_by_side, pairings, ev, you, limits=limits),
                        timeout=PLAY_CAP[0], wall=0)
    if played is None:
        return all_forfeited(ev.fatal)
    if slow := ev.over_limit(games=True):
        return all_forfeited(slow)
    return list(played)


def _names(p: Pairing) -> tuple[str, str]:
    return (YOU, p.opponent.name) if p.side == "X" else (p.opponent.name, YOU)


def _rung_item(rung: Rung, games: list[GameRecord], plan: PlayPlan
               ) -> tuple[tuple[str, bool, str], tuple[float, float]]:
    """The rung's item ``(label, all its points, the first forfeit's reason)`` and its
    ``(earned, worth)``."""
    pairs = [(x.points(YOU), o.points(YOU)) for x, o in zip(games[::2], games[1::2],
                                                            strict=True)]
    result = rung_result(rung, pairs, None if plan.practice else plan.book_size,
                         reference=plan.reference.get(rung.name))
    forfeits = [g for g in games if g.forfeit == _side(g)]
    detail = f"forfeited {len(forfeits)}: {forfeits[0].reason}" if forfeits else ""
    said = result.text(opponent=False) if len(forfeits) < len(games) else (
        f"all its {len(games)} games forfeited: 0 of {rung.points:g} points")
    label = f"against {rung.who} ({plan.budget} nodes a move): {said}"
    earned = result.earned if len(forfeits) < len(games) else 0.0
    return (label, earned >= rung.points, detail), (earned, rung.points)


def _lost_view(game: GameRecord, index: int) -> str:
    found = wrong_move(game)
    mark, note = found if found else (None, "")
    return game_html(game, f"mmk-lost-{index}", mark=mark, note=note)
