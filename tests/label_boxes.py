"""What a tree drawing shows at one step, as boxes in pixels: every label (names, values,
static values, the α-β windows, the title, the legend) and every mark (★, ✗, ...), so a test
can check that each label lies inside the canvas and clear of the others and of the marks.
Read from the drawing model (the matplotlib artists), not from pixels."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from matplotlib.transforms import Bbox

#: Boxes may touch: an overlap under this many pixels (antialiasing) is not counted.
SLACK = 1.0


@dataclass(frozen=True)
class Box:
    """A label or a mark on the canvas: what it is (``name B``, ``window E``...) and its
    extent in pixels (origin at the canvas's bottom left)."""

    what: str
    box: Bbox


def _text_box(t: Any, renderer: Any) -> Bbox:
    """A text's extent (its box's, when it has one), measured even if it is hidden (the
    fast renderer hides the labels it blends in from a layer)."""
    shown = t.get_visible()
    t.set_visible(True)
    try:
        patch = t.get_bbox_patch()
        if patch is not None:
            t.update_bbox_position_size(renderer)
            return patch.get_window_extent(renderer)
        return t.get_window_extent(renderer)
    finally:
        t.set_visible(shown)


def labels(view: Any, renderer: Any, others: list[Any]) -> Iterator[Box]:
    """Every label ``view`` (a TreeView, after ``show``) draws, and ``others`` (title,
    legend)."""
    name = view.model.names.get
    for p, t in view.names.items():
        yield Box(f"name {name(p)}", _text_box(t, renderer))
    for p, t in view.values.items():
        if t.get_text():
            yield Box(f"value {name(p)}", _text_box(t, renderer))
    for p, t in view.statics.items():
        yield Box(f"static {name(p)}", _text_box(t, renderer))
    for i, t in enumerate(view.windows):
        if t.get_visible() and t.get_text():
            yield Box(f"window {i} {t.get_text()!r}", _text_box(t, renderer))
    for a in others:
        shown = a.get_visible()
        a.set_visible(True)
        yield Box(type(a).__name__.lower(), a.get_window_extent(renderer))
        a.set_visible(shown)


def marks(view: Any) -> Iterator[Box]:
    """Every mark drawn, as the square around its marker, named by its node."""
    ax = view.ax
    dpi = ax.get_figure(root=True).dpi
    half = view.mark_size * dpi / 72 / 2
    for p, kind in view._marked.items():
        dx, dy = view.mark_offset(p)
        x, y = ax.transData.transform(view._offset(p, dx, dy))
        yield Box(f"mark {kind} on {view.model.names[p]}",
                  Bbox.from_extents(x - half, y - half, x + half, y + half))


def stray_marks(view: Any) -> list[str]:
    """Each mark whose centre is nearer another node than its own (on screen): a mark
    between two nodes reads as either's. A mark in the row just past its node's name
    ("K ★") reads as the name's and is not counted."""
    ax = view.ax
    centre = {p: ax.transData.transform(view.model.pos[p]) for p in view.model.paths}
    found = []
    for p in view._marked:
        dx, dy = view.mark_offset(p)
        if p not in view.model.leaves and p in view.names and \
                abs(dy - 0.08 * view.size[p]) < 1e-6:
            continue  # beyond its name, at the name's height
        x, y = ax.transData.transform(view._offset(p, dx, dy))
        dist = {q: float(math.hypot(c[0] - x, c[1] - y)) for q, c in centre.items()}
        nearest = min(dist, key=dist.__getitem__)
        if nearest != p and dist[nearest] < dist[p]:
            found.append(f"the mark on {view.model.names[p]} is nearer "
                         f"{view.model.names[nearest]}")
    return found


def _overlap(a: Bbox, b: Bbox) -> bool:
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK and
            min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK)


def problems(view: Any, renderer: Any, others: list[Any],
             size: tuple[float, float] | None) -> list[str]:
    """Each label or mark outside the canvas (``size``: width, height in pixels; None for a
    picture saved with its bounding box fitted to what it draws), each pair of labels that
    overlap, each label under a mark, each mark nearer another node, in words."""
    texts = list(labels(view, renderer, others))
    found = []
    for t in [*texts, *marks(view)] if size is not None else []:
        b = t.box
        if b.x0 < -SLACK or b.y0 < -SLACK or b.x1 > size[0] + SLACK or \
                b.y1 > size[1] + SLACK:
            found.append(f"{t.what} outside the canvas: {tuple(round(v) for v in b.extents)}")
    for a, b in itertools.combinations(texts, 2):
        if _overlap(a.box, b.box):
            found.append(f"{a.what} overlaps {b.what}")
    for m in marks(view):
        found.extend(f"{m.what} covers {t.what}" for t in texts if _overlap(m.box, t.box))
    return found + stray_marks(view)
