"""Game positions as pictures: a tic-tac-toe grid, Connect Four columns (numbered under the
board from 0, as the moves are), or a game's own text rendering for any other game.

X is vermillion, O is yellow (tic-tac-toe: O is a blue ring); shapes differ too, so
greyscale prints read.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from minimaxkit.games import ConnectFour, TicTacToe
>>> g = TicTacToe()
>>> art = draw_board(g, g.state_from_text("X.O .X. ..."), move=4)
>>> len(art["x"]), len(art["o"]), art["kind"]
(2, 1, 'tictactoe')
>>> c = ConnectFour(columns=5, rows=4)
>>> art = draw_board(c, c.state_from_moves("2213"))
>>> len(art["x"]), len(art["o"]), art["kind"]
(2, 2, 'connect4')
>>> [t.get_text() for t in art["numbers"]]     # the columns, numbered as the moves are
['0', '1', '2', '3', '4']
>>> won = c.state_from_moves("0101010")   # X: four in column 0, marked by a line
>>> len(draw_board(c, won)["wins"])
2
>>> import matplotlib.pyplot as plt; plt.close("all")
"""

from __future__ import annotations

import io
from typing import Any

from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle

from .alt import board_alt, register_figure_html, set_figure_alt
from .board_lines import WINNING_RUN, board_kind, lines_in_a_row
from .style import OKABE_ITO

__all__ = ["draw_board", "board_png", "board_kind", "lines_in_a_row", "WINNING_RUN"]

X_COLOR, O_COLOR, RING = OKABE_ITO["vermillion"], OKABE_ITO["yellow"], OKABE_ITO["blue"]


#: Room under a Connect Four board for its column numbers, in cells.
NUMBERS_ROOM = 0.7


