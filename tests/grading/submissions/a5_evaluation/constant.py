# expect: correctness=4 play=0
# message: expected 1000
# The same number for every board, finished or not.
# %% evaluate
def evaluate(board):
    return 0
