# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: best_move keeping the last of equally good children (any best child counts)
# %% best_move
def best_move(node, max_depth):
    best_value = -math.inf if node.is_max() else math.inf
    best_child = None
    for child in node.children():
        value = minimax_limited(child, max_depth)
        if (node.is_max() and value >= best_value) or (not node.is_max() and value <= best_value):
            best_value, best_child = value, child
    return best_value, best_child
