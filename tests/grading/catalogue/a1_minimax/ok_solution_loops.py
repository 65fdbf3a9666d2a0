# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: loops with running values started at -inf and inf
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        best = -math.inf
        for child in node.children():
            best = max(best, minimax(child))
    else:
        best = math.inf
        for child in node.children():
            best = min(best, minimax(child))
    return best
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.is_leaf() or node.depth >= max_depth:
        return node.static()
    if node.is_max():
        return max(minimax_limited(child, max_depth) for child in node.children())
    return min(minimax_limited(child, max_depth) for child in node.children())
# %% best_move
def best_move(node, max_depth):
    scored = [(minimax_limited(child, max_depth), child) for child in node.children()]
    pick = max if node.is_max() else min
    value, child = pick(scored, key=lambda pair: pair[0])
    return value, child
