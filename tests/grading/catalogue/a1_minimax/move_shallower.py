# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_best_move
# bug: depth_shallower
# why: searches the children to max_depth - 1 (as if depth counted down)
# %% best_move
def best_move(node, max_depth):
    best_value, best_child = None, None
    for child in node.children():
        value = minimax_limited(child, max_depth - 1)
        if best_child is None or (value > best_value if node.is_max() else value < best_value):
            best_value, best_child = value, child
    return best_value, best_child
