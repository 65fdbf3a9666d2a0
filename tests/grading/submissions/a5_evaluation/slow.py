# expect: correctness=4 play=0
# message: too slow
# A sound evaluation that takes 20 ms a board.
# %% evaluate
import time


def evaluate(board):
    time.sleep(0.02)
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    return 0
