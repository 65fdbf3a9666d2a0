# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_best_move
# bug: start_at_zero
# why: best_move's best value started at 0 at MAX (and at a large number at MIN)
# %% best_move
def best_move(node, max_depth):
    best_value = 0 if node.is_max() else 1000000
    best_child = None
    for child in node.children():
        value = minimax_limited(child, max_depth)
        if (node.is_max() and value > best_value) or (not node.is_max() and value < best_value):
            best_value, best_child = value, child
    return best_value, best_child
