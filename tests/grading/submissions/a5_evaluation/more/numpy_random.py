# expect: correctness=3
# message: pure: the same board gets the same value when asked again
# The kit's features with numpy.random noise: not pure, but the same games on every run.
# %% evaluate
import numpy as np


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    centre = board.column(3)
    score = 3 * (centre.count("X") - centre.count("O"))
    for line in board.lines():
        if "O" not in line:
            score += line.count("X") ** 2
        if "X" not in line:
            score -= line.count("O") ** 2
    score += np.random.normal(0, 4)
    return 900 * score / (abs(score) + 30)
