# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# bug: start_at_zero
# why: a running max started at 0, and the min at a large number
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        best = 0
        for child in node.children():
            best = max(best, minimax(child))
        return best
    best = 1000
    for child in node.children():
        best = min(best, minimax(child))
    return best
