# same as: kit_search_reload
# The kit's alpha-beta inside evaluate: a one-ply search with the kit's evaluation.
# %% evaluate
from minimaxkit.games import ConnectFour
from minimaxkit.search import alphabeta

GAME = ConnectFour(win_value=1000)


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    value = alphabeta(GAME, board._state, depth=1).value
    return max(-999, min(999, value))
