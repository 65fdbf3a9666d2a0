"""The play widget's "Show search" view: the picture of the computer's last search (a
deepening search is drawn by its deepest completed iteration) with the sentence that says
what is drawn, or why there is nothing to draw."""

from __future__ import annotations

import base64
import html
from typing import Any

import ipywidgets as w

__all__ = ["SearchPicture", "search_picture", "search_alt"]


def search_picture(result: Any, *, moved: bool, search_name: str, connect4: bool
                   ) -> tuple[w.Widget, ...]:
    """The picture of ``result`` (the last reply's search result, None when the search
    gave only a move) at its natural size (:class:`SearchPicture`) and its note; or a line
    saying why there is nothing (``moved`` is False before the computer has moved)."""
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
    alt = search_alt(drawn, connect4)
    alt += (f" {summary.note}" if summary.note else
            f" The whole search is drawn: {summary.drawn:,} nodes.")
    picture = SearchPicture(summary.png, summary.width, summary.height, alt)
    note = w.HTML(f"<div style='font-size:13px'>{html.escape(summary.note)}</div>"
                  if summary.note else "")
    return (picture, note)


class SearchPicture(w.HTML):
    """The search picture: a PNG (``png``, ``width`` x ``height`` pixels) in an ``<img>``
    whose ``alt`` says what it shows (the search, its value and node counts, what each move
    is worth, and what is drawn), always at its natural size, so that its smallest text
    stays at the 11 px it is drawn with: in a room narrower than the picture, the picture
    scrolls sideways in its own box (it was shrunk to fit, late in a tic-tac-toe game to
    about 7 px text). (An ``Image`` widget's ``<img>`` has no ``alt``.)"""

    def __init__(self, png: bytes, width: int, height: int, alt: str) -> None:
        self.png, self.width, self.height, self.alt = png, width, height, alt
        source = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        # (tabindex: a box that scrolls can be scrolled from the keyboard too)
        # (the widget's content box is a flex item: without min-width 0 it grows to the
        # picture's width, past the page, and the box never scrolls)
        value = ("<style>.mmk-search-view > .widget-html-content { min-width: 0; "
                 "max-width: 100%; flex: 1 1 auto; }</style>"
                 f"<div class='mmk-search-scroll' tabindex='0' role='group' "
                 f"aria-label='the search picture (scrolls sideways when wider than the "
                 f"page)' style='overflow-x:auto;overflow-y:hidden;max-width:100%'>"
                 f"<img class='mmk-search-picture' src='{source}' "
                 f"alt='{html.escape(alt, quote=True)}' width='{width}' height='{height}' "
                 f"style='display:block;max-width:none;width:{width}px;height:{height}px'>"
                 f"</div>")
        # no margin (ipywidgets gives every widget 2 px a side): as wide as the room, a
        # widget would still overflow it by its margins
        super().__init__(value=value, layout=w.Layout(width="100%", max_width="100%",
                                                      min_width="0", margin="0"))
        self.add_class("mmk-search-view")


def search_alt(result: Any, connect4: bool) -> str:
    """The search picture's text alternative: the counts and value, and what each move
    from the position searched is worth (the first level, labelled in the picture)."""
    from ..draw.alt import result_alt
    from ..draw.model import value_text
    from ..draw.render import MAX_RESULT_NODES
    from ..replay import Replay, fmt

    alt = result_alt(result, max_nodes=2 * MAX_RESULT_NODES)
    replay = Replay(result)
    frame = replay.frame(len(replay) - 1)
    low, high = getattr(result.game, "value_range", (None, None))
    said_nothing = {f"≥{fmt(low)}", f"≤{fmt(high)}"} if low is not None else set()
    moves = [(p, value_text(p, frame)) for p in sorted({*frame.visited, *frame.pruned})
             if len(p) == 1]
    # (a bound every value meets says nothing: the picture draws it "?")
    moves = [(p, "no bound known" if text in said_nothing else text) for p, text in moves]
    if moves:
        what = "column" if connect4 else "move"
        alt += f" Each {what} from the position searched and its value: " + ", ".join(
            f"{replay.name(p)}: {text or 'not searched'}" for p, text in moves) + "."
    return alt
