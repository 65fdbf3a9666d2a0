# expect: correctness=3 play=2
# message: the same board gets
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=2 under the per-student draws of issue 28)
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
