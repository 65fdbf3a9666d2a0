# expect: correctness=4 play=0
# message: too slow
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=0)
# A sound evaluation that takes 20 ms a board.
# %% evaluate
import time


def evaluate(board):
    time.sleep(0.02)
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    return 0
