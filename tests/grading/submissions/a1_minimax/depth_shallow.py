# ruff: noqa: F821 - math comes from the notebook's setup cell
# Counts the depth limit from 1 (stops at node.depth == max_depth - 1): one ply too shallow.
# expect: test_minimax=6 test_minimax_limited=0.5 test_best_move=1
# bug: depth_shallower
# message: depth off by one: your search evaluates the nodes one ply above the depth limit
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    values = [minimax(child) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth - 1 or node.is_leaf():
        return node.static()
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% best_move
def best_move(node, max_depth):
    best_value, best_child = None, None
    for child in node.children():
        value = minimax_limited(child, max_depth)
        if best_child is None or (value > best_value if node.is_max() else value < best_value):
            best_value, best_child = value, child
    return best_value, best_child
