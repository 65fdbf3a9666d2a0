# expect: correctness=4 play=4
# message: against kit
# Tries to change the game and the grader from its own process (the kit's evaluation
# underneath): patches the kit's players, rewrites the board it is given and the tests,
# and writes into the course. Nothing of it reaches the game record or the grade; only
# its own board, whose move count it zeroes, now misses the drawn full board.
# %% evaluate

import minimaxkit.grading.evaluation as grading
import minimaxkit.matches as matches

matches.play_game = lambda *a, **k: None
grading.check_play = lambda *a, **k: None
matches.GAME = None
for path in ("tests.json", "../../../gradebook.db"):
    try:
        with open(path, "w") as f:
            f.write('{"questions": {}}')
    except OSError:
        pass


def evaluate(board):
    try:
        object.__setattr__(board, "_played", 0)   # the grader's copy is not this one
    except Exception:
        pass
    winner = board.winner()
    if winner == "X":
        return 1000
    if winner == "O":
        return -1000
    if board.is_full():
        return 0
    score = 0
    for line in board.lines():
        for me, other, sign in (("X", "O", 1), ("O", "X", -1)):
            if other not in line:
                n = line.count(me)
                score += sign * (5 if n == 3 else 2 if n == 2 else 0)
    centre = board.column(3)
    score += 3 * (centre.count("X") - centre.count("O"))
    return 1000 * score / (abs(score) + 20)
