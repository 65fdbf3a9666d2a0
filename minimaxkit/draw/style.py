"""The kit's picture vocabulary: colours (Okabe-Ito, safe for colour-blind readers) that
always come with a second cue (shape, line style or width), so a greyscale print reads.

>>> NODE_STYLES["pruned"].linestyle, EDGE_STYLES["pruned"].linestyle
(':', '--')
>>> sorted(MARKS)
['diverge', 'extra', 'missing', 'overselected', 'right', 'unselected', 'wrong']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["OKABE_ITO", "NodeStyle", "EdgeStyle", "MarkStyle", "NODE_STYLES", "EDGE_STYLES",
           "MARKS", "SHAPES", "TEXT", "NAME_TEXT", "PRUNED_TEXT", "DARK_ORANGE", "CURRENT",
           "STATIC_BOX", "MIN_FONT_PX", "min_font_pt",
           "inner_node_size", "bound_offset", "text_width"]

#: The smallest text any picture shows, in CSS pixels at 100 % zoom (a picture shown at its
#: own size): 11 px. The browser tests measure it in both front ends.
MIN_FONT_PX = 11.0


def min_font_pt(dpi: float) -> float:
    """The smallest font, in points, of a picture rendered at ``dpi`` (11 px at 100 %).

    >>> min_font_pt(72), min_font_pt(80), round(min_font_pt(100), 2)
    (11.0, 9.9, 7.92)
    """
    return MIN_FONT_PX * 72.0 / dpi

#: Okabe & Ito's eight colours (https://jfly.uni-koeln.de/color/).
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}

#: Marker shapes: MAX ▲, MIN ▼ (the textbook convention), leaves ■.
SHAPES = {"max": "^", "min": "v", "leaf": "s"}

#: Okabe-Ito's orange darkened to 3.4:1 on white, for lines (the light orange stays a fill).
DARK_ORANGE = "#C47900"

# Contrast (WCAG 2.1): text at least 4.5:1 on white and on the node fills it sits on, lines
# and marks at least 3:1 on white; tests/test_contrast.py checks every pair.
TEXT = "#111111"
NAME_TEXT = "#444444"
PRUNED_TEXT = "#666666"  # still 4.5:1 on a pruned node's grey
#: The box around an interior node's static value: dashed, so it never reads as a value
#: backed up by a search (those are bold, at the node).
STATIC_BOX: dict[str, Any] = {"boxstyle": "round,pad=0.2", "fc": "#f7f7f7", "ec": "#7a7a7a",
                              "lw": 0.7, "ls": "--"}


@dataclass(frozen=True)
class NodeStyle:
    """How a node is drawn in one state."""

    face: str
    edge: str
    linewidth: float
    linestyle: str
    label: str


@dataclass(frozen=True)
class EdgeStyle:
    """How an edge (drawn for its child) looks in one state."""

    color: str
    linewidth: float
    linestyle: str
    label: str


@dataclass(frozen=True)
class MarkStyle:
    """A mark drawn on a node: ``where`` is "center", "ne" (upper right) or "nw".
    ``outline``: the node itself is also outlined in the mark's colour (``face``), so that
    the mark beside it cannot be read as another node's or an edge's."""

    marker: str
    face: str
    edge: str
    linewidth: float
    linestyle: str
    scale: float
    where: str
    label: str
    outline: bool = False


NODE_STYLES = {
    "plain": NodeStyle("#ffffff", "#222222", 1.1, "-", "node"),
    "unvisited": NodeStyle("#ffffff", "#8a8a8a", 1.0, "-", "not yet visited"),
    "visited": NodeStyle("#a9d5f2", "#1a1a1a", 1.1, "-", "visited"),  # light sky blue
    "active": NodeStyle("#f2c14e", "#1a1a1a", 2.0, "-", "on the call stack"),  # light orange
    "pruned": NodeStyle("#e4e4e4", "#8c8c8c", 1.0, ":", "pruned (never searched)"),
}

EDGE_STYLES = {
    "plain": EdgeStyle("#444444", 1.1, "-", "edge"),
    "unvisited": EdgeStyle("#8c8c8c", 1.0, "-", "not yet visited"),
    "visited": EdgeStyle("#333333", 1.3, "-", "searched"),
    "active": EdgeStyle(DARK_ORANGE, 2.8, "-", "call stack"),
    "pv": EdgeStyle(OKABE_ITO["blue"], 3.4, "-", "best line so far (PV)"),
    "pruned": EdgeStyle("#8c8c8c", 1.0, "--", "pruned"),
}

#: The current node: a ring around it.
CURRENT = MarkStyle("o", "none", OKABE_ITO["vermillion"], 2.4, "-", 1.4, "center",
                    "current node")

#: How thick a node's outline is drawn when a mark outlines it (``MarkStyle.outline``).
OUTLINE_WIDTH = 2.6

#: Marks a grader or a quiz puts on nodes (``draw_tree(..., marks={path: kind})``).
MARKS = {
    "extra": MarkStyle("X", OKABE_ITO["vermillion"], "#ffffff", 0.6, "-", 0.75, "ne",
                       "evaluated, should have been cut"),
    "missing": MarkStyle("o", "none", OKABE_ITO["purple"], 2.2, "--", 1.75, "center",
                         "cut, should have been evaluated"),
    "diverge": MarkStyle("*", OKABE_ITO["yellow"], "#000000", 0.8, "-", 1.0, "nw",
                         "the two traces part here"),
    "wrong": MarkStyle("D", OKABE_ITO["vermillion"], "#000000", 0.6, "-", 0.55, "ne",
                       "wrong", outline=True),
    "right": MarkStyle("o", OKABE_ITO["green"], "#ffffff", 0.6, "-", 0.5, "ne", "right"),
    # the quiz's verdicts, drawn on alpha-beta's search and said in the quiz's words
    "unselected": MarkStyle("X", OKABE_ITO["vermillion"], "#000000", 0.6, ":", 0.75, "ne",
                            "never evaluated, not selected"),
    "overselected": MarkStyle("o", "none", OKABE_ITO["purple"], 2.2, ":", 1.75, "center",
                              "selected, but evaluated"),
}


def inner_node_size(chars: int, font: float) -> float:
    """The size (points) of a triangle that holds a bold bound such as ``≥16`` (``≥`` and
    ``chars`` characters) at ``font`` points, the text set against the triangle's wide side
    (see :func:`bound_offset`): a triangle of size ``s`` is ``s - h`` wide ``h`` from its
    wide side, ``h`` the text's height.

    >>> round(inner_node_size(1, 9.9), 1), round(inner_node_size(3, 9.9), 1)
    (29.4, 43.7)
    """
    return font * (0.95 + 0.72 * chars) + 1.1 * font + 2.0


def bound_offset(size: float, font: float, chars: int) -> float:
    """How far (points) an interior node's value sits from its centre toward the
    triangle's wide side: a sixth of its size when the widest bound (``chars`` characters
    after ``≥``) fits there, closer to the wide side when it needs the room, never so close
    that the text leaves the triangle.

    >>> bound_offset(60.0, 9.9, 1), round(bound_offset(30.0, 9.9, 1), 2)
    (10.0, 6.98)
    """
    width, height = font * (0.95 + 0.72 * chars), 1.1 * font
    need = width + height / 2 - size / 2  # the width there is (offset - h/2 + size/2)
    return max(size / 6, min(need, size / 2 - height / 2 - 0.5))


def text_width(s: str, size: float) -> float:
    """A generous estimate of the width of ``s`` in DejaVu Sans at ``size`` (same unit):
    capitals wide (M and W widest), digits and small letters narrower.

    >>> round(text_width("M", 10), 1), round(text_width("AB", 10), 1), text_width("8", 10)
    (9.0, 15.0, 6.4)
    """
    def one(c: str) -> float:
        if c in "MW":
            return 0.9
        if c.isupper():
            return 0.75
        return 0.64

    return size * sum(one(c) for c in s)
