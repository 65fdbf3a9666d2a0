# ruff: noqa: F821 - math comes from the notebook's setup cell
# Stops one ply too deep (node.depth > max_depth instead of ==); question 1 is right.
# expect: test_minimax=6 test_minimax_limited=1.5 test_best_move=1
# bug: depth_deeper
# message: depth off by one
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    values = [minimax(child) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth > max_depth or node.is_leaf():
        return node.static()
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% best_move
def best_move(node, max_depth):
    pairs = [(minimax_limited(child, max_depth), child) for child in node.children()]
    return max(pairs) if node.is_max() else min(pairs)
