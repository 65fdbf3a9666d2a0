"""An alpha-beta run written as a hand trace: the table a student fills in on paper.

The example sheet with a hand trace traces alpha-beta on its 27-leaf tree as a table: one
pair of columns (α, β) per level of the tree, a column of static values, and a note. A row
records one of four things, and :func:`hand_table` reads the same rows off a search's trace:

* ``("window", depth, α, β)``: a node at ``depth`` is entered with the window (α, β);
* ``("static", depth, value, note)``: the static value of a leaf below a node at ``depth``;
  ``note`` is ``""`` when the value becomes its parent's new bound (the sheet writes it in
  the α or β column too), ``"not used"`` when it leaves the bound as it was, ``"stop"`` when
  it makes the parent stop (a cut);
* ``("bound", depth, "α" | "β", value, note)``: a child's returned value changes the bound
  of its parent at ``depth`` (note ``""``), or makes the parent stop (note ``"stop"``);
* ``("up", value)``: a node passes ``value`` up to its parent (the sheet's "<- value").

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_binary
>>> print(hand_table(alphabeta(sheet_binary(), fail="one-sided")))
  MAX        MIN
   α      β   α      β    static
   -∞     ∞    -∞     ∞
                      2   2
                          7  (not used)
                             <- 2
    2           2     ∞
                      1   1  (stop)
                             <- 1
                             <- 2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..trace import Cutoff, Enter, Exit, Leaf

__all__ = ["HandTable", "hand_table"]

Row = tuple[Any, ...]


def _num(v: float) -> str:
    if v == math.inf:
        return "∞"
    if v == -math.inf:
        return "-∞"
    return f"{v:g}"


def _shape(row: Row) -> tuple[Any, ...]:
    """What a row is, without its values: its kind and, but for "up", its level."""
    return row[:1] if row[0] == "up" else row[:2]


@dataclass(frozen=True)
class HandTable:
    """The rows of a hand trace (see the module's docstring) and who moves at each level;
    shows itself as the sheet's columns: α and β per level, the static value, a note."""

    rows: tuple[Row, ...]
    levels: tuple[bool, ...]  # is_max of each interior level, from the root down
    #: The example sheet's loop keeps its value in α (β) itself, so the value that makes a
    #: node stop is written in that column; a fail-soft node stops with the value in its own
    #: ``v`` and leaves α and β as they were, so the table writes that ``v`` in the note.
    fail_hard: bool = True

    def lines(self) -> list[str]:
        """The table as text, headed by the levels' names. As on the sheet, the windows
        and bounds that change together (one per level, going down) share a line."""
        width = 6
        head = "".join(f"{'MAX' if mx else 'MIN':>{width - 1}} {'':>{width - 1}}"
                       for mx in self.levels)
        out = [head.rstrip(), "".join(f"{'α':>{width - 2}}  {'β':>{width - 1}}"
                                      for _ in self.levels) + "    static"]
        static_at = 2 * width * len(self.levels)
        for cells, static, note in self._layout():
            text = "".join(f"{c:>{width - 1}} " for c in cells)
            out.append(f"{text:<{static_at}}{static:>3}  {note}".rstrip())
        return out

    def _layout(self) -> list[tuple[list[str], str, str]]:
        out: list[tuple[list[str], str, str]] = []
        deepest = -1  # the level of the last window or bound on the current line, if any
        for row in self.rows:
            kind = row[0]
            if kind in ("window", "bound") and deepest < row[1] and out and not out[-1][2]:
                cells = out[-1][0]
            else:
                cells = [""] * (2 * len(self.levels))
                out.append((cells, "", ""))
            deepest = row[1] if kind in ("window", "bound") else len(self.levels)
            if kind == "window":
                cells[2 * row[1]], cells[2 * row[1] + 1] = _num(row[2]), _num(row[3])
            elif kind == "bound":
                if self.fail_hard or row[4] != "stop":
                    cells[2 * row[1] + (row[2] == "β")] = _num(row[3])
                if row[4] == "stop":
                    note = "(stop)" if self.fail_hard else f"(stop: v = {_num(row[3])})"
                    out[-1] = (cells, "", note)
            elif kind == "static":
                depth, value, note = row[1:]
                if note == "" or (note == "stop" and self.fail_hard):
                    cells[2 * depth + (not self.levels[depth])] = _num(value)
                out[-1] = (cells, _num(value), f"({note})" if note else "")
            else:
                out[-1] = (cells, "", f"<- {_num(row[1])}")
        return out

    def __repr__(self) -> str:
        return "\n".join(self.lines())

    def __str__(self) -> str:
        return repr(self)

    def beside(self, other: HandTable, labels: Sequence[str] = ("", "")) -> str:
        """This table and ``other`` side by side, row against row, rows that differ
        marked ``◀``; the tables must have the same rows except for their values.

        >>> from minimaxkit import alphabeta
        >>> from minimaxkit.examples import sheet_binary
        >>> t = hand_table(alphabeta(sheet_binary()))
        >>> t.beside(t).count("◀")
        0
        """
        left, right = self.lines(), other.lines()
        if list(map(_shape, self.rows)) != list(map(_shape, other.rows)):
            raise ValueError("the tables have different rows: they are not runs that visit "
                             "the same nodes in the same order")
        width = max(len(line) for line in left) + 2
        out = [f"{labels[0]:<{width}}│ {labels[1]}"]
        for a, b in zip(left, right, strict=True):
            out.append(f"{a:<{width}}│ {b}{'   ◀' if a != b else ''}")
        return "\n".join(out)


def hand_table(result: Any) -> HandTable:
    """The hand-trace table of an alpha-beta ``result`` (a search with a trace).

    Leaves are read with their parent's bound as the search's own loop keeps it: at a MAX
    node α rises when a value beats it, at a MIN node β falls; a value that makes the node
    stop is a ``"stop"`` (the trace's cut-off follows it).
    """
    trace = getattr(result, "trace", None)
    if trace is None:
        raise ValueError("hand_table needs a search result with a trace (trace=True)")
    fail_hard = getattr(result, "options", {}).get("fail", "soft") != "soft"
    events = list(trace)
    rows: list[Row] = []
    # per entered node: [is_max, bound, value so far]
    stack: list[list[Any]] = []
    levels: dict[int, bool] = {}

    def child_value(value: float, i: int, leaf: bool) -> None:
        if not stack:
            return
        node = stack[-1]
        mx, bound = node[0], node[1]
        node[2] = max(node[2], value) if mx else min(node[2], value)
        stops = i + 1 < len(events) and isinstance(events[i + 1], Cutoff)
        improves = node[2] > bound if mx else node[2] < bound
        if improves and not stops:
            node[1] = node[2]
        if leaf:
            rows.append(("static", len(stack) - 1, value,
                         "stop" if stops else "" if improves else "not used"))
        elif stops or improves:
            rows.append(("bound", len(stack) - 1, "α" if mx else "β", node[2],
                         "stop" if stops else ""))

    for i, e in enumerate(events):
        if isinstance(e, Enter):
            levels[e.depth] = e.is_max
            rows.append(("window", e.depth, e.alpha, e.beta))
            start = (e.alpha if e.is_max else e.beta) if fail_hard else \
                (-math.inf if e.is_max else math.inf)
            stack.append([e.is_max, e.alpha if e.is_max else e.beta, start])
        elif isinstance(e, Leaf):
            child_value(e.value, i, leaf=True)
        elif isinstance(e, Exit):
            stack.pop()
            rows.append(("up", e.value))
            child_value(e.value, i, leaf=False)
        elif not isinstance(e, Cutoff):
            raise ValueError(f"hand_table reads plain alpha-beta traces; event {i} is {e!r}")
    return HandTable(tuple(rows), tuple(levels[d] for d in sorted(levels)), fail_hard)
