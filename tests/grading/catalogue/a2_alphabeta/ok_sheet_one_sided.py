# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the example sheet's form, one-sided fail-hard (v starts at the node's own bound)
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = alpha
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = v
        return v
    v = beta
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = v
    return v
