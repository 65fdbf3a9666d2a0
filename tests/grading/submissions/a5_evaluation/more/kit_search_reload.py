# same as: kit_search
# The kit's alpha-beta inside evaluate, after reloading the kit's search modules.
# %% evaluate
import importlib

import minimaxkit.deepening
import minimaxkit.search
from minimaxkit.games import ConnectFour

importlib.reload(minimaxkit.search)
importlib.reload(minimaxkit.deepening)
from minimaxkit.search import alphabeta  # noqa: E402

GAME = ConnectFour(win_value=1000)


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    value = alphabeta(GAME, board._state, depth=1).value
    return max(-999, min(999, value))
