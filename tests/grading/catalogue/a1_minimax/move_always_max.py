# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_best_move
# bug: move_always_max
# why: best_move always maximises
# %% best_move
def best_move(node, max_depth):
    best_value, best_child = -math.inf, None
    for child in node.children():
        value = minimax_limited(child, max_depth)
        if value > best_value:
            best_value, best_child = value, child
    return best_value, best_child
