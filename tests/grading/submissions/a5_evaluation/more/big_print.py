# same as: solution
# The solution printing about 1.2 kB at every call.
# %% evaluate
from minimaxkit.games.connect4_board import line_cells


def evaluate(board):
    print("lines:", board.lines(), "columns:", [board.column(c) for c in range(7)], "-" * 500)
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
    me = board.to_move
    other = "O" if me == "X" else "X"
    sign = 1 if me == "X" else -1
    heights = [board.height(c) for c in range(board.columns)]
    mine = [cell for cell in threats[me] if heights[cell[0]] == cell[1]]
    theirs = [cell for cell in threats[other] if heights[cell[0]] == cell[1]]
    if mine:             # the side to move completes four now
        return sign * 900
    if len(theirs) >= 2:  # two threats it cannot both block
        return -sign * 800
    return 500 * score / (abs(score) + 20)
