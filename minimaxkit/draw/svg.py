"""A tree, or a search on it at a step, as SVG text, without matplotlib.

The grader's pictures: nbgrader's feedback HTML keeps images, and importing matplotlib and
drawing with it would cost a failing submission about a second. This draws the same picture
vocabulary as :func:`~minimaxkit.draw.draw_tree` from the same model
(:class:`~minimaxkit.draw.model.TreeModel`) and the same palette and marks
(:mod:`~minimaxkit.draw.style`): MAX ▲, MIN ▼, leaves ■ with their values; visited light
blue; the call stack orange with its window; pruned subtrees grey with dotted outlines and
dashed edges; the best line thick blue; the marks ``extra``, ``missing``, ``diverge``,
``wrong`` and ``right``; and a small legend of what the picture shows. Each node is one
shape with ``class="node <kind> <state>"`` and ``data-path``, each mark one shape with
``class="mark <kind>"``. Lectures, widgets and files keep the matplotlib drawing.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> svg = tree_svg_text(alphabeta(sheet_tree()), step=10, marks={(0, 1, 1): "extra"})
>>> svg.startswith("<svg"), svg.count('class="node '), svg.count('class="node leaf pruned"')
(True, 40, 2)
>>> svg.count('class="mark extra"')
1
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import Any

from ..replay import Frame, fmt, frame_at
from ..trace import Path
from .alt import frame_alt, marks_alt, model_alt
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
    resolve,
    side_room,
    value_text,
    window_side,
)
from .style import (
    CURRENT,
    DARK_ORANGE,
    EDGE_STYLES,
    MARKS,
    MIN_FONT_PX,
    NAME_TEXT,
    NODE_STYLES,
    PRUNED_TEXT,
    SHAPES,
    STATIC_BOX,
    TEXT,
    NodeStyle,
    bound_offset,
    inner_node_size,
    text_width,
)
from .svg_shapes import Font, dashes, num, paint, shape, text_element, wrap

__all__ = ["tree_svg_text"]

FONT = "DejaVu Sans, Bitstream Vera Sans, Verdana, Arial, sans-serif"
MAX_WIDTH = 1440.0  # px (20 inches at 72 px per inch, as the matplotlib figures)
LEVEL = 68.0  # px between two depths
TITLE_LINE, LEGEND_ROW = 14.0, 17.0


def tree_svg_text(tree: Any, trace: Any = None, *, step: int | None = None,
                  marks: Mapping[Path, str] | None = None, title: str | None = None) -> str:
    """The drawing of :func:`~minimaxkit.draw.draw_tree` as SVG text (no matplotlib).

    ``tree`` is a :class:`~minimaxkit.tree.GameTree` (with ``trace``, a trace or search
    result on it), a search result, or a trace (the part of the tree it reached is drawn).
    ``step`` counts the events applied (default: all). ``marks`` maps paths to ``"extra"``,
    ``"missing"``, ``"diverge"``, ``"wrong"`` or ``"right"``; an unknown kind or a path not
    drawn raises ``ValueError``, as in ``draw_tree``.
    """
    model, rp = resolve(tree, trace, caller="tree_svg_text")
    frame = frame_at(rp, step)
    checked = check_marks(model, marks or {})
    svg = _Svg(model, frame, traced=rp is not None, marks=checked, title=title)
    svg.show_windows = rp is None or rp.narrowing  # minimax's are all (−∞, ∞): not drawn
    return svg.text()


# ----- shapes and strokes: see svg_shapes ---------------------------------------------------
def _text_width(s: str, size: float) -> float:
    return text_width(s, size)  # DejaVu Sans, generously


# ----- the picture ---------------------------------------------------------------------------
class _Svg:
    """One picture: geometry as matplotlib's figure has it, at 72 px per inch."""

    def __init__(self, model: TreeModel, frame: Frame | None, *, traced: bool,
                 marks: dict[Path, str], title: str | None) -> None:
        self.m, self.frame, self.traced, self.marks, self.title = (
            model, frame, traced, marks, title)
        n = model.n_leaves
        self.show_values, _, self.show_names = label_plan("auto", n)  # as draw_tree's default
        self.show_windows = True  # the (α, β) box beside each node on the call stack
        xs = [model.pos[p][0] for p in model.paths]
        self.xmin, span = min(xs) - 0.6, max(xs) - min(xs) + 1.2
        per_leaf = 26.0 if n <= 40 else 14.4 if n <= 100 else 2.9
        if n <= 100:  # room for each leaf's value (and name) at 11 px
            chars = max((len(fmt(v)) for v in model.values.values()), default=1)
            if n <= 40:
                chars = max(chars, *(len(model.names[p]) for p in model.leaves))
            per_leaf = max(per_leaf, (0.66 * MIN_FONT_PX * chars + 5.0) / 0.92)
        self.xpt = min(per_leaf, (MAX_WIDTH - 10) / span)
        self.ypt = LEVEL if model.height < 9 else 600 / (model.height + 1.15)
        self.width = max(span * self.xpt + 10, 245.0)
        self.left = (self.width - span * self.xpt) / 2
        self.title_lines = wrap(title, self.width, 12.0) if title else []
        self.top = 10 + TITLE_LINE * len(self.title_lines) if title else 6.0
        self.tree_h = (model.height + 1.35) * self.ypt  # room for a mark under a leaf name
        self.status = node_statuses(self.m, self.frame, self.traced)
        self._sizes()

    def x(self, p: Path) -> float:
        return self.left + (self.m.pos[p][0] - self.xmin) * self.xpt

    def y(self, p: Path) -> float:
        return self.top + (0.55 - self.m.pos[p][1]) * self.ypt

    def _sizes(self) -> None:
        """Marker sizes (points), as :class:`~minimaxkit.draw.tree.TreeView` sizes them."""
        m = self.m
        leaf = min(max(min(0.72 * self.xpt, 0.42 * self.ypt), 2.0), 22.0)
        by_depth: dict[int, list[float]] = {}
        for p in m.paths:
            by_depth.setdefault(len(p), []).append(m.pos[p][0])
        self.gap: dict[int, float] = {}
        for d, xs in by_depth.items():
            xs.sort()
            self.gap[d] = min((b - a for a, b in zip(xs, xs[1:], strict=False)), default=1e9)
        fmin = MIN_FONT_PX  # an SVG's user unit is a CSS pixel at its own size
        chars = max((len(fmt(m.values[p])) for p in m.leaves if p in m.values), default=1)
        if self.show_values:  # every label 11 px or more, each value inside its square
            leaf = max(leaf, min(0.66 * fmin * chars + 4.0, 0.92 * self.xpt))
        need = inner_node_size(chars, fmin)
        self.size = {p: leaf if p in m.leaves else
                     min(max(min(0.8 * self.gap[len(p)] * self.xpt, 0.5 * self.ypt), leaf, 3.0),
                         30.0) for p in m.paths}
        if self.show_values:
            for p in m.paths:
                if p not in m.leaves:
                    gap = self.gap[len(p)] * self.xpt  # leave room for its name beside it
                    name = _text_width(m.names[p], fmin + 0.5) + 8.0
                    room = min(0.9 * gap, (gap - name) / CURRENT.scale)
                    self.size[p] = max(self.size[p], min(need, room, 0.8 * self.ypt))
        self.value_font = max(min(max(0.48 * leaf, 4.5), 10.0), fmin)
        self.name_font = max(min(max(0.85 * self.value_font, 4.5), 9.0), fmin)
        if chars > 2:  # the longest leaf value fits inside its square
            self.value_font = max(min(self.value_font, 0.9 * leaf / (0.6 * chars)), fmin)
        self.inner_font = {p: fmin if chars > 2 else max(min(max(0.38 * self.size[p], 4.5),
                                                             11.0), fmin)
                           for p in m.paths if p not in m.leaves}
        self.mark_size = max(0.6 * leaf, 1.1 * fmin)
        self.value_chars = chars
        self._sides = self._unfaced_sides()

    def _unfaced_sides(self) -> dict[Path, int]:
        """Which side each name goes on (see :func:`~.model.name_sides`)."""
        m = self.m

        def width(p: Path) -> float:
            w = _text_width(m.names[p], self.name_font + 0.5)
            if p in m.statics:
                w = max(w, _text_width(fmt(m.statics[p]), self.name_font) + 4)
            return w

        return name_sides(m, self.size, self.xpt, width)

    # ----- layers ---------------------------------------------------------------------------
    def _edges(self) -> list[str]:
        pv = set(self.frame.pv) if self.frame is not None else set()
        out = ['<g class="edges" fill="none">']
        for p in self.m.paths:
            if not p:
                continue
            st = self.status[p]
            if st in ("pruned", "active"):
                es = EDGE_STYLES[st]
            elif p in pv:
                es = EDGE_STYLES["pv"]
            else:
                es = EDGE_STYLES["plain" if self.frame is None else st]
            cap = "butt" if es.linestyle != "-" else "round"
            q = p[:-1]
            out.append(f'<line class="edge {st}" x1="{num(self.x(q))}" y1="{num(self.y(q))}" '
                       f'x2="{num(self.x(p))}" y2="{num(self.y(p))}" stroke="{es.color}" '
                       f'stroke-width="{num(es.linewidth)}" stroke-linecap="{cap}"'
                       f'{dashes(es.linestyle, es.linewidth)}/>')
        out.append("</g>")
        return out

    def _nodes(self) -> list[str]:
        out = ['<g class="nodes">']
        for p in self.m.paths:
            kind, st = self.m.kind(p), self.status[p]
            ns = NODE_STYLES[st]
            out.append(f'{shape(SHAPES[kind], self.x(p), self.y(p), self.size[p])} '
                       f'class="node {kind} {st}" data-path="{" ".join(map(str, p))}"'
                       f'{paint(ns.face, ns.edge, ns.linewidth, ns.linestyle)}/>')
        out.append("</g>")
        cur = self.frame.current if self.frame is not None and not self.frame.done else None
        if cur is not None and cur in self.m.pos:
            c = CURRENT
            out.append(f'{shape(c.marker, self.x(cur), self.y(cur), c.scale * self.size[cur])}'
                       f' class="current"{paint(c.face, c.edge, c.linewidth, c.linestyle)}/>')
        return out

    def _labels(self) -> list[str]:
        m = self.m
        out = ['<g class="labels">']
        for p in m.paths:
            s, x, y = self.size[p], self.x(p), self.y(p)
            pruned = self.status[p] == "pruned"
            if p in m.leaves:
                if self.show_values and p in m.values:
                    out.append(text_element(x, y, fmt(m.values[p]), Font(
                        self.value_font, PRUNED_TEXT if pruned else TEXT)))
                if self.show_names:
                    out.append(text_element(x, y + 0.5 * CURRENT.scale * s + 1, m.names[p], Font(
                        self.name_font, PRUNED_TEXT if pruned else NAME_TEXT,
                        baseline="hanging")))
                continue
            value = value_text(p, self.frame) if self.show_values else ""
            if value:
                off = bound_offset(s, self.inner_font[p], self.value_chars)
                dy = off if m.is_max[p] else -off
                out.append(text_element(x, y + dy, value, Font(self.inner_font[p], TEXT,
                                                                bold=True)))
            name = m.names[p]
            if self._name_shown(p):
                side = self._side(p)
                out.append(text_element(
                    x + side * (0.5 * CURRENT.scale * s + 3), y - 0.08 * s, name,
                    Font(self.name_font + 0.5, PRUNED_TEXT if pruned else NAME_TEXT,
                         anchor="end" if side < 0 else "start")))
            if self.show_values and p in m.statics:
                out.append(self._static(p, pruned))
        out.append("</g>")
        return out

    def _name_shown(self, p: Path) -> bool:
        """Whether an interior node's name is drawn: with the values, where it fits."""
        room = self.gap[len(p)] * self.xpt - CURRENT.scale * self.size[p]
        return self.show_values and _text_width(self.m.names[p], self.name_font) + 4 <= room

    def _static(self, p: Path, pruned: bool) -> str:
        """An interior node's static value, italic in a dashed box off its upper corner on
        its name's side (as the matplotlib drawing has it)."""
        f, s, side = self.name_font, self.size[p], self._side(p)
        text = fmt(self.m.statics[p])
        w = _text_width(text, f) + 4
        x0 = self.x(p) + side * 0.3 * s - (w if side < 0 else 0)
        y1 = self.y(p) - 0.5 * s - 1.5
        color = PRUNED_TEXT if pruned else NAME_TEXT
        return (f'<g class="static"><rect x="{num(x0)}" y="{num(y1 - f - 3)}" '
                f'width="{num(w)}" height="{num(f + 3)}" rx="2" fill="{STATIC_BOX["fc"]}" '
                f'stroke="{STATIC_BOX["ec"]}" stroke-width="{STATIC_BOX["lw"]}" '
                f'stroke-dasharray="2 1.5"/>'
                + text_element(x0 + 2, y1 - 0.5 * f - 1.5, text, Font(f, color, anchor="start"))
                .replace("<text ", '<text font-style="italic" ', 1) + "</g>")

    def _side(self, p: Path) -> int:
        """Names go on the side away from the edge from the parent (unless they would face
        a neighbour's name too closely); windows the other."""
        return self._sides[p]

    def _windows(self) -> list[str]:
        if self.frame is None or not self.show_values or not self.show_windows:
            return []
        out = []
        f = self.value_font
        for lv in self.frame.stack:
            if lv.path not in self.m.pos:
                continue
            lines = [f"α {fmt(lv.alpha)}", f"β {fmt(lv.beta)}"]
            w = max(_text_width(t, f) for t in lines) + 4
            side, beyond = window_side(self.m, self._sides, lv.path)
            gap = 0.5 * CURRENT.scale * self.size[lv.path] + 2
            if beyond:  # past the node's own name (see window_side)
                gap += 1 + _text_width(self.m.names[lv.path], self.name_font + 0.5) + 5
            x0 = self.x(lv.path) + gap if side > 0 else self.x(lv.path) - gap - w
            y0 = self.y(lv.path) - f - 2
            out.append(f'<g class="window"><rect x="{num(x0)}" y="{num(y0)}" '
                       f'width="{num(w)}" height="{num(2 * f + 4)}" rx="2" fill="#ffffff" '
                       f'fill-opacity="0.9" stroke="{DARK_ORANGE}" stroke-width="0.8"/>')
            for i, t in enumerate(lines):
                out.append(text_element(x0 + 2, y0 + 2 + (i + 0.5) * f, t,
                                        Font(f, TEXT, anchor="start")))
            out.append("</g>")
        return out

    def _marks(self) -> list[str]:
        out = ['<g class="marks">']
        self.mark_xs: list[float] = []
        for p, kind in self.marks.items():
            ms, s = MARKS[kind], self.size[p]
            leaf = p in self.m.leaves
            named = self._name_shown(p)
            room = math.inf if leaf else side_room(self.m, p, self._side(p), RowMeasures(
                self.xpt, self.size, self._sides,
                lambda q: _text_width(self.m.names[q], self.name_font + 0.5)
                if self._name_shown(q) else 0.0))
            dx, up = mark_offset(ms.where, leaf, self._side(p), s, MarkSpace(
                name_width=_text_width(self.m.names[p], self.name_font + 0.5)
                if named and not leaf else 0.0,
                name_height=(1.2 * self.name_font if self.show_names else 0.0) if leaf
                else 1.2 * (self.name_font + 0.5) if named else 0.0,
                mark=self.mark_size, room=room, corner=corner_away(self.m, p, self._side(p))))
            dy = -up  # SVG's y grows downwards
            self.mark_xs += [self.x(p) + dx - self.mark_size, self.x(p) + dx + self.mark_size]
            out.append(f'{shape(ms.marker, self.x(p) + dx, self.y(p) + dy, self.mark_size)}'
                       f' class="mark {kind}" data-path="{" ".join(map(str, p))}"'
                       f'{paint(ms.face, ms.edge, ms.linewidth, ms.linestyle)}/>')
        out.append("</g>")
        return out

    def _legend_items(self) -> list[tuple[str, Any, str, Any]]:
        """(marker, style, label, line style or None) for what this picture shows."""
        plain = NODE_STYLES["plain"]
        items: list[tuple[str, Any, str, Any]] = [
            (SHAPES["max"], plain, "MAX", None), (SHAPES["min"], plain, "MIN", None),
            (SHAPES["leaf"], plain, "leaf", None)]
        shown = set(self.status.values())
        if self.show_values and self.m.statics:
            items.append(("s", NodeStyle(STATIC_BOX["fc"], STATIC_BOX["ec"], 0.8, "--", ""),
                          "static value (italic)", None))
        if self.traced:
            items.append(("s", NODE_STYLES["visited"], "visited", None))
            if "active" in shown:
                items.append(("s", NODE_STYLES["active"],
                              "call stack (α, β)" if self.show_windows else "call stack",
                              EDGE_STYLES["active"]))
            if "pruned" in shown:
                items.append(("s", NODE_STYLES["pruned"], "pruned", EDGE_STYLES["pruned"]))
            if self.frame is not None and not self.frame.done:
                items.append(("o", CURRENT, "current", None))
            if self.frame is not None and self.frame.pv:
                items.append(("", None, "best line" if self.frame.done else
                              "best line so far", EDGE_STYLES["pv"]))
        for kind in dict.fromkeys(self.marks.values()):
            items.append((MARKS[kind].marker, MARKS[kind], MARKS[kind].label, None))
        return items

    def _legend(self, y0: float) -> tuple[list[str], float]:
        """The legend rows from ``y0``, centred; and their height."""
        widths, entries = [], []
        for marker, style, label, line in self._legend_items():
            parts = []
            if line is not None:
                parts.append(f'<line x1="0" y1="0" x2="16" y2="0" stroke="{line.color}" '
                             f'stroke-width="{num(min(line.linewidth, 2.4))}"'
                             f'{dashes(line.linestyle, line.linewidth)}/>')
            if marker:
                size = 7.0 if style is CURRENT else 8.0
                parts.append(f'{shape(marker, 8, 0, size)}'
                             f'{paint(style.face, style.edge, max(style.linewidth, 1.0))}/>')
            parts.append(text_element(20, 0, label, Font(MIN_FONT_PX, TEXT, anchor="start")))
            entries.append(parts)
            widths.append(20 + _text_width(label, MIN_FONT_PX) + 10)
        rows: list[list[int]] = [[]]
        used = 0.0
        for i, w in enumerate(widths):
            if rows[-1] and used + w > self.width - 10:
                rows.append([])
                used = 0.0
            rows[-1].append(i)
            used += w
        out = ['<g class="legend">']
        for r, row in enumerate(rows):
            x = (self.width - sum(widths[i] for i in row)) / 2
            y = y0 + (r + 0.5) * LEGEND_ROW
            for i in row:
                out.append(f'<g transform="translate({num(x)},{num(y)})">')
                out.extend(entries[i])
                out.append("</g>")
                x += widths[i]
        out.append("</g>")
        return out, len(rows) * LEGEND_ROW + 6

    def description(self) -> str:
        """What the picture shows, in words (its ``<desc>`` and ``aria-label``)."""
        name = self.m.names.__getitem__
        if self.frame is None:
            text = model_alt(self.m)
        else:
            text = frame_alt(self.frame, lambda p: self.m.names.get(p, "?"))
        marks = marks_alt(self.marks, name)
        return f"{text} {marks}".strip()

    def text(self) -> str:
        marks = self._marks()
        # a mark beside a name at the picture's edge: widen the picture, never cut it off
        pad_l = max(0.0, -min(self.mark_xs, default=0.0) + 2)
        pad_r = max(0.0, max(self.mark_xs, default=0.0) - self.width + 2)
        self.width += pad_l + pad_r
        self.left += pad_l
        marks = self._marks()
        legend, legend_h = self._legend(self.top + self.tree_h)
        height = self.top + self.tree_h + legend_h
        label = self.title or "Game tree"
        desc = self.description()
        aria = f"{self.title}. {desc}" if self.title else desc
        head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(self.width)}" '
                f'height="{num(height)}" viewBox="0 0 {num(self.width)} {num(height)}" '
                f'font-family="{FONT}" role="img" aria-label="{escape(aria)}">',
                f"<title>{escape(label)}</title>", f"<desc>{escape(desc)}</desc>",
                '<rect width="100%" height="100%" fill="#ffffff"/>']
        if self.title:
            for i, line in enumerate(self.title_lines):
                head.append(text_element(self.width / 2, 5 + (i + 0.5) * TITLE_LINE, line,
                                         Font(12, TEXT)))
        body = (self._edges() + self._nodes() + self._labels() + self._windows()
                + marks + legend)
        return "\n".join([*head, *body, "</svg>"]) + "\n"
