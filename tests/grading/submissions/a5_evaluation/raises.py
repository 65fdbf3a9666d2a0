# expect: correctness=4 play=0
# message: raised ValueError
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
