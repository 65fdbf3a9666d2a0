# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: over_pruning
# why: every node stops when v is outside either bound
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = alphabeta(child, alpha, beta)
        v = max(v, w) if node.is_max() else min(v, w)
        if v >= beta or v <= alpha:
            return v
        if node.is_max():
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
    return v
