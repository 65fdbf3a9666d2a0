# expect: correctness=5
# Float weights summed over a set of strings: the sum's last bits follow the set's order,
# which follows the string hash seed, and so do the moves between boards of equal value.
# %% evaluate
WEIGHTS = {"X": 0.1, "O": -0.7}


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    score = 0.3
    for line in board.lines():
        for me in {"X", "O"}:
            score += WEIGHTS[me] * line.count(me) ** 2
    centre = board.column(3)
    for me in {"X", "O"}:
        score += 0.9 * WEIGHTS[me] * centre.count(me)
    return 999 * score / (abs(score) + 10)
