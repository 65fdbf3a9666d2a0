# expect: correctness=4 play=0
# message: raised ValueError
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=0)
# Fails on boards with a full column.
# %% evaluate
def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    score = 0
    for c in range(board.columns):
        top = board.column(c).index(".")   # raises on a full column
        score += top * (1 if c == 3 else 0)
    centre = board.column(3)
    return 10 * (centre.count("X") - centre.count("O"))
