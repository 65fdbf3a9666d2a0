# expect: correctness=4 play=2
# message: expected 1000
# (play graded in the tests with fewer games, 2/4/8 openings a rung; with the course's
# 4/20/40: play=2, on the class's draw without a secret)
# The same number for every board, finished or not.
# %% evaluate
def evaluate(board):
    return 0
