"""The artists of one tree drawing (nodes, edges, names, values, windows, marks) and how
each step of a search recolours them in place: :class:`TreeView`. The figures that hold it
are made in :mod:`minimaxkit.draw.tree`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.text import Text

from ..replay import Frame, fmt
from ..trace import Path
from .lettering import PLAIN, Lettering, edge_name
from .model import (
    MarkSpace,
    RowMeasures,
    TreeModel,
    check_marks,
    corner_away,
    label_plan,
    mark_offset,
    name_sides,
    node_statuses,
    side_room,
    value_text,
    window_side,
)
from .style import (
    CURRENT,
    DARK_ORANGE,
    EDGE_STYLES,
    MARKS,
    NAME_TEXT,
    NODE_STYLES,
    OUTLINE_WIDTH,
    PRUNED_TEXT,
    SHAPES,
    STATIC_BOX,
    TEXT,
    MarkStyle,
    NodeStyle,
    bound_offset,
    inner_node_size,
    min_font_pt,
    text_width,
)

__all__ = ["TreeView"]

_KINDS = ("max", "min", "leaf")



class TreeView:
    """The artists of one tree drawing, recoloured in place by :meth:`show`."""

    def __init__(self, ax: Axes, model: TreeModel, *, labels: Any = "auto",
                 traced: bool = True, lettering: Lettering = PLAIN) -> None:
        self.ax, self.model, self.traced, self.lettering = ax, model, traced, lettering
        self.said_nothing = False  # some node shows "?" (the legend says what it means)
        self.show_values, self.show_inner_names, self.show_leaf_names = label_plan(
            labels, model.n_leaves)
        paths = model.paths
        xs = [model.pos[p][0] for p in paths]
        self.x0, self.x1 = min(xs) - 0.6, max(xs) + 0.6
        self.y0, self.y1 = -model.height - 0.75, 0.55  # room for a mark under a leaf name
        ax.set_axis_off()
        self._scale()
        # an (α, β) window pushed past the edge (beyond the name of a node at the edge) gets
        # room: the x-range grows on that side and the sizes are worked out again
        left, right = self._window_overflow()
        if left > 0 or right > 0:
            self._make_room(1.1 * max(left, 0.0), 1.1 * max(right, 0.0))
        self._marked: dict[Path, str] = {}
        self._draw_edges()
        self._draw_nodes()
        self._draw_texts()
        self._draw_overlays()
        self.status: dict[Path, str] = {}
        self.show_windows = True  # the (α, β) box beside each node on the call stack
        self.narrowing = True  # a search with α and β (its values can be bounds)

    # ----- construction -------------------------------------------------------------------
    def _scale(self) -> None:
        """The axes' limits, points per unit, node and font sizes and name sides."""
        ax = self.ax
        ax.set_xlim(self.x0, self.x1)
        ax.set_ylim(self.y0, self.y1)
        fig = ax.get_figure(root=True)
        assert fig is not None
        w_in, h_in = fig.get_size_inches()
        box = ax.get_position()
        self.xpt = box.width * w_in * 72 / (self.x1 - self.x0)  # points per x unit
        self.ypt = box.height * h_in * 72 / (self.y1 - self.y0)
        self.fmin = min_font_pt(fig.dpi)  # 11 px at the figure's resolution
        self._sizes()
        # names go on the side away from the edge coming in from the parent; the α-β
        # window label on the other side
        self.side = name_sides(self.model, self.size, self.xpt, self._label_width)

    def _make_room(self, left: float, right: float) -> None:
        """``left`` and ``right`` more points beside the tree: the figure grows by them when
        the tree is its only drawing (the tree keeps its scale and every label its room),
        else the tree is drawn a little narrower in its axes."""
        ax = self.ax
        fig = ax.get_figure(root=True)
        assert fig is not None
        self.x0 -= left / self.xpt
        self.x1 += right / self.xpt
        if fig.axes == [ax]:
            w, h = fig.get_size_inches()
            box = ax.get_position()
            grown = w + (left + right) / 72
            fig.set_size_inches(grown, h)
            ax.set_position((box.x0 * w / grown, box.y0,
                             (box.width * w + (left + right) / 72) / grown, box.height))
        self._scale()

    def _window_room(self, p: Path) -> tuple[int, float]:
        """The side of ``p``'s (α, β) window and its distance (points) from ``p``'s centre
        to the window's near edge (see :func:`~minimaxkit.draw.model.window_side`)."""
        side, beyond = window_side(self.model, self.side, p)
        room = 0.5 * CURRENT.scale * self.size[p] + 2
        if beyond:  # past the node's own name, a space apart
            room += 1 + 0.8 * (self.name_font + 0.5) * len(self.model.names[p]) + 5
        mark = self._marked.get(p) if hasattr(self, "_marked") else None
        if mark is not None:  # past a mark on the window's side, too
            dx, dy = self.mark_offset(p)
            if dx * side > 0 and abs(dy) < 0.5 * self.size[p]:
                room = max(room, abs(dx) + 0.5 * self.mark_size + 3)
        return side, room

    def _window_overflow(self) -> tuple[float, float]:
        """How far (points) the widest (α, β) window of a node at the edge would reach past
        the axes on the left and on the right."""
        if not self.show_values:
            return 0.0, 0.0
        m = self.model
        chars = max(2, self.value_chars, *(len(fmt(v)) for v in m.statics.values()))
        width = text_width("α −" + "8" * chars, self.value_font) + 0.3 * self.value_font + 2
        left = right = 0.0
        for p in m.paths:
            if p in m.leaves:
                continue
            side, room = self._window_room(p)
            x = (m.pos[p][0] - self.x0) * self.xpt  # from the left edge, in points
            if side < 0:
                left = max(left, room + width - x)
            else:
                right = max(right, x + room + width - (self.x1 - self.x0) * self.xpt)
        return left, right

    def _sizes(self) -> None:
        m = self.model
        leaf = min(max(min(0.72 * self.xpt, 0.42 * self.ypt), 2.0), 22.0)
        by_depth: dict[int, list[float]] = {}
        for p in m.paths:
            by_depth.setdefault(len(p), []).append(m.pos[p][0])
        gap = {}
        for d, xs in by_depth.items():
            xs.sort()
            diffs = [b - a for a, b in zip(xs, xs[1:], strict=False)]
            gap[d] = min(diffs) if diffs else 1e9
        self.gap = gap
        self.size: dict[Path, float] = {}
        for p in m.paths:
            if p in m.leaves:
                self.size[p] = leaf
            else:
                room = min(0.8 * gap[len(p)] * self.xpt, 0.5 * self.ypt)
                self.size[p] = min(max(room, leaf, 3.0), 30.0)
        fmin = self.fmin
        chars = max((len(fmt(m.values[p])) for p in m.leaves if p in m.values), default=1)
        chars = max(chars, m.inner_chars)
        if self.show_values:  # every label at 11 px or more, each value inside its square
            leaf = max(leaf, min(0.66 * fmin * chars + 4.0, 0.92 * self.xpt))
            for p in m.leaves:
                self.size[p] = leaf
            self._fit_inner_values(chars)
        self.leaf_size = leaf
        self.value_chars = chars
        self.value_font = max(min(max(0.48 * leaf, 4.5), 10.0), fmin)
        self.name_font = max(min(max(0.85 * self.value_font, 4.5), 9.0), fmin)
        # the longest leaf value must fit inside its square (4-digit values shrink)
        if chars > 2:
            self.value_font = max(min(self.value_font, 0.9 * leaf / (0.6 * chars)), 4.0,
                                  fmin)
        # a bound of more than three characters (≤0.3) at the smallest font, to fit its node
        self.inner_font = {p: fmin if chars > 2 else max(min(max(0.38 * self.size[p], 4.5),
                                                             11.0), fmin)
                           for p in m.paths if p not in m.leaves}
        self.mark_size = max(0.6 * leaf, 1.1 * fmin)

    def _fit_inner_values(self, chars: int) -> None:
        """Interior nodes large enough to hold a bound like ``≤0.3`` (one more character
        than the longest leaf value) at the smallest font, as far as the row has room."""
        m = self.model
        need = inner_node_size(chars, self.fmin)
        for p in m.paths:
            if p not in m.leaves:
                gap = self.gap[len(p)] * self.xpt  # leave room for its name beside it
                name = 0.62 * (self.fmin + 0.5) * len(m.names[p]) + 8.0
                room = min(0.9 * gap, (gap - name) / CURRENT.scale)
                self.size[p] = max(self.size[p], min(need, room, 0.8 * self.ypt))

    def _draw_edges(self) -> None:
        m = self.model
        self.edge_children = [p for p in m.paths if p]
        segs = [(m.pos[p[:-1]], m.pos[p]) for p in self.edge_children]
        self.edges = LineCollection(segs, zorder=1, capstyle="round")
        self.ax.add_collection(self.edges)

    def _draw_nodes(self) -> None:
        m = self.model
        self.groups: dict[str, list[Path]] = {k: [] for k in _KINDS}
        for p in m.paths:
            self.groups[m.kind(p)].append(p)
        self.nodes: dict[str, PathCollection] = {}
        for kind in _KINDS:
            ps = self.groups[kind]
            xy = np.array([m.pos[p] for p in ps]) if ps else np.zeros((0, 2))
            self.nodes[kind] = self.ax.scatter(
                xy[:, 0], xy[:, 1], s=[self.size[p] ** 2 for p in ps], marker=SHAPES[kind],
                zorder=2)

    def _value_font(self, p: Path, text: str) -> float:
        """The font size of an interior node's value: smaller for a long text (a bound such
        as ≤0.3), so that it stays inside the triangle, but never under the smallest legible
        size (11 px; triangles are sized to hold their bounds at it: style.inner_node_size)."""
        s = self.size[p]
        return max(min(max(0.38 * s, 4.5), 11.0, max(0.9 * s / max(len(text), 1), 4.5)),
                   self.fmin)

    def _offset(self, p: Path, dx_pt: float, dy_pt: float) -> tuple[float, float]:
        x, y = self.model.pos[p]
        return x + dx_pt / self.xpt, y + dy_pt / self.ypt

    def _label_width(self, p: Path) -> float:
        """Roughly, in points, the wider of a node's name and its static value."""
        w = 0.62 * (self.name_font + 0.5) * len(self.model.names[p])
        if p in self.model.statics:
            w = max(w, 0.62 * self.name_font * len(fmt(self.model.statics[p])) + 4)
        return w

    def _room_for_name(self, p: Path) -> bool:
        """Whether a node's name fits beside it without running into its neighbours."""
        width = 0.62 * self.name_font * len(self.model.names[p])  # points, roughly
        free = self.gap[len(p)] * self.xpt - CURRENT.scale * self.size[p]
        return width + 4 <= free

    def _draw_texts(self) -> None:
        m, ax = self.model, self.ax
        self.names: dict[Path, Text] = {}
        self.values: dict[Path, Text] = {}
        for p in m.paths:
            s = self.size[p]
            leaf = p in m.leaves
            if leaf and self.show_values and p in m.values:
                x, y = m.pos[p]
                self.values[p] = ax.text(x, y, fmt(m.values[p]), ha="center", va="center",
                                         fontsize=self.value_font, color=TEXT, zorder=4)
            elif not leaf and self.show_values:
                off = bound_offset(s, self.inner_font[p], self.value_chars)
                x, y = self._offset(p, 0, -off if m.is_max[p] else off)
                self.values[p] = ax.text(x, y, "", ha="center", va="center", zorder=5,
                                         fontsize=self.inner_font[p],
                                         fontweight="bold", color=TEXT)
            if p and self.lettering.names_on_edges and (self.show_leaf_names if leaf else
                                              self.show_inner_names):
                self.names[p] = self._edge_name(p)
            elif leaf and self.show_leaf_names:
                x, y = self._offset(p, 0, -0.5 * CURRENT.scale * s - 1.0)
                self.names[p] = ax.text(x, y, m.names[p], ha="center", va="top",
                                        fontsize=self.name_font, color=NAME_TEXT, zorder=4)
            elif not leaf and self.show_inner_names and self._room_for_name(p):
                side = self.side[p]
                x, y = self._offset(p, side * (0.5 * CURRENT.scale * s + 3.0), 0.08 * s)
                self.names[p] = ax.text(x, y, m.names[p], ha="right" if side < 0 else "left",
                                        va="center",
                                        fontsize=self.name_font + 0.5, color=NAME_TEXT,
                                        zorder=4)
        self.statics: dict[Path, Text] = {}
        if self.show_values:
            for p, v in m.statics.items():
                if p in m.pos and p not in m.leaves:
                    self.statics[p] = self._static_text(p, v)
        self.windows: list[Text] = []
        if self.show_values:
            for _ in range(m.height + 1):
                t = ax.text(0, 0, "", ha="left", va="center", fontsize=self.value_font,
                            color=TEXT, zorder=5, linespacing=1.0, visible=False,
                            bbox={"boxstyle": "round,pad=0.15", "fc": "#ffffff",
                                  "ec": DARK_ORANGE, "lw": 0.8, "alpha": 0.9})
                self.windows.append(t)

    def _edge_name(self, p: Path) -> Text:
        """``p``'s name (its move) right above ``p`` (:func:`~.lettering.edge_name`)."""
        font = self.name_font + 0.5
        at = self._offset(p, 0, 0.5 * self.size[p] + 0.6 * font + 2.0)
        return edge_name(self.ax, at, self.model.names[p], font, NAME_TEXT)

    def _static_text(self, p: Path, v: float) -> Text:
        """An interior node's static value: italic, in a dashed box, off the node's upper
        corner on its name's side (away from the edge from its parent and the α-β window)."""
        s, side = self.size[p], self.side[p]
        x, y = self._offset(p, side * 0.3 * s, 0.5 * s + 1.5)
        return self.ax.text(x, y, fmt(v), ha="left" if side > 0 else "right", va="bottom",
                            fontsize=self.name_font, fontstyle="italic", color=NAME_TEXT,
                            zorder=4, bbox=STATIC_BOX)

    def _draw_overlays(self) -> None:
        empty = np.zeros((0, 2))
        st = CURRENT
        self.current = self.ax.scatter(empty[:, 0], empty[:, 1], marker=st.marker,
                                       facecolors=st.face, edgecolors=st.edge,
                                       linewidths=st.linewidth, zorder=3)
        self.marks: dict[str, PathCollection] = {}
        for kind, ms in MARKS.items():
            self.marks[kind] = self.ax.scatter(
                empty[:, 0], empty[:, 1], marker=ms.marker, facecolors=ms.face,
                edgecolors=ms.edge, linewidths=ms.linewidth, linestyles=ms.linestyle,
                zorder=6, clip_on=False)  # beside a name at the edge: not cut off

    # ----- per frame ------------------------------------------------------------------------
    def statuses(self, frame: Frame | None) -> dict[Path, str]:
        """Each node's state at ``frame`` (see :func:`~minimaxkit.draw.model.node_statuses`)."""
        return node_statuses(self.model, frame, self.traced)

    def value_text(self, p: Path, frame: Frame | None) -> str:
        """The backed-up value shown at ``p`` (see :func:`~minimaxkit.draw.model.value_text`),
        or ``?`` for a bound that every value meets (:meth:`~.lettering.Lettering.said`:
        student 4 read a late search's "≥-1" as news)."""
        text = value_text(p, frame)
        said = self.lettering.said(text)
        self.said_nothing = self.said_nothing or said != text
        return said

    def show(self, frame: Frame | None, marks: Mapping[Path, str] | None = None) -> None:
        """Recolour every artist for ``frame`` (None: the plain tree) and ``marks``."""
        m = self.model
        status = self.statuses(frame)
        self.status = status
        outlined = {p: MARKS[kind] for p, kind in check_marks(m, marks or {}).items()
                    if MARKS[kind].outline}
        for kind in _KINDS:
            ps = self.groups[kind]
            styles = [_outlined(NODE_STYLES[status[p]], outlined.get(p)) for p in ps]
            coll = self.nodes[kind]
            coll.set_facecolor([s.face for s in styles] or "none")
            coll.set_edgecolor([s.edge for s in styles] or "none")
            coll.set_linewidth([s.linewidth for s in styles] or [1.0])
            dashes: Any = [s.linestyle for s in styles] or ["-"]
            coll.set_linestyle(dashes)
        pv = set(frame.pv) if frame is not None else set()
        estyles = []
        for p in self.edge_children:
            st = status[p]
            if st == "pruned":
                estyles.append(EDGE_STYLES["pruned"])
            elif st == "active":
                estyles.append(EDGE_STYLES["active"])
            elif p in pv and frame is not None:
                estyles.append(EDGE_STYLES["pv"])
            else:
                estyles.append(EDGE_STYLES["plain" if frame is None else st])
        self.edges.set_color([e.color for e in estyles])
        self.edges.set_linewidth([e.linewidth for e in estyles])
        edge_dashes: Any = [e.linestyle for e in estyles]
        self.edges.set_linestyle(edge_dashes)
        for p, t in self.values.items():
            if p in m.leaves:
                t.set_color(PRUNED_TEXT if status[p] == "pruned" else TEXT)
            else:
                text = self.value_text(p, frame)
                t.set_text(text)
                t.set_fontsize(self._value_font(p, text))
        for p, t in self.names.items():
            t.set_color(PRUNED_TEXT if status[p] == "pruned" else NAME_TEXT)
        for p, t in self.statics.items():
            t.set_color(PRUNED_TEXT if status[p] == "pruned" else NAME_TEXT)
        self._marked = check_marks(m, marks or {})
        self._show_windows(frame)
        cur = frame.current if frame is not None and not frame.done else None
        if cur is not None and cur in m.pos:
            self.current.set_offsets([m.pos[cur]])
            self.current.set_sizes([(CURRENT.scale * self.size[cur]) ** 2])
        else:
            self.current.set_offsets(np.zeros((0, 2)))
        self._show_marks(marks or {})

    def _show_windows(self, frame: Frame | None) -> None:
        levels = frame.stack if frame is not None and self.show_windows else ()
        for i, t in enumerate(self.windows):
            if i < len(levels) and levels[i].path in self.model.pos:
                lv = levels[i]
                side, room = self._window_room(lv.path)
                x, y = self._offset(lv.path, side * room, 0)
                t.set_position((x, y))
                t.set_horizontalalignment("left" if side > 0 else "right")
                t.set_text(f"α {fmt(lv.alpha)}\nβ {fmt(lv.beta)}")
                t.set_visible(True)
            else:
                t.set_visible(False)

    def _show_marks(self, marks: Mapping[Path, str]) -> None:
        m = self.model
        by_kind: dict[str, list[Path]] = {k: [] for k in MARKS}
        for p, kind in check_marks(m, marks).items():
            if not MARKS[kind].outline:  # an outlining mark is the node's outline (show)
                by_kind[kind].append(p)
        for kind, ps in by_kind.items():
            xy = []
            for p in ps:
                dx, dy = self.mark_offset(p)
                xy.append(self._offset(p, dx, dy))
            coll = self.marks[kind]
            coll.set_offsets(np.array(xy) if xy else np.zeros((0, 2)))
            coll.set_sizes([self.mark_size ** 2 for _ in ps])

    def mark_offset(self, p: Path) -> tuple[float, float]:
        """Where a mark on ``p`` goes, in points from its centre (see
        :func:`~minimaxkit.draw.model.mark_offset`): under a leaf's name; beyond an interior
        node's name, or where there is no room for it there, the first of these that is
        nearer its own node than any other (a mark between two nodes reads as either's):
        over the corner away from the edge from the parent, under the name, over the other
        corner."""
        leaf = p in self.model.leaves
        name = self.names.get(p)
        if leaf:
            height = 1.2 * self.name_font if p in self.names else 0.0
            return mark_offset("", True, self.side[p], self.size[p],
                               MarkSpace(name_height=height, mark=self.mark_size))
        width = text_width(name.get_text(), self.name_font + 0.5) if name else 0.0

        def named(q: Path) -> float:
            t = self.names.get(q)
            return text_width(t.get_text(), self.name_font + 0.5) if t is not None else 0.0

        side = self.side[p]
        room = side_room(self.model, p, side, RowMeasures(self.xpt, self.size, self.side, named))
        name_height = 1.2 * (self.name_font + 0.5) if name else 0.0
        corner = corner_away(self.model, p, side) or side

        def at(room: float, corner: int) -> tuple[float, float]:
            return mark_offset("", False, side, self.size[p], MarkSpace(
                name_width=width, name_height=name_height, mark=self.mark_size, room=room,
                corner=corner))

        ring = 0.5 * CURRENT.scale * self.size[p]
        under = (side * (ring + 3.0 + 0.5 * self.mark_size),
                 0.08 * self.size[p] - name_height - 1.0 - 0.5 * self.mark_size)
        first = at(room, corner)
        if abs(first[1] - 0.08 * self.size[p]) < 1e-9:  # beyond the name: the name's own
            return first
        # over a ▲'s "corner" is beside its apex, where the edge from its parent arrives:
        # a mark there reads as the edge's; beside it, under its name, it reads as its own
        tried = (under, first, at(0.0, -corner)) if self.model.is_max[p] else \
            (first, under, at(0.0, -corner))
        for dx, dy in tried:
            if self._nearest(p, dx, dy) == p:
                return dx, dy
        return tried[0]

    def _nearest(self, p: Path, dx: float, dy: float) -> Path:
        """The node whose centre is nearest the point ``(dx, dy)`` points from ``p``'s."""
        m = self.model
        x = m.pos[p][0] * self.xpt + dx
        y = m.pos[p][1] * self.ypt + dy
        near = [q for q in m.paths if abs(len(q) - len(p)) <= 1]
        return min(near, key=lambda q: (m.pos[q][0] * self.xpt - x) ** 2
                   + (m.pos[q][1] * self.ypt - y) ** 2)

    # ----- legend ---------------------------------------------------------------------------
    def legend(self, frame: Frame | None, marks: Mapping[Path, str] | None, *,
               ncol: int | None = None, every_step: bool = False) -> Any:
        """A legend below the tree, listing only what the drawing shows (see
        :func:`~minimaxkit.draw.legend.tree_legend`)."""
        from .legend import tree_legend

        return tree_legend(self, frame, marks, ncol=ncol, every_step=every_step)


def _outlined(style: NodeStyle, mark: MarkStyle | None) -> NodeStyle:
    """``style`` with the node's outline in ``mark``'s colour, solid and thick, when ``mark``
    outlines its node; else ``style`` as it is."""
    if mark is None:
        return style
    return replace(style, edge=mark.face, linewidth=OUTLINE_WIDTH, linestyle="-")
