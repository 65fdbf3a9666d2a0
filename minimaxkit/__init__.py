"""minimaxkit: game-tree search you can watch, measure and grade.

>>> from minimaxkit import GameTree, alphabeta
>>> alphabeta(GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])).value
3
"""

from typing import TYPE_CHECKING

from .support.aliases import install as _install_old_paths
from .support.lazy import attach

_install_old_paths()  # minimaxkit.table, minimaxkit.matches, ...: support/aliases.py

if TYPE_CHECKING:  # the names, for type checkers; imported on first use (support/lazy.py)
    from .deepening import DeepeningResult, deepen, iter_deepen
    from .errors import MinimaxkitError, OptionError, TreeError
    from .game import Game
    from .search import SearchResult, alphabeta, minimax, negamax, simple_pruning
    from .search.knuth_moore import knuth_moore_leaves, perfect_order_leaves
    from .search.transposition import TranspositionTable
    from .trace import Cutoff, Enter, Exit, Leaf, Stats, Trace, TTHit
    from .tree import GameTree, Node


__all__ = [
    "Game", "GameTree", "Node", "SearchResult", "Trace", "Stats",
    "Enter", "Leaf", "Cutoff", "Exit", "TTHit",
    "minimax", "simple_pruning", "alphabeta", "negamax", "deepen", "iter_deepen",
    "DeepeningResult", "TranspositionTable", "knuth_moore_leaves", "perfect_order_leaves",
    "MinimaxkitError", "TreeError", "OptionError",
]

_WHERE = {name: where for where, names in {
    '.search.knuth_moore': ('knuth_moore_leaves', 'perfect_order_leaves'),
    '.deepening': ('DeepeningResult', 'deepen', 'iter_deepen'),
    '.errors': ('MinimaxkitError', 'OptionError', 'TreeError'),
    '.game': ('Game',),
    '.search': ('SearchResult', 'alphabeta', 'minimax', 'negamax', 'simple_pruning'),
    '.search.transposition': ('TranspositionTable',),
    '.trace': ('Cutoff', 'Enter', 'Exit', 'Leaf', 'Stats', 'Trace', 'TTHit'),
    '.tree': ('GameTree', 'Node'),
}.items() for name in names}
__getattr__, __dir__ = attach(__name__, _WHERE)
