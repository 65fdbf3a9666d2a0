"""The kit's reference searches, plain functions over the game protocol: minimax, simple
pruning, alpha-beta and negamax (:mod:`.core`), with the transposition table
(:mod:`.transposition`) and the Knuth-Moore leaf counts (:mod:`.knuth_moore`). Progressive
deepening, built on these, is :mod:`minimaxkit.deepening`.

>>> from minimaxkit import GameTree
>>> alphabeta(GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])).value
3
"""

from .core import OrderKey, SearchResult, alphabeta, minimax, negamax, simple_pruning

__all__ = ["SearchResult", "minimax", "simple_pruning", "alphabeta", "negamax", "OrderKey"]
