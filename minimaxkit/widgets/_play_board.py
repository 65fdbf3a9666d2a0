"""The play widget's board: a grid of buttons, one per cell, drawn from a game's
``board(state)`` rows.

An empty cell shows a no-break space, not an empty description: ipywidgets 8's button
view leaves the last text on screen when both its description and its icon are empty, so
a board cleared with ``""`` kept the last game's X and O (tested in Chromium,
``tests/browser/test_play_widget.py``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

__all__ = ["Board", "EMPTY_TEXT", "BOARD_CSS", "winning_cells"]

#: What an empty cell's button shows: a no-break space (see the module's docstring).
EMPTY_TEXT = "\u00a0"

_COLORS = {"X": "#f4a582", "O": "#f7ee8f", ".": "#f4f4f4"}  # light vermillion / yellow

#: The cells of the line that won are ringed (a shape, not only a colour); the computer's
#: last move has a dashed blue ring inside the cell. A cell that cannot be clicked (taken,
#: or the game is over) keeps its piece legible: the front end fades disabled buttons to
#: 60 %, which left X and O grey on their colours.
BOARD_CSS = ("<style>.mmk-play .mmk-win { box-shadow: inset 0 0 0 4px #111111; "
             "text-decoration: underline; }"
             ".mmk-play .mmk-last { outline: 3px dashed #004c7a; outline-offset: -7px; }"
             ".mmk-play .mmk-cell:disabled { opacity: 1; color: #111111; cursor: default; }"
             "</style>")


#: How many sets of buttons that were on screen stay open after :meth:`Board.renew`: a
#: click on a closed one reaches no model, and JupyterLab's log shows "No such comm" (outside
#: student pass 7 saw it after a burst of clicks whose last came two boards late).
KEPT_SETS = 3


@dataclass(frozen=True)
class CellLook:
    """What one cell shows: its text, colour, whether it can be clicked, its accessible
    name (the button's title) and its classes."""

    text: str
    color: str
    disabled: bool
    tooltip: str
    win: bool
    last: bool


def winning_cells(game: Any, state: Any) -> set[tuple[int, int]]:
    """The cells (row from the top, column) of every line that won the game."""
    from ..draw.board import WINNING_RUN, board_kind, lines_in_a_row

    board = game.board(state)
    length = WINNING_RUN[board_kind(game, board)]
    cells: set[tuple[int, int]] = set()
    for _, (r0, c0), (r1, c1) in lines_in_a_row(board, length):
        steps = max(abs(r1 - r0), abs(c1 - c0))
        dr, dc = (r1 - r0) // max(steps, 1), (c1 - c0) // max(steps, 1)
        cells.update((r0 + k * dr, c0 + k * dc) for k in range(steps + 1))
    return cells


def _label(text: str, css_class: str) -> w.HTML:
    """A column's or row's name beside the board, centred in its place."""
    return w.HTML(f"<div class='{css_class}' style='text-align:center;font-size:13px;"
                  f"color:#111111'>{text}</div>")


class Board:
    """The buttons of a board with ``n_rows`` x ``n_cols`` cells; ``on_click(r, c,
    generation)`` is called with the row (from the top) and column of a click and the
    :attr:`generation` of the buttons clicked. ``where(r, c)`` names a
    cell in words. Connect Four's columns are numbered under the board; ``labels`` (the
    columns' names, the rows' names from the top) are written above and left of the board,
    as tic-tac-toe's cells are named (a1 is top left)."""

    def __init__(self, n_rows: int, n_cols: int, *, connect4: bool,  # noqa: PLR0913 - keyword-only
                 on_click: Callable[[int, int, int], None], where: Callable[[int, int], str],
                 labels: tuple[list[str], list[str]] | None = None) -> None:
        self.n_rows, self.n_cols, self.connect4, self.where = n_rows, n_cols, connect4, where
        self.on_click, self.labels = on_click, labels
        self._layout = w.Layout(width="42px", height="42px")  # (one model for every cell)
        #: Which set of buttons is on screen: ``on_click`` gets the generation of the
        #: button that was clicked, so a click made on a board that :meth:`renew` has
        #: since replaced (one the front end sent before it had seen the new board) can
        #: be told from a click on the board on screen.
        self.generation = 0
        self.cells = self._buttons()
        #: the sets of buttons that were on screen before, the newest last (see renew)
        self._previous: deque[list[list[w.Button]]] = deque()
        # Connect Four's columns numbered under the board, as the moves and the text are
        self.numbers = [_label(str(c), "mmk-colnum")
                        for c in range(n_cols)] if connect4 else []
        self._names = [] if labels is None else [_label("", "mmk-corner")] + [
            _label(name, "mmk-colname") for name in labels[0]] + [
            _label(name, "mmk-rowname") for name in labels[1]]
        columns = f"repeat({n_cols}, 44px)" if labels is None else \
            f"20px repeat({n_cols}, 44px)"
        self.grid = w.GridBox(self._children(), layout=w.Layout(
            grid_template_columns=columns, grid_gap="2px", align_items="center"))

    def _buttons(self) -> list[list[w.Button]]:
        """A new set of cell buttons, each calling ``on_click(r, c, generation)``."""
        generation = self.generation
        cells = [[w.Button(description=EMPTY_TEXT, layout=self._layout)
                  for _ in range(self.n_cols)] for _ in range(self.n_rows)]
        for r, row in enumerate(cells):
            for c, b in enumerate(row):
                b.add_class("mmk-cell")
                b.on_click(lambda _b, r=r, c=c: self.on_click(r, c, generation))
        return cells

    def _children(self) -> list[w.Widget]:
        """The grid's children: the cells (and the numbers under them), or, with labels,
        the corner, the columns' names, then each row's name and cells."""
        if self.labels is None:
            return [b for row in self.cells for b in row] + self.numbers
        corner_and_columns = self._names[:1 + self.n_cols]
        row_names = self._names[1 + self.n_cols:]
        children = list(corner_and_columns)
        for name, row in zip(row_names, self.cells, strict=True):
            children += [name, *row]
        return children

    def renew(self) -> None:
        """Put a new set of buttons on the board (call :meth:`show` next), so that a click
        still on its way from the old ones is known as one made before this board was on
        screen. The last :data:`KEPT_SETS` sets stay open, so a late click on one of them
        still reaches ``on_click`` (with its old generation); older ones are closed."""
        self._previous.append(self.cells)
        while len(self._previous) > KEPT_SETS:
            for row in self._previous.popleft():
                for b in row:
                    b.style.close()
                    b.close()
        self.generation += 1
        self.cells = self._buttons()
        self.grid.children = self._children()

    def look(self, at: tuple[int, int], cell: str, *, clickable: bool, win: bool, last: bool
             ) -> CellLook:
        """What the cell at ``at`` (row, column) holding ``cell`` (``X``, ``O`` or ``.``)
        shows."""
        r, c = at
        notes = (", in the winning line" if win else "") + (
            ", the computer's last move" if last else "")
        return CellLook(EMPTY_TEXT if cell == "." else cell,
                        _COLORS.get(cell, _COLORS["."]), not clickable,
                        f"{self.where(r, c)}: {'empty' if cell == '.' else cell}{notes}",
                        win, last)

    def show(self, looks: list[list[CellLook]]) -> None:
        """Set every button on screen from its look."""
        for row, row_looks in zip(self.cells, looks, strict=True):
            for b, look in zip(row, row_looks, strict=True):
                b.description = look.text
                b.style.button_color = look.color
                b.style.font_weight = "bold"
                b.disabled = look.disabled
                b.tooltip = look.tooltip
                for cls, on in (("mmk-win", look.win), ("mmk-last", look.last)):
                    if on:
                        b.add_class(cls)
                    else:
                        b.remove_class(cls)
