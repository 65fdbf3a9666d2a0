# expect: correctness=5 play=4.1
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=4, on the class's draw without a secret)
# Threats without whose move it is: a playable threat counts as a win for its owner,
# even when the other side is to move and can block it.
# %% evaluate
from minimaxkit.games.connect4_board import line_cells


def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    score = 0
    threats = {"X": set(), "O": set()}
    cells = line_cells(board.columns, board.rows)
    for line, where in zip(board.lines(), cells, strict=True):
        for me, other, sign in (("X", "O", 1), ("O", "X", -1)):
            if other in line:
                continue
            n = line.count(me)
            if n == 3:
                score += sign * 5
                threats[me].add(where[line.index(".")])
            elif n == 2:
                score += sign * 2
    centre = board.column(3)
    score += 3 * (centre.count("X") - centre.count("O"))
    heights = [board.height(c) for c in range(board.columns)]
    for player, sign in (("X", 1), ("O", -1)):  # whoever is to move
        if any(heights[c] == r for c, r in threats[player]):
            return sign * 900
    return 500 * score / (abs(score) + 20)
