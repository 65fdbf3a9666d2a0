"""The one stream of events every search emits (:class:`Trace`), and the views derived from it.

A search records plain tuples (cheap); :attr:`Trace.events` turns them into the frozen
dataclasses of :mod:`.events` when asked.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import fields
from typing import Any

from ..errors import TraceError
from ..support.gc_pause import paused_gc
from .events import (
    CLASSES,
    CUTOFF,
    ENTER,
    EXIT,
    FIELDS,
    KIND_OF,
    LEAF,
    TTHIT,
    Cutoff,
    Event,
    Path,
    Stats,
)

__all__ = ["Trace"]


class Trace:
    """A search's events in order, with the views every other part of the kit reads."""

    def __init__(self, raw: Sequence[tuple[Any, ...]]) -> None:
        # a trace is a record: frozen, so every view of it stays in step
        self._raw: tuple[tuple[Any, ...], ...] = tuple(raw)
        self._events: tuple[Event, ...] | None = None
        self._stats: Stats | None = None
        self._walked = False

    @classmethod
    def of_walk(cls, raw: Sequence[tuple[Any, ...]]) -> Trace:
        """A trace whose paths are a depth-first walk by construction: each node's first
        event (enter, leaf or table hit) is at a child of the node of the event before it
        or of an ancestor, and its other events stay on that line. The searches' recursion
        makes theirs so, and so does the stack that :meth:`from_json` rebuilds paths on;
        :meth:`to_json` then writes the path steps without checking them again."""
        t = cls(raw)
        t._walked = True
        return t

    @classmethod
    def of(cls, events: list[Event]) -> Trace:
        """A trace made from event objects (for tests and hand-made traces)."""
        return cls([(KIND_OF[type(e)], *(getattr(e, f.name) for f in fields(e)))
                    for e in events])

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event as a frozen dataclass, in order (a tuple: a trace cannot change)."""
        if self._events is None:
            self._events = tuple(CLASSES[r[0]](*r[1:]) for r in self._raw)
        return self._events

    @property
    def raw(self) -> tuple[tuple[Any, ...], ...]:
        """The events as the search recorded them: ``(kind, path, field, ...)`` tuples, the
        fields in the order of the event's dataclass (the cheap form for long traces)."""
        return self._raw

    def event(self, i: int) -> Event:
        """Event ``i`` as a dataclass, built on its own (the others are not).

        >>> from minimaxkit import alphabeta
        >>> from minimaxkit.examples import sheet_tree
        >>> alphabeta(sheet_tree()).trace.event(-1)
        Exit(path=(), value=5, move=1)
        """
        if self._events is not None:
            return self._events[i]
        r = self._raw[i]
        return CLASSES[r[0]](*r[1:])  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, i: int) -> Event:
        return self.event(i)

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
        """Counts derived from the events (counted once: a trace does not change)."""
        if self._stats is not None:
            return self._stats
        counts = {ENTER: 0, LEAF: 0, CUTOFF: 0, EXIT: 0, TTHIT: 0}
        for r in self._raw:
            counts[r[0]] += 1
        self._stats = Stats(counts[ENTER] + counts[LEAF] + counts[TTHIT], counts[LEAF],
                            counts[ENTER], counts[CUTOFF], counts[TTHIT])
        return self._stats

    def upto(self, step: int) -> Trace:
        """The trace of the first ``step`` events (what a search had done by then)."""
        return Trace.of_walk(self._raw[:step]) if self._walked else Trace(self._raw[:step])

    # ----- JSON ---------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """The events as JSON-ready dicts (``{"event": "leaf", "path": [...], ...}``), the
        readable form the course's stored reference traces use."""
        return [{"event": r[0], **{k: _enc(v) for k, v in zip(FIELDS[r[0]], r[1:],
                                                               strict=True)}}
                for r in self._raw]

    def to_json(self, **kwargs: Any) -> str:
        """The events as compact JSON text in columns (version 4): ``kinds``, one letter per
        event; each event's path as ``up`` (levels up from the previous event's path) and
        ``child`` (the child index then taken plus one, 0 for none), with ``tails`` listing
        the rare events whose path goes down more than one level; and per kind one column
        per field (``pruned`` flattened, with a count per cut-off; ``depth`` null when each
        depth is the path's length). A column of whole numbers 0..63 (or of booleans) is a
        string, one character of ``0-9A-Za-z-_`` per number; a column of at most 64
        distinct values is ``{"palette": [values], "codes": string}``, a character per
        event that numbers its value in the palette; any other column is a list. ±∞ are
        written as the numbers 1e999 and -1e999. :meth:`from_json` reads this, version 3
        (the same without palettes), version 2 (a list per event) and the list of
        :meth:`rows`.

        >>> from minimaxkit import alphabeta
        >>> from minimaxkit.examples import sheet_tree
        >>> data = json.loads(alphabeta(sheet_tree()).trace.to_json())
        >>> data["version"], data["kinds"][:8], data["up"][:8], data["child"][:8]
        (4, 'eeelllxe', '00001111', '01112302')
        >>> data["leaf"]["value"][:6], data["leaf"]["alpha"]
        ('873924', {'palette': [-inf, 2, 4, 5, 8], 'codes': '0440012222222333'})
        """
        from .codec import dump_v4

        with paused_gc():
            return dump_v4(self._raw, kwargs, self._walked)

    @classmethod
    def from_json(cls, text: str) -> Trace:
        """The trace of :meth:`to_json`'s text (version 3 or the older version 2), or of a
        list of :meth:`rows`. A malformed event raises :class:`~minimaxkit.errors.TraceError`
        with the event's index.

        >>> Trace.from_json('{"format": "minimaxkit-trace", "version": 3, "kinds": "ex",'
        ...                 ' "up": [0, 0], "child": [0, 0], "tails": [],'
        ...                 ' "enter": {"alpha": [0], "beta": [1], "is_max": [true],'
        ...                 ' "depth": [0]}, "exit": {"value": ["high"], "move": [null]}}')
        Traceback (most recent call last):
        ...
        minimaxkit.errors.TraceError: event 1: value must be a number, got 'high'
        """
        from .codec import decode, decode_all, load_v4

        data = json.loads(text)
        if isinstance(data, dict):
            version = data.get("version")
            if data.get("format") != "minimaxkit-trace" or version not in (2, 3, 4):
                raise TraceError(None, "not a minimaxkit trace (expected format "
                                       "'minimaxkit-trace', version 2, 3 or 4)")
            if version in (3, 4):
                with paused_gc(settle=True):
                    events, walked = load_v4(data)
                return cls.of_walk(events) if walked else cls(events)
            if not isinstance(data.get("events"), list):
                raise TraceError(None, "a version 2 trace needs a list of events")
            return cls(decode_all(data["events"]))
        if not isinstance(data, list):
            raise TraceError(None, f"expected a list of events, got {type(data).__name__}")
        out = []
        for i, row in enumerate(data):
            if not isinstance(row, dict) or row.get("event") not in FIELDS:
                raise TraceError(i, f"expected an object with 'event' one of "
                                    f"{sorted(FIELDS)}, got {row!r:.80}")
            missing = [k for k in FIELDS[row["event"]] if k not in row]
            if missing:
                raise TraceError(i, f"a {row['event']!r} event lacks {missing}")
            out.append(decode(i, [row["event"], *(row[k] for k in FIELDS[row["event"]])]))
        return cls(out)


def _enc(v: Any) -> Any:
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return list(v) if isinstance(v, tuple) else v
