"""The old home of the searches, kept so that what imports it keeps working (a notebook, the
lecture checks, a submission that reloads it). The searches now live in :mod:`.fronts`
(minimax, simple pruning, alpha-beta), :mod:`.negamax_search`, :mod:`.result`
(SearchResult), :mod:`.options` (the option checks) and :mod:`.ordering`; import them from
:mod:`minimaxkit.search`.

>>> from minimaxkit.search import core, alphabeta
>>> core.alphabeta is alphabeta
True
"""

from .fronts import alphabeta, minimax, simple_pruning
from .negamax_search import negamax
from .options import (
    FAIL_MODES,
    INF,
    MAX_TREE_DEPTH,
    check_conventions,
    check_depth,
    check_game,
    check_table,
    reject_unknown,
)
from .ordering import OrderKey, sorted_indices
from .result import SearchResult
from .table_search import Collected

#: the old name of :func:`~minimaxkit.search.ordering.sorted_indices`
_sorted_indices = sorted_indices

__all__ = ["SearchResult", "minimax", "simple_pruning", "alphabeta", "negamax", "OrderKey",
           "Collected", "FAIL_MODES", "INF", "MAX_TREE_DEPTH", "check_conventions",
           "check_depth", "check_game", "check_table", "reject_unknown", "sorted_indices"]
