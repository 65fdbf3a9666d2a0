"""Connect Four games as HTML that steps through the moves without a kernel or script (an SVG
board per move, radio buttons and CSS), so a saved page replays a game in any browser.

>>> from minimaxkit.arena.matches import kit_player, random_player, play_game
>>> game = play_game(kit_player(100), random_player(), "33")
>>> page = game_html(game, "g1", mark=4, note="here")
>>> page.count("<svg") == len(game.moves) - 1, 'checked' in page, "here" in page
(True, True, True)
"""

from __future__ import annotations

import html
from typing import Any

from ..games.connect4_board import Board
from .matches import GameRecord

__all__ = ["board_svg", "game_html", "games_page", "moves_text"]

_FILL = {"X": "#d95f02", "O": "#fdd835", ".": "#ffffff"}  # vermillion / yellow, text inside
_CELL = 30


def board_svg(board: Board, *, last: int | None = None, title: str = "") -> str:
    """The board as SVG: lettered discs, the column just played ringed, ``title`` its text.

    >>> svg = board_svg(Board.from_moves("33"), last=3, title="after 33")
    >>> svg.startswith("<svg") and svg.count(">X<") == 1 and "after 33" in svg
    True
    """
    w, h = board.columns * _CELL, board.rows * _CELL + 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" role="img"><title>{html.escape(title)}</title>',
             f'<rect width="{w}" height="{h - 14}" fill="#2c5f9e" rx="4"/>']
    top = {c: board.height(c) - 1 for c in range(board.columns)}
    for c in range(board.columns):
        for r in range(board.rows):
            x, y = c * _CELL + _CELL // 2, (board.rows - 1 - r) * _CELL + _CELL // 2
            v = board.cell(c, r)
            ring = ' stroke="#000" stroke-width="3"' if c == last and r == top[c] else ""
            parts.append(f'<circle cx="{x}" cy="{y}" r="{_CELL // 2 - 3}" '
                         f'fill="{_FILL[v]}"{ring}/>')
            if v != ".":
                parts.append(f'<text x="{x}" y="{y + 5}" font-size="13" font-family="sans-serif"'
                             f' text-anchor="middle" fill="#000">{v}</text>')
        parts.append(f'<text x="{c * _CELL + _CELL // 2}" y="{h - 2}" font-size="11" '
                     f'font-family="sans-serif" text-anchor="middle">{c}</text>')
    parts.append("</svg>")
    return "".join(parts)


def moves_text(moves: str) -> str:
    """Moves (column digits, as a game records them) as a reader reads them.

    >>> moves_text("205"), moves_text("3"), moves_text("")
    ('columns 2, 0, 5', 'column 3', 'no moves (the empty board)')
    """
    if not moves:
        return "no moves (the empty board)"
    return ("column " if len(moves) == 1 else "columns ") + ", ".join(moves)


def _caption(game: GameRecord, ply: int) -> str:
    start = len(game.opening)
    if ply == 0:  # "you" reads right
        return f"the opening ({moves_text(game.opening)}): X: {game.x}, O: {game.o}"
    mover = "X" if (ply - 1) % 2 == 0 else "O"
    name = game.x if mover == "X" else game.o
    text = f"move {ply}: {mover} ({name}) plays column {game.moves[ply - 1]}"
    if ply > start and ply - start - 1 < len(game.infos):
        info = game.infos[ply - start - 1]
        if info.value is not None:
            text += (f"; its search valued the move {info.value:+.4g} for X (depth "
                     f"{info.depth}, {info.nodes} nodes)")
    return text


def game_html(game: GameRecord, key: str, *, mark: int | None = None, note: str = "") -> str:
    """A step-through of ``game`` from its opening, ``key`` making its ids unique; ``mark`` (a
    ply, 1 = the first move) is shown first, outlined in red with ``note``."""
    key = "".join(ch for ch in key if ch.isalnum() or ch in "-_") or "g"
    plies = range(len(game.opening), len(game.moves) + 1)
    first = mark if mark in plies else plies[-1]
    radios, frames, rules = [], [], []
    for ply in plies:
        board = Board.from_moves(game.moves[:ply])
        last = int(game.moves[ply - 1]) if ply else None
        caption = _caption(game, ply) if ply > len(game.opening) else _caption(game, 0)
        rid = f"{key}-{ply}"
        radios.append(f'<input type="radio" name="{key}" id="{rid}"'
                      f'{" checked" if ply == first else ""} aria-label="move {ply}">')
        nav = []
        if ply > plies[0]:
            nav.append(f'<label for="{key}-{ply - 1}">&#9664; back</label>')
        if ply < plies[-1]:
            nav.append(f'<label for="{key}-{ply + 1}">next &#9654;</label>')
        marked = ply == mark
        style = ' style="outline:3px solid #c00;padding:4px"' if marked else ""
        said = f'<div style="color:#c00"><b>{html.escape(note)}</b></div>' if marked and note \
            else ""
        frames.append(f'<div class="f f{ply}"{style}>{board_svg(board, last=last, title=caption)}'
                      f"<div>{html.escape(caption)}</div>{said}"
                      f'<div class="nav">{" ".join(nav)}</div></div>')
        rules.append(f"#{rid}:checked ~ .frames .f{ply}{{display:block}}")
    jump = " ".join(f'<label for="{key}-{p}"{" style=color:#c00" if p == mark else ""}>{p}'
                    f"</label>" for p in plies)
    result = "a draw" if game.result == "draw" else f"{game.result} won"
    if game.forfeit:
        result += f" ({game.forfeit} forfeited: {game.reason})"
    css = (f"#{key} input{{position:absolute;opacity:0}} #{key} .f{{display:none}} "
           f"#{key} label{{cursor:pointer;text-decoration:underline;margin-right:4px}} "
           + " ".join(f"#{key} {r}" for r in rules))
    return (f'<div id="{key}" class="mmk-game"><style>{css}</style>'
            f"<div><b>{html.escape(game.x)} (X) v {html.escape(game.o)} (O), from the "
            f"opening {html.escape(moves_text(game.opening))}: {html.escape(result)}</b></div>"
            + "".join(radios) + f'<div class="frames">{"".join(frames)}</div>'
            f'<div class="jump">move: {jump}</div></div>')


def games_page(title: str, sections: list[tuple[str, Any]]) -> str:
    """An HTML page: a title, then ``(heading, html)`` sections."""
    body = "".join(f"<h2>{html.escape(h)}</h2>{b}" for h, b in sections)
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title></head><body style='font-family:sans-serif'>"
            f"<h1>{html.escape(title)}</h1>{body}</body></html>")
