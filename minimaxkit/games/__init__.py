"""Real games for the searches: tic-tac-toe, Connect Four and Nim.

Each class satisfies the :class:`~minimaxkit.game.Game` protocol structurally, with
hashable, immutable states (an int for tic-tac-toe, tuples of ints for the others).

>>> from minimaxkit.games import ConnectFour, Nim, TicTacToe
>>> [game.moves(game.initial_state())[:3] for game in (TicTacToe(), ConnectFour(), Nim())]
[(0, 1, 2), (0, 1, 2), ((0, 1), (1, 1), (1, 2))]
"""

from .connect4 import ConnectFour
from .nim import Nim
from .tictactoe import TicTacToe

__all__ = ["TicTacToe", "ConnectFour", "Nim"]
