"""The picture of a mismatch: the tree with the reference's search, the leaves evaluated
that should have been cut (``extra``), the leaves cut that should have been evaluated
(``missing``) and the node where the searches part (``diverge``) marked.

nbgrader's feedback is HTML that keeps images but not widgets, so the picture is a static
PNG in the cell's output. Drawing is optional: if ``minimaxkit.draw`` or matplotlib is not
available, or drawing fails, grading goes on with text only.
"""

from __future__ import annotations

import io
from typing import Any

__all__ = ["picture_png", "display_png"]


def picture_png(picture: Any) -> bytes | None:
    """PNG bytes of a :class:`~minimaxkit.grading.checks.Picture`, or None if it cannot be
    drawn here."""
    try:
        from .. import draw
    except Exception:  # no drawing module (yet), or no matplotlib
        return None
    try:
        if hasattr(draw, "tree_figure"):
            fig, _ = draw.tree_figure(picture.tree, picture.trace, marks=picture.marks,
                                      title=picture.title, dpi=72)
        else:
            fig = _figure_for(picture.tree)
            draw.draw_tree(picture.tree, picture.trace, ax=fig.add_subplot(),
                           marks=picture.marks, title=picture.title)
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()
    except Exception:  # a drawing bug must not cost the student points
        return None


def _figure_for(tree: Any) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    width = min(16.0, max(4.0, 0.42 * len(tree.leaves()) + 1))
    height = min(8.0, 1.0 + 1.1 * (tree.height + 1))
    fig = Figure(figsize=(width, height), dpi=72)
    FigureCanvasAgg(fig)
    return fig


def display_png(png: bytes) -> bool:
    """Show PNG bytes in the notebook's output; False outside IPython."""
    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:
        return False
    if get_ipython() is None:
        return False
    display(Image(data=png))
    return True
