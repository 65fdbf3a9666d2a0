# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: best_move through a helper that returns (value, child) at every node
# %% best_move
def search(node, max_depth):
    if node.depth == max_depth or node.is_leaf():
        return node.static(), None
    best_value, best_child = None, None
    for child in node.children():
        value, _ = search(child, max_depth)
        if best_child is None or (value > best_value if node.is_max() else value < best_value):
            best_value, best_child = value, child
    return best_value, best_child


def best_move(node, max_depth):
    return search(node, max_depth)
