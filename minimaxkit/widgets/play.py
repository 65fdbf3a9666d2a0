"""Play tic-tac-toe or Connect Four against a search function: the kit's, or a student's.

``search(game, state)`` returns a :class:`~minimaxkit.search.SearchResult` (then the widget
shows the move, its value and how many nodes were searched), a deepening result, or just a
move. The controls: "You play" X (moves first) or O; "New game"; "Undo" (takes back your
last move and the computer's reply); "Show search", a toggle that draws the last reply's
search as one readable picture (:func:`~minimaxkit.draw.summary.search_summary`). The
computer's last move is ringed on the board, and its value is said from its own side.

>>> from minimaxkit.games import TicTacToe
>>> pw = PlayWidget(TicTacToe())
>>> pw.click(4)                      # X in the centre; the search answers as O
>>> pw.last.nodes > 0, pw.game.board(pw.state)[1][1]
(True, 'X')
>>> "The computer (O) played" in pw.status.value
True
>>> pw.show.value = True             # the picture of that search
>>> bytes(pw.search_view.children[0].value[:4])
b'\\x89PNG'
>>> pw.undo(); pw.history, pw.show.value
([], True)
>>> pw.new_game(); pw.show.value       # a new game hides the last game's search
False
>>> pw.side.value = "O"              # play O: the computer opens as X
>>> len(pw.history)
1
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

from ..replay import fmt
from ._panel import Picture, RerunHint, needs_kernel
from ._play_board import BOARD_CSS, Board, CellLook, winning_cells
from .play_search import EvaluationError, default_search, evaluation_search, search_name

__all__ = ["PlayWidget", "Reply", "default_search", "evaluation_search"]


@dataclass(frozen=True)
class Reply:
    """The computer's reply: its move, value (X's side, as searches count; None when the
    search function returned only a move), node count and the seconds it took."""

    move: Any
    value: float | None
    nodes: int | None
    seconds: float


@dataclass(frozen=True)
class Ply:
    """One move of the game: the move, the state after it, and the computer's
    :class:`Reply` with its search result when the computer played it (else None)."""

    move: Any
    state: Any
    reply: Reply | None = None
    result: Any = None


def _reply_of(answer: Any, seconds: float) -> tuple[Reply, Any]:
    """A search function's answer as a :class:`Reply`, and the result to draw (or None)."""
    if hasattr(answer, "move") and (hasattr(answer, "stats") or
                                    hasattr(answer, "total_nodes")):
        nodes = getattr(answer, "total_nodes", None)
        if nodes is None:
            nodes = answer.stats.nodes
        return Reply(answer.move, answer.value, nodes, seconds), answer
    return Reply(answer, None, None, seconds), None


