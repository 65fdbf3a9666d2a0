# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: running values started at the first child's value
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    children = node.children()
    best = minimax(children[0])
    for child in children[1:]:
        value = minimax(child)
        if (node.is_max() and value > best) or (not node.is_max() and value < best):
            best = value
    return best
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.is_leaf():
        return node.static()
    if node.depth == max_depth:
        return node.static()
    children = node.children()
    best = minimax_limited(children[0], max_depth)
    for child in children[1:]:
        value = minimax_limited(child, max_depth)
        best = max(best, value) if node.is_max() else min(best, value)
    return best
