"""The one stream of events every search emits, and the views derived from it.

α and β are always given from MAX's point of view. A search records plain tuples (cheap);
:attr:`Trace.events` turns them into the frozen dataclasses below when asked.

>>> from minimaxkit import GameTree, alphabeta
>>> t = alphabeta(GameTree.from_nested([[3, 12, 8], [2, 4, 6]])).trace
>>> t.events[1]
Enter(path=(0,), alpha=-inf, beta=inf, is_max=False, depth=1)
>>> t.leaves
[(0, 0), (0, 1), (0, 2), (1, 0)]
>>> t.cutoffs
[Cutoff(path=(1,), value=2, bound=3, kind='alpha', pruned=(1, 2))]
>>> Trace.from_json(t.to_json()) == t
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

__all__ = ["Enter", "Leaf", "Cutoff", "Exit", "TTHit", "Event", "Trace", "Stats", "Path"]

Path = tuple[int, ...]
ENTER, LEAF, CUTOFF, EXIT, TTHIT = "enter", "leaf", "cutoff", "exit", "tt"


@dataclass(frozen=True)
class Enter:
    """An interior node is entered with the window (α, β)."""

    path: Path
    alpha: float
    beta: float
    is_max: bool
    depth: int


@dataclass(frozen=True)
class Leaf:
    """A node is evaluated statically (terminal, or at the depth limit); no Enter/Exit."""

    path: Path
    value: float
    alpha: float
    beta: float
    is_max: bool
    depth: int


@dataclass(frozen=True)
class Cutoff:
    """The node stops early: ``kind`` is ``"beta"`` (a MAX node reached β), ``"alpha"`` (a MIN
    node reached α) or ``"best"`` (simple pruning reached the best possible value);
    ``pruned`` lists the natural indices of the children left unsearched."""

    path: Path
    value: float
    bound: float
    kind: Literal["alpha", "beta", "best"]
    pruned: tuple[int, ...]


@dataclass(frozen=True)
class Exit:
    """An interior node returns ``value``; ``move`` is the natural index of its best child."""

    path: Path
    value: float
    move: int | None


@dataclass(frozen=True)
class TTHit:
    """A transposition-table entry answered the node."""

    path: Path
    value: float
    flag: Literal["exact", "lower", "upper"]


Event = Enter | Leaf | Cutoff | Exit | TTHit
_CLASSES: dict[str, type] = {ENTER: Enter, LEAF: Leaf, CUTOFF: Cutoff, EXIT: Exit, TTHIT: TTHit}
_KIND_OF = {cls: kind for kind, cls in _CLASSES.items()}


@dataclass(frozen=True)
class Stats:
    """Counts of one search. ``nodes`` = expanded + leaves + tt_hits."""

    nodes: int
    leaves: int
    expanded: int
    cutoffs: int
    tt_hits: int = 0


class Trace:
    """A search's events in order, with the views every other part of the kit reads."""

    def __init__(self, raw: list[tuple[Any, ...]]) -> None:
        self._raw = raw
        self._events: list[Event] | None = None

    @classmethod
    def of(cls, events: list[Event]) -> Trace:
        """A trace made from event objects (for tests and hand-made traces)."""
        return cls([(_KIND_OF[type(e)], *(getattr(e, f.name) for f in fields(e)))
                    for e in events])

    @property
    def events(self) -> list[Event]:
        """Every event as a dataclass, in order."""
        if self._events is None:
            self._events = [_CLASSES[r[0]](*r[1:]) for r in self._raw]
        return self._events

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, i: int) -> Event:
        return self.events[i]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trace) and self._raw == other._raw

    def __repr__(self) -> str:
        s = self.stats
        return (f"<Trace: {len(self)} events, {s.nodes} nodes, {s.leaves} leaves, "
                f"{s.cutoffs} cut-offs>")

    # ----- views -------------------------------------------------------------------------
    @property
    def leaves(self) -> list[Path]:
        """Paths of the statically evaluated nodes, in evaluation order."""
        return [r[1] for r in self._raw if r[0] == LEAF]

    @property
    def leaf_values(self) -> list[float]:
        """The values of :attr:`leaves`, in the same order."""
        return [r[2] for r in self._raw if r[0] == LEAF]

    @property
    def visited(self) -> list[Path]:
        """Paths of every node the search reached (entered, evaluated or found in the table)."""
        return [r[1] for r in self._raw if r[0] in (ENTER, LEAF, TTHIT)]

    @property
    def expanded(self) -> list[Path]:
        """Paths of the interior nodes entered, in order."""
        return [r[1] for r in self._raw if r[0] == ENTER]

    @property
    def cutoffs(self) -> list[Cutoff]:
        """The cut-off events, in order."""
        return [Cutoff(*r[1:]) for r in self._raw if r[0] == CUTOFF]

    @property
    def pruned(self) -> list[Path]:
        """Paths of the roots of the subtrees a cut-off left unsearched."""
        return [r[1] + (i,) for r in self._raw if r[0] == CUTOFF for i in r[5]]

    @property
    def values(self) -> dict[Path, float]:
        """Path -> the value the node returned (leaves, exits and table hits)."""
        out: dict[Path, float] = {}
        for r in self._raw:
            if r[0] in (LEAF, EXIT, TTHIT):
                out[r[1]] = r[2]
        return out

    @property
    def best_moves(self) -> dict[Path, int | None]:
        """Path -> natural index of the best child, for every exited node."""
        return {r[1]: r[3] for r in self._raw if r[0] == EXIT}

    @property
    def stats(self) -> Stats:
        """Counts derived from the events."""
        counts = {ENTER: 0, LEAF: 0, CUTOFF: 0, EXIT: 0, TTHIT: 0}
        for r in self._raw:
            counts[r[0]] += 1
        return Stats(counts[ENTER] + counts[LEAF] + counts[TTHIT], counts[LEAF], counts[ENTER],
                     counts[CUTOFF], counts[TTHIT])

    def upto(self, step: int) -> Trace:
        """The trace of the first ``step`` events (what a search had done by then)."""
        return Trace(self._raw[:step])

    # ----- JSON ---------------------------------------------------------------------------
    def to_json(self, **kwargs: Any) -> str:
        """The events as JSON text; ±∞ are written as the strings "inf" and "-inf"."""
        rows = [{"event": _KIND_OF[type(e)], **{k: _enc(v) for k, v in asdict(e).items()}}
                for e in self.events]
        return json.dumps(rows, **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Trace:
        """The trace of :meth:`to_json`'s text."""
        raw = []
        for row in json.loads(text):
            kind = row.pop("event")
            names = [f.name for f in fields(_CLASSES[kind])]
            raw.append((kind, *(_dec(k, row[k]) for k in names)))
        return cls(raw)


def _enc(v: Any) -> Any:
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return list(v) if isinstance(v, tuple) else v


def _dec(name: str, v: Any) -> Any:
    if v in ("inf", "-inf"):
        return float(v)
    if name in ("path", "pruned"):
        return tuple(v)
    return v
