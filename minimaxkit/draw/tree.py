"""Drawing a game tree, and a search on it at any step, with matplotlib.

MAX nodes are upward triangles, MIN nodes downward triangles and leaves squares with their
values. At a step of a trace: visited nodes are filled light blue, the call stack orange
with its window (α, β) beside each node, the current node ringed, pruned subtrees grey with
dotted outlines and dashed edges, and the best line so far (the principal variation once
the search is done) in thick blue. Every colour is paired with a shape, a line style or a
width, so greyscale prints read too.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> art = draw_tree(alphabeta(sheet_tree()), step=10)
>>> sorted(p for p, s in art["status"].items() if s == "pruned")
[(0, 1, 1), (0, 1, 2)]
>>> art["values"][(0, 1)].get_text(), art["windows"][-1].get_text()
('≥9', 'α −∞\\nβ 8')
>>> import matplotlib.pyplot as plt; plt.close("all")
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..replay import Replay, frame_at
from ..trace import Path
from .alt import frame_alt, marks_alt, model_alt, register_figure_html, set_figure_alt
from .lettering import PLAIN, Lettering
from .model import TreeModel, label_plan, resolve
from .sizes import compact_figsize, figsize_for
from .view import TreeView

__all__ = ["draw_tree", "TreeView", "tree_figure", "resolve", "figsize_for", "label_plan",
           "compact_figsize", "DrawingOptions"]


@dataclass(frozen=True)
class DrawingOptions:
    """What to draw besides the tree and the step, as :func:`draw_tree` and
    :func:`tree_figure` take it: the options travel together from those public entry
    points to the drawing.

    ``labels`` is ``"auto"``, ``"all"``, ``"values"`` or ``"none"``; ``marks`` maps paths to
    a kind of mark; ``title`` goes over the tree, ``legend`` under it; ``graph`` keeps the
    networkx graph in the artists; ``every_step``: the legend lists what any step of the
    trace shows (for frames recoloured later); ``lettering``: how names and bounds are written
    (the play widget's search picture writes each move above its child)."""

    labels: Any = "auto"
    marks: Mapping[Path, str] | None = None
    title: str | None = None
    legend: bool = True
    graph: bool = True
    every_step: bool = False
    lettering: Lettering = PLAIN


def _layout_figure(fig: Figure, model: TreeModel, *, legend: bool, title: bool) -> Axes:
    w, h = fig.get_size_inches()
    bottom = (0.45 if legend else 0.05) / h
    top = (0.32 if title else 0.05) / h
    return fig.add_axes((0.01, bottom, 0.98, 1 - bottom - top))


def tree_figure(  # noqa: PLR0913 - the options are keyword-only, as draw_tree's
        tree: Any, trace: Any = None, *, step: int | None = None, labels: Any = "auto",
        marks: Mapping[Path, str] | None = None, title: str | None = None, game: Any = None,
        state: Any = None, legend: bool = True, figsize: tuple[float, float] | None = None,
        dpi: float = 100, graph: bool = True,
        every_step: bool = False) -> tuple[Figure, dict[str, Any]]:
    """A new figure (not registered with pyplot) holding :func:`draw_tree`'s drawing, and
    the artists; for saving (``fig.savefig("tree.svg")``) and for fast rendering
    (``every_step``: the legend lists what any step of the trace shows)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    model, rp = resolve(tree, trace, game, state)
    size = figsize or figsize_for(model, legend=legend, title=bool(title), dpi=dpi)
    fig = Figure(figsize=size, dpi=dpi)
    FigureCanvasAgg(fig)
    ax = _layout_figure(fig, model, legend=legend, title=bool(title))
    art = _draw(ax, model, rp, step, DrawingOptions(labels, marks, title, legend, graph=graph,
                                                    every_step=every_step))
    if art["legend"] is not None:
        _fit_legend(fig, ax, art["legend"])
    return fig, art


def _fit_legend(fig: Figure, ax: Axes, leg: Any) -> None:
    """Make the figure taller at the bottom when the legend below the tree wraps to more
    rows than the space left for it (a narrow tree, a long legend), so no row is cut off.
    The tree keeps its size in inches, so its layout stays valid."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    low = leg.get_window_extent(renderer).y0 / fig.dpi - 0.03  # inches below the figure
    if low >= 0:
        return
    w, h = fig.get_size_inches()
    box = ax.get_position()
    fig.set_size_inches(w, h - low)
    ax.set_position((box.x0, (box.y0 * h - low) / (h - low), box.width,
                     box.height * h / (h - low)))


def _draw(ax: Axes, model: TreeModel, rp: Replay | None, step: int | None,
          options: DrawingOptions) -> dict[str, Any]:
    """Draw ``model`` on ``ax`` at ``step`` of the replay ``rp`` (None: the tree alone) as
    ``options`` say; give its figure the picture's text alternative; return the artists
    (see :func:`draw_tree`)."""
    labels, marks, title = options.labels, options.marks, options.title
    legend, graph, every_step = options.legend, options.graph, options.every_step
    view = TreeView(ax, model, labels=labels, traced=rp is not None,
                    lettering=options.lettering)
    # minimax and simple pruning keep no window: no (α, β) boxes that always read −∞, ∞
    view.show_windows = rp is None or rp.narrowing
    view.narrowing = rp is not None and rp.narrowing
    frame = frame_at(rp, step)
    view.show(frame, marks)
    fig = ax.get_figure()
    if fig is not None:
        name = model.names.get
        alt = (frame_alt(frame, lambda p: name(p) or "?", title=title) if frame is not None
               else model_alt(model, title=title))
        set_figure_alt(fig, f"{alt} {marks_alt(marks or {}, lambda p: name(p) or '?')}".strip())
        register_figure_html()
    title_artist = ax.set_title(title, fontsize=10, y=1.0, pad=4) if title else None
    leg = None
    if legend and every_step and rp is not None:
        # frames are recoloured later: the legend lists what any of them shows
        view.show(rp.frame(len(rp) - 1), marks)
        leg = view.legend(rp.frame(len(rp) - 1), marks, every_step=True)
        view.show(frame, marks)
    elif legend:
        leg = view.legend(frame, marks)
    return {
        "figure": ax.get_figure(), "ax": ax, "graph": model.graph if graph else None,
        "view": view, "replay": rp,
        "frame": frame, "status": view.status, "nodes": view.nodes, "edges": view.edges,
        "names": view.names, "values": view.values, "statics": view.statics, "windows": [
            t for t in view.windows if t.get_visible()], "current": view.current,
        "marks": view.marks, "legend": leg, "title": title_artist,
    }


def draw_tree(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
        tree: Any, trace: Any = None, *, step: int | None = None, ax: Axes | None = None,
        labels: Any = "auto", marks: Mapping[Path, str] | None = None, title: str | None = None,
        game: Any = None, state: Any = None, legend: bool = True) -> dict[str, Any]:
    """Draw a game tree, or a search on it at ``step``; return the artists.

    ``tree`` is a :class:`~minimaxkit.tree.GameTree`, a search result (its trace and game
    are used), or a trace (of a search on ``game``, from ``state``: the part of the game it
    reached is drawn). ``step`` counts the trace events applied (default: all of them).
    ``labels``: ``"auto"``, ``"all"``, ``"values"`` or ``"none"``. ``marks`` maps node paths
    to ``"extra"`` (evaluated, should have been cut), ``"missing"`` (cut, should have been
    evaluated), ``"diverge"`` (two traces part here), ``"wrong"`` or ``"right"``.
    Without ``ax`` a new pyplot figure is made (so a notebook shows it).

    The dict holds ``figure``, ``ax``, ``graph`` (networkx), ``frame`` (the replayed step),
    ``status`` (path -> plain / unvisited / visited / active / pruned), ``nodes`` (a
    collection per kind: max, min, leaf), ``edges``, ``names`` and ``values`` (path ->
    Text), ``statics`` (path -> Text: the static values of interior nodes), ``windows``
    (the α-β labels shown), ``current``, ``marks``, ``legend``, ``title`` and ``view`` (a
    :class:`TreeView` to recolour in place).
    """
    model, rp = resolve(tree, trace, game, state)
    if ax is None:
        import matplotlib.pyplot as plt

        dpi = plt.rcParams["figure.dpi"]
        fig = plt.figure(figsize=figsize_for(model, legend=legend, title=bool(title),
                                             dpi=dpi))
        ax = _layout_figure(fig, model, legend=legend, title=bool(title))
    return _draw(ax, model, rp, step, DrawingOptions(labels, marks, title, legend))


