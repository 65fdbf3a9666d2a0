"""Assignment 5's verdict of one test cell: items that share the points, the games played,
and step-throughs of the lost ones.

>>> r = EvaluationReport("play", 6, items=[("a", True, ""), ("b", False, "why")])
>>> r.earned, r.text().splitlines()[0]
(3.0, 'play: 3 of 6 points')
>>> [item["passed"] for item in r.data()["items"]]
[True, False]

Items on a scale (the play rungs) say what each earned of what it is worth, and a rung that
earned part of its points is marked as partial, not as failed:

>>> r = EvaluationReport("play", 4, items=[("a", True, ""), ("b", False, "")],
...                      scores=[(2.0, 2.0), (1.3, 2.0)])
>>> r.earned, r.text().splitlines()[0], r.text().splitlines()[3]
(3.3, 'play: 3.3 of 4 points', '◐ b')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...arena.matches import GameRecord
from ...support.text import wrap

__all__ = ["EvaluationReport", "FULL", "PART", "NONE"]

#: how an item is marked: all its points, part of them, none
FULL, PART, NONE = "✔", "◐", "✘"


@dataclass
class EvaluationReport:
    """One test cell's verdict: items ``(label, passed, detail)`` sharing ``points``, the
    games played, and HTML step-throughs of the lost ones."""

    question: str
    points: float
    items: list[tuple[str, bool, str]] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    note: str = ""
    #: why the function plays no games (the correctness check's verdict on its speed, or
    #: that it could not be checked), in the student's words; "" when it plays
    no_games: str = ""
    #: the correctness check's measure of speed, recorded in the autograded notebook
    #: (``ms_per_board``, ``limit_ms``, ``too_slow``, ``boards``); None where not measured
    speed: dict[str, Any] | None = None
    #: per item, ``(earned, worth)`` where items earn on a scale (a play rung's points);
    #: None where each passed item earns an equal share
    scores: list[tuple[float, float]] | None = None
    #: per item, the few words it goes by in a one-line summary ("against weak": a rung's
    #: label also says its budget and games); [] where the labels are short already
    names: list[str] = field(default_factory=list)
    #: a warning about the course for the instructor's log, never shown to the student
    #: (the reference solution's stored games out of date)
    course_warning: str = ""

    @property
    def earned(self) -> float:
        """The share of the points the items earn: the passed ones' equal shares, or the
        items' :attr:`scores` scaled to :attr:`points`."""
        if not self.items:
            return 0.0
        if self.scores is not None:
            worth = sum(w for _, w in self.scores)
            return round(self.points * sum(e for e, _ in self.scores) / worth, 2) if worth \
                else 0.0
        return round(self.points * sum(ok for _, ok, _ in self.items) / len(self.items), 2)

    def item_points(self) -> list[tuple[str, float, float]]:
        """Per item on a scale (a play rung), ``(its name, points earned, points it is
        worth)`` in the cell's points; [] where each passed item earns an equal share.

        >>> r = EvaluationReport("play", 6, [("against weak", False, ""),
        ...                                  ("against the kit", False, "")],
        ...                      scores=[(0.5, 1.0), (0.0, 2.0)])
        >>> r.item_points()
        [('against weak', 1.0, 2.0), ('against the kit', 0.0, 4.0)]
        """
        worth = sum(w for _, w in self.scores or [])
        if self.scores is None or not worth:
            return []
        names = self.names or [label for label, _, _ in self.items]
        return [(name, round(self.points * e / worth, 2), round(self.points * w / worth, 2))
                for name, (e, w) in zip(names, self.scores, strict=True)]

    def mark(self, index: int) -> str:
        """Item ``index``'s mark: :data:`FULL`, :data:`PART` (some of its points, on a
        scale) or :data:`NONE`."""
        if self.scores is not None:
            earned, worth = self.scores[index]
            return FULL if earned >= worth else PART if earned > 0 else NONE
        return FULL if self.items[index][1] else NONE

    def text(self) -> str:
        """The verdict in words, each line folded at 100 columns as the other assignments'
        are (a feedback page does not wrap printed text)."""
        head = f"{self.question}: {self.earned:g} of {self.points:g} points"
        lines = [head, "-" * len(head)]
        if self.note:
            lines += wrap(self.note)
        for i, (label, _, detail) in enumerate(self.items):
            lines += wrap(f"{self.mark(i)} {label}")
            lines += [w for d in detail.splitlines() if d for w in wrap(f"    {d}")]
        return "\n".join(lines)

    def data(self) -> dict[str, Any]:
        """The verdict as plain data (JSON), for the class report: the items, and per rung
        (the opponent) the games won, drawn, lost and forfeited."""
        rungs: dict[str, dict[str, int]] = {}
        for g in self.games:
            side = "X" if g.x == "you" else "O"
            n = rungs.setdefault(g.o if side == "X" else g.x,
                                 dict.fromkeys(("won", "drawn", "lost", "forfeited"), 0))
            n["won" if g.result == side else "drawn" if g.result == "draw" else "lost"] += 1
            n["forfeited"] += g.forfeit == side
        return {"question": self.question, "points": self.points, "earned": self.earned,
                "items": [{"label": a, "passed": ok, "detail": b,
                           **({"earned": self.scores[i][0], "worth": self.scores[i][1]}
                              if self.scores is not None else {})}
                          for i, (a, ok, b) in enumerate(self.items)],
                "rungs": rungs}

    def parts(self, notes: list[str] = ()) -> list[tuple[str, str]]:  # type: ignore[assignment]
        """The verdict as shown: the text and ``notes``, then the lost games (HTML)."""
        out = [("text", "\n".join([self.text(), *notes]))]
        if self.views:
            out.append(("html", "".join(self.views)))
        return out
