# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: returns_bound
# why: a MIN node returns alpha instead of v
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return alpha
        beta = min(beta, v)
    return alpha
