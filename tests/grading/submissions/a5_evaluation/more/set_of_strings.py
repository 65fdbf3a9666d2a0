# expect: correctness=5
# Float weights summed over a set of strings: the sum's rounding follows the set's order,
# which follows the string hash seed.
# %% evaluate

WEIGHTS = {"X": 0.1, "O": -0.7, "XX": 0.3, "OO": -0.2, "XXX": 1.1, "OOO": -1.3}


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    score = 0.0
    for line in board.lines():
        for me in {"X", "O"}:
            other = "O" if me == "X" else "X"
            if other not in line and me in line:
                score += WEIGHTS[me * line.count(me)]
    for pattern in {"XX", "OO", "XXX", "OOO"}:
        score += 1e-3 * sum(pattern in board.column(c) for c in range(7)) * WEIGHTS[pattern]
    return 999 * score / (abs(score) + 10)
