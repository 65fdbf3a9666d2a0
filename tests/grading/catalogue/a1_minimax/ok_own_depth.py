# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: a depth-limited search that counts the depth itself, with an extra parameter
# %% minimax_limited
def minimax_limited(node, max_depth, depth=0):
    if depth == max_depth or node.is_leaf():
        return node.static()
    values = [minimax_limited(child, max_depth, depth + 1) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% best_move
def best_move(node, max_depth):
    best = None
    for child in node.children():
        value = minimax_limited(child, max_depth, 1)
        if best is None:
            best = (value, child)
        elif node.is_max() and value > best[0]:
            best = (value, child)
        elif not node.is_max() and value < best[0]:
            best = (value, child)
    return best
