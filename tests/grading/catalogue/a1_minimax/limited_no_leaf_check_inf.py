# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax_limited
# bug: leaf_not_checked
# why: stops only at the depth limit; a leaf above it returns -inf or inf
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth:
        return node.static()
    best = -math.inf if node.is_max() else math.inf
    for child in node.children():
        value = minimax_limited(child, max_depth)
        best = max(best, value) if node.is_max() else min(best, value)
    return best