class PlayWidget(RerunHint, w.VBox):
    """A board of buttons: click a cell (tic-tac-toe) or a column (Connect Four) to move;
    the search replies. ``human`` is the side you start with, ``"X"`` (moves first) or
    ``"O"``; the "You play" control changes it (and starts a new game)."""

    def __init__(self, game: Any, search: Callable[[Any, Any], Any] | None = None, *,
                 human: str = "X") -> None:
        if human not in ("X", "O"):
            raise ValueError(f"human must be 'X' or 'O', got {human!r}")
        if not hasattr(game, "board"):
            raise TypeError(f"PlayWidget needs a game with board(): {type(game).__name__}")
        self.game, self.human = game, human
        self.search = search or default_search(game)
        self.search_name = search_name(self.search)
        rows = game.board(game.initial_state())
        self.n_rows, self.n_cols = len(rows), len(rows[0])
        self.connect4 = hasattr(game, "columns")
        self.board = Board(self.n_rows, self.n_cols, connect4=self.connect4,
                           on_click=self._clicked, where=self._where)
        self.cells = self.board.cells
        self.grid = self.board.grid
        self.numbers = self.board.numbers  # Connect Four's column numbers under the board
        self.status = w.HTML()
        self.status.add_class("mmk-status")
        self._build_controls(human)
        self.search_view = w.VBox(layout=w.Layout(align_items="flex-start",
                                                  max_width="100%"))
        self.kernel_note = needs_kernel("play")
        super().__init__([self.kernel_note, self.side, self.grid, self.status,
                          w.HBox([self.restart, self.undo_button, self.show]),
                          self.search_view])
        self.add_class("mmk-play")
        self.new_game()

    def _build_controls(self, human: str) -> None:
        self.side = w.ToggleButtons(options=[("X (moves first)", "X"),
                                             ("O (moves second)", "O")],
                                    value=human, description="You play:",
                                    tooltips=["You move first; the computer is O",
                                              "The computer moves first as X; you are O"],
                                    style={"button_width": "auto"})
        self.side.observe(self._side_changed, names="value")
        self.restart = w.Button(description="New game", icon="refresh",
                                tooltip="Clear the board and start again")
        self.restart.on_click(lambda _: self.new_game())
        self.undo_button = w.Button(description="Undo", icon="undo",
                                    tooltip="Take back your last move and the reply to it")
        self.undo_button.on_click(lambda _: self.undo())
        self.show = w.ToggleButton(description="Show search", value=False, icon="eye",
                                   tooltip="Show or hide the picture of the computer's last "
                                           "search")
        self.show.observe(self._show_changed, names="value")

    # ----- game flow -----------------------------------------------------------------------
    def new_game(self) -> None:
        """Start again from the empty board (the search moves first if you are O); the
        last game's search picture is hidden."""
        self.state = self.game.initial_state()
        self.history: list[Ply] = []
        self.message = ""
        if self.show.value:
            self.show.value = False  # (redraws the search view: nothing)
        if self.human == "O":
            self._reply()
        self._redraw()

    def _side_changed(self, change: dict[str, Any]) -> None:
        self.human = change["new"]
        self.new_game()

    @property
    def moves(self) -> list[Any]:
        """The moves of this game so far, yours and the computer's, in order."""
        return [ply.move for ply in self.history]

    @property
    def last(self) -> Reply | None:
        """The computer's last reply in this game (None before it has played)."""
        for ply in reversed(self.history):
            if ply.reply is not None:
                return ply.reply
        return None

    @property
    def result(self) -> Any:
        """The search result of the computer's last reply (None if it gave only a move)."""
        for ply in reversed(self.history):
            if ply.reply is not None:
                return ply.result
        return None

    def _to_move(self) -> str:
        return "X" if self.game.is_max(self.state) else "O"

    def _clicked(self, r: int, c: int) -> None:
        self.click(c if self.connect4 else r * self.n_cols + c)

    def click(self, move: Any) -> None:
        """Play your ``move`` (a cell 0..8 or a column), then let the search reply."""
        if self.over:
            self.message = "The game is over: press New game."
        elif self._to_move() != self.human:
            self.message = "Wait: it is the computer's turn."
        elif move not in self.game.moves(self.state):
            self.message = f"{self._name(move)} is not a legal move."
        else:
            self.message = ""
            self.state = self.game.play(self.state, move)
            self.history.append(Ply(move, self.state))
            if not self.over:
                self._reply()
        self._redraw()

    def undo(self) -> None:
        """Take back your last move and the computer's reply to it (nothing to take back
        before your first move)."""
        human_moves = [i for i, ply in enumerate(self.history) if ply.reply is None]
        if not human_moves:
            self.message = "Nothing to undo: you have not moved yet."
        else:
            del self.history[human_moves[-1]:]
            self.state = self.history[-1].state if self.history else \
                self.game.initial_state()
            self.message = "Took back your last move and the computer's reply."
        self._redraw()

    def _reply(self) -> None:
        start = time.perf_counter()
        try:
            answer = self.search(self.game, self.state)
        except EvaluationError as err:  # "returned nan, ...", "raised KeyError: ..."
            self.message = f"{self.search_name} {err}"
            return
        except Exception as err:  # a student's function may fail: show it, keep the game
            self.message = f"{self.search_name} raised {type(err).__name__}: {err}"
            return
        reply, result = _reply_of(answer, time.perf_counter() - start)
        if reply.move not in self.game.moves(self.state):
            self.message = (f"{self.search_name} chose {reply.move!r}, which is not a legal "
                            f"move here; legal: {list(self.game.moves(self.state))}")
            return
        self.state = self.game.play(self.state, reply.move)
        self.history.append(Ply(reply.move, self.state, reply, result))

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
        return winning_cells(self.game, self.state)

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

    def last_cell(self) -> tuple[int, int] | None:
        """The cell (row from the top, column) of the computer's last move, when it is the
        last move on the board (None after your move ended the game, or before it played)."""
        if not self.history or self.history[-1].reply is None:
            return None
        before = self.history[-2].state if len(self.history) > 1 else \
            self.game.initial_state()
        old, new = self.game.board(before), self.game.board(self.state)
        for r, (row_old, row_new) in enumerate(zip(old, new, strict=True)):
            for c, (a, b) in enumerate(zip(row_old, row_new, strict=True)):
                if a != b:
                    return r, c
        return None

    def _looks(self) -> list[list[CellLook]]:
        board = self.game.board(self.state)
        legal = set(self.game.moves(self.state))
        won = self.winning_cells() if self.over else set()
        last = self.last_cell()
        looks: list[list[CellLook]] = []
        for r, row in enumerate(board):
            looks.append([])
            for c, cell in enumerate(row):
                move = c if self.connect4 else r * self.n_cols + c
                clickable = not self.over and move in legal and not (
                    self.connect4 and cell != ".")
                looks[-1].append(self.board.look((r, c), cell, clickable=clickable,
                                                 win=(r, c) in won, last=(r, c) == last))
        return looks

    def _redraw(self) -> None:
        self.board.show(self._looks())
        self.undo_button.disabled = not any(ply.reply is None for ply in self.history)
        lines = []
        if self.last is not None and self.history[-1].reply is not None:
            lines.append(self._reply_text(self.last))
        if self.over:
            lines.append(self._end_text())
        else:
            lines.append(f"You are {self.human}; {self._to_move()} to move.")
        if self.message:
            lines.append(f"<span style='color:#b34700'>{html.escape(self.message)}</span>")
        self.status.value = (BOARD_CSS + "<div style='font-size:13px'>" + "<br>".join(lines)
                             + "</div>")
        self._redraw_search()

    def _reply_text(self, reply: Reply) -> str:
        """The computer's last reply in words, its value from its own side."""
        me = "O" if self.human == "X" else "X"
        said = (f"The computer ({me}) played <b>{html.escape(self._name(reply.move))}</b> "
                f"(ringed)")
        name = html.escape(self.search_name)
        if reply.value is not None:
            mine = reply.value if me == "X" else -reply.value
            said += (f": {name} values it {fmt(mine)} for {me}"
                     + ("" if me == "X" or reply.value == 0 else
                        f" ({fmt(reply.value)} from X's side, as the search counts)")
                     + f", {reply.nodes:,} nodes searched")
        else:
            said += f" ({name} returned only a move: no value or node count)"
        return f"{said} in {reply.seconds:.2f} s."

    def _end_text(self) -> str:
        winner = getattr(self.game, "winner", lambda s: None)(self.state)
        if not winner:
            return "<b>Game over: a draw.</b>"
        who = "you win" if winner == self.human else "the computer wins"
        return (f"<b>Game over: {winner} wins ({who})</b> (the winning line is ringed: "
                f"{self._line_text(self.winning_cells())}).")

    def _show_changed(self, change: dict[str, Any]) -> None:
        on = bool(change["new"])
        self.show.description = "Hide search" if on else "Show search"
        self.show.icon = "eye-slash" if on else "eye"
        self.show.button_style = "info" if on else ""
        self._redraw_search()

    def _redraw_search(self) -> None:
        """With "Show search" on: the picture of the last reply's search at its natural
        size (never stretched; shrunk only to fit the page), or why there is nothing."""
        if not self.show.value:
            self.search_view.children = ()
            return
        result = self.result
        deepest = getattr(result, "iterations", None)
        drawn = deepest[-1] if deepest else result
        if drawn is None or getattr(drawn, "trace", None) is None:
            why = ("no search yet: the computer has not moved" if self.last is None else
                   f"{self.search_name} returned no trace to draw (search with trace=True)"
                   if drawn is not None else
                   f"{self.search_name} returned only a move: no search to draw")
            self.search_view.children = (w.HTML(f"<i>{html.escape(why)}</i>"),)
            return
        from ..draw.summary import search_summary

        summary = search_summary(drawn)
        # no margin (ipywidgets gives every widget 2 px a side): shrunk to 100% of the room,
        # a picture wider than the output area would still overflow it by its margins, and
        # the search view would scroll sideways by those few pixels
        picture = Picture(value=summary.png, format="png", tooltip=self._search_alt(drawn),
                          layout=w.Layout(width=f"{summary.width}px", height="auto",
                                          max_width="100%", max_height="85vh", margin="0",
                                          object_fit="contain", align_self="flex-start"))
        picture.add_class("mmk-search-picture")
        note = w.HTML(f"<div style='font-size:13px'>{html.escape(summary.note)}</div>"
                      if summary.note else "")
        self.search_view.children = (picture, note)

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
