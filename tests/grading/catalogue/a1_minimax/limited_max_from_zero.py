# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax_limited
# bug: start_at_zero
# why: a running max started at 0 in the depth-limited search
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth or node.is_leaf():
        return node.static()
    best = 0 if node.is_max() else math.inf
    for child in node.children():
        value = minimax_limited(child, max_depth)
        best = max(best, value) if node.is_max() else min(best, value)
    return best
