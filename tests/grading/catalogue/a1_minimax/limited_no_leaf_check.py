# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax_limited
# bug: leaf_not_checked
# why: stops only at the depth limit; a leaf above it has no children to take the max of
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth:
        return node.static()
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
