# expect: correctness=5 play=2
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
