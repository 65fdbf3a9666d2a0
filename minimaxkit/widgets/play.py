"""Play tic-tac-toe or Connect Four against a search function: the kit's, or a student's.

``search(game, state)`` returns a :class:`~minimaxkit.search.SearchResult` (then the widget
shows the move, its value and how many nodes were searched), a deepening result, or just a
move. The controls: "You play" X (moves first) or O; "New game"; "Undo" (takes back your
last move and the computer's reply); "Show search", a toggle that draws the last reply's
search as one readable picture (:func:`~minimaxkit.draw.summary.search_summary`). The
computer's last move is framed with a dashed line on the board, and its value is said from
its own side. The computer searches in a thread: your move shows at once, and the board
takes no other move until the reply is on it (``click`` waits for the reply; ``play``
returns at once, as a click on the board does, and :meth:`PlayWidget.wait` waits).

>>> from minimaxkit.games import TicTacToe
>>> pw = PlayWidget(TicTacToe())
>>> pw.click(4)                      # X in the centre; the search answers as O
>>> pw.last.nodes > 0, pw.game.board(pw.state)[1][1]
(True, 'X')
>>> "The computer (O) played" in pw.status.value
True
>>> pw.show.value = True             # the picture of that search
>>> pw.search_view.children[0].png[:4]
b'\\x89PNG'
>>> pw.undo(); pw.history, pw.show.value
([], True)
>>> pw.new_game(); pw.show.value       # a new game hides the last game's search
False
>>> pw.side.value = "O"              # play O: the computer opens as X
>>> pw.wait(); len(pw.history)
1
"""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

from ..support.text import listed
from ._panel import RerunHint, needs_kernel
from ._play_board import BOARD_CSS, Board, CellLook, winning_cells
from ._play_picture import search_picture
from ._play_reply import Reply, reply_of, reply_text, search_text
from .play_search import EvaluationError, default_search, evaluation_search, search_name

__all__ = ["PlayWidget", "Reply", "default_search", "evaluation_search"]

#: What the status says of a click made while the computer searched (it is not played),
#: and, once the computer has moved, of such a click (:func:`dropped_note` for several).
IGNORED = "The computer is thinking: wait for its move (that click was not played)."
IGNORED_BEFORE = "Your click while the computer was thinking was not played."


def thinking_note(clicks: int) -> str:
    """What the status says while the computer thinks, of the ``clicks`` made meanwhile.

    >>> thinking_note(1) == IGNORED
    True
    >>> thinking_note(3)
    'The computer is thinking: wait for its move (those 3 clicks were not played).'
    """
    if clicks == 1:
        return IGNORED
    return f"The computer is thinking: wait for its move (those {clicks} clicks were not played)."


def dropped_note(clicks: int) -> str:
    """What the status says, once the computer has moved, of the ``clicks`` made while it
    thought (a burst of them is counted, not said as one).

    >>> dropped_note(1) == IGNORED_BEFORE
    True
    >>> dropped_note(2)
    'Your 2 clicks while the computer was thinking were not played.'
    """
    if clicks == 1:
        return IGNORED_BEFORE
    return f"Your {clicks} clicks while the computer was thinking were not played."


