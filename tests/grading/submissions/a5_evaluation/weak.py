# expect: correctness=5 play=2.8
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=2.1, on the class's draw without a secret)
# A weak evaluation: only the pieces in the centre column.
# %% evaluate
def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    centre = board.column(3)
    return 10 * (centre.count("X") - centre.count("O"))
