"""The picture of a mismatch: the tree with the reference's search, the leaves evaluated
that should have been cut (``extra``), the leaves cut that should have been evaluated
(``missing``) and the node where the searches part (``diverge``) marked.

nbgrader's feedback is HTML that keeps images but not widgets, so the picture is a static
SVG in the cell's output (nbconvert embeds it as an image). It is drawn by
:func:`minimaxkit.draw.svg.tree_svg_text`, which needs no matplotlib: importing matplotlib
and drawing with it would cost a failing submission about a second. If drawing fails,
grading goes on with text only.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import tree_002
>>> from minimaxkit.grading import Picture
>>> svg = picture_svg(Picture(tree_002(), alphabeta(tree_002()).trace,
...                           {(0, 1, 1): "extra"}, "002"))
>>> svg.startswith("<svg"), svg.count('class="mark extra"')
(True, 1)
"""

from __future__ import annotations

from typing import Any

__all__ = ["picture_svg", "display_svg"]


def picture_svg(picture: Any) -> str | None:
    """SVG text of a :class:`~minimaxkit.grading.checks.Picture`, or None if it cannot be
    drawn."""
    try:
        from ..draw.svg import tree_svg_text

        return tree_svg_text(picture.tree, picture.trace, marks=picture.marks,
                             title=picture.title)
    except Exception:  # a drawing bug must not cost the student points
        return None


def display_svg(svg: str) -> bool:
    """Show SVG text in the notebook's output; False outside IPython."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return False
    if get_ipython() is None:
        return False
    display({"image/svg+xml": svg}, raw=True)
    return True
