# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: returns_bound
# why: a MAX node returns beta instead of v
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return beta
            alpha = max(alpha, v)
        return beta
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
