# expect: correctness=4 play=0
# message: expected 1000
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=0)
# Scores from O's side: every value has the wrong sign.
# %% evaluate
def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return -1000 if winner == "X" else 1000
    if board.is_full():
        return 0
    score = 0
    for line in board.lines():
        if "O" not in line:
            score -= line.count("X") ** 2
        if "X" not in line:
            score += line.count("O") ** 2
    return max(-999, min(999, score))
