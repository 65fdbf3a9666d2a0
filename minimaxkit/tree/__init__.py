"""Explicit game trees: nested lists, a named dict/JSON form, seeded random trees.

A tree is a :class:`~minimaxkit.game.Game` whose states are its :class:`Node` objects, so
every search runs on trees and real games alike. Nodes are addressed by their *path*
(the tuple of child indices from the root) and have names (A, B, C, ... in breadth-first
order unless given).

Inside: the node and tree types (:mod:`.game_tree`), the checks of a tree's parts
(:mod:`.checks`), building from the nested and the named forms (:mod:`.building`), the
written forms at any depth (:mod:`.forms`) and random trees (:mod:`.random_trees`).

>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> tree.node((1, 2))
Node(path=(1, 2), name='J', player='max', value=6)
>>> [n.name for n in tree.root.children]
['B', 'C', 'D']
>>> len(tree), len(tree.leaves())
(13, 9)
"""

from .checks import Path
from .forms import MAX_JSON_NESTING
from .game_tree import REPR_MAX_DEPTH, REPR_MAX_NODES, GameTree, Node, default_name

__all__ = ["GameTree", "Node", "Path", "default_name", "MAX_JSON_NESTING", "REPR_MAX_NODES",
           "REPR_MAX_DEPTH"]
