# ruff: noqa - a hostile submission, on purpose
# Replaces the test cell with one that returns full points; alphabeta returns 0.
# expect: test_alphabeta=0
# message: value 0 ✘
# %% alphabeta
def alphabeta(node, alpha, beta):
    return 0
# %% test_alphabeta
7
