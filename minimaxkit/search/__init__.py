"""The kit's reference searches, plain functions over the game protocol: minimax, simple
pruning and alpha-beta (:mod:`.fronts`) and negamax (:mod:`.negamax_search`), each returning
a :class:`SearchResult` (:mod:`.result`).

Inside: the options and their checks (:mod:`.options`), the children's order
(:mod:`.ordering`), the plain search that records the trace (:mod:`.plain_search`), the
table search that adds what a search remembers (:mod:`.table_search`), the transposition
table (:mod:`.transposition`) and the Knuth-Moore leaf counts (:mod:`.knuth_moore`).
Progressive deepening, built on these, is :mod:`minimaxkit.deepening`.

>>> from minimaxkit import GameTree
>>> alphabeta(GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])).value
3
"""

from .fronts import alphabeta, minimax, simple_pruning
from .negamax_search import negamax
from .ordering import OrderKey
from .result import SearchResult

__all__ = ["SearchResult", "minimax", "simple_pruning", "alphabeta", "negamax", "OrderKey"]
