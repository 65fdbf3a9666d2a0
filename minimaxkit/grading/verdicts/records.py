"""A question's verdict as it travels to the class report: typed records, stored as JSON in the
graded test cell's metadata (``cell.metadata["minimaxkit"]["verdict"]``) and read back.

>>> record = VerdictRecord("alphabeta", 7.0, 3.5, None, ("no_pruning",), "", True,
...                        (TreeRecord("sheet", "visible", 0.5, "ok"),))
>>> VerdictRecord.read(record.to_json()) == record
True
>>> VerdictRecord.read({"question": "q", "trees": [{"name": "t"}]}).trees[0].score
0.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ConventionRecord", "Parted", "TreeRecord", "VerdictRecord"]


@dataclass(frozen=True)
class ConventionRecord:
    """The convention a submission was graded under: its name, words, why, and whether it is
    said to be the student's (``claimed``) or only the lectures' one compared with."""

    name: str
    label: str
    why: str
    claimed: bool = True


@dataclass(frozen=True)
class Parted:
    """Where a tree's search parted from the reference: the node's name and the words."""

    node: str | None
    text: str


@dataclass(frozen=True)
class TreeRecord:
    """One tree of a verdict: its name, visible/hidden/seeded, score, how the function ended
    there ("ok", "raised", "timeout"...), the bugs named for it alone, where it parted, and
    whether its picture is the one the cell shows."""

    name: str
    kind: str
    score: float
    status: str = "ok"
    bugs: tuple[str, ...] = ()
    parted: Parted | None = None
    pictured: bool = False

    @property
    def finished(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class VerdictRecord:
    """A question's verdict: points, the convention, the bugs that account for every tree
    (``bugs``) and where the first shows, whether the function finished on some tree, the
    trees."""

    question: str
    points: float
    earned: float
    convention: ConventionRecord | None
    bugs: tuple[str, ...]
    shown: str
    finished: bool
    trees: tuple[TreeRecord, ...]

    @property
    def fits_some(self) -> tuple[str, ...]:
        """Bugs named for some trees only (when none accounts for every tree)."""
        return tuple(dict.fromkeys(b for t in self.trees for b in t.bugs))

    def to_json(self) -> dict[str, Any]:
        c = self.convention
        return {"question": self.question, "points": self.points, "earned": self.earned,
                "convention": c and {"name": c.name, "label": c.label, "why": c.why,
                                     "claimed": c.claimed},
                "bugs": list(self.bugs), "shown": self.shown, "finished": self.finished,
                "trees": [{"name": t.name, "kind": t.kind, "score": t.score,
                           "status": t.status, "bugs": list(t.bugs),
                           "parted": t.parted and {"node": t.parted.node,
                                                   "text": t.parted.text},
                           "pictured": t.pictured} for t in self.trees]}

    @classmethod
    def read(cls, data: dict[str, Any]) -> VerdictRecord:
        """A stored verdict (older ones, without ``finished`` or ``claimed``, too)."""
        trees = tuple(_tree(t) for t in data.get("trees", []) if isinstance(t, dict))
        conv = data.get("convention")
        return cls(str(data.get("question", "")), float(data.get("points", 0)),
                   float(data.get("earned", 0)),
                   ConventionRecord(str(conv.get("name", "")), str(conv.get("label", "")),
                                    str(conv.get("why", "")), bool(conv.get("claimed", True)))
                   if isinstance(conv, dict) else None,
                   tuple(str(b) for b in data.get("bugs", [])), str(data.get("shown", "")),
                   bool(data.get("finished", any(t.finished for t in trees))), trees)


def _tree(data: dict[str, Any]) -> TreeRecord:
    parted = data.get("parted")
    return TreeRecord(str(data.get("name", "")), str(data.get("kind", "visible")),
                      float(data.get("score", 0)), str(data.get("status", "ok")),
                      tuple(str(b) for b in data.get("bugs", [])),
                      Parted(parted.get("node"), str(parted.get("text", "")))
                      if isinstance(parted, dict) else None, bool(data.get("pictured")))
