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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

from .errors import TraceError

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
_FIELDS = {kind: tuple(f.name for f in fields(cls)) for kind, cls in _CLASSES.items()}


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

    def __init__(self, raw: Sequence[tuple[Any, ...]]) -> None:
        # a trace is a record: frozen, so every view of it stays in step
        self._raw: tuple[tuple[Any, ...], ...] = tuple(raw)
        self._events: tuple[Event, ...] | None = None

    @classmethod
    def of(cls, events: list[Event]) -> Trace:
        """A trace made from event objects (for tests and hand-made traces)."""
        return cls([(_KIND_OF[type(e)], *(getattr(e, f.name) for f in fields(e)))
                    for e in events])

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event as a frozen dataclass, in order (a tuple: a trace cannot change)."""
        if self._events is None:
            self._events = tuple(_CLASSES[r[0]](*r[1:]) for r in self._raw)
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
    def rows(self) -> list[dict[str, Any]]:
        """The events as JSON-ready dicts (``{"event": "leaf", "path": [...], ...}``), the
        readable form the course's stored reference traces use."""
        return [{"event": r[0], **{k: _enc(v) for k, v in zip(_FIELDS[r[0]], r[1:],
                                                               strict=True)}}
                for r in self._raw]

    def to_json(self, **kwargs: Any) -> str:
        """The events as compact JSON text: ``{"format": "minimaxkit-trace", "version": 2,
        "fields": {...}, "events": [[kind, field, ...], ...]}``, each event's fields in the
        order ``fields`` names; ±∞ are written as the numbers 1e999 and -1e999.
        :meth:`from_json` reads this and the older list of :meth:`rows`."""
        body = json.dumps(self._raw, **kwargs)
        # ±∞ appear only as numbers (kinds and flags are short fixed words); 1e999 is a
        # standard JSON number that every reader takes as infinity
        body = body.replace("Infinity", "1e999")
        head = json.dumps({"format": "minimaxkit-trace", "version": 2,
                           "fields": {k: list(v) for k, v in _FIELDS.items()}})
        return head[:-1] + ', "events": ' + body + "}"

    @classmethod
    def from_json(cls, text: str) -> Trace:
        """The trace of :meth:`to_json`'s text (or of a list of :meth:`rows`). A malformed
        event raises :class:`~minimaxkit.errors.TraceError` with the event's index."""
        data = json.loads(text)
        if isinstance(data, dict):
            if data.get("format") != "minimaxkit-trace" or data.get("version") != 2 \
                    or not isinstance(data.get("events"), list):
                raise TraceError(None, "not a minimaxkit trace (expected format "
                                       "'minimaxkit-trace', version 2, and a list of events)")
            return cls(_decode_all(data["events"]))
        if not isinstance(data, list):
            raise TraceError(None, f"expected a list of events, got {type(data).__name__}")
        out = []
        for i, row in enumerate(data):
            if not isinstance(row, dict) or row.get("event") not in _FIELDS:
                raise TraceError(i, f"expected an object with 'event' one of "
                                    f"{sorted(_FIELDS)}, got {row!r:.80}")
            missing = [k for k in _FIELDS[row["event"]] if k not in row]
            if missing:
                raise TraceError(i, f"a {row['event']!r} event lacks {missing}")
            out.append(_decode(i, [row["event"], *(row[k] for k in _FIELDS[row["event"]])]))
        return cls(out)


def _decode_all(rows: list[Any]) -> list[tuple[Any, ...]]:
    """The events of the compact form; a row of the wrong shape goes to :func:`_decode`,
    which names what is wrong with it."""
    out: list[tuple[Any, ...]] = []
    append, sizes = out.append, _SIZES
    for i, row in enumerate(rows):
        if type(row) is not list or not row or sizes.get(row[0]) != len(row) \
                or type(row[1]) is not list:
            append(_decode(i, row))
        elif row[0] == CUTOFF:
            append((CUTOFF, tuple(row[1]), row[2], row[3], row[4], tuple(row[5])))
        else:
            append((row[0], tuple(row[1]), *row[2:]))
    return out


def _decode(i: int, row: Any) -> tuple[Any, ...]:
    """One event from its JSON list form, checked: kind, field count, paths of ints,
    numbers (or "inf"/"-inf") where numbers belong."""
    if not isinstance(row, list) or not row or row[0] not in _FIELDS:
        raise TraceError(i, f"expected [kind, ...] with kind one of {sorted(_FIELDS)}, "
                            f"got {row!r:.80}")
    kind, names = row[0], _FIELDS[row[0]]
    if len(row) != len(names) + 1:
        raise TraceError(i, f"a {kind!r} event has {len(names)} fields {list(names)}, "
                            f"got {len(row) - 1}")
    out: list[Any] = [kind]
    for name, v in zip(names, row[1:], strict=True):
        if name in ("path", "pruned"):
            if not isinstance(v, list) or not all(type(x) is int for x in v):
                raise TraceError(i, f"{name} must be a list of child indices, got {v!r:.80}")
            v = tuple(v)
        elif name in _NUMBERS:
            if v in ("inf", "-inf"):
                v = float(v)
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TraceError(i, f"{name} must be a number, got {v!r:.80}")
        out.append(v)
    return tuple(out)


_NUMBERS = {"alpha", "beta", "value", "bound"}
_SIZES = {kind: len(names) + 1 for kind, names in _FIELDS.items()}


def _enc(v: Any) -> Any:
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return list(v) if isinstance(v, tuple) else v
