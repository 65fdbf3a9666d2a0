"""An alpha-beta run written as a hand trace: the table a student fills in on paper.

The example sheet with a hand trace traces alpha-beta on its 27-leaf tree as a table: one
pair of columns (α, β) per level of the tree, a column of static values, and a note; the
kit's table adds a first column naming the nodes each line is about. A row records one of
four things, and :func:`hand_table` reads the same rows off a search's trace:

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
node     α      β   α      β    static
A B      -∞     ∞    -∞     ∞
D                           2   2
E                               7  (not used)
B                                  <- 2
A C       2           2     ∞
F                           1   1  (stop)
C                                  <- 1
A                                  <- 2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..trace import Cutoff, Enter, Exit, Leaf
from ..tree import GameTree

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
    #: The example sheet's loop (one-sided fail-hard) keeps its value in α (β) itself, so the
    #: value that makes a node stop is written in that column; a fail-soft node stops with
    #: the value in its own ``v`` and leaves α and β as they were, so the table writes that
    #: ``v`` in the note.
    one_sided: bool = True
    #: The node each row is about, by name (the node entered, the leaf, the node whose bound
    #: changes, the node that returns); empty when the search's tree has no names.
    nodes: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The table as text, headed by the levels' names. As on the sheet, the windows
        and bounds that change together (one per level, going down) share a line."""
        width = 6
        names = [" ".join(n) for n in self._names()]
        node_width = max([len("node"), *map(len, names)]) + 2 if self.nodes else 0
        node_head = f"{'':<{node_width}}" if self.nodes else ""
        head = node_head + "".join(f"{'MAX' if mx else 'MIN':>{width - 1}} {'':>{width - 1}}"
                                   for mx in self.levels)
        out = [head.rstrip(), (f"{'node':<{node_width}}" if self.nodes else "") + "".join(
            f"{'α':>{width - 2}}  {'β':>{width - 1}}" for _ in self.levels) + "    static"]
        static_at = 2 * width * len(self.levels)
        for i, (cells, static, note) in enumerate(self._layout()):
            text = "".join(f"{c:>{width - 1}} " for c in cells)
            node = f"{names[i]:<{node_width}}" if self.nodes else ""
            out.append(f"{node}{text:<{static_at}}{static:>3}  {note}".rstrip())
        return out

    def _names(self) -> list[list[str]]:
        """The names of the nodes on each line of the table (see :meth:`_layout`)."""
        lines: list[list[str]] = []
        for name, new_line in zip(self.nodes or [""] * len(self.rows), self._line_starts(),
                                  strict=True):
            if new_line:
                lines.append([])
            if name and name not in lines[-1]:
                lines[-1].append(name)
        return lines

    def _line_starts(self) -> list[bool]:
        """For each row, whether it starts a new line of the table."""
        return [start for _, start in self._placed()]

    def _placed(self) -> list[tuple[Row, bool]]:
        out: list[tuple[Row, bool]] = []
        deepest, open_line, noted = -1, False, False
        for row in self.rows:
            kind = row[0]
            start = not (kind in ("window", "bound") and deepest < row[1] and open_line
                         and not noted)
            if start:
                open_line, noted = True, False
            deepest = row[1] if kind in ("window", "bound") else len(self.levels)
            noted = noted or kind in ("static", "up") or (kind == "bound" and row[4] == "stop")
            out.append((row, start))
        return out

    def _layout(self) -> list[tuple[list[str], str, str]]:
        out: list[tuple[list[str], str, str]] = []
        for row, start in self._placed():
            kind = row[0]
            if start:
                cells = [""] * (2 * len(self.levels))
                out.append((cells, "", ""))
            cells = out[-1][0]
            if kind == "window":
                cells[2 * row[1]], cells[2 * row[1] + 1] = _num(row[2]), _num(row[3])
            elif kind == "bound":
                if self.one_sided or row[4] != "stop":
                    cells[2 * row[1] + (row[2] == "β")] = _num(row[3])
                if row[4] == "stop":
                    note = "(stop)" if self.one_sided else f"(stop: v = {_num(row[3])})"
                    out[-1] = (cells, "", note)
            elif kind == "static":
                depth, value, note = row[1:]
                if note == "" or (note == "stop" and self.one_sided):
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


def _namer(result: Any) -> Any:
    """A function from a path to the node's name, where the search's game names its nodes
    (an explicit tree), else one that gives ""."""
    game: Any = getattr(result, "game", None)
    if isinstance(game, GameTree):
        return lambda path: game.node(path).name
    return lambda path: ""


def hand_table(result: Any) -> HandTable:
    """The hand-trace table of an alpha-beta ``result`` (a search with a trace).

    Leaves are read with their parent's bound as the search's own loop keeps it: at a MAX
    node α rises when a value beats it, at a MIN node β falls; a value that makes the node
    stop is a ``"stop"`` (the trace's cut-off follows it). In the example sheet's form
    (``fail="one-sided"``) a node's value starts at its own bound, as the sheet's loop keeps
    it in α (β) itself.
    """
    trace = getattr(result, "trace", None)
    if trace is None:
        raise ValueError("hand_table needs a search result with a trace (trace=True)")
    one_sided = getattr(result, "options", {}).get("fail", "soft") == "one-sided"
    name_of = _namer(result)
    events = list(trace)
    rows: list[Row] = []
    names: list[str] = []
    # per entered node: [is_max, bound, value so far, path]
    stack: list[list[Any]] = []
    levels: dict[int, bool] = {}

    def child_value(value: float, i: int, leaf: Any) -> None:
        if not stack:
            return
        node = stack[-1]
        mx, bound = node[0], node[1]
        node[2] = max(node[2], value) if mx else min(node[2], value)
        stops = i + 1 < len(events) and isinstance(events[i + 1], Cutoff)
        improves = node[2] > bound if mx else node[2] < bound
        if improves and not stops:
            node[1] = node[2]
        if leaf is not None:
            rows.append(("static", len(stack) - 1, value,
                         "stop" if stops else "" if improves else "not used"))
            names.append(name_of(leaf))
        elif stops or improves:
            rows.append(("bound", len(stack) - 1, "α" if mx else "β", node[2],
                         "stop" if stops else ""))
            names.append(name_of(node[3]))

    for i, e in enumerate(events):
        if isinstance(e, Enter):
            levels[e.depth] = e.is_max
            rows.append(("window", e.depth, e.alpha, e.beta))
            names.append(name_of(e.path))
            start = (e.alpha if e.is_max else e.beta) if one_sided else \
                (-math.inf if e.is_max else math.inf)
            stack.append([e.is_max, e.alpha if e.is_max else e.beta, start, e.path])
        elif isinstance(e, Leaf):
            child_value(e.value, i, leaf=e.path)
        elif isinstance(e, Exit):
            stack.pop()
            rows.append(("up", e.value))
            names.append(name_of(e.path))
            child_value(e.value, i, leaf=None)
        elif not isinstance(e, Cutoff):
            raise ValueError(f"hand_table reads plain alpha-beta traces; event {i} is {e!r}")
    return HandTable(tuple(rows), tuple(levels[d] for d in sorted(levels)), one_sided,
                     tuple(names) if any(names) else ())
