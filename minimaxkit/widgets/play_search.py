"""The opponents the play widget searches with: the kit's search for each game, and a
search with a student's own Connect Four evaluation (assignment 5's ``evaluate``).

A search function takes ``(game, state)`` and returns a search result (its move, value
and trace), a deepening result, or just a move.

>>> from minimaxkit.games import ConnectFour
>>> search = evaluation_search(lambda board: board.column(3).count("X")
...                                          - board.column(3).count("O"))
>>> game = ConnectFour()
>>> result = search(game, game.initial_state())
>>> result.move in game.moves(game.initial_state()), result.total_nodes <= 300
(True, True)
>>> search.__name__
'your evaluate'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..search import alphabeta

__all__ = ["default_search", "evaluation_search", "search_name", "EvaluationError"]


class EvaluationError(ValueError):
    """A student's evaluation could not answer (it raised, or returned something that is
    not a finite number); the message says which, as the assignment's games say it."""


def _center_first(columns: int) -> Callable[[Any, Any, Any], float]:
    def key(game: Any, state: Any, move: Any) -> float:
        # MAX searches high keys first and MIN low keys first: centre first for both
        distance = abs(move - (columns - 1) / 2)
        return -distance if game.is_max(state) else distance
    return key


def default_search(game: Any) -> Callable[[Any, Any], Any]:
    """The kit's player for ``game``: full alpha-beta for tic-tac-toe; for Connect Four
    depth-5 alpha-beta trying the centre columns first; depth 4 otherwise. Its results keep
    their traces, so "Show search" can draw them."""
    if hasattr(game, "columns"):
        return partial(alphabeta, depth=5, order=_center_first(game.columns))
    if type(game).__name__ == "TicTacToe":
        return partial(alphabeta)
    return partial(alphabeta, depth=4)


def evaluation_search(evaluate: Callable[[Any], float], *, node_budget: int = 300,
                      name: str = "your evaluate") -> Callable[[Any, Any], Any]:
    """A Connect Four search with ``evaluate`` (a function of one
    :class:`~minimaxkit.games.connect4_board.Board`, X's view, as assignment 5 asks) at its
    horizon: alpha-beta with progressive deepening and ``node_budget`` nodes a move, as
    the assignment's games search it. Its results keep their traces ("Show search").
    An evaluation that raises or returns something other than a finite number stops the
    reply with an error that says so (the widget shows it and keeps the game)."""
    from ..arena.matches import EvaluationFailed, _Evaluated, board_player
    from ..deepening import deepen

    player = board_player(name, evaluate, node_budget)

    def search(game: Any, state: Any) -> Any:
        assert player.evaluate is not None
        evaluated = _Evaluated(player.evaluate, ahead=0)
        try:
            return deepen(evaluated, state, node_budget=node_budget, trace=True)
        except EvaluationFailed as err:  # a BaseException (deepen must pass it on)
            raise EvaluationError(err.message) from None

    search.__name__ = name
    return search


def search_name(search: Callable[..., Any]) -> str:
    """The name the widget gives a search function (a ``partial``'s function's name)."""
    name = getattr(search, "__name__", None)
    if name is None:
        name = getattr(getattr(search, "func", None), "__name__", "search")
    return str(name)
