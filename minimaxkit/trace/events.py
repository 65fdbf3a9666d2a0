"""The events every search emits, one frozen dataclass per kind, and the counts of a search.

α and β are always given from MAX's point of view. A search records plain tuples (cheap);
:attr:`~minimaxkit.trace.Trace.events` turns them into these dataclasses when asked.

>>> import math
>>> Enter((0,), -math.inf, math.inf, False, 1)
Enter(path=(0,), alpha=-inf, beta=inf, is_max=False, depth=1)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

__all__ = ["Enter", "Leaf", "Cutoff", "Exit", "TTHit", "Event", "Stats", "Path",
           "ENTER", "LEAF", "CUTOFF", "EXIT", "TTHIT", "CLASSES", "KIND_OF", "FIELDS"]

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
#: each kind's event class, each class's kind, and each kind's field names
CLASSES: dict[str, type] = {ENTER: Enter, LEAF: Leaf, CUTOFF: Cutoff, EXIT: Exit, TTHIT: TTHit}
KIND_OF = {cls: kind for kind, cls in CLASSES.items()}
FIELDS = {kind: tuple(f.name for f in fields(cls)) for kind, cls in CLASSES.items()}


@dataclass(frozen=True)
class Stats:
    """Counts of one search. ``nodes`` = expanded + leaves + tt_hits."""

    nodes: int
    leaves: int
    expanded: int
    cutoffs: int
    tt_hits: int = 0
