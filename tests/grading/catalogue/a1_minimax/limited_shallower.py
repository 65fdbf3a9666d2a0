# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax_limited
# bug: depth_shallower
# why: one ply too shallow
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth - 1 or node.is_leaf():
        return node.static()
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
