# expect: correctness=4 play=0
# message: too slow
# Quick for its first 100 boards, then 3 ms of computing a board.
# %% evaluate
import time

CALLS = [0]


def value(board):
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
    return 900 * score / (abs(score) + 30)


def evaluate(board):
    CALLS[0] += 1
    if CALLS[0] > 100:
        end = time.process_time() + 0.003
        while time.process_time() < end:
            pass
    return value(board)
