# expect: correctness=5 play=5.5
# message: against the kit (300 nodes a move): won
# Tuned to the four openings the old grade played for everybody ("33", "32", "34", "23"):
# the kit's features with the weights, of 200 random ones, that won all 8 games against
# the kit there (open threes 7.02, open twos 0.33, centre 3.83). Elsewhere it is about as
# strong as the kit's own: fewer play points than the solution.
# %% evaluate
def evaluate(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    threes = twos = 0
    for line in board.lines():
        for me, other, sign in (("X", "O", 1), ("O", "X", -1)):
            if other not in line:
                n = line.count(me)
                threes += sign * (n == 3)
                twos += sign * (n == 2)
    centre = board.column(3)
    e = 7.02 * threes + 0.33 * twos + 3.83 * (centre.count("X") - centre.count("O"))
    return 1000 * e / (abs(e) + 20)
