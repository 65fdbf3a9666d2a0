# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# bug: always_max
# why: every node maximises (MIN forgotten)
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    best = -math.inf
    for child in node.children():
        best = max(best, minimax(child))
    return best
