"""A search of any size as one readable picture: the play widget's "Show search".

A whole search of Connect Four holds hundreds of nodes; drawn whole and shrunk to a
screen, no label can be read. :func:`search_summary` draws what a player wants to know
instead: the position searched, every move from it with the value the search gave it,
the replies to the move chosen (the chosen line in thick blue), and a line of words
for the rest: how many of the nodes this search reached are drawn and how many not, and
how many moves it cut off without searching them (a deepening search is drawn by its
deepest completed iteration, whose counts these are). A small search (up to
``FULL_LEAVES`` leaves) is drawn whole. The picture keeps its natural size: every
label at 11 px or more at the ``dpi`` asked.

>>> import matplotlib, textwrap
>>> matplotlib.use("Agg")
>>> from minimaxkit import alphabeta
>>> from minimaxkit.games import ConnectFour
>>> s = search_summary(alphabeta(ConnectFour(), depth=4))
>>> s.png[:4], s.drawn < s.searched
(b'\\x89PNG', True)
>>> print(textwrap.fill(s.note, 80))
Drawn: the 7 moves from the position searched and the line the search expects
after 3, 11 of the 966 nodes this search reached; the other 955 are not drawn,
nor the 701 moves it cut off unsearched.
>>> s.searched == 966 + 701
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..replay import Replay, fmt
from ..trace import Path
from .model import TreeModel

__all__ = ["SearchSummary", "search_summary", "summary_figure", "summary_model", "FULL_LEAVES"]

#: A search with at most this many leaves drawn is drawn whole (every label legible).
FULL_LEAVES = 24


@dataclass(frozen=True)
class SearchSummary:
    """The picture of a search: PNG bytes, its size in pixels, the nodes searched and
    drawn, and ``note``, the sentence that says what was left out ("" when nothing)."""

    png: bytes
    width: int
    height: int
    searched: int
    drawn: int
    note: str


def _final(result: Any) -> Any:
    """The search to draw: a deepening result's deepest completed iteration."""
    iterations = getattr(result, "iterations", None)
    return iterations[-1] if iterations else result


def summary_model(result: Any) -> tuple[TreeModel, str]:
    """The nodes to draw for ``result`` and the sentence saying what was left out: the
    whole search when it has at most :data:`FULL_LEAVES` leaves; else every move from the
    root (each with its value) and the chosen line below the chosen move, down to its end."""
    full = TreeModel.of_trace(result.trace, result.game, result.state)
    replay = Replay(result)
    frame = replay.frame(len(replay) - 1)
    if full.n_leaves <= FULL_LEAVES:
        return _with_chars(full, frame), ""
    keep = {p for p in full.paths if len(p) <= 1} | set(frame.pv)
    model = _with_chars(_restricted(full, keep), frame)
    moves = len(full.children.get((), []))
    what = f"the {moves} moves from the position searched"
    if len(frame.pv) > 2:
        what += f" and the line the search expects after {full.names[frame.pv[1]]}"
    reached = result.stats.nodes
    drawn = sum(1 for p in model.paths if p in frame.visited)
    cut = len(full) - reached
    note = (f"Drawn: {what}, {drawn:,} of the {reached:,} nodes this search reached; the "
            f"other {reached - drawn:,} are not drawn")
    note += f", nor the {cut:,} moves it cut off unsearched." if cut else "."
    return model, note


def _with_chars(model: TreeModel, frame: Any) -> TreeModel:
    """``model`` knowing the longest value its interior nodes show at ``frame``."""
    from .model import value_text

    texts = [value_text(p, frame) for p in model.paths if p not in model.leaves]
    model.inner_chars = max((len(t.lstrip("≤≥")) for t in texts), default=0)
    return model


def full_count(result: Any) -> int:
    """How many nodes the drawing of the whole search would hold (those reached and the
    roots of the subtrees cut off)."""
    return TreeModel.size_of_trace(result.trace)


def _restricted(model: TreeModel, keep: set[Path]) -> TreeModel:
    """``model`` with only the nodes in ``keep`` (a set closed under parents)."""
    paths = [p for p in model.paths if p in keep]
    return TreeModel(paths, {p: [c for c in model.children.get(p, []) if c in keep]
                             for p in paths},
                     {p: model.names[p] for p in paths}, {p: model.is_max[p] for p in paths},
                     model.leaves & keep, {p: v for p, v in model.values.items() if p in keep})


def _figsize(model: TreeModel, dpi: float) -> tuple[float, float]:
    """A figure (inches) whose bottom row gives each node room for a triangle holding its
    value (a bound such as ``≥-0.0909``) or its name above it, whichever is wider, and a
    gap, at the smallest legible font (11 px at ``dpi``); as tall as
    :func:`~minimaxkit.draw.tree.figsize_for` makes it."""
    from .style import inner_node_size, min_font_pt
    from .tree import figsize_for

    fmin = min_font_pt(dpi)
    chars = max([model.inner_chars, *(len(fmt(v)) for v in model.values.values())])
    names = max(len(model.names[p]) for p in model.paths)
    # (a node's name, its move, is written above it: the wider of the two takes the room)
    per_node = (max(1.15 * inner_node_size(chars, fmin), 0.62 * (fmin + 0.5) * names + 6)
                + 12) / 72
    width = max(per_node * model.n_leaves + 0.7, 4.0)
    return width, figsize_for(model, title=True, dpi=dpi)[1]


def summary_figure(result: Any, *, dpi: float = 80) -> tuple[Any, dict[str, Any], str]:
    """The figure of :func:`search_summary` (not yet saved), its artists (as
    :func:`~minimaxkit.draw.tree.tree_figure` returns them) and the sentence saying what
    was left out."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .lettering import Lettering
    from .render import result_title
    from .tree import DrawingOptions, _draw, _fit_legend, _layout_figure

    result = _final(result)
    if getattr(result, "trace", None) is None:
        raise ValueError("this search kept no trace (search with trace=True): nothing to draw")
    model, note = summary_model(result)
    replay = Replay(result)  # (a second replay: the first one's frame was read at the end)
    fig = Figure(figsize=_figsize(model, dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = _layout_figure(fig, model, legend=True, title=True)
    lettering = Lettering(names_on_edges=True, value_range=getattr(
        getattr(result, "game", None), "value_range", None))
    art = _draw(ax, model, replay, None,
                DrawingOptions(title=result_title(result), lettering=lettering))
    if art["legend"] is not None:
        _fit_legend(fig, ax, art["legend"])
    return fig, art, note


def search_summary(result: Any, *, dpi: float = 80) -> SearchSummary:
    """The readable picture of ``result`` (a search result with a trace, or a deepening
    result: its deepest iteration), at its natural size (see the module's docstring)."""
    import io

    from PIL import Image

    fig, _, note = summary_figure(result, dpi=dpi)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", pad_inches=0.05)
    png = buf.getvalue()
    width, height = Image.open(io.BytesIO(png)).size
    final = _final(result)
    drawn = len(summary_model(final)[0])
    return SearchSummary(png, width, height, full_count(final), drawn, note)
