# expect: correctness=4
# message: pure: the same board gets the same value when asked again
# Sound for its first 240 calls, then every board in play gets one point more.
# %% evaluate
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
    v = value(board)
    if CALLS[0] > 240 and -1000 < v < 1000:
        v += 1
    return v
