"""Play tic-tac-toe or Connect Four against a search function: the kit's, or a student's.

``search(game, state)`` returns a :class:`~minimaxkit.search.SearchResult` (then the widget
shows the move, its value and how many nodes were searched) or just a move. "Show search"
draws the tree of the last reply's search, from the position it was searched from.

>>> from minimaxkit.games import TicTacToe
>>> pw = PlayWidget(TicTacToe())
>>> pw.click(4)                      # X in the centre; the search answers as O
>>> pw.last.nodes > 0, pw.game.board(pw.state)[1][1]
(True, 'X')
>>> pw.status.value.count("searched") == 1
True
>>> pw.show.value = True             # the tree of that search, rooted at the position after b2
>>> bytes(pw.search_view.children[0].value[:4])
b'\\x89PNG'
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import ipywidgets as w

from ..replay import fmt
from ..search import alphabeta
from ._panel import Picture, RerunHint, needs_kernel

__all__ = ["PlayWidget", "Reply", "default_search"]

_COLORS = {"X": "#f4a582", "O": "#f7ee8f", ".": "#f4f4f4"}  # light vermillion / yellow
#: The cells of the line that won are ringed (a shape, not only a colour).
#: A cell that cannot be clicked (taken, or the game is over) keeps its piece legible: the
#: front end fades disabled buttons to 60 %, which left X and O grey on their colours.
_WIN_CSS = ("<style>.mmk-play .mmk-win { box-shadow: inset 0 0 0 4px #111111; "
            "text-decoration: underline; }"
            ".mmk-play .mmk-cell:disabled { opacity: 1; color: #111111; cursor: default; }"
            "</style>")


@dataclass(frozen=True)
class Reply:
    """The computer's last reply: its move, value and node count (None when the search
    function returned only a move), and the seconds it took."""

    move: Any
    value: float | None
    nodes: int | None
    seconds: float


def _center_first(columns: int) -> Callable[[Any, Any, Any], float]:
    def key(game: Any, state: Any, move: Any) -> float:
        # MAX searches high keys first and MIN low keys first: centre first for both
        distance = abs(move - (columns - 1) / 2)
        return -distance if game.is_max(state) else distance
    return key


def default_search(game: Any) -> Callable[[Any, Any], Any]:
    """The kit's player for ``game``: full alpha-beta for tic-tac-toe; for Connect Four
    depth-5 alpha-beta trying the centre columns first; depth 4 otherwise. Its results keep
    their traces, so "Show search" can draw them."""
    if hasattr(game, "columns"):
        return partial(alphabeta, depth=5, order=_center_first(game.columns))
    if type(game).__name__ == "TicTacToe":
        return partial(alphabeta)
    return partial(alphabeta, depth=4)


class PlayWidget(RerunHint, w.VBox):
    """A board of buttons: click a cell (tic-tac-toe) or a column (Connect Four) to move;
    the search replies. ``human`` is ``"X"`` (moves first) or ``"O"``."""

    def __init__(self, game: Any, search: Callable[[Any, Any], Any] | None = None, *,
                 human: str = "X") -> None:
        if human not in ("X", "O"):
            raise ValueError(f"human must be 'X' or 'O', got {human!r}")
        if not hasattr(game, "board"):
            raise TypeError(f"PlayWidget needs a game with board(): {type(game).__name__}")
        self.game, self.human = game, human
        self.search = search or default_search(game)
        self.search_name = getattr(self.search, "__name__", None) or getattr(
            getattr(self.search, "func", None), "__name__", "search")
        rows = game.board(game.initial_state())
        self.n_rows, self.n_cols = len(rows), len(rows[0])
        self.connect4 = hasattr(game, "columns")
        self.cells = [[w.Button(layout=w.Layout(width="42px", height="42px"))
                       for _ in range(self.n_cols)] for _ in range(self.n_rows)]
        for r, row in enumerate(self.cells):
            for c, b in enumerate(row):
                b.add_class("mmk-cell")
                b.on_click(partial(self._clicked, r, c))
        # Connect Four's columns numbered under the board, as the moves and the text are
        self.numbers = [w.HTML(f"<div class='mmk-colnum' style='text-align:center;"
                               f"font-size:13px;color:#111111'>{c}</div>")
                        for c in range(self.n_cols)] if self.connect4 else []
        self.grid = w.GridBox([b for row in self.cells for b in row] + self.numbers,
                              layout=w.Layout(grid_template_columns=f"repeat({self.n_cols}, "
                                              "44px)", grid_gap="2px"))
        self.status = w.HTML()
        self.status.add_class("mmk-status")
        self.restart = w.Button(description="New game")
        self.restart.on_click(lambda _: self.new_game())
        self.show = w.ToggleButton(description="Show search", value=False,
                                   tooltip="Draw the tree of the last reply's search")
        self.show.observe(lambda _: self._redraw_search(), names="value")
        self.search_view = w.VBox()
        self.result: Any = None
        self.kernel_note = needs_kernel("play")
        super().__init__([self.kernel_note, self.grid, self.status,
                          w.HBox([self.restart, self.show]), self.search_view])
        self.add_class("mmk-play")
        self.new_game()

    # ----- game flow -----------------------------------------------------------------------
    def new_game(self) -> None:
        """Start again from the empty board (the search moves first if the human is O)."""
        self.state = self.game.initial_state()
        self.history: list[Any] = []
        self.last: Reply | None = None
        self.result = None
        self.message = ""
        if self.human == "O":
            self._reply()
        self._redraw()

    def _to_move(self) -> str:
        return "X" if self.game.is_max(self.state) else "O"

    def _clicked(self, r: int, c: int, _button: Any = None) -> None:
        self.click(c if self.connect4 else r * self.n_cols + c)

    def click(self, move: Any) -> None:
        """Play the human's ``move`` (a cell 0..8 or a column), then let the search reply."""
        if self.over:
            self.message = "The game is over: press New game."
        elif self._to_move() != self.human:
            self.message = "Wait: it is the computer's turn."
        elif move not in self.game.moves(self.state):
            self.message = f"{self._name(move)} is not a legal move."
        else:
            self.message = ""
            self.state = self.game.play(self.state, move)
            self.history.append(move)
            if not self.over:
                self._reply()
        self._redraw()

    def _reply(self) -> None:
        start = time.perf_counter()
        try:
            answer = self.search(self.game, self.state)
        except Exception as err:  # a student's function may fail: show it, keep the game
            self.message = f"{self.search_name} raised {type(err).__name__}: {err}"
            return
        seconds = time.perf_counter() - start
        if hasattr(answer, "move") and hasattr(answer, "stats"):
            reply = Reply(answer.move, answer.value, answer.stats.nodes, seconds)
            self.result = answer
        else:
            reply = Reply(answer, None, None, seconds)
            self.result = None
        if reply.move not in self.game.moves(self.state):
            self.message = (f"{self.search_name} chose {reply.move!r}, which is not a legal "
                            f"move here; legal: {list(self.game.moves(self.state))}")
            return
        self.state = self.game.play(self.state, reply.move)
        self.history.append(reply.move)
        self.last = reply

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return not self.game.moves(self.state)

    def _name(self, move: Any) -> str:
        namer = getattr(self.game, "move_name", None)
        return str(namer(move)) if namer is not None else f"column {move}"

    # ----- display -------------------------------------------------------------------------
    def winning_cells(self) -> set[tuple[int, int]]:
        """The cells (row from the top, column) of every line that won the game."""
        from ..draw.board import WINNING_RUN, board_kind, lines_in_a_row

        board = self.game.board(self.state)
        length = WINNING_RUN[board_kind(self.game, board)]
        cells: set[tuple[int, int]] = set()
        for _, (r0, c0), (r1, c1) in lines_in_a_row(board, length):
            steps = max(abs(r1 - r0), abs(c1 - c0))
            dr, dc = (r1 - r0) // max(steps, 1), (c1 - c0) // max(steps, 1)
            cells.update((r0 + k * dr, c0 + k * dc) for k in range(steps + 1))
        return cells

    def _where(self, r: int, c: int) -> str:
        """A cell in words: Connect Four's column and row, counted from 0 as the moves are
        (row 0 at the bottom); a tic-tac-toe cell's name."""
        if self.connect4:
            return f"column {c}, row {self.n_rows - 1 - r}"
        return self._name(r * self.n_cols + c)

    def _line_text(self, cells: set[tuple[int, int]]) -> str:
        """The winning line's cells in words: (column, row) pairs, or cell names."""
        if self.connect4:
            pairs = sorted((c, self.n_rows - 1 - r) for r, c in cells)
            return "(column, row) " + ", ".join(f"({c}, {r})" for c, r in pairs)
        return ", ".join(sorted(self._name(r * self.n_cols + c) for r, c in cells))

    def _redraw(self) -> None:
        board = self.game.board(self.state)
        legal = set(self.game.moves(self.state))
        won = self.winning_cells() if self.over else set()
        for r, row in enumerate(self.cells):
            for c, b in enumerate(row):
                cell = board[r][c]
                b.description = "" if cell == "." else cell
                b.style.button_color = _COLORS.get(cell, _COLORS["."])
                b.style.font_weight = "bold"
                move = c if self.connect4 else r * self.n_cols + c
                b.disabled = self.over or move not in legal or (
                    self.connect4 and cell != ".")
                # the button's accessible name (its title): where it is and what is there
                line = ", in the winning line" if (r, c) in won else ""
                b.tooltip = f"{self._where(r, c)}: {'empty' if cell == '.' else cell}{line}"
                if (r, c) in won:
                    b.add_class("mmk-win")
                else:
                    b.remove_class("mmk-win")
        lines = []
        if self.last is not None:
            reply = self.last
            said = (f"{html.escape(str(self.search_name))} played "
                    f"<b>{self._name(reply.move)}</b>")
            if reply.value is not None:
                said += f", value {fmt(reply.value)}, searched {reply.nodes:,} nodes"
            else:
                said += " (it returned only a move: no value or node count)"
            lines.append(f"{said} in {reply.seconds:.2f} s.")
        if self.over:
            winner = getattr(self.game, "winner", lambda s: None)(self.state)
            lines.append(f"<b>Game over: {winner} wins</b> (the winning line is ringed: "
                         f"{self._line_text(won)})." if winner else
                         "<b>Game over: a draw.</b>")
        else:
            lines.append(f"You are {self.human}; {self._to_move()} to move.")
        if self.message:
            lines.append(f"<span style='color:#b34700'>{html.escape(self.message)}</span>")
        self.status.value = (_WIN_CSS + "<div style='font-size:13px'>" + "<br>".join(lines)
                             + "</div>")
        self._redraw_search()

    def _redraw_search(self) -> None:
        """With "Show search" down: the last reply's search, drawn from the position it
        started at (large searches two levels deep), or why there is nothing to draw."""
        if not self.show.value:
            self.search_view.children = ()
            return
        result = self.result
        iterations = getattr(result, "iterations", None)
        if iterations:  # progressive deepening: its deepest completed search
            result = iterations[-1]
        if result is None or getattr(result, "trace", None) is None:
            why = ("no search yet" if self.last is None else
                   f"{self.search_name} returned no trace to draw (search with trace=True)"
                   if result is not None else
                   f"{self.search_name} returned only a move: no search to draw")
            self.search_view.children = (w.HTML(f"<i>{html.escape(why)}</i>"),)
            return
        from ..draw import result_png

        self.search_view.children = (Picture(value=result_png(result, dpi=80), format="png",
                                             tooltip=self._search_alt(result)),)

    def _search_alt(self, result: Any) -> str:
        """The search picture's text alternative: the counts and value, and what each move
        from the position searched is worth (the first level, labelled in the picture)."""
        from ..draw.alt import result_alt
        from ..draw.model import value_text
        from ..draw.render import MAX_RESULT_NODES
        from ..replay import Replay

        alt = result_alt(result, max_nodes=2 * MAX_RESULT_NODES)
        replay = Replay(result)
        frame = replay.frame(len(replay) - 1)
        moves = [(p, value_text(p, frame)) for p in sorted({*frame.visited, *frame.pruned})
                 if len(p) == 1]
        if moves:
            what = "column" if self.connect4 else "move"
            alt += f" Each {what} from the position searched and its value: " + ", ".join(
                f"{replay.name(p)}: {text or 'not searched'}" for p, text in moves) + "."
        return alt
