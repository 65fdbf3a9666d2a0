# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: no_reordering
# why: reorder ignored: every iteration searches the tree's order
# %% helpers
def search(node, depth, alpha, beta, best):
    if node.depth == depth or node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, search(child, depth, alpha, beta, best))
            if v > alpha:
                best[node] = child
            if v >= beta:
                break
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, search(child, depth, alpha, beta, best))
        if v < beta:
            best[node] = child
        if v <= alpha:
            break
        beta = min(beta, v)
    return v
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    for depth in range(1, max_depth + 1):
        value = search(node, depth, -math.inf, math.inf, best)
        yield value, best[node]