@dataclass(frozen=True)
class Ply:
    """One move of the game: the move, the state after it, and the computer's
    :class:`Reply` with its search result when the computer played it (else None)."""

    move: Any
    state: Any
    reply: Reply | None = None
    result: Any = None


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
                           on_click=self._clicked, where=self._where,
                           labels=self._labels())
        self.grid = self.board.grid
        self.numbers = self.board.numbers  # Connect Four's column numbers under the board
        self.status = w.HTML()
        self.status.add_class("mmk-status")
        self._build_controls(human)
        self.search_view = w.VBox(layout=w.Layout(align_items="flex-start",
                                                  max_width="100%"))
        self.kernel_note = needs_kernel("play")
        # the computer searches in a thread, so the board can show your move and refuse
        # clicks meanwhile; the lock keeps its reply and your clicks from interleaving
        self._lock = threading.RLock()
        self._thinker: threading.Thread | None = None
        self._game_number = 0
        self._dropped = 0  # clicks not played since your last move (see dropped_note)
        super().__init__([self.kernel_note, self.side, self.grid, self.status,
                          w.HBox([self.restart, self.undo_button, self.show]),
                          self.search_view])
        self.add_class("mmk-play")
        self.new_game()
        self.wait()  # (the cell that makes the widget shows the computer's opening move)

    def _build_controls(self, human: str) -> None:
        self.side = w.ToggleButtons(options=[("X (moves first)", "X"),
                                             ("O (moves second)", "O")],
                                    value=human, description="You play:",
                                    tooltips=["You move first; the computer is O",
                                              "The computer moves first as X; you are O"],
                                    style={"button_width": "auto"},
                                    # room under it for the chosen button's shadow (9 px
                                    # below it: it lay on the board's top row as grey
                                    # notches)
                                    layout=w.Layout(margin="2px 2px 12px 2px"))
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
        """Start again from the empty board (the search starts thinking of its first move
        if you are O: :meth:`wait` for it); the last game's search picture is hidden, and a
        reply still being searched for the last game is dropped when it comes."""
        with self._lock:
            if getattr(self, "history", None) or self._thinker is not None:
                self.board.renew()  # (a click on the last game's board is not played)
            self._game_number += 1
            self._thinker = None
            self.state = self.game.initial_state()
            self.history: list[Ply] = []
            self.message = ""
            self._dropped = 0
            if self.show.value:
                self.show.value = False  # (redraws the search view: nothing)
            if self.human == "O":
                self._start_reply()
            self._redraw()

    @property
    def thinking(self) -> bool:
        """True while the computer searches for its reply (the board takes no move)."""
        return self._thinker is not None

    def wait(self, timeout: float | None = None) -> None:
        """Return when the computer has replied (at once if it is not thinking), or after
        ``timeout`` seconds."""
        thinker = self._thinker
        if thinker is not None:
            thinker.join(timeout)

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

    def _labels(self) -> tuple[list[str], list[str]] | None:
        """The names of the columns and rows (from the top) that the moves' names are made
        of (tic-tac-toe: a, b, c and 1, 2, 3, a1 top left); None for Connect Four, whose
        columns are numbered under the board."""
        if self.connect4 or getattr(self.game, "move_name", None) is None:
            return None
        return ([self._name(c)[:1] for c in range(self.n_cols)],
                [self._name(r * self.n_cols)[1:] for r in range(self.n_rows)])

    @property
    def cells(self) -> list[list[w.Button]]:
        """The board's buttons on screen, one per cell, by row from the top."""
        return self.board.cells

    def _to_move(self) -> str:
        return "X" if self.game.is_max(self.state) else "O"

    def _clicked(self, r: int, c: int, generation: int) -> None:
        """A click on the board: your move is shown at once, and the computer's reply
        comes when its search ends. Only a click on the board of your turn is played: a
        click the front end sent before it showed the reply (the kernel can get it after
        the reply, when the board would take it) was made on an older board, whose
        ``generation`` is not the board's now, and it is dropped, as a click while the
        computer thinks is."""
        move = c if self.connect4 else r * self.n_cols + c
        # the board is checked and the move played under one hold of the lock: the search's
        # thread, ending between the two, put a new board and its reply on screen, and a
        # click made on the old board was played on the new one (outside student pass 7)
        with self._lock:
            if generation == self.board.generation:
                self.play(move)
                return
            if self.thinking:
                self._refuse_while_thinking(move)
            elif move != self._your_last_move():
                self._dropped += 1
                self.message = dropped_note(self._dropped)
                self._redraw()

    def _refuse_while_thinking(self, move: Any) -> None:
        """A click while the computer thinks is not played; the status says so, except
        of a second click on the move just played (a double-click: nothing to say)."""
        if move != self._your_last_move():
            self._dropped += 1
            self.message = thinking_note(self._dropped)

    def click(self, move: Any) -> None:
        """Play your ``move`` (a cell 0..8 or a column) and return when the search has
        replied."""
        self.play(move)
        self.wait()

    def _your_last_move(self) -> Any:
        """The move you played last (None before your first): a second click on it is a
        double-click, not a try at an illegal move."""
        yours = [ply.move for ply in self.history if ply.reply is None]
        return yours[-1] if yours else None

    def play(self, move: Any) -> None:
        """Play your ``move`` and let the search start its reply (see :meth:`wait`); while
        it searches, a move is refused and the status says the computer is thinking."""
        with self._lock:
            if self.thinking:
                self._refuse_while_thinking(move)
            elif self.over:
                self.message = "The game is over: press New game."
            elif self._to_move() != self.human:
                self.message = "Wait: it is the computer's turn."
            elif move not in self.game.moves(self.state):
                # a second click on the move just played is a double-click: nothing to say
                self.message = "" if move == self._your_last_move() else \
                    f"{self._name(move)} is not a legal move."
            else:
                self.message = ""
                self._dropped = 0
                self.state = self.game.play(self.state, move)
                self.history.append(Ply(move, self.state))
                if not self.over:
                    self._start_reply()
            self._redraw()

    def undo(self) -> None:
        """Take back your last move and the computer's reply to it (nothing to take back
        before your first move)."""
        with self._lock:
            self._undo()

    def _undo(self) -> None:
        human_moves = [i for i, ply in enumerate(self.history) if ply.reply is None]
        if self.thinking:
            self.message = "The computer is thinking: undo when it has moved."
        elif not human_moves:
            self.message = "Nothing to undo: you have not moved yet."
        else:
            replied = len(self.history) - human_moves[-1] > 1  # (none after a last move)
            del self.history[human_moves[-1]:]
            self.board.renew()  # (a click on the board before the undo is not played)
            self._dropped = 0
            self.state = self.history[-1].state if self.history else \
                self.game.initial_state()
            self.message = ("Took back your last move and the computer's reply." if replied
                            else "Took back your last move.")
        self._redraw()

    def _start_reply(self) -> None:
        """Start the search for the computer's reply in a thread (the caller holds the
        lock and redraws: the board then shows the computer thinking)."""
        thinker = threading.Thread(target=self._think,
                                   args=(self._game_number, self.state), daemon=True,
                                   name="minimaxkit-play-reply")
        self._thinker = thinker
        thinker.start()

    def _think(self, game_number: int, state: Any) -> None:
        """The thread's work: search ``state``, then play the reply and redraw, unless a
        new game began meanwhile (then the reply is dropped)."""
        start = time.perf_counter()
        answer, failure = None, ""
        try:
            answer = self.search(self.game, state)
        except EvaluationError as err:  # "returned nan, ...", "raised KeyError: ..."
            failure = f"{self.search_name} {err}"
        except Exception as err:  # a student's function may fail: show it, keep the game
            failure = f"{self.search_name} raised {type(err).__name__}: {err}"
        seconds = time.perf_counter() - start
        with self._lock:
            if game_number != self._game_number:
                return
            self._thinker = None
            # your turn begins on a new board: a click on the old one that comes after
            # this (sent before the front end had the reply) is not played either
            self.board.renew()
            # a click made while the search ran was not played: say so once it has moved
            # (what else was said while it searched, such as "undo when it has moved", is
            # past once it has)
            self.message = dropped_note(self._dropped) if self._dropped else ""
            if failure:
                self.message = failure
            else:
                self._play_reply(*reply_of(answer, seconds))
            self._redraw()

    def _play_reply(self, reply: Reply, result: Any) -> None:
        """Play the computer's ``reply`` (or say why it is not a legal move)."""
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
            return ("its cells as (column, row), rows counted from 0 at the bottom, are "
                    + listed([f"({c}, {r})" for c, r in pairs]))
        return listed(sorted(self._name(r * self.n_cols + c) for r, c in cells))

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
                # (in Connect Four a click anywhere in a column that is not full plays it,
                # on its pieces too: the lectures say "click a column", and a click on the
                # stack did nothing, not even a note (outside student pass 7))
                move = c if self.connect4 else r * self.n_cols + c
                clickable = not self.over and not self.thinking and move in legal
                looks[-1].append(self.board.look((r, c), cell, clickable=clickable,
                                                 win=(r, c) in won, last=(r, c) == last))
        return looks

    def _redraw(self) -> None:
        """Show the board, the status and the search view of now. The search picture is
        drawn first (it takes a moment), so that all three change together."""
        search_view = self._search_children()
        self.board.show(self._looks())
        self.undo_button.disabled = self.thinking or not any(
            ply.reply is None for ply in self.history)
        # first the computer's move and whose turn it is, then a note about your clicks,
        # then, in grey, what the search said of its move
        reply = self.last if self.last is not None and self.history[-1].reply is not None \
            else None  # (None before the computer's first move, and after yours)
        first = [] if reply is None else [reply_text(reply, self.human, self._name(reply.move))]
        if self.over:
            first.append(self._end_text())
        elif self.thinking:
            first.append(f"You are {self.human}; the computer is thinking…")
        else:
            first.append(f"You are {self.human}; {self._to_move()} to move.")
        lines = [" ".join(first)]
        if self.message:
            lines.append(f"<span style='color:#b34700'>{html.escape(self.message)}</span>")
        if reply is not None:
            lines.append(f"<span style='color:#555555'>"
                         f"{search_text(reply, self.human, self.search_name)}</span>")
        # (line-height: ipywidgets gives an HTML widget a one-line control's 28 px, and
        # the status's lines read double-spaced: outside student pass 7)
        self.status.value = (BOARD_CSS + "<div style='font-size:13px;line-height:1.45'>"
                             + "<br>".join(lines) + "</div>")
        self.search_view.children = search_view

    def _end_text(self) -> str:
        winner = getattr(self.game, "winner", lambda s: None)(self.state)
        if not winner:
            return "<b>Game over: a draw.</b>"
        who = "you win" if winner == self.human else "the computer wins"
        # (no parentheses around parentheses: "X wins (you win) (...: (column, row) (3, 0)"
        # read as a tangle, outside student pass 8)
        return (f"<b>Game over: {winner} wins, {who}.</b> The winning line is framed in "
                f"black: {self._line_text(self.winning_cells())}.")

    def _show_changed(self, change: dict[str, Any]) -> None:
        on = bool(change["new"])
        self.show.description = "Hide search" if on else "Show search"
        self.show.icon = "eye-slash" if on else "eye"
        self.show.button_style = "info" if on else ""
        with self._lock:
            self.search_view.children = self._search_children()

    def _search_children(self) -> tuple[w.Widget, ...]:
        """With "Show search" on: the picture of the last reply's search at its natural
        size (never stretched nor shrunk: it scrolls sideways in a narrow page), or why
        there is nothing (the computer is still thinking of its next move: the last picture
        would not match)."""
        if not self.show.value:
            return ()
        if self.thinking:
            return (w.HTML("<i>The computer is thinking: its search is drawn when it has "
                           "moved.</i>"),)
        return search_picture(self.result, moved=self.last is not None,
                              search_name=self.search_name, connect4=self.connect4)
