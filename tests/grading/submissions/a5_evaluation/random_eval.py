# expect: correctness=3 play=2
# message: the same board gets
# Random numbers: not pure, and plays at random.
# %% evaluate
import random


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    return random.uniform(-100, 100)
