"""Pictures of trees, searches and game positions, drawn with matplotlib.

Importing :mod:`minimaxkit` does not import this package (nor matplotlib); the display
hooks ``GameTree._repr_png_`` and ``SearchResult._repr_png_`` import it when a notebook
first shows a tree or a result.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from minimaxkit.examples import tree_002
>>> tree_png(tree_002())[:4]
b'\\x89PNG'
"""

from .board import board_png, draw_board
from .model import TreeModel, tidy_layout
from .render import (
    FrameRenderer,
    result_png,
    result_svg,
    result_title,
    save_tree,
    tree_png,
    tree_svg,
)
from .style import MARKS, NODE_STYLES, OKABE_ITO
from .tree import TreeView, draw_tree, tree_figure

__all__ = [
    "draw_tree", "tree_figure", "TreeView", "TreeModel", "tidy_layout",
    "tree_png", "tree_svg", "result_png", "result_svg", "result_title", "save_tree",
    "FrameRenderer", "draw_board", "board_png", "MARKS", "NODE_STYLES", "OKABE_ITO",
]
