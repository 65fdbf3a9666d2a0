"""The SVG vocabulary of :mod:`minimaxkit.draw.svg`: numbers, matplotlib's markers as SVG
shapes, its dash patterns, paint and text elements, and titles wrapped to a width.

>>> shape("s", 10, 10, 4)
'<rect x="8" y="8" width="4" height="4"'
>>> paint("#fff", "#000", 1.0, "--")
' fill="#fff" stroke="#000" stroke-width="1" stroke-dasharray="3.7,1.6"'
>>> print(text_element(5, 6, "α < β", Font(10, "#111", anchor="start")))
... # doctest: +NORMALIZE_WHITESPACE
<text x="5" y="6" font-size="10" fill="#111" text-anchor="start"
      dominant-baseline="central">α &lt; β</text>
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

__all__ = ["Font", "dashes", "num", "paint", "points", "shape", "text_element", "wrap"]


def num(v: float) -> str:
    """``v`` with at most one decimal, without trailing zeros."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def points(pts: list[tuple[float, float]]) -> str:
    """An SVG ``points`` attribute's value."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


X_CROSS = [(0.25, 0), (0.5, 0.25), (0.75, 0), (1, 0.25), (0.75, 0.5), (1, 0.75), (0.75, 1),
      (0.5, 0.75), (0.25, 1), (0, 0.75), (0.25, 0.5), (0, 0.25)]  # matplotlib's filled X


def shape(marker: str, x: float, y: float, size: float) -> str:
    """An SVG element (without its closing ``/>``) for a matplotlib marker of ``size``
    points (its width) centred at (x, y)."""
    h = size / 2
    if marker == "^":
        return f'<polygon points="{points([(x, y - h), (x + h, y + h), (x - h, y + h)])}"'
    if marker == "v":
        return f'<polygon points="{points([(x, y + h), (x - h, y - h), (x + h, y - h)])}"'
    if marker == "s":
        return (f'<rect x="{num(x - h)}" y="{num(y - h)}" width="{num(size)}" '
                f'height="{num(size)}"')
    if marker == "o":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(h)}"'
    if marker == "D":
        d = h * math.sqrt(2)
        return f'<polygon points="{points([(x, y - d), (x + d, y), (x, y + d), (x - d, y)])}"'
    if marker == "X":
        cross = [(x + (a - 0.5) * size, y + (b - 0.5) * size) for a, b in X_CROSS]
        return f'<polygon points="{points(cross)}"'
    if marker == "*":
        pts = []
        for i in range(10):
            r = h if i % 2 == 0 else h * 0.381966
            a = math.pi / 2 + i * math.pi / 5
            pts.append((x + r * math.cos(a), y - r * math.sin(a)))
        return f'<polygon points="{points(pts)}"'
    raise ValueError(f"no SVG shape for marker {marker!r}")


def dashes(linestyle: str, width: float) -> str:
    """matplotlib's dash patterns (scaled by the line width) as an SVG attribute."""
    pattern = {"--": (3.7, 1.6), ":": (1.0, 1.65), "-.": (6.4, 1.6, 1.0, 1.6)}.get(linestyle)
    if pattern is None:
        return ""
    return f' stroke-dasharray="{",".join(num(d * width) for d in pattern)}"'


def paint(face: str, edge: str, width: float, linestyle: str = "-") -> str:
    """Fill, stroke, stroke width and dashes as SVG attributes."""
    return (f' fill="{face}" stroke="{edge}" stroke-width="{num(width)}"'
            f'{dashes(linestyle, width)}')


@dataclass(frozen=True)
class Font:
    """How a text is set: its size (px) and colour, where it hangs from its point
    (``anchor``: start, middle or end; ``baseline``: SVG's dominant-baseline) and whether it
    is bold."""

    size: float
    color: str
    anchor: str = "middle"
    baseline: str = "central"
    bold: bool = False


def text_element(x: float, y: float, s: str, font: Font) -> str:
    """A ``<text>`` element of ``s`` (escaped) at (x, y), set in ``font``."""
    weight = ' font-weight="bold"' if font.bold else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(font.size)}" '
            f'fill="{font.color}" text-anchor="{font.anchor}" '
            f'dominant-baseline="{font.baseline}"{weight}>{escape(s)}</text>')


def wrap(title: str, width: float, size: float = 10.0) -> list[str]:
    """``title`` in lines that fit ``width`` (broken at spaces)."""
    lines: list[str] = []
    for word in title.split(" "):
        if lines and 0.5 * size * len(f"{lines[-1]} {word}") <= width - 10:  # average
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
