# expect: correctness=4
# message: pure: the same board gets the same value when asked again
# A memory of history: a board's first value depends on how many boards came before it, and
# a board asked again (or its mirror image) gets that first value back.
# %% evaluate
SEEN = {}


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
    key = min(str(board), str(board.mirror()))
    if key not in SEEN:
        v = value(board)
        SEEN[key] = v if board.is_over() else v + (len(SEEN) % 5) / 10
    return SEEN[key]