def _new_axes(ax: Axes | None, cols: int, rows: int, size: float = 0.42,
              numbered: bool = False) -> Axes:
    below = NUMBERS_ROOM if numbered else 0.0
    if ax is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(max(cols * size, 1.4),
                                  max(rows * size, 1.4) + 0.3 + below * size))
        ax = fig.add_axes((0.02, 0.02, 0.96, 0.86))
    ax.set_xlim(-0.1, cols + 0.1)
    ax.set_ylim(-0.1 - below, rows + 0.1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax


def _cell_xy(row: int, col: int, rows: int) -> tuple[float, float]:
    """Centre of a cell; ``row`` 0 is the top row (as ``game.board`` lists them)."""
    return col + 0.5, rows - row - 0.5


def _legible(ax: Axes, size: float) -> float:
    """``size`` points, or more: 11 px at the figure's resolution (see ``min_font_pt``)."""
    from .style import min_font_pt

    fig = ax.get_figure(root=True)
    return max(size, min_font_pt(fig.dpi)) if fig is not None else size


def draw_board(game: Any, state: Any, ax: Axes | None = None, *, move: Any = None,
               title: str | None = None) -> dict[str, Any]:
    """Draw ``state`` of ``game`` (``game.board(state)``: rows of ``'X'``, ``'O'``,
    ``'.'``, top row first) and return the artists. ``move`` (a tic-tac-toe cell or a
    Connect Four column) is ringed: the move that led here. Games without ``board()``
    are drawn as their ``render()`` text."""
    board = getattr(game, "board", None)
    if board is None:
        return _draw_text(game, state, ax, move=move, title=title)
    rows = board(state)
    n_rows, n_cols = len(rows), len(rows[0])
    kind = board_kind(game, rows)
    ax = _new_axes(ax, n_cols, n_rows, numbered=kind == "connect4")
    out: dict[str, Any] = {"ax": ax, "kind": kind, "x": [], "o": [], "grid": [],
                           "highlight": None}
    if kind == "tictactoe":
        _draw_tictactoe(ax, rows, move, out)
    else:
        _draw_connect4(ax, rows, move, out)
    out["wins"] = _draw_wins(ax, rows, kind)
    _finish(ax, game, state, move, title)
    return out


def _draw_text(game: Any, state: Any, ax: Axes | None, *, move: Any,
               title: str | None) -> dict[str, Any]:
    """A game without ``board()``: its ``render()`` text (or its state's repr), centred."""
    render = getattr(game, "render", None)
    text = render(state) if render is not None else repr(state)
    ax = _new_axes(ax, 4, 2)
    t = ax.text(2, 1, text, family="monospace", ha="center", va="center",
                fontsize=_legible(ax, 10))
    _finish(ax, game, state, move, title)
    return {"ax": ax, "kind": "text", "text": t, "x": [], "o": [], "highlight": None}


def _draw_tictactoe(ax: Axes, rows: list[list[str]], move: Any, out: dict[str, Any]) -> None:
    """The 3 x 3 grid, X as a cross and O as a ring, and the cell ``move`` ringed dashed;
    the artists go into ``out`` (``grid``, ``x``, ``o``, ``highlight``)."""
    for i in (1, 2):
        out["grid"].append(ax.add_line(Line2D([i, i], [0, 3], color="#333333", lw=2)))
        out["grid"].append(ax.add_line(Line2D([0, 3], [i, i], color="#333333", lw=2)))
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x, y = _cell_xy(r, c, 3)
            if cell == "X":
                out["x"].append(tuple(ax.add_line(Line2D(
                    [x - 0.3, x + 0.3], [y - 0.3 * dx, y + 0.3 * dx],
                    color=X_COLOR, lw=4, solid_capstyle="round")) for dx in (1, -1)))
            elif cell == "O":
                out["o"].append(ax.add_patch(Circle((x, y), 0.3, fill=False, ec=RING,
                                                    lw=3.5)))
    if move is not None:
        x, y = _cell_xy(int(move) // 3, int(move) % 3, 3)
        out["highlight"] = ax.add_patch(Rectangle((x - 0.47, y - 0.47), 0.94, 0.94,
                                                  fill=False, ec="#000000", lw=1.5,
                                                  ls="--"))


def _draw_connect4(ax: Axes, rows: list[list[str]], move: Any, out: dict[str, Any]) -> None:
    """The blue board with its columns numbered under it, a disc per cell (white when
    empty), and the top disc of column ``move`` ringed dashed; the artists go into ``out``
    (``numbers``, ``x``, ``o``, ``highlight``)."""
    n_rows, n_cols = len(rows), len(rows[0])
    ax.add_patch(Rectangle((0, 0), n_cols, n_rows, color="#4a7fb5", zorder=0))
    # the columns numbered as the moves are (0 on the left), as the game's text does
    out["numbers"] = [ax.text(c + 0.5, -0.45 * NUMBERS_ROOM, str(c), ha="center",
                              va="center", fontsize=_legible(ax, 8), color="#111111")
                      for c in range(n_cols)]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x, y = _cell_xy(r, c, n_rows)
            color = {"X": X_COLOR, "O": O_COLOR}.get(cell, "#ffffff")
            disc = ax.add_patch(Circle((x, y), 0.38, fc=color, ec="#1a1a1a", lw=1.0))
            if cell == "X":
                out["x"].append(disc)
            elif cell == "O":
                out["o"].append(disc)
    if move is not None:
        col = int(move)
        top = next((r for r in range(n_rows) if rows[r][col] != "."), None)
        if top is not None:
            x, y = _cell_xy(top, col, n_rows)
            out["highlight"] = ax.add_patch(Circle((x, y), 0.46, fill=False,
                                                   ec="#000000", lw=2.2, ls="--"))


def _draw_wins(ax: Axes, rows: list[list[str]], kind: str) -> list[Line2D]:
    """The lines that won, each drawn through its pieces' centres (white under black, so
    it reads on any piece); their artists."""
    n_rows = len(rows)
    wins = []
    for _, (r0, c0), (r1, c1) in lines_in_a_row(rows, WINNING_RUN[kind]):
        (x0, y0), (x1, y1) = _cell_xy(r0, c0, n_rows), _cell_xy(r1, c1, n_rows)
        for color, width in (("#ffffff", 7.0), ("#1a1a1a", 3.5)):
            wins.append(ax.add_line(Line2D([x0, x1], [y0, y1], color=color, lw=width,
                                           solid_capstyle="round", zorder=5)))
    return wins


def _finish(ax: Axes, game: Any, state: Any, move: Any, title: str | None) -> None:
    """The title over the board, and the board's text alternative on its figure."""
    if title:
        ax.set_title(title, fontsize=_legible(ax, 9))
    _tell(ax, game, state, move, title)


def _tell(ax: Axes, game: Any, state: Any, move: Any, title: str | None) -> None:
    """Attach the board's text alternative to its figure (see :mod:`minimaxkit.draw.alt`)."""
    fig = ax.get_figure()
    if fig is not None:
        set_figure_alt(fig, board_alt(game, state, move=move, title=title))
        register_figure_html()


def board_png(  # noqa: PLR0913 - the options are keyword-only, as draw_board's callers pass them
        game: Any, state: Any, *, move: Any = None, title: str | None = None, dpi: float = 72,
        cell: float = 0.42) -> bytes:
    """``state`` drawn by :func:`draw_board` as PNG bytes (no pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    board = getattr(game, "board", None)
    rows = board(state) if board is not None else [[""] * 4] * 2
    n_rows, n_cols = len(rows), len(rows[0])
    below = NUMBERS_ROOM * cell if board is not None and board_kind(game, rows) == "connect4" \
        else 0.0
    fig = Figure(figsize=(max(n_cols * cell, 1.4), max(n_rows * cell, 1.4) + 0.3 + below),
                 dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.86))
    draw_board(game, state, ax, move=move, title=title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
