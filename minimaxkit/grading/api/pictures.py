"""The picture of a mismatch, the reference's search with ``extra``, ``missing`` and
``diverge`` marked, as SVG in the cell's output: nbgrader's feedback keeps images, not
widgets, and SVG needs no matplotlib (docs/grading.md, *How grading works*).

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import tree_002
>>> from minimaxkit.grading.verdicts.results import Picture
>>> svg = picture_svg(Picture(tree_002(), alphabeta(tree_002()).trace,
...                           {(0, 1, 1): "extra"}, "002"))
>>> svg.startswith("<svg"), svg.count('class="mark extra"')
(True, 1)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

__all__ = ["picture_svg", "display_svg", "svg_bundle", "parts", "show", "MAX_PICTURES"]

MAX_PICTURES = 1  # per test cell: the first mismatch is enough to see, and cheap


def picture_svg(picture: Any) -> str | None:
    """SVG of a :class:`~minimaxkit.grading.verdicts.results.Picture`, or None."""
    try:
        from ...draw.svg import tree_svg_text

        return tree_svg_text(picture.tree, picture.trace, marks=picture.marks,
                             title=picture.title)
    except Exception:  # a drawing bug must not cost the student points
        return None


def display_svg(svg: str) -> bool:
    """Show SVG in the notebook; False outside IPython."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return False
    if get_ipython() is None:
        return False
    display(svg_bundle(svg), raw=True)
    return True


def svg_bundle(svg: str) -> dict[str, str]:
    """A picture's display bundle: the SVG, and an ``<img>`` of it whose ``alt`` is its
    ``aria-label`` (nbconvert prefers the HTML: a bare SVG image has no text alternative).

    >>> from minimaxkit.examples import tree_002
    >>> from minimaxkit.draw.svg import tree_svg_text
    >>> html = svg_bundle(tree_svg_text(tree_002()))["text/html"]
    >>> html.startswith('<img class="mmk-picture" alt="Game tree: root A (MAX), 40 nodes')
    True
    """
    import base64
    import html
    import re

    label = re.search(r'aria-label="([^"]*)"', svg)
    alt = html.unescape(label.group(1)) if label else "Game tree picture"
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    img = (f'<img class="mmk-picture" alt="{html.escape(alt, quote=True)}" '
           f'src="data:image/svg+xml;base64,{data}"/>')
    return {"image/svg+xml": svg, "text/html": img}


def parts(report: Any, extra: list[str] = ()) -> list[tuple[str, str]]:  # type: ignore[assignment]
    """A report as shown: ``("text", lines)`` and ``("svg", picture)``, ``extra`` lines after
    its head, the picture after the tree it shows."""
    top = report.top()
    head = len(report.head()) + 1  # the head and its rule
    text = top[:head] + list(extra) + top[head:]
    out: list[tuple[str, str]] = []
    pictures = 0
    for i, t in enumerate(report.trees):
        text.extend(report.tree_lines(i))
        if t.result.picture is not None and pictures < MAX_PICTURES:
            pic = t.result.picture
            svg = picture_svg(replace(pic, title=f"{t.name}: reference {pic.title}; "
                                                 "your differences marked"))
            if svg is not None:
                out += [("text", "\n".join(text)), ("svg", svg)]
                text, pictures = [], pictures + 1
    if text:
        out.append(("text", "\n".join(text)))
    return out


def show(report: Any) -> None:
    """Print a report, its picture where it belongs."""
    for kind, content in parts(report):
        if kind == "text":
            print(content)
        else:
            display_svg(content)
