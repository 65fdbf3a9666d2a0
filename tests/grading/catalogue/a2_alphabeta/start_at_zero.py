# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: start_at_zero
# why: a running max started at 0 (and the min at a large number)
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = 0
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = 1000
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
