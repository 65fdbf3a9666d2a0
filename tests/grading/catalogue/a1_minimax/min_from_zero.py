# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# bug: start_at_zero
# why: both running values started at 0
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    best = 0
    for child in node.children():
        value = minimax(child)
        if node.is_max():
            best = max(best, value)
        else:
            best = min(best, value)
    return best
