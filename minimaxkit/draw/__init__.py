"""Pictures of trees, searches and game positions, drawn with matplotlib; and
:func:`tree_svg_text`, the same tree pictures as SVG text without matplotlib (the grader's).

Importing :mod:`minimaxkit` does not import this package (nor matplotlib); the display
hooks ``GameTree._repr_png_`` and ``SearchResult._repr_png_`` import it when a notebook
first shows a tree or a result. This package imports matplotlib only when one of its
matplotlib drawings is first asked for, so ``minimaxkit.draw.svg`` stays light.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from minimaxkit.draw import tree_png
>>> from minimaxkit.examples import sheet_tree
>>> tree_png(sheet_tree())[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .alt import register_figure_html
from .model import MAX_DRAWN, TooLargeToDraw, TreeModel, tidy_layout
from .style import MARKS, NODE_STYLES, OKABE_ITO
from .svg import tree_svg_text

if TYPE_CHECKING:
    from .board import board_png, draw_board
    from .render import (
        FrameRenderer,
        result_png,
        result_svg,
        result_title,
        save_tree,
        tree_png,
        tree_svg,
    )
    from .tree import TreeView, draw_tree, tree_figure

__all__ = [
    "draw_tree", "tree_figure", "TreeView", "TreeModel", "tidy_layout",
    "tree_png", "tree_svg", "result_png", "result_svg", "result_title", "save_tree",
    "FrameRenderer", "draw_board", "board_png", "MARKS", "NODE_STYLES", "OKABE_ITO",
    "tree_svg_text", "TooLargeToDraw", "MAX_DRAWN",
]

# In a notebook, figures are shown as <img alt=...> (see minimaxkit.draw.alt).
register_figure_html()

#: The names that need matplotlib, and their modules (imported on first use).
_MATPLOTLIB = {
    "board_png": "board", "draw_board": "board",
    "FrameRenderer": "render", "result_png": "render", "result_svg": "render",
    "result_title": "render", "save_tree": "render", "tree_png": "render",
    "tree_svg": "render",
    "TreeView": "tree", "draw_tree": "tree", "tree_figure": "tree",
}


def __getattr__(name: str) -> Any:
    module = _MATPLOTLIB.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
