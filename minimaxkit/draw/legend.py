"""The legend under a tree drawing: only what the drawing shows, in as many columns as fit
its width (matplotlib fills a legend column by column)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from matplotlib.lines import Line2D

from ..replay import Frame
from ..trace import Path
from .style import (
    CURRENT,
    EDGE_STYLES,
    MARKS,
    NODE_STYLES,
    OUTLINE_WIDTH,
    SHAPES,
    STATIC_BOX,
    TEXT,
)

__all__ = ["tree_legend"]

def tree_legend(view: Any, frame: Frame | None, marks: Mapping[Path, str] | None, *,
                ncol: int | None = None, every_step: bool = False) -> Any:
    """A legend below the tree, listing only what the drawing shows: at ``frame``, or
    with ``every_step`` at any step of its trace (frames rendered once, then recoloured;
    ``frame`` is then the last one)."""
    shown = set(view.status.values())
    done = frame is None or frame.done
    moving = view.traced and (every_step or not done)  # a call stack, a current node
    plain = NODE_STYLES["plain"]
    handles: list[Line2D] = []

    def node(marker: str, style: Any, label: str, **kw: Any) -> None:
        handles.append(Line2D([], [], marker=marker, linestyle=kw.pop("ls", "none"),
                              markerfacecolor=style.face, markeredgecolor=style.edge,
                              markeredgewidth=style.linewidth, markersize=8,
                              label=label, **kw))

    node(SHAPES["max"], plain, "MAX")
    node(SHAPES["min"], plain, "MIN")
    node(SHAPES["leaf"], plain, "leaf")
    if view.statics:
        handles.append(Line2D([], [], marker="s", linestyle="none", markersize=9,
                              markerfacecolor=STATIC_BOX["fc"],
                              markeredgecolor=STATIC_BOX["ec"], markeredgewidth=0.8,
                              label="static value (italic)"))
    if view.traced:
        node("s", NODE_STYLES["visited"], "visited")
        if moving or "active" in shown:
            node("s", NODE_STYLES["active"],
                 "call stack (α, β)" if view.show_windows else "call stack", ls="-",
                 color=EDGE_STYLES["active"].color, linewidth=2)
        if "pruned" in shown:
            node("s", NODE_STYLES["pruned"], "pruned", ls="--",
                 color=EDGE_STYLES["pruned"].color)
        if moving:
            handles.append(Line2D([], [], marker="o", linestyle="none", markersize=10,
                                  markerfacecolor="none", markeredgecolor=CURRENT.edge,
                                  markeredgewidth=CURRENT.linewidth, label="current"))
        if every_step or (frame is not None and len(frame.pv) > 1):
            handles.append(Line2D([], [], color=EDGE_STYLES["pv"].color,
                                  linewidth=EDGE_STYLES["pv"].linewidth,
                                  label="best line" if done else "best line so far"))
        if view.show_values and (view.narrowing or moving):
            # the one rule (docs/views.md): exact when every child was searched; on
            # the stack, the best so far (minimax's only ≤ and ≥, while it searches)
            handles.append(Line2D([], [], marker=r"$\geq$", linestyle="none",
                                  markersize=9, color=TEXT,
                                  label="≥v ≤v: bound" if view.narrowing
                                  else "≥v ≤v: best so far"))
        handles += _nothing_known(view)
    for kind, p in {k: p for p, k in reversed(list((marks or {}).items()))}.items():
        ms = MARKS[kind]
        if ms.outline:  # drawn as the marked node's outline: the node's shape, outlined
            handles.append(Line2D([], [], marker=SHAPES[view.model.kind(p)], linestyle="none",
                                  markersize=9, markerfacecolor="#ffffff",
                                  markeredgecolor=ms.face, markeredgewidth=OUTLINE_WIDTH,
                                  label=ms.label))
            continue
        handles.append(Line2D([], [], marker=ms.marker, linestyle="none", markersize=9,
                              markerfacecolor=ms.face, markeredgecolor=ms.edge,
                              markeredgewidth=max(ms.linewidth, 1.2),
                              label=ms.label))
    fig = view.ax.get_figure(root=True)
    assert fig is not None
    width = fig.get_size_inches()[0]
    size = max(7.0, view.fmin)  # 11 px or more
    if ncol is None:  # as many columns as fit the figure's width (filled column-wise)
        ncol = _legend_columns([len(str(h.get_label())) for h in handles], size,
                               width - 0.2)
    return view.ax.legend(handles=handles, loc="upper center",
                          bbox_to_anchor=(0.5, 0.0), ncol=ncol, frameon=False,
                          fontsize=size, handlelength=1.6, columnspacing=1.0,
                          borderaxespad=0.2)


def _legend_columns(labels: list[int], size: float, width: float) -> int:
    """The most columns a legend of labels ``labels`` characters long, at ``size`` points,
    can have within ``width`` inches (matplotlib fills it column by column, each column as
    wide as its widest entry)."""
    def entry(chars: int) -> float:  # handle, pads and text, in inches
        return (1.6 + 0.8 + 1.0 + 0.6 * chars) * size / 72

    for ncol in range(len(labels), 1, -1):
        rows = math.ceil(len(labels) / ncol)
        cols = [labels[i:i + rows] for i in range(0, len(labels), rows)]
        if sum(entry(max(c)) for c in cols) <= width:
            return len(cols)
    return 1


def _nothing_known(view: Any) -> list[Any]:
    """The legend's entry for "?" when the drawing shows one (a bound every value meets,
    :class:`~.lettering.Lettering`), else none."""
    if not view.said_nothing:
        return []
    return [Line2D([], [], marker="$?$", linestyle="none", markersize=8, color=TEXT,
                   label="?: no bound known (any value)")]
