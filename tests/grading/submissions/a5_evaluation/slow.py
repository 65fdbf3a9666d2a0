# expect: correctness=4 play=0
# message: too slow
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=0)
# A sound evaluation that computes for 5 ms a board (five times the limit).
# %% evaluate
import time


def evaluate(board):
    end = time.process_time() + 0.005
    while time.process_time() < end:  # computing, not waiting: the limit is processor time
        pass
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    return 0
