"""The play widget's "Show search" view: the picture of the computer's last search (a
deepening search is drawn by its deepest completed iteration) with the sentence that says
what is drawn, or why there is nothing to draw."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ._panel import Picture

__all__ = ["search_picture"]


def search_picture(result: Any, *, moved: bool, search_name: str, connect4: bool
                   ) -> tuple[w.Widget, ...]:
    """The picture of ``result`` (the last reply's search result, None when the search
    gave only a move) at its natural size (never stretched; shrunk only to fit the page)
    and its note; or a line saying why there is nothing (``moved`` is False before the
    computer has moved)."""
    deepest = getattr(result, "iterations", None)
    drawn = deepest[-1] if deepest else result
    if drawn is None or getattr(drawn, "trace", None) is None:
        why = ("no search yet: the computer has not moved" if not moved else
               f"{search_name} returned no trace to draw (search with trace=True)"
               if drawn is not None else
               f"{search_name} returned only a move: no search to draw")
        return (w.HTML(f"<i>{html.escape(why)}</i>"),)
    from ..draw.summary import search_summary

    summary = search_summary(drawn)
    # no margin (ipywidgets gives every widget 2 px a side): shrunk to 100% of the room,
    # a picture wider than the output area would still overflow it by its margins, and
    # the search view would scroll sideways by those few pixels
    picture = Picture(value=summary.png, format="png", tooltip=search_alt(drawn, connect4),
                      layout=w.Layout(width=f"{summary.width}px", height="auto",
                                      max_width="100%", max_height="85vh", margin="0",
                                      object_fit="contain", align_self="flex-start"))
    picture.add_class("mmk-search-picture")
    note = w.HTML(f"<div style='font-size:13px'>{html.escape(summary.note)}</div>"
                  if summary.note else "")
    return (picture, note)


def search_alt(result: Any, connect4: bool) -> str:
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
        what = "column" if connect4 else "move"
        alt += f" Each {what} from the position searched and its value: " + ", ".join(
            f"{replay.name(p)}: {text or 'not searched'}" for p, text in moves) + "."
    return alt
